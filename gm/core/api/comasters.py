"""REST API of co-mastering (issue 24 item 5): the co-masters of a game (the public ones for everyone, all of them
on the console), adding and removing them, taking over an inactive master's game, and the setup review. Each view
parses, calls one service of ``gm.core.services.comasters`` / ``comaster_takeover`` / ``comaster_review`` and
answers; a refusal has the API's error shape (``forbidden`` 403, ``state``/``review``/``duplicate`` 409)."""
from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import visibility
from ..models import Game
from ..services import comaster_review as review
from ..services import comaster_takeover as takeover
from ..services import comasters
from .console import _ConsoleView


class CoMasterSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()
    read_only = serializers.BooleanField(allow_null=True)


class CoMasterAddSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    read_only = serializers.BooleanField(default=False)
    public = serializers.BooleanField(default=True)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class CoMasterRemoveSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class TakeoverReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class DecisionSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["approve", "reject"])
    comment = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


def _rows(game: Game) -> list[dict]:
    return [{"username": c.user.get_username(), "name": comasters._display(c.user), "read_only": c.read_only,
             "public": c.public} for c in comasters.comasters_of(game).values()]


class GameCoMastersView(APIView):
    """The co-masters the viewer may know of (the hidden ones only for those who master the game)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=CoMasterSerializer(many=True), summary="A game's co-masters as the viewer may know them")
    def get(self, request, pk):
        game = visibility.game_or_404(request.user, pk)
        viewer = visibility.viewer_for(request.user, game)
        return Response(CoMasterSerializer(comasters.public_comasters(game, viewer.is_master), many=True).data)


class ConsoleCoMastersView(_ConsoleView):
    @extend_schema(responses=dict, summary="The console's co-masters (all of them)")
    def get(self, request, pk):
        """Every co-master with ``read_only`` and ``public``, and whether the viewer may act (``may_act``)."""
        game = self.game(pk)
        viewer = visibility.viewer_for(request.user, game)
        return Response({"may_act": viewer.may_act, "comasters": _rows(game)})

    @extend_schema(request=CoMasterAddSerializer, responses=dict, summary="Add a co-master")
    def post(self, request, pk):
        """Make a user a co-master (audited ``comaster_add``)."""
        game = self.game(pk)
        d = self.parse(CoMasterAddSerializer)
        comasters.comaster_add(game=game, actor=request.user, **d)
        return Response({"comasters": _rows(Game.objects.get(pk=game.pk))}, status=201)


class ConsoleCoMasterRemoveView(_ConsoleView):
    @extend_schema(request=CoMasterRemoveSerializer, responses=dict, summary="Remove a co-master")
    def post(self, request, pk):
        """Remove a co-master (audited ``comaster_remove``)."""
        game = self.game(pk)
        comasters.comaster_remove(game=game, actor=request.user, **self.parse(CoMasterRemoveSerializer))
        return Response({"comasters": _rows(Game.objects.get(pk=game.pk))})


class TakeoverView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=TakeoverReasonSerializer, responses=dict,
                   summary="Take over a game whose master is inactive")
    def post(self, request, pk):
        """A candidate of the game's open offer becomes its master (audited ``takeover``, announced in the thread)."""
        game = visibility.game_or_404(request.user, pk)
        data = TakeoverReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = takeover.game_take_over(game=game, actor=request.user, reason=data.validated_data["reason"])
        return Response({"master": game.master.get_username()})


class ReviewRequestView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=dict, summary="Send a draft's setup for review")
    def post(self, request, pk):
        """The master asks a reviewer to approve his setup (with ``GM_SETUP_REVIEW`` on)."""
        game = visibility.game_or_404(request.user, pk)
        row = review.review_request(game=game, actor=request.user)
        return Response({"status": row.status})


class ReviewsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=dict, summary="The setups waiting for review (reviewers only)")
    def get(self, request):
        """Each pending setup: game id, title, module, master, options, durations, when it was asked."""
        return Response([{"game": r.game_id, "title": r.game.title, "module": r.game.module,
                          "master": r.game.master.get_username(), "options": r.game.options,
                          "durations": r.game.durations, "requested_at": r.requested_at}
                         for r in review.pending_reviews(request.user)])


class ReviewDecideView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=DecisionSerializer, responses=dict, summary="Approve or reject a setup")
    def post(self, request, pk):
        """Approve (the signups open) or reject with a comment; the master is told."""
        data = DecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = Game.objects.filter(pk=pk).first()
        if game is None:
            raise Http404
        game = review.review_decide(game=game, actor=request.user, approve=data.validated_data["decision"] == "approve",
                                    comment=data.validated_data["comment"])
        return Response({"status": game.status})
