"""One Night Ultimate Werewolf: the pure rules engine (functional core, rule IDs ``ON-…``, ``docs/rules/onuw.md``).

No Django, no I/O, no clock, no global ``random``: every function takes plain data and a seeded
:class:`random.Random` where chance is involved; the only import outside the standard library is the core's pure
engine interface (:mod:`gm.core.engine`), whose types the module hooks return. One file per rules topic:

:mod:`.state`       the state schema (``State``, ``SeatData``), the fixed tables, errors, events, what a viewer sees
:mod:`.roles`       how each role acts and counts (ON-4, ON-5)
:mod:`.setup`       options and the deal (ON-1–ON-3, ON-16)
:mod:`.orders`      order validation (ON-4, ON-6, ON-14)
:mod:`.night`       the doppelganger step and the night (ON-4, ON-13, ON-14)
:mod:`.day`         the vote, the hunter, the winners (ON-6–ON-12)
:mod:`.series`      tournament series (ON-16)
:mod:`.events`      engine events in the core's terms
:mod:`.resolution`  a phase resolved in the core's terms

This package re-exports the public names, so callers write ``engine.check_roles``.
"""
from __future__ import annotations

from .day import deaths, resolve_day, victory
from .events import core_events, learned, seat_order, seat_refs, with_learned
from .night import knowledge, resolve_doppelganger, resolve_night
from .orders import has_action, validate_copy, validate_night, validate_order, validate_vote
from .resolution import resolve
from .roles import acting_role, doppelganger_seat, effective, night_choice, team, wakers
from .series import series_standings
from .setup import OPTION_KEYS, check_roles, deal, initial_state, recommended_roles, setup, validate_options
from .state import (
    BOX,
    CENTER,
    CHOOSING,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RECOMMENDED_3,
    RECOMMENDED_EXTRA,
    ROLES,
    SERIES_TOKENS,
    TANNER,
    WAKE_ORDER,
    WEREWOLF_TEAM,
    Ev,
    OnuwError,
    SeatData,
    State,
    fail,
    own_seat_data,
    view,
    violation,
)

__all__ = [
    "BOX", "CENTER", "CHOOSING", "MAX_PLAYERS", "MIN_PLAYERS", "OPTION_KEYS", "RECOMMENDED_3", "RECOMMENDED_EXTRA",
    "ROLES", "SERIES_TOKENS", "TANNER", "WAKE_ORDER", "WEREWOLF_TEAM", "Ev", "OnuwError", "SeatData", "State",
    "acting_role", "has_action", "check_roles", "core_events", "deal", "deaths", "doppelganger_seat", "effective",
    "fail",
    "initial_state", "knowledge", "learned", "night_choice", "own_seat_data", "recommended_roles", "resolve",
    "resolve_day", "resolve_doppelganger", "resolve_night", "seat_order", "seat_refs", "series_standings", "setup",
    "team", "validate_copy", "validate_night", "validate_options", "validate_order", "validate_vote", "victory",
    "view", "violation", "wakers", "with_learned",
]
