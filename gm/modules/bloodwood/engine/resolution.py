"""The engine in the core's terms (BW-24, BW-24d, BW-25): set-up as a :class:`~gm.core.engine.SetupResult`, a step
closed as a :class:`~gm.core.engine.Resolution` with the next step as a :class:`~gm.core.engine.PhaseSpec` (its
actors and its deadline from the game data), events addressed to the public or one seat, what a seat was shown kept
in its seat data, and the end as an :class:`~gm.core.engine.Outcome`. Pure."""
from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gm.core.engine import (
    Event,
    Outcome,
    PhaseInfo,
    PhaseSpec,
    Resolution,
    RuleError,
    RuleViolation,
    SeatInfo,
    SetupResult,
)

from .declare import declare
from .orders import validate_step
from .setup import apply_position, deal, setup_events, validate_options
from .state import MAX_PLAYERS, MIN_PLAYERS, TEAM_OF, BwError, Ev, State, _, violation
from .turns import close_step, start_game

#: Private lines a seat keeps in its seat data as what it was shown (BW-4, BW-20).
LEARNED = ("bw.leader", "bw.dealer", "bw.seen")


def seat_order(seats: Iterable[SeatInfo]) -> list[str]:
    """Seat ids (strings) in ring order (clockwise, BW-6e)."""
    return [str(s.id) for s in sorted(seats, key=lambda s: s.position)]


def core_events(evs: Iterable[Ev]) -> list[Event]:
    """The core's events for engine events (public or one seat's private line)."""
    out = []
    for ev in evs:
        if ev.to == "public":
            out.append(Event(ev.kind, dict(ev.data)))
        elif ev.to == "master":
            out.append(Event(ev.kind, dict(ev.data), visibility="master"))
        else:
            out.append(Event(ev.kind, dict(ev.data), visibility="seat", seat=int(ev.to)))
    return out


def learned(seats: Iterable[SeatInfo], evs: Sequence[Ev]) -> dict[int, dict]:
    """The seat-data changes adding what each seat was shown by ``evs`` to what it knew."""
    by_id = {str(s.id): s for s in seats}
    out: dict[int, dict] = {}
    for ev in evs:
        if ev.kind in LEARNED and ev.to in by_id:
            sid = int(ev.to)
            base = out.get(sid) or dict(by_id[ev.to].data)
            out[sid] = {**base, "learned": [*(base.get("learned") or []), {"kind": ev.kind, "data": dict(ev.data)}]}
    return out


def next_spec(state: Mapping[str, Any]) -> PhaseSpec | None:
    """The open step as the phase the core opens (BW-24, BW-24a): its kind and actors; its deadline is the options'
    ``turn_minutes`` (a turn) or ``step_minutes`` (the other steps) when the master set them, else ``None``: the
    game's duration for the kind, whose defaults are the game data's (turn 12 h, other steps 4 h)."""
    step = state.get("step")
    if not step or state.get("over"):
        return None
    options = state.get("options") or {}
    minutes = options.get("turn_minutes") if step["kind"] == "turn" else options.get("step_minutes")
    return PhaseSpec(step["kind"], max(1, int(state.get("turn_no", 1))),
                     duration=int(minutes) * 60 if minutes else None, actors=[int(a) for a in step["actors"]])


def outcome(state: Mapping[str, Any]) -> Outcome | None:
    """The end of the game (BW-22, BW-22d): the winning team and its seats; ``none`` is a draw."""
    if not state.get("over"):
        return None
    winner = state.get("winner") or "none"
    if winner == "none":
        return Outcome(["none"], [], draw=True)
    return Outcome([winner], [int(s) for s in state.get("winners") or []])


def setup(*, seats: Sequence[SeatInfo], options: Mapping[str, Any], data: Mapping[str, Any],
          rng: random.Random) -> SetupResult:
    """Set the game up (BW-1–BW-5): the deal (or the master's ``position`` override, BW-22g), the set-up lines, each
    seat's entity and team in its seat data, and the first step."""
    order = seat_order(seats)
    names = {str(s.id): s.name for s in seats}
    state = deal(order, names, data, options, rng)
    if options.get("position"):
        state = apply_position(state, options["position"], rng)
    evs = setup_events(state)
    evs += start_game(state, rng)
    seat_data = {int(sid): {"entity": e, "team": TEAM_OF[e]} for sid, e in state["entities"].items()}
    for sid, data_ in learned([SeatInfo(int(s), names[s], i, data=seat_data[int(s)]) for i, s in enumerate(order)],
                              evs).items():
        seat_data[sid] = data_
    spec = next_spec(state)
    assert spec is not None, "a new game always waits for its first step"
    return SetupResult(state=dict(state), first_phase=spec, seat_data=seat_data, events=core_events(evs))


def resolve(*, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo],
            orders: Mapping[Any, Mapping[str, Any]], rng: random.Random) -> Resolution:
    """Close the open step with the actors' validated lines (``orders``: seat id → payload; missing actors get the
    defaults of BW-24b from ``rng``, the step's seeded RNG, BW-24d) and run until the next step or the end."""
    new: State = copy.deepcopy(dict(state))  # type: ignore[assignment]
    actors = set((new.get("step") or {}).get("actors") or [])
    lines = {str(k): v for k, v in orders.items() if str(k) in actors}
    pending = new.pop("declaration", None)
    if pending and not new.get("over"):
        evs = declare(new, str(pending["player"]), pending["named"])  # BW-22b: before anything of the step
    else:
        evs = close_step(new, lines, rng) if new.get("step") and not new.get("over") else []
    return Resolution(dict(new), core_events(evs), seat_data=learned(seats, evs), next_phase=next_spec(new),
                      outcome=outcome(new))


def phase_complete(state: Mapping[str, Any], orders: Mapping[Any, Any]) -> bool:
    """Whether every actor of the open step has sent his line (BW-24: the step closes at once)."""
    step = state.get("step") or {}
    actors = step.get("actors") or []
    answered = {str(k) for k in orders}
    return bool(actors) and all(a in answered for a in actors)


def setup_checked(*, seats: Sequence[SeatInfo], options: Mapping[str, Any], data: Mapping[str, Any],
                  rng: random.Random) -> SetupResult:
    """:func:`setup` after checking the options against the number of players (BW-3a, BW-3b, BW-5a, BW-27); raises
    :class:`~gm.core.engine.RuleViolation` when the game can't start."""
    opts = validate_options(options, players=len(seats), bounds=data.get("bounds"))
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise RuleViolation([RuleError(_("Bloodwood takes 5 to 12 players, not %(n)s."), field="seats", rule="BW-3a",
                                       params={"n": len(seats)})])
    return setup(seats=seats, options=opts, data=data, rng=rng)


def validate_order(state: Mapping[str, Any], *, sid: str, payload: Mapping[str, Any]) -> dict:
    """A line of the open step for the core (BW-26): the normalised payload, or
    :class:`~gm.core.engine.RuleViolation` with the refusal's code, rule and message."""
    try:
        return validate_step(state, sid, payload)  # type: ignore[arg-type]
    except BwError as exc:
        raise violation(exc) from None
