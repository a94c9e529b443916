"""The Bloodwood API (BW-24, BW-8, BW-22, BW-26): a line of the open step, an answer to an attack and a declaration,
each refused with BW-26's code (the body's ``code``), its rule ID and its message in the caller's language
(``details``), exactly as the game page's forms are. Paths under ``api/games/<pk>/bw/``."""
from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core.web import game_or_404

from . import services

MODULE = "bloodwood"


class BwLineSerializer(serializers.Serializer):
    """A line of the open step, as one JSON object (scenario-format § bloodwood, the ``payload`` column)."""

    payload = serializers.JSONField(help_text=gettext_lazy(
        "{\"move\": \"play\", \"card\", \"target\"} or {\"move\": \"discard\", \"cards\": [card]}; "
        "{\"discard\": [a, b]}; {\"give\": card}; {\"keep\": [cards]}; {\"refill\": {\"day\": d, \"night\": n}}."))


class BwReactSerializer(serializers.Serializer):
    react = serializers.ChoiceField(choices=["amulet", "mirror", "pass"], help_text=gettext_lazy("The answer."))


class BwDeclareSerializer(serializers.Serializer):
    declare = serializers.ListField(child=serializers.IntegerField(), allow_empty=True,
                                    help_text=gettext_lazy("The seat ids of every player of the other team."))


class BwDoneSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    over = serializers.BooleanField(help_text=gettext_lazy("The game ended with it."))


def _done(game) -> Response:
    game.refresh_from_db()
    return Response({"ok": True, "over": game.is_over})


class LineView(APIView):
    """``POST /api/games/<id>/bw/line/``: a line of the open step. 400 with BW-26's code (``not_your_turn``,
    ``not_in_hand``, ``wrong_phase``…) and ``details`` (code, rule, message); nothing is saved."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="bw_line", request=BwLineSerializer, responses=BwDoneSerializer)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        data = BwLineSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.submit_line(game=game, user=request.user, payload=data.validated_data["payload"])
        return _done(game)


class ReactView(APIView):
    """``POST /api/games/<id>/bw/react/``: an answer to an attack, checked whatever step is open (``tranquilized``,
    ``no_attack``, ``not_target``, ``not_in_hand``, ``chained``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="bw_react", request=BwReactSerializer, responses=BwDoneSerializer)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        data = BwReactSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.react(game=game, user=request.user, answer=data.validated_data["react"])
        return _done(game)


class DeclareView(APIView):
    """``POST /api/games/<id>/bw/declare/``: a declaration of the end (BW-22), judged at once (``mutated``,
    ``bad_declaration``, ``game_over``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="bw_declare", request=BwDeclareSerializer, responses=BwDoneSerializer)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        data = BwDeclareSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.declare(game=game, user=request.user, named=data.validated_data["declare"])
        return _done(game)
