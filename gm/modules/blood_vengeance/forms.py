"""The forms of Mafia: Blood Vengeance: the master's options on the "new game" page — role set or preset, every
variant of BV-15 (all off by default), the scenario conditions of BV-3, ``missed_action``, and the role table's
values edited per game (BV-13.1) — and the player's order form for the open phase, offering only the legal choices
the engine computed (BV-5, BV-13, BV-16).

A form does not decide legality: the posted choice becomes a payload that the engine checks again, so an illegal
order is refused with its BV-16 reason and rule ID, and nothing is saved.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml
from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from . import engine
from .texts import ROLE_NAMES

VARIANT_LABELS = {
    "visiting_hunters": _("Visiting hunters (BV-15.1)"), "lone_hunters": _("Lone hunters (BV-15.2)"),
    "vampire_masquerade": _("Vampire masquerade: anonymous vote (BV-15.3)"),
    "vampire_rage": _("Vampire rage: cards opened only at the end (BV-15.4)"),
    "flowers": _("Flowers of execution and salvation (BV-15.5)"), "blood_vengeance": _("Blood vengeance (BV-15.6)"),
    "hunter_of_hunters": _("Hunter of hunters (BV-15.7)"), "arbiter_of_fates": _("Arbiter of fates (BV-15.8)"),
    "festival_panic": _("Festival panic (BV-15.9)"), "vampire_secrets": _("Vampire secrets (BV-15.10)"),
    "grimaces_of_fate": _("Grimaces of fate: a die picks each night's vote (BV-15.11)"),
    "enchanted": _("The enchanted: spell of silence (BV-15.12)"),
    "guards_at_the_gate": _("Guards at the gate: three players (BV-15.13)"),
    "temporary_master": _("Temporary master (BV-15.14)"),
}
GROUP_LABELS = {"vote": _("Vote"), "black": _("Black rose"), "red": _("Red rose"),
                "elect": _("Elect the hunter of hunters"), "heir": _("Your heir"), "delegate": _("Pass your vote to"),
                "verdict": _("Execute all the tied?")}


class RolesInput(forms.TextInput):
    """The role list's input with BV-2's live check under it: as the master types (or picks a preset, or ticks an
    option), htmx asks ``blood_vengeance:setup_check`` with the whole "new game" form and shows the summary, the
    hard limits broken and the departures from the table in the box (``aria-live``, so it is read out)."""

    template_name = "blood_vengeance/roles_input.html"

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["check_url"] = reverse("blood_vengeance:setup_check")
        return context


def options_fields() -> dict[str, forms.Field]:
    """The option fields of the "new game" page (BV-2, BV-3, BV-13.1, BV-14.3, BV-15)."""
    fields: dict[str, forms.Field] = {
        "preset": forms.ChoiceField(label=_("Scenario preset (BV-3)"), required=False,
                                    choices=[("", "—")] + [(p, p) for p in engine.PRESETS]),
        "roles": forms.CharField(label=_("Cards in play (card slugs; empty: the preset or the first-game set)"),
                                 required=False, help_text=", ".join(engine.ROLES), widget=RolesInput()),
        "werewolf": forms.BooleanField(label=_("Add the werewolf to the first-game set (BV-2.3)"), required=False),
        "secret_lord": forms.BooleanField(label=_("Secret lord (BV-2.6)"), required=False),
        "secret_werewolf": forms.BooleanField(label=_("Secret werewolf (BV-2.6)"), required=False),
        "werewolf_invasion": forms.BooleanField(label=_("Werewolf invasion (BV-3.3)"), required=False),
        "wolf_pits": forms.BooleanField(label=_("Wolf pits (BV-3.4)"), required=False),
        "undercover": forms.ChoiceField(label=_("Undercover hunter (BV-3.5)"), required=False,
                                        choices=[("", "—"), ("scout", ROLE_NAMES["scout"]),
                                                 ("beauty", ROLE_NAMES["beauty"])]),
        "missed_action": forms.ChoiceField(label=_("A missed must-act ability (BV-14.3)"),
                                           choices=[("none", _("no action")), ("random", _("a random legal target"))]),
        "doomed_info": forms.ChoiceField(label=_("Doomed information roles (BV-6.6)"),
                                         choices=[("give", _("get their result")), ("withhold", _("get nothing"))]),
    }
    for slug in engine.VARIANTS:
        fields[slug] = forms.BooleanField(label=VARIANT_LABELS[slug], required=False)
    fields["table"] = forms.CharField(
        label=_("Role table changes for this game (BV-13.1), YAML: card: {key: value}"), required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("e.g. count: {effect: vampire_check} or queen: {self: 'no'}"))
    fields["series"] = forms.CharField(label=_("Series (BV-12.3)"), required=False, max_length=60)
    return fields


def options_from_fields(values: Mapping[str, Any]) -> dict:
    """The options from the cleaned values of :func:`options_fields` (checked afterwards by the engine); a role
    table change that is not YAML is passed on as it is, so the engine names the fault."""
    out: dict[str, Any] = {}
    roles = [r for r in (values.get("roles") or "").replace(",", " ").split() if r]
    if roles:
        out["roles"] = roles
    for key in ("preset", "undercover", "series"):
        if values.get(key):
            out[key] = values[key]
    for key in ("missed_action", "doomed_info"):
        if values.get(key):
            out[key] = values[key]
    for key in (*engine.VARIANTS, "werewolf", "secret_lord", "secret_werewolf", "werewolf_invasion", "wolf_pits"):
        if values.get(key):
            out[key] = True
    if values.get("table"):
        try:
            out["table"] = yaml.safe_load(values["table"])
        except yaml.YAMLError:
            out["table"] = values["table"]
    return out


class OrderForm(forms.Form):
    """The player's order for the open phase: one field per group of legal choices (``vote``, ``verdict``, a light
    ability…), each offering exactly the choices the engine accepts; "—" leaves the group out."""

    def __init__(self, *args, grouped: Mapping[str, list[dict]], labels: Mapping[str, list[str]], **kw):
        super().__init__(*args, **kw)
        for group, payloads in grouped.items():
            label = GROUP_LABELS.get(group) or ROLE_NAMES.get(group, group)
            choices = [("", "—")] + [(str(i), labels[group][i]) for i in range(len(payloads))]
            self.fields[f"g_{group}"] = forms.ChoiceField(label=label, choices=choices, required=False)


def payload_from_post(data, grouped: Mapping[str, list[dict]], kind: str) -> dict:
    """The order payload from a POST of :class:`OrderForm`: the chosen payload of each group merged (a light order
    collects one action per ability). Unknown indices are ignored; the engine checks the result."""
    payload: dict[str, Any] = {}
    actions = []
    for group, payloads in grouped.items():
        raw = data.get(f"g_{group}")
        if raw is None or not str(raw).isdigit() or int(raw) >= len(payloads):
            continue
        chosen = payloads[int(raw)]
        if kind == "light":
            actions.append(chosen)
        else:
            payload.update(chosen)
    if kind == "light":
        return {"actions": actions}
    return payload
