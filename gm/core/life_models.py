"""Models of the long-game features (issue 23, items 5–10): the deadline sweep's heartbeat and the outages it
detected, each game's options for deadline grids, early ends, anonymity and the graveyard, the "done" marks of
``all_ready``, seat aliases and graveyard posts.

They live in their own file (imported at the end of :mod:`gm.core.models`, so their app is ``core``) and every
per-game option sits on :class:`GameLife`, one row per game created on first use: a game without a row has every
option at its default (all off), which is what :func:`life_of` returns unsaved.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .models import Game, Phase, Seat


class SweepMark(models.Model):
    """The last time a periodic sweep (``name``: ``phases``) finished: outage detection compares with it."""

    name = models.CharField(max_length=40, primary_key=True)
    last_success = models.DateTimeField()

    def __str__(self):
        return f"{self.name} @ {self.last_success.isoformat()}"


class Outage(models.Model):
    """A gap in the deadline sweep longer than ``GM_OUTAGE_AFTER`` (``gm.core.services.outage``): from the last
    successful sweep ``down_from`` to the sweep that noticed it, ``detected_at``. Every open deadline that fell in
    the gap moved by ``shift_seconds`` (the gap plus ``GM_OUTAGE_GRACE``); ``phases`` lists those phases' ids and
    ``games`` the running games that were told."""

    down_from = models.DateTimeField()
    detected_at = models.DateTimeField(db_index=True)
    shift_seconds = models.PositiveIntegerField()
    phases = models.JSONField(default=list, blank=True)
    games = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-detected_at"]

    def __str__(self):
        return f"outage {self.down_from.isoformat()} → {self.detected_at.isoformat()}"

    @property
    def minutes(self) -> int:
        return round((self.detected_at - self.down_from).total_seconds() / 60)


class GameLife(models.Model):
    """One game's options of the long-game features; every one is off (or empty) by default."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="life")
    # -- deadline grid (gm.core.services.grids) --
    #: deadlines fall at this time of day in ``grid_zone`` (None: no fixed time).
    grid_time = models.TimeField(_("deadline time of day"), null=True, blank=True)
    #: the master's time zone, in which the grid, quiet hours and blocked dates are read.
    grid_zone = models.CharField(_("time zone of the deadline grid"), max_length=64, blank=True)
    #: phase kinds the fixed time applies to (empty: every kind).
    grid_kinds = models.JSONField(default=list, blank=True)
    #: no deadline falls in [quiet_start, quiet_end) (may wrap over midnight); one moved there goes to quiet_end.
    quiet_start = models.TimeField(_("quiet hours from"), null=True, blank=True)
    quiet_end = models.TimeField(_("quiet hours until"), null=True, blank=True)
    #: ISO dates (in ``grid_zone``) on which no deadline falls.
    blocked_dates = models.JSONField(default=list, blank=True)
    #: deadline reminders follow the published lead table when the master set no reminder of his own.
    reminder_table = models.BooleanField(_("remind by the lead table"), default=False)
    # -- early ends (gm.core.services.early_ends) --
    hammer = models.BooleanField(_("hammer: the day ends once a candidate has a majority"), default=False)
    all_ready = models.BooleanField(_("the phase ends once everyone pressed “done”"), default=False)
    # -- anonymity (gm.core.services.anonymity) --
    anonymous = models.BooleanField(_("anonymous game"), default=False)
    alias_list = models.CharField(_("alias list"), max_length=40, blank=True)
    secret_ballot = models.BooleanField(_("secret ballot"), default=False)
    # -- graveyard (gm.core.services.graveyard) --
    graveyard = models.BooleanField(_("graveyard room for the dead"), default=False)
    dead_see_everything = models.BooleanField(_("the dead see everything"), default=False)
    spectators_read_graveyard = models.BooleanField(_("spectators read the graveyard"), default=False)

    def __str__(self):
        return f"life options of {self.game_id}"


def life_of(game: Game) -> GameLife:
    """``game``'s options (the saved row, or an unsaved one with every default)."""
    cached = getattr(game, "_life_cache", None)
    if cached is not None:
        return cached
    if "life" in game._state.fields_cache:  # loaded with the game (select_related("life")); None: no row yet
        row = game._state.fields_cache["life"] or GameLife(game=game)
    else:
        row = GameLife.objects.filter(game_id=game.pk).first() or GameLife(game=game)
    game._life_cache = row
    return row


class ReadyMark(models.Model):
    """A seat pressed "done" in a phase (``all_ready``); pressing again takes it back (the row is deleted)."""

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="ready_marks", db_index=False)
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["phase", "seat"], name="one_ready_mark_per_seat")]

    def __str__(self):
        return f"{self.seat_id} done in {self.phase_id}"


class SeatAlias(models.Model):
    """A seat's alias in an anonymous game, and the name it had before (revealed with the mapping at the end)."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, primary_key=True, related_name="alias")
    alias = models.CharField(max_length=80)
    real_name = models.CharField(max_length=80)

    def __str__(self):
        return self.alias


class GraveyardPost(models.Model):
    """A post in a game's graveyard room: read by the dead (and the master; spectators when the game allows it;
    everyone once the game is over), never by a living player."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="graveyard_posts")
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    body = models.TextField(max_length=5000)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.CheckConstraint(condition=~Q(body=""), name="graveyard_post_not_empty")]

    def __str__(self):
        return f"graveyard post {self.pk} in {self.game_id}"
