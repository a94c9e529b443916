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
        # The master's console: a replacement player takes over the seat's signup (public role, character).
        signals.seat_replaced.connect(_seat_replaced, dispatch_uid="forum_mafia.seat_replaced")


def _rooms_created(sender, *, phase_id: int, **kwargs) -> None:
    from .services.rooms import notify_new_rooms

    notify_new_rooms(phase_id=phase_id)


def _seat_replaced(sender, *, seat, old_user, new_user, **kwargs) -> None:
    """The seat's signup (FM-2: public role claim, character, messengers) now belongs to the new player; a signup of
    his own in this game would clash with it, so it refuses (``ServiceError``, nothing changes)."""
    from django.utils.translation import gettext as _

    from gm.core.services import ServiceError

    from .models import Signup

    if Signup.objects.filter(game_id=seat.game_id, user=new_user, status=Signup.Status.ACTIVE).exists():
        raise ServiceError({"user": [_("This user has an active signup in this game; withdraw it first.")]})
    Signup.objects.filter(game_id=seat.game_id, seat=seat).update(user=new_user)
