"""Everything Bloodwood shows to people, in the reader's language: the game's and its steps' names, card, entity,
team, DNA, marker and deck names, the log message templates and how each line renders (BW-25, BW-25b), refusals in
words (BW-26), a seat and an order in words. Form labels live with their forms (``forms.py``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

NAME = _("Bloodwood")
PHASE_KINDS = {
    "turn": _("Turn %(number)s"),
    "reaction": _("Answer, turn %(number)s"),
    "discard": _("Leshy discards, turn %(number)s"),
    "give": _("Gives to the Hunter, turn %(number)s"),
    "keep": _("Keeping cards, turn %(number)s"),
    "refill": _("Drawing cards, turn %(number)s"),
}

CARD_NAMES = {
    "bite": _("Bite"), "curse_mark": _("Curse Mark"), "chains": _("Chains"), "tranquilizer": _("Tranquilizer"),
    "voodoo": _("Voodoo"), "leshy": _("The Leshy"), "hunter": _("The Hunter"), "mirror": _("Mirror"),
    "vaccine": _("Vaccine"), "candle": _("Candle"), "keys": _("Keys"), "pandoras_box": _("Pandora's Box"),
    "thief": _("Thief"), "blood_test": _("Blood Test"), "confession": _("Confession"), "amulet": _("Amulet"),
    "eclipse": _("Eclipse"), "time_loop": _("Time Loop"),
}
ENTITY_NAMES = {"vampire": _("Vampire"), "dracula": _("Dracula"), "werewolf": _("Werewolf"),
                "the_alpha": _("The Alpha")}
TEAM_NAMES = {"vampires": pgettext_lazy("bloodwood team", "vampires"),
              "werewolves": pgettext_lazy("bloodwood team", "werewolves"),
              "none": pgettext_lazy("bloodwood team", "nobody")}
DNA_NAMES = {"purity": _("Purity"), "mutated": _("Mutated"), "permanent": _("mutated for ever")}
PHASE_NAMES = {"day": _("Day"), "night": _("Night")}
DECK_NAMES = {"day": _("the day deck"), "night": _("the night deck")}
DIRECTION_NAMES = {"clockwise": _("clockwise"), "counterclockwise": _("counterclockwise")}
STEP_NAMES = {"turn": _("move"), "reaction": _("answer"), "discard": _("discard two cards"),
              "give": _("give a card"), "keep": _("keep cards"), "refill": _("draw cards")}
ANSWER_NAMES = {"amulet": _("Amulet"), "mirror": _("Mirror"), "pass": _("let it through")}

MESSAGES = {
    "bw.setup": _("The game begins by Day; %(player)s moves first."),
    "bw.entity": _("Your entity: %(entity_name)s (team: %(team_name)s)."),
    "bw.leader": _("As a leader you see every entity: %(entities_text)s."),
    "bw.dealer": _("You dealt this game and know every entity: %(entities_text)s."),
    "bw.play": _("%(player)s plays %(card_name)s%(on_target)s."),
    "bw.answer": _("%(player)s answers: %(answer_name)s."),
    "bw.dna": _("%(player)s's DNA: %(dna_name)s."),
    "bw.marked": _("A Curse Mark lies by %(player)s: %(count)s of his turns to get rid of it."),
    "bw.mark_passed": _("The Curse Mark passes from %(from)s to %(player)s: %(count)s turns."),
    "bw.mark_count": _("%(player)s still carries the Curse Mark: %(count)s turn(s) left."),
    "bw.permanent": _("%(player)s did not get rid of the Curse Mark and is mutated for ever."),
    "bw.deadlock": _("Every player is mutated for ever: nobody can declare; the game ends with no winner."),
    "bw.master_end": _("The master ends the game with no winner."),
    "bw.marker": _("%(marker_name)s lies by %(player)s."),
    "bw.unmarked": _("%(marker_name)s is taken from %(player)s."),
    "bw.no_effect": _("The reflected %(card_name)s has no effect on %(player)s."),
    "bw.discard": _("%(player)s discards %(cards_text)s."),
    "bw.penalty": _("%(player)s loses %(cards_text)s for inattention."),
    "bw.voodoo_got": _("Voodoo: you received %(cards_text)s from %(target)s."),
    "bw.voodoo": _("Voodoo: %(target)s handed %(handed)s card(s) to %(player)s and got %(back)s back."),
    "bw.voodoo_back": _("Voodoo: %(player)s gave you back %(cards_text)s."),
    "bw.hunter": _("The Hunter: %(player)s received %(count)s card(s) (%(counts_text)s)."),
    "bw.gave": _("You gave %(card_name)s to %(hunter)s."),
    "bw.hunter_got": _("The Hunter: you received %(gives_text)s."),
    "bw.thief": _("%(player)s steals a card from %(target)s."),
    "bw.stolen": _("Thief: the card taken from %(target)s is %(card_name)s."),
    "bw.blood_test": _("You played Blood Test on %(target)s."),
    "bw.seen": _("%(player)s's entity: %(entity_name)s (team: %(team_name)s)."),
    "bw.confession": _("%(player)s shows his entity to %(target)s."),
    "bw.eclipse": _("Eclipse: %(player)s turns the phase to %(phase_name)s and begins it."),
    "bw.time_loop": _("Time Loop: the turns now go %(direction_name)s, beginning with %(player)s."),
    "bw.extra_turn": _("%(player)s takes an extra turn."),
    "bw.refill": _("%(player)s draws %(day)s from the day deck and %(night)s from the night deck."),
    "bw.drawn": _("You drew %(cards_text)s."),
    "bw.reshuffle": _("%(deck_name)s is rebuilt from the discard pile with %(count)s card(s)."),
    "bw.skip": _("%(player)s is tranquilized and skips his turn; the Tranquilizer is discarded."),
    "bw.missed": _("%(player)s missed his turn."),
    "bw.phase": _("The phase turns to %(phase_name)s; %(player)s begins it."),
    "bw.declaration": _("%(player)s declares the end of the game, naming %(text)s: %(right_text)s."),
    "bw.result": _("The game is over: the %(winner_name)s win (%(text)s)."),
}

NEED = {
    "turn": _("Your move in %(phase)s."),
    "reaction": _("You are attacked: answer in %(phase)s."),
    "discard": _("The Leshy: discard two cards in %(phase)s."),
    "give": _("The Hunter: give a card in %(phase)s."),
    "keep": _("Choose the cards you keep in %(phase)s."),
    "refill": _("Draw your cards in %(phase)s."),
}
NEED_DONE = _("Your line for %(phase)s is in.")


def card_name(slug: str) -> str:
    return str(CARD_NAMES.get(slug, slug))


def cards_text(cards: Any) -> str:
    """Cards in words, in their order (``nothing`` when there is none)."""
    cards = list(cards or [])
    return ", ".join(card_name(c) for c in cards) if cards else gettext("nothing")


def entity_name(slug: str) -> str:
    return str(ENTITY_NAMES.get(slug, slug))


def team_name(slug: str) -> str:
    return str(TEAM_NAMES.get(slug, slug))


def winner_label(slug: str) -> str:
    """A winner slug of the outcome (``vampires``, ``werewolves``, ``none``) in words."""
    return team_name(slug)


def refusal_text(code: str, message: str, params: Mapping[str, Any] | None = None) -> str:
    """A refusal (BW-26) in the reader's language."""
    text = gettext(message)
    return text % dict(params) if params else text


def _params(data: Mapping[str, Any]) -> dict[str, Any]:
    p: dict[str, Any] = {k: v for k, v in data.items() if not isinstance(v, (list, dict))}
    p.setdefault("player", "")
    p.setdefault("target", "")
    if "card" in data:
        p["card_name"] = card_name(data["card"])
        p["answer_name"] = str(ANSWER_NAMES.get(data["card"], card_name(data["card"])))
    p["on_target"] = gettext(" on %(target)s") % {"target": data["target"]} if data.get("target") else ""
    p["cards_text"] = cards_text(data.get("cards"))
    for key, table in (("entity", ENTITY_NAMES), ("team", TEAM_NAMES), ("dna", DNA_NAMES), ("phase", PHASE_NAMES),
                       ("deck", DECK_NAMES), ("direction", DIRECTION_NAMES), ("marker", CARD_NAMES),
                       ("winner", TEAM_NAMES)):
        if key in data:
            p[f"{key}_name"] = str(table.get(data[key], data[key]))
    if "entities" in data:
        p["entities_text"] = "; ".join(f"{e['player']}: {entity_name(e['entity'])}" for e in data["entities"])
    if "counts" in data:
        p["counts_text"] = ", ".join(f"{name}: {n}" for name, n in data["counts"].items())
    if "gives" in data:
        p["gives_text"] = ", ".join(f"{g['player']}: {card_name(g['card'])}" for g in data["gives"]) or \
            gettext("nothing")
    if "right" in data:
        p["right_text"] = gettext("right") if data["right"] else gettext("wrong")
    p.setdefault("text", "")
    return p


def render_event(kind: str, data: Mapping[str, Any]) -> str:
    """A log line in the reader's language (BW-25)."""
    template = MESSAGES.get(kind)
    if template is None:
        return kind
    try:
        return str(template) % _params(data)
    except (KeyError, TypeError, ValueError):
        return str(template)


def seat_facts(data: Mapping[str, Any], *, secret: bool) -> list[tuple[str, str]]:
    """A seat's data in words: its entity and team (secret, BW-3)."""
    if not secret or not data.get("entity"):
        return []
    return [(gettext("Entity"), entity_name(data["entity"])), (gettext("Team"), team_name(data.get("team", "")))]


def order_lines(*, payload: Mapping[str, Any], seat_data: Mapping[str, Any],
                seat_names: Mapping[int, str]) -> list[str]:
    """One line of a step in words, for the full reveal after the game."""
    if payload.get("move") == "play":
        target = seat_names.get(int(payload["target"]), "?") if payload.get("target") is not None else ""
        line = gettext("Play %(card)s") % {"card": card_name(payload["card"])}
        return [line + (gettext(" on %(target)s") % {"target": target} if target else "")]
    if payload.get("move") in ("discard", "penalty"):
        return [gettext("Discard %(cards)s") % {"cards": cards_text(payload.get("cards") or [payload.get("card")])}]
    if "react" in payload:
        return [gettext("Answer: %(answer)s") % {"answer": ANSWER_NAMES.get(payload["react"], payload["react"])}]
    if "discard" in payload:
        return [gettext("Discard %(cards)s") % {"cards": cards_text(payload["discard"])}]
    if "give" in payload:
        return [gettext("Give %(card)s") % {"card": card_name(payload["give"])}]
    if "keep" in payload:
        return [gettext("Keep %(cards)s") % {"cards": cards_text(payload["keep"])}]
    if "refill" in payload:
        split = payload["refill"]
        return [gettext("Draw %(day)s day and %(night)s night cards") % {"day": split.get("day", 0),
                                                                          "night": split.get("night", 0)}]
    return []


#: The master's audited actions of this module (``GameModule.audit_actions``), shown in the console's audit log.
END_NO_WINNER = _("End the game with no winner")
REMATCH = _("Rematch: the winner deals")

#: The master's seat edit fields (BW-22g), by key.
SEAT_FIELD_NAMES = {"hand": _("Hand"), "dna": _("DNA"), "curse_mark": _("Curse Mark"), "chains": _("Chains"),
                    "tranquilizer": _("Tranquilizer")}


def seat_field_text(key: str, value: Any) -> str:
    """One field of the master's seat edit in words: cards by name, DNA by name, the Curse Mark's turns left."""
    if key == "hand":
        return cards_text(value)
    if key == "dna":
        return str(DNA_NAMES.get(value, value))
    if value is None:
        return gettext("none")
    if key == "curse_mark":
        return gettext("%(count)s turn(s) left") % {"count": value}
    return gettext("yes") if value else gettext("none")


def master_edit_lines(*, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """A master's seat edit as lines for the audit log: "Hand: Bite, Amulet → Thief"."""
    return [f"{SEAT_FIELD_NAMES.get(k, k)}: {seat_field_text(k, before.get(k))} → {seat_field_text(k, v)}"
            for k, v in after.items()]
