"""The community app (issue 24 items 2 and 3): each player's reliability record, warning points and sanctions,
signup requirements, and the finished games' statistics."""
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CommunityConfig(AppConfig):
    """Connects the receivers of the core's signals (game end, handover, modkill, signup)."""

    name = "gm.community"
    label = "community"
    verbose_name = _("Community")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from gm.core import signals

        from . import receivers

        signals.game_finished.connect(receivers.game_finished, dispatch_uid="community.game_finished")
        signals.seat_replaced.connect(receivers.seat_replaced, dispatch_uid="community.seat_replaced")
        signals.seat_modkilled.connect(receivers.seat_modkilled, dispatch_uid="community.seat_modkilled")
        signals.seat_joining.connect(receivers.seat_joining, dispatch_uid="community.seat_joining")
