"""Error pages under ``DEBUG``: Django's technical pages (tracebacks, settings, URL patterns) go only to clients in
``settings.INTERNAL_IPS`` (localhost by default). Anyone else, e.g. a player reaching a development server over the
network, gets the site's own 404 and 500 pages; the exception is still logged as Django logs it."""
from __future__ import annotations

import logging

from django.conf import settings
from django.http import Http404

from . import views

logger = logging.getLogger("django.request")
_TECHNICAL_MARK = b"<code>DEBUG = True</code>"


class FriendlyErrorsMiddleware:
    """Without ``DEBUG`` it does nothing. With it, an exception a view raises for a client outside
    ``INTERNAL_IPS`` (``REMOTE_ADDR``) is answered by ``gm.core.views.not_found`` (``Http404``) or
    ``gm.core.views.server_error`` (anything else but the 400/403 exceptions Django answers without a traceback)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # An unmatched URL (or an error in a later middleware) never reaches process_exception: Django has already
        # rendered its technical page, recognisable by the DEBUG notice every such page carries.
        if (settings.DEBUG and response.status_code in (404, 500) and not self._internal(request)
                and not getattr(response, "streaming", False) and _TECHNICAL_MARK in response.content):
            return views.not_found(request) if response.status_code == 404 else views.server_error(request)
        return response

    @staticmethod
    def _internal(request) -> bool:
        return request.META.get("REMOTE_ADDR") in settings.INTERNAL_IPS

    def process_exception(self, request, exception):
        if not settings.DEBUG or self._internal(request):
            return None
        if isinstance(exception, Http404):
            return views.not_found(request, exception)
        from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation

        if isinstance(exception, BadRequest | PermissionDenied | SuspiciousOperation):
            return None  # Django's own 400/403 pages carry no traceback
        logger.error("Internal Server Error: %s", request.path, exc_info=exception,
                     extra={"status_code": 500, "request": request})
        response = views.server_error(request)
        response._has_been_logged = True  # with its traceback, above; Django would log it again without
        return response
