"""The forms of One Night Ultimate Werewolf: the master's options on the "new game" page (ON-2, ON-4.2, ON-16) and
the player's choice for the open phase, offering only legal values (ON-4, ON-6, ON-14).

A posted order is not checked by a Django form: :func:`payload_from_post` hands the raw values on and the engine
checks them, so an illegal choice is refused with the engine's reason and its rule ID, and nothing is saved.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import engine
from .texts import CENTER_NAMES, role_name

#: The seer's center-card pairs as one choice each (ON-4.5), so the form can only offer legal looks.
CENTER_PAIRS = (("center1", "center2"), ("center1", "center3"), ("center2", "center3"))
CHOICE_LABELS = {
    "copy": _("Look at this player's card and become that role (doppelganger)"),
    "seer": _("Look at one other player's card or at two center cards (seer)"),
    "robber": _("Swap your card with this player's and look at your new card (robber)"),
    "troublemaker": _("Swap the cards of exactly two other players, without looking (troublemaker)"),
    "drunk": _("Swap your card with a center card, without looking (drunk)"),
    "lone_wolf": _("You are the only werewolf: look at one center card"),
    "vote": _("Vote for another player"),
}


def options_fields() -> dict[str, forms.Field]:
    """The option fields of the "new game" page: ``roles`` (role slugs, each shown with its name in the master's
    language; empty: the recommended set, ON-2), ``lone_wolf`` (ON-4.2), ``series`` (ON-16)."""
    slugs = format_html_join(", ", "<code>{}</code> ({})", ((r, role_name(r)) for r in engine.ROLES))
    return {
        "roles": forms.CharField(
            label=_("Cards in play (players + 3; empty: the recommended set)"), required=False,
            help_text=mark_safe(conditional_escape(gettext("Role slugs separated by spaces: %(roles)s."))
                                % {"roles": slugs})),
        "lone_wolf": forms.BooleanField(label=_("A lone werewolf may look at a center card"), required=False,
                                        initial=True),
        "series": forms.CharField(label=_("Tournament series (first to 5 tokens wins)"), required=False,
                                  max_length=60),
    }


def options_from_fields(values: Mapping[str, Any]) -> dict:
    """The options from the cleaned values of :func:`options_fields` (checked later by the engine)."""
    roles = [r for r in (values.get("roles") or "").replace(",", " ").split() if r]
    clean: dict[str, Any] = {"lone_wolf": bool(values.get("lone_wolf"))}
    if roles:
        clean["roles"] = roles
    if values.get("series"):
        clean["series"] = values["series"]
    return clean


class ChoiceForm(forms.Form):
    """The form for one choice, offering only legal values: other players, center cards or center pairs."""

    def __init__(self, *args, choice: str, seats: list[tuple[str, str]], own: str, initial_payload=None, **kw):
        super().__init__(*args, **kw)
        others = [(sid, name) for sid, name in seats if sid != own]
        centers = [(c, str(CENTER_NAMES[c])) for c in engine.CENTER]
        label = CHOICE_LABELS[choice]
        if choice in ("copy", "robber", "vote"):
            key = {"copy": "copy", "robber": "swap_with", "vote": "vote"}[choice]
            self.fields[key] = forms.ChoiceField(label=label, choices=others, widget=forms.RadioSelect)
        elif choice == "seer":
            pairs = [("+".join(p), f"{CENTER_NAMES[p[0]]} + {CENTER_NAMES[p[1]]}") for p in CENTER_PAIRS]
            self.fields["look"] = forms.ChoiceField(label=label, choices=others + pairs, widget=forms.RadioSelect)
        elif choice == "troublemaker":
            self.fields["swap"] = forms.MultipleChoiceField(label=label, choices=others,
                                                            widget=forms.CheckboxSelectMultiple)
        elif choice == "drunk":
            self.fields["take"] = forms.ChoiceField(label=label, choices=centers, widget=forms.RadioSelect)
        elif choice == "lone_wolf":
            self.fields["look"] = forms.ChoiceField(label=label, choices=centers, widget=forms.RadioSelect)
        if initial_payload:
            for key, value in initial_payload.items():
                if key in self.fields:
                    if key == "look" and isinstance(value, list):
                        value = "+".join(str(v) for v in value)
                    self.fields[key].initial = [str(v) for v in value] if isinstance(value, list) else str(value)


def _ref(value: str) -> Any:
    """A posted player or center reference: seat ids become ints (as the engine takes them)."""
    value = value.strip()
    return int(value) if value.isdigit() else value


def payload_from_post(data) -> dict:
    """The order payload from a POST (any keys the forms use), unchecked: the engine checks it (ON-4, ON-6)."""
    payload: dict[str, Any] = {}
    for key in ("copy", "swap_with", "take", "vote"):
        if data.get(key):
            payload[key] = _ref(data[key])
    if data.get("look"):
        payload["look"] = [_ref(v) for v in data["look"].split("+")]
    if "swap" in data:
        payload["swap"] = [_ref(v) for v in data.getlist("swap")]
    return payload
