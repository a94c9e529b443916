"""Order validation (ON-4, ON-6, ON-14): each phase's payload checked against the seat's card, normalised, or
refused with the reason and the rule ID (:class:`~.state.OnuwError`).

Order payloads (the scenario format's keys, with seat ids for players and ``center1``..``center3``):
doppelganger step ``{"copy": seat}`` (ON-14); night: seer ``{"look": [seat]}`` or ``{"look": [centerA, centerB]}``,
robber ``{"swap_with": seat}``, troublemaker ``{"swap": [seat, seat]}``, drunk ``{"take": centerN}``, lone werewolf
``{"look": [centerN]}``, and a doppelganger who copied one of these the same shape (ON-4.1); day ``{"vote": seat}``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import RuleError, RuleViolation

from .roles import acting_role, night_choice
from .state import CENTER, OnuwError, _, fail, violation


def _seat_ref(value: Any, field: str, ids: Sequence[str], sid: str, rule: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)) or str(value) not in ids:
        raise fail(field, _("Choose one of the players."), rule)
    if str(value) == sid:
        raise fail(field, _("Choose another player, not yourself."), rule)
    return str(value)


def _center_ref(value: Any, field: str, rule: str) -> str:
    if value not in CENTER:
        raise fail(field, _("Choose a center card: center1, center2 or center3."), rule)
    return value


def _only(payload: Mapping[str, Any], keys: Sequence[str], rule: str) -> None:
    extra = sorted(set(payload) - set(keys))
    if extra:
        raise fail(extra[0], _("Unknown field “%(key)s”."), rule, key=extra[0])
    missing = [k for k in keys if k not in payload]
    if missing:
        raise fail(missing[0], _("This field is required."), rule)


def validate_night(state: Mapping[str, Any], sid: str, payload: Mapping[str, Any], order: Sequence[str]) -> dict:
    """Check seat ``sid``'s night order (ON-4) against its dealt card; ``order`` are all seat ids (strings) in ring
    order. Returns the normalised payload (seat ids as ints); raises :class:`OnuwError` with the reason."""
    choice = night_choice(state, sid, order)
    role = acting_role(state, sid)
    if choice is None:
        if role == "werewolf":
            raise fail("", _("You are not the only werewolf among the players: werewolves only see each other."),
                        "ON-4.2")
        looking = {"minion": "ON-4.3", "mason": "ON-4.4", "insomniac": "ON-4.9"}
        if role in looking:
            raise fail("", _("Your role only looks; there is nothing to choose."), looking[role])
        if role == "doppelganger":
            raise fail("", _("You copied nobody, so you have nothing to do tonight."), "ON-4.1")
        raise fail("", _("Your card does not wake at night."), "ON-4.10")
    if choice == "lone_wolf":
        _only(payload, ["look"], "ON-4.2")
        look = payload["look"]
        if not isinstance(look, list) or len(look) != 1:
            raise fail("look", _("A lone werewolf looks at exactly one center card."), "ON-4.2")
        return {"look": [_center_ref(look[0], "look", "ON-4.2")]}
    if choice == "seer":
        _only(payload, ["look"], "ON-4.5")
        look = payload["look"]
        if not isinstance(look, list) or len(look) not in (1, 2):
            raise fail("look", _("The seer looks at one other player's card or at two center cards."), "ON-4.5")
        if len(look) == 1:
            if look[0] in CENTER:
                raise fail("look", _("The seer looks at two center cards, not one."), "ON-4.5")
            return {"look": [int(_seat_ref(look[0], "look", order, sid, "ON-4.5"))]}
        centers = [_center_ref(v, "look", "ON-4.5") for v in look]
        if centers[0] == centers[1]:
            raise fail("look", _("Choose two different center cards."), "ON-4.5")
        return {"look": centers}
    if choice == "robber":
        _only(payload, ["swap_with"], "ON-4.6")
        return {"swap_with": int(_seat_ref(payload["swap_with"], "swap_with", order, sid, "ON-4.6"))}
    if choice == "troublemaker":
        _only(payload, ["swap"], "ON-4.7")
        pair = payload["swap"]
        if not isinstance(pair, list) or len(pair) != 2:
            raise fail("swap", _("The troublemaker swaps exactly two other players' cards."), "ON-4.7")
        a, b = (_seat_ref(v, "swap", order, sid, "ON-4.7") for v in pair)
        if a == b:
            raise fail("swap", _("Choose two different players."), "ON-4.7")
        return {"swap": [int(a), int(b)]}
    # drunk
    _only(payload, ["take"], "ON-4.8")
    return {"take": _center_ref(payload["take"], "take", "ON-4.8")}


def validate_copy(state: Mapping[str, Any], sid: str, payload: Mapping[str, Any], order: Sequence[str]) -> dict:
    """Check the doppelganger step's order ``{"copy": seat}`` (ON-4.1, ON-14)."""
    if state["dealt"].get(sid) != "doppelganger":
        raise fail("", _("Only the doppelganger acts in this step."), "ON-14")
    _only(payload, ["copy"], "ON-4.1")
    return {"copy": int(_seat_ref(payload["copy"], "copy", order, sid, "ON-4.1"))}


def validate_vote(sid: str, payload: Mapping[str, Any], order: Sequence[str]) -> dict:
    """Check a day vote ``{"vote": seat}``: every player votes for another player (ON-6)."""
    _only(payload, ["vote"], "ON-6")
    return {"vote": int(_seat_ref(payload["vote"], "vote", order, sid, "ON-6"))}


def validate_order(state: Mapping[str, Any], *, kind: str, sid: str, payload: Mapping[str, Any],
                   order: Sequence[str]) -> dict:
    """Check seat ``sid``'s order for a phase of ``kind`` (``doppelganger``, ``night``, ``day``); ``order`` are all
    seat ids (strings) in ring order. Returns the normalised payload; raises
    :class:`~gm.core.engine.RuleViolation` with the reason and rule ID (ON-4, ON-6, ON-14)."""
    try:
        if kind == "doppelganger":
            return validate_copy(state, sid, payload, order)
        if kind == "night":
            return validate_night(state, sid, payload, order)
        if kind == "day":
            return validate_vote(sid, payload, order)
    except OnuwError as exc:
        raise violation(exc) from None
    raise RuleViolation([RuleError(_("This phase takes no orders."))])


def has_action(state: Mapping[str, Any], *, kind: str, sid: str, order: Sequence[str]) -> bool:
    """Whether seat ``sid`` has anything to order in a phase of ``kind`` (the core's automatic extensions never wait
    for a seat without one): the dealt doppelganger in his step (ON-14), a card that chooses at night (ON-4: seer,
    robber, troublemaker, drunk, a lone werewolf, a doppelganger who copied one), everyone at the day vote (ON-6)."""
    if kind == "doppelganger":
        return state["dealt"].get(sid) == "doppelganger"
    if kind == "night":
        return night_choice(state, sid, order) is not None
    return kind == "day"
