from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ForumMafiaConfig(AppConfig):
    """The forum Mafia card game module (its Django side: signups, forms, templates)."""

    name = "gm.modules.forum_mafia"
    label = "forum_mafia"
    verbose_name = _("Forum Mafia")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from gm.core import signals

        # FM-9.3: once a day's resolution has committed, the members of the rooms it created are told (inbox).
        signals.phase_results_ready.connect(_rooms_created, dispatch_uid="forum_mafia.rooms_created")


def _rooms_created(sender, *, phase_id: int, **kwargs) -> None:
    from .room_services import notify_new_rooms

    notify_new_rooms(phase_id=phase_id)
