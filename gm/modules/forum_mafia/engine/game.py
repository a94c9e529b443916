"""Forum Mafia as the core's ``GameModule`` hooks call it, pure: the master's options (FM-3.4, FM-10.H1), an order in
any phase (FM-4.5, FM-5), the resolution of any phase (FM-4.5, FM-6), and what a viewer sees of the state and of a
seat (FM-2, FM-4.6, FM-5.1, FM-8). The rules themselves are in the topic files this one calls.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cards.containers import Containers, hide_deck_order
from gm.core.engine import PhaseInfo, PhaseSpec, Resolution, RuleError, RuleViolation, SeatInfo

from . import opening, resolution, victory
from .orders import validate_order as validate_night_or_day_order
from .state import DECKBUILDING, NIGHT, STALEMATE_PHASES

#: The options a master may set (see :func:`validate_options`).
OPTIONS = ("hero", "roles", "stalemate_phases")


def _(s: str) -> str:
    return s


def validate_options(options: Mapping[str, Any]) -> dict:
    """The master's options, cleaned: ``hero`` (bool, FM-3.4), ``roles`` (a fixed composition of secret-role slugs,
    one per player, FM-3.4; optional) and ``stalemate_phases`` (0 = off … ``victory.STALEMATE_MAX``, FM-10.H1;
    default :data:`.state.STALEMATE_PHASES`). Raises :class:`RuleViolation` with every problem (an unknown key,
    a wrong type or range, an unknown role)."""
    errors: list[RuleError] = []
    for key in sorted(set(options) - set(OPTIONS)):
        errors.append(RuleError(_("Unknown option “%(key)s”."), field=key, params={"key": key}))
    hero = options.get("hero", False)
    if not isinstance(hero, bool):
        errors.append(RuleError(_("“hero” is true or false."), field="hero", rule="FM-3.4"))
    roles = options.get("roles")
    if roles is not None:
        errors += opening.validate_fixed_composition(roles)
    stalemate = options.get("stalemate_phases", STALEMATE_PHASES)
    if not isinstance(stalemate, int) or isinstance(stalemate, bool) or \
            not 0 <= stalemate <= victory.STALEMATE_MAX:
        errors.append(RuleError(_("“stalemate_phases” is a whole number from 0 (off) to %(max)s."),
                                field="stalemate_phases", rule="FM-10.H1",
                                params={"max": victory.STALEMATE_MAX}))
    if errors:
        raise RuleViolation(errors)
    clean: dict[str, Any] = {"hero": hero, "stalemate_phases": stalemate}
    if roles:
        clean["roles"] = list(roles)
    return clean


def public_options(options: Mapping[str, Any]) -> dict:
    """The options everyone may read: the hero (FM-3.4) and the stalemate limit (FM-10.H1); a fixed composition is
    only said to exist (``fixed_composition``), never shown."""
    public = {"hero": options.get("hero", False),
              "stalemate_phases": options.get("stalemate_phases", STALEMATE_PHASES)}
    if options.get("roles"):
        public["fixed_composition"] = True
    return public


def validate_order(*, state: Mapping[str, Any], phase: PhaseInfo, seat: SeatInfo, payload: Any,
                   seats: Sequence[SeatInfo] = ()) -> dict:
    """An order of ``seat`` for ``phase``: none during deck building (FM-4.5: the deck builder takes the decks),
    else FM-5.2–FM-5.7 (:func:`.orders.validate_order`; ``seats`` defaults to ``[seat]``). Returns the clean payload;
    raises :class:`RuleViolation` with the reasons and rule IDs."""
    if phase.kind == DECKBUILDING:
        raise RuleViolation([RuleError(_("During deck building there are no orders: build your deck in the deck "
                                         "builder."), rule="FM-4.5")])
    return validate_night_or_day_order(state=state, phase=phase, seat=seat, seats=seats or [seat], payload=payload)


def resolve(*, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo],
            orders: Mapping[int, Mapping[str, Any]], rng: random.Random) -> Resolution:
    """Deck building opens the game (FM-4.5, :func:`.opening.open_game`) and Night 1 follows; a night or day
    resolves by FM-6 (:func:`.resolution.resolve`)."""
    if phase.kind == DECKBUILDING:
        seat_data, events = opening.open_game(seats, state, rng)
        return Resolution(dict(state), events, seat_data, next_phase=PhaseSpec(NIGHT, 1))
    return resolution.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=rng)


def view(state: Mapping[str, Any], *, sees_everything: bool) -> dict:
    """The game state a viewer reads: only whether a hero is in play (FM-3.4), unless he sees everything."""
    return {"hero": state.get("hero")} if not sees_everything else dict(state)


def own_seat_data(data: Mapping[str, Any]) -> dict:
    """A seat's data as its owner sees it: no deck order (FM-4.6), except the ``psychic``'s top three cards (FM-8,
    ``deck_top``: slugs, top first)."""
    visible = hide_deck_order(data)
    if data.get("public_role") == "psychic":
        visible["deck_top"] = [c.kind for c in Containers.from_dict(data.get("cards") or {}).peek(3)]
    return visible


def public_seat_data(data: Mapping[str, Any]) -> dict:
    """A seat's data as everyone sees it: the claimed public role (FM-2) and the Hand count (FM-5.1)."""
    public = {"hand_count": len((data.get("cards") or {}).get("hand", []))}
    if data.get("public_role"):
        public["public_role"] = data["public_role"]
    return public
