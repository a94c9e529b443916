"""Checks the web server entry points (``gm.wsgi``, ``gm.asgi``) run once at start, so a broken deployment fails
there with a clear message instead of answering 500 on every page."""
from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured


def ensure_static_collected() -> None:
    """Raise ``ImproperlyConfigured`` when static files are served from a manifest (the production profile's
    ``CompressedManifestStaticFilesStorage``) and ``collectstatic`` has not written it to ``STATIC_ROOT``: every
    ``{% static %}`` would fail and every page answer 500. Other storages (development) need nothing."""
    from django.conf import settings
    from django.contrib.staticfiles.storage import ManifestFilesMixin
    from django.core.files.storage import storages

    storage = storages["staticfiles"]
    if isinstance(storage, ManifestFilesMixin) and not storage.exists(storage.manifest_name):
        raise ImproperlyConfigured(
            f"Static files are not collected: {settings.STATIC_ROOT}/{storage.manifest_name} is missing. Run "
            "'python manage.py collectstatic --noinput' (the Docker image does it when it is built) before starting "
            "the site in the production profile.")
