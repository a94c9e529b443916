"""Game-master core models. They know nothing game-specific: module state lives in JSON that only the
module's engine reads, and every read by a viewer goes through ``gm.core.visibility``."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from . import registry


class Game(models.Model):
    """One game of one module, run by one master."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        SIGNUP = "signup", _("Signup open")
        SETUP = "setup", _("Setting up")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    module = models.CharField(_("game"), max_length=40)
    title = models.CharField(_("title"), max_length=200)
    description = models.TextField(_("description"), blank=True)
    master = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="mastered_games", verbose_name=_("master")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    options = models.JSONField(_("options"), default=dict, blank=True)
    rng_seed = models.BigIntegerField(_("RNG seed"))
    #: phase kind → seconds; the module's defaults fill the gaps.
    durations = models.JSONField(_("phase durations"), default=dict, blank=True)
    state = models.JSONField(default=dict, blank=True, editable=False)
    outcome = models.JSONField(null=True, blank=True, editable=False)
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    #: the announced start date (FM-2.5), shown to players; the game starts when the master starts it.
    starts_at = models.DateTimeField(_("start date"), null=True, blank=True)
    #: signups stay in status ``signup`` but refuse new players while closed (FM-2.5).
    signups_closed = models.BooleanField(_("signups closed"), default=False)
    #: review before publishing (the master's console): a resolved phase's result is stored at the deadline but
    #: applied and shown only when the master approves it or its ``Phase.publish_at`` passes (``gm.core.review``).
    review_results = models.BooleanField(_("review results before publishing"), default=False)
    #: with ``review_results``: minutes after the resolution at which a held result publishes itself (``None``:
    #: only when the master approves it).
    review_auto_minutes = models.PositiveIntegerField(_("publish held results after (minutes)"), null=True,
                                                      blank=True)
    #: the forum life options of issue 23 items 1–4 (prods, replacements, automatic extensions, emergency pauses):
    #: only the keys the master changed; ``gm.core.services.activity.game_activity_options`` fills the defaults.
    activity_options = models.JSONField(_("activity options"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        permissions = [("host_game", _("Can host games"))]
        constraints = [models.CheckConstraint(condition=~Q(module=""), name="game_module_not_empty")]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        """The game page's path (``/games/<pk>/``), reversed once per instance: a game page asks it for every post
        and link it shows (~50 times)."""
        url = self.__dict__.get("_gm_url")
        if url is None or url[0] != self.pk:
            from django.urls import reverse

            url = self.__dict__["_gm_url"] = (self.pk, reverse("gm:game", args=[self.pk]))
        return url[1]

    @property
    def game_module(self):
        return registry.get(self.module)

    @property
    def module_name(self) -> str:
        try:
            return str(self.game_module.name)
        except registry.UnknownModule:
            return self.module

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    def duration_for(self, kind: str) -> float:
        """Seconds a phase of ``kind`` lasts in this game (game setting, else the module default, else 1 day)."""
        if kind in self.durations:
            return float(self.durations[kind])
        return float(self.game_module.default_durations.get(kind, 86400))


class Seat(models.Model):
    """A player's place in a game. ``data`` is the module's per-seat state (secret unless the module's
    ``public_seat_data`` publishes part of it)."""

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats", null=True, blank=True
    )
    display_name = models.CharField(_("display name"), max_length=80)
    position = models.PositiveSmallIntegerField(_("ring position"))
    alive = models.BooleanField(_("alive"), default=True)
    data = models.JSONField(default=dict, blank=True)
    #: bumped on every write of ``data``/``alive``: optimistic concurrency for edits outside a resolution
    #: (e.g. two browser tabs reordering the Hand) — a write that expected an older version is refused.
    version = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user_per_game"),
            models.UniqueConstraint(fields=["game", "position"], name="unique_ring_position"),
            models.UniqueConstraint(fields=["game", "display_name"], name="unique_display_name_per_game"),
        ]

    def __str__(self):
        return self.display_name


class GroupMembership(models.Model):
    """A seat's membership of a named group (``faction:mafia``, ``room:3``): group log entries reach members."""

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="memberships", db_index=False)
    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="memberships", db_index=False)
    group = models.CharField(max_length=80)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "group"], name="unique_group_membership")]
        indexes = [models.Index(fields=["game", "group"])]

    def __str__(self):
        return f"{self.seat_id} ∈ {self.group}"


class Phase(models.Model):
    """One phase of a game; the row is the truth about its deadline and resolution.

    ``status`` goes ``open → resolving → resolved`` only through compare-and-set updates in
    ``gm.core.services``; ``claim_token``/``claimed_at`` identify the worker resolving it, so a phase left
    ``resolving`` by a dead worker can be reclaimed. ``state`` and ``rng_seed`` are what re-runs it.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVING = "resolving", _("resolving")
        RESOLVED = "resolved", _("resolved")

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="phases", db_index=False)
    ordinal = models.PositiveIntegerField()
    kind = models.CharField(max_length=30)
    number = models.PositiveIntegerField(default=1)
    #: seat ids allowed to order; null = every living seat.
    actors = models.JSONField(null=True, blank=True)
    opens_at = models.DateTimeField()
    deadline = models.DateTimeField(db_index=True)
    base_deadline = models.DateTimeField(help_text="deadline before any extension")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    #: ``{"game": module state, "seats": [seat snapshots]}`` taken when resolution starts (re-run input).
    state = models.JSONField(default=dict, blank=True)
    rng_seed = models.BigIntegerField()
    claim_token = models.UUIDField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    claims = models.PositiveIntegerField(default=0, help_text="how many times a worker claimed it")
    resolved_at = models.DateTimeField(null=True, blank=True)
    #: sha256 of the canonical JSON of what the engine returned; a re-run must give the same digest.
    result_digest = models.CharField(max_length=64, blank=True)
    #: what the engine returned (``Resolution`` as JSON); ``manage.py gm_replay`` compares a re-run with it.
    result = models.JSONField(default=dict, blank=True)
    #: part of the setup stage (e.g. deck building): the game is ``setup`` while such a phase is open.
    setup = models.BooleanField(default=False)
    overdue_at = models.DateTimeField(null=True, blank=True, help_text="when it was flagged overdue")
    #: review before publishing: when the result was computed and held back (``None``: never held); it is applied
    #: (seats, log, next phase) at ``published_at``, by the master's approval or at ``publish_at``.
    held_at = models.DateTimeField(null=True, blank=True)
    publish_at = models.DateTimeField(null=True, blank=True, db_index=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "ordinal"]
        verbose_name = _("phase")
        verbose_name_plural = _("phases")
        constraints = [
            models.UniqueConstraint(fields=["game", "ordinal"], name="unique_phase_ordinal"),
            # At most one unresolved phase per game: a second "next phase" can never be opened.
            models.UniqueConstraint(
                fields=["game"], condition=~Q(status="resolved"), name="one_unresolved_phase_per_game"
            ),
        ]

    def __str__(self):
        return f"{self.game_id}#{self.ordinal} {self.kind} {self.number}"

    @property
    def label(self) -> str:
        """«Ночь 1» / "Night 1" in the active language."""
        try:
            return self.game.game_module.phase_label(self.kind, self.number)
        except registry.UnknownModule:
            return f"{self.kind} {self.number}"

    def label_in(self, language: str) -> str:
        with translation.override(language):
            return self.label

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def is_held(self) -> bool:
        """Resolved, its result held back for the master's review and not published yet."""
        return self.held_at is not None and self.published_at is None


class Order(models.Model):
    """One version of a seat's order in a phase. Versions are never changed or deleted; the highest version
    counts at the deadline (FM-5.6). ``payload`` null means the order was withdrawn."""

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="orders", db_index=False)
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="orders")
    version = models.PositiveIntegerField()
    payload = models.JSONField(null=True, blank=True)
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["phase", "seat", "version"]
        constraints = [models.UniqueConstraint(fields=["phase", "seat", "version"], name="unique_order_version")]

    def __str__(self):
        return f"{self.seat_id}@{self.phase_id} v{self.version}"

    @property
    def withdrawn(self) -> bool:
        return self.payload is None


class LogEntry(models.Model):
    """A line of a game's log with its audience. ``kind`` is ``core.<key>`` for core events or a module message
    key; the text is rendered in the viewer's language from ``data`` (see :meth:`text`)."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("public")
        SEAT = "seat", _("one player")
        GROUP = "group", _("group")
        MASTER = "master", _("master")

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log_entries", db_index=False)
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="log_entries", null=True, blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices)
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    group = models.CharField(max_length=80, blank=True)
    kind = models.CharField(max_length=60)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["game", "visibility"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(visibility="seat") & Q(seat__isnull=False))
                | (~Q(visibility="seat") & Q(seat__isnull=True)),
                name="log_seat_iff_seat_visibility",
            ),
            models.CheckConstraint(
                condition=(Q(visibility="group") & ~Q(group="")) | (~Q(visibility="group") & Q(group="")),
                name="log_group_iff_group_visibility",
            ),
        ]

    def __str__(self):
        return f"{self.kind} ({self.visibility})"

    def text(self) -> str:
        """The entry rendered in the active language."""
        from .messages import render_entry

        return render_entry(self)


class Post(models.Model):
    """A post in the game thread (FM-9.1): public BBCode ``body`` and a short plain-text ``comment``.

    ``body`` never holds a private message: a ``[private="Name"]…[/private]`` part (FM-9.2) is cut out when the
    post is written and kept in its own :class:`PostPrivate` row, which only the visibility layer reads, so nothing
    that shows ``body`` can leak it. Edits keep every earlier version as a :class:`PostRevision`.
    """

    #: longest ``body`` as written (private part included); longest ``comment``.
    MAX_BODY = 20000
    MAX_COMMENT = 500

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="posts", db_index=False)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="posts")
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="posts")
    #: the phase open when the post was written (``None`` before the first phase or between phases): day posts
    #: are where FM-9.3 chat-room proposals are read from, and private messages are counted per day (``postman``).
    phase = models.ForeignKey(Phase, on_delete=models.SET_NULL, null=True, blank=True, related_name="posts")
    body = models.TextField(_("text"), max_length=MAX_BODY, blank=True)
    #: FM-9.1 "comment field": short plain text shown under the post (never BBCode).
    comment = models.CharField(_("comment"), max_length=MAX_COMMENT, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    #: a system post written by the site, not a person (``{"kind": "core.…", "data": {…}}``): rendered in each
    #: reader's language from ``gm.core.messages`` instead of ``body`` (e.g. "B replaces A").
    system = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["game", "created_at", "id"])]

    def __str__(self):
        return f"post {self.pk} in {self.game_id}"


class PostRevision(models.Model):
    """An earlier version of an edited post (``version`` 1 is the post as first written). Only the master reads
    them (``visibility.post_revisions``)."""

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="revisions", db_index=False)
    version = models.PositiveIntegerField()
    body = models.TextField(blank=True)
    comment = models.CharField(max_length=Post.MAX_COMMENT, blank=True)
    #: when this version was written (the post's creation or an earlier edit).
    written_at = models.DateTimeField()
    #: when the edit that replaced it was saved.
    replaced_at = models.DateTimeField()

    class Meta:
        ordering = ["post", "version"]
        constraints = [models.UniqueConstraint(fields=["post", "version"], name="unique_post_revision")]

    def __str__(self):
        return f"post {self.post_id} v{self.version}"


class PostPrivate(models.Model):
    """The private part of a post (FM-9.2): ``text`` (BBCode) for ``recipient`` only — and the master. Everyone
    else learns only that the post holds one; the recipient's name too when ``public_recipient`` (the module said
    so, e.g. forum Mafia's ``postman``). Read it only through ``gm.core.visibility``."""

    post = models.OneToOneField(Post, on_delete=models.CASCADE, related_name="private")
    recipient = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=Post.MAX_BODY)
    public_recipient = models.BooleanField(default=False)

    def __str__(self):
        return f"private part of post {self.post_id}"


class AuditEntry(models.Model):
    """A master's intervention, with the reason he gave. Only masters read it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="audit_entries")
    phase = models.ForeignKey(Phase, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=40)
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.action} by {self.actor_id}"

    @property
    def action_label(self) -> str:
        """The action in the active language: the core's (:data:`AUDIT_ACTIONS`) or the game module's
        (``GameModule.audit_actions``); an unknown action shows as its slug."""
        label = AUDIT_ACTIONS.get(self.action)
        if label is None:
            try:
                label = registry.get(self.game.module).audit_actions.get(self.action)
            except registry.UnknownModule:
                label = None
        return str(label) if label is not None else self.action


#: The core's audit-log actions (``AuditEntry.action``) → their names in the master's console.
AUDIT_ACTIONS = {
    "abort": _("game aborted"),
    "extend": _("deadline extended"),
    "pause": _("game paused"),
    "resume": _("game resumed"),
    "resolve_now": _("phase resolved early"),
    "seat_edit": _("cards and flags edited"),
    "kill": _("character killed"),
    "revive": _("character revived"),
    "replace": _("player replaced"),
    "publish": _("result published"),
    "publish_at": _("publication time set"),
    "review_mode": _("result review changed"),
    "reminder": _("deadline reminder changed"),
    "account_deleted": _("player deleted his account: replace his seat"),
    "dice_fix": _("dice fixed"),
    "activity_options": _("activity options changed"),
    "replacement_ack": _("replacement request acknowledged"),
    "seat_flag": _("seat flagged for replacement"),
    "seat_unflag": _("replacement flag cleared"),
    "grid": _("deadline grid changed"),
    "early_ends": _("early ends changed"),
    "anonymity": _("anonymity changed"),
    "graveyard": _("graveyard changed"),
    "signup_requirements": _("signup requirements changed"),
    "comaster_add": _("co-master added"),
    "comaster_remove": _("co-master removed"),
    "takeover": _("game taken over from an inactive master"),
    "setup_review": _("setup review decided"),
}


# The long-game features' models (issue 23: outages, deadline grids, early ends, anonymity, graveyard) are kept in
# their own file; imported here so Django registers them with the core app.
from .comaster_models import (  # noqa: E402,F401 - registered with the core app (issue 24 item 5)
    CoMaster,
    SetupReview,
    TakeoverOffer,
)
from .life_models import (  # noqa: E402,F401
    GameLife,
    GraveyardPost,
    Outage,
    ReadyMark,
    SeatAlias,
    SweepMark,
    life_of,
)
from .models_life import (  # noqa: E402,F401 - registered with the core app (issue 23 items 1–4)
    Away,
    EmergencyPause,
    ReplacementRequest,
    SeatStatus,
    Tenure,
    Volunteer,
)
from .stamp_models import PageStamp  # noqa: E402,F401 - the game pages' stamps (issue 25, gm.core.page_stamps)
