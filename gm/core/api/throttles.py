"""DRF throttles of the API, their rates read from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` at each request
(DRF's own classes freeze the rates at import, so a changed setting would not apply). Counters are in the shared
cache (``CACHES``). Scopes: ``anon`` (per client IP), ``user`` (per user), ``auth`` (``/api/auth/token/``, per
client IP)."""
from __future__ import annotations

from rest_framework import throttling
from rest_framework.settings import api_settings


class _SettingsRate:
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class AnonThrottle(_SettingsRate, throttling.AnonRateThrottle):
    """Anonymous requests, per client IP (scope ``anon``)."""


class UserThrottle(_SettingsRate, throttling.UserRateThrottle):
    """Authenticated requests, per user (scope ``user``; anonymous ones per IP)."""


class AuthThrottle(_SettingsRate, throttling.AnonRateThrottle):
    """Token requests, per client IP (scope ``auth``), whoever is logged in; failed passwords are limited
    separately, per account (see :mod:`accounts.api`)."""

    scope = "auth"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
