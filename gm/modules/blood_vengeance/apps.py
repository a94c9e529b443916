from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OnuwConfig(AppConfig):
    """One Night Ultimate Werewolf (its Django side: order forms, templates, scenario runner)."""

    name = "gm.modules.onuw"
    label = "onuw"
    verbose_name = _("One Night Ultimate Werewolf")
    default_auto_field = "django.db.models.BigAutoField"
