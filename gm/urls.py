"""Root URLs: pages, accounts (allauth), the REST API with its OpenAPI schema, admin, i18n, and the ``urls`` of
every registered game module package that has one."""
import re
from importlib.util import find_spec

from django.conf import settings
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from accounts import views as account_views
from gm.core import observability, site_views

urlpatterns = [
    path("robots.txt", site_views.robots_txt, name="robots_txt"),
    path("favicon.ico", site_views.favicon, name="favicon"),
    path(".well-known/security.txt", site_views.security_txt, name="security_txt"),
    path("sitemap.xml", sitemap, {"sitemaps": site_views.SITEMAPS}, name="sitemap"),
    path("", include("gm.core.urls")),
    path("", include("cards.urls")),
    *(path("", include(f"{m}.urls")) for m in settings.GM_MODULES + settings.GM_EXTRA_MODULES
      if find_spec(f"{m}.urls") is not None),
    path("accounts/profile/", account_views.profile_edit, name="profile"),
    path("accounts/delete/", account_views.account_delete, name="account_delete"),
    path("accounts/export/", account_views.data_export, name="account_export"),
    path("accounts/api-token/", account_views.api_token, name="api_token"),
    path("api/bots/", account_views.bot_guide, name="bot_guide"),
    path("accounts/", include("allauth.urls")),
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    path("", include("gm.inbox.urls")),
    path("", include("gm.balance.urls")),
    path("", include("gm.fairplay.urls")),
    path("api/", include("gm.inbox.api_urls")),
    path("", include("gm.chatpush.urls")),
    path("api/", include("gm.core.api.urls")),
    path("", include("gm.community.urls")),
    path("api/", include("gm.community.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up code as a script file, not inline (script-src 'self').
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("admin/", admin.site.urls),
    path("health/", observability.HealthView.as_view(), name="health"),
    path("metrics", observability.metrics, name="metrics"),
]
if settings.GM_SERVE_MEDIA:
    urlpatterns.append(re_path(rf"^{re.escape(settings.MEDIA_URL.lstrip('/'))}(?P<path>.+)$", account_views.media))

handler404 = "gm.core.views.not_found"
handler500 = "gm.core.views.server_error"
