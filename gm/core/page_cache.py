"""Rendered game pages kept per viewer until anything they show changes (issue 25).

A game page for a viewer is a function of the game's rows, the viewer, his request and the clock. A rendering is
kept in the cache under a key made of all of them, so a kept page is only ever served to the request that would
have rendered the same bytes:

* the game and its stamp (:mod:`gm.core.page_stamps`: it moves with every write to anything the page shows), read
  with the game row the page starts with, so a kept page costs no query of its own;
* the viewer: his user id and every column of his user row and profile as the session loaded them (his name, his
  language and time zone, his permissions, his unread count), the request's language and time zone, the full path
  with its query (``?page=``, ``?quote=``) and the CSRF secret the page's forms carry;
* the clock, in buckets of ``GM_PAGE_CACHE_SECONDS``: what the page says about the time (a deadline's distance,
  away badges) is at most that old, and so is a user-wide change the stamps do not follow (another player's push
  settings, fair-play logins: nothing a player's page shows).

A request is never answered from the cache, nor its page kept, when the page would also carry something of the
moment: a flash message, a refused post's draft or a preview in the session, an htmx request; nor when the
database keeps no stamps (SQLite) or ``GM_PAGE_CACHE_SECONDS`` is 0.

Keys hold the viewer's user id, so one viewer's page is never another's; the leak canaries run against kept pages
too (``tests/integration/test_page_cache.py``).
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone, translation

from . import page_stamps

#: Bump when what a key covers changes meaning (old entries then simply miss).
_KEY_VERSION = 1


@dataclass(frozen=True)
class Kept:
    """A kept rendering: its body, content type, and whether its viewer was a spectator (the page view tells the
    fair-play app about spectators after it answers, kept page or not)."""

    content: bytes
    content_type: str
    spectator: bool


def _user_facts(user) -> tuple:
    if not getattr(user, "is_authenticated", False):
        return ("anonymous",)
    facts = [getattr(user, f.attname) for f in user._meta.concrete_fields]
    profile = user._state.fields_cache.get("profile")  # loaded with the session; never read here
    if profile is not None:
        facts += [getattr(profile, f.attname) for f in profile._meta.concrete_fields]
    facts += [getattr(user, "gm_can_host", None), getattr(user, "gm_unread", None)]
    return tuple(facts)


def page_key(request, game, *, session_keys: tuple[str, ...] = ()) -> str | None:
    """The cache key of ``game``'s page for ``request``, or ``None`` when this request's page must be rendered and
    not kept (see the module docstring). ``session_keys``: session entries that, when present, make the page one
    of the moment (a refused post's draft). Takes the CSRF token as a rendering would (the cookie is set alike)."""
    seconds = int(settings.GM_PAGE_CACHE_SECONDS)
    stamp = page_stamps.stamp_of(game)
    if (seconds <= 0 or stamp is None or request.method != "GET" or getattr(request, "htmx", False)
            or not page_stamps.active()):
        return None
    if len(get_messages(request)):  # len() reads the stored messages without marking them shown
        return None
    session = getattr(request, "session", None)
    if session is not None and any(key in session for key in session_keys):
        return None
    secret = get_token(request) and request.META.get("CSRF_COOKIE", "")
    parts = (_KEY_VERSION, stamp, getattr(request.user, "pk", None), _user_facts(request.user),
             translation.get_language(), timezone.get_current_timezone_name(), request.get_full_path(), secret,
             int(time.time() // seconds))
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=20).hexdigest()
    return f"gm:page:{game.pk}:{digest}"


def kept(key: str | None) -> Kept | None:
    """The rendering kept under ``key`` (``None``: no key, or nothing kept)."""
    if key is None:
        return None
    return cache.get(key)


def keep(key: str | None, response: HttpResponse, *, spectator: bool) -> None:
    """Keep ``response`` (a rendered 200 page) under ``key`` for two clock buckets; nothing for another status or
    a ``None`` key."""
    if key is None or response.status_code != 200 or response.streaming:
        return
    cache.set(key, Kept(response.content, response["Content-Type"], spectator),
              timeout=2 * int(settings.GM_PAGE_CACHE_SECONDS))


def response_of(entry: Kept) -> HttpResponse:
    """The response serving a kept rendering."""
    return HttpResponse(entry.content, content_type=entry.content_type)
