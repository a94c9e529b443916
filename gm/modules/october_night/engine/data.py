"""The game data as data (OC-17): merging a master's per-game overrides into the default set, checking a set, and
the board's distances (OC-4.7, OC-8.3, OC-12.1).

Pure: the module layer reads the YAML file and hands the parsed mapping in; nothing here reads a file.
"""
from __future__ import annotations

import copy
import hashlib
import json
from collections import deque
from collections.abc import Mapping
from typing import Any

from gm.core.engine import RuleError

from .state import DATA_SECTIONS, LIST_SECTIONS, SIDE_CARDS, SKILLS, _

KINDS = ("town", "forest", "ruin")
OUTCOME_KEYS = ("ingredient", "asset", "experience", "health", "improve")
EFFECT_KEYS = ("heal", "check_bonus", "extra_success", "reroll", "fight_bonus", "ward", "insight", "swift",
               "long_step")


def merge_data(base: Mapping[str, Any], overrides: Mapping[str, Any] | None) -> dict:
    """OC-17: ``base`` with a master's ``overrides`` applied: in a list section an entry whose slug exists replaces
    the fields it gives, a new slug is added at the end; ``settings`` and ``asset_deck`` merge key by key. The key
    ``base`` (``default``) is ignored. Returns a new dict; raises ``ValueError`` for an unknown section."""
    data = copy.deepcopy(dict(base))
    for section, value in (overrides or {}).items():
        if section == "base":
            continue
        if section not in DATA_SECTIONS:
            raise ValueError(f"unknown data section {section!r}")
        if section in ("settings", "asset_deck"):
            data[section] = {**(data.get(section) or {}), **dict(value or {})}
            continue
        entries = list(data.get(section) or [])
        index = {e["slug"]: i for i, e in enumerate(entries)}
        for entry in value or []:
            slug = entry.get("slug") if isinstance(entry, Mapping) else None
            if slug in index:
                entries[index[slug]] = {**entries[index[slug]], **dict(entry)}
            else:
                entries.append(dict(entry) if isinstance(entry, Mapping) else entry)
        data[section] = entries
    return data


def digest(data: Mapping[str, Any]) -> str:
    """OC-17: the SHA-256 of a data set's canonical JSON (sorted keys), stored with the game's snapshot so the set a
    game runs on can be named and compared."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def distances(data: Mapping[str, Any], start: str) -> dict[str, int]:
    """Steps along the roads from ``start`` to every reachable location (breadth-first)."""
    adj = {loc["slug"]: list(loc.get("adjacent") or []) for loc in data["locations"]}
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in adj.get(here, []):
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


def distance(data: Mapping[str, Any], a: str | None, b: str | None) -> int:
    """Steps between ``a`` and ``b`` (a large number if either is ``None`` or unreachable)."""
    if a is None or b is None:
        return 999
    return distances(data, a).get(b, 999)


def validate_data(data: Any) -> list[RuleError]:
    """OC-17: every check of a data set, each error naming the entry at fault in ``field`` (``enemies[ghoul].
    location``). An empty list: the set is good. Checks: every section present; slugs unique; every slug a section
    names known (locations, abilities, assets, ingredients, skills, outcomes); roads symmetric and the board
    connected; every sheet's start location and abilities known; every search and personal card with three
    sections on three different locations; every token's location on the board; at least four mysteries, each with
    its skill and a known location (or none), and the clues to take them (OC-13: ``clues_per_mystery`` at least 1,
    as many mysteries as ``mysteries_needed``, enough clue sources); role decks adding up to 3, 4 and 5."""
    errors: list[RuleError] = []

    def err(field: str, message: str, **params: Any) -> None:
        errors.append(RuleError(message, field=field, rule="OC-17", params=params))

    if not isinstance(data, Mapping):
        err("data", _("The data set must be a mapping."))
        return errors
    for section in DATA_SECTIONS:
        if section not in data:
            err(section, _("The section %(section)s is missing."), section=section)
    if errors:
        return errors
    slugs: dict[str, set[str]] = {}
    for section in LIST_SECTIONS:
        seen: set[str] = set()
        if not isinstance(data[section], list):
            err(section, _("The section %(section)s must be a list."), section=section)
            slugs[section] = seen
            continue
        for i, entry in enumerate(data[section]):
            slug = entry.get("slug") if isinstance(entry, Mapping) else None
            if not isinstance(slug, str) or not slug:
                err(f"{section}[{i}]", _("Entry %(n)s has no slug."), n=i + 1)
                continue
            if slug in seen:
                err(f"{section}[{slug}]", _("The slug %(slug)s is given twice."), slug=slug)
            seen.add(slug)
        slugs[section] = seen
    locations = slugs["locations"]
    abilities = slugs["abilities"]
    assets = slugs["assets"]
    ingredients = slugs["ingredients"]

    def entries(section: str):
        for entry in data[section] if isinstance(data[section], list) else []:
            if isinstance(entry, Mapping) and entry.get("slug"):
                yield entry["slug"], entry

    def known(field: str, value: Any, pool: set[str], what: str) -> None:
        if value not in pool:
            err(field, _("Unknown %(what)s %(value)s."), what=what, value=repr(value))

    # OC-17.2: the board.
    for slug, loc in entries("locations"):
        if loc.get("kind") not in KINDS:
            err(f"locations[{slug}].kind", _("Unknown location kind %(value)s."), value=repr(loc.get("kind")))
        for other in loc.get("adjacent") or []:
            known(f"locations[{slug}].adjacent", other, locations, "location")
            if other in locations:
                back: Mapping[str, Any] = next((e for s, e in entries("locations") if s == other), {})
                if slug not in (back.get("adjacent") or []):
                    err(f"locations[{slug}].adjacent", _("The road to %(other)s does not run back."), other=other)
    if locations:
        reach = distances(data, sorted(locations)[0])
        for slug in sorted(locations - set(reach)):
            err(f"locations[{slug}]", _("The location %(slug)s is unreachable."), slug=slug)
    # OC-17.3: sheets.
    for slug, ch in entries("characters"):
        known(f"characters[{slug}].start", ch.get("start"), locations, "location")
        for a in ch.get("abilities") or []:
            known(f"characters[{slug}].abilities", a, abilities, "ability")
        if not ch.get("abilities"):
            err(f"characters[{slug}].abilities", _("A sheet needs at least one ability."))
        for a in ch.get("assets") or []:
            known(f"characters[{slug}].assets", a, assets, "asset")
        for a in ch.get("ingredients") or []:
            known(f"characters[{slug}].ingredients", a, ingredients, "ingredient")
        skills = ch.get("skills") or {}
        for k in skills:
            known(f"characters[{slug}].skills", k, set(SKILLS), "skill")
    # OC-17.4: abilities.
    for slug, ab in entries("abilities"):
        if ab.get("phase") not in ("action", "contact", "any"):
            err(f"abilities[{slug}].phase", _("Unknown phase %(value)s."), value=repr(ab.get("phase")))
        effect = ab.get("effect") or {}
        if not any(k in effect for k in EFFECT_KEYS):
            err(f"abilities[{slug}].effect", _("Unknown effect."))
    # OC-17.5: enemies.
    for slug, en in entries("enemies"):
        known(f"enemies[{slug}].location", en.get("location"), locations, "location")
        known(f"enemies[{slug}].skill", en.get("skill"), set(SKILLS), "skill")
        for key in ("modifier", "health"):
            if not isinstance(en.get(key), int) or en.get(key) < (1 if key == "health" else 0):
                err(f"enemies[{slug}].{key}", _("Give a whole number."))
    # OC-17.6: contact cards.

    def outcome(field: str, out: Any) -> None:
        if not isinstance(out, Mapping):
            err(field, _("An outcome must be a mapping."))
            return
        for key, value in out.items():
            if key not in OUTCOME_KEYS:
                err(field, _("Unknown outcome %(value)s."), value=repr(key))
            elif key == "ingredient":
                known(field, value, ingredients, "ingredient")
            elif key == "asset":
                known(field, value, assets, "asset")
            elif key == "improve":
                known(field, value, set(SKILLS), "skill")

    for section in ("search_contacts", "personal_contacts"):
        for slug, card in entries(section):
            sections = card.get("sections") or []
            if len(sections) != 3:
                err(f"{section}[{slug}].sections", _("A card needs exactly three sections."))
            locs = [s.get("location") for s in sections if isinstance(s, Mapping)]
            if len(set(locs)) != len(locs):
                err(f"{section}[{slug}].sections", _("The three sections need three different locations."))
            for i, sec in enumerate(sections, 1):
                place = f"{section}[{slug}].sections[{i}]"
                if not isinstance(sec, Mapping):
                    err(place, _("A section must be a mapping."))
                    continue
                known(f"{place}.location", sec.get("location"), locations, "location")
                known(f"{place}.skill", sec.get("skill"), set(SKILLS), "skill")
                outcome(f"{place}.success", sec.get("success", {}))
                outcome(f"{place}.failure", sec.get("failure", {}))
    for slug, card in entries("combat_contacts"):
        if not isinstance(card.get("enemies"), int) or card["enemies"] < 1:
            err(f"combat_contacts[{slug}].enemies", _("Give a whole number of enemies."))
    # OC-17.7: items.
    for slug, n in (data["asset_deck"] or {}).items():
        known(f"asset_deck.{slug}", slug, assets, "asset")
        if not isinstance(n, int) or n < 0:
            err(f"asset_deck.{slug}", _("Give a whole number."))
    for slug, a in entries("assets"):
        for k in (a.get("bonus") or {}):
            known(f"assets[{slug}].bonus", k, set(SKILLS), "skill")
    # OC-17.8: mysteries.
    if len(slugs["mysteries"]) < 4:
        err("mysteries", _("At least four mysteries are needed."))
    for slug, m in entries("mysteries"):
        if m.get("location") is not None:
            known(f"mysteries[{slug}].location", m.get("location"), locations, "location")
        known(f"mysteries[{slug}].skill", m.get("skill"), set(SKILLS), "skill")
        if "reward" in m:
            outcome(f"mysteries[{slug}].reward", m.get("reward") or {})
    # OC-13: a mystery is taken for clues, so the data must give them: a positive ``clues_per_mystery`` and enough
    # clue sources (a search section or an enemy token gives 1 clue, OC-13.1) for the mysteries needed.
    st = data["settings"] if isinstance(data["settings"], Mapping) else {}
    per, needed = st.get("clues_per_mystery"), st.get("mysteries_needed")
    if not isinstance(per, int) or isinstance(per, bool) or per < 1:
        err("settings.clues_per_mystery", _("A mystery needs its clues: give a whole number of at least 1."))
    elif not isinstance(needed, int) or isinstance(needed, bool) or needed < 1:
        err("settings.mysteries_needed", _("Give a whole number of at least 1."))
    else:
        sources = sum(len(card.get("sections") or []) for _s, card in entries("search_contacts")) + len(
            slugs["enemies"])
        if sources < per * needed:
            err("mysteries", _("The mysteries lack their clues: %(needed)s mysteries need %(clues)s clues, the "
                               "search cards and enemy tokens give only %(sources)s."),
                needed=needed, clues=per * needed, sources=sources)
        if len(slugs["mysteries"]) < needed:
            err("mysteries", _("%(needed)s mysteries are needed, the data has %(n)s."), needed=needed,
                n=len(slugs["mysteries"]))
    # OC-17.1: the role decks.
    decks = (data["settings"] or {}).get("role_deck") or {}
    for n in (3, 4, 5):
        deck = decks.get(n) or decks.get(str(n)) or {}
        if sum(int(deck.get(k, 0)) for k in SIDE_CARDS) != n:
            err(f"settings.role_deck.{n}", _("The role deck for %(n)s players must add up to %(n)s."), n=n)
    return errors
