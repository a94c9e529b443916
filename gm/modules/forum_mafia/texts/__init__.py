"""Everything forum Mafia shows to people: card, role and ability names in the active language, the resolution's
log lines (FM-6, :data:`RESOLUTION_MESSAGES` and :func:`render_resolution_event`), results and the names in rule
errors. The role card texts are :mod:`.roles`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.functional import lazy
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from cards.collection_data import CARDS
from cards.deckbuilding import MESSAGES as CARD_MESSAGES
from cards.deckrules import COLOUR_NAMES
from gm.core.engine import RuleError

from ..engine import veche
from ..engine.orders import REASONS
from ..engine.roles import FACTION_NAMES, PUBLIC_ROLE_BY_SLUG, SECRET_ROLES

#: The phase kinds' names (``%(number)s``: the night's or day's number).
PHASE_KINDS = {"deckbuilding": _("Deck building"), "night": _("Night %(number)s"), "day": _("Day %(number)s")}
_CARD_NAMES = {c["slug"]: (c["name_ru"], c["name_en"]) for c in CARDS}


def card_name(slug: str) -> str:
    ru, en = _CARD_NAMES.get(slug, (slug, slug))
    return ru if (translation.get_language() or "ru").startswith("ru") else en


def secret_role_name(slug: str) -> str:
    role = SECRET_ROLES.get(slug)
    return gettext(role.name) if role else slug


def public_role_name(value: Any) -> str:
    """A claimed public role for display: the FM-8 name in the active language, or the custom name (FM-2.3)."""
    if isinstance(value, dict):
        return str(value.get("custom", ""))
    role = PUBLIC_ROLE_BY_SLUG.get(value)
    if role is None:
        return str(value or "")
    return role.name_ru if (translation.get_language() or "ru").startswith("ru") else role.name_en



# -- the resolution's log (FM-6): messages and their rendering ------------------------------------------------------

RESOLUTION_MESSAGES = {
    # the player's private results
    "fm.voided": _("Your order was void: %(reason)s"),
    "fm.paid": _("You paid the price of %(card)s with: %(cards)s."),
    "fm.cancelled": _("Your %(card)s was cancelled and had no effect."),
    "fm.stole": _("You took %(cards)s from %(target)s."),
    "fm.stolen_from": _("A card was taken from your Hand: %(cards)s."),
    "fm.sleeve_lost": _("You discarded from your Sleeve: %(cards)s."),
    "fm.discarded_two": _("You discarded two cards instead of playing: %(cards)s."),
    "fm.scientist_discarded": _("Your ability discarded two cards of your Hand: %(cards)s."),
    "fm.milled": _("The top cards of your deck were discarded: %(cards)s."),
    "fm.drew": _("You drew: %(cards)s."),
    "fm.moved": _("%(card)s moved to your Sleeve: %(cards)s."),
    "fm.recon_jammed": _("Your %(card)s learned nothing: you were jammed."),
    "fm.recon_played_cards": _("%(card)s: %(target)s played %(plays)s."),
    "fm.recon_players_targeting": _("%(card)s: cards were played on %(target)s by %(players)s."),
    "fm.recon_faction": _("%(card)s: %(target)s belongs to %(faction)s."),
    "fm.recon_secret_role": _("%(card)s: the secret role of %(target)s is %(role)s."),
    "fm.recon_damage_sources": _("%(card)s: %(target)s was damaged by %(players)s."),
    "fm.recon_role_colours": _("%(card)s: colours of the secret role of %(target)s: %(colours)s."),
    "fm.recon_secret_role_and_last_card": _("%(card)s: %(target)s was %(role)s; the last card played on them: "
                                            "%(last_card)s."),
    "fm.recon_hand": _("%(card)s: the Hand of %(target)s at the end of the phase: %(hand)s."),
    "fm.lost": _("You took %(damage)s damage (armour %(armour)s) and lost %(losses)s cards; discarded: %(cards)s."),
    "fm.lost_delayed": _("The stimulant wore off: you discarded %(cards)s."),
    "fm.last_stand": _("Last stand: you kept %(cards)s and survive."),
    "fm.message": _("An anonymous message (%(card)s): %(text)s"),
    # role abilities (FM-3, FM-8)
    "fm.drew_sleeve": _("You drew into your Sleeve: %(cards)s."),
    "fm.ace_received": _("An ace appeared in your Sleeve."),
    "fm.hero_named": _("You named %(target)s as %(guess)s."),
    "fm.hero_goal": _("Your goal is met: %(goal)s."),
    "fm.joker_knows": _("%(player)s was %(role)s."),
    "fm.mafia_message": _("A message from the Mafia: %(text)s"),
    "fm.swapped": _("You swapped %(cards)s between your Hand and your Sleeve."),
    "fm.looted": _("You copied the Sleeve of %(target)s: %(cards)s."),
    "fm.geek_card": _("You took into your Sleeve: %(cards)s."),
    "fm.rebuilt": _("You rebuilt your deck (%(count)s cards)."),
    # public
    "fm.accusation": _("%(player)s accuses %(target)s of playing %(named_card)s last night: %(result)s."),
    "fm.death": _("%(player)s has died."),
    "fm.you_died": _("You died in %(phase)s: %(cause)s You can still read the thread, the public log and your own "
                     "results; you give no more orders, votes or abilities, and your secret role stays secret until "
                     "the game ends."),
    "fm.interrogation": _("Interrogation of %(target)s: %(sleeve_count)s cards in the Sleeve, %(deck_count)s in the "
                          "deck."),
    "fm.hand_counts": _("Cards in Hand: %(counts)s."),
    "fm.victory": _("The game is over. Winner: %(winner)s (%(players)s)."),
    "fm.room_created": _("A chat room is open for you with %(players)s (%(lasting)s)."),
    "fm.t_room": _("Chat room %(room)s: %(players)s (%(lasting)s)."),
    "fm.veche": _("The Veche: %(result)s. Votes: %(candidates)s; for peace %(peace)s of %(cast)s."),
    "fm.jailed": _("%(player)s goes to jail: the Sleeve is emptied but for aces and role cards, and no targeted cards "
                  "for %(phases)s phases."),
    "fm.hero_left": _("%(player)s has met both goals of the hero, wins and leaves the game."),
    "fm.draw": _("The game ends in a draw (%(rule)s): %(phases)s phases in a row passed with no death, and nobody "
                 "alive can deal damage or kill any more. Nobody wins or loses."),
    "fm.joker_left": _("%(player)s, the joker, submitted a mapping of every secret role (%(result)s) and leaves the "
                    "game."),
    # the master's resolution trace
    "fm.t_order": _("%(player)s orders: %(plays)s; discards instead: %(discard)s; abilities: %(abilities)s."),
    "fm.t_void": _("%(player)s: %(card)s is void — %(reason)s"),
    "fm.t_price": _("%(player)s pays for %(card)s with %(cards)s."),
    "fm.t_discard_two": _("%(player)s discards two cards instead of playing: %(cards)s."),
    "fm.t_cancel": _("%(player)s: %(card)s cancelled by %(by)s (%(by_card)s)."),
    "fm.t_redirect": _("%(player)s: %(card)s redirected by %(by)s from %(target)s to %(new_target)s."),
    "fm.t_redirect_ignored": _("%(player)s: a second redirect of %(target)s has no effect."),
    "fm.t_armour": _("%(player)s gets %(amount)s armour (%(card)s from %(source)s)."),
    "fm.t_immune": _("%(player)s takes no damage this phase (%(card)s from %(source)s)."),
    "fm.t_bodyguard": _("%(guard)s guards %(player)s."),
    "fm.t_no_trigger": _("%(player)s: %(card)s on %(target)s does not trigger."),
    "fm.t_transfer": _("%(amount)s damage (%(card)s) to %(player)s goes to the bodyguard %(guard)s."),
    "fm.t_immune_blocked": _("%(player)s is immune: %(amount)s damage blocked."),
    "fm.t_highlander_cap": _("%(player)s (highlander) takes at most %(cap)s of %(amount)s damage from others' cards."),
    "fm.t_damage": _("%(player)s: %(damage)s damage (%(pierce)s ignoring armour), armour %(armour)s → %(losses)s "
                     "cards lost. Sources: %(sources)s."),
    "fm.t_accusation": _("%(player)s accuses %(target)s of %(named_card)s: %(result)s."),
    "fm.t_move": _("%(player)s: %(card)s moves %(cards)s to the Sleeve."),
    "fm.t_steal_nothing": _("%(player)s finds nothing in the Hand of %(target)s."),
    "fm.t_steal": _("%(player)s takes %(cards)s from %(target)s."),
    "fm.t_sleeve_discard": _("%(player)s discards from the Sleeve (%(card)s): %(cards)s."),
    "fm.t_mill": _("%(player)s: the top of the deck is discarded (%(card)s): %(cards)s."),
    "fm.t_draw": _("%(player)s draws %(cards)s (%(card)s)."),
    "fm.t_returns": _("%(player)s: %(card)s returns to the Sleeve."),
    "fm.t_recon_blocked": _("%(player)s is jammed: %(card)s learns nothing."),
    "fm.t_recon": _("%(player)s learns with %(card)s about %(target)s: %(result)s."),
    "fm.t_delayed_discard": _("%(player)s discards %(cards)s (stimulant)."),
    "fm.t_losses": _("%(player)s: %(losses)s losses, %(absorbed)s absorbed by replacement draws; discarded %(cards)s "
                     "(%(to_sleeve)s to the Sleeve), drew %(drawn)s."),
    "fm.t_last_stand": _("%(player)s keeps %(cards)s (last stand)."),
    "fm.t_death": _("%(player)s has no cards in the Hand and dies."),
    "fm.t_message_lost": _("The message of %(player)s (%(card)s) to %(target)s is not delivered."),
    "fm.t_message": _("%(player)s sends %(target)s a message (%(card)s): %(text)s"),
    "fm.t_poisoned": _("%(player)s is poisoned for %(phases)s more phases."),
    "fm.t_handcuffs": _("%(player)s is handcuffed for Night %(night)s."),
    "fm.t_hand_counts": _("Hand counts published: %(counts)s."),
    "fm.t_victory_check": _("Victory check: %(winner)s. Alive: %(alive)s."),
    "fm.t_error": _("Resolution error: %(detail)s"),
    "fm.t_veche": _("Veche count — %(result)s; by strength: %(candidates)s; peace %(peace)s of %(cast)s."),
    "fm.t_jail": _("%(player)s is jailed and loses from the Sleeve: %(cards)s."),
    "fm.t_ace": _("%(player)s (joker) puts an ace into the Sleeve of %(target)s."),
    "fm.t_hero_mark": _("%(player)s (hero) names %(target)s as %(guess)s: %(result)s."),
    "fm.t_assassin": _("%(player)s (assassin) kills %(target)s."),
    "fm.t_hero_goal": _("%(player)s (hero) meets a goal: %(goal)s."),
    "fm.t_hero_goal_not_counted": _("Hero goals not counted (Mafia and Traitor are at least half of the living): "
                                    "%(goals)s."),
    "fm.t_swapped": _("%(player)s (maniac) swaps %(cards)s between Hand and Sleeve."),
    "fm.t_looted": _("%(player)s (looter) copies the Sleeve of %(target)s: %(cards)s."),
    "fm.t_geek_card": _("%(player)s (geek) takes %(cards)s into the Sleeve."),
    "fm.t_joker_guess": _("%(player)s (joker) submits the mapping: %(result)s."),
    "fm.t_aces_vanish": _("%(count)s aces of %(player)s vanish."),
    "fm.t_rebuilt": _("%(player)s rebuilds the deck (%(count)s cards)."),
    "fm.t_stalemate_count": _("Stalemate count (FM-10.H1): %(count)s of %(limit)s quiet phases — %(why)s."),
}

#: What can still harm someone (FM-10.H1, ``victory.harm_sources``) when it is not a card.
HARM_SOURCES = {"veche": _("the Veche (three or more alive)"), "maniac": _("the maniac's ability"),
                "assassin": _("the assassin's unused kill"), "poison": _("poison still working"),
                "stimulant": _("a stimulant's discard still due")}


def _stalemate_why(data: Mapping[str, Any]) -> str:
    if data.get("death"):
        return gettext("someone died: the count starts again")
    sources = data.get("harm") or []
    if not sources:
        return gettext("nothing alive can harm")
    parts = []
    for source in sources:
        what = source.get("what", "")
        text = str(HARM_SOURCES[what]) if what in HARM_SOURCES else card_name(what)
        parts.append(f"{source['player']}: {text}" if source.get("player") else text)
    return gettext("the count starts again, harm is still possible: %(sources)s") % {"sources": ", ".join(parts)}

#: A seat's result at the end of the game (``victory.seat_result``).
RESULT_NAMES = {"won": _("won"), "lost": _("lost"), "draw": pgettext_lazy("game result", "draw")}
#: The line the player reads on his game page once the game is over.
YOUR_RESULT = {"won": _("You won."), "lost": _("You lost."),
               "draw": _("The game ended in a draw (FM-10.H1): nobody won or lost.")}

WINNER_NAMES = {"law": _("Law"), "mafia": _("Mafia and Traitor"), "maniac": _("Maniac"), "none": _("nobody"),
                "avenger": _("the Avenger's team"),
                None: _("nobody yet")}


def cards_text(value: Any) -> str:
    return ", ".join(card_name(k) for k in value or []) or "—"


def _plays(value: Any) -> str:
    parts = []
    for p in value or []:
        text = card_name(p.get("card", ""))
        if p.get("target"):
            text += f" → {p['target']}"
        if p.get("targets"):
            text += " → " + " ⇒ ".join(p["targets"])
        if p.get("named_card"):
            text += f" ({card_name(p['named_card'])})"
        parts.append(text)
    return ", ".join(parts) or "—"


#: Why a player died, as the player is told (``fm.you_died``): FM-6.2 (no cards left in the Hand), the FM-8
#: assassin, the master's console.
DEATH_CAUSES = {"hand": _("your Hand was left without cards (FM-6.2)."),
                "assassin": _("the assassin killed you (FM-8)."),
                "master": _("the master removed your character from the game.")}

HERO_GOALS = {"armour": _("your armour saved a member of the Law"),
              "mark": _("a marked mafioso died as a result of a day")}


def ability_name(slug: str) -> str:
    """A role ability by its role slug: the secret role's name, or the public role's (FM-3, FM-8)."""
    if slug in SECRET_ROLES:
        return secret_role_name(slug)
    return public_role_name(slug)


def _ability(d: Mapping[str, Any]) -> str:
    text = ability_name(d.get("ability", ""))
    if d.get("mode"):
        text += f" ({d['mode']})"
    if d.get("target"):
        text += f" → {d['target']}"
    if d.get("guess"):
        text += f": {secret_role_name(d['guess'])}"
    return text


def _num(value: Any) -> str:
    """Vote strength without a trailing .0 (1.5 stays 1.5)."""
    return f"{float(value):g}"


def _veche_result(data: Mapping[str, Any]) -> str:
    outcome = data.get("outcome")
    if outcome == "leader":
        if data.get("punishment") == "jail":
            return gettext("%(player)s is jailed") % {"player": data.get("leader")}
        return gettext("%(player)s is executed (6 damage)") % {"player": data.get("leader")}
    return str({"peace": _("peace: nobody is punished"), "two_alive": _("only two are alive: nobody is punished"),
                "no_votes": _("no votes: nobody is punished")}.get(outcome, outcome))


def _recon_result(data: Mapping[str, Any]) -> str:
    fact = data.get("fact")
    if fact == "played_cards":
        return _plays(data.get("plays"))
    if fact in ("players_targeting", "damage_sources"):
        return ", ".join(data.get("players") or []) or "—"
    if fact == "faction":
        return gettext(FACTION_NAMES.get(data.get("faction"), data.get("faction") or ""))
    if fact == "secret_role":
        return secret_role_name(data.get("role", ""))
    if fact == "role_colours":
        return ", ".join(gettext(COLOUR_NAMES[c]) for c in data.get("colours") or [] if c in COLOUR_NAMES)
    if fact == "secret_role_and_last_card":
        last = data.get("last_card")
        return f"{secret_role_name(data.get('role', ''))}, {card_name(last) if last else '—'}"
    if fact == "hand":
        return cards_text(data.get("hand"))
    return "—"


def render_resolution_event(kind: str, data: Mapping[str, Any]) -> str:
    """One resolution event (FM-6) in the active language: card slugs become card names, role and faction slugs
    their names, lists are joined, a void reason becomes its sentence (``REASONS``)."""
    p: dict[str, Any] = dict(data)
    for key in ("card", "named_card", "by_card", "last_card"):
        if key in p:
            p[key] = card_name(p[key]) if p[key] else "—"
    for key in ("cards", "hand", "drawn", "discard"):
        if key in p:
            p[key] = cards_text(p[key])
    if "plays" in p:
        p["plays"] = _plays(data["plays"])
    if "abilities" in p:
        p["abilities"] = ", ".join(_ability(a) for a in data["abilities"] or []) or "—"
    if "guess" in p:
        p["guess"] = secret_role_name(p["guess"])
    if "goal" in p:
        p["goal"] = str(HERO_GOALS.get(data["goal"], data["goal"]))
    if "goals" in p:
        p["goals"] = ", ".join(str(HERO_GOALS.get(g, g)) for g in data["goals"] or [])
    if "candidates" in p:
        p["candidates"] = "; ".join(f"{c['player']} {_num(c['strength'])} ({', '.join(c['voters'])})"
                                    for c in data["candidates"]) or "—"
        p["peace"], p["cast"] = _num(data.get("peace", 0)), _num(data.get("cast", 0))
        p["result"] = _veche_result(data)
    if "lasting" in p:
        p["lasting"] = gettext("to the end of the game") if data["lasting"] else gettext("until the next night ends")
    if "right" in p:
        p["result"] = gettext("right") if data["right"] else gettext("wrong")
    for key in ("players", "alive"):
        if key in p:
            p[key] = ", ".join(p[key] or []) or "—"
    if "sources" in p:
        p["sources"] = ", ".join(f"{s['player']} ({card_name(s['card'])}, {s['amount']})" for s in data["sources"]) \
            or "—"
    if "counts" in p:
        p["counts"] = ", ".join(f"{c['player']}: {c['count']}" for c in data["counts"]) or "—"
    if "role" in p:
        p["role"] = secret_role_name(p["role"])
    if "faction" in p:
        p["faction"] = gettext(FACTION_NAMES.get(p["faction"], p["faction"] or ""))
    if "colours" in p:
        p["colours"] = ", ".join(gettext(COLOUR_NAMES[c]) for c in data["colours"] if c in COLOUR_NAMES)
    if "winner" in p:
        p["winner"] = str(WINNER_NAMES.get(data["winner"], data["winner"]))
    if "reason" in p:
        rule, text = REASONS.get(data["reason"], ("", data["reason"]))
        reason_params = dict(data.get("reason_params") or {})
        if "card" in reason_params:
            reason_params["card"] = card_name(reason_params["card"])
        try:
            p["reason"] = (gettext(text) % reason_params if reason_params else gettext(text)) + f" ({rule})"
        except (KeyError, TypeError, ValueError):
            p["reason"] = gettext(text)
    if "hit" in p:
        p["result"] = (gettext("right, the accused takes %(amount)s damage") if data["hit"] else
                       gettext("wrong, the accuser takes %(amount)s damage")) % {"amount": data.get("amount", "?")}
    if kind == "fm.you_died":
        label = PHASE_KINDS.get(str(data.get("phase_kind", "")))
        p["phase"] = str(label) % {"number": data.get("number", "")} if label else "—"
        p["cause"] = str(DEATH_CAUSES.get(data.get("cause"), DEATH_CAUSES["hand"]))
    if kind == "fm.t_recon":
        p["result"] = _recon_result(data)
    if kind == "fm.t_stalemate_count":
        p["why"] = _stalemate_why(data)
    if kind == "fm.recon_damage_sources" and not data.get("damaged"):
        return gettext("%(card)s: %(target)s took no damage.") % p
    template = RESOLUTION_MESSAGES[kind]
    try:
        return str(template) % p
    except (KeyError, TypeError, ValueError):
        return str(template)


_lazy_card_name = lazy(card_name, str)
_lazy_ability_name = lazy(ability_name, str)


def named_error(error: RuleError) -> RuleError:
    """``error`` with its ``card``/``named_card`` slug params shown as card names and its ``ability`` (a role slug)
    as the role's name (rendered lazily, so in the language active when the message is shown)."""
    params = {k: _lazy_card_name(v) if k in ("card", "named_card") and isinstance(v, str)
              else _lazy_ability_name(v) if k == "ability" and isinstance(v, str) and v != "?" else v
              for k, v in error.params.items()}
    return RuleError(error.message, field=error.field, rule=error.rule, params=params)


# -- the Veche (FM-7) ----------------------------------------------------------------------------------------------

PUNISHMENT_NAMES = {veche.EXECUTION: _("execution"), veche.JAIL: _("jail")}


def punishment_name(value: Any) -> str:
    """A punishment slug (FM-7.2) by its name in the active language; ``""`` for an unknown one."""
    return str(PUNISHMENT_NAMES[value]) if value in PUNISHMENT_NAMES else ""


def describe_vote(vote: Mapping[str, Any], seat_names: Mapping[int, str]) -> str:
    """A vote in the active language: "Veche: for Boris (execution)", "Veche: for peace", "… · prosecutor +2"."""
    target = vote.get("for")
    if target == veche.PEACE:
        line = gettext("Veche: for peace")
    else:
        line = gettext("Veche: for %(player)s (%(punishment)s)") % {
            "player": seat_names.get(target, "?"), "punishment": punishment_name(vote.get("punishment"))}
    if vote.get("prosecutor_bonus"):
        line += " · " + gettext("prosecutor +2")
    return line


# -- the game as the core shows it: its name, log messages, audit actions, groups, winners ------------------------

NAME = _("Forum Mafia")

#: What the master's audit trail calls forum Mafia's own actions.
AUDIT_ACTIONS = {"setup_override": _("table set up by the master"), "fm_signup_reject": _("signup rejected"),
                 "stalemate_reset": _("stalemate count reset (FM-10.H1)")}

#: Every log message template of the game (``GameModule.messages``), by event kind: the card layer's deck-building
#: messages, the deal and opening, the stalemate reset and everything a resolution writes.
MESSAGES = {
    **{k: _(v) for k, v in CARD_MESSAGES.items()},
    "fm.your_role": _("Your secret role: %(role)s."),
    "fm.mafia_members": _("The Mafia: %(members)s."),
    "fm.deal": _("Secret roles dealt: %(deal)s."),
    "fm.joker_colours_random": _("You chose no colours in time; yours are %(colours)s."),
    "fm.joker_colours": _("Your colours: %(colours)s."),
    "fm.opening": _("Your opening Hand: %(hand)s. Sleeve: %(sleeve)s."),
    "fm.mafia_decks": _("The Mafia's Hands and decks: %(members)s."),
    "fm.lucky_redeal": _("You redealt your Hand: %(hand)s (%(left)s redeals left)."),
    "fm.engineer_picks": _("Your two guaranteed cards among the first six: %(cards)s."),
    "fm.stalemate_reset": _("The master extends the game: the stalemate count (FM-10.H1) starts again from 0 "
                            "(it was %(count)s of %(limit)s)."),
    **RESOLUTION_MESSAGES,
}


def group_label(slug: str, *, state: Mapping[str, Any] | None = None) -> str:
    """The Mafia's group (``faction:mafia``, FM-3) and the chat rooms (``room:D-N``, FM-9.3; the conspirator's
    room lasts to the end of the game, FM-8), named in the active language; any other slug as it is."""
    kind, _sep, rest = slug.partition(":")
    if kind == "faction" and rest in FACTION_NAMES:
        return gettext(FACTION_NAMES[rest])
    if kind == "room":
        day, _sep, number = rest.partition("-")
        if day.isdigit() and number.isdigit():
            room = (((state or {}).get("fm") or {}).get("rooms") or {}).get(slug)
            if room is not None and room.get("until") is None:
                return gettext("Conspiracy of Day %(day)s") % {"day": day}
            return gettext("Room %(number)s of Day %(day)s") % {"day": day, "number": number}
    return slug


def winner_label(slug: str) -> str:
    """A winner of FM-10 (``law``, ``mafia``, ``maniac``, ``avenger``, or a role winning on his own: ``hero``,
    ``joker``) in the active language."""
    if slug in WINNER_NAMES:
        return str(WINNER_NAMES[slug])
    return secret_role_name(slug) if slug in SECRET_ROLES else slug


def render_event(kind: str, data: Mapping[str, Any]) -> str:
    """A log entry of kind ``kind`` with its ``data`` in the active language: a resolution's entries by
    :func:`render_resolution_event`; the others from :data:`MESSAGES` with roles, colours and cards named (an
    unknown kind as the kind itself, a template whose params don't fit as the bare template)."""
    if kind.startswith(("fm.t_", "fm.recon", "fm.")) and kind in RESOLUTION_MESSAGES:
        return render_resolution_event(kind, data)
    params = dict(data)
    if "role" in params:
        params["role"] = secret_role_name(params["role"])
    if kind == "fm.mafia_members":
        params["members"] = ", ".join(f"{m['name']} ({secret_role_name(m['role'])})" for m in data["members"])
    if kind == "fm.deal":
        params["deal"] = "; ".join(f"{name}: {secret_role_name(role)}" for name, role in data["deal"].items())
    if "colours" in params:
        params["colours"] = ", ".join(gettext(COLOUR_NAMES[c]) for c in data["colours"])
    for key in ("hand", "sleeve", "cards"):
        if isinstance(params.get(key), list):
            params[key] = ", ".join(card_name(k) for k in params[key]) or "—"
    if kind == "fm.mafia_decks":
        params["members"] = "; ".join(
            f"{m['name']}: {', '.join(card_name(k) for k in m['hand'])} / "
            f"{', '.join(card_name(k) for k in m['deck'])}" for m in data["members"])
    if kind == "cards.random_deck":
        params["deck"] = ", ".join(card_name(k) for k in data.get("deck", []))
    template = MESSAGES.get(kind)  # as GameModule.render_event fills a template
    if template is None:
        return kind
    try:
        return str(template) % dict(params)
    except (KeyError, TypeError, ValueError):
        return str(template)
