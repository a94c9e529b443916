"""Forum Mafia orders in words (FM-5, FM-7, FM-8): an order version as sentences (the log, the console, the order
panel), the engine's reasons for a card or an ability in the active language, and how often an ability can be used.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from . import ability_name, card_name, describe_vote, secret_role_name

#: The containers a card is played from, as an order's description names them.
CONTAINER_NAMES = {"hand": _lazy("Hand"), "sleeve": _lazy("Sleeve")}


def ability_message(msgid: Any, params: Any, name: Callable[[str], str]) -> str:
    """An ability's reason in the active language: card slugs as card names, role slugs as role names."""
    if not msgid:
        return ""

    params = dict(params or {})
    if isinstance(params.get("ability"), str):
        params["ability"] = ability_name(params["ability"])
    return engine_message(msgid, params, name)


def engine_message(msgid: Any, params: Any = None, name: Callable[[str], str] = str) -> str:
    """An engine message in the active language. With ``params`` (a dict) ``msgid`` is the bare message and the
    params are filled in here, card slugs as display names; without, it is shown as the engine gave it."""
    if not msgid:
        return ""
    text = _(str(msgid))
    if not isinstance(params, Mapping):
        return text
    params = {k: name(v) if k in ("card", "named_card") and isinstance(v, str) else v for k, v in params.items()}
    try:
        return text % params
    except (KeyError, TypeError, ValueError):
        return text


#: The modes of the phase abilities as the order's description names them.
ABILITY_MODES = {"message": _lazy("message"), "damage": _lazy("damage"),
                 "armour": _lazy("armour"), "hr": _lazy("HR department"), "ace": _lazy("ace"),
                 "mark": _lazy("mark")}


def describe_order(payload: Mapping[str, Any] | None, *, cards: Mapping[int, str], name: Callable[[str], str],
                   seat_names: Mapping[int, str]) -> list[str]:
    """An order payload as sentences in the active language, one per play (one for a discard, one per ability),
    with card and character names: ``["Pistol (Hand) → Boris", "Letter (Sleeve) → Clara · message: “hi”",
    "Ability: Maniac (damage) → Boris · paid with Pistol"]``. ``cards`` maps the player's uids to kinds; payload
    entries may also name slugs (``pay``, ``cards``, ``discard``)."""
    if payload is None:
        return [_("Withdrawn")]

    def card(ref: Any) -> str:
        if isinstance(ref, str):
            return name(ref)
        return name(cards[ref]) if ref in cards else f"#{ref}"

    def who(ref: Any) -> str:
        return seat_names.get(ref, "?") if ref is not None else "—"

    lines = []
    for play in payload.get("plays") or []:
        kind = play.get("card") or cards.get(play.get("uid"), "")
        head = f"{name(kind)} ({CONTAINER_NAMES.get(play.get('from'), play.get('from', ''))})"
        parts = []
        if play.get("targets"):
            parts.append(" → ".join([head] + [who(t) for t in play["targets"]]))
        elif "target" in play:
            parts.append(f"{head} → {who(play['target'])}")
        else:
            parts.append(head)
        if play.get("named_card"):
            parts.append(_("naming %(card)s") % {"card": name(play["named_card"])})
        if play.get("text"):
            parts.append(_("message: “%(text)s”") % {"text": play["text"]})
        if play.get("cards"):
            parts.append(_("to the Sleeve: %(cards)s") % {"cards": ", ".join(card(c) for c in play["cards"])})
        if play.get("pay"):
            parts.append(_("paid with %(cards)s") % {"cards": ", ".join(card(c) for c in play["pay"])})
        if play.get("pay_hand"):
            parts.append(_("paid from the Hand with %(cards)s")
                         % {"cards": ", ".join(card(c) for c in play["pay_hand"])})
        lines.append(" · ".join(parts))
    if payload.get("discard"):
        lines.append(_("Discard two Hand cards instead of playing: %(cards)s")
                     % {"cards": ", ".join(card(c) for c in payload["discard"])})

    for use in payload.get("abilities") or []:
        head = _("Ability: %(ability)s") % {"ability": ability_name(str(use.get("ability", "")))}
        if use.get("mode"):
            head += f" ({ABILITY_MODES.get(use['mode'], use['mode'])})"
        parts = [f"{head} → {who(use['target'])}" if "target" in use else head]
        if use.get("guess"):
            parts.append(_("as %(role)s") % {"role": secret_role_name(use["guess"])})
        if use.get("text"):
            parts.append(_("message: “%(text)s”") % {"text": use["text"]})
        if use.get("pay") is not None:
            parts.append(_("paid with %(cards)s") % {"cards": card(use["pay"])})
        if use.get("discard"):
            parts.append(_("discarding %(cards)s") % {"cards": ", ".join(card(c) for c in use["discard"])})
        lines.append(" · ".join(parts))
    lines = lines or [_("No cards played")]
    vote = payload.get("vote")
    if isinstance(vote, Mapping) and vote.get("for") is not None:  # FM-7: the Veche part of the order

        line = describe_vote(vote, seat_names)
        if vote.get("keep") is not None:
            line += " · " + _("keeps %(card)s if jailed") % {"card": card(vote["keep"])}
        lines.append(line)
    return lines


#: How often an ability can be used (``abilities.ABILITY_PERIODS``) and what is left, for the form.
USES = {
    ("game", 1): _lazy("once per game · not used yet"),
    ("game", 0): _lazy("once per game · used"),
    ("rebuild", 1): _lazy("once until your next rebuild · ready"),
    ("rebuild", 0): _lazy("used · rebuilding your deck recharges it"),
    ("phase", 1): _lazy("once per phase"),
    ("phase", 0): _lazy("once per phase"),
    ("night", 1): _lazy("once per night"),
    ("night", 0): _lazy("once per night"),
}


def uses_text(option: Mapping[str, Any]) -> str:
    """How often the ability ``option`` (an ``abilities.ability_options`` entry) can be used and what is left, in
    the active language."""
    if option.get("uses_left") is None:
        return str(_lazy("any number of times"))
    return str(USES.get((option.get("per"), option.get("uses_left")), ""))


def order_lines(*, payload: Mapping[str, Any] | None, seat_data: Any, seat_names: Mapping[int, str]) -> list[str]:
    """An order version in words (``GameModule.order_lines``): :func:`describe_order` with the card ids named from
    ``seat_data``'s containers (Hand, Sleeve, deck, discard pile) and card slugs by their names."""
    cards = seat_data.get("cards") if isinstance(seat_data, Mapping) else None
    uids = {c["uid"]: c.get("kind", "") for key in ("hand", "sleeve", "deck", "discard")
            for c in ((cards or {}).get(key) or []) if isinstance(c, Mapping) and "uid" in c}
    return describe_order(payload, cards=uids, name=card_name, seat_names=seat_names)
