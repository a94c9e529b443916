"""The October Night state schema, the fixed tables of the rules, refusal codes (OC-18), the engine's error helper,
and what each viewer sees of the state (OC-11.3).

Pure: no Django, no I/O, no clock, no global ``random``. Seat ids are **string** keys everywhere in the state, as
JSON stores them; order payloads name seats by int ids. The game data (OC-17: board, sheets, cards, tokens) is not a
constant here: it is snapshotted into ``State["data"]`` at set-up and read from there.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict

from gm.core.engine import RuleError, RuleViolation


def _(s: str) -> str:
    """Marks a msgid for ``makemessages``; the shell translates it when it renders the error."""
    return s


MIN_PLAYERS, MAX_PLAYERS = 3, 5
SIDES = ("summoners", "keepers")
SIDE_CARDS = ("summoners", "keepers", "chosen")
SKILLS = ("strength", "magic", "communication")
#: The action phase's actions (OC-4.1); ``ally`` is a fight (OC-5.2).
ACTIONS = ("rest", "heal", "trade", "buy", "travel", "fight", "ally", "foil")
#: What counts for "never the same action two days running" (OC-4.2): ``ally`` is the same action as ``fight``.
ACTION_FAMILY = {"ally": "fight"}
CONTACT_KINDS = ("auto", "section", "enemy", "mystery", "abandon")
#: The contact rotation (OC-6.2).
ROTATION = ("search", "combat", "personal")
DECKS = ("search", "combat", "personal", "assets", "mysteries")
DATA_SECTIONS = ("settings", "locations", "characters", "abilities", "assets", "asset_deck", "ingredients", "enemies",
                 "search_contacts", "combat_contacts", "personal_contacts", "mysteries")
#: Data sections that are lists of entries keyed by ``slug`` (OC-17).
LIST_SECTIONS = ("locations", "characters", "abilities", "assets", "ingredients", "enemies", "search_contacts",
                 "combat_contacts", "personal_contacts", "mysteries")
DECK_SECTION = {"search": "search_contacts", "combat": "combat_contacts", "personal": "personal_contacts"}

#: OC-18: refusal and void codes → the rule ID cited with them.
CODES = {
    "out_of_game": "OC-2.6", "target_out": "OC-4.12", "repeated_action": "OC-4.2", "week_one": "OC-3.4",
    "enemy_present": "OC-4.13", "not_here": "OC-4.4", "self": "OC-14.3", "not_adjacent": "OC-4.7",
    "not_town": "OC-4.6", "not_in_reserve": "OC-4.6", "not_held": "OC-15.3", "too_many_cards": "OC-5.1",
    "out_of_range": "OC-12.1", "no_trade": "OC-4.5", "card_gone": "OC-4.5", "no_fight": "OC-5.2",
    "warded": "OC-5.9", "not_your_ability": "OC-14.3", "ability_used": "OC-14.2", "wrong_phase": "OC-14.3",
    "not_on_sheet": "OC-14.1", "low_experience": "OC-14.1", "no_use": "OC-15.3", "not_chosen": "OC-1.3",
    "too_late": "OC-1.3", "no_contact": "OC-6.8", "section_done": "OC-6.8", "not_at_location": "OC-6.8",
    "no_mystery": "OC-13.3", "not_admitted": "OC-9.3", "empty_lists": "OC-4.5", "missing_field": "OC-14.3",
    "bad_value": "OC-11.5", "wrong_stage": "OC-11.1", "unknown_sheet": "OC-2.1", "sheet_taken": "OC-2.1",
}
#: The refusal's message per code (msgids; ``%(…)s`` from the error's params).
CODE_MESSAGES = {
    "out_of_game": _("You are out of the game."),
    "target_out": _("That player is out of the game."),
    "repeated_action": _("You performed the same action yesterday."),
    "week_one": _("Nobody may fight in week 1."),
    "enemy_present": _("An enemy is on your location."),
    "not_here": _("That player is on another location."),
    "self": _("Name another player, not yourself."),
    "not_adjacent": _("That location is not adjacent."),
    "not_town": _("You can buy only in a town."),
    "not_in_reserve": _("That card is not in the reserve."),
    "not_held": _("That card is not held."),
    "too_many_cards": _("Name at most 3 cards to take."),
    "out_of_range": _("That player is farther than 3 steps."),
    "no_trade": _("The partner gave no matching acceptance."),
    "card_gone": _("A traded card is no longer held."),
    "no_fight": _("The player you would help did not fight."),
    "warded": _("The victim is protected."),
    "not_your_ability": _("You do not hold that ability."),
    "ability_used": _("That ability was used this week."),
    "wrong_phase": _("That ability is not usable in this phase."),
    "not_on_sheet": _("That ability is not on your sheet or is already held."),
    "low_experience": _("You need at least 5 experience to learn an ability."),
    "no_use": _("That item has no use."),
    "not_chosen": _("Only the chosen declares a side."),
    "too_late": _("The side can't be declared in week 5."),
    "no_contact": _("You have no such open contact."),
    "section_done": _("That section is already done."),
    "not_at_location": _("That is on another location."),
    "no_mystery": _("No mystery is open."),
    "not_admitted": _("Only an admitted player at the ritual place may break the ritual."),
    "empty_lists": _("Name at least one card."),
    "missing_field": _("This line needs another field."),
    "bad_value": _("Unknown value."),
    "wrong_stage": _("This phase takes no such line."),
    "unknown_sheet": _("This game has no such character sheet."),
    "sheet_taken": _("%(player)s has already claimed this character sheet; choose a free one."),
}

Stage = Literal["action", "contact", "ritual", "over"]


class Contact(TypedDict, total=False):
    """An open contact card (OC-6.3): ``card`` slug, ``type`` (``search``/``combat``/``personal``) and ``done``
    (the 1-based sections done, search and personal cards only)."""

    card: str
    type: str
    done: list[int]


class Player(TypedDict, total=False):
    """One player's public position (OC-11.3): character sheet slug, ``location`` (``None`` when out), ``health``,
    ``experience``, ``skills``, ``assets`` and ``ingredients`` (holding order, OC-2.5), ``clues``, ``abilities``
    held, ``used`` this week, ``learned`` (this phase, OC-14.1a), ``last_action`` (the action performed in the last
    resolved action phase, ``none`` if nothing) and ``last_day`` (that day), the open ``contact``,
    ``personal_drawn`` (OC-6.6) and ``out`` (OC-2.6)."""

    character: str
    location: str | None
    health: int
    experience: int
    skills: dict[str, int]
    assets: list[str]
    ingredients: list[str]
    clues: int
    abilities: list[str]
    used: list[str]
    last_action: str
    last_day: int
    contact: Contact | None
    personal_drawn: bool
    out: bool


class Enemy(TypedDict, total=False):
    """An enemy token on the board (OC-16.3): ``token`` slug, ``location``, ``owner`` (seat id or ``None``: a stray,
    OC-16.5), ``health`` left and ``revealed``."""

    token: str
    location: str
    owner: str | None
    health: int
    revealed: bool


class State(TypedDict, total=False):
    """The game state (a JSON object).

    ``data`` — the data set snapshotted at set-up (OC-17) and ``data_digest`` its SHA-256; ``seats`` — seat ids in
    ring order (OC-3.5); ``names`` — seat id → display name; ``players`` — seat id → :class:`Player`; ``sides`` —
    seat id → side card (secret, OC-1.2); ``declared`` — chosen seat id → declared side (secret before week 5);
    ``joined`` — chosen seat id → the side he joined at week 5 (public, OC-8.1); ``day`` (1…35) and ``stage``;
    ``decks`` — top first; ``discards``; ``reserve`` — the face-up asset slots (``None`` = empty); ``enemies`` on
    the board; ``bag`` — front first; ``mysteries`` — ``{"solved": [...], "open": slug|None}``; ``ritual_place``;
    ``foils`` — target → foilers for the day (OC-12); ``effects`` — seat → the ability effects marked for the phase
    (OC-14); ``insight`` — seat → [{seat, side}] (secret); ``ritual`` — admissions, distances, sums (OC-8, OC-9);
    ``winner`` and ``winners``; ``game_seed`` and ``draws`` — the game's RNG stream for shuffles and draws after
    set-up (OC-11.2a, secret)."""

    data: dict[str, Any]
    seats: list[str]
    names: dict[str, str]
    players: dict[str, Player]
    sides: dict[str, str]
    declared: dict[str, str]
    joined: dict[str, str]
    day: int
    stage: Stage
    decks: dict[str, list[str]]
    discards: dict[str, list[str]]
    reserve: list[str | None]
    enemies: list[Enemy]
    bag: list[str]
    mysteries: dict[str, Any]
    ritual_place: str | None
    foils: dict[str, list[str]]
    effects: dict[str, dict[str, Any]]
    insight: dict[str, list[dict[str, str]]]
    ritual: dict[str, Any]
    winner: str | None
    winners: list[str]
    game_seed: int
    draws: int
    data_digest: str


class SeatData(TypedDict, total=False):
    """A seat's module data: ``side`` (its side card, secret), ``character`` (public)."""

    side: str
    character: str


def refusal(code: str, field: str = "", **params: Any) -> RuleError:
    """A :class:`RuleError` for OC-18 code ``code`` (its message, rule ID from :data:`CODES`), on payload ``field``.
    The code is carried in ``params["code"]`` so the shell and scenario files can match it, and as the error's
    ``code`` so the core's order API returns it (OC-11.7: code, rule ID and field, all at once)."""
    return RuleError(CODE_MESSAGES.get(code, code), field=field, rule=CODES.get(code, ""),
                     params={"code": code, **params}, code=code)


def violation(errors: Sequence[RuleError]) -> RuleViolation:
    """The :class:`RuleViolation` of ``errors`` (all at once, OC-11.7)."""
    return RuleViolation(list(errors))


def by_slug(data: Mapping[str, Any], section: str) -> dict[str, dict]:
    """The entries of a data ``section`` (OC-17) by slug."""
    return {e["slug"]: e for e in data.get(section) or []}


def settings(state: Mapping[str, Any]) -> dict[str, Any]:
    """The data set's ``settings`` (OC-17.1)."""
    return state["data"]["settings"]


def week_of(day: int, days_per_week: int = 7) -> int:
    """The week (1…5) of ``day`` (1…35), OC-3.1."""
    return (day - 1) // days_per_week + 1


def in_game(state: Mapping[str, Any], sid: str) -> bool:
    """Whether seat ``sid`` is still in the game (OC-2.6)."""
    p = state["players"].get(sid)
    return bool(p) and not p.get("out")


def turn_order(state: Mapping[str, Any], day: int | None = None) -> list[str]:
    """OC-3.5: the day's turn order — from the first player (seat ((N − 1) mod n) + 1, or the next in the ring who is
    in the game) round the ring, skipping players out of the game."""
    seats = list(state["seats"])
    n = len(seats)
    day = state["day"] if day is None else day
    start = (day - 1) % n
    ring = seats[start:] + seats[:start]
    return [s for s in ring if in_game(state, s)]


def joined_side(state: Mapping[str, Any], sid: str) -> str:
    """The side a player plays for: his card, or the side the chosen joined (``chosen`` before he joined)."""
    card = state["sides"][sid]
    if card == "chosen":
        return state.get("joined", {}).get(sid, "chosen")
    return card


def revealed(state: Mapping[str, Any]) -> dict[str, str]:
    """Seat id → side of every player whose side is public now (OC-1.2, OC-8.1, OC-9.0, OC-10.7)."""
    if state.get("stage") in ("ritual", "over"):
        return {sid: joined_side(state, sid) for sid in state["seats"]}
    return {sid: side for sid, side in (state.get("joined") or {}).items()}


def view(state: Mapping[str, Any], *, sees_everything: bool, seat: str | None = None) -> dict:
    """OC-11.3: what a viewer sees of the state. The master and everyone after the game see it all; others see the
    public position: no side cards (but the revealed ones), no declarations, no deck or bag order (only sizes), no
    identity of face-down tokens; a seat also sees his own side card and what his ``insight`` told him."""
    if sees_everything:
        return dict(state)
    out = {k: v for k, v in state.items() if k not in ("sides", "declared", "decks", "bag", "insight", "effects",
                                                          "foils", "game_seed", "draws")}
    out["revealed"] = revealed(state)
    out["deck_sizes"] = {k: len(v) for k, v in (state.get("decks") or {}).items()}
    out["bag_size"] = len(state.get("bag") or [])
    out["enemies"] = [e if e.get("revealed") else {k: v for k, v in e.items() if k not in ("token", "health")}
                      for e in state.get("enemies") or []]
    if seat is not None and seat in (state.get("sides") or {}):
        out["my_side"] = state["sides"][seat]
        out["my_declared"] = (state.get("declared") or {}).get(seat)
        out["my_insight"] = (state.get("insight") or {}).get(seat, [])
    return out


def own_seat_data(data: Mapping[str, Any]) -> dict:
    """A seat's own data as its player sees it: all of it (his side card and character)."""
    return dict(data)
