"""Root URLs: pages, accounts (allauth), the REST API with its OpenAPI schema, admin, i18n, and the ``urls`` of
every registered game module package that has one."""
from importlib.util import find_spec

from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.static import serve
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import views as account_views

urlpatterns = [
    path("", include("gm.core.urls")),
    path("", include("cards.urls")),
    path("", include("gm.modules.forum_mafia.setup_urls")),
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
    path("api/", include("gm.inbox.api_urls")),
    path("api/", include("gm.core.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("admin/", admin.site.urls),
]
if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
elif settings.GM_SERVE_MEDIA:
    # The demo runs with DEBUG off (bin/demo-env) and no web server in front: Django serves uploads itself.
    urlpatterns += [re_path(rf"^{settings.MEDIA_URL.strip('/')}/(?P<path>.*)$", serve,
                            {"document_root": settings.MEDIA_ROOT})]

handler404 = "gm.core.views.not_found"
handler500 = "gm.core.views.server_error"
