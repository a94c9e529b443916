"""Forum Mafia game state, pure: the schema of ``state["fm"]`` and the helpers every rules file reads it with.

The state is JSON (seat ids as strings). The core keeps the game state; the module's part of it is ``state["fm"]``
(:class:`FmState`), read through :func:`fm_state` (a copy with every key present) by the order checks
(:mod:`.orders`), the layers (:mod:`.resolution`), victory (:mod:`.victory`) and the abilities (:mod:`.abilities`).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypedDict

from cards.domain import CardInstance, Collection
from gm.core.engine import PhaseInfo, SeatInfo


def _(s: str) -> str:
    return s


MIN_PLAYERS = 5
MAFIA_GROUP = "faction:mafia"
DECKBUILDING, NIGHT, DAY = "deckbuilding", "night", "day"
OPENING_HAND = 6
#: FM-10.H1 [house]: quiet phases in a row before a stalemate is a draw (the game option ``stalemate_phases``).
STALEMATE_PHASES = 6
#: Provenances of cards "a role puts into the Sleeve" (FM-8): they pay no price and ground no accusation.
ROLE_PROVENANCES = ("role", "ability")
TARGETED = ("one", "two", "one_card", "one_text", "dead")
_PLAY_KEYS = frozenset({"card", "from", "uid", "target", "targets", "named_card", "text", "cards", "pay", "pay_hand"})
#: Cards whose one target a ``redirect`` may move (FM-6 L3): every card aimed at one living character.
REDIRECTABLE = ("one", "one_card", "one_text")
MAX_TEXT = 2000
JAIL_PHASES = 4  # FM-7.5
HIGHLANDER_CAP = 6  # FM-8
WARRIOR_DIVERTS = 2  # FM-8
IDLER_ARMOUR = 3  # FM-8
CULTIST_HAND_PAY = 2  # FM-8

_LINK = re.compile(
    r"(https?://|ftp://|www\.|\bt\.me/|[\w.+-]+@[\w-]+\.[\w.-]+|\b[\w-]+\.(com|ru|net|org|ua|io|me|info|su|рф|by|kz)"
    r"\b|\b(стр(аница|анице|аницу|аницы|аницах|\.)?|page|p\.)\s*\d+|\[url|\[link)",
    re.IGNORECASE,
)


def find_link(text: str) -> str | None:
    """The first link-like fragment in ``text`` (URL, e-mail address, ``www.``, domain, "page N" cross-reference),
    or ``None`` (FM-9.4: messages may not contain direct or indirect links)."""
    match = _LINK.search(text)
    return match.group(0) if match else None


_COLLECTIONS: dict[str, Collection] = {}


def game_collection(state: Mapping[str, Any]) -> Collection:
    """The game's collection snapshot (FM-4.2) as a :class:`Collection`, cached by its version digest."""
    version = state.get("collection_version") or ""
    cached = _COLLECTIONS.get(version) if version else None
    if cached is None:
        cached = Collection.from_snapshot(state.get("collection") or [])
        if version:
            _COLLECTIONS[version] = cached
    return cached


def fm_state(state: Mapping[str, Any]) -> dict:
    """A deep-enough copy of ``state["fm"]`` with every key present."""
    fm = dict(state.get("fm") or {})
    fm["poison"] = [dict(p) for p in fm.get("poison", [])]
    fm["stimulant"] = [dict(s) for s in fm.get("stimulant", [])]
    fm["death_order"] = [list(d) for d in fm.get("death_order", [])]
    for key in ("handcuffs", "jail", "last_night", "last_played_on", "warrior_diverted"):
        fm[key] = dict(fm.get(key) or {})
    if "rooms" in fm:
        fm["rooms"] = {k: dict(v) for k, v in dict(fm["rooms"] or {}).items()}
    for key in ("used", "hero_goals", "hero_marks", "left", "rebuilds"):  # abilities' memory: never the input's
        if key in fm:
            fm[key] = {k: list(v) if isinstance(v, list) else v for k, v in dict(fm[key] or {}).items()}
    return fm


def is_jailed(state: Mapping[str, Any], seat_id: int) -> bool:
    """Whether ``seat_id`` is still in jail (FM-7.5: no targeted cards for 4 phases)."""
    return int((state.get("fm") or {}).get("jail", {}).get(str(seat_id), 0)) > 0


def public_role(seat: SeatInfo) -> str:
    value = seat.data.get("public_role")
    return value if isinstance(value, str) else ""


def untargetable(seat: SeatInfo, phase: PhaseInfo) -> bool:
    """FM-7.6/FM-8 ``sociopath``: no cards or votes on him during Night 1 and Day 1."""
    return public_role(seat) == "sociopath" and phase.number == 1


def used(fm: Mapping[str, Any], seat_id: int) -> list[str]:
    """The once-per-game abilities ``seat_id`` has spent (``fm["used"]``, FM-8)."""
    return list((fm.get("used") or {}).get(str(seat_id), []))


def has_left(fm: Mapping[str, Any], seat_id: int) -> bool:
    """Whether ``seat_id`` left the game by the joker's guess or the hero's double goal (``fm["left"]``)."""
    return str(seat_id) in (fm.get("left") or {})


def can_pay(inst: CardInstance, collection: Collection) -> bool:
    """FM-5.7/FM-8: cards a role put into play (start cards, and those its ability gives: geek, looter) can't pay a
    price, except those whose effect says so (``dummy``)."""
    if inst.provenance not in ROLE_PROVENANCES:
        return True
    kind = collection.kinds.get(inst.kind)
    return bool(kind and kind.effect.get("pays_price"))



class Poison(TypedDict, total=False):
    """A pending delayed damage (``poison``): who is hit, by whom, how much and when."""

    target: int
    source: int
    amount: int
    night: int


class FmState(TypedDict, total=False):
    """``state["fm"]`` (seat ids as strings because the state is JSON).

    Orders and layers: ``poison`` (pending delayed damage), ``stimulant`` (pending discards), ``handcuffs`` (seat →
    night number it applies to), ``jail`` (seat → phases left, FM-7.5), ``last_night`` (seat → kinds of deck cards
    played last night, for ``accusation``), ``last_played_on`` (seat → the last card played on him, for
    ``autopsy``), ``warrior_diverted`` (seat → diverts used), ``death_order`` ([phase kind, number, seat ids]),
    ``rooms`` (FM-9.3 rooms of the day, by key). Abilities (FM-8): ``used`` (seat → once-per-game abilities spent),
    ``hero_goals``, ``hero_marks``, ``left`` (seat → ``"won"``/``"lost"``), ``rebuilds`` (seat → count).
    Stalemate (FM-10.H1): ``quiet_phases``.
    """

    poison: list[dict[str, Any]]
    stimulant: list[dict[str, Any]]
    death_order: list[list[Any]]
    handcuffs: dict[str, int]
    jail: dict[str, int]
    last_night: dict[str, list[str]]
    last_played_on: dict[str, str]
    warrior_diverted: dict[str, int]
    rooms: dict[str, dict[str, Any]]
    used: dict[str, list[str]]
    hero_goals: dict[str, list[str]]
    hero_marks: dict[str, bool]
    left: dict[str, str]
    rebuilds: dict[str, int]
    quiet_phases: int


class GameState(TypedDict, total=False):
    """The game state the module keeps (FM-3, FM-4.2): the collection snapshot and its version, the game options
    the rules read (``hero``, ``stalemate_phases``…) and ``fm`` (:class:`FmState`)."""

    collection: list[dict[str, Any]]
    collection_version: str
    stalemate_phases: int
    fm: FmState
