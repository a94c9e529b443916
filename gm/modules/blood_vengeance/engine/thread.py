"""Who may post in the game thread, phase by phase (BV-14.2, BV-14.8, BV-5.6, BV-15.10, BV-7.6, BV-15.12), and when
the players' code of honour is asked at signup (BV-15.15); when the hunters' room is open (BV-14.2). Pure.

The thread is the night's open discussion (BV-5.1): it is closed in the light time, where everyone sleeps in total
silence (BV-6, BV-14.2); a `defence N` round lets only the tied speak (BV-5.2, BV-5.6); under vampire secrets there is
no discussion at all that night (BV-15.10: "the thread is closed", every round of that night, the defence included:
**[reading]** the site text closes the thread without exception). The dead and the silenced never post
(:func:`.state.may_post`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.core.engine import PhaseInfo

from .night import variant_on
from .state import is_alive

#: The night's rounds (BV-14.1): the thread is open in them, unless a rule below closes it.
NIGHT_KINDS = ("night", "defence", "verdict", "arbiter")
#: Why the thread (or the hunters' room) is closed → the rule that closes it.
CLOSED_RULES = {"light": "BV-14.8", "secrets": "BV-15.10", "defence": "BV-5.6", "room_night": "BV-14.2",
                "dead": "BV-7.6", "silenced": "BV-15.12"}


def thread_closed(state: Mapping[str, Any], *, phase: PhaseInfo | None, sid: str) -> str | None:
    """Why seat ``sid`` (a living, unsilenced player) may not post during ``phase`` (the game's unresolved phase;
    ``None`` between phases or after the end: open), as a key of :data:`CLOSED_RULES`, or ``None`` when the thread
    is open to him: ``light`` in a light phase (BV-14.2, BV-14.8), ``secrets`` in every round of a night played as
    vampire secrets (BV-15.10, also when the die of BV-15.11 chose it), ``defence`` in a defence round to anyone but
    the tied (BV-5.6)."""
    if phase is None:
        return None
    kind = phase.kind
    if kind not in NIGHT_KINDS:
        return "light"
    if variant_on(state, "vampire_secrets"):
        return "secrets"
    if kind == "defence" and sid not in [str(s) for s in state.get("tied") or []]:
        return "defence"
    return None


def asks_code_of_honour(options: Mapping[str, Any]) -> bool:
    """BV-15.15: whether a player must accept the players' code of honour to sign up — when the master plays with
    the spell of silence (``enchanted``, BV-15.12), the code's enforcement: the code is the law the spell punishes."""
    return bool(options.get("enchanted"))


def hunters_room_closed(state: Mapping[str, Any], *, phase: PhaseInfo | None, sid: str) -> str | None:
    """Why seat ``sid``, a member of the hunters' room (BV-4.1), may not write in it during ``phase`` — a key of
    :data:`CLOSED_RULES` — or ``None`` when he may: the room is open only in the light time, for the hunters'
    gathering (BV-14.2, BV-6.3: ``room_night``); the dead don't speak (BV-7.6: ``dead``), nor the silenced
    (BV-15.12: ``silenced``)."""
    if not is_alive(state, sid):
        return "dead"
    if sid in (state.get("silenced") or []):
        return "silenced"
    if phase is None or phase.kind != "light":
        return "room_night"
    return None
