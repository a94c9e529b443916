"""The ONUW state schema, the game's fixed tables (ON-2), the engine's error and event types, and what each viewer
sees of the state (ON-3, ON-5).

Pure: no Django, no I/O, no clock, no global ``random``. Seat ids are **string** keys everywhere in the state, as
JSON stores them; order payloads name seats by int ids.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from gm.core.engine import RuleError, RuleViolation


def _(s: str) -> str:
    """Marks a msgid for ``makemessages``; the shell translates it when it renders the error."""
    return s


#: The twelve roles (ON-2) in the order the rules list them.
ROLES = ("villager", "werewolf", "seer", "robber", "troublemaker", "tanner", "drunk", "hunter", "mason",
         "insomniac", "minion", "doppelganger")
#: How many of each card the physical box holds (ON-2); more are allowed with a warning (house rule).
BOX = {"villager": 3, "werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "tanner": 1, "drunk": 1,
       "hunter": 1, "mason": 2, "insomniac": 1, "minion": 1, "doppelganger": 1}
#: Wake order of the roles that wake (ON-4.1–4.9); villager, tanner and hunter never wake (ON-4.10).
WAKE_ORDER = ("doppelganger", "werewolf", "minion", "mason", "seer", "robber", "troublemaker", "drunk", "insomniac")
#: Roles whose holder chooses something at night (the form offers a choice).
CHOOSING = ("seer", "robber", "troublemaker", "drunk")
WEREWOLF_TEAM = ("werewolf", "minion")
TANNER = "tanner"
CENTER = ("center1", "center2", "center3")
MIN_PLAYERS, MAX_PLAYERS = 3, 10
SERIES_TOKENS = 5
#: ON-2 recommended sets for 3, 4, 5 players; for 6–10 players **[house]** one card more per player in this order,
#: all within the box: hunter, tanner, minion, drunk, insomniac.
RECOMMENDED_3 = ("werewolf", "werewolf", "seer", "robber", "troublemaker", "villager")
RECOMMENDED_EXTRA = ("villager", "villager", "hunter", "tanner", "minion", "drunk", "insomniac")

Stage = Literal["doppelganger", "night", "day", "over"]


class State(TypedDict, total=False):
    """The game state (a JSON object). Present from the deal: ``roles`` (the multiset of cards in play, sorted;
    public, ON-3), ``lone_wolf`` (a lone werewolf may look at a center card, ON-4.2), ``dealt`` (seat id → the card
    dealt to it; each player acts by it, ON-4), ``cards`` (seat id → the card in front of it now), ``center`` (the
    three center cards, ``center1``..``center3``), ``copy`` (the role the doppelganger copied, ``None`` until his
    step or if he copied nobody), ``copied_from`` (the seat id he copied), ``stage``, ``votes`` (voter seat id →
    voted seat id) and ``dead`` (seat ids, in order of death). After the day also ``winners`` (seat ids) and
    ``winning_teams`` (ON-9–ON-12)."""

    roles: list[str]
    lone_wolf: bool
    dealt: dict[str, str]
    cards: dict[str, str]
    center: list[str]
    copy: str | None
    copied_from: str | None
    stage: Stage
    votes: dict[str, str]
    dead: list[str]
    winners: list[str]
    winning_teams: list[str]


class SeatData(TypedDict, total=False):
    """A seat's data (secret to its player and the master until the end): ``card`` (dealt), ``copy`` (the
    doppelganger's copied role, ON-4.1), ``learned`` (its own log events ``{"kind", "data"}``, ON-13); after the
    day ``final``, ``final_as`` (the role the final card counts as, ON-5), ``team`` and ``won``."""

    card: str
    copy: str
    learned: list[dict[str, Any]]
    final: str
    final_as: str
    team: str
    won: bool


class OnuwError(Exception):
    """Invalid input to the engine: ``errors`` is a list of ``(field, message, params)``; the module turns them into
    the core's ``RuleError`` with rule ``rule``."""

    def __init__(self, errors: Sequence[tuple[str, str, Mapping[str, Any]]], rule: str = ""):
        self.errors = list(errors)
        self.rule = rule
        super().__init__("; ".join(m % dict(p) if p else m for _f, m, p in self.errors))


def violation(exc: OnuwError) -> RuleViolation:
    """The core's :class:`~gm.core.engine.RuleViolation` for an :class:`OnuwError`, one ``RuleError`` per error,
    each with the error's rule ID."""
    return RuleViolation([RuleError(message, field=f, rule=exc.rule, params=dict(p)) for f, message, p in exc.errors])


def fail(field: str, message: str, rule: str = "", **params) -> OnuwError:
    """One :class:`OnuwError` for ``field`` with a msgid ``message`` (marked with ``_``) and its ``params``."""
    return OnuwError([(field, message, params)], rule=rule)


@dataclass
class Ev:
    """An engine event: ``kind`` (``onuw.*``), ``data``, and ``to``: ``"public"``, ``"master"`` or a seat id."""

    kind: str
    data: dict = field(default_factory=dict)
    to: Any = "public"


def view(state: Mapping[str, Any], *, sees_everything: bool) -> dict:
    """The state a viewer may read (ON-3, ON-5): all of it for the master (and everyone once the core says so);
    otherwise the roles in play and the stage, and after the day the votes and the dead."""
    if sees_everything:
        return dict(state)
    public = {"roles": state.get("roles", []), "stage": state.get("stage")}
    if state.get("stage") == "over":
        public.update({"votes": state.get("votes", {}), "dead": state.get("dead", [])})
    return public


def own_seat_data(data: Mapping[str, Any]) -> dict:
    """What a player reads of his own seat: the dealt card (and the doppelganger's copy) and what he learned only
    — a player never learns his final card by looking (ON-5)."""
    return {k: v for k, v in data.items() if k in ("card", "copy", "learned")}
