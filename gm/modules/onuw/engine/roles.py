"""The roles as they act at night and count at the end (ON-4, ON-5): the card a role counts as, its team, who wakes
as what, and what a seat may choose. Pure."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .state import CHOOSING, TANNER, WEREWOLF_TEAM


def effective(card: str, state: Mapping[str, Any]) -> str:
    """The role a card counts as (ON-5): the doppelganger card is the role it copied (if any)."""
    if card == "doppelganger" and state.get("copy"):
        return state["copy"]
    return card


def team(role: str) -> str:
    """``werewolf`` (werewolf, minion), ``tanner``, or ``village`` (every other role; an uncopied doppelganger)."""
    if role in WEREWOLF_TEAM:
        return "werewolf"
    return TANNER if role == TANNER else "village"


def doppelganger_seat(state: Mapping[str, Any]) -> str | None:
    """The seat (string id) dealt the doppelganger, or ``None`` when it lies in the center."""
    return next((sid for sid, card in state["dealt"].items() if card == "doppelganger"), None)


def acting_role(state: Mapping[str, Any], sid: str) -> str:
    """The role a seat acts as at night: its dealt card (ON-4), or for the doppelganger the role he copied."""
    card = state["dealt"][sid]
    return (state.get("copy") or "doppelganger") if card == "doppelganger" else card


def wakers(state: Mapping[str, Any], role: str, order: Sequence[str]) -> list[str]:
    """Seats that wake as ``role`` (dealt it, or the doppelganger who copied it), in ``order`` (seat ring order);
    the doppelganger last, as he joins the others."""
    dealt = [sid for sid in order if state["dealt"][sid] == role]
    dop = doppelganger_seat(state)
    if dop is not None and state.get("copy") == role and role != "doppelganger":
        dealt.append(dop)
    return dealt


def night_choice(state: Mapping[str, Any], sid: str, order: Sequence[str]) -> str | None:
    """What a seat may choose at night: ``seer``/``robber``/``troublemaker``/``drunk`` (its acting role), ``lone_wolf``
    (the only werewolf among players with the option on, ON-4.2), or ``None`` (nothing to choose)."""
    role = acting_role(state, sid)
    if role in CHOOSING:
        return role
    if role == "werewolf" and state.get("lone_wolf") and len(wakers(state, "werewolf", order)) == 1:
        return "lone_wolf"
    return None
