"""A forum Mafia seat in words: its facts in the seats table and the full reveal (FM-2–FM-4, FM-10), and the
master's console — the seat summary, the edit form's fields with their choices (FM-4.2, FM-7.5, FM-8, FM-2.3) and an
edit of the audit log in words."""
from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cards.deckrules import COLOUR_NAMES

from ..engine import master_edit
from ..engine.roles import FACTION_NAMES, PUBLIC_ROLES
from ..engine.state import game_collection
from . import RESULT_NAMES, card_name, cards_text, public_role_name, secret_role_name


def seat_facts(data: Mapping[str, Any], *, secret: bool) -> list[tuple[str, str]]:
    """The seats table and the full reveal: publicly the claimed role and the Hand count (FM-2, FM-5.1); the
    secret part (FM-3, FM-4) — secret role and faction, colours, Hand (in order), Sleeve, deck (top first, when
    the viewer may see its order) or its count, discard pile, and the deck as built. ``(label, text)`` pairs."""
    if not secret:
        facts = []
        if data.get("public_role"):
            facts.append((gettext("Public role"), public_role_name(data["public_role"])))
        if "hand_count" in data:
            facts.append((gettext("Cards in Hand"), str(data["hand_count"])))
        return facts
    facts = []
    role = data.get("secret_role")
    if role:
        faction = data.get("faction")
        text = secret_role_name(role)
        if faction:
            text += f" ({gettext(FACTION_NAMES.get(faction, faction))})"
        facts.append((gettext("Secret role"), text))
    if role == "joker" and data.get("joker_colours"):
        facts.append((gettext("Colours"), ", ".join(gettext(COLOUR_NAMES[c]) for c in data["joker_colours"]
                                                     if c in COLOUR_NAMES)))
    if data.get("result") in RESULT_NAMES:  # set at the end of the game (FM-10, FM-10.H1)
        facts.append((gettext("Result"), str(RESULT_NAMES[data["result"]])))
    cards = data.get("cards")
    if isinstance(cards, Mapping):
        def names(key: str) -> str:
            return ", ".join(card_name(c.get("kind", "")) for c in cards.get(key) or []
                             if isinstance(c, Mapping)) or "—"

        facts.append((gettext("Hand"), names("hand")))
        facts.append((gettext("Sleeve"), names("sleeve")))
        if "deck" in cards:
            facts.append((gettext("Deck (top first)"), names("deck")))
        elif "deck_count" in cards:
            facts.append((gettext("Cards in the deck"), str(cards["deck_count"])))
        facts.append((gettext("Discard pile"), names("discard")))
    built = [e.get("kind", "") for e in data.get("deck_list") or [] if isinstance(e, Mapping)]
    if built:  # FM-4: the deck as submitted (all there is while the decks are being built)
        counts: dict[str, int] = {}
        for kind in built:
            counts[kind] = counts.get(kind, 0) + 1
        facts.append((gettext("Deck as built"), ", ".join(
            card_name(k) + (f" × {n}" if n > 1 else "") for k, n in sorted(counts.items(),
                                                                        key=lambda kn: card_name(kn[0])))))
    return facts


def master_seat_summary(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The console's seat summary: the secret role (FM-3), the claimed public role (FM-2) and the faction."""
    rows = [(str(_("Secret role")), secret_role_name(data.get("secret_role", "")))]
    if data.get("public_role"):
        rows.append((str(_("Public role")), public_role_name(data["public_role"])))
    if data.get("faction"):
        rows.append((str(_("Faction")), gettext(FACTION_NAMES.get(data["faction"], data["faction"]))))
    return rows


def master_field(key: str, value: Any) -> tuple[str, str]:
    """One editable field of :func:`..engine.master_edit.seat_fields` as ``(label, value in words)``."""
    if key in ("hand", "sleeve", "deck", "discard"):
        labels = {"hand": gettext("Hand (front first)"), "sleeve": gettext("Sleeve"),
                  "deck": gettext("Deck (top first)"), "discard": gettext("Discard pile")}
        return labels[key], cards_text(value)
    if key == "jail":
        return (gettext("Jail: phases left (0: free)"),
                ngettext("%(n)s phase", "%(n)s phases", value) % {"n": value} if value else gettext("not in jail"))
    if key == "handcuffs":
        return (gettext("Handcuffs"), gettext("Night %(number)s") % {"number": value} if value
                else gettext("not handcuffed"))
    if key == "public_role":
        return gettext("Public role"), public_role_name(value) if value else "—"
    return key, str(value)


@lru_cache(maxsize=64)
def _card_choices(kinds: frozenset[str], language: str | None) -> tuple[tuple[str, str], ...]:
    """``(slug, name)`` of every kind in ``kinds``, sorted by name in ``language`` (the active one, passed to key
    the cache): the same list for every seat and container of a game, built once instead of per seat and container
    (the master's game page showed 16 seats × 4 containers)."""
    return tuple(sorted(((k, card_name(k)) for k in kinds), key=lambda kn: kn[1].casefold()))


def master_seat_form(*, state: Mapping[str, Any], seat: Any, phase: Any) -> list[dict]:
    """The console's seat edit in words: the four containers as pickers of card names (every kind of the game's
    collection, FM-4.2), jail as a number of phases (FM-7.5), handcuffs as a choice of night (the night number
    they apply to, FM-8), the claimed public role as a choice of the FM-8 roles (a custom one, FM-2.3, kept)."""
    fields = master_edit.seat_fields(state, seat)
    kinds = frozenset(game_collection(state).kinds)
    language = translation.get_language()
    specs = []
    for key in ("hand", "sleeve", "deck", "discard"):
        held = fields[key]
        choices = list(_card_choices(kinds | frozenset(held), language))
        label, text = master_field(key, held)
        specs.append({"key": key, "label": label, "kind": "cards", "value": held, "choices": choices,
                      "text": text})
    label, text = master_field("jail", fields["jail"])
    specs.append({"key": "jail", "label": label, "kind": "number", "value": fields["jail"], "min": 0,
                  "max": master_edit.MAX_JAIL, "text": text})
    cuffs = fields["handcuffs"]
    night = phase.number if phase is not None and phase.kind != "deckbuilding" else 1
    choices = [(None, gettext("not handcuffed"))] + [
        (n, gettext("Night %(number)s") % {"number": n}) for n in range(1, max(night + 2, cuffs or 0) + 1)]
    label, text = master_field("handcuffs", cuffs)
    specs.append({"key": "handcuffs", "label": label, "kind": "choice", "value": cuffs, "choices": choices,
                  "text": text, "help": gettext("The night they bind: no targeted cards that night.")})
    claimed = fields["public_role"]
    roles = sorted(((r.slug, public_role_name(r.slug)) for r in PUBLIC_ROLES), key=lambda rn: rn[1].casefold())
    if isinstance(claimed, Mapping):  # a custom role (FM-2.3) can be kept, not typed here
        roles.insert(0, ("custom", public_role_name(claimed)))
    elif claimed is None:
        roles.insert(0, (None, "—"))
    label, text = master_field("public_role", claimed)
    specs.append({"key": "public_role", "label": label, "kind": "choice",
                  "value": "custom" if isinstance(claimed, Mapping) else claimed, "choices": roles,
                  "text": text, "help": gettext("Public: everyone is told of a change.")})
    return specs


def master_edit_lines(*, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """A seat edit of the audit log in words: ``"Hand (front first): Pistol, Tail → Tail"`` per changed key."""
    return [f"{label}: {old} → {master_field(key, after.get(key))[1]}"
            for key in after for label, old in [master_field(key, before.get(key))]]
