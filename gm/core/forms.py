"""Forms of the core pages. They only parse input; services decide and raise field errors."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from . import registry


class JSONObjectField(forms.CharField):
    """A textarea holding a JSON object; cleans to a ``dict`` or gives a field error saying what is wrong."""

    widget = forms.Textarea(attrs={"rows": 3})

    def to_python(self, value):
        value = super().to_python(value)
        if not value:
            return {}
        try:
            data = json.loads(value)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                _("This is not valid JSON (line %(line)s, column %(col)s): %(msg)s"),
                params={"line": exc.lineno, "col": exc.colno, "msg": exc.msg},
            ) from None
        except (RecursionError, ValueError):  # nested too deeply, or an integer with too many digits
            raise forms.ValidationError(_("This is not valid JSON.")) from None
        if not isinstance(data, dict):
            raise forms.ValidationError(_("Give a JSON object, e.g. {\"key\": 1}."))
        return data


class GameCreateForm(forms.Form):
    """A new game. Once the module is known (``module_slug``), the form also shows one duration field per phase kind
    (hours) and the module's own option fields instead of the JSON options box; ``clean`` folds them back into
    ``options`` and ``durations`` (seconds) for ``services.game_create``."""

    module = forms.ChoiceField(label=_("Game"), choices=())
    title = forms.CharField(label=_("Title"), max_length=200)
    description = forms.CharField(label=_("Rules and description"), widget=forms.Textarea(attrs={"rows": 5}),
                                  required=False)
    options = JSONObjectField(label=_("Options (JSON)"), required=False)
    durations = JSONObjectField(label=_("Phase durations in seconds (JSON, e.g. {\"night\": 86400})"),
                                required=False)
    starts_at = forms.DateTimeField(label=_("Announced start date (your time zone)"), required=False,
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    rng_seed = forms.IntegerField(label=_("RNG seed (empty: random)"), required=False, min_value=0,
                                  max_value=2**63 - 1)

    def __init__(self, *args, module_slug: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["module"].choices = [("", _("Choose a game…"))] + registry.choices()
        try:
            self.game_module = registry.get(module_slug) if module_slug else None
        except registry.UnknownModule:
            self.game_module = None
        self.duration_fields: list[str] = []
        self.option_fields: list[str] = []
        if self.game_module is None:
            return
        self.fields["module"].initial = self.game_module.slug
        for kind, label in self.game_module.phase_kinds.items():
            name = f"duration_{kind}"
            default = self.game_module.default_durations.get(kind, 86400) / 3600
            self.fields[name] = forms.FloatField(
                label=_("%(phase)s: duration in hours") % {"phase": str(label).replace("%(number)s", "").strip()},
                required=False, min_value=1 / 60, max_value=720, initial=round(default, 2),
            )
            self.duration_fields.append(name)
        extra = self.game_module.options_fields()
        if extra:
            del self.fields["options"]
            for name, field in extra.items():
                self.fields[f"opt_{name}"] = field
                self.option_fields.append(f"opt_{name}")
        # The per-kind hour fields cover the durations; the JSON box stays last, for phase kinds set in seconds.
        self.fields["durations"].label = _("Other durations in seconds (JSON, optional)")
        self.order_fields([f for f in self.fields if f != "durations"] + ["durations"])

    def clean(self):
        cleaned = super().clean()
        durations = dict(cleaned.get("durations") or {})
        for name in self.duration_fields:
            hours = cleaned.pop(name, None)
            if hours is not None:
                durations[name.removeprefix("duration_")] = hours * 3600
        cleaned["durations"] = durations
        if self.option_fields:
            values = {name.removeprefix("opt_"): cleaned.pop(name, None) for name in self.option_fields}
            cleaned["options"] = self.game_module.options_from_fields(values)
        return cleaned


class JoinForm(forms.Form):
    """The core's signup: the character name, and one required checkbox ``accept_<key>`` per text the module asks
    the player to accept (``consents``: the module's ``signup_consents`` for the game's options, BV-15.15)."""

    display_name = forms.CharField(label=_("Character name"), max_length=80)

    def __init__(self, *args, consents: Sequence[Any] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.consents = list(consents)
        for consent in self.consents:
            required = _("Accept it to sign up.") + (f" ({consent.rule})" if consent.rule else "")
            self.fields[f"accept_{consent.key}"] = forms.BooleanField(
                label=consent.label, required=True, error_messages={"required": required})

    def join_data(self) -> dict:
        """The keyword arguments of ``services.seat_join`` (call on a valid form): the name and ``accept``."""
        return {"display_name": self.cleaned_data["display_name"],
                "accept": [c.key for c in self.consents if self.cleaned_data.get(f"accept_{c.key}")]}


def posted_version(data: Mapping[str, Any]) -> int | None:
    """The order version a posted form edits (its hidden ``version`` input: a whole number, 0 for no order yet), or
    ``None`` when the form carries none (no check)."""
    raw = data.get("version")
    raw = raw.strip() if isinstance(raw, str) else ""
    return int(raw) if raw.isdigit() else None


class OrderForm(forms.Form):
    """Generic order form: the order as a JSON object (modules replace it with their own form)."""

    payload = JSONObjectField(label=_("Order (JSON)"), required=True)


class PostForm(forms.Form):
    """A post in the game thread (FM-9.1): BBCode text and a one-line plain comment."""

    body = forms.CharField(
        label=_("Message"), widget=forms.Textarea(attrs={"rows": 6, "class": "thread-body"}), max_length=20000,
        strip=False,
        help_text=_('BBCode: [b]bold[/b], [i]italic[/i], [u], [s], [quote="Name"]…[/quote], [url=https://…]link[/url], '
                    '[img]https://…[/img], [list][*]item[/list], [code]…[/code]. Where the game allows it, '
                    '[private="Name"]text[/private] holds a private message only Name and the master can read.'))
    comment = forms.CharField(label=_("Comment"), max_length=500, required=False,
                              help_text=_("One line of plain text, shown under the post."))


class PostEditForm(PostForm):
    """An edit of one's own post: its private message, if any, stays as it was (FM-9.2), so the text may be empty."""

    body = forms.CharField(label=_("Message"), widget=forms.Textarea(attrs={"rows": 6, "class": "thread-body"}),
                           max_length=20000, required=False, strip=False)


#: The refusal when a confirmation box was left unticked (the browser asks for it first; this is for a request
#: made without the page).
CONFIRM_REQUIRED = _("Tick the box to confirm. Nothing was changed.")


class ConfirmForm(forms.Form):
    """The confirmation step of an action that cannot be taken back (starting a game, withdrawing a signup): a
    required box, ticked. Its label is the template's (it says what the action does)."""

    confirm = forms.BooleanField(label="", error_messages={"required": CONFIRM_REQUIRED})


class ReasonForm(forms.Form):
    """A master's intervention: the reason is required and goes into the audit log."""

    reason = forms.CharField(label=_("Reason (for the audit log)"), max_length=500)


class ExtendForm(ReasonForm):
    minutes = forms.IntegerField(label=_("Extend by (minutes)"), min_value=1, max_value=60 * 24 * 30)


class LobbyFilterForm(forms.Form):
    """The lobby's filter (a GET form): ``module`` — one registered game's slug, or empty for every game;
    ``status`` — one lobby section (``signup``, ``running``, ``finished``, ``drafts``), or empty for all."""

    module = forms.ChoiceField(label=_("Game"), required=False, choices=())
    status = forms.ChoiceField(label=_("Status"), required=False, choices=[
        ("", _("Any status")), ("signup", _("Open for signup")), ("running", _("Running games")),
        ("finished", _("Finished games")), ("drafts", _("My drafts"))])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["module"].choices = [("", _("All games")), *registry.choices()]
        self.fields["module"].widget.attrs["id"] = "lobby-module"
        self.fields["status"].widget.attrs["id"] = "lobby-status"

# -- the master's console (gm.core.console_views) -------------------------------------------------------------------


class SeatEditForm(ReasonForm):
    """A seat's containers and flags, built from the module's ``master_seat_form`` specs (see
    ``GameModule.master_seat_form``): a ``"cards"`` spec becomes one picker of card names per card it holds plus
    :attr:`EXTRA_SLOTS` empty ones (``<key>-<i>``; an empty picker removes or adds nothing), a ``"number"`` spec an
    integer field, a ``"choice"`` spec a select (empty value: ``None``). ``version`` is the seat's version the form
    was drawn from. ``cleaned_data["changes"]`` holds only the keys whose value differs from the spec's; an edit that
    changes nothing is refused. A card that is not one of the choices is a field error of its picker."""

    EXTRA_SLOTS = 3
    #: Messages shown above a form redrawn because the seat changed meanwhile (set by the view).
    conflict: list[str] = []

    seat = forms.IntegerField(widget=forms.HiddenInput)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, specs: list[dict], **kwargs):
        super().__init__(*args, **kwargs)
        self.specs = specs
        self.groups: list[dict] = []  # per spec: its label, help and field names, for the template
        reason = self.fields.pop("reason")
        for spec in specs:
            key, names = spec["key"], []
            if spec["kind"] == "cards":
                choices = [("", "—"), *spec["choices"]]
                for i in range(len(spec["value"]) + self.EXTRA_SLOTS):
                    name = f"{key}-{i}"
                    self.fields[name] = forms.ChoiceField(
                        label=_("%(field)s, card %(n)s") % {"field": spec["label"], "n": i + 1}, choices=choices,
                        required=False, initial=spec["value"][i] if i < len(spec["value"]) else "",
                        error_messages={"invalid_choice": _("This game has no card “%(value)s”: pick one from "
                                                            "the list.")})
                    names.append(name)
            elif spec["kind"] == "number":
                self.fields[key] = forms.IntegerField(label=spec["label"], min_value=spec["min"],
                                                      max_value=spec["max"], initial=spec["value"])
                names.append(key)
            else:
                values = {("" if v is None else str(v)): v for v, _label in spec["choices"]}
                self.fields[key] = forms.TypedChoiceField(
                    label=spec["label"], choices=[("" if v is None else str(v), text) for v, text in spec["choices"]],
                    coerce=lambda raw, values=values: values[raw], empty_value=None, required=False,
                    initial="" if spec["value"] is None else str(spec["value"]))
                names.append(key)
            if spec.get("help"):
                self.fields[names[-1]].help_text = spec["help"]
            self.groups.append({"key": key, "label": spec["label"], "kind": spec["kind"], "help": spec.get("help", ""),
                                "names": names})
        self.fields["reason"] = reason

    def group_fields(self) -> list[dict]:
        """The specs' groups with their bound fields, in order (for the template)."""
        return [{**g, "fields": [self[n] for n in g["names"]]} for g in self.groups]

    def clean(self):
        data = super().clean()
        changes = {}
        for spec, group in zip(self.specs, self.groups, strict=True):
            if any(n in self.errors for n in group["names"]):
                continue
            if spec["kind"] == "cards":
                value = [data[n] for n in group["names"] if data.get(n)]
            else:
                value = data.get(group["names"][0])
            if value != spec["value"]:
                changes[spec["key"]] = value
        data["changes"] = changes
        if not changes and not self.errors:
            raise forms.ValidationError(_("Nothing was changed: change a card or a flag first."))
        return data


class SeatAliveForm(ReasonForm):
    seat = forms.IntegerField(widget=forms.HiddenInput)
    #: "0": kill, "1": revive (the console's button says which).
    alive = forms.TypedChoiceField(choices=[("0", _("Kill")), ("1", _("Revive"))], coerce=lambda v: v == "1",
                                   widget=forms.HiddenInput)


class SeatReplaceForm(ReasonForm):
    seat = forms.IntegerField(widget=forms.HiddenInput)
    user = forms.CharField(label=_("New player's user name"), max_length=150)
    confirm = forms.BooleanField(label=_("Yes, give this seat to the new player"),
                                 error_messages={"required": CONFIRM_REQUIRED})


class AbortForm(ReasonForm):
    """The master aborts the game: a reason for the audit log and the confirmation (it cannot be undone)."""

    confirm = forms.BooleanField(label=_("Yes, abort the game for everyone; it cannot be undone"),
                                 error_messages={"required": CONFIRM_REQUIRED})


class ReviewModeForm(ReasonForm):
    enabled = forms.BooleanField(label=_("Review results before publishing"), required=False)
    auto_minutes = forms.IntegerField(label=_("Publish by itself after (minutes; empty: only when I approve)"),
                                      required=False, min_value=1, max_value=7 * 24 * 60)


class PublishAtForm(ReasonForm):
    publish_at = forms.DateTimeField(label=_("Publish by itself at (your time zone; empty: only when I approve)"),
                                     required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
