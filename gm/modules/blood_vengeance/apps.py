from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BloodVengeanceConfig(AppConfig):
    """Mafia: Blood Vengeance (its Django side: order forms, templates, scenario runner)."""

    name = "gm.modules.blood_vengeance"
    label = "blood_vengeance"
    verbose_name = _("Mafia: Blood Vengeance")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the series' silence to the core's game_started, BV-15.12)
