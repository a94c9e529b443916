from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BloodwoodConfig(AppConfig):
    """Bloodwood (its Django side: forms, templates, scenario runner)."""

    name = "gm.modules.bloodwood"
    label = "bloodwood"
    verbose_name = _("Bloodwood")
    default_auto_field = "django.db.models.BigAutoField"
