"""The site's URLs plus the bare view of :func:`gm.modules.forum_mafia.bench.floors.bare_view` (the page floor of
issue 25), for ``manage.py gm_bench`` only: it puts this module in ``ROOT_URLCONF`` while it measures pages."""
from django.urls import path

from gm.urls import handler404, handler500  # noqa: F401 - the site's handlers
from gm.urls import urlpatterns as site_urlpatterns

from .floors import BARE_URL, bare_view

urlpatterns = [path(BARE_URL.strip("/") + "/", bare_view, name="bench_bare"), *site_urlpatterns]
