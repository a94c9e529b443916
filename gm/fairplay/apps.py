from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairplayConfig(AppConfig):
    """Connects the login and spectator receivers and registers the purge task."""

    name = "gm.fairplay"
    label = "fairplay"
    verbose_name = _("Fair play")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from gm.core.signals import spectator_seen

        from . import receivers, tasks  # noqa: F401 - the purge task registers with Celery

        user_logged_in.connect(receivers.logged_in, dispatch_uid="fairplay_logged_in")
        spectator_seen.connect(receivers.spectator_seen, dispatch_uid="fairplay_spectator_seen")
