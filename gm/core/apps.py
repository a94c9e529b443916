from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "gm.core"
    label = "core"
    verbose_name = _("Game master")

    def ready(self):
        from django.conf import settings

        from . import registry, tasks  # noqa: F401 - tasks: the services find the core's tasks by name

        registry.load(settings.GM_MODULES + settings.GM_EXTRA_MODULES)

        from django.db.models.signals import post_migrate

        from .page_stamps import install_on_migrate

        post_migrate.connect(install_on_migrate, sender=self, dispatch_uid="gm_page_stamps")
