"""Chat and push forms: they only parse input; the services decide what is valid."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import DEFAULT_EVENTS, EVENTS


class EventsField(forms.MultipleChoiceField):
    """The events a channel receives, as checkboxes."""

    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Send me"))
        super().__init__(choices=list(EVENTS.items()), required=False, **kwargs)


class AppriseForm(forms.Form):
    """Link a chat webhook: its apprise URL, a name, the events."""

    url = forms.CharField(label=_("Webhook address"), max_length=2000, strip=True,
                          help_text=_("Discord: https://discord.com/api/webhooks/…; Slack: https://hooks.slack.com/"
                                      "services/…; Telegram: tgram://bot-token/chat-id; Matrix: "
                                      "matrixs://user:password@server/#room."))
    label = forms.CharField(label=_("Name"), max_length=80, required=False)
    events = EventsField(initial=DEFAULT_EVENTS)


class WebPushForm(forms.Form):
    """Link this browser: the subscription JSON the subscribe button fills in."""

    subscription = forms.CharField(label=_("Subscription"), max_length=2000, widget=forms.HiddenInput)
    label = forms.CharField(label=_("Name"), max_length=80, required=False)


class ChannelForm(forms.Form):
    """A linked channel's name and events."""

    label = forms.CharField(label=_("Name"), max_length=80, required=False)
    events = EventsField()
