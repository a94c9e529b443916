"""The doppelganger step and the night (ON-4, ON-5, ON-13, ON-14): what the werewolves, minion and masons learn
as the night opens, the doppelganger's copy, and every night action in wake order against the real card positions.
Pure: the drunk's random take comes from the caller's seeded :class:`random.Random`."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .roles import doppelganger_seat, effective, wakers
from .state import CENTER, CHOOSING, Ev


def knowledge(state: Mapping[str, Any], order: Sequence[str]) -> list[Ev]:
    """Private events as the night opens: the werewolves see each other (a lone one learns he may peek, ON-4.2),
    the minion sees the werewolves (ON-4.3), the masons see each other (ON-4.4). Includes the doppelganger when he
    copied one of these roles (ON-4.1)."""
    events: list[Ev] = []
    wolves = wakers(state, "werewolf", order)
    for sid in wolves:
        others = [w for w in wolves if w != sid]
        if others:
            events.append(Ev("onuw.werewolves", {"seats": [int(w) for w in others]}, to=int(sid)))
        else:
            events.append(Ev("onuw.lone_wolf" if state.get("lone_wolf") else "onuw.lone_wolf_no_peek", {},
                             to=int(sid)))
    for sid in wakers(state, "minion", order):
        if wolves:
            events.append(Ev("onuw.minion_sees", {"seats": [int(w) for w in wolves]}, to=int(sid)))
        else:
            events.append(Ev("onuw.minion_no_wolves", {}, to=int(sid)))
    masons = wakers(state, "mason", order)
    for sid in masons:
        others = [m for m in masons if m != sid]
        events.append(Ev("onuw.masons", {"seats": [int(m) for m in others]}, to=int(sid)) if others
                      else Ev("onuw.lone_mason", {}, to=int(sid)))
    return events


# -- the doppelganger step (ON-4.1, ON-14) --------------------------------------------------------------------------


def resolve_doppelganger(state: Mapping[str, Any], orders: Mapping[str, Mapping[str, Any]],
                         order: Sequence[str]) -> tuple[dict, list[Ev]]:
    """Apply the doppelganger's copy (``orders``: seat id string → payload): he looks at the chosen player's card
    and becomes that role (ON-4.1); he learns it at once (ON-14). Then the night opens with what the werewolves,
    minion and masons learn. A doppelganger who does not order copies nothing (an uncopied doppelganger is
    village). Returns ``(state, events)``."""
    new = {**state, "stage": "night"}
    events: list[Ev] = []
    dop = doppelganger_seat(state)
    target = orders.get(dop, {}).get("copy") if dop is not None else None
    if dop is not None and target is not None and str(target) in state["dealt"]:
        role = state["dealt"][str(target)]
        new["copy"], new["copied_from"] = role, str(target)
        events.append(Ev("onuw.copied", {"seat": int(target), "role": role}, to=int(dop)))
        events.append(Ev("onuw.trace_copy", {"seat": int(dop), "target": int(target), "role": role}, to="master"))
    elif dop is not None:
        events.append(Ev("onuw.copied_nothing", {}, to=int(dop)))
        events.append(Ev("onuw.trace_no_copy", {"seat": int(dop)}, to="master"))
    events += knowledge(new, order)
    return new, events


# -- the night (ON-4, ON-5, ON-13) ------------------------------------------------------------------------------------


def _card_at(cards: Mapping[str, str], center: Sequence[str], ref: str) -> str:
    return center[CENTER.index(ref)] if ref in CENTER else cards[ref]


def resolve_night(state: Mapping[str, Any], orders: Mapping[str, Mapping[str, Any]], order: Sequence[str],
                  rng: random.Random) -> tuple[dict, list[Ev]]:
    """Apply the night's actions in wake order against the real card positions (ON-4, ON-13), each seat acting by
    its dealt card: the doppelganger's copied seer/robber/troublemaker/drunk action first (ON-4.1), the lone
    werewolf's peek, seer, robber, troublemaker, drunk, then the insomniac (and a doppelganger-insomniac after
    her). ``orders`` maps seat id strings to validated payloads; a seat without an order does nothing, except a
    drunk, whose swap is made at random (logged to the master). Returns ``(state, events)``."""
    cards = dict(state["cards"])
    center = list(state["center"])
    events: list[Ev] = []
    dop = doppelganger_seat(state)
    copy = state.get("copy")

    def show(ref: str) -> dict:
        return {"center": ref} if ref in CENTER else {"seat": int(ref)}

    def act(sid: str, role: str) -> None:
        payload = orders.get(sid) or {}
        if role == "seer" and payload.get("look"):
            seen = [{**show(str(r)), "card": _card_at(cards, center, str(r))} for r in payload["look"]]
            events.append(Ev("onuw.seer_saw", {"seen": seen}, to=int(sid)))
            events.append(Ev("onuw.trace_seer", {"seat": int(sid), "seen": seen}, to="master"))
        elif role == "lone_wolf" and payload.get("look"):
            ref = payload["look"][0]
            events.append(Ev("onuw.wolf_saw", {"center": ref, "card": center[CENTER.index(ref)]}, to=int(sid)))
            events.append(Ev("onuw.trace_wolf", {"seat": int(sid), "center": ref,
                                                 "card": center[CENTER.index(ref)]}, to="master"))
        elif role == "robber" and payload.get("swap_with") is not None:
            other = str(payload["swap_with"])
            cards[sid], cards[other] = cards[other], cards[sid]
            got = cards[sid]
            events.append(Ev("onuw.robbed", {"seat": int(other), "card": got, "as": effective(got, state)},
                             to=int(sid)))
            events.append(Ev("onuw.trace_robber", {"seat": int(sid), "target": int(other), "card": got},
                             to="master"))
        elif role == "troublemaker" and payload.get("swap"):
            a, b = (str(x) for x in payload["swap"])
            cards[a], cards[b] = cards[b], cards[a]
            events.append(Ev("onuw.swapped", {"seats": [int(a), int(b)]}, to=int(sid)))
            events.append(Ev("onuw.trace_troublemaker", {"seat": int(sid), "seats": [int(a), int(b)]},
                             to="master"))
        elif role == "drunk":
            ref = payload.get("take")
            randomly = ref is None
            if randomly:
                ref = rng.choice(CENTER)
            i = CENTER.index(ref)
            cards[sid], center[i] = center[i], cards[sid]
            events.append(Ev("onuw.drunk_took", {"center": ref}, to=int(sid)))
            events.append(Ev("onuw.trace_drunk_random" if randomly else "onuw.trace_drunk",
                             {"seat": int(sid), "center": ref}, to="master"))
        elif role == "insomniac":
            card = cards[sid]
            events.append(Ev("onuw.insomniac_saw", {"card": card, "as": effective(card, state)}, to=int(sid)))
            events.append(Ev("onuw.trace_insomniac", {"seat": int(sid), "card": card}, to="master"))

    if dop is not None and copy in CHOOSING:
        act(dop, copy)  # ON-4.1: the copied action is done at once, before everyone else wakes
    wolves = wakers(state, "werewolf", order)
    if state.get("lone_wolf") and len(wolves) == 1:
        act(wolves[0], "lone_wolf")
    for role in ("seer", "robber", "troublemaker", "drunk", "insomniac"):
        for sid in order:
            if state["dealt"][sid] == role:
                act(sid, role)
    if dop is not None and copy == "insomniac":
        act(dop, "insomniac")  # ON-4.1: a doppelganger-insomniac wakes after the insomniac
    events.append(Ev("onuw.night_over", {}))
    return {**state, "cards": cards, "center": center, "stage": "day"}, events
