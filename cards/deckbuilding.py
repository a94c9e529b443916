"""The end of the deck-building stage (FM-4.5), as a pure function card-game engines call from ``resolve``.

No Django import: messages are msgids marked with a no-op ``_`` for makemessages; the module renders them.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from gm.core.engine import Event, SeatInfo

from . import deckrules
from .containers import Containers
from .domain import Collection


def _(s: str) -> str:
    return s


#: Event kinds this stage emits, for the game module's ``messages`` table.
MESSAGES = {
    "cards.random_deck": _("You had no valid deck when deck building ended, so you were given a random valid deck."),
    "cards.random_deck_master": _("%(name)s had no valid deck and was given a random valid deck."),
    "cards.opening_hand": _("Your deck was shuffled and you drew %(count)s cards."),
}


def finish_deck_building(
    *,
    seats: Sequence[SeatInfo],
    collection: Collection,
    rng: random.Random,
    hand_size: Callable[[Mapping], int] = lambda data: 6,
    guaranteed: Callable[[Mapping], Sequence[str]] = lambda data: (),
) -> tuple[dict[int, dict], list[Event]]:
    """FM-4.5: every living seat's submitted deck list (``data["deck_list"]``) if it is valid under its role's
    FM-4.3 rules, else a random valid deck [house] (the player and the master are told); the deck is shuffled with
    ``rng`` and ``hand_size(seat data)`` cards (6; ``geek`` 5, ``strongman`` +1 are the module's business) are
    drawn into the Hand; ``guaranteed(seat data)`` names cards placed among the first six (FM-8 ``engineer``; picks
    not in the deck are ignored). Returns (seat id → new seat data, events).
    Seats are handled in ring order so the result
    depends only on the inputs and the seed.
    """
    seat_data: dict[int, dict] = {}
    events: list[Event] = []
    for seat in sorted(seats, key=lambda s: s.position):
        if not seat.alive:
            continue
        data = dict(seat.data)
        rules = deckrules.rules_for(secret_role=data["secret_role"],
                                    public_role=data.get("public_role") if isinstance(data.get("public_role"), str)
                                    else None, joker_colours=data.get("joker_colours"))
        deck_list = data.get("deck_list")
        if not deck_list or deckrules.validate_deck(deck_list, collection=collection, rules=rules):
            deck_list = deckrules.random_valid_deck(collection=collection, rules=rules, rng=rng)
            data["deck_list"] = deck_list
            events.append(Event("cards.random_deck", {"deck": [e["kind"] for e in deck_list]},
                                visibility="seat", seat=seat.id))
            events.append(Event("cards.random_deck_master", {"name": seat.name}, visibility="master"))
        containers = Containers.from_dict(data.get("cards") or {})
        slugs = [e["kind"] for e in deck_list]
        pool, picks = Counter(slugs), []
        for slug in guaranteed(data):
            if pool[slug] > 0 and len(picks) < 2:
                picks.append(slug)
                pool[slug] -= 1
        containers.new_deck(slugs, rng, collection, guaranteed=picks)
        for instance in containers.deck:  # e.g. the spendthrift's price >= 2 cards are free in play (FM-8)
            if not instance.free and rules.plays_free(collection[instance.kind]):
                containers.set_free(instance.uid, True)
        drawn = containers.deal_opening_hand(hand_size(data))
        data["cards"] = containers.to_dict()
        seat_data[seat.id] = data
        events.append(Event("cards.opening_hand", {"count": len(drawn)}, visibility="seat", seat=seat.id))
    return seat_data, events
