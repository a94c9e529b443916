"""DOC"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import F

from .. import signals
from ..engine import Event, Outcome, PhaseInfo, Resolution, SeatInfo, phase_random
from ..models import Game, LogEntry, Phase, Seat
from .base import LogBatch, LogRow, add_groups, log_entry, phase_open
from .comasters import module_comasters_sync
from .graveyard import bury


def canonical_digest(result: Resolution | Mapping[str, Any], constant_keys: Sequence[str] = ()) -> str:
    """sha256 of the canonical JSON of an engine result (or of its :func:`resolution_data`), for reproducibility
    checks: the same snapshot, orders and seed always give the same digest."""
    data = result if isinstance(result, Mapping) else resolution_data(result, constant_keys)
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()


def canonical_json(data: Mapping[str, Any]) -> str:
    """``data`` as canonical JSON (sorted keys, no spaces, UTF-8 kept, anything else as ``str``): the text
    :func:`canonical_digest` hashes and a resolution stores."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))


def resolution_data(result: Resolution, constant_keys: Sequence[str] = ()) -> dict:
    """An engine result as the JSON-compatible dict stored in ``Phase.result``: seat ids as string keys (as the
    database returns them) and the state without the module's ``constant_state_keys`` (kept once, in
    ``Game.state``). Built without deep copies: the engine's values are already plain JSON data, and a resolution is
    timed (compare a re-run through the same function, after a JSON round trip — ``gm_replay`` does)."""
    return {
        "state": {k: v for k, v in result.state.items() if k not in constant_keys},
        "events": [{"kind": e.kind, "data": e.data, "visibility": e.visibility, "seat": e.seat, "group": e.group}
                   for e in result.events],
        "seat_data": {str(k): v for k, v in result.seat_data.items()},
        "alive": {str(k): v for k, v in result.alive.items()},
        "groups": {k: list(v) for k, v in result.groups.items()},
        "next_phase": asdict(result.next_phase) if result.next_phase is not None else None,
        "outcome": (outcome_dict(result.outcome) if result.outcome is not None else None),
    }


def outcome_dict(outcome: Outcome) -> dict:
    """``Game.outcome`` / ``Phase.result["outcome"]``: ``{"winners", "winning_seats"}``, and ``"draw": true`` only
    for a draw (so results stored before draws existed keep their digest)."""
    out: dict[str, Any] = {"winners": list(outcome.winners), "winning_seats": list(outcome.winning_seats)}
    if outcome.draw:
        out["draw"] = True
    return out


def phase_snapshot(game: Game, seats: Sequence[Seat]) -> dict:
    """The input a phase is resolved from (stored in ``Phase.state``): the game state without the module's
    ``constant_state_keys`` and every seat as the engine sees it."""
    constant = game.game_module.constant_state_keys
    # Not dataclasses.asdict: it deep-copies every seat's data, and the snapshot is only read, then stored.
    return {"game": {k: v for k, v in game.state.items() if k not in constant},
            "seats": [{"id": s.pk, "name": s.display_name, "position": s.position, "alive": s.alive, "data": s.data}
                      for s in seats]}


def _seats_write(seats: Sequence[Seat]) -> None:
    """Write ``data`` and ``alive`` of ``seats`` and bump their ``version`` in one statement whatever their number.

    On PostgreSQL one ``UPDATE … FROM (VALUES …)``: Django's ``bulk_update`` builds a CASE per field and row, which
    costs more than the rest of a resolution; elsewhere ``bulk_update``."""
    if not seats:
        return
    if connection.vendor != "postgresql":
        for seat in seats:
            seat.version = F("version") + 1
        Seat.objects.bulk_update(seats, ["data", "alive", "version"])
        return
    table = connection.ops.quote_name(Seat._meta.db_table)
    rows = ", ".join(["(%s, %s::jsonb, %s)"] * len(seats))
    params: list[Any] = []
    for seat in seats:
        params += [seat.pk, json.dumps(seat.data, ensure_ascii=False), seat.alive]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS s SET data = v.data, alive = v.alive, version = s.version + 1 "
            f"FROM (VALUES {rows}) AS v(id, data, alive) WHERE s.id = v.id",
            params,
        )


def run_engine(*, game: Game, phase: Phase, snapshot: Mapping[str, Any], orders: Mapping[int, Mapping]) -> Resolution:
    """Call the module's pure ``resolve`` on a stored snapshot and orders with the phase's RNG seed."""
    seats = [SeatInfo(**s) for s in snapshot["seats"]]
    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
    # Constant keys (e.g. the card collection) are stored once, on the game; they never change after the start.
    constant = {k: game.state[k] for k in game.game_module.constant_state_keys if k in game.state}
    return game.game_module.resolve(
        state={**constant, **snapshot["game"]}, phase=info, seats=seats, orders=orders,
        rng=phase_random(phase.rng_seed, snapshot.get("dice")),
    )


def resolution_apply(*, game: Game, phase: Phase, seats: Sequence[Seat], result: Resolution, now: datetime,
                     trace: Callable[[], LogEntry] | None = None,
                     seats_sent: Callable[[], None] | None = None) -> None:
    """Apply an engine ``result`` of ``phase`` to the rows the caller has locked (``game``, ``phase`` and every seat
    in ``seats``): seat data and deaths, groups, the log (the events in order, then ``core.phase_resolved`` and,
    when the game ends, ``core.game_finished``), ``game.state``, and the next phase opened unless the game ended.
    ``trace`` (optional) makes one more entry, written last, with the others in the one insert (``core.trace``).
    ``seats_sent`` (optional) is called right after the seat changes are written: :func:`phase_resolve` writes its
    phase there, so that in pipeline mode the database works on the seats while the result is encoded.
    Leaves saving ``game`` to the caller. Shared by :func:`phase_resolve` (at the deadline) and
    ``gm.core.review`` (a held result published later), so a result is applied the same way either way."""
    by_id = {s.pk: s for s in seats}
    changed = []
    for seat_id, data in result.seat_data.items():
        by_id[seat_id].data = data
        changed.append(by_id[seat_id])
    for seat_id, alive in result.alive.items():
        by_id[seat_id].alive = alive
        changed.append(by_id[seat_id])
    _seats_write(sorted(set(changed), key=lambda seat: seat.pk))
    if seats_sent is not None:
        seats_sent()
    log = LogBatch()  # the events are encoded now, while the writes above are worked on
    log.add([LogRow(game.pk, phase.pk, e.visibility, e.seat, e.group, e.kind, dict(e.data), now)
             for e in result.events])
    add_groups(game, result.groups)
    bury(game, seats)  # the graveyard option (issue 23): the dead leave their groups for the graveyard
    module_comasters_sync(game=game, seats=seats, state=result.state, now=now)  # BV-15.14's read-only co-master
    entries: list[LogEntry] = [log_entry(game, phase, Event("core.phase_resolved",
                                                           {"phase_kind": phase.kind, "phase_number": phase.number}),
                                         now)]
    game.state = result.state
    if result.outcome is not None or result.next_phase is None:
        entries.append(game_finish(game=game, outcome=result.outcome, phase=phase, now=now))
    if game.status != Game.Status.FINISHED:  # the new phase's id first: its core.phase_opened is in the insert
        phase_open(game, result.next_phase, ordinal=phase.ordinal + 1, now=now, log=entries)
    if trace is not None:
        entries.append(trace())
    log.add(entries)
    log.write()


def game_finish(*, game: Game, outcome: Outcome | None, phase: Phase, now: datetime) -> LogEntry:
    """Finish ``game`` with ``outcome`` (``None``: nobody wins) during ``phase``: status ``finished``,
    ``finished_at``, ``outcome`` (``{"winners", "winning_seats"}``). Call it inside the caller's transaction with
    ``phase`` locked.

    If ``phase`` is still unresolved (the game ended outside a resolution, e.g. right after a player's instant
    ability, FM-10.6), it is closed: marked ``resolved`` at ``now`` with no snapshot and no result (there was no
    resolution to replay), so a finished game keeps no unresolved phase and no deadline task or sweep touches it.

    Returns the unsaved ``core.game_finished`` log entry and leaves saving ``game`` (``status``, ``finished_at``,
    ``outcome``) to the caller, so a resolution writes both in the queries it makes anyway.
    """
    winners = list(outcome.winners) if outcome else []
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.outcome = outcome_dict(outcome) if outcome else {"winners": [], "winning_seats": []}
    if phase.status != Phase.Status.RESOLVED:
        phase.status = Phase.Status.RESOLVED
        phase.resolved_at = now
        phase.save(update_fields=["status", "resolved_at"])
    data: dict[str, Any] = {"winners": winners}
    if outcome is not None and outcome.draw:
        data["draw"] = True
    signals.game_finished.send(sender=Game, game=game, phase=phase, now=now)
    return log_entry(game, phase, Event("core.game_finished", data), now)
