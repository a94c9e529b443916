"""Inbox forms: they only parse input; services decide."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import MAX_REMINDER_HOURS


class SettingsForm(forms.Form):
    """The user's e-mail opt-in."""

    email = forms.BooleanField(label=_("Also send phase results and deadline reminders by e-mail"), required=False)


class ReminderForm(forms.Form):
    """The master's deadline reminder for one game: whole hours before each deadline, 0 = off."""

    hours = forms.IntegerField(label=_("Remind players who have not ordered, hours before the deadline (0: never)"),
                               min_value=0, max_value=MAX_REMINDER_HOURS)
