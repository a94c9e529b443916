"""Everything October Night shows to people, in the reader's language: the game's and its phases' names, the names
of sides and of the data's slugs (locations, characters, cards, tokens — from the data file's ``ru``/``en``), the log
message templates, how an event renders (the dice line "Аня fights the Ghoul: 4+2 + strength 3 = 9 against 9"),
an order and a seat in words. Form labels live with their forms (``forms.py``).

The default data file (``data/default.yaml``, OC-17) is read here once: its names are text; the module layer hands
the same parsed set to the engine (:func:`default_data`).
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from .engine import CODE_MESSAGES

DATA_FILE = Path(__file__).resolve().parent / "data" / "default.yaml"

NAME = _("October Night")
PHASE_KINDS = {"action": _("Action %(number)s"), "contact": _("Contact %(number)s"), "ritual": _("Ritual")}
SIDE_NAMES = {"summoners": _("summoners"), "keepers": _("keepers"), "chosen": _("chosen"), "nobody": _("nobody")}
SKILL_NAMES = {"strength": _("strength"), "magic": _("magic"), "communication": _("communication")}
ACTION_NAMES = {"rest": _("rest"), "heal": _("heal"), "trade": _("trade"), "buy": _("buy"), "travel": _("travel"),
                "fight": _("fight"), "ally": _("ally"), "foil": _("foil plans"), "none": _("nothing"),
                "use": _("use"), "ability": _("ability")}
DECK_NAMES = {"search": _("search"), "combat": _("combat"), "personal": _("personal")}
CONTACT_NAMES = {"auto": _("automatic"), "section": _("section"), "enemy": _("enemy"), "mystery": _("the mystery"),
                 "abandon": _("abandon the card")}
PURPOSES = {"buy": _("buys"), "section": _("searches"), "mystery": _("works on the mystery"),
            "enemy": _("fights"), "fight": _("fights")}

MESSAGES = {
    "oc.setup": _("The game begins: %(players)s. Side cards in play: %(deck)s."),
    "oc.your_side": _("Your side card: %(side)s. Show it to nobody."),
    "oc.phase_open": _("Week %(week)s, day %(day)s: %(stage)s. First player: %(first)s; turn order: %(order)s."),
    "oc.check": _("%(text)s"),
    "oc.fight": _("%(attacker)s attacks %(victim)s%(allies)s: %(a_value)s against %(v_value)s — %(winner)s wins."),
    "oc.spoils": _("%(player)s takes from %(victim)s: %(cards)s; clues: %(clues)s."),
    "oc.items_dealt": _("The things of %(player)s go to %(to)s."),
    "oc.out": _("%(player)s is out of the game."),
    "oc.void": _("%(player)s: the line “%(line)s” is void (%(code)s)."),
    "oc.no_action": _("%(player)s did not act."),
    "oc.rest": _("%(player)s rests (+%(health)s health)."),
    "oc.heal": _("%(player)s heals %(target)s (+%(health)s health)."),
    "oc.trade": _("%(player)s trades with %(partner)s: gives %(give)s, gets %(get)s."),
    "oc.buy": _("%(player)s buys %(cards)s."),
    "oc.travel": _("%(player)s travels from %(frm)s to %(to)s."),
    "oc.foil": _("%(player)s discards %(card)s to foil the plans of %(target)s."),
    "oc.learn": _("%(player)s learns %(ability)s."),
    "oc.use": _("%(player)s uses %(card)s (+%(health)s health)."),
    "oc.ability": _("%(player)s uses %(ability)s%(on)s."),
    "oc.insight": _("Insight: the side card of %(target)s is %(side)s."),
    "oc.declared": _("You declare for the %(side)s (secret until week 5)."),
    "oc.draw": _("%(player)s draws the %(deck)s contact “%(card)s”."),
    "oc.no_card": _("%(player)s finds no %(deck)s card to draw."),
    "oc.enemies_placed": _("Enemies of %(player)s appear at: %(locations)s."),
    "oc.reveal_enemy": _("%(player)s meets %(token)s at %(location)s (%(skill)s, modifier %(modifier)s, health "
                         "%(health)s)."),
    "oc.enemy": _("%(token)s: %(result)s."),
    "oc.clue": _("%(player)s gains a clue (%(clues)s in all)."),
    "oc.outcome": _("%(player)s: %(outcome)s."),
    "oc.completed": _("%(player)s completes “%(card)s”."),
    "oc.abandon": _("%(player)s abandons “%(card)s”."),
    "oc.no_contact": _("%(player)s has no contact here today."),
    "oc.mystery_open": _("%(player)s gives back 4 clues and lays out the mystery “%(mystery)s” (%(location)s)."),
    "oc.mystery_solved": _("%(player)s solves the mystery “%(mystery)s” (%(solved)s of 4)."),
    "oc.ritual_place": _("Four mysteries are solved: the ritual will be at %(location)s."),
    "oc.week": _("Week %(week)s begins: everyone in the game gains %(experience)s experience; abilities are "
                 "ready again."),
    "oc.chosen": _("%(player)s is the chosen and joins the %(side)s."),
    "oc.dropped": _("%(player)s can't reach the ritual and drops out."),
    "oc.ritual_open": _("The ritual at %(place)s. Sides: %(sides)s. Admitted: %(admitted)s. Sums: %(sums)s."),
    "oc.deadly_fight": _("%(breakers)s break the ritual: the deadly fight, %(values)s — the %(winner)s win."),
    "oc.ritual_sum": _("The ritual: %(sums)s — the %(winner)s win."),
    "oc.end": _("The game is over. Winner: %(winner)s (%(winners)s)."),
}

#: The master's seat edit (OC-11.6): the console's field names.
FIELD_NAMES = {"location": _("Location"), "health": _("Health"), "experience": _("Experience"),
               "strength": _("strength"), "magic": _("magic"), "communication": _("communication"),
               "clues": _("clues"), "assets": _("assets"), "ingredients": _("ingredients"),
               "abilities": _("abilities"), "used": _("Used this week"), "contact": _("Open contact")}

#: What the dashboard tells a player about his part in the open phase.
NEED_ACTION = _("%(phase)s: choose your action.")
NEED_CONTACT = _("%(phase)s: your contact is played automatically unless you choose.")
NEED_RITUAL = _("%(phase)s: you may break the ritual.")
DATA_EDIT = _("Data edit")
BOARD_EDIT = _("Board edit")
NEED_DONE = _("Your order for %(phase)s is in; you can change it until the deadline.")


@lru_cache(maxsize=1)
def _default_data() -> dict:
    return yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))


def default_data() -> dict:
    """OC-17: the default data set (a fresh copy of ``data/default.yaml``)."""
    return copy.deepcopy(_default_data())


def parse_data_set(text: str) -> dict:
    """OC-17: a whole data set from YAML ``text`` (the shape of ``data/default.yaml``). Raises ``yaml.YAMLError`` on
    bad YAML and ``TypeError`` when it is not a mapping of sections."""
    value = yaml.safe_load(text or "")
    if not isinstance(value, dict):
        raise TypeError("The data set must be a mapping of sections.")
    return value


@lru_cache(maxsize=1)
def _names() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for entries in _default_data().values():
        if isinstance(entries, list):
            for e in entries:
                if isinstance(e, Mapping) and e.get("slug"):
                    out.setdefault(e["slug"], {"ru": e.get("ru", e["slug"]), "en": e.get("en", e["slug"])})
    return out


def name(slug: Any) -> str:
    """A data slug (location, character, card, token, ability, mystery) in the active language; unknown slugs (a
    master's new entries) as given."""
    if slug is None:
        return "—"
    entry = _names().get(str(slug))
    if entry is None:
        return str(slug)
    return entry["ru"] if (get_language() or "ru").startswith("ru") else entry["en"]


def side_name(slug: Any) -> str:
    return str(SIDE_NAMES.get(str(slug), slug))


def names(slugs: Any) -> str:
    return ", ".join(name(s) for s in slugs or []) or "—"


def winner_label(slug: str) -> str:
    """A winning side (``summoners``, ``keepers``) in the active language."""
    return side_name(slug)


def dice_line(d: Mapping[str, Any]) -> str:
    """The public dice line of one check (OC-11.2): who rolled, what for, the dice, the total — "Аня fights the
    Ghoul: 4+2 + strength 3 = 9 against 9"; rerolls and foil dice are shown as rolled."""
    dice = "+".join(str(x) for x in d.get("dice") or [])
    if d.get("for") == "deadly_fight":
        members = ", ".join(d.get("members") or [])
        return gettext("The %(side)s (%(members)s) in the deadly fight: %(dice)s + fight values = %(total)s") % {
            "side": side_name(d.get("side")), "members": members, "dice": dice, "total": d.get("total")}
    skill = str(SKILL_NAMES.get(d.get("skill", ""), d.get("skill", "")))
    if d.get("for") == "fight":
        # The side's value: the leader's dice + each member's fight value (+ a fight bonus), OC-5.3.
        members = dict(d.get("members") or {})
        own = members.pop(d.get("player"), d.get("skill_value"))
        parts = [f"{skill} {own}"] + [f"{who} {v}" for who, v in sorted(members.items())]
        if d.get("bonus"):
            parts.append(gettext("bonus %(n)s") % {"n": d["bonus"]})
        text = gettext("%(player)s fights (%(role)s): %(dice)s + %(parts)s = %(total)s") % {
            "player": d.get("player"), "role": gettext("attacker") if d.get("role") == "attacker" else gettext(
                "victim"), "dice": dice, "parts": " + ".join(parts), "total": d.get("total")}
    else:
        what = str(PURPOSES.get(d.get("for", ""), d.get("for", "")))
        against = d.get("against") or ""
        if d.get("for") == "enemy":
            target = gettext(" the %(enemy)s") % {"enemy": name(against)}
        elif d.get("for") == "mystery":
            target = f" «{name(against)}»"
        else:
            target = ""
        bonus = gettext(" + bonus %(n)s") % {"n": d["bonus"]} if d.get("bonus") else ""
        text = gettext("%(player)s %(what)s%(target)s: %(dice)s + %(skill)s %(value)s%(bonus)s = %(total)s") % {
            "player": d.get("player"), "what": what, "target": target, "dice": dice, "skill": skill,
            "value": d.get("skill_value"), "bonus": bonus, "total": d.get("total")}
        if d.get("target") is not None:
            text += gettext(" against %(n)s") % {"n": d["target"]}
        text += gettext(" — %(n)s successes") % {"n": d.get("successes", 0)}
    if d.get("rolled") and list(d["rolled"]) != list(d.get("dice") or []):
        text += gettext(" (rolled %(rolled)s)") % {"rolled": "+".join(str(x) for x in d["rolled"])}
    if d.get("forced"):
        text += gettext(" [fixed dice]")
    return text


def outcome_text(outcome: Mapping[str, Any]) -> str:
    parts = []
    if outcome.get("ingredient"):
        parts.append(name(outcome["ingredient"]))
    if outcome.get("asset"):
        parts.append(name(outcome["asset"]))
    if outcome.get("experience"):
        parts.append(gettext("%(n)+d experience") % {"n": int(outcome["experience"])})
    if outcome.get("health"):
        parts.append(gettext("%(n)+d health") % {"n": int(outcome["health"])})
    if outcome.get("improve"):
        parts.append(gettext("%(skill)s +1") % {"skill": SKILL_NAMES.get(outcome["improve"], outcome["improve"])})
    return ", ".join(parts) or "—"


def _format(kind: str, params: Mapping[str, Any]) -> str:
    template = MESSAGES.get(kind)
    if template is None:
        return kind
    try:
        return str(template) % dict(params)
    except (KeyError, TypeError, ValueError):
        return str(template)


def render_event(kind: str, data: Mapping[str, Any]) -> str:
    """An ``oc.*`` event's text in the active language: slugs named from the data file, sides and skills in words,
    a check as its dice line (:func:`dice_line`)."""
    p: dict[str, Any] = dict(data)
    if kind == "oc.check":
        return dice_line(data)
    for key in ("location", "frm", "to", "card", "ability", "mystery", "token", "place"):
        if isinstance(data.get(key), str):
            p[key] = name(data[key])
    if "side" in data:
        p["side"] = side_name(data["side"])
    if isinstance(data.get("deck"), str):
        p["deck"] = str(DECK_NAMES.get(data["deck"], data["deck"]))
    if "skill" in data:
        p["skill"] = str(SKILL_NAMES.get(data["skill"], data["skill"]))
    if "winner" in data:
        p["winner"] = side_name(data["winner"]) if kind != "oc.fight" else (
            data["attacker"] if data["winner"] == "attacker" else data["victim"])
    if kind == "oc.setup":
        deck = data.get("deck") or {}  # JSONB reorders keys: the sides in their own order
        p["deck"] = ", ".join(f"{side_name(k)} {deck[k]}" for k in ("summoners", "keepers", "chosen") if deck.get(k))
        p["players"] = "; ".join(f"{r['player']} — {name(r['character'])} ({name(r['location'])})"
                                 for r in data.get("players") or [])
    elif kind == "oc.phase_open":
        p["stage"] = gettext("action phase") if data.get("stage") == "action" else gettext("contact phase")
        p["order"] = ", ".join(data.get("order") or [])
    elif kind == "oc.fight":
        allies = data.get("allies") or {}
        extra = []
        if allies.get("attacker"):
            extra.append(gettext("with %(names)s") % {"names": ", ".join(allies["attacker"])})
        if allies.get("victim"):
            extra.append(gettext("defended by %(names)s") % {"names": ", ".join(allies["victim"])})
        p["allies"] = f" ({'; '.join(extra)})" if extra else ""
        p["a_value"], p["v_value"] = data["values"]["attacker"], data["values"]["victim"]
    elif kind in ("oc.spoils", "oc.buy", "oc.trade"):
        for key in ("cards", "give", "get"):
            if key in data:
                p[key] = names(data[key])
    elif kind == "oc.items_dealt":
        p["to"] = "; ".join(f"{who}: {names(cards)}" for who, cards in (data.get("to") or {}).items()) or \
            gettext("the discard")
    elif kind == "oc.void":
        p["line"] = str(ACTION_NAMES.get(data.get("line", ""), data.get("line", "")))
        p["code"] = gettext(CODE_MESSAGES.get(data.get("code", ""), data.get("code", "")))
    elif kind == "oc.ability":
        p["on"] = gettext(" on %(target)s") % {"target": data["target"]} if data.get("target") else ""
    elif kind == "oc.enemies_placed":
        p["locations"] = names(data.get("locations"))
    elif kind == "oc.enemy":
        if data.get("defeated"):
            p["result"] = gettext("defeated")
        else:
            p["result"] = gettext("%(n)s health left") % {"n": data.get("enemy_health")}
        if data.get("hurt"):
            p["result"] += gettext("; %(player)s loses 1 health") % {"player": data.get("player")}
    elif kind == "oc.outcome":
        p["outcome"] = outcome_text(data.get("outcome") or {})
    elif kind == "oc.ritual_open":
        p["sides"] = ", ".join(f"{k}: {side_name(v)}" for k, v in (data.get("sides") or {}).items())
        p["admitted"] = ", ".join(f"{k} ({gettext('full') if v == 'full' else gettext('half')})"
                                  for k, v in (data.get("admitted") or {}).items()) or "—"
        p["sums"] = ", ".join(f"{side_name(k)} {v}" for k, v in (data.get("sums") or {}).items())
    elif kind in ("oc.deadly_fight", "oc.ritual_sum"):
        p["breakers"] = ", ".join(data.get("breakers") or [])
        for key in ("values", "sums"):
            if key in data:
                p[key] = ", ".join(f"{side_name(k)} {v}" for k, v in data[key].items())
    elif kind == "oc.end":
        p["winners"] = ", ".join(data.get("winners") or []) or "—"
    return _format(kind, p)


def seat_facts(data: Mapping[str, Any], *, secret: bool) -> list[tuple[str, str]]:
    """The seats table: the character (public); the side card in the secret part (OC-1.2)."""
    facts = []
    if data.get("character"):
        facts.append((gettext("Character"), name(data["character"])))
    if secret and data.get("side"):
        facts.append((gettext("Side card"), side_name(data["side"])))
    return facts


def order_lines(*, payload: Mapping[str, Any], seat_data: Mapping[str, Any],
                seat_names: Mapping[int, str]) -> list[str]:
    """An order version in words: the action, the contact line, the ritual's deadly fight and the free lines."""
    def who(v: Any) -> str:
        try:
            return seat_names.get(int(v), str(v))
        except (TypeError, ValueError):
            return str(v)

    lines = []
    action = payload.get("action") or {}
    kind = action.get("kind")
    if kind:
        text = str(ACTION_NAMES.get(kind, kind)).capitalize()
        target = action.get("target", action.get("with"))
        if target is not None:
            text += f": {who(target)}"
        if kind == "travel":
            text += f" → {name(action.get('to'))}"
        if kind == "buy":
            text += f": {names(action.get('cards'))}"
        if kind == "trade":
            text += gettext(" (give %(give)s, get %(get)s)") % {"give": names(action.get("give")),
                                                                "get": names(action.get("get"))}
        if kind == "foil":
            text += gettext(", discarding %(card)s") % {"card": name(action.get("discard"))}
        lines.append(text + ".")
    contact = payload.get("contact") or {}
    if contact:
        ck = contact.get("kind", "auto")
        extra = f" {contact['section']}" if ck == "section" else (f" {name(contact.get('enemy'))}"
                                                                   if ck == "enemy" else "")
        lines.append(gettext("Contact: %(kind)s%(extra)s.") % {"kind": CONTACT_NAMES.get(ck, ck), "extra": extra})
    for a in payload.get("abilities") or []:
        lines.append(gettext("Ability: %(ability)s.") % {"ability": name(a.get("ability"))})
    if payload.get("learn"):
        lines.append(gettext("Learn %(ability)s.") % {"ability": name(payload["learn"])})
    for card in payload.get("use") or []:
        lines.append(gettext("Use %(card)s.") % {"card": name(card)})
    for acc in payload.get("accept_trades") or []:
        lines.append(gettext("Accept the trade of %(name)s.") % {"name": who(acc.get("from"))})
    if payload.get("side"):
        lines.append(gettext("Declare for the %(side)s.") % {"side": side_name(payload["side"])})
    if payload.get("deadly_fight"):
        lines.append(gettext("Break the ritual: the deadly fight."))
    return lines or [gettext("Nothing.")]


def field_text(key: str, value: Any) -> str:
    """One field of the master's seat edit in words."""
    if key in ("location", "contact"):
        return name(value) if value else gettext("none")
    if isinstance(value, list):
        return names(value)
    return str(value)


def master_edit_lines(*, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """A master's seat edit of the audit log in words: "Health: 3 → 6" per changed key (OC-11.6)."""
    return [f"{FIELD_NAMES.get(k, k)}: {field_text(k, before.get(k))} → {field_text(k, after.get(k))}"
            for k in after]
