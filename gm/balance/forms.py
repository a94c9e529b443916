"""The master's "estimate balance" form: the table size, how many games, the seed and the options (JSON, the game's
own by default). The form only parses; the service checks the ranges and the options and says what is wrong."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from gm.core.balance import MAX_GAMES


class BalanceForm(forms.Form):
    """``players``, ``games`` (1…5000), ``seed`` and ``options`` (a JSON object; empty: none)."""

    players = forms.IntegerField(label=_("Players"), min_value=1)
    games = forms.IntegerField(label=_("Bot games"), min_value=1, max_value=MAX_GAMES, initial=1000,
                               help_text=_("From 1 to 5000; more games, narrower intervals."))
    seed = forms.IntegerField(label=_("Seed"), initial=1,
                              help_text=_("The same seed and setup always give the same report."))
    options = forms.CharField(label=_("Options (JSON)"), required=False, widget=forms.Textarea(attrs={"rows": 3}),
                              help_text=_("The game's options as a JSON object; empty: none."))
