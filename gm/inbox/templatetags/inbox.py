"""``{% load inbox %}``: the master's reminder form on the game page and the e-mail opt-in on the profile page,
so those pages need no view changes."""
from __future__ import annotations

from django import template

from ..forms import ReminderForm, SettingsForm
from ..models import NotificationSettings
from ..services import reminder_hours

register = template.Library()


@register.inclusion_tag("inbox/_reminder_form.html")
def reminder_form(game):
    """The deadline-reminder form of ``game`` (render it only for its master)."""
    hours = reminder_hours(game)
    return {"game": game, "form": ReminderForm(initial={"hours": hours}), "hours": hours}


@register.inclusion_tag("inbox/_settings_form.html", takes_context=True)
def notification_settings_form(context, next_url: str = ""):
    """The e-mail opt-in of the logged-in user; ``next_url``: where to return after saving."""
    request = context["request"]
    email = NotificationSettings.objects.filter(user=request.user, email=True).exists()
    return {"form": SettingsForm(initial={"email": email}), "next_url": next_url or request.get_full_path(),
            "user": request.user}
