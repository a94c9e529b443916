"""The master's seat edit on the console (BW-22g, BW-25; the core's ``GameModule.master_seat_edit``): what of one
seat the master may change — the hand (BW-24c order), the DNA (BW-2) and the markers (the Curse Mark with its count,
Chains, Tranquilizer; BW-10–BW-12) — checked against the game's cards; the game's own conservation of cards need not
hold for a master's edit, and no end of the game is checked on the edited position (BW-22g). Pure."""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from gm.core.engine import RuleError, RuleViolation

from .state import DNA, _

FIELDS = ("hand", "dna", "curse_mark", "chains", "tranquilizer")
#: The largest Curse Mark count the master may set: a fresh mark's (BW-10a).
CURSE_MAX = 2


def seat_fields(state: Mapping[str, Any], sid: str) -> dict[str, Any]:
    """The editable part of seat ``sid`` as plain JSON data (the shape :func:`seat_edit` takes): ``hand`` (cards in
    hand order), ``dna``, ``curse_mark`` (turns left, ``None`` without a mark), ``chains`` and ``tranquilizer``
    (``True`` or ``None``). Empty before the set-up and after the end (nothing to edit)."""
    if sid not in (state.get("hands") or {}) or state.get("over"):
        return {}
    return {"hand": list(state["hands"][sid]), "dna": state["dna"][sid],
            "curse_mark": state["curse"].get(sid), "chains": True if sid in state["chains"] else None,
            "tranquilizer": True if sid in state["tranq"] else None}


def seat_edit(state: Mapping[str, Any], sid: str, changes: Mapping[str, Any]) -> dict:
    """Apply the master's ``changes`` (keys of :func:`seat_fields`, each optional) to seat ``sid``; returns the new
    state. Raises :class:`RuleViolation` naming every bad key and value (unknown key, a card this game has not, an
    unknown DNA, a count out of 1–2, a flag other than ``True``/``None``). A permanently mutated player carries no
    Curse Mark (BW-10b)."""
    if not seat_fields(state, sid):
        raise RuleViolation([RuleError(_("Nothing to edit: the game is not running."), field="changes",
                                       rule="BW-22g")])
    new = copy.deepcopy(dict(state))
    cards = set(new["data"]["cards"])
    errors: list[RuleError] = []
    for key, value in changes.items():
        if key not in FIELDS:
            errors.append(RuleError(_("Unknown field %(key)s."), field=key, rule="BW-22g", params={"key": key}))
        elif key == "hand":
            if not isinstance(value, list) or any(not isinstance(c, str) or c not in cards for c in value):
                errors.append(RuleError(_("This game has no such card."), field=key, rule="BW-1"))
            else:
                new["hands"][sid] = list(value)
        elif key == "dna":
            if value not in DNA:
                errors.append(RuleError(_("Unknown DNA."), field=key, rule="BW-2"))
            else:
                new["dna"][sid] = value
        elif key == "curse_mark":
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or not 1 <= value <= CURSE_MAX):
                errors.append(RuleError(_("Give a count from 1 to %(max)s, or no mark."), field=key, rule="BW-10a",
                                        params={"max": CURSE_MAX}))
            elif value is None:
                new["curse"].pop(sid, None)
                if sid in new["fresh"]:
                    new["fresh"].remove(sid)
            else:
                new["curse"][sid] = value
        elif value not in (True, None):
            errors.append(RuleError(_("Give yes or no."), field=key, rule="BW-11" if key == "chains" else "BW-12"))
        else:
            pile = new["chains"] if key == "chains" else new["tranq"]
            if value and sid not in pile:
                pile.append(sid)
            elif not value and sid in pile:
                pile.remove(sid)
    if not errors and new["dna"][sid] == "permanent" and sid in new["curse"]:
        errors.append(RuleError(_("A permanently mutated player carries no Curse Mark."), field="curse_mark",
                                rule="BW-10b"))
    if errors:
        raise RuleViolation(errors)
    return new
