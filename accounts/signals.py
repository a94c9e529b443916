"""Every user gets a profile; the Sites row follows ``SITE_URL``."""
from urllib.parse import urlsplit

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.db.models.signals import post_save
from django.dispatch import receiver


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender, instance, created, raw=False, **kwargs):
    """A new user's empty profile. The user row was inserted in this transaction, so no profile can refer to it
    yet: one INSERT. A fixture being loaded (``raw``) may bring the user's profile itself, so then only if missing."""
    if created:
        from .models import Profile

        if raw:
            Profile.objects.get_or_create(user=instance)
        else:
            Profile.objects.create(user=instance)


def site_from_settings(*, using: str = DEFAULT_DB_ALIAS, apps=None, **kwargs) -> None:
    """Make the ``SITE_ID`` row of ``django.contrib.sites`` say the host of ``settings.SITE_URL`` (its domain, also
    its name unless ``SITE_NAME`` is set): allauth's e-mails (password reset, confirmation) name the site from it,
    and the row Django creates holds ``example.com``. Connected to ``post_migrate`` of this app (after the sites
    app's own, which creates the row), so every ``migrate`` brings the row in step with the settings."""
    from django.apps import apps as global_apps

    Site = (apps or global_apps).get_model("sites", "Site")
    domain = urlsplit(settings.SITE_URL).netloc or settings.SITE_URL
    name = getattr(settings, "SITE_NAME", "") or domain
    site, created = Site.objects.using(using).get_or_create(pk=settings.SITE_ID,
                                                           defaults={"domain": domain, "name": name})
    if not created and (site.domain, site.name) != (domain, name):
        site.domain, site.name = domain, name
        site.save(using=using, update_fields=["domain", "name"])
    global_apps.get_model("sites", "Site").objects.clear_cache()
