"""Fair-play signals (issue 24 item 6): what a login leaves behind, and what the master's console makes of it.

* :func:`record_login` — each login stores an HMAC-SHA256, keyed with the site's ``GM_FAIRPLAY_SECRET`` (derived
  from ``SECRET_KEY`` when unset), of the client IP address (allauth's ``get_client_ip``: ``REMOTE_ADDR`` or the
  trusted proxy's ``X-Forwarded-For`` entry) and of the browser's long-lived random device cookie (``gm_device``).
  Neither the address nor the cookie is kept; without the secret a hash can't be matched to them.
* :func:`record_spectator` — a logged-in reader of a game's page without a seat (``signals.spectator_seen``).
* :func:`game_flags` — for the master (and co-masters): pairs of two seats, or a seat and a spectator, of the same
  game whose users logged in from one IP hash or one device hash in the last ``GM_FAIRPLAY_WINDOW_DAYS`` days.
  A signal, not a verdict (a household, a café, a shared computer): the master decides. Players never see it.
* :func:`purge` (beat, ``gm.fairplay.tasks.fairplay_purge_task``) deletes rows older than
  ``GM_FAIRPLAY_RETENTION_DAYS`` (90); :func:`forget_user` deletes a user's rows when he deletes his account.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta
from itertools import combinations

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from gm.core.services import Clock

from .models import LoginSignal, Spectator

DEVICE_COOKIE = "gm_device"
#: How often a spectator's look at a game is written down (``record_spectator``).
SEEN_EVERY = timedelta(hours=1)
#: The device cookie lives two years; what the site keeps of it is purged after the retention time.
DEVICE_COOKIE_AGE = 2 * 365 * 86400
IP = "ip"
DEVICE = "device"


def _secret() -> bytes:
    configured = getattr(settings, "GM_FAIRPLAY_SECRET", "")
    if configured:
        return configured.encode()
    return hmac.new(settings.SECRET_KEY.encode(), b"gm.fairplay", hashlib.sha256).digest()


def digest(value: str) -> str:
    """The keyed hash (HMAC-SHA256 hex) of ``value``; ``""`` for an empty value."""
    if not value:
        return ""
    return hmac.new(_secret(), value.encode(), hashlib.sha256).hexdigest()


def new_device_id() -> str:
    """A fresh random device id for the ``gm_device`` cookie."""
    return secrets.token_urlsafe(18)


def valid_device_id(value: str | None) -> bool:
    """Whether a cookie value looks like one of ours (24 URL-safe characters)."""
    return bool(value) and len(value) == 24 and all(c.isalnum() or c in "-_" for c in value)


def record_login(*, user, ip: str, device_id: str, clock: Clock = timezone.now) -> LoginSignal:
    """Store one login of ``user`` from ``ip`` (text) with the browser's ``device_id`` (the cookie's value), both
    hashed with :func:`digest`."""
    return LoginSignal.objects.create(user=user, ip_hash=digest(ip), device_hash=digest(device_id),
                                      created_at=clock())


def record_spectator(*, game_id: int, user, clock: Clock = timezone.now) -> None:
    """Remember that ``user`` read game ``game_id``'s page without a seat (at most one write an hour per game:
    ``SEEN_EVERY``)."""
    now = clock()
    # Whether he was seen within the hour is also kept in the cache until that hour ends, so his next looks (a
    # page he reloads, a kept page served at 2 queries) do not ask the database again.
    key = f"gm:fairplay:seen:{game_id}:{user.pk}"
    seen = cache.get(key)
    if seen is not None and seen >= now - SEEN_EVERY:
        return
    seen = Spectator.objects.filter(game_id=game_id, user=user).values_list("seen_at", flat=True).first()
    if seen is None or seen < now - SEEN_EVERY:
        Spectator.objects.update_or_create(game_id=game_id, user=user, defaults={"seen_at": now})
        seen = now
    cache.set(key, seen, timeout=max(1, int((seen + SEEN_EVERY - now).total_seconds())))


def game_flags(viewer, *, clock: Clock = timezone.now) -> list[dict]:
    """The fair-play flags of ``viewer``'s game for a viewer who masters it (``viewer.is_master``: the master and
    co-masters, read-only ones too); ``[]`` for anyone else. Each flag: ``{"kind": "ip" | "device", "a": {...},
    "b": {...}, "last": datetime}`` where ``a``/``b`` are ``{"role": "seat" | "spectator", "name": character name
    or username, "username": str}`` — two seats, or a seat and a spectator (``a`` is always a seat), whose users
    logged in with one hash within the window; the latest such login first."""
    if not viewer.is_master:
        return []
    game = viewer.game
    now = clock()
    since = now - timedelta(days=int(getattr(settings, "GM_FAIRPLAY_WINDOW_DAYS", 30)))
    people: dict[int, dict] = {}
    for seat in game.seats.select_related("user").filter(user__isnull=False).order_by("position"):
        people[seat.user_id] = {"role": "seat", "name": seat.display_name, "username": seat.user.get_username()}
    for row in Spectator.objects.filter(game=game, seen_at__gte=since).select_related("user"):
        people.setdefault(row.user_id, {"role": "spectator", "name": row.user.get_username(),
                                        "username": row.user.get_username()})
    if len(people) < 2:
        return []
    groups: dict[tuple[str, str], dict[int, datetime]] = {}
    for user_id, ip_hash, device_hash, at in LoginSignal.objects.filter(
            user_id__in=list(people), created_at__gte=since).values_list("user_id", "ip_hash", "device_hash",
                                                                          "created_at"):
        for kind, value in ((IP, ip_hash), (DEVICE, device_hash)):
            if value:
                users = groups.setdefault((kind, value), {})
                users[user_id] = max(at, users.get(user_id, at))
    pairs: dict[tuple[str, int, int], datetime] = {}
    for (kind, _value), users in groups.items():
        for a, b in combinations(sorted(users), 2):
            if people[a]["role"] != "seat" and people[b]["role"] != "seat":
                continue  # two spectators: no seat is concerned
            last = min(users[a], users[b])
            key = (kind, a, b)
            pairs[key] = max(last, pairs.get(key, last))
    flags = []
    for (kind, a, b), last in pairs.items():
        first, second = (a, b) if people[a]["role"] == "seat" else (b, a)
        flags.append({"kind": kind, "a": people[first], "b": people[second], "last": last})
    return sorted(flags, key=lambda f: (f["last"], f["kind"]), reverse=True)


def purge(*, clock: Clock = timezone.now) -> int:
    """Delete the login signals and spectator rows older than ``GM_FAIRPLAY_RETENTION_DAYS``; returns how many
    login signals went."""
    limit = clock() - timedelta(days=int(getattr(settings, "GM_FAIRPLAY_RETENTION_DAYS", 90)))
    deleted, _rows = LoginSignal.objects.filter(created_at__lt=limit).delete()
    Spectator.objects.filter(seen_at__lt=limit).delete()
    return deleted


def forget_user(*, user) -> None:
    """Delete every fair-play row of ``user`` (his account is being deleted)."""
    LoginSignal.objects.filter(user=user).delete()
    Spectator.objects.filter(user=user).delete()


def login_signals(*, user) -> list[dict]:
    """``user``'s own login signals for his data export: ``[{"at": ISO time, "ip_hash", "device_hash"}]``, newest
    first (the hashes only: the site keeps nothing else)."""
    return [{"at": at.isoformat(), "ip_hash": ip, "device_hash": device}
            for at, ip, device in LoginSignal.objects.filter(user=user).values_list("created_at", "ip_hash",
                                                                                    "device_hash")]
