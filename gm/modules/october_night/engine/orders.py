"""Order validation (OC-4, OC-5.1, OC-5.2, OC-6.8, OC-9.3, OC-12.1, OC-14, OC-15.3, OC-1.3) with the refusal codes of
OC-18.

A line is checked against the state at the start of the phase (OC-4.12): every bad line of an order is refused at
once with its code, rule ID and field (OC-11.7). Payload shapes (``scenario-format.md``, ``october_night``):
action phase ``{"action": {...}, "accept_trades": [...], "abilities": [...], "learn": slug, "use": [...],
"side": ...}``; contact phase ``{"contact": {...}, "abilities", "learn", "use", "side"}``; ritual
``{"deadly_fight": true}``. Seats are named by int ids.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.core.engine import RuleError

from .data import distance
from .state import ACTION_FAMILY, ACTIONS, CONTACT_KINDS, SIDES, by_slug, in_game, refusal, settings, violation, week_of

#: The keys an order may have in each phase kind (OC-4.10, OC-6.8, OC-9.3).
PAYLOAD_KEYS = {"action": ("action", "accept_trades", "abilities", "learn", "use", "side"),
                "contact": ("contact", "abilities", "learn", "use", "side"), "ritual": ("deadly_fight",)}


def enemy_at(state: Mapping[str, Any], location: str | None) -> bool:
    """OC-4.13: whether an enemy token (any, face down or not, stray or owned) is on ``location``."""
    return any(e["location"] == location for e in state.get("enemies") or [])


def _sid(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return str(int(value))
    except (TypeError, ValueError):
        return None


def _cards(value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise TypeError
    return list(value)


def holds(player: Mapping[str, Any], cards: list[str]) -> bool:
    """Whether ``player`` holds every card of ``cards`` (as a multiset)."""
    pool = list(player["assets"]) + list(player["ingredients"])
    for c in cards:
        if c not in pool:
            return False
        pool.remove(c)
    return True


def ability_lines(state: Mapping[str, Any], sid: str, lines: Any, kind: str, errors: list[RuleError]) -> list[dict]:
    """OC-14.2, OC-14.3: ability lines ``[{ability, target, pay}]`` of a seat in an ``action`` or ``contact``
    phase: held (``not_your_ability``, a learned one only from the next phase, OC-14.1a), not used this week
    (``ability_used``), usable in this phase (``wrong_phase``), with the target (``missing_field``, ``self``,
    ``not_here``, ``target_out``) and payment (``missing_field``, ``not_held``) its data needs."""
    out: list[dict] = []
    if lines in (None, []):
        return out
    if not isinstance(lines, list):
        errors.append(refusal("bad_value", "abilities"))
        return out
    me = state["players"][sid]
    abilities = by_slug(state["data"], "abilities")
    seen: set[str] = set()
    for i, line in enumerate(lines):
        field = f"abilities.{i}"
        if not isinstance(line, Mapping) or line.get("ability") not in abilities:
            errors.append(refusal("not_your_ability", field))
            continue
        slug = line["ability"]
        data = abilities[slug]
        effect = data.get("effect") or {}
        if slug not in me["abilities"]:
            errors.append(refusal("not_your_ability", field, ability=slug))
            continue
        if slug in me["used"] or slug in seen:
            errors.append(refusal("ability_used", field, ability=slug))
            continue
        if data.get("phase", "any") not in ("any", kind):
            errors.append(refusal("wrong_phase", field, ability=slug))
            continue
        norm: dict[str, Any] = {"ability": slug}
        target = _sid(line.get("target"))
        needs_target = effect.get("target") == "other" or "insight" in effect
        if target is None and needs_target:
            errors.append(refusal("missing_field", field + ".target", ability=slug))
            continue
        if target is not None and (effect.get("target") in ("other", "self_or_other") or "insight" in effect):
            if target not in state["players"]:
                errors.append(refusal("bad_value", field + ".target"))
                continue
            if target == sid and effect.get("target") != "self_or_other":
                errors.append(refusal("self", field + ".target", ability=slug))
                continue
            if not in_game(state, target):
                errors.append(refusal("target_out", field + ".target"))
                continue
            if state["players"][target]["location"] != me["location"]:
                errors.append(refusal("not_here", field + ".target"))
                continue
            norm["target"] = int(target)
        cost = data.get("cost") or {}
        if cost.get("ingredient"):
            pay = line.get("pay")
            if not pay:
                errors.append(refusal("missing_field", field + ".pay", ability=slug))
                continue
            if pay not in me["ingredients"]:
                errors.append(refusal("not_held", field + ".pay", card=pay))
                continue
            norm["pay"] = pay
        seen.add(slug)
        out.append(norm)
    return out


def free_lines(state: Mapping[str, Any], sid: str, payload: Mapping[str, Any], kind: str,
               errors: list[RuleError]) -> dict:
    """OC-4.10: the free lines of an action or contact order — abilities, ``learn`` (OC-14.1: ``not_on_sheet``,
    ``low_experience``), ``use`` (OC-15.3: ``not_held``, ``no_use``), ``side`` (OC-1.3: ``not_chosen``,
    ``too_late``)."""
    me = state["players"][sid]
    out: dict[str, Any] = {}
    abilities = ability_lines(state, sid, payload.get("abilities"), kind, errors)
    if abilities:
        out["abilities"] = abilities
    learn = payload.get("learn")
    if learn:
        sheet = by_slug(state["data"], "characters")[me["character"]]
        if learn not in (sheet.get("abilities") or []) or learn in me["abilities"]:
            errors.append(refusal("not_on_sheet", "learn", ability=learn))
        elif me["experience"] < int(settings(state)["ability_cost"]) + 1:
            errors.append(refusal("low_experience", "learn"))
        else:
            out["learn"] = learn
    uses = payload.get("use")
    if uses:
        try:
            cards = _cards(uses if isinstance(uses, list) else [uses])
        except TypeError:
            errors.append(refusal("bad_value", "use"))
            cards = []
        items = {**by_slug(state["data"], "assets"), **by_slug(state["data"], "ingredients")}
        ok: list[str] = []
        for card in cards:
            if not holds(me, ok + [card]):
                errors.append(refusal("not_held", "use", card=card))
            elif not (items.get(card) or {}).get("use"):
                errors.append(refusal("no_use", "use", card=card))
            else:
                ok.append(card)
        if ok:
            out["use"] = ok
    side = payload.get("side")
    if side:
        if state["sides"].get(sid) != "chosen":
            errors.append(refusal("not_chosen", "side"))
        elif week_of(state["day"]) >= 5:
            errors.append(refusal("too_late", "side"))
        elif side not in SIDES:
            errors.append(refusal("bad_value", "side"))
        else:
            out["side"] = side
    return out


def validate_action(state: Mapping[str, Any], sid: str, payload: Mapping[str, Any]) -> dict:
    """OC-4: one action phase order. Returns the normalised payload; raises :class:`RuleViolation`."""
    errors: list[RuleError] = []
    me = state["players"][sid]
    data = state["data"]
    st = settings(state)
    out = free_lines(state, sid, payload, "action", errors)
    here = me["location"]
    week = week_of(state["day"])
    swift = any(a["ability"] for a in out.get("abilities", [])
                if "swift" in (by_slug(data, "abilities")[a["ability"]].get("effect") or {}))
    long_step = max([int((by_slug(data, "abilities")[a["ability"]].get("effect") or {}).get("long_step", 1))
                     for a in out.get("abilities", [])] + [1])
    action = payload.get("action")
    if action:
        kind = action.get("kind") if isinstance(action, Mapping) else None
        if kind not in ACTIONS:
            errors.append(refusal("bad_value", "action"))
        else:
            norm: dict[str, Any] = {"kind": kind}
            family = ACTION_FAMILY.get(kind, kind)
            n_before = len(errors)
            if me.get("last_action") == family and me.get("last_day") == state["day"] - 1 and not (
                    kind == "travel" and swift):
                errors.append(refusal("repeated_action", "action"))
            if kind in ("fight", "ally") and week == 1:
                errors.append(refusal("week_one", "action"))
            if kind in ("rest", "heal", "buy") and enemy_at(state, here):
                errors.append(refusal("enemy_present", "action"))
            if kind in ("heal", "trade", "fight", "ally", "foil"):
                key = "with" if kind in ("trade", "ally") else "target"
                other = _sid(action.get(key))
                if other is None or other not in state["players"]:
                    errors.append(refusal("missing_field", f"action.{key}"))
                elif other == sid:
                    errors.append(refusal("self", f"action.{key}"))
                elif not in_game(state, other):
                    errors.append(refusal("target_out", f"action.{key}"))
                elif kind == "foil":
                    if distance(data, here, state["players"][other]["location"]) > int(st["foil_range"]):
                        errors.append(refusal("out_of_range", "action.target"))
                elif state["players"][other]["location"] != here:
                    errors.append(refusal("not_here", f"action.{key}"))
                if other is not None:
                    norm[key] = int(other)
            if kind == "trade":
                try:
                    give, get = _cards(action.get("give")), _cards(action.get("get"))
                except TypeError:
                    give, get = [], []
                if not give and not get:
                    errors.append(refusal("empty_lists", "action.give"))
                if not holds(me, give):
                    errors.append(refusal("not_held", "action.give"))
                partner = _sid(action.get("with"))
                if partner in state["players"] and not holds(state["players"][partner], get):
                    errors.append(refusal("not_held", "action.get"))
                norm.update(give=give, get=get)
            elif kind == "buy":
                try:
                    cards = _cards(action.get("cards"))
                except TypeError:
                    cards = []
                locs = by_slug(data, "locations")
                if (locs.get(here) or {}).get("kind") != "town":
                    errors.append(refusal("not_town", "action"))
                if not cards:
                    errors.append(refusal("empty_lists", "action.cards"))
                for c in cards:
                    if c not in (state.get("reserve") or []):
                        errors.append(refusal("not_in_reserve", "action.cards", card=c))
                norm["cards"] = cards
            elif kind == "travel":
                to = action.get("to")
                if to not in by_slug(data, "locations") or not 1 <= distance(data, here, to) <= long_step:
                    errors.append(refusal("not_adjacent", "action.to"))
                norm["to"] = to
            elif kind == "fight":
                try:
                    take = _cards(action.get("take"))
                except TypeError:
                    take = []
                if len(take) > int(st["spoils_cards"]):
                    errors.append(refusal("too_many_cards", "action.take"))
                if take:
                    norm["take"] = take
            elif kind == "foil":
                discard = action.get("discard")
                if not isinstance(discard, str) or not holds(me, [discard]):
                    errors.append(refusal("not_held", "action.discard"))
                norm["discard"] = discard
            if len(errors) == n_before:
                out["action"] = norm
    accepts = payload.get("accept_trades")
    if accepts:
        good = []
        for i, acc in enumerate(accepts if isinstance(accepts, list) else []):
            frm = _sid(acc.get("from")) if isinstance(acc, Mapping) else None
            if frm is None or frm not in state["players"]:
                errors.append(refusal("missing_field", f"accept_trades.{i}.from"))
                continue
            if frm == sid:
                errors.append(refusal("self", f"accept_trades.{i}.from"))
                continue
            try:
                give, get = _cards(acc.get("give")), _cards(acc.get("get"))
            except TypeError:
                errors.append(refusal("bad_value", f"accept_trades.{i}"))
                continue
            if not give and not get:
                errors.append(refusal("empty_lists", f"accept_trades.{i}"))
                continue
            if not holds(me, give):
                errors.append(refusal("not_held", f"accept_trades.{i}.give"))
                continue
            good.append({"from": int(frm), "give": give, "get": get})
        if good:
            out["accept_trades"] = good
    if errors:
        raise violation(errors)
    return out


def validate_contact(state: Mapping[str, Any], sid: str, payload: Mapping[str, Any]) -> dict:
    """OC-6.8, OC-13.3: one contact phase order. Returns the normalised payload; raises :class:`RuleViolation`."""
    errors: list[RuleError] = []
    me = state["players"][sid]
    data = state["data"]
    out = free_lines(state, sid, payload, "contact", errors)
    line = payload.get("contact")
    if line:
        kind = line.get("kind") if isinstance(line, Mapping) else None
        card = me.get("contact")
        if kind not in CONTACT_KINDS:
            errors.append(refusal("bad_value", "contact"))
        elif kind == "section":
            n = line.get("section")
            if not card or card["type"] not in ("search", "personal"):
                errors.append(refusal("no_contact", "contact"))
            elif not isinstance(n, int) or not 1 <= n <= 3:
                errors.append(refusal("bad_value", "contact.section"))
            elif n in card.get("done", []):
                errors.append(refusal("section_done", "contact.section"))
            else:
                section = by_slug(data, card["type"] + "_contacts")[card["card"]]["sections"][n - 1]
                if section["location"] != me["location"]:
                    errors.append(refusal("not_at_location", "contact.section"))
                else:
                    out["contact"] = {"kind": "section", "section": n}
        elif kind == "enemy":
            token = line.get("enemy")
            mine = [e for e in state.get("enemies") or [] if e["owner"] == sid and e["token"] == token]
            if not mine:
                errors.append(refusal("no_contact", "contact.enemy"))
            elif mine[0]["location"] != me["location"]:
                errors.append(refusal("not_at_location", "contact.enemy"))
            else:
                out["contact"] = {"kind": "enemy", "enemy": token}
        elif kind == "mystery":
            open_ = (state.get("mysteries") or {}).get("open")
            if not open_:
                errors.append(refusal("no_mystery", "contact"))
            else:
                where = by_slug(data, "mysteries")[open_].get("location")
                if where is not None and where != me["location"]:
                    errors.append(refusal("not_at_location", "contact"))
                else:
                    out["contact"] = {"kind": "mystery"}
        elif kind == "abandon":
            if not card:
                errors.append(refusal("no_contact", "contact"))
            else:
                out["contact"] = {"kind": "abandon"}
        else:
            out["contact"] = {"kind": "auto"}
    if errors:
        raise violation(errors)
    return out


def validate_ritual(state: Mapping[str, Any], sid: str, payload: Mapping[str, Any]) -> dict:
    """OC-9.3: ``deadly_fight`` only from an admitted player at the ritual place (``not_admitted``)."""
    if not payload.get("deadly_fight"):
        return {}
    if (state.get("ritual") or {}).get("distance", {}).get(sid) != 0:
        raise violation([refusal("not_admitted", "deadly_fight")])
    return {"deadly_fight": True}


def validate_order(state: Mapping[str, Any], *, kind: str, sid: str, payload: Mapping[str, Any]) -> dict:
    """Validate seat ``sid``'s order ``payload`` for the open phase ``kind`` (``action``, ``contact``, ``ritual``)
    against the state at the start of the phase (OC-4.12). A player out of the game gives no orders
    (``out_of_game``, OC-2.6). Returns the normalised payload; raises :class:`RuleViolation` with every error."""
    if not isinstance(payload, Mapping):
        raise violation([refusal("bad_value")])
    if sid not in state["players"] or not in_game(state, sid):
        raise violation([refusal("out_of_game")])
    if kind != state.get("stage"):
        raise violation([refusal("wrong_stage")])
    unknown = [key for key in payload if key not in PAYLOAD_KEYS.get(kind, ())]
    if unknown:  # an action line in a contact phase, a typo: refused, never silently dropped
        raise violation([refusal("wrong_stage", key) for key in unknown])
    if kind == "action":
        return validate_action(state, sid, payload)
    if kind == "contact":
        return validate_contact(state, sid, payload)
    return validate_ritual(state, sid, payload)
