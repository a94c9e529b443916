from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ForumMafiaConfig(AppConfig):
    """The forum Mafia card game module (its Django side: signups, forms, templates)."""

    name = "gm.modules.forum_mafia"
    label = "forum_mafia"
    verbose_name = _("Forum Mafia")
    default_auto_field = "django.db.models.BigAutoField"
