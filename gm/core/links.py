"""Absolute links on the site's configured address (``settings.SITE_URL``), never on the request's Host header or the
Sites row: feeds, e-mails, sitemaps, Open Graph tags and security.txt all link through :func:`absolute_url`."""
from __future__ import annotations

from django.conf import settings


def absolute_url(path: str) -> str:
    """``path`` (site-absolute, e.g. ``/games/3/``) on ``SITE_URL`` (e.g. ``https://gm.example/games/3/``)."""
    return settings.SITE_URL.rstrip("/") + path
