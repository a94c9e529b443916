"""The role table as data (BV-13.1): its shape checked, its defaults filled in, and a master's per-game changes
applied (option ``table``: slug → {key: value}). Pure: the table comes in as an argument (the module layer loads
``data/roles.yaml``), never from a file."""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from .state import EFFECTS, ROLES, SIDES, SLOTS, TYPE_CARDS, BvError, RoleRow, _

#: Each key of a row: its default and a check of its value.
DEFAULTS: dict[str, Any] = {
    "lord": False, "special": False, "killer": False, "gathering": False, "slot": "none", "order": 0,
    "effect": "none", "targets": 1, "self": "no", "uses": "every", "must_act": True, "repeat": True, "lives": 1,
    "modes": [],
}
BOOL_KEYS = ("lord", "special", "killer", "gathering", "must_act", "repeat")
INT_KEYS = {"order": (0, 1000), "targets": (1, 3), "lives": (1, 3)}
CHOICES = {"side": SIDES, "type": TYPE_CARDS, "slot": SLOTS, "effect": EFFECTS, "self": ("no", "yes", "once"),
           "uses": ("every", "until_done")}
MODES = ("invite", "visit", "kill", "ambush")
#: Keys a master may change per game (the side and the lord mark are the rules themselves, BV-1).
EDITABLE = ("type", "killer", "gathering", "slot", "order", "effect", "targets", "self", "uses", "must_act",
            "repeat", "lives", "modes", "name")


def _check_value(slug: str, key: str, value: Any, errors: list) -> Any:
    where = f"table.{slug}.{key}"
    if key in BOOL_KEYS:
        if not isinstance(value, bool):
            errors.append((where, _("%(where)s must be true or false."), {"where": where}))
        return value
    if key in INT_KEYS:
        lo, hi = INT_KEYS[key]
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            errors.append((where, _("%(where)s must be a whole number from %(lo)s to %(hi)s."),
                           {"where": where, "lo": lo, "hi": hi}))
        return value
    if key in CHOICES:
        if value not in CHOICES[key]:
            errors.append((where, _("%(where)s must be one of: %(choices)s."),
                           {"where": where, "choices": ", ".join(CHOICES[key])}))
        return value
    if key == "modes":
        if not isinstance(value, list) or any(m not in MODES for m in value):
            errors.append((where, _("%(where)s must be a list of modes from: %(choices)s."),
                           {"where": where, "choices": ", ".join(MODES)}))
        return list(value) if isinstance(value, list) else []
    if key == "name":
        if not isinstance(value, Mapping) or not all(isinstance(value.get(lang), str) and value.get(lang)
                                                     for lang in ("ru", "en")):
            errors.append((where, _("%(where)s must give a name in ru and en."), {"where": where}))
        return dict(value) if isinstance(value, Mapping) else {}
    errors.append((where, _("%(where)s is not a key of the role table."), {"where": where}))
    return value


def normalise_table(raw: Mapping[str, Any]) -> dict[str, RoleRow]:
    """The full role table from ``raw`` (slug → row, as ``data/roles.yaml`` holds it): every slug of BV-1 present,
    every key checked and defaults filled in. Raises :class:`BvError` (rule BV-13.1) listing every bad value."""
    errors: list = []
    if not isinstance(raw, Mapping):
        raise BvError([("table", _("The role table must map card slugs to rows."), {})], rule="BV-13.1")
    missing = [s for s in ROLES if s not in raw]
    unknown = [s for s in raw if s not in ROLES]
    if missing or unknown:
        raise BvError([("table", _("The role table must hold exactly the cards of BV-1 (missing: %(missing)s; "
                                   "unknown: %(unknown)s)."),
                        {"missing": ", ".join(missing) or "-", "unknown": ", ".join(map(str, unknown)) or "-"})],
                      rule="BV-13.1")
    table: dict[str, RoleRow] = {}
    for slug in ROLES:
        given = raw[slug]
        if not isinstance(given, Mapping):
            errors.append((f"table.{slug}", _("%(where)s must be a mapping."), {"where": f"table.{slug}"}))
            continue
        full: dict[str, Any] = {**copy.deepcopy(DEFAULTS), **copy.deepcopy(dict(given))}
        for key in ("side", "type", "name"):
            if key not in full:
                errors.append((f"table.{slug}.{key}", _("%(where)s is required."), {"where": f"table.{slug}.{key}"}))
        for key, value in list(full.items()):
            full[key] = _check_value(slug, key, value, errors)
        table[slug] = full  # type: ignore[assignment]
    if errors:
        raise BvError(errors, rule="BV-13.1")
    return table


def apply_changes(base: Mapping[str, RoleRow], changes: Any) -> dict[str, RoleRow]:
    """The table ``base`` with a master's per-game ``changes`` (slug → {key: value}, only :data:`EDITABLE` keys;
    BV-13.1, BV-15.16). Raises :class:`BvError` naming every bad slug, key or value."""
    if not changes:
        return copy.deepcopy(dict(base))
    if not isinstance(changes, Mapping):
        raise BvError([("table", _("Role table changes must map card slugs to {key: value}."), {})], rule="BV-13.1")
    errors: list = []
    table = copy.deepcopy(dict(base))
    for slug, keys in changes.items():
        if slug not in table:
            errors.append(("table", _("Unknown card %(slug)s in the role table changes."), {"slug": slug}))
            continue
        if not isinstance(keys, Mapping):
            errors.append((f"table.{slug}", _("%(where)s must be a mapping."), {"where": f"table.{slug}"}))
            continue
        for key, value in keys.items():
            if key not in EDITABLE:
                errors.append((f"table.{slug}.{key}", _("%(where)s can't be changed per game."),
                               {"where": f"table.{slug}.{key}"}))
                continue
            table[slug][key] = _check_value(slug, key, copy.deepcopy(value), errors)  # type: ignore[literal-required]
    if errors:
        raise BvError(errors, rule="BV-13.1")
    return table


def acts(row: Mapping[str, Any]) -> bool:
    """Whether a card has a light-time ability of its own (BV-16a: ``vampire``, ``hunter``, ``leader`` and the
    ``sly_warg`` do not, by default)."""
    return row.get("slot", "none") != "none" and row.get("effect", "none") != "none"
