"""Automatic extensions (issue 23 item 3).

With the activity option ``extensions_per_player`` above 0, each seat has that many tokens. When a phase reaches its
deadline, :func:`extend_if_owed` (called by :func:`gm.core.services.phases.phase_resolve_due`, so by the deadline
task, the beat sweep and every scenario runner alike, before the claim) looks for a living seat among the phase's
actors that has a legal action (the module's :meth:`~gm.core.engine.GameModule.has_legal_action`), has no order in
force and still has a token; the first in ring order spends one, and the deadline moves by ``extension_length``
hours — never past ``extension_cap`` hours of automatic extension in all for the phase. Everyone reads the new
deadline and why in a public line that names nobody (naming the seat would tell who has something to do at night);
the seat's player reads that his token was spent. A seat with nothing to do never spends a token.
"""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from ..engine import PhaseInfo
from ..models import Game, LogEntry, Phase
from ..models_life import SeatStatus
from .activity import game_activity_options, status_for
from .activity import hours as activity_hours
from .base import Clock, latest_orders, schedule_deadline, seat_info


def extend_if_owed(*, phase_id: int, clock: Clock = timezone.now) -> bool:
    """Spend one automatic extension on ``phase_id`` if it is due and owed one (see the module docstring): its
    deadline moves later, logged publicly and to the seat, and its deadline task is scheduled again. Returns whether
    it did; ``False`` leaves the phase to resolve. Atomic: the phase row is locked first, then the game, then the
    seat's status row, so two sweeps spend one token once."""
    game_id = Phase.objects.filter(pk=phase_id, status=Phase.Status.OPEN, setup=False).values_list(
        "game_id", flat=True).first()
    if game_id is None:
        return False
    options = Game.objects.filter(pk=game_id).values_list("activity_options", flat=True).first() or {}
    if not options.get("extensions_per_player"):  # off by default: no lock, no more queries
        return False
    with transaction.atomic():
        phase = Phase.objects.select_for_update().filter(pk=phase_id, status=Phase.Status.OPEN).first()
        if phase is None:
            return False
        game = Game.objects.select_for_update().get(pk=phase.game_id)
        now = clock()
        if (phase.deadline > now or game.paused_at is not None
                or game.status not in (Game.Status.RUNNING, Game.Status.SETUP)):
            return False
        options = game_activity_options(game)
        tokens = options["extensions_per_player"]
        length = activity_hours(options["extension_length"])
        new_deadline = phase.deadline + length
        if tokens <= 0 or new_deadline - phase.base_deadline > activity_hours(options["extension_cap"]):
            return False
        seats = list(game.seats.order_by("position"))
        ordered = latest_orders(phase, seats)
        module = game.game_module
        info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
        infos = [seat_info(s) for s in seats]
        waiting = [s for s in seats if s.alive and s.user_id is not None and s.pk not in ordered
                   and (phase.actors is None or s.pk in phase.actors)
                   and module.has_legal_action(state=game.state, phase=info, seat=seat_info(s), seats=infos)]
        if not waiting:
            return False
        used = dict(SeatStatus.objects.filter(seat__in=waiting).values_list("seat_id", "extensions_used"))
        seat = next((s for s in waiting if used.get(s.pk, 0) < tokens), None)
        if seat is None:
            return False
        row = status_for(seat)
        row = SeatStatus.objects.select_for_update().get(pk=row.pk)
        row.extensions_used += 1
        row.save(update_fields=["extensions_used"])
        phase.deadline = new_deadline
        phase.overdue_at = None
        phase.save(update_fields=["deadline", "overdue_at"])
        hours = options["extension_length"]
        LogEntry.objects.bulk_create([
            LogEntry(game=game, phase=phase, visibility="public", kind="core.auto_extended",
                     data={"hours": hours, "deadline": new_deadline.isoformat()}, created_at=now),
            LogEntry(game=game, phase=phase, visibility="seat", seat=seat, kind="core.auto_extended_you",
                     data={"hours": hours, "left": tokens - row.extensions_used}, created_at=now),
            LogEntry(game=game, phase=phase, visibility="master", kind="core.auto_extended_master",
                     data={"player": seat.display_name, "left": tokens - row.extensions_used}, created_at=now),
        ])
        schedule_deadline(phase, now=now)
        return True


def tokens_left(game: Game, seat, *, status: Any = False) -> int | None:
    """How many automatic extensions ``seat`` has left in ``game`` (``None``: the game has none). ``status``: the
    seat's ``SeatStatus`` row when the caller has it already (``None``: it has none), else it is read."""
    tokens = game_activity_options(game)["extensions_per_player"]
    if not tokens or seat is None:
        return None
    if status is not False:
        used = status.extensions_used if status is not None else 0
    else:
        used = SeatStatus.objects.filter(seat=seat).values_list("extensions_used", flat=True).first() or 0
    return max(0, tokens - used)
