"""The forms of Bloodwood: the master's options on the "new game" page (BW-3b, BW-5a, BW-23a, BW-24a, BW-27) and the
player's lines read from a posted form. A posted line is not checked by a Django form: :func:`payload_from_post`
hands the raw values on and the engine checks them, so an illegal line is refused with BW-26's code, its reason and
its rule ID, and nothing is saved."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from . import engine
from .texts import SEAT_FIELD_NAMES, card_name, entity_name, seat_field_text

LARGER_TEAM = (("", _("drawn")), ("vampires", _("vampires")), ("werewolves", _("werewolves")))


def options_fields() -> dict[str, forms.Field]:
    """The option fields of the "new game" page (BW-27)."""
    return {
        "leaders": forms.BooleanField(label=_("Leaders (Dracula and The Alpha); off only with an even number"),
                                      required=False, initial=True),
        "inattention": forms.BooleanField(label=_("Inattention: an illegal card is lost (BW-23a)"), required=False),
        "turn_minutes": forms.IntegerField(label=_("Minutes for a turn (10–4320)"), required=False,
                                           min_value=10, max_value=4320, initial=720),
        "step_minutes": forms.IntegerField(label=_("Minutes for the other steps (5–1440)"), required=False,
                                           min_value=5, max_value=1440, initial=240),
        "first_player": forms.IntegerField(label=_("First player's seat number (empty: drawn)"), required=False,
                                           min_value=1, max_value=12),
        "larger_team": forms.ChoiceField(label=_("The larger team with an odd number"), choices=LARGER_TEAM,
                                         required=False),
    }


def options_from_fields(values: Mapping[str, Any]) -> dict:
    """The options from the cleaned values of :func:`options_fields` (checked later by the engine)."""
    clean: dict[str, Any] = {"leaders": bool(values.get("leaders")), "inattention": bool(values.get("inattention"))}
    for key in ("turn_minutes", "step_minutes", "first_player", "larger_team"):
        if values.get(key) not in (None, ""):
            clean[key] = values[key]
    return clean


def _int(value: Any) -> Any:
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def payload_from_post(data) -> dict:
    """A posted line as a payload: ``line`` names its kind (``play``, ``discard``, ``react``, ``leshy``, ``give``,
    ``keep``, ``refill``); the values are passed on raw."""
    line = data.get("line")
    if line == "play":
        payload: dict[str, Any] = {"move": "play", "card": data.get("card")}
        if data.get("target"):
            payload["target"] = _int(data.get("target"))
        return payload
    if line == "discard":
        return {"move": "discard", "cards": [data.get("card")]}
    if line == "react":
        return {"react": data.get("react")}
    if line == "leshy":
        return {"discard": data.getlist("cards")}
    if line == "give":
        return {"give": data.get("card")}
    if line == "keep":
        return {"keep": data.getlist("cards")}
    if line == "refill":
        return {"refill": {"day": _int(data.get("day") or 0), "night": _int(data.get("night") or 0)}}
    return {}


def master_seat_form(state: Mapping[str, Any], sid: str) -> list[dict]:
    """The console's seat edit (``GameModule.master_seat_form``, BW-22g): the hand as card pickers of every card of
    the game, the DNA as a choice, the Curse Mark's count (none, 1 or 2), Chains and Tranquilizer as yes/no."""
    fields = engine.seat_fields(state, sid)
    specs: list[dict] = []
    for key, value in fields.items():
        spec: dict[str, Any] = {"key": key, "label": str(SEAT_FIELD_NAMES[key]), "value": value,
                                "text": seat_field_text(key, value)}
        if key == "hand":
            spec.update(kind="cards", choices=[(c, card_name(c)) for c in state["data"]["cards"]])
        elif key == "dna":
            spec.update(kind="choice", choices=[(d, seat_field_text("dna", d)) for d in engine.DNA])
        elif key == "curse_mark":
            spec.update(kind="choice", choices=[(None, str(_("no mark"))),
                                                *[(n, seat_field_text(key, n)) for n in (1, 2)]],
                        help=str(_("Its own turns left before permanent mutation (BW-10a).")))
        else:
            spec.update(kind="choice", choices=[(None, str(_("no"))), (True, str(_("yes")))])
        specs.append(spec)
    return specs


class RematchForm(forms.Form):
    """BW-23c, the master's side: the dealer of the rematch, among the winning team (only asked after a failed
    declaration; the successful declarer deals otherwise)."""

    dealer = forms.TypedChoiceField(label=_("The dealer (a player of the winning team)"), coerce=int, required=False)

    def __init__(self, *args, candidates=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["dealer"].choices = [(s.pk, s.display_name) for s in candidates]


class DealForm(forms.Form):
    """BW-23c, the dealer's side: one entity per seat (``entity-<position>``) and the first player (a seat number).
    The engine checks the teams (BW-3a): this form only offers the entities."""

    first_player = forms.TypedChoiceField(label=_("Who makes the first move"), coerce=int)

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        choices = [(e, entity_name(e)) for e in engine.ENTITIES]
        for seat in self.seats:
            self.fields[f"entity-{seat.position}"] = forms.ChoiceField(label=seat.display_name, choices=choices)
        self.fields["first_player"].choices = [(s.position + 1, s.display_name) for s in self.seats]
        self.order_fields([f"entity-{s.position}" for s in self.seats] + ["first_player"])

    def deal(self) -> list[str]:
        """The deal in seat order (after ``is_valid``)."""
        return [self.cleaned_data[f"entity-{s.position}"] for s in self.seats]
