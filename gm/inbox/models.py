"""Inbox models: one :class:`Notification` row per user and event, the user's :class:`NotificationSettings`
(e-mail opt-in), the master's per-game :class:`GameReminder` and the :class:`PhaseReminder` rows that make each
deadline reminder happen exactly once.

Notifications hold no game secrets of their own except a private message's text, which is stored only in its
recipient's row; a notification that points at a log entry renders the entry's text at read time, after the
visibility layer confirms the reader may still see it (``gm.inbox.selectors``).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gm.core.models import Game, LogEntry, Phase, Seat

#: The most hours before a deadline a master may ask for a reminder (one week).
MAX_REMINDER_HOURS = 168


class Notification(models.Model):
    """One thing one user should know about.

    ``kind``: ``phase_results`` (one per user and resolved phase: the public part, with counts in ``data``),
    ``result`` (one private log entry — seat or group — addressed to this user; ``entry`` set), ``private_message``
    (``body`` is the text, for the recipient only), ``room_invitation`` (``data["group"]`` is the room's group
    slug), ``deadline_reminder`` (``phase`` is the open phase), ``prod`` (the player has been quiet for the game's
    ``prod_after``: ``data["hours"]``), ``channel_disabled`` (``gm.chatpush``: one of the user's chat or push
    channels failed too often and was disabled: ``data["channel"]``, ``data["failures"]``, ``data["url"]`` its
    settings page; ``game`` is the game of the message that failed last), ``your_move`` (a step of a game of steps,
    ``GameModule.step_notices``, asks this player: ``phase`` is the step, ``data["step"]`` its kind). ``key``
    de-duplicates: one row per ``(user, key)`` when ``key`` is not empty, so a task run twice adds nothing.
    """

    class Kind(models.TextChoices):
        PHASE_RESULTS = "phase_results", _("phase results")
        RESULT = "result", _("private result")
        PRIVATE_MESSAGE = "private_message", _("private message")
        ROOM_INVITATION = "room_invitation", _("room invitation")
        DEADLINE_REMINDER = "deadline_reminder", _("deadline reminder")
        PROD = "prod", _("prod")
        CHANNEL_DISABLED = "channel_disabled", _("notification channel disabled")
        NOTICE = "notice", _("co-mastering notice")
        YOUR_MOVE = "your_move", _("your move")

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications", db_index=False,
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    entry = models.ForeignKey(LogEntry, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    #: a private message's text (recipient's row only); empty for every other kind.
    body = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    key = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(_("created"), db_index=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)
    #: when the e-mail copy was handed to the mail backend (claimed by compare-and-set, so it goes at most once).
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        indexes = [models.Index(fields=["user", "read_at"])]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], condition=~Q(key=""), name="inbox_unique_user_key"),
            models.CheckConstraint(
                condition=(Q(kind="result") & Q(entry__isnull=False)) | (~Q(kind="result") & Q(entry__isnull=True)),
                name="inbox_entry_iff_result",
            ),
        ]

    def __str__(self):
        return f"{self.kind} → {self.user_id}"

    @property
    def unread(self) -> bool:
        return self.read_at is None


class NotificationSettings(models.Model):
    """A user's notification preferences. ``email``: also send phase results and deadline reminders by e-mail
    (off by default; the inbox always gets them)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_settings")
    email = models.BooleanField(_("also send notifications by e-mail"), default=False)

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self):
        return f"{self.user_id}: e-mail {'on' if self.email else 'off'}"


class GameReminder(models.Model):
    """The master's deadline reminder for one game: ``hours`` (whole hours, 0–:data:`MAX_REMINDER_HOURS`) before
    each phase's deadline, players who have not ordered are reminded; 0 turns reminders off. No row = off."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="reminder")
    hours = models.PositiveSmallIntegerField(_("remind players this many hours before a deadline (0: never)"),
                                             default=0)

    class Meta:
        verbose_name = _("deadline reminder")
        verbose_name_plural = _("deadline reminders")
        constraints = [models.CheckConstraint(condition=Q(hours__lte=MAX_REMINDER_HOURS),
                                              name="inbox_reminder_hours_max")]

    def __str__(self):
        return f"{self.game_id}: {self.hours} h"


class PhaseReminder(models.Model):
    """A deadline reminder sent to one seat for one phase. The unique constraint is what makes it exactly once,
    however many sweeps run at the same time."""

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="+", db_index=False)
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["phase", "seat"], name="inbox_one_reminder_per_phase_seat")]

    def __str__(self):
        return f"reminder {self.seat_id}@{self.phase_id}"
