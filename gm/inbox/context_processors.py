"""Template context of every page: the unread count in the site header."""
from __future__ import annotations

from functools import cache


def inbox(request):
    """``inbox_unread``: how many of the user's notifications are unread. A callable the template calls only when
    it renders the header, so pages that don't show it (and anonymous visitors) cost no query."""
    user = getattr(request, "user", None)

    @cache
    def unread() -> int:
        from .services import unread_count

        if request.method in ("GET", "HEAD") and hasattr(user, "gm_unread"):
            # Counted with the session's user (accounts.backends.ModelBackend) as the request began: a GET
            # changes no notification before it renders. A POST that renders counts afresh.
            return user.gm_unread
        return unread_count(user)

    return {"inbox_unread": unread}
