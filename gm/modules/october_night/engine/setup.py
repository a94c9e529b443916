"""Options and set-up: the data snapshot (OC-17), the role deck and the deal (OC-1.1, OC-1.2, OC-1.4), the
characters (OC-2.1), the first week's bonus (OC-3.3), the decks, reserve and bag (OC-15.4, OC-16.2), and a fixed
start position for scenarios and replays (``position``, OC-10.8).
"""
from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import Event, RuleError, RuleViolation, SeatInfo, SetupResult

from .data import digest, merge_data, validate_data
from .resolution import opening_events, phase_spec
from .state import MAX_PLAYERS, MIN_PLAYERS, SIDE_CARDS, SKILLS, _, by_slug, refusal, week_of

OPTION_KEYS = ("data", "role_deck", "first_week_bonus", "phase_hours", "sides", "characters", "position")


def validate_options(options: Mapping[str, Any], base: Mapping[str, Any]) -> dict:
    """OC-11.1: check the game options against the default data ``base``: ``data`` (the master's overrides, OC-17:
    the merged set must pass :func:`validate_data`), ``role_deck`` (OC-1.4: counts of summoners, keepers, chosen; at
    most two chosen; at least one summoner and one keeper unless there are two chosen), ``first_week_bonus``,
    ``phase_hours``, ``sides`` and ``characters`` (one per seat, for scenarios and replays) and ``position`` (a start
    position, for scenarios). Returns the normalised options; raises :class:`RuleViolation` with every error."""
    errors: list[RuleError] = []
    out: dict[str, Any] = {}
    for key in options:
        if key not in OPTION_KEYS:
            errors.append(RuleError(_("Unknown option %(key)s."), field=key, rule="OC-11.1", params={"key": key}))
    data: dict = dict(base)
    if options.get("data") not in (None, "default", {}):
        if not isinstance(options["data"], Mapping):
            errors.append(RuleError(_("The data must be a mapping."), field="data", rule="OC-17"))
        else:
            try:
                data = merge_data(base, options["data"])
            except (ValueError, AttributeError, TypeError) as exc:
                errors.append(RuleError(_("Bad data: %(why)s"), field="data", rule="OC-17", params={"why": str(exc)}))
            else:
                for e in validate_data(data):
                    errors.append(RuleError(e.message, field=f"data.{e.field}", rule=e.rule, params=e.params))
                out["data"] = dict(options["data"])
    deck = options.get("role_deck")
    if deck is not None:
        if not isinstance(deck, Mapping) or any(k not in SIDE_CARDS for k in deck) or not all(
                isinstance(v, int) and v >= 0 for v in deck.values()):
            errors.append(RuleError(_("Give counts of summoners, keepers and chosen."), field="role_deck",
                                    rule="OC-1.4"))
        else:
            s, k, c = (int(deck.get(x, 0)) for x in SIDE_CARDS)
            if c > 2 or (c < 2 and (s < 1 or k < 1)):
                errors.append(RuleError(_("At most two chosen, and a summoner and a keeper unless two chosen."),
                                        field="role_deck", rule="OC-1.4"))
            out["role_deck"] = {"summoners": s, "keepers": k, "chosen": c}
    if "first_week_bonus" in options:
        out["first_week_bonus"] = bool(options["first_week_bonus"])
    if options.get("phase_hours") is not None:
        hours = options["phase_hours"]
        if not isinstance(hours, Mapping) or not all(
                k in ("action", "contact", "ritual") and isinstance(v, (int, float)) and v > 0
                for k, v in hours.items()):
            errors.append(RuleError(_("Give hours for action, contact and ritual."), field="phase_hours",
                                    rule="OC-11.1"))
        else:
            out["phase_hours"] = dict(hours)
    if options.get("sides") is not None:
        sides = options["sides"]
        if not isinstance(sides, list) or not all(s in SIDE_CARDS for s in sides):
            errors.append(RuleError(_("Give one side card per seat."), field="sides", rule="OC-1.1"))
        else:
            out["sides"] = list(sides)
    if options.get("characters") is not None:
        chars = options["characters"]
        known = by_slug(data, "characters")
        named = [c for c in chars if c is not None] if isinstance(chars, list) else []
        if not isinstance(chars, list) or not all(c in known for c in named) or len(set(named)) != len(named):
            errors.append(RuleError(_("Give one different character per seat."), field="characters", rule="OC-2.1"))
        else:
            out["characters"] = list(chars)
    if options.get("position") is not None:
        if not isinstance(options["position"], Mapping):
            errors.append(RuleError(_("The position must be a mapping."), field="position", rule="OC-10.8"))
        else:
            out["position"] = dict(options["position"])
    if errors:
        raise RuleViolation(errors)
    return out


def game_data(options: Mapping[str, Any], base: Mapping[str, Any]) -> dict:
    """The data set of a game: ``base`` with the game's ``data`` overrides (OC-17)."""
    return merge_data(base, options.get("data") or {}) if options.get("data") not in (None, "default") else \
        copy.deepcopy(dict(base))


def role_deck(data: Mapping[str, Any], n: int, options: Mapping[str, Any]) -> list[str]:
    """OC-1.1/OC-1.4: the side cards for ``n`` players (the master's ``role_deck`` if given)."""
    deck = options.get("role_deck") or data["settings"]["role_deck"].get(n) or data["settings"]["role_deck"][str(n)]
    cards = [side for side in SIDE_CARDS for _i in range(int(deck.get(side, 0)))]
    if len(cards) != n:
        raise RuleViolation([RuleError(_("The role deck does not match the number of players."), field="role_deck",
                                       rule="OC-1.1")])
    return cards


def sheet_holder(data: Mapping[str, Any], options: Mapping[str, Any], claims: Sequence[str | None],
                 position: int, character: str) -> int | None:
    """OC-2.1: who already holds sheet ``character`` for a seat at ring ``position`` (0-based) to claim it, given
    the master's ``characters`` option and every seat's claim (``claims``, ring order): the ring position holding it,
    or ``None`` when it is free (his own claim or assignment counts as free). Raises :class:`RuleViolation`
    ``unknown_sheet`` for a sheet the game's data set lacks."""
    if character not in by_slug(data, "characters"):
        raise RuleViolation([refusal("unknown_sheet", "character")])
    assigned = list(options.get("characters") or [])
    for i in range(max(len(assigned), len(claims))):
        held = assigned[i] if i < len(assigned) and assigned[i] is not None else (
            claims[i] if i < len(claims) else None)
        if i != position and held == character:
            return i
    return None


def asset_deck(data: Mapping[str, Any]) -> list[str]:
    """OC-15.4a: the asset deck in data order — ``asset_deck`` expanded slug by slug, each slug's copies together."""
    return [slug for slug, n in (data.get("asset_deck") or {}).items() for _i in range(int(n))]


def new_player(data: Mapping[str, Any], character: str, *, experience: int) -> dict[str, Any]:
    """OC-2.1: a player as his sheet starts him (health, skills, start location, property, first ability)."""
    sheet = by_slug(data, "characters")[character]
    return {
        "character": character, "location": sheet["start"],
        "health": int(sheet.get("health", data["settings"]["health_start"])),
        "experience": experience,
        "skills": {k: int((sheet.get("skills") or {}).get(k, 0)) for k in SKILLS},
        "assets": list(sheet.get("assets") or []), "ingredients": list(sheet.get("ingredients") or []),
        "clues": 0, "abilities": list(sheet["abilities"][:1]), "used": [], "learned": [],
        "last_action": "none", "last_day": 0, "contact": None, "personal_drawn": False, "out": False,
    }


def setup(*, seats: Sequence[SeatInfo], options: Mapping[str, Any], rng: random.Random,
          base: Mapping[str, Any]) -> SetupResult:
    """Deal the game for ``seats`` (ring order) with the default data ``base`` (OC-17) and ``rng`` (the game's
    RNG): sides from the role deck (OC-1.1) unless ``sides`` fixes them, characters (``characters`` or a random free
    sheet each, OC-2.1), experience 1 + 4 with ``first_week_bonus`` (OC-3.3), the decks, the asset reserve and the bag
    shuffled (OC-15.4, OC-16.2), ``action 1`` opened. With ``position`` (scenarios) the position is put on the board
    as given (:func:`apply_position`) and its ``start`` phase opened. Raises :class:`RuleViolation`."""
    n = len(seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RuleViolation([RuleError(_("October Night takes 3 to 5 players."), field="seats", rule="OC-1.1")])
    options = validate_options(options, base)
    data = game_data(options, base)
    ring = [str(s.id) for s in sorted(seats, key=lambda s: s.position)]
    names = {str(s.id): s.name for s in seats}
    sides = list(options.get("sides") or [])
    if len(sides) != n:
        sides = role_deck(data, n, options)
        rng.shuffle(sides)
    # OC-2.1: the master's sheets per seat (``None`` or missing: unassigned), then each player's claim at sign-up
    # (``SeatInfo.data["claim"]``) when still free; the others get random free sheets.
    chars = (list(options.get("characters") or []) + [None] * n)[:n]
    known = by_slug(data, "characters")
    by_ring = sorted(seats, key=lambda s: s.position)
    for i, seat in enumerate(by_ring):
        claim = (seat.data or {}).get("claim")
        if chars[i] is None and claim in known and claim not in chars:
            chars[i] = claim
    free = [c["slug"] for c in data["characters"] if c["slug"] not in chars]
    rng.shuffle(free)
    chars = [c if c is not None else free.pop() for c in chars]
    st = data["settings"]
    bonus = options.get("first_week_bonus", st.get("first_week_bonus", True))
    experience = int(st["experience_start"]) + (int(st["weekly_experience"]) if bonus else 0)
    position = options.get("position")
    state: dict[str, Any] = {
        "data": data, "seats": ring, "names": names,
        "players": {sid: new_player(data, chars[i], experience=experience) for i, sid in enumerate(ring)},
        "sides": {sid: sides[i] for i, sid in enumerate(ring)}, "declared": {}, "joined": {},
        "day": 1, "stage": "action",
        "decks": {"search": [c["slug"] for c in data["search_contacts"]],
                  "combat": [c["slug"] for c in data["combat_contacts"]],
                  "personal": [c["slug"] for c in data["personal_contacts"]],
                  "assets": asset_deck(data), "mysteries": [m["slug"] for m in data["mysteries"]]},
        "discards": {"search": [], "combat": [], "personal": [], "assets": []},
        "reserve": [], "enemies": [], "bag": [e["slug"] for e in data["enemies"]],
        "mysteries": {"solved": [], "open": None}, "ritual_place": None,
        "foils": {}, "effects": {}, "insight": {}, "ritual": {}, "winner": None, "winners": [],
        "game_seed": rng.getrandbits(63), "draws": 0, "data_digest": digest(data),
    }
    if options.get("phase_hours"):
        state["phase_hours"] = dict(options["phase_hours"])  # OC-11.1: every phase opened reads it
    if position:
        apply_position(state, position)
    else:
        for deck in state["decks"].values():
            rng.shuffle(deck)
        rng.shuffle(state["bag"])
        size = int(st["reserve_size"])
        state["reserve"] = state["decks"]["assets"][:size]
        state["decks"]["assets"] = state["decks"]["assets"][size:]
    deck = {side: sum(1 for v in state["sides"].values() if v == side) for side in SIDE_CARDS}
    seated = [{"player": names[sid], "character": state["players"][sid]["character"],
               "location": state["players"][sid]["location"]} for sid in ring]
    events = [Event("oc.setup", {"deck": deck, "players": seated})]
    for sid in ring:
        events.append(Event("oc.your_side", {"side": state["sides"][sid]}, visibility="seat", seat=int(sid)))
    kind = state["stage"]
    first = phase_spec(state, kind, state["day"])
    seat_data = {int(sid): {"side": state["sides"][sid], "character": state["players"][sid]["character"]}
                 for sid in ring}
    events += opening_events(state)
    return SetupResult(state=state, first_phase=first, seat_data=seat_data, events=events)


def apply_position(state: dict[str, Any], pos: Mapping[str, Any]) -> None:
    """OC-10.8: put a start position on the board as it is (scenario files' shape, players by ring index): per
    player ``location``, ``health``, ``experience``, ``skills`` (partial), ``assets``, ``ingredients``, ``clues``,
    ``abilities``, ``used``, ``last_action``, ``contact``, ``personal_drawn``, ``declared``, ``out``; ``enemies``;
    ``enemy_pool``; ``decks``; ``reserve``; ``mysteries``; ``ritual_place``; ``start`` (``week``, ``day``,
    ``phase``). Nothing of set-up or earlier phases is replayed; decks not given hold the cards not open anywhere,
    in data order."""
    data = state["data"]
    st = data["settings"]
    start = pos.get("start") or {}
    week, dow = int(start.get("week", 1)), int(start.get("day", 1))
    state["day"] = 7 * (week - 1) + dow
    state["stage"] = start.get("phase", "action")
    ring = state["seats"]
    for i, entry in enumerate(pos.get("players") or []):
        sid = ring[i]
        p = state["players"][sid]
        p["experience"] = int(st["experience_start"]) + int(st["weekly_experience"])
        p["health"] = int(st["health_start"])
        for key in ("location", "health", "experience", "clues", "personal_drawn"):
            if key in entry:
                p[key] = entry[key]
        if "skills" in entry:
            p["skills"].update({k: int(v) for k, v in entry["skills"].items()})
        for key in ("assets", "ingredients", "abilities", "used"):
            if key in entry:
                p[key] = list(entry[key])
        if entry.get("last_action") not in (None, "none"):
            p["last_action"] = entry["last_action"]
            # The day before for an action start, the same day for a contact start.
            p["last_day"] = state["day"] - 1 if state["stage"] == "action" else state["day"]
        if entry.get("contact"):
            card = entry["contact"]["card"]
            ctype = next(t for t, sec in (("search", "search_contacts"), ("combat", "combat_contacts"),
                                          ("personal", "personal_contacts")) if card in by_slug(data, sec))
            p["contact"] = {"card": card, "type": ctype, "done": list(entry["contact"].get("done") or [])}
            if ctype == "personal":
                p["personal_drawn"] = True
        if entry.get("declared"):
            state["declared"][sid] = entry["declared"]
            if week >= 5:
                state["joined"][sid] = entry["declared"]
        if entry.get("out"):
            p["out"] = True
            p["location"] = None
    owner_of = {state["names"][sid]: sid for sid in ring}
    tokens = by_slug(data, "enemies")
    state["enemies"] = []
    for e in pos.get("enemies") or []:
        tok = tokens[e["token"]]
        owner = e.get("owner")
        state["enemies"].append({"token": e["token"], "location": e.get("location") or tok["location"],
                                 "owner": owner_of.get(owner, owner) if owner is not None else None,
                                 "health": int(e.get("health", tok["health"])), "revealed": bool(e.get("revealed"))})
    on_board = {e["token"] for e in state["enemies"]}
    state["bag"] = list(pos["enemy_pool"]) if "enemy_pool" in pos else [
        e["slug"] for e in data["enemies"] if e["slug"] not in on_board]
    open_cards = {p["contact"]["card"] for p in state["players"].values() if p.get("contact")}
    mysteries = pos.get("mysteries") or {}
    state["mysteries"] = {"solved": list(mysteries.get("solved") or []), "open": mysteries.get("open")}
    used_mysteries = set(state["mysteries"]["solved"]) | {state["mysteries"]["open"]} - {None}
    decks = pos.get("decks") or {}
    for deck, section in (("search", "search_contacts"), ("combat", "combat_contacts"),
                          ("personal", "personal_contacts")):
        state["decks"][deck] = list(decks[deck]) if deck in decks else [
            c["slug"] for c in data[section] if c["slug"] not in open_cards]
    state["decks"]["mysteries"] = list(decks["mysteries"]) if "mysteries" in decks else [
        m["slug"] for m in data["mysteries"] if m["slug"] not in used_mysteries]
    size = int(st["reserve_size"])
    full = asset_deck(data)
    if "reserve" in pos:
        state["reserve"] = list(pos["reserve"])
        if "assets" in decks:
            state["decks"]["assets"] = list(decks["assets"])
        else:
            rest = list(full)
            for card in state["reserve"]:
                if card in rest:
                    rest.remove(card)
            state["decks"]["assets"] = rest
    else:
        deck_cards = list(decks["assets"]) if "assets" in decks else full
        state["reserve"] = deck_cards[:size]
        state["decks"]["assets"] = deck_cards[size:]
    state["ritual_place"] = pos.get("ritual_place")
    if week_of(state["day"]) >= 5:
        for sid in ring:
            if state["sides"][sid] == "chosen" and sid in state["declared"]:
                state["joined"][sid] = state["declared"][sid]
