"""The forms of co-mastering (issue 24 item 5): adding and removing a co-master on the console, taking over from an
inactive master, and a reviewer's decision on a setup."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class CoMasterAddForm(forms.Form):
    """The master names a co-master by username; ``read_only``: he only reads; ``public``: players may know."""

    username = forms.CharField(label=_("Username"), max_length=150)
    read_only = forms.BooleanField(label=_("Read-only (sees everything, can't act)"), required=False)
    public = forms.BooleanField(label=_("Show him to the players as a co-master"), required=False, initial=True)
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class CoMasterRemoveForm(forms.Form):
    """Remove the co-master ``username``."""

    username = forms.CharField(label=_("Username"), max_length=150, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class TakeoverForm(forms.Form):
    """Take over a game whose master is inactive (the ticked box confirms it)."""

    confirm = forms.BooleanField(label=_("Yes, I take this game over as its master"), required=True)
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class ReviewDecisionForm(forms.Form):
    """A reviewer's answer on one setup: approve, or reject with a comment."""

    decision = forms.ChoiceField(label=_("Decision"), choices=[("approve", _("Approve: open the signups")),
                                                               ("reject", _("Reject"))], widget=forms.RadioSelect)
    comment = forms.CharField(label=_("Comment for the master"), max_length=2000, required=False,
                              widget=forms.Textarea(attrs={"rows": 3}))
