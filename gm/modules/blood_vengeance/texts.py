"""Everything One Night Ultimate Werewolf shows to people, in the reader's language: the game's and its phases'
names, role, team and center-card names, how each team wins, the log message templates and how an event renders,
an order and a seat in words (ON-3–ON-16). Form labels live with their forms (``forms.py``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

NAME = _("One Night Ultimate Werewolf")
PHASE_KINDS = {"doppelganger": _("Doppelganger %(number)s"), "night": _("Night %(number)s"),
               "day": _("Day %(number)s")}

ROLE_NAMES = {
    "villager": _("Villager"),
    "werewolf": _("Werewolf"),
    "seer": _("Seer"),
    "robber": _("Robber"),
    "troublemaker": _("Troublemaker"),
    "tanner": _("Tanner"),
    "drunk": _("Drunk"),
    "hunter": _("Hunter"),
    "mason": _("Mason"),
    "insomniac": _("Insomniac"),
    "minion": _("Minion"),
    "doppelganger": _("Doppelganger"),
}
TEAM_NAMES = {"village": _("village"), "werewolf": _("werewolves"), "tanner": _("tanner")}
#: How each team wins (ON-9–ON-12), for the player's card.
VILLAGE_WIN = _("Village team: you win if at least one werewolf dies, or, when no player is a werewolf, if nobody "
                "dies.")
WIN_TEXTS = {
    "werewolf": _("Werewolf team: you win if no werewolf dies — unless the tanner dies."),
    "minion": _("Werewolf team: you win if no werewolf dies, even if you die — unless the tanner dies. If no player "
                "is a werewolf, you win if someone other than you dies."),
    "tanner": _("You are on no team: you win only if you die."),
}
#: ON-5: the card that counts is the one in front of the player at the end of the night.
FINAL_CARD_NOTE = _("Your team is that of the card in front of you at the end of the night, which may have been "
                    "swapped.")
CENTER_NAMES = {"center1": _("center card 1"), "center2": _("center card 2"), "center3": _("center card 3")}

MESSAGES = {
    "onuw.roles_in_play": _("Cards in play (players + 3 in the center): %(roles)s."),
    "onuw.your_card": _("Your card: %(role)s."),
    "onuw.warning": _("Set-up warning: %(text)s"),
    "onuw.deal": _("Deal: %(deal)s; center: %(center)s."),
    "onuw.copied": _("You looked at %(name)s's card: %(role)s. You are now %(role)s."),
    "onuw.copied_nothing": _("You copied nobody; you stay a doppelganger (village team)."),
    "onuw.trace_copy": _("%(name)s (doppelganger) copied %(target_name)s: %(role)s."),
    "onuw.trace_no_copy": _("%(name)s (doppelganger) copied nobody."),
    "onuw.werewolves": _("The other werewolves: %(names)s."),
    "onuw.lone_wolf": _("You are the only werewolf among the players; you may look at one center card."),
    "onuw.lone_wolf_no_peek": _("You are the only werewolf among the players."),
    "onuw.minion_sees": _("The werewolves: %(names)s."),
    "onuw.minion_no_wolves": _("No player is a werewolf."),
    "onuw.masons": _("The other masons: %(names)s."),
    "onuw.lone_mason": _("You are the only mason among the players: the other one is in the center."),
    "onuw.seer_saw": _("You saw: %(seen)s."),
    "onuw.trace_seer": _("%(name)s (seer) saw: %(seen)s."),
    "onuw.wolf_saw": _("You looked at %(center)s: %(card)s."),
    "onuw.trace_wolf": _("%(name)s (lone werewolf) looked at %(center)s: %(card)s."),
    "onuw.robbed": _("You took %(name)s's card and looked at it: %(card)s. You are now %(as)s."),
    "onuw.trace_robber": _("%(name)s (robber) swapped cards with %(target_name)s and got %(card)s."),
    "onuw.swapped": _("You swapped the cards of %(names)s."),
    "onuw.trace_troublemaker": _("%(name)s (troublemaker) swapped the cards of %(names)s."),
    "onuw.drunk_took": _("You swapped your card with %(center)s without looking at it."),
    "onuw.trace_drunk": _("%(name)s (drunk) took %(center)s."),
    "onuw.trace_drunk_random": _("%(name)s (drunk) gave no order: %(center)s was taken at random."),
    "onuw.insomniac_saw": _("At the end of the night your card is: %(card)s (%(as)s)."),
    "onuw.trace_insomniac": _("%(name)s (insomniac) saw her card: %(card)s."),
    "onuw.night_over": _("The night is over. Discuss, then vote."),
    "onuw.votes": _("Votes: %(votes)s."),
    "onuw.nobody_died": _("No player has more than one vote: nobody dies."),
    "onuw.died": _("%(name)s dies with %(count)s votes and reveals %(card)s."),
    "onuw.hunter_shot": _("%(hunter_name)s was the hunter: %(name)s dies too and reveals %(card)s."),
    "onuw.final_cards": _("Every card: %(table)s; center: %(center)s."),
    "onuw.winners": _("Winners: %(teams)s (%(names)s)."),
    "onuw.no_winners": _("Nobody wins."),
}


#: What the dashboard tells a player about his part in the open phase (ON-4, ON-6).
NEED_VOTE = _("Voting is open in %(phase)s: you have not voted (ON-6).")
NEED_VOTED = _("You have voted in %(phase)s; you may change your vote until the deadline.")
NEED_NOTHING = _("%(phase)s: your card has nothing to choose; wait for the day.")


def role_name(slug: str) -> str:
    """A role's name in the active language (unknown slugs as given)."""
    return str(ROLE_NAMES.get(slug, slug))


def card_text(card: str, as_role: str | None = None) -> str:
    """A card's name in the active language; the doppelganger card with the role it counts as, "Doppelganger
    (Robber)" (ON-4.1) — in parentheses, as the arrow belongs to "dealt → ended"."""
    if card == "doppelganger" and as_role and as_role != card:
        return f"{role_name(card)} ({role_name(as_role)})"
    return role_name(card)


def win_text(role: str) -> str:
    """How the holder of ``role`` wins (ON-9–ON-12) and that the final card decides (ON-5), in the active
    language, for the player's card: werewolf, minion and tanner their own; every other role the village's."""
    return f"{WIN_TEXTS.get(role, VILLAGE_WIN)} {FINAL_CARD_NOTE}"


def dealt_and_final(dealt: str, copy: str | None, final: str, final_as: str | None) -> str:
    """A seat's two cards in words, the final one last as it decides the team (ON-5): "dealt Werewolf → ended
    Robber". ``copy`` is the doppelganger's copied role (ON-4.1), ``final_as`` the role the final card counts as."""
    return gettext("dealt %(dealt)s → ended %(final)s") % {"dealt": card_text(dealt, copy),
                                                           "final": card_text(final, final_as)}


def result_word(won: bool) -> str:
    """"won" or "lost" in the active language (ON-9–ON-12)."""
    return gettext("won") if won else gettext("lost")

def winner_label(slug: str) -> str:
    """A winning team of ON-7 (``village``, ``werewolf``, ``tanner``) in the active language."""
    return str(TEAM_NAMES.get(slug, slug))


def _format(kind: str, params: Mapping[str, Any]) -> str:
    """The message template of ``kind`` filled with ``params``, as the core renders events: an unknown kind as
    itself, a template whose parameters don't fit as it stands."""
    template = MESSAGES.get(kind)
    if template is None:
        return kind
    try:
        return str(template) % dict(params)
    except (KeyError, TypeError, ValueError):
        return str(template)


def render_event(kind: str, data: Mapping[str, Any]) -> str:
    """An ``onuw.*`` event's text in the active language: seat ids named by the display names the event carries,
    roles, cards (with the doppelganger's copy, ON-4.1) and center cards in words."""
    names = data.get("names", {})

    def who(sid) -> str:
        return names.get(str(sid), str(sid))

    params = dict(data)
    if "seat" in data:
        params["name"] = who(data["seat"])
    if "target" in data:
        params["target_name"] = who(data["target"])
    if "hunter" in data:
        params["hunter_name"] = who(data["hunter"])
    if isinstance(data.get("seats"), list) and kind != "onuw.final_cards":
        params["names"] = ", ".join(who(s) for s in data["seats"]) or "—"
    if "role" in data:
        params["role"] = role_name(data["role"])
    if "card" in data:
        params["card"] = card_text(data["card"], data.get("as"))
        if kind in ("onuw.died", "onuw.hunter_shot") and data.get("dealt") not in (None, data["card"]):
            params["card"] = gettext("%(card)s (dealt %(dealt)s)") % {
                "card": params["card"], "dealt": card_text(data["dealt"], data.get("copy"))}
    if "as" in data:
        params["as"] = role_name(data["as"])
    if isinstance(data.get("center"), str) and data["center"] in CENTER_NAMES:
        params["center"] = str(CENTER_NAMES[data["center"]])
    if kind == "onuw.roles_in_play":
        params["roles"] = ", ".join(role_name(r) for r in data["roles"])
    elif kind == "onuw.warning":
        p = dict(data.get("params") or {})
        if "role" in p:
            p["role"] = role_name(p["role"])
        params["text"] = gettext(data["text"]) % p if p else gettext(data["text"])
    elif kind == "onuw.deal":
        params["deal"] = ", ".join(f"{names.get(k, k)}: {role_name(v)}" for k, v in data["cards"].items())
        params["center"] = ", ".join(role_name(c) for c in data["center"])
    elif kind in ("onuw.seer_saw", "onuw.trace_seer"):
        params["seen"] = ", ".join(
            f"{CENTER_NAMES[s['center']] if 'center' in s else who(s['seat'])}: {role_name(s['card'])}"
            for s in data["seen"])
    elif kind == "onuw.votes":
        params["votes"] = ", ".join(f"{who(v)} → {who(t)}" for v, t in data["votes"]) or "—"
    elif kind == "onuw.final_cards":
        params["table"] = "; ".join(_final_row(who(s["seat"]), s, data.get("copy")) for s in data["seats"])
        params["center"] = ", ".join(role_name(c) for c in data["center"])
    elif kind == "onuw.winners":
        if not data["teams"]:
            return str(MESSAGES["onuw.no_winners"])
        params["teams"] = ", ".join(str(TEAM_NAMES.get(t, t)) for t in data["teams"])
        params["names"] = ", ".join(who(s) for s in data["seats"]) or "—"
    return _format(kind, params)


def _final_row(name: str, row: Mapping[str, Any], copy: str | None) -> str:
    """One seat of the final reveal line (ON-5): "Boris: dealt Werewolf → ended Robber (village, lost)"; entries
    written before the team and result were stored read without them."""
    text = f"{name}: {dealt_and_final(row['dealt'], copy, row['card'], row['as'])}"
    if "team" in row and "won" in row:
        text += f" ({TEAM_NAMES.get(row['team'], row['team'])}, {result_word(row['won'])})"
    return text


def seat_facts(data: Mapping[str, Any], *, secret: bool) -> list[tuple[str, str]]:
    """The seats table and the full reveal: nothing public (every card is secret until the end, ON-3); the
    secret part — while the game runs the dealt card (and the doppelganger's copy, ON-4.1); once it is over
    both cards with the final one deciding ("dealt Werewolf → ended Robber", ON-5), the team and the result of
    the final card (ON-9–ON-12); and what the seat learned in the night (ON-13, its own log lines)."""
    if not secret:
        return []
    facts = []
    if data.get("final"):
        facts.append((gettext("Card"), dealt_and_final(data.get("card") or "", data.get("copy"), data["final"],
                                                       data.get("final_as"))))
        if data.get("team"):
            facts.append((gettext("Team"), str(TEAM_NAMES.get(data["team"], data["team"]))))
        if "won" in data:
            facts.append((gettext("Result"), result_word(data["won"])))
    elif data.get("card"):
        facts.append((gettext("Dealt card"), card_text(data["card"], data.get("copy"))))
    learned = [render_event(e.get("kind", ""), e.get("data") or {})
               for e in data.get("learned") or [] if isinstance(e, Mapping)]
    if learned:
        facts.append((gettext("Learned"), " ".join(learned)))
    return facts


def order_lines(*, payload: Mapping[str, Any], seat_data: Mapping[str, Any],
                seat_names: Mapping[int, str]) -> list[str]:
    """An order version in words: the doppelganger's copy (ON-4.1), the seer's or lone werewolf's look
    (ON-4.5, ON-4.2), the robber's, troublemaker's and drunk's swaps (ON-4.6–ON-4.8), the day vote (ON-7).
    ``seat_names`` maps seat ids (int) to character names; center references are named "center card N"."""
    def ref(value) -> str:
        if isinstance(value, str) and value in CENTER_NAMES:
            return str(CENTER_NAMES[value])
        return seat_names.get(int(value), str(value))

    lines = []
    if payload.get("copy") is not None:
        lines.append(gettext("Copy %(name)s's card.") % {"name": ref(payload["copy"])})
    look = payload.get("look")
    if look:
        looked = [ref(r) for r in look]
        if len(looked) == 2:  # the seer's two center cards (ON-4.5)
            lines.append(gettext("Look at %(first)s and %(second)s.") % {"first": looked[0],
                                                                         "second": looked[1]})
        elif isinstance(look[0], str) and look[0] in CENTER_NAMES:  # a lone werewolf or the seer, one center
            lines.append(gettext("Look at %(center)s.") % {"center": looked[0]})
        else:
            lines.append(gettext("Look at %(name)s's card.") % {"name": looked[0]})
    if payload.get("swap_with") is not None:
        lines.append(gettext("Swap cards with %(name)s.") % {"name": ref(payload["swap_with"])})
    if payload.get("swap"):
        a, b = (ref(r) for r in payload["swap"])
        lines.append(gettext("Swap the cards of %(a)s and %(b)s.") % {"a": a, "b": b})
    if payload.get("take"):
        lines.append(gettext("Take %(center)s.") % {"center": ref(payload["take"])})
    if payload.get("vote") is not None:
        lines.append(gettext("Vote for %(name)s.") % {"name": ref(payload["vote"])})
    return lines or [gettext("Nothing.")]
