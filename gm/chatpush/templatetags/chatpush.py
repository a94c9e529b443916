"""``{% load chatpush %}``: the user's channels on the profile page (disabled ones flagged), so that page needs no
view change."""
from __future__ import annotations

from django import template

from ..selectors import channels_of

register = template.Library()


@register.inclusion_tag("chatpush/_profile.html", takes_context=True)
def chatpush_channels(context):
    """The logged-in user's channels with a link to manage them."""
    return {"channels": channels_of(context["request"].user)}
