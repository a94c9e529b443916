from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BalanceConfig(AppConfig):
    """The balance report (issue 24 item 4): seeded bot games of a setup on the pure engine, run by Celery, shown on
    the game's balance page (``gm.core.balance`` plays them)."""

    name = "gm.balance"
    label = "balance"
    verbose_name = _("Balance reports")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import tasks  # noqa: F401  (registers the task with Celery for services.task())
