"""The forms of October Night: the master's options on the "new game" page (OC-3.3, OC-11.1, OC-17), the master's
per-game data edit (OC-17) and the player's order for the open phase, offering only the legal lines (OC-11.5).

A posted order is not checked by a Django form: :func:`payload_from_post` builds the payload from the chosen lines
and the engine checks it, so an illegal choice is refused with the engine's reason, rule ID and code (OC-18).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import yaml
from django import forms
from django.utils.translation import gettext_lazy as _

from . import engine
from .texts import FIELD_NAMES, field_text, name

MAIN_KEYS = ("rest", "heal", "trade", "fight", "ally", "foil", "travel", "buy", "auto", "section", "enemy", "mystery",
             "abandon", "deadly_fight")


def options_fields() -> dict[str, forms.Field]:
    """The option fields of the "new game" page: ``first_week_bonus`` (OC-3.3), ``characters`` (OC-2.1), ``data``
    (YAML overrides of the default data set, OC-17; empty: the default set) and the ``phase_hours`` of each phase
    kind (OC-11.1; empty: the game's durations)."""
    return {
        "first_week_bonus": forms.BooleanField(label=_("The first week's +4 experience at set-up"), required=False,
                                               initial=True),
        "characters": forms.CharField(label=_("Character sheets by seat (slugs in seat order; empty or “-”: a "
                                              "random free sheet)"), required=False, max_length=200),
        "data": forms.CharField(label=_("Data overrides (YAML; empty: the default set)"), required=False,
                                widget=forms.Textarea(attrs={"rows": 4})),
        **{f"hours_{kind}": forms.IntegerField(label=label, required=False, min_value=1, max_value=24 * 14)
           for kind, label in (("action", _("Action phase, hours (empty: the game's duration)")),
                               ("contact", _("Contact phase, hours (empty: the game's duration)")),
                               ("ritual", _("Ritual, hours (empty: the game's duration)")))},
    }


def options_from_fields(values: Mapping[str, Any]) -> dict:
    """The options from the cleaned values of :func:`options_fields` (checked later by the engine)."""
    clean: dict[str, Any] = {"first_week_bonus": bool(values.get("first_week_bonus"))}
    sheets = [None if c == "-" else c for c in (values.get("characters") or "").replace(",", " ").split()]
    if sheets:
        clean["characters"] = sheets
    hours = {kind: values[f"hours_{kind}"] for kind in ("action", "contact", "ritual") if values.get(f"hours_{kind}")}
    if hours:
        clean["phase_hours"] = hours  # OC-11.1: each phase of that kind opens with this many hours
    if values.get("data"):
        try:
            clean["data"] = yaml.safe_load(values["data"]) or {}
        except yaml.YAMLError:
            clean["data"] = values["data"]  # the engine refuses it with its reason
    return clean


class DataForm(forms.Form):
    """The master's per-game data overrides as YAML (OC-17), e.g. ``enemies: [{slug: ghoul, modifier: 12}]``."""

    data = forms.CharField(label=_("Data overrides (YAML)"), required=False,
                           widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "lang": "zxx"}))
    reason = forms.CharField(label=_("Reason"), required=False, max_length=200)


class BoardForm(forms.Form):
    """OC-11.6: the master's edit of a running game's board as YAML — ``enemies``, ``bag``, ``decks``,
    ``reserve`` (the keys given replace those parts) — and the reason for the audit log."""

    # lang="zxx": YAML of slugs, no text in any language (screen readers and the language checks skip it).
    board = forms.CharField(label=_("The board (YAML)"), widget=forms.Textarea(attrs={
        "rows": 14, "spellcheck": "false", "lang": "zxx"}))
    reason = forms.CharField(label=_("Reason (for the audit log)"), max_length=200)


class ClaimForm(forms.Form):
    """OC-2.1: the character sheet a player claims at sign-up; sheets another player holds are shown with his name
    and refused by the service if chosen (the form does not decide)."""

    character = forms.ChoiceField(label=_("Your character sheet"), required=False)

    def __init__(self, *args, sheets: Sequence[Mapping[str, Any]] = (), me: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("a random free sheet"))]
        for sheet in sheets:
            taken = sheet["holder"] and sheet["holder"] != me
            label = _("%(sheet)s — taken by %(player)s") % {"sheet": sheet["name"], "player": sheet["holder"]} \
                if taken else sheet["name"]
            choices.append((sheet["slug"], label))
        self.fields["character"].choices = choices


class OrderForm(forms.Form):
    """The order of the open phase: one main line (action, contact or the deadly fight) among the legal ones, and
    any free lines (abilities, learn, use, side). ``lines`` are the selector's legal lines (``why`` empty)."""

    def __init__(self, *args, lines: Sequence[Mapping[str, Any]], trade: Mapping[str, Any] | None = None, **kw):
        super().__init__(*args, **kw)
        main = [(line["key"], line["label"]) for line in lines if line["key"].split(":")[0] in MAIN_KEYS]
        free = [(line["key"], line["label"]) for line in lines if line["key"].split(":")[0] not in MAIN_KEYS]
        self.fields["main"] = forms.ChoiceField(label=_("Your line"), choices=[("", _("nothing"))] + main,
                                                required=False, widget=forms.RadioSelect)
        if free:
            self.fields["free"] = forms.MultipleChoiceField(label=_("Free lines"), choices=free, required=False,
                                                            widget=forms.CheckboxSelectMultiple)
        if trade is not None:
            # OC-4.5: the cards of a trade (his own, and those of the players here), and accepting another's trade.
            own = [(c, name(c)) for c in trade["own"]]
            theirs = [(c, name(c)) for c in trade["theirs"]]
            if any(line["key"].startswith("trade:") for line in lines):
                self.fields["trade_give"] = forms.MultipleChoiceField(
                    label=_("Trade: cards you give"), choices=own, required=False,
                    widget=forms.CheckboxSelectMultiple)
                self.fields["trade_get"] = forms.MultipleChoiceField(
                    label=_("Trade: cards you get"), choices=theirs, required=False,
                    widget=forms.CheckboxSelectMultiple)
            if trade["partners"]:
                self.fields["accept_from"] = forms.ChoiceField(
                    label=_("Accept a trade from"), choices=[("", "—")] + list(trade["partners"]), required=False)
                self.fields["accept_give"] = forms.MultipleChoiceField(
                    label=_("Accepted trade: cards you give"), choices=own, required=False,
                    widget=forms.CheckboxSelectMultiple)
                self.fields["accept_get"] = forms.MultipleChoiceField(
                    label=_("Accepted trade: cards you get"), choices=theirs, required=False,
                    widget=forms.CheckboxSelectMultiple)


def payload_from_post(data, lines: Sequence[Mapping[str, Any]]) -> dict:
    """The order payload from a POST: the chosen ``main`` line and ``free`` lines (keys of ``lines``, every line
    the seat might give, legal or not) merged into one payload; unknown keys are ignored. Unchecked: the engine
    checks it."""
    by_key = {line["key"]: line["payload"] for line in lines}
    payload: dict[str, Any] = {}
    getlist = data.getlist if hasattr(data, "getlist") else (lambda key: list(data.get(key) or []))
    if str(data.get("main") or "").startswith("trade:") and data.get("main") in by_key:
        action = dict(by_key[data["main"]]["action"])
        action.update(give=list(getlist("trade_give")), get=list(getlist("trade_get")))
        payload["action"] = action
    if data.get("accept_from"):
        frm = str(data["accept_from"])
        payload["accept_trades"] = [{"from": int(frm) if frm.isdigit() else frm,
                                     "give": list(getlist("accept_give")), "get": list(getlist("accept_get"))}]
    keys = [data.get("main")] + (data.getlist("free") if hasattr(data, "getlist") else list(data.get("free") or []))
    for key in keys:
        part = by_key.get(key or "")
        if not part or "action" in payload and "action" in part:
            continue
        for k, v in part.items():
            if k in ("abilities", "use") and k in payload:
                payload[k] = payload[k] + v
            else:
                payload[k] = v
    return payload


def master_seat_form(state: Mapping[str, Any], sid: str) -> list[dict]:
    """OC-11.6: the console's seat edit — location as a choice, numbers with their ranges, items and abilities as
    card pickers of the game's data."""
    fields = engine.seat_fields(state, sid)
    if not fields:
        return []
    data = state["data"]
    st = data["settings"]
    specs: list[dict] = []
    for key, value in fields.items():
        spec: dict[str, Any] = {"key": key, "label": str(FIELD_NAMES.get(key, key)), "value": value,
                                "text": field_text(key, value)}
        if key == "location":
            spec.update(kind="choice", choices=[(loc["slug"], name(loc["slug"])) for loc in data["locations"]])
        elif key in ("assets", "ingredients"):
            spec.update(kind="cards", choices=[(e["slug"], name(e["slug"])) for e in data[key]])
        elif key in ("abilities", "used"):
            spec.update(kind="cards", choices=[(e["slug"], name(e["slug"])) for e in data["abilities"]])
        elif key == "contact":
            spec.update(kind="choice", choices=[(None, str(_("none")))] + [
                (e["slug"], name(e["slug"])) for sec in ("search_contacts", "combat_contacts", "personal_contacts")
                for e in data[sec]])
        else:
            hi = {"health": st["health_max"], "experience": 999, "clues": 999}.get(key, st["skill_max"])
            spec.update(kind="number", min=0, max=int(hi))
        specs.append(spec)
    return specs
