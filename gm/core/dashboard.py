""""My games": every game a user plays or masters, with what it needs from him now, most urgent first.

The core knows the shapes every game shares (signups, a draft, a pause, a held result, an open phase with its
actors, the deadline, death, the end); what a game calls its input (an order, a vote, a deck) is the module's:
:meth:`gm.core.engine.GameModule.player_needs` may replace the core's generic "you owe an order" for a player's open
phase. Everything is read in a fixed number of queries, however many games the user has (no per-game query; modules
get the rows already loaded and must not query either).

Only what the user may see: his own seat and its latest order, public phase facts, and for the master his own game's
order count.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import registry
from .models import Game, Order, Phase, Seat

#: Urgency of a :class:`Need`, most urgent first.
ACT, WAIT, DONE, IDLE = 0, 1, 2, 3


@dataclass
class Need:
    """One thing a game needs from (or tells) the user: ``text`` in the active language, ``urgency`` (:data:`ACT`
    — he must act; :data:`WAIT` — the game waits for someone else; :data:`DONE` — his part is done; :data:`IDLE` —
    nothing to do) and the ``deadline`` it is bound to, if any (shown as the time left)."""

    text: str
    urgency: int = WAIT
    deadline: datetime | None = None


@dataclass
class GameRow:
    """A line of "My games": the ``game``, the user's ``seat`` (``None``: he is its master), its unresolved or held
    ``phase``, ``needs`` (most urgent first) and the user's ``unread`` inbox notifications of the game."""

    game: Game
    seat: Seat | None
    phase: Phase | None
    needs: list[Need] = field(default_factory=list)
    unread: int = 0

    @property
    def is_master(self) -> bool:
        return self.seat is None

    @property
    def urgency(self) -> int:
        return min((n.urgency for n in self.needs), default=IDLE)

    @property
    def deadline(self) -> datetime | None:
        times = [n.deadline for n in self.needs if n.deadline is not None and n.urgency == self.urgency]
        return min(times, default=None)

    def sort_key(self) -> tuple:
        deadline = self.deadline
        return (self.urgency, deadline is None, deadline.timestamp() if deadline else 0.0, -self.game.pk)


def time_left(deadline: datetime | None, now: datetime) -> str:
    """ "5 h left", "40 min left", "2 days left", "the deadline has passed" (the active language); "" without one."""
    if deadline is None:
        return ""
    seconds = (deadline - now).total_seconds()
    if seconds <= 0:
        return _("the deadline has passed")
    minutes = int(seconds // 60)
    if minutes < 60:
        n = max(minutes, 1)
        return ngettext("%(n)s min left", "%(n)s min left", n) % {"n": n}
    hours = minutes // 60
    if hours < 48:
        return ngettext("%(n)s h left", "%(n)s h left", hours) % {"n": hours}
    days = hours // 24
    return ngettext("%(n)s day left", "%(n)s days left", days) % {"n": days}


def _latest(orders: Iterable[tuple[int, int, Any]]) -> dict[tuple[int, int], Any]:
    """``(phase id, seat id) → payload`` of the highest version (``None``: withdrawn, FM-5.6)."""
    latest: dict[tuple[int, int], Any] = {}
    for phase_id, seat_id, payload in orders:  # ordered by version: the last one wins
        latest[(phase_id, seat_id)] = payload
    return latest


def _is_actor(phase: Phase, seat: Seat) -> bool:
    return phase.actors is None or seat.pk in phase.actors


def _player_needs(game: Game, phase: Phase | None, seat: Seat, payload: Any, now: datetime) -> list[Need]:
    if game.status == Game.Status.SIGNUP:
        return [Need(_("Signup open: you are signed up; the game has not started yet."), WAIT)]
    if game.is_over:
        return [Need(_("The game is over."), IDLE)]
    if not seat.alive:
        return [Need(_("Your character is dead: you may read the game."), IDLE)]
    if game.paused_at is not None:
        return [Need(_("The master has paused the game."), WAIT)]
    if phase is None:
        return [Need(_("Waiting for the next phase."), WAIT)]
    label = phase.label
    if phase.is_held:
        return [Need(_("The master is reviewing the results of %(phase)s.") % {"phase": label}, WAIT)]
    if phase.status != Phase.Status.OPEN or phase.deadline <= now:
        return [Need(_("%(phase)s is being resolved.") % {"phase": label}, WAIT)]
    if not _is_actor(phase, seat):
        return [Need(_("%(phase)s: nothing for you to do; it ends on its deadline.") % {"phase": label}, IDLE,
                     phase.deadline)]
    try:
        needs = game.game_module.player_needs(game=game, phase=phase, seat=seat, payload=payload)
    except registry.UnknownModule:
        needs = None
    if needs is not None:
        return needs
    if payload is None:
        return [Need(_("You owe an order in %(phase)s.") % {"phase": label}, ACT, phase.deadline)]
    return [Need(_("Your order for %(phase)s is in; you may change it until the deadline.") % {"phase": label},
                 DONE, phase.deadline)]


def _master_needs(game: Game, phase: Phase | None, seats: list[Seat], ordered: int, now: datetime) -> list[Need]:
    if game.status == Game.Status.DRAFT:
        return [Need(_("Draft: open signups when the game is ready."), ACT)]
    if game.status == Game.Status.SIGNUP:
        n = len(seats)
        return [Need(ngettext("Signup open: %(n)s player signed up; start the game when ready.",
                              "Signup open: %(n)s players signed up; start the game when ready.", n) % {"n": n}, WAIT)]
    if game.is_over:
        return [Need(_("The game is over."), IDLE)]
    if game.paused_at is not None:
        return [Need(_("You have paused the game."), ACT)]
    if phase is None:
        return [Need(_("Waiting for the next phase."), WAIT)]
    label = phase.label
    if phase.is_held:
        return [Need(_("The results of %(phase)s await your review.") % {"phase": label}, ACT, phase.publish_at)]
    if phase.status != Phase.Status.OPEN or phase.deadline <= now:
        return [Need(_("%(phase)s is being resolved.") % {"phase": label}, WAIT)]
    actors = [s for s in seats if s.alive and s.user_id is not None and _is_actor(phase, s)]
    return [Need(ngettext("%(phase)s: %(ordered)s of %(n)s player has given an order.",
                          "%(phase)s: %(ordered)s of %(n)s players have given an order.", len(actors))
                 % {"phase": label, "ordered": min(ordered, len(actors)), "n": len(actors)}, WAIT, phase.deadline)]


def my_games(user, *, unread: Mapping[int, int] | None = None, include_over: bool = True,
             clock=timezone.now) -> list[GameRow]:
    """Every game ``user`` has a seat in or masters (drafts: his own only), each with its needs, most urgent first
    (then the nearest deadline, then the newest game). ``unread``: game id → unread notifications (the inbox's
    count, passed in so the core does not depend on the inbox). ``include_over``: also the finished and aborted.

    Five queries whatever the number of games: his seats with their games, his mastered games, the unresolved or
    held phases, the seats of his mastered games, the orders of those phases he may read (his own; all of his
    mastered games' to count them)."""
    if user is None or not user.is_authenticated:
        return []
    now = clock()
    unread = unread or {}
    over = (Game.Status.FINISHED, Game.Status.ABORTED)
    own_seats = Seat.objects.filter(user=user).select_related("game").exclude(game__status=Game.Status.DRAFT)
    mastered = Game.objects.filter(Q(master=user) | Q(co_masters__user=user)).distinct()  # co-masters (issue 24)
    if not include_over:
        own_seats = own_seats.exclude(game__status__in=over)
        mastered = mastered.exclude(status__in=over)
    rows: dict[int, GameRow] = {}
    for seat in own_seats:
        rows[seat.game_id] = GameRow(game=seat.game, seat=seat, phase=None)
    for game in mastered:
        rows.setdefault(game.pk, GameRow(game=game, seat=None, phase=None))
    if not rows:
        return []
    ids = list(rows)
    phases = (Phase.objects.filter(game_id__in=ids)
              .filter(~Q(status=Phase.Status.RESOLVED) | Q(held_at__isnull=False, published_at__isnull=True))
              .order_by("game_id", "ordinal"))
    for phase in phases:
        row = rows[phase.game_id]
        phase.game = row.game  # the label needs the module: no query for the game
        row.phase = phase  # the latest one wins (a held result, then the next phase)
    master_ids = [gid for gid, r in rows.items() if r.is_master]
    game_seats: dict[int, list[Seat]] = {gid: [] for gid in master_ids}
    if master_ids:
        for seat in Seat.objects.filter(game_id__in=master_ids).only("id", "game_id", "user_id", "alive"):
            game_seats[seat.game_id].append(seat)
    open_phases = [r.phase.pk for r in rows.values() if r.phase is not None and r.phase.status == Phase.Status.OPEN]
    latest: dict[tuple[int, int], Any] = {}
    if open_phases:
        mine = [r.seat.pk for r in rows.values() if r.seat is not None]
        master_phases = [rows[gid].phase.pk for gid in master_ids if rows[gid].phase is not None]
        latest = _latest(Order.objects.filter(phase_id__in=open_phases)
                         .filter(Q(seat_id__in=mine) | Q(phase_id__in=master_phases))
                         .order_by("phase_id", "seat_id", "version").values_list("phase_id", "seat_id", "payload"))
    for gid, row in rows.items():
        row.unread = unread.get(gid, 0)
        phase = row.phase
        if row.seat is not None:
            payload = latest.get((phase.pk, row.seat.pk)) if phase is not None else None
            row.needs = _player_needs(row.game, phase, row.seat, payload, now)
        else:
            ordered = sum(1 for (pid, _sid), p in latest.items() if phase is not None and pid == phase.pk
                          and p is not None)
            row.needs = _master_needs(row.game, phase, game_seats.get(gid, []), ordered, now)
        row.needs.sort(key=lambda n: n.urgency)
    return sorted(rows.values(), key=GameRow.sort_key)
