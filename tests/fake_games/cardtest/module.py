"""``cardtest``: a test-only card game module: deck building (FM-4.5) then empty night/day phases.

It tests the ``cards`` app end to end without the forum Mafia module: roles come from the
``roles`` option (``[[secret_role, public_role], ...]`` in ring order; default sheriff without public role).
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy

from cards.containers import hide_deck_order
from cards.deckbuilding import MESSAGES, finish_deck_building
from cards.domain import Collection
from gm.core.engine import GameModule, PhaseSpec, Resolution, RuleError, RuleViolation, SetupResult


class CardTestModule(GameModule):
    slug = "cardtest"
    name = gettext_lazy("Card test (test module)")
    min_seats = 2
    uses_cards = True
    phase_kinds = {"deckbuilding": gettext_lazy("Deck building"), "night": gettext_lazy("Night %(number)s"),
                   "day": gettext_lazy("Day %(number)s")}
    default_durations = {"deckbuilding": 3600, "night": 3600, "day": 3600}
    messages = {k: gettext_lazy(v) for k, v in MESSAGES.items()}

    def validate_options(self, options):
        roles = options.get("roles", [])
        if not isinstance(roles, list) or not all(isinstance(r, list) and len(r) in (2, 3) for r in roles):
            raise RuleViolation([RuleError("roles: a list of [secret_role, public_role(, joker colours)]",
                                           field="roles")])
        return {"roles": roles}

    def setup(self, *, seats, options, rng):
        roles = options.get("roles", [])
        seat_data = {}
        for seat in seats:
            role = roles[seat.position] if seat.position < len(roles) else ["sheriff", None]
            data = {"secret_role": role[0], "public_role": role[1], "cards": {}}
            if len(role) == 3:
                data["joker_colours"] = role[2]
            seat_data[seat.id] = data
        return SetupResult(state={}, first_phase=PhaseSpec("deckbuilding", setup=True), seat_data=seat_data)

    def validate_order(self, *, state, phase, seat, payload, seats=()):
        return dict(payload)

    def resolve(self, *, state, phase, seats, orders, rng):
        if phase.kind == "deckbuilding":
            collection = Collection.from_snapshot(state["collection"])
            seat_data, events = finish_deck_building(seats=seats, collection=collection, rng=rng)
            return Resolution(dict(state), events, seat_data, next_phase=PhaseSpec("night", 1))
        nxt = PhaseSpec("day", phase.number) if phase.kind == "night" else PhaseSpec("night", phase.number + 1)
        return Resolution(dict(state), [], next_phase=nxt)

    def own_seat_data(self, data):
        return hide_deck_order(data)

    def public_seat_data(self, data):
        return {"hand_count": len((data.get("cards") or {}).get("hand", []))}


MODULE = CardTestModule()
