"""REST API of the forum Mafia start-stretch actions: the same services as the panel forms (FM-3.3, FM-8).

Each answers with the caller's own seat as the visibility layer projects it for him (his secrets, no deck order).
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core import visibility
from gm.core.models import Game, Seat
from gm.core.web import game_or_404

from ..services import setup as setup_services
from ..services.signup import MODULE


class JokerColoursSerializer(serializers.Serializer):
    colours = serializers.ListField(child=serializers.CharField(), help_text=_("Two colour slugs, e.g. damage."))


class EngineerPicksSerializer(serializers.Serializer):
    picks = serializers.ListField(child=serializers.CharField(), help_text=_("Two card slugs of your deck list."))


class _OwnSeatAction(APIView):
    """One start-stretch action of the caller's own seat: the body read by :attr:`body` (a serializer class;
    ``None``: no body), one service call (:meth:`act`), and his seat in answer as the visibility layer projects it
    for him. The subclasses' docstrings describe their operation in the schema."""

    permission_classes = [permissions.IsAuthenticated]
    body: type[serializers.Serializer] | None = None

    def act(self, game: Game, user, data: dict) -> Seat:
        """Call the action's service for ``user`` in ``game`` with the body's validated ``data``; return his seat."""
        raise NotImplementedError

    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        data: dict = {}
        if self.body is not None:
            parsed = self.body(data=request.data)
            parsed.is_valid(raise_exception=True)
            data = parsed.validated_data
        seat = self.act(game, request.user, data)
        return Response(visibility.seat_projection(visibility.viewer_for(request.user, game), seat))


@extend_schema_view(post=extend_schema(request=JokerColoursSerializer, responses=OpenApiTypes.OBJECT))
class JokerColoursView(_OwnSeatAction):
    """FM-3.3: the joker chooses his two colours during deck building."""

    body = JokerColoursSerializer

    def act(self, game, user, data):
        return setup_services.joker_colours_choose(game=game, user=user, colours=data["colours"])


@extend_schema_view(post=extend_schema(request=EngineerPicksSerializer, responses=OpenApiTypes.OBJECT))
class EngineerPicksView(_OwnSeatAction):
    """FM-8 engineer: two cards of his deck guaranteed among his first six."""

    body = EngineerPicksSerializer

    def act(self, game, user, data):
        return setup_services.engineer_picks_set(game=game, user=user, picks=data["picks"])


@extend_schema_view(post=extend_schema(request=None, responses=OpenApiTypes.OBJECT))
class LuckyRedealView(_OwnSeatAction):
    """FM-8 lucky: redeal the Hand during Night 1 (twice at most)."""

    def act(self, game, user, data):
        return setup_services.lucky_redeal(game=game, user=user)
