from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OctoberNightConfig(AppConfig):
    """October Night (its Django side: order forms, templates, scenario runner)."""

    name = "gm.modules.october_night"
    label = "october_night"
    verbose_name = _("October Night")
    default_auto_field = "django.db.models.BigAutoField"
