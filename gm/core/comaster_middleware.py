"""A read-only co-master (BV-15.14, issue 24) reads everything a master reads and changes nothing: every unsafe
request (POST, PUT, PATCH, DELETE) he sends to one of his game's URLs — page, htmx partial, API, module page — is
refused with 403 before its view runs. The services refuse him too (``require_master``); this is the second wall,
which also covers a player's write path (a read-only co-master who kept a seat no longer plays)."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from .models import CoMaster
from .prepared import PreparedQuery

SAFE = ("GET", "HEAD", "OPTIONS", "TRACE")

#: Compiled once per process (``gm.core.prepared``): every write to a game asks it.
_READ_ONLY_ROW = PreparedQuery(lambda game_id, user_id: CoMaster.objects.filter(
    game_id=game_id, user_id=user_id, read_only=True).order_by().only("pk")[:1], "game_id", "user_id")


class ReadOnlyCoMasterMiddleware:
    """Refuse (403) an unsafe request by a read-only co-master to a URL of his game (a URL whose ``pk`` or
    ``game_id`` keyword names a game, under ``/games/`` or ``/api/games/``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method in SAFE or not getattr(request, "user", None) or not request.user.is_authenticated:
            return None
        path = request.path_info
        if not (path.startswith("/games/") or path.startswith("/api/games/")):
            return None
        pk = view_kwargs.get("pk", view_kwargs.get("game_id"))
        try:
            pk = int(pk)
        except (TypeError, ValueError):
            return None
        # One query: a read-only co-master is a read-only row (the master's own row never exists).
        if 0 < pk < 2**63 and _READ_ONLY_ROW(game_id=pk, user_id=request.user.pk):
            raise PermissionDenied(_("A read-only co-master can't act in this game."))
        return None
