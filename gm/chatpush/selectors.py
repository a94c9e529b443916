"""Reading a user's channels (his own only) for the profile and the channels page."""
from __future__ import annotations

from urllib.parse import urlsplit

from .models import EVENTS, Channel


def channels_of(user) -> list[Channel]:
    """``user``'s channels (none for anonymous users), oldest first, each with ``address`` (without secrets) and
    ``event_labels`` (the names of its events)."""
    if user is None or not user.is_authenticated:
        return []
    rows = list(Channel.objects.filter(user=user))
    for row in rows:
        row.address = display_target(row)
        row.event_labels = [str(EVENTS[e]) for e in row.events if e in EVENTS]
    return rows


def display_target(channel: Channel) -> str:
    """The channel's address without its secrets: apprise's privacy form of the URL, a push endpoint's host."""
    if channel.kind == Channel.Kind.WEBPUSH:
        return urlsplit(channel.target).hostname or ""
    import apprise

    plugin = apprise.Apprise.instantiate(channel.target, suppress_exceptions=True)
    return plugin.url(privacy=True).split("?")[0] if plugin is not None else ""
