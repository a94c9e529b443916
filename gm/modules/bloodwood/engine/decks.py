"""The two decks and the discard pile (BW-1, BW-1a, BW-1b, BW-6b, BW-6f, BW-24b, BW-24d): drawing, rebuilding a deck
only from its own cards of the pile, the number of cards due at a refill, which splits are valid and the default
split of a missed refill. Pure: a rebuilt deck is shuffled with the game's RNG, derived from the state's
``shuffle_seed`` and the count of reshuffles so far."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .state import HAND, Ev, State, deck_of


def fits(data: Mapping[str, Any], card: str, deck: str) -> bool:
    """Whether ``card`` may lie in ``deck`` (``day``/``night``): its own kind, or a special card (BW-1a, BW-1d)."""
    return deck_of(data, card) in (deck, "special")


def to_pile(state: State, *cards: str) -> None:
    """Put ``cards`` on the discard pile in this order, so the last one ends on top (BW-1b)."""
    for card in cards:
        state["discard"].insert(0, card)


def rebuild(state: State, deck: str, evs: list[Ev]) -> int:
    """Rebuild ``deck`` (BW-1a): take the pile's cards that may lie in it, shuffle them with the game's RNG and put
    them under what is left of the deck; the other cards stay in the pile in their order. Writes the public
    ``reshuffle`` line. Returns the number of cards taken."""
    taken = [c for c in state["discard"] if fits(state["data"], c, deck)]
    if not taken:
        return 0
    state["discard"] = [c for c in state["discard"] if not fits(state["data"], c, deck)]
    taken.reverse()  # the pile is kept top first; shuffled anyway, but the input order must be stable
    state["reshuffles"] = state.get("reshuffles", 0) + 1
    random.Random(f"{state['shuffle_seed']}:{state['reshuffles']}").shuffle(taken)
    state["decks"][deck] = state["decks"][deck] + taken
    evs.append(Ev("bw.reshuffle", {"event": "reshuffle", "deck": deck, "count": len(taken)}))
    return len(taken)


def draw(state: State, deck: str, count: int, evs: list[Ev]) -> list[str]:
    """Draw ``count`` cards from the top of ``deck``; when it holds too few, the cards left are drawn first and the
    deck is rebuilt under them (BW-1a). Returns the cards drawn (fewer when the deck and the pile are exhausted)."""
    got: list[str] = []
    while len(got) < count:
        if not state["decks"][deck] and not rebuild(state, deck, evs):
            break
        got.append(state["decks"][deck].pop(0))
    return got


def availability(state: State) -> tuple[int, int, int, int, int]:
    """``(day deck, night deck, pile day cards, pile night cards, pile special cards)`` as counts."""
    data = state["data"]
    pile = state["discard"]
    return (len(state["decks"]["day"]), len(state["decks"]["night"]),
            sum(deck_of(data, c) == "day" for c in pile), sum(deck_of(data, c) == "night" for c in pile),
            sum(deck_of(data, c) == "special" for c in pile))


def split_possible(state: State, day: int, night: int) -> bool:
    """Whether the split ``day``/``night`` draws every card it asks for (BW-6f): its day cards first (the day deck
    rebuilt if it runs short, taking the pile's day and special cards), then its night cards (the night deck rebuilt
    from what the pile still holds)."""
    d_deck, n_deck, p_day, p_night, p_special = availability(state)
    if day < 0 or night < 0 or day > d_deck + (p_day + p_special if day > d_deck else 0):
        return False
    specials_left = 0 if day > d_deck else p_special
    return night <= n_deck + p_night + specials_left


def number_due(state: State, wanted: int) -> int:
    """The number of cards due (BW-6f): the smaller of ``wanted`` and the most any split can give."""
    best = 0
    for day in range(wanted + 1):
        for night in range(wanted + 1 - day):
            if split_possible(state, day, night):
                best = max(best, day + night)
    return best


def refill_wanted(state: State, sid: str, mode: str) -> int:
    """Cards a draw of ``mode`` asks for: ``end`` brings the hand to 4 (BW-6b), ``one`` is Eclipse/Time Loop's one
    (BW-7b), ``four`` is Pandora's Box's four (BW-18)."""
    if mode == "one":
        return 1
    if mode == "four":
        return HAND
    return max(0, HAND - len(state["hands"][sid]))


def default_split(state: State, sid: str, due: int) -> dict[str, int]:
    """The split of a missed refill (BW-24b): card by card from the deck whose kind he holds fewer of (day cards
    against night cards; special cards count for neither), on a tie from the current phase's deck, and from the other
    deck when that one can give nothing more. **[reading]** "Holds" counts each card already taken in this split as
    one of its deck's kind (the cards are drawn only once the split is made, BW-6b)."""
    data = state["data"]
    hand = state["hands"][sid]
    have = {deck: sum(deck_of(data, c) == deck for c in hand) for deck in ("day", "night")}
    split = {"day": 0, "night": 0}
    for _i in range(due):
        if have["day"] != have["night"]:
            first = "day" if have["day"] < have["night"] else "night"
        else:
            first = state["phase"]
        other = "night" if first == "day" else "day"
        for deck in (first, other):
            trial = {**split, deck: split[deck] + 1}
            if split_possible(state, trial["day"], trial["night"]):
                split = trial
                have[deck] += 1
                break
    return split


def draw_split(state: State, sid: str, split: Mapping[str, int], evs: list[Ev]) -> list[str]:
    """Draw a split into ``sid``'s hand, day cards first (BW-6b), writing the public count line and the player's
    private line with the cards drawn (BW-25). Returns the cards drawn."""
    got = draw(state, "day", int(split.get("day", 0)), evs) + draw(state, "night", int(split.get("night", 0)), evs)
    state["hands"][sid] += got
    name = state["names"][sid]
    evs.append(Ev("bw.refill", {"event": "refill", "player": name, "day": int(split.get("day", 0)),
                                "night": int(split.get("night", 0))}))
    if got:
        evs.append(Ev("bw.drawn", {"event": "refill", "player": name, "cards": got}, to=sid))
    return got
