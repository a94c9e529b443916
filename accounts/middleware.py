"""Show pages in the logged-in user's language and time zone (times are stored in UTC)."""
from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.utils import timezone, translation


class UserPreferencesMiddleware:
    """After authentication: activate the user's profile time zone (anonymous: the site default zone) and,
    unless the visitor chose a language with the switcher this session, the profile's language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        tz_name = settings.GM_DEFAULT_USER_TIME_ZONE
        user = getattr(request, "user", None)
        profile = getattr(user, "profile", None) if user is not None and user.is_authenticated else None
        if profile is not None:
            tz_name = profile.time_zone or tz_name
            if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES and profile.language:
                translation.activate(profile.language)
                request.LANGUAGE_CODE = profile.language
        try:
            timezone.activate(zoneinfo.ZoneInfo(tz_name))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            timezone.activate(zoneinfo.ZoneInfo("UTC"))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
