"""What each card does (BW-7b, BW-7c, BW-8b, BW-8c, BW-9–BW-21): the effect of a card once it has been played and
answered, the reflected card of a Mirror, the Leshy's discards, the Hunter's gives and keep, the Voodoo's keep, and
where each card goes (BW-1b). Pure; the step flow around them is :mod:`.turns`."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .decks import to_pile
from .flow import open_step, others_from, push
from .markers import bite, lay_mark, lift_mark
from .orders import target_refusal
from .state import HAND, Ev, State, team_of


def _refill_and_end(sid: str) -> list[dict[str, Any]]:
    return [{"op": "refill", "sid": sid, "mode": "end"}, {"op": "end_turn", "sid": sid}]


def _name(state: State, sid: str) -> str:
    return state["names"][sid]


def apply_effect(state: State, card: str, player: str, target: str | None, rng: random.Random, evs: list[Ev], *,
                 reflected: bool = False) -> None:
    """The effect of ``card`` played by ``player`` on ``target`` (BW-9–BW-20), the card already out of his hand.
    With ``reflected`` the card is a Mirror's reflection (BW-8c): ``player`` is the Mirror's player, ``target`` the
    attacker; a reflection the attacker could not be targeted with has no effect and goes to the pile; nothing of the
    attacker's turn (refill, end) is queued here."""
    names = state["names"]
    if reflected and target is not None and target_refusal(state, player, card, target) is not None:
        to_pile(state, card)
        evs.append(Ev("bw.no_effect", {"event": "effect", "card": card, "player": names[target]}))
        return
    tail = [] if reflected else _refill_and_end(player)
    if card == "bite":
        assert target is not None
        to_pile(state, card)
        bite(state, player, target, evs)
    elif card == "curse_mark":
        assert target is not None
        lay_mark(state, target, evs)
    elif card in ("chains", "tranquilizer"):
        assert target is not None
        state["chains" if card == "chains" else "tranq"].append(target)
        evs.append(Ev("bw.marker", {"event": "effect", "player": names[target], "marker": card}))
    elif card == "voodoo":
        assert target is not None
        to_pile(state, card)
        voodoo(state, player, target, evs)
        tail = [] if reflected else [{"op": "end_turn", "sid": player}]  # BW-13: nobody draws
    elif card == "leshy":
        to_pile(state, card)
        leshy(state, player, rng, evs)
    elif card == "hunter":
        to_pile(state, card)
        hunter(state, player, evs)
        tail = [{"op": "hunter_keep", "sid": player}, {"op": "end_turn", "sid": player}]  # BW-15: no refill
    elif card in ("eclipse", "time_loop"):
        to_pile(state, card)
        if card == "eclipse":
            state["phase"] = "night" if state["phase"] == "day" else "day"
            evs.append(Ev("bw.eclipse", {"event": "eclipse", "player": names[player], "phase": state["phase"]}))
        else:
            state["direction"] = -state["direction"]
            evs.append(Ev("bw.time_loop", {"event": "time_loop", "player": names[player],
                                           "direction": "clockwise" if state["direction"] == 1
                                           else "counterclockwise"}))
        state["starter"] = player
        state["turns_done"] = 0
        tail = [{"op": "refill", "sid": player, "mode": "one"}, {"op": "extra", "sid": player, "card": card}]
    elif card == "vaccine":
        assert target is not None
        to_pile(state, card)
        state["dna"][target] = "purity"
        evs.append(Ev("bw.dna", {"event": "effect", "player": names[target], "dna": "purity"}))
    elif card == "candle":
        assert target is not None
        lift_mark(state, target)
        to_pile(state, "candle", "curse_mark")
        evs.append(Ev("bw.unmarked", {"event": "effect", "player": names[target], "marker": "curse_mark"}))
    elif card == "keys":
        assert target is not None
        state["chains"].remove(target)
        to_pile(state, "keys", "chains")
        evs.append(Ev("bw.unmarked", {"event": "effect", "player": names[target], "marker": "chains"}))
    elif card == "pandoras_box":
        assert target is not None
        to_pile(state, card)
        lost = list(state["hands"][target])
        state["hands"][target] = []
        to_pile(state, *lost)
        evs.append(Ev("bw.discard", {"event": "discard", "player": names[target], "cards": lost, "count": len(lost)}))
        if target == player:
            tail = [{"op": "refill", "sid": player, "mode": "four"}, {"op": "end_turn", "sid": player}]
        else:
            tail = [{"op": "refill", "sid": target, "mode": "four"}, *_refill_and_end(player)]
    elif card == "thief":
        assert target is not None
        to_pile(state, card)
        hand = state["hands"][target]
        stolen = hand.pop(rng.randrange(len(hand)))
        state["hands"][player].append(stolen)
        evs.append(Ev("bw.thief", {"event": "thief", "player": names[player], "target": names[target]}))
        for who in (player, target):
            evs.append(Ev("bw.stolen", {"event": "thief", "player": names[player], "target": names[target],
                                        "card": stolen}, to=who))
    elif card == "blood_test":
        assert target is not None
        to_pile(state, card)
        entity = state["entities"][target]
        evs.append(Ev("bw.blood_test", {"event": "blood_test", "player": names[player], "target": names[target]},
                      to=player))
        evs.append(Ev("bw.seen", {"event": "blood_test", "player": names[target], "entity": entity,
                                  "team": team_of(state, target)}, to=player))
    elif card == "confession":
        assert target is not None
        to_pile(state, card)
        state["confessed"].setdefault(player, []).append(target)
        evs.append(Ev("bw.confession", {"event": "confession", "player": names[player], "target": names[target]}))
        entity = state["entities"][player]
        evs.append(Ev("bw.seen", {"event": "confession", "player": names[player], "entity": entity,
                                  "team": team_of(state, player)}, to=target))
    push(state, *tail)


# -- Voodoo (BW-13, BW-13a) -------------------------------------------------------------------------------------


def voodoo(state: State, player: str, target: str, evs: list[Ev]) -> None:
    """The target hands his whole hand to ``player``; with a pool above 4 a ``keep`` step opens for ``player``,
    else he keeps all at once (BW-13a). The private line of the cards received is written now (BW-25a)."""
    received = list(state["hands"][target])
    own = list(state["hands"][player])
    state["hands"][target] = []
    evs.append(Ev("bw.voodoo_got", {"event": "voodoo", "player": state["names"][player],
                                    "target": state["names"][target], "cards": received}, to=player))
    pool = own + received
    if len(pool) > HAND:
        state["hands"][player] = []
        open_step(state, "keep", [player], player=player, pool=pool, mode="voodoo", other=target, own=len(own))
    else:
        state["hands"][player] = pool
        voodoo_back(state, player, target, len(received), [], evs)


def voodoo_back(state: State, player: str, target: str, handed: int, back: Sequence[str], evs: list[Ev]) -> None:
    """The cards not kept go back to the Voodoo's target: the public line with both numbers, the target's private
    line with the cards (BW-25a)."""
    state["hands"][target] += list(back)
    evs.append(Ev("bw.voodoo", {"event": "voodoo", "player": state["names"][player],
                                "target": state["names"][target], "handed": handed, "back": len(back)}))
    evs.append(Ev("bw.voodoo_back", {"event": "voodoo", "player": state["names"][player], "cards": list(back)},
                  to=target))


def keep_rest(pool: Sequence[str], kept: Sequence[str]) -> list[str]:
    """The pool's cards not kept, in pool order (each kept copy taken once)."""
    left = Counter(kept)
    rest = []
    for card in pool:
        if left[card]:
            left[card] -= 1
        else:
            rest.append(card)
    return rest


def resolve_keep(state: State, step: Mapping[str, Any], kept: Sequence[str] | None, evs: list[Ev]) -> None:
    """The ``keep`` step closes (BW-13a, BW-15a, BW-24b): ``kept`` or, missed, the first min(4, pool) of the pool —
    for a Voodoo his own cards first in hand order then the received ones, for a Hunter the first cards received."""
    pool = list(step["pool"])
    due = min(HAND, len(pool))
    chosen = list(kept) if kept is not None else pool[:due]
    rest = keep_rest(pool, chosen)
    player = step["player"]
    state["hands"][player] = chosen
    if step["mode"] == "voodoo":
        voodoo_back(state, player, step["other"], len(pool) - int(step["own"]), rest, evs)
    else:
        to_pile(state, *rest)
        evs.append(Ev("bw.discard", {"event": "discard", "player": state["names"][player], "cards": rest,
                                     "count": len(rest)}))


# -- The Leshy (BW-14, BW-14a) --------------------------------------------------------------------------------------


def leshy(state: State, player: str, rng: random.Random, evs: list[Ev]) -> None:
    """Every other player discards two cards: those with 3 or more choose in a ``discard`` step; when nobody does,
    the unasked discards happen at once (BW-14a)."""
    asked = [s for s in others_from(state, player) if len(state["hands"][s]) >= 3]
    if asked:
        open_step(state, "discard", asked, player=player)
    else:
        leshy_discards(state, player, {}, rng, evs)


def leshy_discards(state: State, player: str, chosen: Mapping[str, Sequence[str]], rng: random.Random,
                   evs: list[Ev]) -> None:
    """All the Leshy discards at once, player by player from the one after the Leshy's player (BW-1b, BW-14a): an
    asked player his two (missed: two at random from the step's RNG, BW-24b), an unasked one his whole hand in hand
    order. One public line per player who discarded."""
    for sid in others_from(state, player):
        hand = state["hands"][sid]
        if not hand:
            continue
        if len(hand) >= 3:
            cards = list(chosen.get(sid) or [hand[i] for i in sorted(rng.sample(range(len(hand)), 2))])
        else:
            cards = list(hand)
        for card in cards:
            hand.remove(card)
        to_pile(state, *cards)
        evs.append(Ev("bw.discard", {"event": "discard", "player": state["names"][sid], "cards": cards,
                                     "count": len(cards)}))


# -- The Hunter (BW-15, BW-15a, BW-15b) -------------------------------------------------------------------------------


def hunter(state: State, player: str, evs: list[Ev]) -> None:
    """The Hunter's player discards his hand (after The Hunter, BW-1b); every other player with 2 or more cards
    chooses one to give in a ``give`` step; when nobody does, the unasked gives happen at once (BW-15b)."""
    lost = list(state["hands"][player])
    state["hands"][player] = []
    to_pile(state, *lost)
    evs.append(Ev("bw.discard", {"event": "discard", "player": state["names"][player], "cards": lost,
                                 "count": len(lost)}))
    state["hunted"] = []
    asked = [s for s in others_from(state, player) if len(state["hands"][s]) >= 2]
    if asked:
        open_step(state, "give", asked, player=player)
    else:
        hunter_gives(state, player, {}, random.Random(0), evs)


def hunter_gives(state: State, player: str, chosen: Mapping[str, str], rng: random.Random, evs: list[Ev]) -> None:
    """All the gives at once, in turn order from the player after the Hunter's player (BW-15b): an asked player his
    card (missed: one at random, BW-24b), a player with one card that card. The public line with each player's
    count, each giver's private line and the Hunter's player's line of who gave which (BW-25a)."""
    received: list[str] = []
    counts: dict[str, int] = {}
    who: list[dict[str, str]] = []
    for sid in others_from(state, player):
        hand = state["hands"][sid]
        if not hand:
            counts[state["names"][sid]] = 0
            continue
        card = chosen.get(sid) or (hand[rng.randrange(len(hand))] if len(hand) >= 2 else hand[0])
        hand.remove(card)
        received.append(card)
        counts[state["names"][sid]] = 1
        who.append({"player": state["names"][sid], "card": card})
        evs.append(Ev("bw.gave", {"event": "hunter", "player": state["names"][sid], "card": card,
                                  "hunter": state["names"][player]}, to=sid))
    evs.append(Ev("bw.hunter", {"event": "hunter", "player": state["names"][player], "counts": counts,
                                "count": len(received)}))
    evs.append(Ev("bw.hunter_got", {"event": "hunter", "player": state["names"][player], "gives": who,
                                    "cards": received}, to=player))
    state["hunted"] = received


def hunter_keep(state: State, player: str, evs: list[Ev]) -> None:
    """The Hunter's player keeps min(4, received): a ``keep`` step when he received more than 4, else all (BW-15a)."""
    received = list(state.pop("hunted", []) or [])
    if len(received) > HAND:
        open_step(state, "keep", [player], player=player, pool=received, mode="hunter")
    else:
        state["hands"][player] = received
