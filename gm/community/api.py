"""Community API: the statistics and a player's history as JSON or CSV (``?format=csv``, or ``Accept: text/csv``),
and a player's reliability record. Read-only and public: the figures come from finished games only."""
from __future__ import annotations

import csv
import io

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core import registry

from . import selectors


class CSVRenderer(BaseRenderer):
    """A list of flat objects as CSV (UTF-8, a header row of the view's ``csv_fields``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        view = (renderer_context or {}).get("view")
        fields = list(getattr(view, "csv_fields", ()))
        out = io.StringIO()
        if isinstance(data, dict) and not fields:  # an error body
            data = [data]
        rows = data if isinstance(data, list) else [data]
        if not fields and rows:
            fields = list(rows[0])
        writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if v is None else v) for k, v in dict(row).items()})
        return out.getvalue().encode("utf-8")


class StatRowSerializer(serializers.Serializer):
    module = serializers.CharField()
    players = serializers.IntegerField(allow_null=True, help_text="player count (null: summed over all)")
    setup = serializers.CharField(allow_null=True, help_text="role slugs joined by '+' (null: summed over all)")
    kind = serializers.ChoiceField(choices=["game", "side", "role"])
    key = serializers.CharField(allow_blank=True, help_text="side or role slug; empty for a game row")
    label = serializers.CharField()
    games = serializers.IntegerField(help_text="games (side, game rows) or seats (role rows)")
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    win_percent = serializers.FloatField()
    mean_phases = serializers.FloatField()
    mean_days = serializers.FloatField()


class HistorySerializer(serializers.Serializer):
    game = serializers.IntegerField()
    title = serializers.CharField()
    module = serializers.CharField()
    side = serializers.CharField(allow_blank=True)
    role = serializers.CharField(allow_blank=True)
    result = serializers.ChoiceField(choices=["won", "lost", "draw", "replaced"])
    phases = serializers.IntegerField()
    days = serializers.FloatField()
    finished_at = serializers.DateTimeField()


class ReliabilitySerializer(serializers.Serializer):
    username = serializers.CharField()
    finished = serializers.IntegerField()
    replaced_out = serializers.IntegerField()
    modkilled = serializers.IntegerField()
    missed_orders = serializers.IntegerField()
    action_phases = serializers.IntegerField()
    missed_percent = serializers.FloatField()


FORMAT = OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv"], description="json (default) or csv")


class StatsView(APIView):
    """The statistics rows (see ``gm.community.selectors.stats_rows``)."""

    permission_classes = [permissions.AllowAny]
    renderer_classes = [JSONRenderer, CSVRenderer]
    csv_fields = list(StatRowSerializer().fields)

    @extend_schema(summary="Statistics of finished games (JSON or CSV)", responses=StatRowSerializer(many=True),
                   parameters=[OpenApiParameter("module", OpenApiTypes.STR, description="a module slug"),
                               OpenApiParameter("players", OpenApiTypes.INT, description="a player count"),
                               OpenApiParameter("setup", OpenApiTypes.STR,
                                                description="role slugs joined by '+' (with players)"), FORMAT])
    def get(self, request):
        module = request.query_params.get("module", "")
        if module:
            try:
                registry.get(module)
            except registry.UnknownModule:
                raise ValidationError({"module": ["Unknown game."]}) from None
        players = request.query_params.get("players")
        if players is not None and not players.isdigit():
            raise ValidationError({"players": ["A whole number."]})
        rows = selectors.stats_rows(module=module, players=int(players) if players is not None else None,
                                    setup=request.query_params.get("setup"))
        return Response(StatRowSerializer(rows, many=True).data)


def _user(username: str):
    User = get_user_model()
    return get_object_or_404(User, **{User.USERNAME_FIELD: username})


class HistoryView(APIView):
    """A player's history of finished games (revealed facts only)."""

    permission_classes = [permissions.AllowAny]
    renderer_classes = [JSONRenderer, CSVRenderer]
    csv_fields = list(HistorySerializer().fields)

    @extend_schema(summary="A player's history of finished games (JSON or CSV)", parameters=[FORMAT],
                   responses=HistorySerializer(many=True))
    def get(self, request, username: str):
        lines = selectors.history_of(_user(username), limit=1000)
        return Response(HistorySerializer([{
            "game": line["game"].pk, "title": line["game"].title, "module": line["module"], "side": line["side"],
            "role": line["role"], "result": line["result"], "phases": line["phases"], "days": line["days"],
            "finished_at": line["finished_at"]} for line in lines], many=True).data)


class ReliabilityView(APIView):
    """A player's reliability record."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(summary="A player's reliability record", responses=ReliabilitySerializer)
    def get(self, request, username: str):
        user = _user(username)
        record = selectors.record_of(user)
        return Response(ReliabilitySerializer({
            "username": user.get_username(), "finished": record.finished, "replaced_out": record.replaced_out,
            "modkilled": record.modkilled, "missed_orders": record.missed_orders,
            "action_phases": record.action_phases, "missed_percent": record.missed_rate}).data)
