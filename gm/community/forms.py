"""Community forms: the master's signup requirements and the staff's warning points. They only parse input; the
services check it again and decide."""
from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class RequirementForm(forms.Form):
    """A game's signup requirements (empty: no such requirement)."""

    min_finished = forms.IntegerField(label=_("At least this many finished games"), min_value=0, max_value=1000,
                                      required=False)
    max_missed_percent = forms.IntegerField(label=_("Missed orders at most (%)"), min_value=0, max_value=100,
                                            required=False)
    max_modkilled = forms.IntegerField(label=_("Modkills at most"), min_value=0, max_value=1000, required=False)
    no_sanction = forms.BooleanField(label=_("No active sanction"), required=False)
    reason = forms.CharField(label=_("Reason (for the audit log)"), max_length=1000, required=False)


class WarningForm(forms.Form):
    """Warning points for a player, with the reason he reads."""

    username = forms.CharField(label=_("Player (user name)"), max_length=150)
    points = forms.IntegerField(label=_("Points"), min_value=1, max_value=10, initial=1)
    days = forms.IntegerField(label=_("Expire after (days)"), min_value=1, max_value=730,
                              initial=lambda: settings.GM_WARNING_DAYS)
    reason = forms.CharField(label=_("Reason"), max_length=1000, widget=forms.Textarea(attrs={"rows": 3}))


class StatsFilterForm(forms.Form):
    """The statistics page's filters (GET): a module and, within it, a setup."""

    module = forms.ChoiceField(label=_("Game"), required=False)
    setup = forms.CharField(label=_("Setup"), required=False, max_length=1100)

    def __init__(self, *args, modules=(), setups=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["module"].choices = [("", _("All games"))] + list(modules)
        self.fields["setup"].widget = forms.Select(choices=[("", _("All setups"))] + list(setups))
