"""The small pieces every step of a turn uses (BW-6e, BW-24): the next seat in the direction, the agenda of what the
engine does once the open step closes, and opening a step. Pure."""
from __future__ import annotations

from typing import Any

from .state import State, Step


def next_seat(state: State, sid: str) -> str:
    """The seat after ``sid`` in the current direction (BW-6e, BW-7c)."""
    order = state["order"]
    return order[(order.index(sid) + state["direction"]) % len(order)]


def others_from(state: State, sid: str) -> list[str]:
    """Every other seat in turn order from the player after ``sid`` (BW-14a, BW-15b)."""
    out, cur = [], next_seat(state, sid)
    while cur != sid:
        out.append(cur)
        cur = next_seat(state, cur)
    return out


def push(state: State, *ops: dict[str, Any]) -> None:
    """Put ``ops`` at the front of the agenda, in this order (they run before what was already due)."""
    state["agenda"][0:0] = list(ops)


def open_step(state: State, kind: str, actors: list[str], **context: Any) -> None:
    """Open a step of ``kind`` (BW-24) for ``actors``; its context (attacker, pool, due…) goes with it. Steps are
    numbered in the order they open (BW-24d)."""
    state["seq"] = state.get("seq", 0) + 1
    step: Step = {"kind": kind, "actors": list(actors)}
    step.update(context)  # type: ignore[typeddict-item]
    state["step"] = step
