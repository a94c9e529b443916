from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatpushConfig(AppConfig):
    name = "gm.chatpush"
    label = "chatpush"
    verbose_name = _("Chat and push notifications")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from gm.core import signals

        from . import receivers, tasks  # noqa: F401 - tasks: the services find them by name

        # The same signals the inbox listens to; each receiver only enqueues a task (off the request and the
        # resolution path). The inbox is installed first, so its rows exist when these tasks run.
        signals.phase_results_ready.connect(receivers.phase_results_ready, dispatch_uid="gm.chatpush.phase_results")
        signals.game_started.connect(receivers.game_started, dispatch_uid="gm.chatpush.game_started")
        signals.post_created.connect(receivers.post_created, dispatch_uid="gm.chatpush.post_created")
        signals.seat_told.connect(receivers.seat_told, dispatch_uid="gm.chatpush.seat_told")
        signals.seat_prodded.connect(receivers.seat_prodded, dispatch_uid="gm.chatpush.seat_prodded")
