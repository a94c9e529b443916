"""The web's conventions around the pages: ``robots.txt``, ``/favicon.ico``, ``sitemap.xml`` of the games anonymous
visitors may see, and ``/.well-known/security.txt`` (RFC 9116). Every absolute URL is on ``settings.SITE_URL``, never
on the Sites framework's domain or the request's Host header (which a client chooses)."""
from __future__ import annotations

from datetime import timedelta
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from . import visibility
from .links import absolute_url as site_url

#: Paths crawlers are asked to leave alone: the API, the master's console and the account pages (they are behind a
#: login anyway, and their login redirects are not content).
ROBOTS_DISALLOW = ("/api/", "/admin/", "/accounts/", "/inbox/", "/i18n/", "/games/*/console/")

FAVICON = Path(settings.BASE_DIR) / "static" / "img" / "favicon.svg"


@require_safe
@cache_control(max_age=86400, public=True)
def robots_txt(request):
    """``robots.txt``: everything may be crawled but :data:`ROBOTS_DISALLOW`; the sitemap's address on SITE_URL."""
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in ROBOTS_DISALLOW), "",
             f"Sitemap: {site_url(reverse('sitemap'))}", ""]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")


@cache
def _favicon_bytes() -> bytes:
    return FAVICON.read_bytes()


@require_safe
@cache_control(max_age=604800, public=True)
def favicon(request):
    """``/favicon.ico`` for clients that ask for it without reading the page's ``<link rel="icon">``: the site's SVG
    icon (browsers go by the content type, not the name)."""
    return HttpResponse(_favicon_bytes(), content_type="image/svg+xml")


@require_safe
@cache_control(max_age=86400, public=True)
def security_txt(request):
    """``/.well-known/security.txt`` (RFC 9116): ``Contact`` from ``settings.GM_SECURITY_CONTACT`` (a ``mailto:`` or
    ``https:`` URI; a bare e-mail address gets ``mailto:``), ``Expires`` a fixed span ahead (the file is generated,
    so it never goes stale), ``Canonical`` and ``Preferred-Languages``."""
    contact = settings.GM_SECURITY_CONTACT
    if "@" in contact and ":" not in contact:
        contact = f"mailto:{contact}"
    expires = (timezone.now() + timedelta(days=180)).replace(microsecond=0)
    lines = [f"Contact: {contact}", f"Expires: {expires.strftime('%Y-%m-%dT%H:%M:%SZ')}",
             f"Canonical: {site_url(reverse('security_txt'))}", "Preferred-Languages: ru, en", ""]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")


class PublicGameSitemap(Sitemap):
    """The games an anonymous visitor may see (``visibility.visible_games(None)``: every game but drafts), at their
    public page on SITE_URL, most recently changed first."""

    changefreq = "hourly"
    limit = 5000

    def items(self):
        fields = ("pk", "status", "created_at", "started_at", "finished_at")
        return visibility.visible_games(None).select_related(None).only(*fields).order_by("-created_at", "-pk")

    def location(self, game):
        return game.get_absolute_url()

    def lastmod(self, game):
        return game.finished_at or game.started_at or game.created_at

    def get_protocol(self, protocol=None):
        return urlsplit(settings.SITE_URL).scheme or "https"

    def get_domain(self, site=None):
        parts = urlsplit(settings.SITE_URL)
        return parts.netloc + parts.path.rstrip("/")


SITEMAPS = {"games": PublicGameSitemap}
