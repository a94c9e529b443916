"""``GET /api/games/{id}/console/fairplay/``: the master's fair-play flags of one game (403 for anyone else)."""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core import visibility

from .services import game_flags


class GameFlagsView(APIView):
    """Pairs of seats (or a seat and a spectator) of the game that shared a login signal in the window."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="Fair-play flags of a game (its masters only)", responses=dict)
    def get(self, request, pk):
        game = visibility.game_or_404(request.user, pk)
        viewer = visibility.viewer_for(request.user, game)
        if not viewer.is_master:
            raise PermissionDenied(_("Only the game's master may do this."))
        return Response({"flags": [{**f, "last": f["last"].isoformat()} for f in game_flags(viewer)]})
