from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InboxConfig(AppConfig):
    name = "gm.inbox"
    label = "inbox"
    verbose_name = _("Inbox")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from gm.core import signals

        from . import receivers

        # The core sends this after a resolution has committed (phase_notify_task); the core never names the inbox.
        signals.phase_results_ready.connect(receivers.phase_results_ready, dispatch_uid="gm.inbox.phase_results")
        signals.post_created.connect(receivers.post_created, dispatch_uid="gm.inbox.post_created")
        signals.seat_replaced.connect(receivers.seat_replaced, dispatch_uid="gm.inbox.seat_replaced")
        signals.seat_told.connect(receivers.seat_told, dispatch_uid="gm.inbox.seat_told")
        signals.seat_prodded.connect(receivers.seat_prodded, dispatch_uid="gm.inbox.seat_prodded")
        signals.master_notice.connect(receivers.master_notice, dispatch_uid="gm.inbox.master_notice")
        signals.game_started.connect(receivers.game_started, dispatch_uid="gm.inbox.game_started")
