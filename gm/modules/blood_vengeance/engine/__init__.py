"""Mafia: Blood Vengeance: the pure rules engine (functional core, rule IDs ``BV-…``,
``docs/rules/blood-vengeance.md``).

No Django, no I/O, no clock, no global ``random``. The role table (BV-13.1) is data, handed in by the module layer
and snapshotted into the state at set-up. One file per rules topic:

:mod:`.state`       the state schema, fixed tables (BV-2.1 counts, BV-3.1 presets, BV-16 codes), errors, events
:mod:`.table`       the role table: shape, defaults, a master's per-game changes (BV-13.1)
:mod:`.setup`       options, the role set, the deal, the introduction (BV-2, BV-3, BV-4, BV-15.16)
:mod:`.night`       the night vote, its rounds and executions (BV-5, BV-15)
:mod:`.light`       the light time in call order and nightfall (BV-6–BV-8, BV-13, BV-14.2, BV-14.3)
:mod:`.victory`     deaths, victory, points (BV-7.7, BV-9–BV-12)
:mod:`.orders`      order validation with BV-16's codes
:mod:`.series`      series totals (BV-12.3)
:mod:`.thread`      who may post in the thread, phase by phase (BV-14.8)
:mod:`.events`      engine events in the core's terms
:mod:`.resolution`  a phase resolved in the core's terms
"""
from __future__ import annotations

from .events import core_events, learned, seat_order, seat_refs
from .light import gathering_members, legal_targets, resolve_light
from .night import entitled_players, has_vote, open_night, resolve_night_round, total_weight, variant_on, weight
from .orders import validate_action, validate_order
from .resolution import (
    carry_silence,
    check_options,
    check_order,
    declare_hunters,
    enchant,
    enchantable,
    master_set_alive,
    resolve,
    setup,
    start,
)
from .series import series_table
from .setup import (
    OPTION_KEYS,
    build_cards,
    check_counts,
    departures,
    recommended,
    roles_in_play,
    summary,
    validate_options,
)
from .state import (
    CODES,
    COUNTS,
    DURATIONS,
    GATHERING,
    LORDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    REFUSALS,
    ROLES,
    SIDES,
    VARIANTS,
    WARGS,
    WEREWOLVES,
    BvError,
    Ev,
    SeatData,
    State,
    is_alive,
    living,
    may_post,
    own_seat_data,
    public_seat_data,
    refuse,
    view,
    violation,
)
from .table import acts, apply_changes, normalise_table
from .thread import CLOSED_RULES, asks_code_of_honour, hunters_room_closed, thread_closed
from .victory import die, points, winner

__all__ = [
    "CLOSED_RULES", "CODES", "COUNTS", "asks_code_of_honour", "carry_silence", "enchantable", "hunters_room_closed",
    "check_options", "check_order", "declare_hunters", "enchant", "master_set_alive", "start",
    "DURATIONS", "GATHERING", "LORDS", "MAX_PLAYERS", "MIN_PLAYERS", "OPTION_KEYS", "PRESETS",
    "REFUSALS", "ROLES", "SIDES", "VARIANTS", "WARGS", "WEREWOLVES", "BvError", "Ev", "SeatData", "State", "acts",
    "apply_changes", "build_cards", "check_counts", "core_events", "departures", "die", "entitled_players",
    "gathering_members",
    "has_vote", "is_alive", "learned", "legal_targets", "living", "may_post", "normalise_table", "open_night",
    "own_seat_data",
    "points", "public_seat_data", "recommended", "refuse", "resolve", "resolve_light", "resolve_night_round",
    "roles_in_play", "seat_order", "seat_refs", "series_table", "setup", "summary", "thread_closed",
    "total_weight",
    "validate_action", "validate_options", "validate_order", "variant_on", "view", "violation", "weight", "winner",
]
