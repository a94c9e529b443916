"""Community models (issue 24 items 2 and 3).

* :class:`Reliability` — each player's reliability record, kept as incremental counters (game end, handover,
  modkill) that :func:`gm.community.services.reliability_recompute` can rebuild from the core's events.
* :class:`SignupRequirement` — what a game asks of a player's record to let him sign up.
* :class:`WarningPoint`, :class:`SanctionLevel` (the published table) and :class:`Sanction` — staff warnings that
  expire, and the sanctions they bring.
* :class:`SetupStat` and :class:`PlayerGame` — the statistics of finished games: one row per (module, player count,
  setup, side or role), incremented at game end, and one row per player and game.

Written only by ``gm.community.services``; nothing here is about a running game (statistics are written when a game
is over, when everything is revealed).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gm.core.models import Game, Seat


class Reliability(models.Model):
    """A player's reliability record: games he played to the end (``finished``), seats he left to a replacement
    (``replaced_out``), modkills (the master's kill and the activity sweep's idle kill), and per tenure the phases
    in which his seat had something to order (``action_phases``) and those he let pass without an order
    (``missed_orders``). A replacement never inherits his predecessor's figures: they are counted per tenure."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="reliability")
    finished = models.PositiveIntegerField(_("finished games"), default=0)
    replaced_out = models.PositiveIntegerField(_("replaced out"), default=0)
    modkilled = models.PositiveIntegerField(_("modkilled"), default=0)
    missed_orders = models.PositiveIntegerField(_("missed orders"), default=0)
    action_phases = models.PositiveIntegerField(_("phases with something to order"), default=0)

    class Meta:
        verbose_name = _("reliability record")
        verbose_name_plural = _("reliability records")

    def __str__(self):
        return f"reliability of {self.user_id}"

    @property
    def missed_rate(self) -> float:
        """Missed orders per phase with something to order, in percent (0 with no such phase)."""
        return round(100.0 * self.missed_orders / self.action_phases, 1) if self.action_phases else 0.0


class SignupRequirement(models.Model):
    """What ``game`` asks of a player to sign up (set by its master); ``None``/``False``: no such requirement."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="signup_requirement")
    min_finished = models.PositiveIntegerField(_("at least this many finished games"), null=True, blank=True)
    max_missed_percent = models.PositiveSmallIntegerField(_("missed orders at most (%)"), null=True, blank=True)
    max_modkilled = models.PositiveIntegerField(_("modkills at most"), null=True, blank=True)
    no_sanction = models.BooleanField(_("no active sanction"), default=False)

    class Meta:
        verbose_name = _("signup requirement")
        verbose_name_plural = _("signup requirements")
        constraints = [models.CheckConstraint(condition=Q(max_missed_percent__lte=100),
                                              name="community_missed_percent_at_most_100")]

    def __str__(self):
        return f"signup requirement of game {self.game_id}"

    @property
    def any(self) -> bool:
        return (self.min_finished is not None or self.max_missed_percent is not None
                or self.max_modkilled is not None or self.no_sanction)


class SanctionLevel(models.Model):
    """A line of the published sanction table: reaching ``points`` active warning points brings a sanction of
    ``kind`` for ``days`` days."""

    class Kind(models.TextChoices):
        PROBATION = "probation", _("probation (games requiring no active sanction refuse the signup)")
        NO_SIGNUP = "no_signup", _("cannot sign up for games")

    points = models.PositiveSmallIntegerField(_("warning points"), unique=True)
    kind = models.CharField(_("sanction"), max_length=12, choices=Kind.choices)
    days = models.PositiveSmallIntegerField(_("days"))

    class Meta:
        ordering = ["points"]
        verbose_name = _("sanction level")
        verbose_name_plural = _("sanction table")
        constraints = [models.CheckConstraint(condition=Q(points__gte=1) & Q(days__gte=1),
                                              name="community_sanction_level_positive")]

    def __str__(self):
        return f"{self.points} → {self.kind} {self.days} d"


class WarningPoint(models.Model):
    """Warning points a staff member gave a player, with the reason; they count until ``expires_at`` (or until
    revoked)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="warning_points",
                             verbose_name=_("player"))
    points = models.PositiveSmallIntegerField(_("points"))
    reason = models.TextField(_("reason"))
    given_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("given by"))
    created_at = models.DateTimeField(_("given"))
    expires_at = models.DateTimeField(_("expires"), db_index=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("warning points")
        verbose_name_plural = _("warning points")
        constraints = [models.CheckConstraint(condition=Q(points__gte=1) & Q(points__lte=10),
                                              name="community_warning_points_1_to_10")]

    def __str__(self):
        return f"{self.points} points for {self.user_id}"


class Sanction(models.Model):
    """A sanction in force from ``starts_at`` to ``ends_at``, brought by ``warning`` reaching ``points`` active
    points (a copy of the table's line, so later edits of the table change no past sanction)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions")
    warning = models.ForeignKey(WarningPoint, on_delete=models.CASCADE, related_name="sanctions")
    points = models.PositiveSmallIntegerField(_("warning points"))
    kind = models.CharField(_("sanction"), max_length=12, choices=SanctionLevel.Kind.choices)
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"), db_index=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")

    def __str__(self):
        return f"{self.kind} of {self.user_id} until {self.ends_at:%Y-%m-%d}"


class SetupStat(models.Model):
    """One aggregate of finished, not abandoned games: for a module, a player count and a setup (the sorted role
    slugs in play, ``""`` for a module without roles), either the whole game (``kind`` ``game``, ``key`` ``""``:
    ``games``, ``draws``), a side (``side``: games it played in, ``wins`` games it won) or a role (``role``:
    ``games`` seats that held it, ``wins`` those that won). ``phases`` and ``seconds`` are sums of the games' lengths
    (counted once per ``games``), so the mean is a division. Incremented at game end, never rebuilt by a scan."""

    class Kind(models.TextChoices):
        GAME = "game", _("game")
        SIDE = "side", _("side")
        ROLE = "role", _("role")

    module = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField()
    setup = models.CharField(max_length=1000, blank=True)
    kind = models.CharField(max_length=4, choices=Kind.choices)
    key = models.CharField(max_length=60, blank=True)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    phases = models.PositiveBigIntegerField(default=0)
    seconds = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["module", "players", "setup", "kind", "key"]
        constraints = [models.UniqueConstraint(fields=["module", "players", "setup", "kind", "key"],
                                               name="community_one_stat_row")]

    def __str__(self):
        return f"{self.module}/{self.players}/{self.kind}:{self.key}"


class PlayerGame(models.Model):
    """A player's line in his history: one finished, not abandoned game he played (to the end, or until he was
    replaced: ``result`` ``replaced``), with the revealed side and role of his seat."""

    class Result(models.TextChoices):
        WON = "won", _("won")
        LOST = "lost", _("lost")
        DRAW = "draw", _("draw")
        REPLACED = "replaced", _("replaced")

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    module = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField()
    setup = models.CharField(max_length=1000, blank=True)
    side = models.CharField(max_length=60, blank=True)
    role = models.CharField(max_length=60, blank=True)
    result = models.CharField(max_length=8, choices=Result.choices)
    phases = models.PositiveIntegerField()
    seconds = models.PositiveBigIntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at", "-id"]
        indexes = [models.Index(fields=["user", "-finished_at"])]

    def __str__(self):
        return f"{self.user_id} in {self.game_id}: {self.result}"
