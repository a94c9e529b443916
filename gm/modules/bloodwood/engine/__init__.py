"""Bloodwood: the pure rules engine (functional core, rule IDs ``BW-…``, ``docs/rules/bloodwood.md``).

No Django, no I/O, no clock, no global ``random``: every function takes plain data and a seeded
:class:`random.Random` where chance is involved; the only import outside the standard library is the core's pure
engine interface (:mod:`gm.core.engine`). One file per rules topic:

:mod:`.state`       the state schema (``State``, ``Step``, ``SeatData``), fixed tables, refusals, what a viewer sees
:mod:`.setup`       options, teams (incl. odd counts and leaders), the deal, the master's position override
:mod:`.decks`       the decks, rebuilding each from its own discards, the refill's number due and splits
:mod:`.markers`     DNA, Curse Mark with its count and passing, permanent mutation, deadlock
:mod:`.orders`      validation of every line, with BW-26's codes in its order
:mod:`.cards`       what each card does, Voodoo, The Leshy, The Hunter
:mod:`.flow`        the agenda and opening steps
:mod:`.turns`       the turn as steps: start, close, defaults, end of turn, phase flip, extra turns
:mod:`.declare`     declarations and every end of the game
:mod:`.master`      the master's seat edit on the console
:mod:`.resolution`  the engine in the core's terms
"""
from __future__ import annotations

from .cards import apply_effect, keep_rest
from .decks import default_split, draw, number_due, rebuild, split_possible
from .declare import declare, judge, master_end, pend_declaration
from .markers import bite, count_mark, lay_mark, make_permanent
from .master import seat_edit, seat_fields
from .orders import (
    card_refusal,
    keep_due,
    legal_targets,
    playable,
    target_refusal,
    validate_declaration,
    validate_react,
    validate_step,
)
from .resolution import (
    core_events,
    next_spec,
    outcome,
    phase_complete,
    resolve,
    seat_order,
    setup,
    setup_checked,
    validate_order,
)
from .setup import OPTION_KEYS, PUBLIC_OPTION_KEYS, check_deal, team_sizes, validate_options
from .state import (
    ATTACKS,
    CARDS,
    DAY_CARDS,
    DNA,
    ENTITIES,
    HAND,
    INATTENTION_ANSWER,
    INATTENTION_MOVE,
    MARKERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NIGHT_CARDS,
    NOT_SELF,
    PROTECTION,
    REFUSALS,
    SPECIAL_CARDS,
    STEPS,
    TARGETED,
    TEAM_OF,
    TEAMS,
    BwError,
    Ev,
    SeatData,
    State,
    Step,
    own_seat_data,
    view,
    violation,
)
from .turns import close_step, penalty_card, start_game

__all__ = [
    "ATTACKS", "CARDS", "DAY_CARDS", "DNA", "ENTITIES", "HAND", "INATTENTION_ANSWER", "INATTENTION_MOVE", "MARKERS",
    "MAX_PLAYERS", "MIN_PLAYERS", "NIGHT_CARDS", "NOT_SELF", "OPTION_KEYS", "PROTECTION", "PUBLIC_OPTION_KEYS",
    "REFUSALS",
    "SPECIAL_CARDS", "STEPS", "TARGETED", "TEAMS", "TEAM_OF", "BwError", "Ev", "SeatData", "State", "Step",
    "apply_effect", "bite", "card_refusal", "check_deal", "close_step", "core_events", "count_mark", "declare",
    "default_split", "draw", "judge", "keep_due", "keep_rest", "lay_mark", "legal_targets", "make_permanent",
    "master_end", "pend_declaration", "next_spec", "number_due", "outcome", "own_seat_data", "penalty_card",
    "phase_complete",
    "playable", "rebuild", "resolve", "seat_edit", "seat_fields", "seat_order", "setup",
    "setup_checked", "validate_order", "split_possible", "start_game", "target_refusal",
    "team_sizes", "validate_declaration", "validate_options", "validate_react", "validate_step", "view",
    "violation",
]
