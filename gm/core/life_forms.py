"""Forms of the forum life pages (issue 23 items 1–4): the master's activity options, flags and approvals, a
player's replacement request, his away dates and emergency pause. They parse; the services decide.

Forms of the long-game features (issue 23, items 5–10): the master's options (deadline grid, early ends,
anonymity, graveyard) and the players' small forms (ISO filter, graveyard post). Each form only parses; the
service it feeds validates the rest and refuses bad input as a whole.
"""
from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .forms import CONFIRM_REQUIRED, ReasonForm


class ActivityOptionsForm(forms.Form):
    """The master's activity options (hours as whole numbers)."""

    prod_after = forms.IntegerField(label=_("Prod a player after this many quiet hours"), min_value=1,
                                    max_value=24 * 30)
    prod_grace = forms.IntegerField(label=_("Flag the seat for replacement this many hours after the prod"),
                                    min_value=1, max_value=24 * 30)
    idle_kill = forms.BooleanField(label=_("Kill a seat flagged for being quiet"), required=False)
    replacement_min_time = forms.IntegerField(label=_("Hours a replacement gets at least before the deadline"),
                                              min_value=0, max_value=24 * 14)
    extensions_per_player = forms.IntegerField(label=_("Automatic extensions per player (0: none)"), min_value=0,
                                               max_value=10)
    extension_length = forms.IntegerField(label=_("Hours one automatic extension adds"), min_value=1,
                                          max_value=24 * 7)
    extension_cap = forms.IntegerField(label=_("Hours the automatic extensions may add to one phase in all"),
                                       min_value=1, max_value=24 * 30)
    emergency_pause = forms.BooleanField(label=_("Players may pause this game with their emergency pause"),
                                         required=False)
    reason = forms.CharField(label=_("Reason (for the audit log)"), max_length=500, required=False)


class SeatFlagForm(forms.Form):
    seat = forms.IntegerField(widget=forms.HiddenInput)
    flagged = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1",
                                     widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason (for the audit log)"), max_length=500, required=False)


class RequestAckForm(forms.Form):
    request = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason (for the audit log)"), max_length=500, required=False)


class VolunteerApproveForm(forms.Form):
    volunteer = forms.IntegerField(widget=forms.HiddenInput)
    confirm = forms.BooleanField(label=_("Yes, give the seat to this volunteer"),
                                 error_messages={"required": CONFIRM_REQUIRED})


class ReplacementRequestForm(forms.Form):
    reason = forms.CharField(label=_("Why (only the master reads it)"), max_length=1000, required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))
    confirm = forms.BooleanField(label=_("Yes, I want to be replaced"), error_messages={"required": CONFIRM_REQUIRED})


class AwayForm(forms.Form):
    starts_on = forms.DateField(label=_("Away from"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Away until (inclusive)"), widget=forms.DateInput(attrs={"type": "date"}))


class EmergencyPauseForm(forms.Form):
    hours = forms.IntegerField(label=_("Pause my games for (hours)"), min_value=1,
                               max_value=settings.GM_EMERGENCY_PAUSE_MAX_HOURS)
    confirm = forms.BooleanField(label=_("Yes, pause my running games now"),
                                 error_messages={"required": CONFIRM_REQUIRED})


class GridForm(ReasonForm):
    """The deadline grid (``services.grids.grid_set``). ``kinds`` are offered from the game's module."""

    grid_time = forms.TimeField(label=_("Deadlines fall at (time of day; empty: no fixed time)"), required=False,
                                widget=forms.TimeInput(attrs={"type": "time"}))
    zone = forms.CharField(label=_("In the time zone (empty: yours)"), required=False, max_length=64)
    kinds = forms.MultipleChoiceField(label=_("For these phases (none ticked: all)"), required=False,
                                      widget=forms.CheckboxSelectMultiple)
    quiet_start = forms.TimeField(label=_("Quiet hours from"), required=False,
                                  widget=forms.TimeInput(attrs={"type": "time"}))
    quiet_end = forms.TimeField(label=_("Quiet hours until"), required=False,
                                widget=forms.TimeInput(attrs={"type": "time"}))
    blocked_dates = forms.CharField(label=_("Dates without deadlines (YYYY-MM-DD, separated by spaces)"),
                                    required=False, max_length=1000)
    reminder_table = forms.BooleanField(label=_("Remind players by the lead table when I set no reminder"),
                                        required=False)

    def __init__(self, *args, kinds=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kinds"].choices = list(kinds)


class EarlyEndsForm(ReasonForm):
    """The early-end options (``services.early_ends.early_end_options_set``)."""

    hammer = forms.BooleanField(label=_("Hammer: the day ends once a candidate has more than half of the living votes"),
                                required=False)
    all_ready = forms.BooleanField(label=_("The phase ends once everyone who acts pressed “done”"), required=False)


class ReadyForm(forms.Form):
    """A player's "done" (``done=1``) or taking it back (``done=0``) for the phase the form was made for."""

    phase = forms.IntegerField(widget=forms.HiddenInput)
    done = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1",
                                  widget=forms.HiddenInput)


class AnonymityForm(ReasonForm):
    """Anonymity and the secret ballot (``services.anonymity.anonymity_set``)."""

    anonymous = forms.BooleanField(label=_("Anonymous game: players are known by aliases (before the start only)"),
                                   required=False)
    alias_list = forms.ChoiceField(label=_("Alias list"), required=False)
    secret_ballot = forms.BooleanField(label=_("Secret ballot: votes counted without voters until the phase ends"),
                                       required=False)

    def __init__(self, *args, **kwargs):
        from .services.anonymity import ALIAS_LISTS

        super().__init__(*args, **kwargs)
        self.fields["alias_list"].choices = [(k, name) for k, (name, _aliases) in ALIAS_LISTS.items()]


class GraveyardOptionsForm(ReasonForm):
    """The graveyard options (``services.graveyard.graveyard_options_set``)."""

    graveyard = forms.BooleanField(label=_("Graveyard: the dead leave their groups and talk in the graveyard room"),
                                   required=False)
    dead_see_everything = forms.BooleanField(label=_("The dead see everything"), required=False)
    spectators_read_graveyard = forms.BooleanField(label=_("Spectators read the graveyard"), required=False)


class GraveyardPostForm(forms.Form):
    body = forms.CharField(label=_("Your words"), max_length=5000, widget=forms.Textarea(attrs={"rows": 3}))
