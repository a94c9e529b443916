"""Receivers: a login (``django.contrib.auth.signals.user_logged_in``) and a spectator's visit
(``gm.core.signals.spectator_seen``) leave their fair-play rows."""
from __future__ import annotations

import logging

from . import services

logger = logging.getLogger("gm.fairplay")


def _client_ip(request) -> str:
    try:
        from allauth.account.adapter import get_adapter

        return get_adapter(request).get_client_ip(request) or ""
    except Exception:  # an unparsable forwarded header: the login goes on without the IP signal
        return request.META.get("REMOTE_ADDR", "") if request is not None else ""


def logged_in(sender, request, user, **kwargs) -> None:
    """Store the login's signals; give the browser a device cookie when it has none (set on the response by
    :class:`gm.fairplay.middleware.DeviceCookieMiddleware`)."""
    if request is None:
        return
    device = request.COOKIES.get(services.DEVICE_COOKIE)
    if not services.valid_device_id(device):
        device = services.new_device_id()
        request.gm_new_device = device
    try:
        services.record_login(user=user, ip=_client_ip(request), device_id=device)
    except Exception:  # never let the signal break a login
        logger.exception("fair-play login signal not stored")


def spectator_seen(sender, *, game_id, user, **kwargs) -> None:
    """Remember the spectator (see :func:`gm.fairplay.services.record_spectator`)."""
    services.record_spectator(game_id=game_id, user=user)
