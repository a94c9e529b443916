"""Chat and push channels (:class:`Channel`) and the messages queued for them (:class:`Delivery`).

A channel's ``target`` holds the webhook URL with its tokens (apprise) or the push service endpoint (Web Push): both
are credentials of the user, shown only to him and only in their ``label`` / privacy form. A delivery row holds the
message as it was rendered for its recipient (his language, his time zone, through the visibility layer): the text
carries no game secret (see :mod:`gm.chatpush`).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gm.core.models import Game

PHASE_OPENED = "phase_opened"
RESULTS = "results"
YOUR_MOVE = "your_move"
DEADLINE = "deadline"
PROD = "prod"
PRIVATE_MESSAGE = "private_message"
MENTION = "mention"

#: The events a channel may receive: slug → label (the order of the profile's checkboxes).
EVENTS = {
    PHASE_OPENED: _("a phase opened"),
    RESULTS: _("results published"),
    YOUR_MOVE: _("your move"),
    DEADLINE: _("deadline warning"),
    PROD: _("prod (you have been quiet)"),
    PRIVATE_MESSAGE: _("private message"),
    MENTION: _("mention in the thread"),
}
#: What a new channel receives until its owner chooses (the events that ask him to act: few pushes a day).
DEFAULT_EVENTS = [YOUR_MOVE, DEADLINE, PROD, PRIVATE_MESSAGE, MENTION]


class Channel(models.Model):
    """One place a user's notifications go: an apprise URL (``kind`` ``apprise``) or one browser's Web Push
    subscription (``webpush``: ``subscription`` is the browser's ``PushSubscription.toJSON()``, ``target`` its
    endpoint). ``events``: list of :data:`EVENTS` slugs. ``failures``: failed attempts in a row (reset by a
    success); at ``GM_CHATPUSH_DISABLE_AFTER`` the channel is disabled (``enabled`` false, ``disabled_reason``)."""

    class Kind(models.TextChoices):
        APPRISE = "apprise", _("chat webhook")
        WEBPUSH = "webpush", _("browser push")

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_channels", db_index=False,
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    label = models.CharField(_("name"), max_length=80)
    target = models.TextField(_("address"))
    subscription = models.JSONField(default=dict, blank=True)
    events = models.JSONField(default=list, blank=True)
    enabled = models.BooleanField(default=True)
    failures = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.TextField(blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("notification channel")
        verbose_name_plural = _("notification channels")
        constraints = [models.UniqueConstraint(fields=["user", "target"], name="chatpush_unique_user_target")]

    def __str__(self):
        return f"{self.kind}:{self.label} → {self.user_id}"


class Delivery(models.Model):
    """One message for one channel. ``key`` de-duplicates per channel (``results:<phase>``, ``deadline:<phase>:<ts>``
    …: a task run twice queues nothing new); ``collapse`` names what a newer message replaces (a game's deadline
    warning: the Web Push ``Topic`` and notification tag; older pending rows of it become ``superseded``).
    ``ttl``: seconds the push service keeps it. ``attempts`` and ``delays`` (the backoff before each retry, seconds)
    record the retries."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        SUPERSEDED = "superseded", _("replaced by a newer one")

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    channel = models.ForeignKey(Channel, on_delete=models.CASCADE, related_name="deliveries", db_index=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    event = models.CharField(max_length=20)
    key = models.CharField(max_length=120)
    collapse = models.CharField(max_length=32, blank=True)
    title = models.CharField(max_length=300)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=500)
    ttl = models.PositiveIntegerField(default=86400)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    delays = models.JSONField(default=list, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("notification delivery")
        verbose_name_plural = _("notification deliveries")
        constraints = [models.UniqueConstraint(fields=["channel", "key"], name="chatpush_unique_channel_key")]
        indexes = [models.Index(fields=["channel", "collapse"], condition=Q(status="pending"),
                                name="chatpush_pending_collapse")]

    def __str__(self):
        return f"{self.event} → channel {self.channel_id} ({self.status})"
