"""Per-seat flood limits: how many thread posts, private messages, chat-room posts and order changes one player
may send in one game per minute (``settings.GM_SEAT_RATES``: action → count per minute; 0 or missing: no limit).
The game's master (and a superuser) is never limited.

Counters live in the shared cache (``CACHES``), one per (action, game, user, clock minute), so every web process
sees the same count; a refused attempt counts too. The minute is the service's clock, so tests that freeze time
see a fixed window.
"""
from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from .comaster_roles import may_master
from .services.base import ServiceError

#: the actions a service may name.
ACTIONS = ("post", "private", "room", "order")


def check_seat_rate(*, game, user, action: str, now: datetime) -> None:
    """Count one ``action`` (one of :data:`ACTIONS`) by ``user`` in ``game`` (an object with ``pk`` and
    ``master_id``) at ``now`` and raise :class:`~gm.core.services.ServiceError` with code ``throttled`` (the API
    answers 429) once more than the action's per-minute limit were counted in this minute."""
    limit = (getattr(settings, "GM_SEAT_RATES", None) or {}).get(action)
    if not limit or user is None or not user.is_authenticated:
        return
    key = f"gm:seat-rate:{action}:{game.pk}:{user.pk}:{int(now.timestamp() // 60)}"
    cache.add(key, 0, timeout=120)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between add and incr: start again
        cache.set(key, 1, timeout=120)
        count = 1
    # Who masters the game is asked only past the limit (it may cost a query): the master, a full co-master
    # (issue 24) and a superuser are counted like anyone but never refused.
    if count > limit and not may_master(game, user):
        raise ServiceError(
            _("Slow down: you may do this at most %(limit)s times a minute. Wait a moment and try again.")
            % {"limit": limit}, code="throttled")
