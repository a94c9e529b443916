"""The master's edits of a running game (OC-11.6): what of one seat the console may change — location, health,
experience, skills, items, clues, abilities, weekly uses and the open contact — and the board's enemy tokens, decks,
bag and reserve; each edit checked against the game's data (unknown slugs refused, every error naming its entry);
the game's own conservation rules need not hold for a master's edit.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from gm.core.engine import RuleError, RuleViolation

from .state import SKILLS, _, by_slug

FIELDS = ("location", "health", "experience", "strength", "magic", "communication", "clues", "assets",
          "ingredients", "abilities", "used", "contact")
#: The contact decks and their data sections (OC-6, OC-17.6): a contact card's type is its deck.
CONTACT_DECKS = {"search": "search_contacts", "combat": "combat_contacts", "personal": "personal_contacts"}
#: The decks a master may edit, and the data section each holds cards of (OC-11.6).
DECK_SECTIONS = {**CONTACT_DECKS, "assets": "assets", "mysteries": "mysteries"}
BOARD_FIELDS = ("enemies", "bag", "decks", "reserve")


def seat_fields(state: Mapping[str, Any], sid: str) -> dict[str, Any]:
    """OC-11.6: the editable part of seat ``sid`` as plain JSON data (the shape :func:`seat_edit` takes); empty
    before the set-up (nothing to edit yet)."""
    if sid not in (state.get("players") or {}):
        return {}
    p = state["players"][sid]
    return {"location": p.get("location"), "health": p["health"], "experience": p["experience"],
            **{k: p["skills"].get(k, 0) for k in SKILLS}, "clues": p["clues"], "assets": list(p["assets"]),
            "ingredients": list(p["ingredients"]), "abilities": list(p["abilities"]), "used": list(p["used"]),
            "contact": (p.get("contact") or {}).get("card")}


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
        elif key == "contact":
            # OC-11.6: the open contact card (a new one starts with no section done), or none.
            kind = next((k for k, sec in CONTACT_DECKS.items() if value in by_slug(data, sec)), None)
            if value is not None and kind is None:
                errors.append(RuleError(_("Unknown value."), field=key, rule="OC-11.6"))
            elif value is None:
                p["contact"] = None
            elif (p.get("contact") or {}).get("card") != value:
                p["contact"] = {"card": value, "type": kind, "done": []}
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


def board_fields(state: Mapping[str, Any]) -> dict[str, Any]:
    """OC-11.6: the board's part the master may edit, as plain JSON data (the shape :func:`board_edit` takes):
    ``enemies`` (tokens on the board: ``token``, ``location``, ``owner`` seat id or ``None``, ``health``,
    ``revealed``), ``bag`` (front first), ``decks`` (each top first) and ``reserve`` (asset slots, ``None`` empty)."""
    return {"enemies": copy.deepcopy(list(state.get("enemies") or [])), "bag": list(state.get("bag") or []),
            "decks": copy.deepcopy(dict(state.get("decks") or {})), "reserve": list(state.get("reserve") or [])}


def board_edit(state: Mapping[str, Any], changes: Mapping[str, Any]) -> dict:
    """OC-11.6: replace the parts of the board ``changes`` gives (keys of :func:`board_fields`). Returns the new
    state; raises :class:`RuleViolation` naming every bad entry (``enemies[2].location``, ``decks.search``…):
    an unknown key, token, location, seat or card, a health below 1 or above the token's, a reserve of another
    size. A stray token (no owner, OC-16.5) is allowed."""
    data = state["data"]
    errors: list[RuleError] = []
    new = copy.deepcopy(dict(state))

    def bad(field: str, message: str, **params: Any) -> None:
        errors.append(RuleError(message, field=field, rule="OC-11.6", params=params))

    tokens = by_slug(data, "enemies")
    locations = by_slug(data, "locations")
    for key, value in changes.items():
        if key not in BOARD_FIELDS:
            bad(key, _("Unknown field %(key)s."), key=key)
        elif key == "enemies":
            if not isinstance(value, list):
                bad(key, _("Give a list of enemy tokens."))
                continue
            out = []
            for i, e in enumerate(value):
                place = f"enemies[{i}]"
                if not isinstance(e, Mapping) or e.get("token") not in tokens:
                    bad(f"{place}.token", _("Unknown enemy token %(value)s."),
                        value=repr(e.get("token") if isinstance(e, Mapping) else e))
                    continue
                top = int(tokens[e["token"]]["health"])
                health = e.get("health", top)
                if e.get("location") not in locations:
                    bad(f"{place}.location", _("Unknown location %(value)s."), value=repr(e.get("location")))
                if e.get("owner") is not None and str(e["owner"]) not in state["seats"]:
                    bad(f"{place}.owner", _("Unknown player %(value)s."), value=repr(e.get("owner")))
                if not isinstance(health, int) or isinstance(health, bool) or not 1 <= health <= top:
                    bad(f"{place}.health", _("Give a whole number from %(lo)s to %(hi)s."), lo=1, hi=top)
                out.append({"token": e["token"], "location": e.get("location"),
                            "owner": None if e.get("owner") is None else str(e["owner"]), "health": health,
                            "revealed": bool(e.get("revealed", False))})
            new["enemies"] = out
        elif key == "bag":
            if not isinstance(value, list) or any(t not in tokens for t in value):
                bad(key, _("Unknown enemy token %(value)s."),
                    value=repr([t for t in value if t not in tokens] if isinstance(value, list) else value))
            else:
                new["bag"] = list(value)
        elif key == "decks":
            if not isinstance(value, Mapping):
                bad(key, _("Give the decks by name."))
                continue
            for deck, cards in value.items():
                if deck not in DECK_SECTIONS:
                    bad(f"decks.{deck}", _("Unknown deck %(value)s."), value=repr(deck))
                    continue
                pool = by_slug(data, DECK_SECTIONS[deck])
                if not isinstance(cards, list) or any(c not in pool for c in cards):
                    unknown = [c for c in cards if c not in pool] if isinstance(cards, list) else cards
                    bad(f"decks.{deck}", _("Unknown card %(value)s."), value=repr(unknown))
                else:
                    new["decks"][deck] = list(cards)
        else:
            size = int(data["settings"].get("reserve_size", 4))
            assets = by_slug(data, "assets")
            if not isinstance(value, list) or len(value) != size or any(
                    c is not None and c not in assets for c in value):
                bad(key, _("Give %(n)s asset slots (an asset or empty)."), n=size)
            else:
                new["reserve"] = list(value)
    if errors:
        raise RuleViolation(errors)
    return new
