"""The turn as a sequence of steps (BW-6, BW-6b, BW-7, BW-7a–d, BW-8, BW-10a, BW-10d, BW-12a, BW-24, BW-24b):
starting a turn (a tranquilized player skipped, an empty hand straight to the refill), each step closing with its
lines or, missed, its defaults, the refill, the end of a turn (Curse Mark count, phase count and flip) and the extra
turn of an Eclipse or Time Loop. The engine runs by itself until a step waits for a player or the game is over.
Pure; chance comes from the step's seeded :class:`random.Random`."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .cards import apply_effect, hunter_gives, hunter_keep, leshy_discards, resolve_keep
from .decks import default_split, draw_split, number_due, refill_wanted, to_pile
from .flow import next_seat, open_step, push
from .markers import count_mark
from .orders import attacked
from .state import Ev, State


def run(state: State, rng: random.Random, evs: list[Ev]) -> None:
    """Do what the agenda says until a step opens or the game is over (BW-24)."""
    while not state.get("over") and not state.get("step") and state["agenda"]:
        op = state["agenda"].pop(0)
        OPS[op["op"]](state, op, rng, evs)


def _start(state: State, op: Mapping[str, Any], rng: random.Random, evs: list[Ev]) -> None:
    """A turn starts (BW-6, BW-12a): a tranquilized player skips it (the Tranquilizer to the pile, the turn counted,
    no refill); a player with no card goes straight to his refill; otherwise his ``turn`` step opens."""
    sid = state["to_move"]
    assert sid is not None
    state["turn_no"] = state.get("turn_no", 0) + 1
    if sid in state["tranq"]:
        state["tranq"].remove(sid)
        to_pile(state, "tranquilizer")
        evs.append(Ev("bw.skip", {"event": "skip", "player": state["names"][sid], "marker": "tranquilizer"}))
        push(state, {"op": "end_turn", "sid": sid})
    elif not state["hands"][sid]:
        push(state, {"op": "refill", "sid": sid, "mode": "end"}, {"op": "end_turn", "sid": sid})
    else:
        open_step(state, "turn", [sid])


def _refill(state: State, op: Mapping[str, Any], rng: random.Random, evs: list[Ev]) -> None:
    """A draw (BW-6b, BW-6d, BW-6f, BW-18a): the number due; a ``refill`` step when it is at least one."""
    sid = op["sid"]
    due = number_due(state, refill_wanted(state, sid, op["mode"]))
    if due:
        open_step(state, "refill", [sid], player=sid, due=due, mode=op["mode"])


def _end_turn(state: State, op: Mapping[str, Any], rng: random.Random, evs: list[Ev]) -> None:
    """The end of a counted turn (BW-7, BW-7a, BW-10a): the Curse Mark count, the phase count, the flip after the
    N-th turn (its starter moves next), else the next seat in the direction; then the next turn starts."""
    sid = op["sid"]
    count_mark(state, sid, evs)
    if state.get("over"):
        return
    state["extra_turn"] = False
    state["turns_done"] += 1
    if state["turns_done"] >= len(state["order"]):
        state["phase"] = "night" if state["phase"] == "day" else "day"
        state["turns_done"] = 0
        state["to_move"] = state["starter"]
        evs.append(Ev("bw.phase", {"event": "phase", "phase": state["phase"],
                                   "player": state["names"][state["starter"]]}))
    else:
        state["to_move"] = next_seat(state, sid)
    push(state, {"op": "start"})


def _extra(state: State, op: Mapping[str, Any], rng: random.Random, evs: list[Ev]) -> None:
    """The Eclipse / Time Loop turn ends with its one card (BW-7b, BW-7c, BW-10d): the Curse Mark is counted, the
    phase is not, and the same player takes the extra turn, the first counted one of the new count."""
    sid = op["sid"]
    count_mark(state, sid, evs)
    if state.get("over"):
        return
    state["extra_turn"] = True
    state["to_move"] = sid
    evs.append(Ev("bw.extra_turn", {"event": op.get("card", "eclipse"), "player": state["names"][sid]}))
    push(state, {"op": "start"})


def _effect(state: State, op: Mapping[str, Any], rng: random.Random, evs: list[Ev]) -> None:
    apply_effect(state, op["card"], op["player"], op.get("target"), rng, evs, reflected=bool(op.get("reflected")))


def _hunter_keep(state: State, op: Mapping[str, Any], rng: random.Random, evs: list[Ev]) -> None:
    hunter_keep(state, op["sid"], evs)


OPS = {"start": _start, "refill": _refill, "end_turn": _end_turn, "extra": _extra, "effect": _effect,
       "hunter_keep": _hunter_keep}


# -- closing a step ------------------------------------------------------------------------------------------------


def close_turn(state: State, sid: str, order: Mapping[str, Any] | None, evs: list[Ev]) -> None:
    """The ``turn`` step closes (BW-6, BW-24b): a discard, a played card (its answer window when it attacks a player
    who is not tranquilized and holds a card, BW-24), or the missed turn (no move, no refill, counted)."""
    names = state["names"]
    if order is None:
        evs.append(Ev("bw.missed", {"event": "missed", "player": names[sid]}))
        push(state, {"op": "end_turn", "sid": sid})
        return
    if order.get("move") == "penalty":
        return penalty_turn(state, sid, order["card"], evs)
    if order["move"] == "discard":
        card = order["cards"][0]
        state["hands"][sid].remove(card)
        to_pile(state, card)
        evs.append(Ev("bw.discard", {"event": "discard", "player": names[sid], "cards": [card], "count": 1}))
        push(state, {"op": "refill", "sid": sid, "mode": "end"}, {"op": "end_turn", "sid": sid})
        return
    card = order["card"]
    target = str(order["target"]) if order.get("target") is not None else None
    state["hands"][sid].remove(card)
    data: dict[str, Any] = {"event": "play", "player": names[sid], "card": card}
    if target is not None:
        data["target"] = names[target]
    evs.append(Ev("bw.play", data))
    if attacked(card) and target is not None and target not in state["tranq"] and state["hands"][target]:
        open_step(state, "reaction", [target], attacker=sid, target=target, card=card)
    else:
        push(state, {"op": "effect", "card": card, "player": sid, "target": target})


def close_reaction(state: State, step: Mapping[str, Any], answer: str, evs: list[Ev]) -> None:
    """The ``reaction`` step closes (BW-8, BW-8b, BW-8c, BW-24b): ``pass`` (also the missed window) lets the card
    act; an Amulet discards itself and the attack and ends the attacker's turn with no draw; a Mirror is discarded and
    turns the card back on the attacker, whose turn then ends with no draw."""
    attacker, target, card = step["attacker"], step["target"], step["card"]
    names = state["names"]
    evs.append(Ev("bw.answer", {"event": "answer", "player": names[target], "card": answer,
                                "attacker": names[attacker]}))
    if answer == "pass":
        push(state, {"op": "effect", "card": card, "player": attacker, "target": target})
        return
    state["hands"][target].remove(answer)
    if answer == "amulet":
        to_pile(state, "amulet", card)
        push(state, {"op": "end_turn", "sid": attacker})
    else:
        to_pile(state, "mirror")
        push(state, {"op": "effect", "card": card, "player": target, "target": attacker, "reflected": True},
             {"op": "end_turn", "sid": attacker})


def penalty_turn(state: State, sid: str, card: str, evs: list[Ev]) -> None:
    """The inattention penalty on one's own turn (BW-23a): the card he tried to play goes to the pile, his turn ends
    with no refill and counts."""
    state["hands"][sid].remove(card)
    to_pile(state, card)
    evs.append(Ev("bw.penalty", {"event": "discard", "player": state["names"][sid], "cards": [card], "count": 1}))
    push(state, {"op": "end_turn", "sid": sid})


def penalty_card(state: State, sid: str, card: str) -> list[Ev]:
    """The inattention penalty out of one's turn (BW-23a): a refused answer costs the card only. Returns its line."""
    state["hands"][sid].remove(card)
    to_pile(state, card)
    return [Ev("bw.penalty", {"event": "discard", "player": state["names"][sid], "cards": [card], "count": 1})]


def close_step(state: State, orders: Mapping[str, Mapping[str, Any]], rng: random.Random) -> list[Ev]:
    """Close the open step with the actors' lines (``orders``: seat id → validated payload; a missing actor gets
    BW-24b's default from ``rng``, the step's seeded RNG), then run until the next step or the end. Returns the
    lines written, in order."""
    evs: list[Ev] = []
    step = state["step"]
    assert step is not None
    state["step"] = None
    kind = step["kind"]
    actors = step["actors"]
    if kind == "turn":
        close_turn(state, actors[0], orders.get(actors[0]), evs)
    elif kind == "reaction":
        close_reaction(state, step, str((orders.get(actors[0]) or {}).get("react", "pass")), evs)
    elif kind == "discard":
        chosen = {sid: orders[sid]["discard"] for sid in actors if sid in orders}
        leshy_discards(state, step["player"], chosen, rng, evs)
    elif kind == "give":
        gives = {sid: orders[sid]["give"] for sid in actors if sid in orders}
        hunter_gives(state, step["player"], gives, rng, evs)
    elif kind == "keep":
        kept = (orders.get(actors[0]) or {}).get("keep")
        resolve_keep(state, step, kept, evs)
    elif kind == "refill":
        sid = actors[0]
        split = (orders.get(sid) or {}).get("refill") or default_split(state, sid, int(step["due"]))
        draw_split(state, sid, split, evs)
    run(state, rng, evs)
    return evs


def start_game(state: State, rng: random.Random) -> list[Ev]:
    """Open the first step: the player to move starts his turn as the engine would (BW-5, BW-12a)."""
    evs: list[Ev] = []
    push(state, {"op": "start"})
    run(state, rng, evs)
    return evs
