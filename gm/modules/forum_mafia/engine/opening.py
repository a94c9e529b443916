"""Forum Mafia opening, pure (no Django import, no clock, randomness only from the injected RNG).

This part covers the start of a game: dealing secret roles by the FM-3.4 table (or a fixed composition), the
deck-building stage (FM-4.5) and the opening: shuffled decks, opening Hands and the start-of-game role effects
(FM-3.1, FM-3.3, FM-8). Nights and days are :mod:`.resolution`.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cards.containers import Containers
from cards.deckbuilding import finish_deck_building
from cards.deckrules import ROLE_COLOURS
from cards.domain import Collection
from gm.core.engine import Event, PhaseSpec, RuleError, RuleViolation, SeatInfo, SetupResult

from .roles import LAW_ROLES, MAFIA, MAFIA_ROLES, PUBLIC_ROLE_BY_SLUG, SECRET_ROLES
from .state import DECKBUILDING, MAFIA_GROUP, MIN_PLAYERS, OPENING_HAND, STALEMATE_PHASES


def _(s: str) -> str:
    return s




def composition(n: int, *, hero: bool, rng: random.Random) -> list[str]:
    """FM-3.4: the secret roles for ``n`` players (not yet shuffled onto seats). Always the three mafiosi;
    ``maniac`` from 11; from 13 ``joker`` or ``traitor`` (random) and at 15–16 (and beyond) both; ``hero`` (option)
    replaces one Law member; every other player is Law with an FM-3.2 role drawn independently (FM-1.1: beyond 16
    the last row plus extra Law). Raises ``ValueError`` below 5 players."""
    if n < MIN_PLAYERS:
        raise ValueError(f"forum Mafia needs at least {MIN_PLAYERS} players, not {n}")
    roles = list(MAFIA_ROLES)
    if n >= 11:
        roles.append("maniac")
    if n in (13, 14):
        roles.append(rng.choice(["joker", "traitor"]))
    elif n >= 15:
        roles += ["joker", "traitor"]
    if hero:
        roles.append("hero")
    roles += [rng.choice(LAW_ROLES) for _index in range(n - len(roles))]
    return roles


def validate_fixed_composition(roles: Any, n: int | None = None) -> list[RuleError]:
    """Errors of a master-fixed composition (FM-3.4): known secret-role slugs, each mafioso at most once, and — when
    ``n`` is known — exactly one role per player."""
    errors: list[RuleError] = []
    if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
        return [RuleError(_("The fixed composition must be a list of secret-role slugs."), field="roles",
                          rule="FM-3.4")]
    unknown = sorted({r for r in roles if r not in SECRET_ROLES})
    if unknown:
        errors.append(RuleError(_("Unknown secret roles: %(roles)s."), field="roles", rule="FM-3.4",
                                params={"roles": ", ".join(unknown)}))
    for slug in MAFIA_ROLES:
        if roles.count(slug) > 1:
            errors.append(RuleError(_("“%(role)s” can be dealt only once."), field="roles", rule="FM-3.1",
                                    params={"role": slug}))
    if n is not None and len(roles) != n:
        errors.append(RuleError(_("The fixed composition has %(count)s roles for %(players)s players."),
                                field="roles", rule="FM-3.4", params={"count": len(roles), "players": n}))
    return errors


def deal(seats: Sequence[SeatInfo], options: Mapping[str, Any], rng: random.Random) -> dict[int, str]:
    """FM-3.4/FM-3.5: seat id → secret role, from the recorded seed (same seed, same deal)."""
    fixed = options.get("roles")
    if fixed:
        errors = validate_fixed_composition(fixed, len(seats))
        if errors:
            raise RuleViolation(errors)
        roles = list(fixed)
    else:
        try:
            roles = composition(len(seats), hero=bool(options.get("hero")), rng=rng)
        except ValueError:
            raise RuleViolation([RuleError(_("Forum Mafia needs at least %(min)s players; %(count)s signed up."),
                                           rule="FM-1.1", params={"min": MIN_PLAYERS, "count": len(seats)})]) from None
    rng.shuffle(roles)
    return {seat.id: role for seat, role in zip(sorted(seats, key=lambda s: s.position), roles, strict=True)}


def setup(seats: Sequence[SeatInfo], options: Mapping[str, Any], rng: random.Random):
    """Deal the secret roles (FM-3), tell everyone his own, let the mafiosi learn each other (FM-3.1: a log line to
    their group, and each mafioso's seat data ``mafia_seats``, the other mafiosi's seat ids in ring order) and open
    the deck-building stage (FM-4.5). Returns the core's ``SetupResult``."""
    dealt = deal(seats, options, rng)
    by_id = {s.id: s for s in seats}
    seat_data: dict[int, dict] = {}
    events: list[Event] = []
    for seat_id, role in dealt.items():
        seat_data[seat_id] = {**by_id[seat_id].data, "secret_role": role, "faction": SECRET_ROLES[role].faction,
                              "cards": {}}
        events.append(Event("fm.your_role", {"role": role}, visibility="seat", seat=seat_id))
    mafia = sorted((sid for sid, role in dealt.items() if SECRET_ROLES[role].faction == MAFIA),
                   key=lambda i: by_id[i].position)
    for sid in mafia:  # FM-3.1: what each mafioso learned at the deal, kept with his own secrets (his role card)
        seat_data[sid]["mafia_seats"] = [other for other in mafia if other != sid]
    events.append(Event("fm.mafia_members", {
        "members": [{"name": by_id[sid].name, "role": dealt[sid]} for sid in mafia],
    }, visibility="group", group=MAFIA_GROUP))
    events.append(Event("fm.deal", {"deal": {by_id[sid].name: role for sid, role in dealt.items()}},
                        visibility="master"))
    return SetupResult(
        state={"hero": bool(options.get("hero")),
               "stalemate_phases": options.get("stalemate_phases", STALEMATE_PHASES)},  # FM-10.H1
        first_phase=PhaseSpec(DECKBUILDING, setup=True),
        seat_data=seat_data,
        groups={MAFIA_GROUP: mafia},
        events=events,
    )


def _hand_size(data: Mapping[str, Any]) -> int:
    return OPENING_HAND - 1 if data.get("public_role") == "geek" else OPENING_HAND  # FM-8 geek: 5 cards


def _engineer_picks(data: Mapping[str, Any]) -> Sequence[str]:
    return data.get("engineer_picks") or () if data.get("public_role") == "engineer" else ()


def open_game(seats: Sequence[SeatInfo], state: Mapping[str, Any], rng: random.Random):
    """End of the deck-building stage: missing joker colours chosen at random [house], decks shuffled and dealt
    (FM-4.5), start-of-game role effects (FM-3.3, FM-8), the mafiosi learn each other's decks and Hands (FM-3.1),
    Night 1 opens. Returns (seat id → data, events)."""
    collection = Collection.from_snapshot(state["collection"])
    events: list[Event] = []
    prepared = []
    for seat in sorted(seats, key=lambda s: s.position):
        data = dict(seat.data)
        if data.get("secret_role") == "joker" and not data.get("joker_colours"):
            data["joker_colours"] = sorted(rng.sample(ROLE_COLOURS, 2), key=ROLE_COLOURS.index)
            events.append(Event("fm.joker_colours_random", {"colours": data["joker_colours"]},
                                visibility="seat", seat=seat.id))
        prepared.append(SeatInfo(id=seat.id, name=seat.name, position=seat.position, alive=seat.alive, data=data))
    seat_data, deck_events = finish_deck_building(seats=prepared, collection=collection, rng=rng,
                                                  hand_size=_hand_size, guaranteed=_engineer_picks)
    events += deck_events
    by_id = {s.id: s for s in prepared}
    for seat_id, data in seat_data.items():
        containers = Containers.from_dict(data["cards"])
        secret = SECRET_ROLES[data["secret_role"]]
        public_slug = data.get("public_role")
        public = PUBLIC_ROLE_BY_SLUG.get(public_slug) if isinstance(public_slug, str) else None
        for kind in secret.start_sleeve + (public.start_sleeve if public else ()):
            containers.add(kind, "sleeve", "role", collection=collection)  # FM-3.3 joker/hero, FM-8 start cards
        if public and public.slug == "cardsharp":  # FM-8: one card from the deck into the Sleeve, put there by the role
            for card in containers.draw("sleeve", 1):
                containers.set_provenance(card.uid, "role")
        if secret.slug == "maniac":  # FM-3.3: one card drawn from the deck into the Sleeve
            containers.draw("sleeve", 1)
        if public and public.slug == "strongman":  # FM-8: one extra card at the start of Night 1
            containers.draw("hand", 1)
        if public and public.slug == "lucky":  # FM-8: two redeals during Night 1
            data["lucky_redeals_left"] = 2
        data["cards"] = containers.to_dict()
        events.append(Event("fm.opening", {"hand": containers.hand_kinds(), "sleeve": containers.sleeve_kinds()},
                            visibility="seat", seat=seat_id))
    mafia = [sid for sid in sorted(seat_data, key=lambda i: by_id[i].position)
             if SECRET_ROLES[seat_data[sid]["secret_role"]].faction == MAFIA]
    if mafia:
        events.append(Event("fm.mafia_decks", {"members": [
            {"name": by_id[sid].name, "hand": Containers.from_dict(seat_data[sid]["cards"]).hand_kinds(),
             "deck": [e["kind"] for e in seat_data[sid]["deck_list"]]} for sid in mafia
        ]}, visibility="group", group=MAFIA_GROUP))
    return seat_data, events
