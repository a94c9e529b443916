"""Template context shared by every page."""
from .services import can_host


def site(request):
    """``can_host``: whether the user may create games (shows the "New game" link)."""
    return {"can_host": can_host(getattr(request, "user", None))}
