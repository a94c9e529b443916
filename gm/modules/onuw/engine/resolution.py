"""A phase resolved in the core's terms (ON-4.1, ON-5, ON-7–ON-14): the doppelganger step, the night or the day
played by :mod:`.night` and :mod:`.day`, their events addressed and named, what each seat learned kept in its seat
data, and after the day each seat's final card, team and result, the dead and the winners. Pure."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import Outcome, PhaseSpec, Resolution, SeatInfo

from .day import resolve_day
from .events import core_events, seat_order, with_learned
from .night import resolve_doppelganger, resolve_night
from .roles import doppelganger_seat, effective, team


def resolve(*, state: Mapping[str, Any], kind: str, seats: Sequence[SeatInfo], orders: Mapping[Any, Mapping[str, Any]],
            rng: random.Random) -> Resolution:
    """Resolve the phase of ``kind`` (``doppelganger``, ``night``, ``day``) from every seat's latest order
    (``orders``: seat id → validated payload). The doppelganger step opens the night, the night the day; the day
    ends the game with its outcome."""
    order = seat_order(seats)
    names = {str(s.id): s.name for s in seats}
    by_str = {str(k): v for k, v in orders.items()}
    if kind == "doppelganger":
        new, evs = resolve_doppelganger(state, by_str, order)
        events = core_events(evs, names)
        seat_data = with_learned(seats, events)
        dop = doppelganger_seat(new)
        if dop is not None and new.get("copy"):
            base = seat_data.get(int(dop)) or dict(next(s.data for s in seats if s.id == int(dop)))
            seat_data[int(dop)] = {**base, "card": "doppelganger", "copy": new["copy"]}
        return Resolution(new, events, seat_data=seat_data, next_phase=PhaseSpec("night", 1))
    if kind == "night":
        new, evs = resolve_night(state, by_str, order, rng)
        events = core_events(evs, names)
        return Resolution(new, events, seat_data=with_learned(seats, events), next_phase=PhaseSpec("day", 1))
    new, evs, teams, winners = resolve_day(state, by_str, order)
    alive = {int(sid): False for sid in new["dead"]}
    won = {int(s) for s in winners}
    seat_data = {}
    for s in seats:
        final = new["cards"][str(s.id)]
        final_as = effective(final, new)
        seat_data[s.id] = {**s.data, "final": final, "final_as": final_as, "team": team(final_as),
                           "won": s.id in won}
    return Resolution(new, core_events(evs, names), seat_data=seat_data, alive=alive,
                      outcome=Outcome(teams, [int(s) for s in winners]))
