"""REST API of the forum Mafia start-stretch actions: the same services as the panel forms (FM-3.3, FM-8).

Each answers with the caller's own seat as the visibility layer projects it for him (his secrets, no deck order).
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core import visibility
from gm.core.models import Game
from gm.core.web import game_or_404

from ..services import setup as setup_services
from ..services.signup import MODULE


def _own_seat_view(request, game: Game, seat) -> Response:
    return Response(visibility.seat_projection(visibility.viewer_for(request.user, game), seat))


class JokerColoursSerializer(serializers.Serializer):
    colours = serializers.ListField(child=serializers.CharField(), help_text=_("Two colour slugs, e.g. damage."))


class EngineerPicksSerializer(serializers.Serializer):
    picks = serializers.ListField(child=serializers.CharField(), help_text=_("Two card slugs of your deck list."))


class JokerColoursView(APIView):
    """FM-3.3: the joker chooses his two colours during deck building."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=JokerColoursSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        data = JokerColoursSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = setup_services.joker_colours_choose(game=game, user=request.user, colours=data.validated_data["colours"])
        return _own_seat_view(request, game, seat)


class EngineerPicksView(APIView):
    """FM-8 engineer: two cards of his deck guaranteed among his first six."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=EngineerPicksSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        data = EngineerPicksSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = setup_services.engineer_picks_set(game=game, user=request.user, picks=data.validated_data["picks"])
        return _own_seat_view(request, game, seat)


class LuckyRedealView(APIView):
    """FM-8 lucky: redeal the Hand during Night 1 (twice at most)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        seat = setup_services.lucky_redeal(game=game, user=request.user)
        return _own_seat_view(request, game, seat)
