"""A phase resolved in the core's terms (OC-3, OC-11.1): the action phase (OC-4.11), the contact phase (OC-6.9)
with the week start (OC-3.3), the mystery deadline (OC-3.6), admission (OC-8.4), the ritual (OC-9) and the end when
everybody is out (OC-10.2); each phase's opening line (the first player, OC-3.5).
"""
from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import Event, Outcome, PhaseSpec, Resolution, SeatInfo

from .actions import free_step, resolve_action
from .checks import Ctx
from .contacts import resolve_contacts, take_mystery
from .ritual import admission, end_game, resolve_ritual, ritual_opening, week_start
from .state import ROTATION, in_game, settings, turn_order, week_of


def opening_events(state: Mapping[str, Any]) -> list[Event]:
    """The public opening line of the phase ``state`` is at: the day, week and first player (OC-3.5) and, for a
    contact phase, the rotation (OC-6.2)."""
    stage = state["stage"]
    if stage not in ("action", "contact"):
        return []
    order = turn_order(state)
    names = state["names"]
    data: dict[str, Any] = {"day": state["day"], "week": week_of(state["day"]), "stage": stage,
                            "first": names.get(order[0], "") if order else "",
                            "order": [names[s] for s in order]}
    if stage == "contact":
        data["rotation"] = {names[s]: ROTATION[i % 3] for i, s in enumerate(order)}
    return [Event("oc.phase_open", data)]


def phase_spec(state: Mapping[str, Any], kind: str, number: int) -> PhaseSpec:
    """OC-11.1: the phase ``kind`` ``number`` to open, lasting the game's ``phase_hours`` for its kind when the
    master set that option (kept in the state at set-up), else the game's own duration for the kind."""
    hours = (state.get("phase_hours") or {}).get(kind)
    return PhaseSpec(kind, number, duration=float(hours) * 3600 if hours else None)


def _end_of_phase(ctx: Ctx) -> None:
    ctx.state["effects"] = {}
    for p in ctx.state["players"].values():
        p["learned"] = []


def _everyone_out(ctx: Ctx) -> bool:
    return not any(in_game(ctx.state, s) for s in ctx.state["seats"])


def resolve(*, state: Mapping[str, Any], kind: str, seats: Sequence[SeatInfo],
            orders: Mapping[int, Mapping[str, Any]], rng: random.Random) -> Resolution:
    """Resolve the open phase ``kind`` (``action``, ``contact``, ``ritual``) with each seat's last order (seat id →
    normalised payload) and the phase's RNG. Returns the core's :class:`Resolution`: the new state, the events in
    order, the seats that left the game (``alive``), the next phase or the :class:`Outcome`."""
    ctx = Ctx(copy.deepcopy(dict(state)), rng)
    st = ctx.state
    by_sid = {str(k): dict(v or {}) for k, v in orders.items()}
    was_out = {s for s in st["seats"] if not in_game(st, s)}
    outcome: Outcome | None = None
    next_phase: PhaseSpec | None = None
    if kind == "action":
        resolve_action(ctx, by_sid)
        take_mystery(ctx, turn_order(st))
        _end_of_phase(ctx)
        if _everyone_out(ctx):
            outcome = end_game(ctx, "nobody", [], why="everyone_out")
        else:
            st["stage"] = "contact"
            next_phase = phase_spec(st, "contact", st["day"])
    elif kind == "contact":
        order = turn_order(st)
        free_step(ctx, by_sid, order, "contact")
        resolve_contacts(ctx, by_sid, order)
        take_mystery(ctx, turn_order(st))
        _end_of_phase(ctx)
        st["foils"] = {}  # OC-12.2: a foil lapses at the end of the day
        days = int(settings(st).get("weeks", 5)) * int(settings(st).get("days_per_week", 7))
        if _everyone_out(ctx):
            outcome = end_game(ctx, "nobody", [], why="everyone_out")
        elif st["day"] >= days:
            if len(st["mysteries"]["solved"]) < int(settings(st)["mysteries_needed"]):
                outcome = end_game(ctx, "nobody", [], why="mysteries")
            elif not admission(ctx):
                outcome = end_game(ctx, "nobody", [], why="nobody_admitted")
            else:
                st["stage"] = "ritual"
                ritual_opening(ctx)
                next_phase = phase_spec(st, "ritual", 1)
        else:
            if st["day"] % int(settings(st).get("days_per_week", 7)) == 0:
                week_start(ctx)
            st["day"] += 1
            st["stage"] = "action"
            next_phase = phase_spec(st, "action", st["day"])
    else:
        outcome = resolve_ritual(ctx, by_sid)
    events = list(ctx.events)
    if next_phase is not None and next_phase.kind in ("action", "contact"):
        events += opening_events(st)
    alive = {int(s): False for s in st["seats"] if not in_game(st, s) and s not in was_out}
    return Resolution(state=st, events=events, alive=alive, next_phase=next_phase, outcome=outcome)
