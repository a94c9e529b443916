"""Template context shared by every page."""
from django.conf import settings

from .services import can_host


def site(request):
    """``can_host``: whether the user may create games (shows the "New game" link); ``live_poll_seconds`` and
    ``inbox_poll_seconds``: how often live parts of a page ask the server for news (htmx polling)."""
    return {"can_host": can_host(getattr(request, "user", None)),
            "live_poll_seconds": settings.GM_LIVE_POLL_SECONDS, "inbox_poll_seconds": settings.GM_INBOX_POLL_SECONDS}
