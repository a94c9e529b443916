"""The device cookie (issue 24 item 6): a login from a browser without one gives it a random id, which only
ever reaches the database as a keyed hash (:mod:`gm.fairplay.services`)."""
from __future__ import annotations

from django.conf import settings

from .services import DEVICE_COOKIE, DEVICE_COOKIE_AGE


class DeviceCookieMiddleware:
    """Set the ``gm_device`` cookie chosen at login (``request.gm_new_device``) on the response."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        device = getattr(request, "gm_new_device", None)
        if device:
            response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_COOKIE_AGE, httponly=True, samesite="Lax",
                                secure=getattr(settings, "SESSION_COOKIE_SECURE", False))
        return response
