"""The Blood Vengeance state schema, the rules' fixed tables, the engine's error and event types (BV-1, BV-2.1,
BV-3.1, BV-6.1, BV-15, BV-16).

Pure: no Django, no I/O, no clock, no global ``random``. Seat ids are **string** keys everywhere in the state, as
JSON stores them; order payloads name seats by int ids. The role table (every [house] value, BV-13.1) is **not**
here: it is data (``data/roles.yaml``), handed to :func:`.setup.setup` and kept in ``State.table``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from gm.core.engine import RuleError, RuleViolation


def _(s: str) -> str:
    """Marks a msgid for ``makemessages``; the shell translates it when it renders the error."""
    return s


#: Every card slug of BV-1 in the order the rules list them (the role table must hold exactly these).
ROLES = ("vampire", "king", "prince", "count", "lamia", "undine", "queen", "neophyte", "nosferatu", "bride",
         "banshee", "dhampir", "revenant", "ghoul", "hunter", "monk", "leader", "scout", "beauty", "werewolf",
         "kitsune", "warg_leader", "sly_warg", "vengeful_warg", "paralysing_warg", "tricky_warg")
SIDES = ("vampires", "hunters", "werewolf")
TYPE_CARDS = ("vampire", "special_vampire", "hunter", "special_hunter", "werewolf")
LORDS = ("king", "prince", "count")
WEREWOLVES = ("werewolf", "kitsune")
WARGS = ("warg_leader", "sly_warg", "vengeful_warg", "paralysing_warg", "tricky_warg")
#: Effects an ability row may name (BV-13); the engine implements each one.
EFFECTS = ("none", "kill", "protect", "lamia", "block", "drown", "type", "killer_check", "watch", "count_hunters",
           "vampire_check", "bind", "silence_vote", "doom", "paralyse", "steal_vote")
SLOTS = ("none", "dawn", "day", "dusk")
#: Each card's entry in BV-13, the rule ID its refusals cite.
ROLE_RULES = {"vampire": "BV-13.2", "king": "BV-13.4", "prince": "BV-13.5", "count": "BV-13.6", "lamia": "BV-13.7",
              "undine": "BV-13.8", "queen": "BV-13.9", "neophyte": "BV-13.10", "nosferatu": "BV-13.11",
              "bride": "BV-13.12", "banshee": "BV-13.13", "dhampir": "BV-13.14", "revenant": "BV-13.15",
              "ghoul": "BV-13.16", "werewolf": "BV-13.17", "kitsune": "BV-13.18", "hunter": "BV-13.19",
              "monk": "BV-13.20", "leader": "BV-13.21", "scout": "BV-13.22", "beauty": "BV-13.23",
              **{w: "BV-13.24" for w in ("warg_leader", "sly_warg", "vengeful_warg", "paralysing_warg",
                                         "tricky_warg")}}
#: The hunters' gathering's place in the call order (BV-6.1: day, after the queen, before the neophyte).
GATHERING = "hunters"
GATHERING_ORDER = 50
MIN_PLAYERS, MAX_PLAYERS = 3, 39
#: BV-2.1: players → (vampires lo, hi), lords, (special vampires lo, hi), (hunters lo, hi), (special hunters lo, hi).
COUNTS: dict[int, tuple[tuple[int, int], int, tuple[int, int], tuple[int, int], tuple[int, int]]] = {
    6: ((5, 5), 0, (0, 1), (1, 1), (0, 0)),
    7: ((5, 6), 1, (0, 1), (1, 2), (0, 1)),
    8: ((6, 6), 1, (0, 1), (2, 2), (0, 1)),
    9: ((6, 7), 1, (0, 1), (2, 3), (0, 1)),
    10: ((7, 8), 1, (1, 1), (2, 3), (0, 1)),
    11: ((8, 8), 1, (1, 2), (3, 3), (0, 1)),
    12: ((8, 9), 1, (1, 2), (3, 4), (0, 2)),
    13: ((9, 10), 1, (1, 3), (3, 4), (1, 2)),
    14: ((10, 11), 1, (2, 3), (3, 4), (1, 2)),
    15: ((11, 11), 1, (2, 3), (4, 4), (1, 2)),
    16: ((11, 12), 1, (2, 4), (4, 5), (1, 2)),
    17: ((12, 13), 1, (2, 4), (4, 5), (1, 2)),
    18: ((13, 13), 1, (2, 4), (5, 5), (1, 2)),
    19: ((13, 14), 1, (3, 5), (5, 6), (1, 3)),
    20: ((14, 15), 1, (3, 5), (5, 6), (1, 3)),
}
#: BV-3.1 presets: slug → (players, cards); a tuple inside is "A or B" (the master's pick, else drawn, BV-3.2);
#: ``"lord"`` is any lord. Special conditions (BV-3.3–BV-3.5) are switched on by :data:`PRESET_OPTIONS`.
PRESETS: dict[str, tuple[int, tuple[Any, ...]]] = {
    "classic_8": (8, ("count", "lamia", "vampire", "vampire", "vampire", "vampire", "hunter", "hunter")),
    "classic_10": (10, (("count", "king"), "lamia", *["vampire"] * 5, "scout", "hunter", "werewolf")),
    "classic_12": (12, (("king", "count"), "lamia", "queen", *["vampire"] * 5, "scout", "hunter", "hunter",
                        "werewolf")),
    "classic_13": (13, (("king", "count"), "lamia", "queen", *["vampire"] * 6, "scout", "leader", "hunter",
                        "werewolf")),
    "classic_15": (15, ("king", "lamia", "queen", ("dhampir", "bride", "ghoul"), *["vampire"] * 6, "scout",
                        "leader", "hunter", "hunter", "werewolf")),
    "love_triangle": (9, ("king", "bride", *["vampire"] * 5, "scout", "hunter")),
    "blood_feuds": (11, ("king", "nosferatu", "dhampir", *["vampire"] * 4, "monk", "hunter", "hunter",
                         ("werewolf", "kitsune"))),
    "wrong_hunter": (11, ("lord", "queen", "neophyte", *["vampire"] * 5, "leader", "hunter", "hunter")),
    "duel_of_watchers": (12, ("lord", "dhampir", "revenant", *["vampire"] * 5, "scout", "hunter", "hunter",
                              "werewolf")),
    "werewolf_invasion": (11, ("prince", "lamia", "queen", *["vampire"] * 4, ("scout", "monk", "beauty"), "hunter",
                               "werewolf", "kitsune")),
    "wolf_pits": (10, ("king", "queen", *["vampire"] * 5, "scout", "hunter", "werewolf")),
    "undercover_hunter": (10, ("lord", "queen", *["vampire"] * 5, ("scout", "beauty"), "hunter", "hunter")),
    "first_game": (0, ()),
    "guards_at_the_gate": (3, ("hunter", "vampire", "vampire")),
}
PRESET_OPTIONS: dict[str, dict[str, Any]] = {
    "werewolf_invasion": {"werewolf_invasion": True}, "wolf_pits": {"wolf_pits": True},
    "undercover_hunter": {"undercover": "scout"}, "guards_at_the_gate": {"guards_at_the_gate": True},
}
#: BV-15 variants: boolean master options, all off by default.
VARIANTS = ("visiting_hunters", "lone_hunters", "vampire_masquerade", "vampire_rage", "flowers", "blood_vengeance",
            "hunter_of_hunters", "arbiter_of_fates", "festival_panic", "vampire_secrets", "grimaces_of_fate",
            "enchanted", "guards_at_the_gate", "temporary_master")
#: The night variants a die face of BV-15.11 may name.
NIGHT_VARIANTS = ("flowers", "blood_vengeance", "arbiter_of_fates", "festival_panic", "vampire_secrets", "standard")
DEFAULT_GRIMACES = {1: "flowers", 2: "blood_vengeance", 3: "arbiter_of_fates", 4: "festival_panic",
                    5: "vampire_secrets", 6: "standard"}
#: BV-12: series points of a winner, by side (wargs score as the werewolf, BV-12.1).
POINTS = {"vampires": 1, "hunters": 2, "werewolf": 3}
#: BV-16 refusal codes in BV-16a's check order.
CODES = ("dead", "wrong_phase", "no_ability", "not_arbiter", "no_vote", "bad_mode", "must_act", "no_target",
         "unknown_target", "targets_count", "dead_target", "self_target", "self_vote", "self_used", "groom_chosen",
         "not_candidate")
#: BV-14.1 phase kinds and their default durations in seconds.
PHASE_KINDS = ("night", "defence", "verdict", "arbiter", "light")
DURATIONS = {"night": 48 * 3600, "defence": 12 * 3600, "verdict": 12 * 3600, "arbiter": 12 * 3600,
             "light": 24 * 3600}
SECRETS_NIGHT = 12 * 3600  # BV-15.10

Stage = Literal["night", "defence", "verdict", "arbiter", "light", "over"]


class RoleRow(TypedDict, total=False):
    """One row of the role table (BV-13.1); see ``data/roles.yaml`` for the meaning of each key."""

    side: str
    type: str
    lord: bool
    special: bool
    killer: bool
    gathering: bool
    slot: str
    order: int
    effect: str
    targets: int
    self: str
    uses: str
    must_act: bool
    repeat: bool
    lives: int
    modes: list[str]
    name: dict[str, str]


class State(TypedDict, total=False):
    """The game state (a JSON object).

    Fixed at set-up: ``table`` (slug → :class:`RoleRow`, the snapshot of the role table, BV-13.1), ``options`` (the
    normalised options), ``cards`` (seat id → card), ``ring`` (seat ids in ring order), ``hunters`` (the hunters'
    group, BV-4.1). Running: ``stage``, ``night``/``light`` (numbers), ``dead`` (seat ids in order of death),
    ``variant`` (tonight's vote, BV-15.11), ``die`` (tonight's roll), ``tied`` (the candidates of a defence or
    verdict round), ``tally`` (each round's totals), ``no_vote`` (seat ids without a vote tonight, BV-13.23,
    BV-13.24), ``weights`` (seat id → extra weight tonight: the tricky warg), ``vengeance`` (tonight's candidates,
    BV-15.6; ``None``: no restriction), ``for_executed`` (the living who voted for an executed vampire tonight),
    ``arbiter``/``last_arbiter`` (BV-15.8), ``hoh``/``heir``/``elect`` (BV-15.7), ``silenced`` (BV-15.12),
    ``co_masters`` (BV-15.14), ``grooms`` (bride → groom, BV-13.12), ``self_used`` (seat ids, BV-13.1 ``once``),
    ``lives`` (seat id → spare lives left, BV-13.18), ``doom`` (vengeful warg → named, BV-13.24), ``paralysed``
    (blocked next light time), ``last_targets`` (seat id → last light's targets, ``repeat``), ``executed`` (tonight's
    executed), ``executions`` (count), ``winner``, ``points`` (seat id → BV-12 points)."""

    table: dict[str, RoleRow]
    options: dict[str, Any]
    cards: dict[str, str]
    ring: list[str]
    hunters: list[str]
    stage: Stage
    night: int
    light: int
    dead: list[str]
    variant: str
    die: int | None
    tied: list[str]
    tally: dict[str, Any]
    no_vote: list[str]
    weights: dict[str, float]
    vengeance: list[str] | None
    for_executed: list[str]
    arbiter: str | None
    last_arbiter: str | None
    last_arbiter_night: int
    hoh: str | None
    heir: str | None
    elect: bool
    silenced: list[str]
    co_masters: list[str]
    grooms: dict[str, str]
    self_used: list[str]
    lives: dict[str, int]
    doom: dict[str, str]
    paralysed: list[str]
    last_targets: dict[str, list[str]]
    executed: list[str]
    executions: int
    winner: str | None
    points: dict[str, int]


class SeatData(TypedDict, total=False):
    """A seat's data (secret to its player and the master until the end): ``card``, ``side``, ``learned`` (its own
    results ``{"kind", "data"}``); ``revealed`` (the card opened at death, public); at the end ``won``, ``points``."""

    card: str
    side: str
    learned: list[dict[str, Any]]
    revealed: str
    won: bool
    points: int


class BvError(Exception):
    """Invalid input to the engine: ``errors`` is a list of ``(field, message, params)`` and ``code`` the BV-16
    refusal code (or ``"invalid"`` for options); the module turns them into the core's ``RuleError``s with the
    error's rule ID."""

    def __init__(self, errors: Sequence[tuple[str, str, Mapping[str, Any]]], rule: str = "", code: str = "invalid"):
        self.errors = list(errors)
        self.rule = rule
        self.code = code
        super().__init__("; ".join(m % dict(p) if p else m for _f, m, p in self.errors))


def violation(exc: BvError) -> RuleViolation:
    """The core's :class:`~gm.core.engine.RuleViolation` for a :class:`BvError`: one ``RuleError`` per error, with
    its rule ID and the refusal ``code`` among its params (scenario files and clients match on it)."""
    return RuleViolation([RuleError(message, field=f, rule=exc.rule, params={**dict(p), "code": exc.code})
                          for f, message, p in exc.errors])


def refuse(code: str, rule: str, field_name: str = "", **params) -> BvError:
    """A BV-16 refusal ``code`` (one of :data:`CODES`) under ``rule``; the message is the code's msgid."""
    return BvError([(field_name, REFUSALS[code], params)], rule=rule, code=code)


def fail(field_name: str, message: str, rule: str = "", **params) -> BvError:
    """One :class:`BvError` (an invalid option or table value) for ``field_name`` with a msgid ``message``."""
    return BvError([(field_name, message, params)], rule=rule)


#: BV-16: each refusal code's reason (msgids; the shell translates them into the player's language).
REFUSALS = {
    "dead": _("Dead players can't act, vote or post (code dead)."),
    "wrong_phase": _("This is not an order of the open phase (code wrong_phase)."),
    "no_ability": _("Your card has no such ability (code no_ability)."),
    "must_act": _("This ability must be used: you can't abstain (code must_act)."),
    "no_target": _("Name a target (code no_target)."),
    "unknown_target": _("That is not a player of this game (code unknown_target)."),
    "dead_target": _("That player is dead (code dead_target)."),
    "self_target": _("This ability can't choose you (code self_target)."),
    "self_used": _("You have already chosen yourself once (code self_used)."),
    "targets_count": _("Wrong number of targets: name %(n)s (code targets_count)."),
    "bad_mode": _("This ability has no such mode (code bad_mode)."),
    "groom_chosen": _("The bride already has a groom (code groom_chosen)."),
    "no_vote": _("You have no vote this night (code no_vote)."),
    "self_vote": _("You can't vote for yourself (code self_vote)."),
    "not_candidate": _("That player is not a candidate in this vote (code not_candidate)."),
    "not_arbiter": _("Only the arbiter of fates names the victim (code not_arbiter)."),
    "repeat": _("This ability can't choose the same player as in the previous light time (code not_candidate)."),
}


@dataclass
class Ev:
    """An engine event: ``kind`` (``bv.*``), ``data``, and ``to``: ``"public"``, ``"master"``, a seat id string,
    or ``"group:<slug>"`` (``group:faction:hunters``)."""

    kind: str
    data: dict = field(default_factory=dict)
    to: str = "public"


def side_of(state: Mapping[str, Any], sid: str) -> str:
    """The side of seat ``sid``'s card (BV-1)."""
    return state["table"][state["cards"][sid]]["side"]


def row(state: Mapping[str, Any], sid: str) -> Mapping[str, Any]:
    """The role-table row of seat ``sid``'s card."""
    return state["table"][state["cards"][sid]]


def living(state: Mapping[str, Any]) -> list[str]:
    """Seat ids of the living, in ring order."""
    dead = set(state.get("dead") or [])
    return [s for s in state["ring"] if s not in dead]


def is_alive(state: Mapping[str, Any], sid: str) -> bool:
    """Whether seat ``sid`` is alive."""
    return sid in state["cards"] and sid not in set(state.get("dead") or [])


def view(state: Mapping[str, Any], *, sees_everything: bool) -> dict:
    """What a viewer reads of the state (BV-1.2, BV-2.7, BV-14.5): all of it for the master (and everyone after the
    game); otherwise the stage, the numbers, tonight's variant and die, the dead, the tied candidates and the
    winner — never a card (dead players' cards are public seat data, BV-7)."""
    if sees_everything:
        return dict(state)
    keys = ("stage", "night", "light", "variant", "die", "dead", "tied", "no_vote", "winner", "hoh", "arbiter",
            "silenced", "co_masters")
    return {k: state.get(k) for k in keys if k in state}


def own_seat_data(data: Mapping[str, Any]) -> dict:
    """What a player reads of his own seat: all of it (his card and his results)."""
    return dict(data)


def public_seat_data(data: Mapping[str, Any]) -> dict:
    """What anyone reads of a seat: the card opened at its death (BV-7.1, BV-7.5; never under BV-15.4)."""
    return {"revealed": data["revealed"]} if data.get("revealed") else {}


@dataclass
class Step:
    """What one phase's rules produced: ``events`` in order, the seats that died (``dead``, in order), the ``next``
    phase (``None`` when the game ends), the ``winner`` side, and ``groups`` to add (slug → seat ids)."""

    events: list[Ev] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)
    next: Any = None
    winner: str | None = None
    groups: dict[str, list[str]] = field(default_factory=dict)


def may_post(data: Mapping[str, Any], alive: bool) -> bool:
    """BV-7.6, BV-15.12: the living post in the thread, the dead and the silenced don't."""
    return bool(alive) and not data.get("silenced")
