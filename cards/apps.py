from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    """The card collection, deck building and containers."""

    name = "cards"
    verbose_name = _("Cards")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import services  # noqa: F401  (connects the collection snapshot to game_started)
