"""October Night: the pure rules engine (functional core, rule IDs ``OC-…``, ``docs/rules/october-night.md``).

No Django, no I/O, no clock, no global ``random``: every function takes plain data and the seeded
:class:`random.Random` handed in; the only import outside the standard library is the core's pure engine interface
(:mod:`gm.core.engine`). The game data (OC-17) is handed in by the module layer and snapshotted into the state at
set-up. One file per rules topic:

:mod:`.state`       the state schema, fixed tables, refusal codes (OC-18), turn order (OC-3.5), what a viewer sees
:mod:`.data`        the data set: overrides, validation, distances (OC-17)
:mod:`.setup`       options, the deal, characters, decks, a fixed start position (OC-1, OC-2, OC-3.3, OC-15.4)
:mod:`.orders`      order validation (OC-4, OC-5.1, OC-6.8, OC-9.3, OC-12.1, OC-14, OC-15.3, OC-18)
:mod:`.checks`      checks and dice (OC-7, OC-11.2, OC-12.2)
:mod:`.items`       health, experience, outcomes, reserve, out of the game (OC-2, OC-15, OC-16.4)
:mod:`.fights`      fights between players (OC-5)
:mod:`.actions`     the action phase (OC-4, OC-12, OC-14)
:mod:`.contacts`    the contact phase and the mysteries (OC-6, OC-7.4, OC-13)
:mod:`.master`      the master's seat edit and board edit (OC-11.6)
:mod:`.ritual`      week starts, the chosen, admission, the ritual, the ends (OC-3.3, OC-8, OC-9, OC-10)
:mod:`.resolution`  a phase resolved in the core's terms
"""
from __future__ import annotations

from .checks import Ctx, check, fight_skill, fight_value, roll_dice, skill_value
from .data import digest, distance, distances, merge_data, validate_data
from .master import FIELDS as MASTER_FIELDS
from .master import board_edit, board_fields, seat_edit, seat_fields
from .orders import enemy_at, holds, validate_order
from .resolution import opening_events, resolve
from .setup import (
    OPTION_KEYS,
    apply_position,
    asset_deck,
    game_data,
    role_deck,
    setup,
    sheet_holder,
    validate_options,
)
from .state import (
    ACTIONS,
    CODE_MESSAGES,
    CODES,
    CONTACT_KINDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SIDE_CARDS,
    SIDES,
    SKILLS,
    Player,
    SeatData,
    State,
    by_slug,
    in_game,
    joined_side,
    own_seat_data,
    refusal,
    revealed,
    turn_order,
    view,
    week_of,
)

__all__ = [
    "MASTER_FIELDS", "board_edit", "board_fields", "seat_edit", "seat_fields",
    "sheet_holder",
    "ACTIONS", "CODES", "CODE_MESSAGES", "CONTACT_KINDS", "MAX_PLAYERS", "MIN_PLAYERS", "OPTION_KEYS", "SIDES",
    "SIDE_CARDS", "SKILLS", "Ctx", "Player", "SeatData", "State", "apply_position", "asset_deck", "by_slug", "check",
    "digest", "distance", "distances", "enemy_at", "fight_skill", "fight_value", "game_data", "holds", "in_game",
    "joined_side", "merge_data", "opening_events", "own_seat_data", "refusal", "resolve", "revealed", "role_deck",
    "roll_dice", "setup", "skill_value", "turn_order", "validate_data", "validate_options", "validate_order", "view",
    "week_of",
]
