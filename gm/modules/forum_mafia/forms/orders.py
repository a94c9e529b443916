"""The forum Mafia night/day order form (FM-5): parses the panel's POST into the order payload the engine validates,
and puts the engine's refusals back next to the field they concern.

The form only *parses*: card uids must be cards of the player's own Hand/Sleeve (else nothing could be named),
numbers must be numbers. Whether an order is legal (its timing, slots, targets, price…) is the engine's call
(``validate_order`` through ``gm.core.services.order_submit``), so every rule is checked in one place and a crafted
POST gets the same reasons, with rule IDs, as an API client.

Field names (all optional):

* ``mode``: ``play`` (default) or ``discard`` (FM-5.3, night only: discard two Hand cards instead of playing);
* ``hand`` / ``sleeve``: the uid played in the Hand / Sleeve slot (radio buttons; several values are passed on
  as several plays, and the engine refuses the second one, FM-5.2);
* ``free``: uids of free cards played outside the slots (FM-4.4);
* ``discard``: the two Hand uids discarded in ``discard`` mode;
* per card ``<uid>``: ``target_<uid>``, ``target2_<uid>`` (``redirect``), ``text_<uid>`` (``letter``,
  ``unlimited_plan``), ``named_<uid>`` (``accusation``), ``cards_<uid>`` (``stash``: up to two Hand uids),
  ``pay_<uid>`` (price cards from the Sleeve; none ticked: the engine takes the first eligible ones, FM-5.7),
  ``pay_hand_<uid>`` (the cultist's price cards from the Hand, FM-8; only when the options say ``pay_from_hand``);
* ``abilities``: the keys (``ability-mode``, see ``abilities.ability_options``) of the phase abilities used (FM-3,
  FM-8), each with its inputs ``ab_target_<key>``, ``ab_guess_<key>`` (the hero's Mafia role), ``ab_text_<key>``
  (the Mafia message), ``ab_pay_<key>`` (the maniac's Sleeve card uid), ``ab_discard_<key>`` (the scientist's two
  Hand uids). Instant abilities are not ordered: the panel uses them at once.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

PLAY, DISCARD = "play", "discard"
#: The longest message a card may carry (FM-9.4); the engine may be stricter.
MAX_TEXT = 2000
#: Which extra inputs a card's targeting needs (``cards.domain.TARGETS``).
TARGET_INPUTS: Mapping[str, tuple[str, ...]] = {
    "none": (),
    "one": ("target",),
    "dead": ("target",),
    "two": ("target", "target2"),
    "one_card": ("target", "named"),
    "one_text": ("target", "text"),
}
#: The per-card form field prefixes, by the payload key the engine names in its errors.
PAYLOAD_FIELD = {"target": "target", "targets": "target", "named_card": "named", "text": "text", "cards": "cards",
                 "pay": "pay", "pay_hand": "pay_hand"}
#: An ability's inputs by the payload key the engine names in its errors (``abilities.N.<key>``).
ABILITY_INPUTS = ("target", "guess", "text", "pay", "discard")
_SPLIT = re.compile(r"[.\[\]]+")


def _uid_choices(cards) -> list[tuple[int, str]]:
    return [(c["uid"], str(c["uid"])) for c in cards]


class UidsField(forms.TypedMultipleChoiceField):
    """Card uids (ints) among ``choices``; empty strings (a slot's "none" radio button) are dropped."""

    def __init__(self, *, choices, **kwargs):
        super().__init__(choices=choices, coerce=int, required=False, **kwargs)

    def to_python(self, value):
        return [v for v in super().to_python(value) if v != ""]


class OrderForm(forms.Form):
    """One version of a player's order, built from his ``order_options`` (the engine's answer for his seat now).

    ``options`` is the dict of ``engine.orders.order_options`` (its ``cards``, ``hand`` and ``sleeve`` name the uids
    the form accepts). After ``is_valid()``, :meth:`payload` is the order payload for ``services.order_submit``;
    :meth:`add_service_errors` files a ``ServiceError``'s field errors under the card and input they concern.
    """

    mode = forms.ChoiceField(choices=[(PLAY, PLAY), (DISCARD, DISCARD)], required=False)

    def __init__(self, data=None, *, options: Mapping[str, Any], initial: Mapping[str, Any] | None = None):
        super().__init__(data, initial=initial)
        self.options = options
        self.cards = {c["uid"]: c for c in options.get("cards", [])}
        hand = [c for c in self.cards.values() if c["from"] == "hand"]
        sleeve = [c for c in self.cards.values() if c["from"] == "sleeve"]
        hand_uids = _uid_choices(options.get("hand") or hand)
        sleeve_uids = _uid_choices(options.get("sleeve") or sleeve)
        self.fields["hand"] = UidsField(choices=_uid_choices(hand))
        self.fields["sleeve"] = UidsField(choices=_uid_choices(sleeve))
        self.fields["free"] = UidsField(choices=_uid_choices(self.cards.values()))
        self.fields["discard"] = UidsField(choices=hand_uids)
        for uid, card in self.cards.items():
            inputs = TARGET_INPUTS.get(card.get("target", "none"), ("target",))
            if "target" in inputs:
                self.fields[f"target_{uid}"] = forms.IntegerField(required=False)
            if "target2" in inputs:
                self.fields[f"target2_{uid}"] = forms.IntegerField(required=False)
            if "text" in inputs:
                self.fields[f"text_{uid}"] = forms.CharField(required=False, max_length=MAX_TEXT, strip=True)
            if "named" in inputs:
                self.fields[f"named_{uid}"] = forms.CharField(required=False, max_length=60)
            if card.get("needs_cards"):
                self.fields[f"cards_{uid}"] = UidsField(choices=hand_uids)
            if card.get("price"):
                self.fields[f"pay_{uid}"] = UidsField(choices=sleeve_uids)
                if options.get("pay_from_hand"):
                    self.fields[f"pay_hand_{uid}"] = UidsField(choices=hand_uids)
        #: The phase abilities the form offers (instant ones are used from the panel), by key.
        self.ability_opts = {a["key"]: a for a in options.get("abilities", []) if not a.get("instant")}
        self.fields["abilities"] = forms.MultipleChoiceField(choices=[(k, k) for k in self.ability_opts],
                                                             required=False)
        for key, opt in self.ability_opts.items():
            if opt.get("needs_target"):
                self.fields[f"ab_target_{key}"] = forms.IntegerField(required=False)
            if opt.get("needs_guess"):
                self.fields[f"ab_guess_{key}"] = forms.CharField(required=False, max_length=40)
            if opt.get("needs_text"):
                self.fields[f"ab_text_{key}"] = forms.CharField(required=False, max_length=MAX_TEXT, strip=True)
            if opt.get("needs_pay"):
                self.fields[f"ab_pay_{key}"] = forms.TypedChoiceField(choices=[("", "")] + sleeve_uids, coerce=int,
                                                                      required=False, empty_value=None)
            if opt.get("needs_discard"):
                self.fields[f"ab_discard_{key}"] = UidsField(choices=hand_uids)
        #: uid → messages about that card as a whole (not one of its inputs).
        self.card_errors: dict[int, list[str]] = {}
        #: ability key → messages about that ability as a whole.
        self.ability_errors: dict[str, list[str]] = {}
        self._play_uids: list[int] = []
        self._ability_keys: list[str] = []

    # -- reading the form's state (bound: the POST; unbound: the initial, i.e. the current order) ----------
    def picked(self) -> dict[str, list[int]]:
        """The uids picked in each group: ``{"hand": [...], "sleeve": [...], "free": [...], "discard": [...]}``."""
        return {name: _ints(self[name].value()) for name in ("hand", "sleeve", "free", "discard")}

    def picked_abilities(self) -> list[str]:
        """The keys of the abilities ticked (bound: the POST; unbound: the current order)."""
        value = self["abilities"].value()
        values = value if isinstance(value, list | tuple) else [] if value in (None, "") else [value]
        return [str(v) for v in values]

    def current_mode(self) -> str:
        return DISCARD if self["mode"].value() == DISCARD else PLAY

    def value(self, name: str) -> Any:
        """The raw value of field ``name`` (``None`` for a field this order has not got)."""
        return self[name].value() if name in self.fields else None

    # -- the payload --------------------------------------------------------------------------------------
    def plays_uids(self) -> list[int]:
        """The uids played, in payload order (Hand slot, Sleeve slot, free cards), each once."""
        data = self.cleaned_data
        discard_mode = data.get("mode") == DISCARD
        uids: list[int] = []
        for name in ("free",) if discard_mode else ("hand", "sleeve", "free"):
            for uid in data.get(name) or []:
                if uid not in uids:
                    uids.append(uid)
        return uids

    def payload(self) -> dict:
        """The order payload (the engine's contract) from the cleaned data::

            {"plays": [{"card", "from", "uid", "target"|"targets", "named_card", "text", "cards", "pay"}],
             "discard": [uid, uid]}          # discard mode only (FM-5.3)
        """
        data = self.cleaned_data
        self._play_uids = self.plays_uids()
        plays = [self._play(uid) for uid in self._play_uids]
        payload: dict[str, Any] = {"plays": plays}
        if data.get("mode") == DISCARD:
            payload["discard"] = list(data.get("discard") or [])
        self._ability_keys = [k for k in self.ability_opts if k in (data.get("abilities") or [])]
        if self._ability_keys:
            payload["abilities"] = [self._ability(key) for key in self._ability_keys]
        return payload

    def _ability(self, key: str) -> dict:
        """One phase ability of the order: ``{"ability", "mode", "target", "guess", "text", "pay", "discard"}`` (the
        keys it needs; an input left empty is left out, so the engine names what is missing)."""
        opt, data = self.ability_opts[key], self.cleaned_data
        use: dict[str, Any] = {"ability": opt["ability"]}
        if opt.get("mode"):
            use["mode"] = opt["mode"]
        for name in ABILITY_INPUTS:
            if not opt.get(f"needs_{name}"):
                continue
            value = data.get(f"ab_{name}_{key}")
            if value not in (None, "", []):
                use[name] = list(value) if name == "discard" else value
        return use

    def _play(self, uid: int) -> dict:
        card, data = self.cards[uid], self.cleaned_data
        play: dict[str, Any] = {"card": card["kind"], "from": card["from"], "uid": uid}
        inputs = TARGET_INPUTS.get(card.get("target", "none"), ("target",))
        if "target2" in inputs:
            # An unchosen target is left out, so the engine asks for two targets rather than an unknown one.
            play["targets"] = [t for t in (data.get(f"target_{uid}"), data.get(f"target2_{uid}")) if t is not None]
        elif "target" in inputs:
            play["target"] = data.get(f"target_{uid}")
        if "named" in inputs:
            play["named_card"] = data.get(f"named_{uid}") or ""
        if "text" in inputs:
            play["text"] = data.get(f"text_{uid}") or ""
        if card.get("needs_cards"):
            play["cards"] = list(data.get(f"cards_{uid}") or [])
        if card.get("price") and data.get(f"pay_{uid}"):
            play["pay"] = list(data[f"pay_{uid}"])
        if card.get("price") and data.get(f"pay_hand_{uid}"):
            play["pay_hand"] = list(data[f"pay_hand_{uid}"])
        return play

    # -- the engine's refusals ----------------------------------------------------------------------------
    def add_service_errors(self, errors: Mapping[str, Sequence[str]]) -> None:
        """File a ``ServiceError.errors`` (payload path → messages) next to the right input.

        Paths such as ``plays.1.target``, ``plays[1].pay`` or ``plays.1`` name the second play of :meth:`payload`
        (its card's input, or the card itself); ``discard`` the discard choice; a bare ``target``/``text``… the only
        play if there is one. Anything else (``__all__``, ``payload``, an unknown path) goes to the top of the form,
        so no reason is ever dropped.
        """
        for path, messages in errors.items():
            found = self._ability_field_for(path)
            if found is not None:
                field, key = found
                for message in messages:
                    if field is None:
                        self.ability_errors.setdefault(key, []).append(message)
                    else:
                        self.add_error(field, message)
                continue
            field, uid = self._field_for(path)
            for message in messages:
                if field is None and uid is not None:
                    self.card_errors.setdefault(uid, []).append(message)
                else:
                    self.add_error(field, message)

    def _ability_field_for(self, path: str) -> tuple[str | None, str] | None:
        """``abilities.N.<input>`` → (that ability's input field, or ``None`` for the ability as a whole; its key);
        ``None`` if ``path`` is not about an ability of :meth:`payload`."""
        parts = [p for p in _SPLIT.split(path or "") if p]
        if len(parts) < 2 or parts[0] != "abilities" or not parts[1].isdigit():
            return None
        index = int(parts[1])
        if index >= len(self._ability_keys):
            return None
        key = self._ability_keys[index]
        field = f"ab_{parts[2]}_{key}" if len(parts) > 2 and parts[2] in ABILITY_INPUTS else None
        return (field, key) if field in self.fields else (None, key)

    def _field_for(self, path: str) -> tuple[str | None, int | None]:
        parts = [p for p in _SPLIT.split(path or "") if p]
        if not parts or parts[0] in ("__all__", "payload"):
            return None, None
        if parts[0] == "discard":
            return "discard", None
        if parts[0] == "plays" and len(parts) >= 2 and parts[1].isdigit():
            index = int(parts[1])
            if index >= len(self._play_uids):
                return None, None
            uid, rest = self._play_uids[index], parts[2:]
        elif parts[0] in PAYLOAD_FIELD and len(self._play_uids) == 1:
            uid, rest = self._play_uids[0], parts
        else:
            return None, None
        if not rest or rest[0] not in PAYLOAD_FIELD:
            return None, uid
        name = PAYLOAD_FIELD[rest[0]]
        if rest[0] == "targets" and len(rest) > 1 and rest[1] == "1":
            name = "target2"
        field = f"{name}_{uid}"
        return (field, uid) if field in self.fields else (None, uid)


def initial_from_payload(payload: Mapping[str, Any] | None, cards: Mapping[int, Mapping[str, Any]],
                         abilities: Sequence[Mapping[str, Any]] = ()) -> dict:
    """The form's initial values from a stored order ``payload`` (so the form shows the current order).

    Plays whose uid is no longer among ``cards`` (uid → ``order_options`` card) are left out; a free card goes to
    ``free``, others to the slot of their container. Abilities are matched with ``abilities`` (the options'
    ``abilities``) by role slug and mode.
    """
    initial: dict[str, Any] = {"mode": PLAY, "hand": [], "sleeve": [], "free": [], "discard": [], "abilities": []}
    if not payload:
        return initial
    keys = {(a["ability"], a.get("mode") or ""): a["key"] for a in abilities if not a.get("instant")}
    for use in payload.get("abilities") or []:
        key = keys.get((use.get("ability"), use.get("mode") or "")) if isinstance(use, Mapping) else None
        if key is None:
            continue
        initial["abilities"].append(key)
        for name in ABILITY_INPUTS:
            if name in use:
                initial[f"ab_{name}_{key}"] = use[name]
    if payload.get("discard"):
        initial["mode"] = DISCARD
        initial["discard"] = [u for u in payload["discard"] if isinstance(u, int)]
    for play in payload.get("plays") or []:
        uid = play.get("uid")
        card = cards.get(uid)
        if card is None:
            continue
        group = "free" if card.get("free") else card["from"]
        initial[group].append(uid)
        if "targets" in play and isinstance(play["targets"], list):
            targets = list(play["targets"]) + [None, None]
            initial[f"target_{uid}"], initial[f"target2_{uid}"] = targets[0], targets[1]
        elif "target" in play:
            initial[f"target_{uid}"] = play["target"]
        for key, prefix in (("named_card", "named"), ("text", "text"), ("cards", "cards"), ("pay", "pay"),
                            ("pay_hand", "pay_hand")):
            if key in play:
                initial[f"{prefix}_{uid}"] = play[key]
    return initial


def _ints(value: Any) -> list[int]:
    values = value if isinstance(value, list | tuple) else [] if value in (None, "") else [value]
    out = []
    for v in values:
        try:
            out.append(int(v))
        except (TypeError, ValueError):
            continue
    return out


#: Texts the order form shows, kept here so the template and the view share them.
MODE_LABELS = {PLAY: _("Play cards"), DISCARD: _("Discard two Hand cards instead (FM-5.3)")}
