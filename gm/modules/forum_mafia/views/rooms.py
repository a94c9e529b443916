"""Chat rooms of forum Mafia in the shell (FM-9.3): the room page (a private thread: its posts, and the form while the
room is open) and the REST API (``GET /api/games/<id>/rooms/``, ``GET``/``POST /api/games/<id>/rooms/<room>/posts/``).

Everything is read through :mod:`..services.rooms`, which decides who may read a room: its members who may speak (the
living, a dead ``avenger``), the master, everyone after the game. For anyone else a room does not exist (404, the same
answer as for a room that never existed). The list of the viewer's rooms is on the game page
(``forum_mafia/_rooms.html`` in the module panel). Plain forms work without JavaScript (a POST redirects back to the
room page); under htmx a post re-renders the room's thread.
"""
from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from gm.core import visibility
from gm.core.services import ServiceError
from gm.core.web import error_messages, game_or_404

from ..models import RoomPost
from ..services import rooms as room_services

MODULE = "forum_mafia"



def _room_or_404(viewer: visibility.Viewer, key: str) -> room_services.Room:
    try:
        return room_services.room_get(viewer, key)
    except ServiceError as exc:
        raise Http404(str(exc)) from None


# == pages ==========================================================================================================


@require_http_methods(["GET", "POST"])
def room(request, pk: int, room: str):
    """The room page: its members, its posts (oldest first) and, while the viewer may write in it, the post form;
    read-only with the reason once it closed (FM-9.3). 404 for whoever may not read it."""
    game = game_or_404(request.user, pk, module=MODULE)
    viewer = visibility.viewer_for(request.user, game)
    found = _room_or_404(viewer, room)
    errors: list[str] = []
    body = ""
    if request.method == "POST":
        body = request.POST.get("body", "")
        try:
            room_services.room_post_create(game=game, user=request.user, room=found.key, body=body)
        except ServiceError as exc:
            if exc.code == "not_found":
                raise Http404(str(exc)) from None
            errors = error_messages(exc)
        else:
            if not request.htmx:
                messages.success(request, _("Posted in the room."))
                return HttpResponseRedirect(reverse("forum_mafia:room", args=[game.pk, found.key]))
            body = ""
        found = _room_or_404(viewer, room)
    context = {"game": game, "viewer": viewer, "room": found, "posts": room_services.room_posts(viewer, found),
               "errors": errors, "body": body, "max_body": RoomPost.MAX_BODY}
    template = "forum_mafia/_room_thread.html" if request.htmx else "forum_mafia/room.html"
    return render(request, template, context, status=400 if errors and request.method == "POST" else 200)
