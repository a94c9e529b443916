"""The master's seat edit (OC-11.6): what of one seat the console may change — location, health, experience,
skills, items, clues, abilities, weekly uses — and the edit itself, checked against the game's data (unknown slugs
refused); the game's own conservation rules need not hold for a master's edit.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from gm.core.engine import RuleError, RuleViolation

from .state import SKILLS, _, by_slug

FIELDS = ("location", "health", "experience", "strength", "magic", "communication", "clues", "assets",
          "ingredients", "abilities", "used")


def seat_fields(state: Mapping[str, Any], sid: str) -> dict[str, Any]:
    """OC-11.6: the editable part of seat ``sid`` as plain JSON data (the shape :func:`seat_edit` takes); empty
    before the set-up (nothing to edit yet)."""
    if sid not in (state.get("players") or {}):
        return {}
    p = state["players"][sid]
    return {"location": p.get("location"), "health": p["health"], "experience": p["experience"],
            **{k: p["skills"].get(k, 0) for k in SKILLS}, "clues": p["clues"], "assets": list(p["assets"]),
            "ingredients": list(p["ingredients"]), "abilities": list(p["abilities"]), "used": list(p["used"])}


def seat_edit(state: Mapping[str, Any], sid: str, changes: Mapping[str, Any]) -> dict:
    """OC-11.6: apply the master's ``changes`` (keys of :func:`seat_fields`, each optional) to seat ``sid``.
    Returns the new state; raises :class:`RuleViolation` naming every bad key and value (unknown key, unknown slug,
    a number out of range). A player out of the game keeps ``location`` ``None``."""
    if sid not in (state.get("players") or {}):
        raise RuleViolation([RuleError(_("Nothing to edit before the game starts."), field="changes",
                                       rule="OC-11.6")])
    data = state["data"]
    errors: list[RuleError] = []
    new = copy.deepcopy(dict(state))
    p = new["players"][sid]
    pools = {"assets": by_slug(data, "assets"), "ingredients": by_slug(data, "ingredients"),
             "abilities": by_slug(data, "abilities"), "used": by_slug(data, "abilities")}
    limits = {"health": (0, int(data["settings"]["health_max"])), "experience": (0, 999), "clues": (0, 999),
              **{k: (0, int(data["settings"]["skill_max"])) for k in SKILLS}}
    for key, value in changes.items():
        if key not in FIELDS:
            errors.append(RuleError(_("Unknown field %(key)s."), field=key, rule="OC-11.6", params={"key": key}))
        elif key == "location":
            if value not in by_slug(data, "locations") or p.get("out"):
                errors.append(RuleError(_("Unknown value."), field=key, rule="OC-11.6"))
            else:
                p["location"] = value
        elif key in limits:
            lo, hi = limits[key]
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                errors.append(RuleError(_("Give a whole number from %(lo)s to %(hi)s."), field=key, rule="OC-11.6",
                                        params={"lo": lo, "hi": hi}))
            elif key in SKILLS:
                p["skills"][key] = value
            else:
                p[key] = value
        else:
            if not isinstance(value, list) or any(v not in pools[key] for v in value):
                errors.append(RuleError(_("Unknown value."), field=key, rule="OC-11.6"))
            else:
                p[key] = list(value)
    if errors:
        raise RuleViolation(errors)
    return new
