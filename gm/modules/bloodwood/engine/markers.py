"""DNA and the markers (BW-2, BW-9, BW-9a, BW-9b, BW-10, BW-10a–d, BW-11, BW-12, BW-22d): flipping DNA by a bite,
laying and passing the Curse Mark with its count, permanent mutation and the deadlock it may cause. Pure."""
from __future__ import annotations

from .decks import to_pile
from .state import Ev, State


def lay_mark(state: State, sid: str, evs: list[Ev], *, passed_from: str | None = None) -> None:
    """Give ``sid`` a Curse Mark with a fresh count of 2 (BW-10, BW-10a); a mark that reaches the player to move
    during his own turn is first counted at the end of his next turn. Writes the public effect line."""
    state["curse"][sid] = 2
    if sid == state.get("to_move") and sid not in state["fresh"]:
        state["fresh"].append(sid)
    data = {"event": "effect", "player": state["names"][sid], "marker": "curse_mark", "count": 2}
    if passed_from is not None:
        data["from"] = state["names"][passed_from]
        evs.append(Ev("bw.mark_passed", data))
    else:
        evs.append(Ev("bw.marked", data))


def lift_mark(state: State, sid: str) -> None:
    """Take the Curse Mark from ``sid`` (its card goes wherever the caller puts it)."""
    state["curse"].pop(sid, None)
    if sid in state["fresh"]:
        state["fresh"].remove(sid)


def bite(state: State, biter: str, bitten: str, evs: list[Ev]) -> None:
    """A bite of ``biter`` on ``bitten`` (BW-2, BW-9, BW-9a, BW-9b): the bitten player's DNA flips between ``purity``
    and ``mutated``; a Curse Mark passes from a carrier to the other (both carriers: the marks change places), each
    new carrier with a fresh count; a mark never passes to a permanently mutated player."""
    new = "purity" if state["dna"][bitten] == "mutated" else "mutated"
    state["dna"][bitten] = new
    evs.append(Ev("bw.dna", {"event": "effect", "player": state["names"][bitten], "dna": new}))
    a, b = biter in state["curse"], bitten in state["curse"]
    if a and b:
        lift_mark(state, biter)
        lift_mark(state, bitten)
        lay_mark(state, bitten, evs, passed_from=biter)
        lay_mark(state, biter, evs, passed_from=bitten)
    elif a and state["dna"][bitten] != "permanent":
        lift_mark(state, biter)
        lay_mark(state, bitten, evs, passed_from=biter)
    elif b and state["dna"][biter] != "permanent":
        lift_mark(state, bitten)
        lay_mark(state, biter, evs, passed_from=bitten)


def make_permanent(state: State, sid: str, evs: list[Ev]) -> None:
    """Permanent mutation (BW-10b, BW-10c): DNA ``permanent``, the expired mark to the pile; then the deadlock of
    BW-22d: every player permanent ends the game with no winner."""
    lift_mark(state, sid)
    to_pile(state, "curse_mark")
    state["dna"][sid] = "permanent"
    evs.append(Ev("bw.permanent", {"event": "effect", "player": state["names"][sid], "dna": "permanent",
                                   "marker": "curse_mark"}))
    if all(state["dna"][s] == "permanent" for s in state["order"]):
        state["over"] = True
        state["winner"] = "none"
        state["winners"] = []
        state["step"] = None
        state["agenda"] = []
        state["to_move"] = None
        evs.append(Ev("bw.deadlock", {"event": "end", "winner": "none"}))


def count_mark(state: State, sid: str, evs: list[Ev]) -> None:
    """The end of one of ``sid``'s own turns (BW-10a): a carrier whose mark did not reach him during this turn loses
    one of his turns left; at 0 he is permanently mutated at once."""
    if sid in state["curse"] and sid not in state["fresh"]:
        state["curse"][sid] -= 1
        if state["curse"][sid] <= 0:
            make_permanent(state, sid, evs)
        else:
            evs.append(Ev("bw.mark_count", {"event": "effect", "player": state["names"][sid],
                                            "marker": "curse_mark", "count": state["curse"][sid]}))
    if sid in state["fresh"]:
        state["fresh"].remove(sid)
