"""Deaths and victory (BV-7, BV-9–BV-12).

:func:`die` settles a batch of deaths with the deaths linked to them (the bride's grief, the vengeful warg,
BV-7.7) and the title of the hunter of hunters (BV-15.7); :func:`winner` decides the winning side (exclusive
conditions, no draws, BV-9.2); :func:`points` scores the series (BV-12). Pure.
"""
from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from typing import Any

from .state import POINTS, Ev, is_alive, living, side_of


def linked(state: MutableMapping[str, Any], sids: Iterable[str]) -> list[str]:
    """Every seat that dies with ``sids`` (BV-7.7): the lover of a dead bride or groom "of grief" (BV-13.12) and the
    player named by a dead vengeful warg (BV-13.24), repeatedly (grief can follow grief). Protection does not stop
    them. Returns ``sids`` and the linked deaths, in order, without the already dead."""
    out: list[str] = []
    queue = [s for s in sids if is_alive(state, s)]
    while queue:
        sid = queue.pop(0)
        if sid in out or not is_alive(state, sid):
            continue
        out.append(sid)
        for bride, groom in (state.get("grooms") or {}).items():
            if sid == bride and groom not in out:
                queue.append(groom)
            elif sid == groom and bride not in out:
                queue.append(bride)
        named = (state.get("doom") or {}).get(sid)
        if named and named not in out:
            queue.append(named)
    return out


def die(state: MutableMapping[str, Any], sids: Iterable[str], *, cause: str) -> tuple[list[str], list[Ev]]:
    """Kill ``sids`` now, with their linked deaths (:func:`linked`). ``cause`` is ``executed`` (BV-7.1), ``killed``
    (settled at nightfall, BV-7.3), or ``removed`` (BV-15.12). Returns the dead in order and the master-trace events
    (the grief and vengeance deaths); the public announcement is the caller's (it differs by cause). The hunter of
    hunters' title passes to his living heir if he was a vampire, else a new election is held (BV-15.7)."""
    primary = [s for s in sids if is_alive(state, s)]
    dead = linked(state, primary)
    events = [Ev("bv.trace_linked_death", {"seat": s}, to="master") for s in dead if s not in primary]
    state["dead"] = [*(state.get("dead") or []), *dead]
    hoh = state.get("hoh")
    if hoh and hoh in dead:
        heir = state.get("heir")
        if side_of(state, hoh) == "vampires" and heir and is_alive(state, heir):
            state["hoh"] = heir
            events.append(Ev("bv.hoh_passed", {"seat": heir}))
        else:
            state["hoh"] = None
            state["elect"] = True
        state["heir"] = None
    return dead, events


def winner(state: MutableMapping[str, Any], *, nightfall: bool) -> str | None:
    """The winning side now, or ``None`` (BV-9–BV-11). Exclusive conditions (BV-9.2): ``vampires`` when every
    hunters- and werewolf-side card is dead (also when everybody is dead, BV-9.1); ``werewolf`` when a werewolf-side
    player lives and the living are werewolf-side players and at most one hunter (BV-11, BV-11.2, BV-11.3);
    ``hunters`` only at ``nightfall`` (BV-10.2): a hunter lives, no werewolf-side player lives, the living hunters
    are at least the living vampires, and no killing vampire (the table's ``killer``, BV-1.4) lives (BV-10.1).
    Guards at the gate is decided by its night (BV-15.13), not here."""
    alive = living(state)
    sides = [side_of(state, s) for s in alive]
    if not any(side in ("hunters", "werewolf") for side in sides):
        return "vampires"
    wolves = sides.count("werewolf")
    hunters = sides.count("hunters")
    vampires = sides.count("vampires")
    if wolves and not vampires and hunters <= 1:
        return "werewolf"
    if nightfall and hunters and not wolves and hunters >= vampires:
        table = state["table"]
        if not any(table[state["cards"][s]].get("killer") for s in alive if side_of(state, s) == "vampires"):
            return "hunters"
    return None


def points(state: MutableMapping[str, Any], side: str) -> dict[str, int]:
    """BV-12: each seat's points when ``side`` wins — every card of the winning side, dead or alive (BV-12.2),
    scores 1 (vampires), 2 (hunters) or 3 (werewolf side, wargs included, BV-12.1); the losers 0."""
    return {sid: (POINTS[side] if side_of(state, sid) == side else 0) for sid in state["ring"]}
