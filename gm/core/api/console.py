"""REST API of the master's console (``/api/games/{id}/console/…``): what the console page shows and every
intervention it offers, each calling one service of ``gm.core.interventions``, ``gm.core.review`` or
``gm.core.services``. Errors have the API's shape (``{"errors": {field: [messages]}, "code": slug}``); a refused
request changes nothing. Only the game's master gets anything but 403 (404 for a game he may not see)."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import interventions, messages, review, services, visibility
from ..console import console_context
from ..models import Game
from ..services import ServiceError
from ..services.outage import outages_of
from . import serializers as s

REASON_HELP = gettext_lazy("Why (required): it goes into the audit log.")


class ReasonRequiredSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, help_text=REASON_HELP)


class SeatEditSerializer(ReasonRequiredSerializer):
    changes = serializers.DictField(help_text=gettext_lazy(
        "The keys of the seat's editable fields to change (see GET console/: each seat's ``fields``). Forum Mafia: "
        "``hand`` (front first), ``sleeve``, ``deck`` (top first), ``discard`` as lists of card slugs; ``jail`` "
        "(phases left, 0 = free); ``handcuffs`` (night number or null); ``public_role`` (an FM-8 role slug or "
        "{\"custom\": name})."))


class SeatAliveSerializer(ReasonRequiredSerializer):
    alive = serializers.BooleanField(help_text=gettext_lazy("false: kill; true: revive."))


class SeatReplaceSerializer(ReasonRequiredSerializer):
    user = serializers.CharField(max_length=150, help_text=gettext_lazy("The new player's user name."))


class ReviewModeSerializer(ReasonRequiredSerializer):
    enabled = serializers.BooleanField(help_text=gettext_lazy("Hold each result for the master's approval."))
    auto_minutes = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1,
                                            max_value=review.MAX_AUTO_MINUTES, help_text=gettext_lazy(
                                                "A held result publishes itself this many minutes after its "
                                                "resolution; null: only when the master approves."))


class PublishAtSerializer(ReasonRequiredSerializer):
    publish_at = serializers.DateTimeField(allow_null=True, help_text=gettext_lazy(
        "When the held result publishes itself (future, at most a week ahead); null: only on approval."))


class EventSerializer(serializers.Serializer):
    kind = serializers.CharField()
    visibility = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    group = serializers.CharField(allow_blank=True)
    data = serializers.DictField()
    text = serializers.CharField(help_text=gettext_lazy("The line in the reader's language."))


class ConsoleSeatSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    user = serializers.CharField(allow_null=True)
    alive = serializers.BooleanField()
    summary = serializers.ListField(child=serializers.ListField(child=serializers.CharField()),
                                    help_text=gettext_lazy("[label, text] pairs, e.g. the secret role."))
    fields = serializers.DictField(help_text=gettext_lazy("What the master may edit (containers, flags)."))
    groups = serializers.ListField(child=serializers.CharField())
    orders = s.OrderSerializer(many=True, help_text=gettext_lazy("Every version of the open phase's order."))


class HeldSerializer(serializers.Serializer):
    phase = serializers.IntegerField()
    label = serializers.CharField()
    held_at = serializers.DateTimeField()
    publish_at = serializers.DateTimeField(allow_null=True)
    events = EventSerializer(many=True)


class OutageSerializer(serializers.Serializer):
    down_from = serializers.DateTimeField(help_text=gettext_lazy("The last successful deadline sweep before it."))
    detected_at = serializers.DateTimeField(help_text=gettext_lazy("The first sweep after it."))
    minutes = serializers.IntegerField()
    shift_minutes = serializers.IntegerField(help_text=gettext_lazy("How far the deadlines in the gap moved."))
    moved = serializers.CharField(help_text=gettext_lazy("This game's phase whose deadline moved, or empty."))


class ConsoleSerializer(serializers.Serializer):
    review_results = serializers.BooleanField()
    review_auto_minutes = serializers.IntegerField(allow_null=True)
    held = HeldSerializer(allow_null=True)
    seats = ConsoleSeatSerializer(many=True)
    outages = OutageSerializer(many=True)


class PreviewSerializer(serializers.Serializer):
    phase = serializers.IntegerField()
    label = serializers.CharField()
    orders = serializers.DictField(help_text=gettext_lazy("Seat id → the order version in force."))
    events = EventSerializer(many=True)
    alive = serializers.DictField(help_text=gettext_lazy("Seat id → alive after the phase (changed seats only)."))
    next_phase = serializers.DictField(allow_null=True)
    outcome = serializers.DictField(allow_null=True)


def _events(game: Game, events) -> list[dict]:
    return [{**e, "group": e.get("group") or "", "text": messages.render(e["kind"], e.get("data") or {}, game.module)}
            for e in events]


class _ConsoleView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def game(self, pk) -> Game:
        game = visibility.game_or_404(self.request.user, pk)
        if not visibility.viewer_for(self.request.user, game).is_master:
            raise ServiceError(_("Only the game's master may do this."), code="forbidden")
        return game

    def parse(self, serializer_class):
        data = serializer_class(data=self.request.data)
        data.is_valid(raise_exception=True)
        return data.validated_data


class ConsoleView(_ConsoleView):
    @extend_schema(responses=ConsoleSerializer, summary="The master's console: every seat's secrets and orders")
    def get(self, request, pk):
        """Every seat with its secret summary, editable fields and the open phase's order versions; the review
        setting and the result held for review, if any."""
        game = self.game(pk)
        viewer = visibility.viewer_for(request.user, game)
        phase = game.phases.exclude(status="resolved").first()
        c = console_context(game=game, viewer=viewer, phase=phase)
        held = c["held"]
        return Response(ConsoleSerializer({
            "review_results": game.review_results, "review_auto_minutes": game.review_auto_minutes,
            "held": {"phase": held.pk, "label": held.label, "held_at": held.held_at, "publish_at": held.publish_at,
                     "events": _events(game, held.result.get("events", []))} if held else None,
            "seats": [{"id": r["seat"].pk, "display_name": r["seat"].display_name,
                       "user": r["seat"].user.get_username() if r["seat"].user else None, "alive": r["seat"].alive,
                       "summary": [list(p) for p in r["summary"]], "fields": r["fields"], "groups": r["groups"],
                       "orders": r["orders"]} for r in c["seat_rows"]],
            "outages": outages_of(game),
        }).data)


class PreviewView(_ConsoleView):
    @extend_schema(responses=PreviewSerializer, summary="What-if preview of the open phase (writes nothing)")
    def get(self, request, pk):
        """The open phase resolved by the module's engine on the current orders, seats and the phase's own seed,
        without committing anything: the events (trace, public, private), deaths, the next phase or the outcome."""
        game = self.game(pk)
        preview = interventions.phase_preview(game=game, actor=request.user)
        data = services.resolution_data(preview.result, game.game_module.constant_state_keys)
        return Response(PreviewSerializer({
            "phase": preview.phase.pk, "label": preview.phase.label,
            "orders": {str(k): v for k, v in preview.orders.items()}, "events": _events(game, data["events"]),
            "alive": data["alive"], "next_phase": data["next_phase"], "outcome": data["outcome"],
        }).data)


class SeatEditView(_ConsoleView):
    @extend_schema(request=SeatEditSerializer, responses=s.SeatSerializer, summary="Edit a seat's cards and flags")
    def post(self, request, pk, seat_id):
        game = self.game(pk)
        d = self.parse(SeatEditSerializer)
        seat = interventions.seat_edit(game=game, actor=request.user, seat_id=seat_id, changes=d["changes"],
                                       reason=d["reason"])
        return Response(visibility.seat_projection(visibility.viewer_for(request.user, game), seat))


class SeatAliveView(_ConsoleView):
    @extend_schema(request=SeatAliveSerializer, responses=s.SeatSerializer, summary="Kill or revive a seat")
    def post(self, request, pk, seat_id):
        game = self.game(pk)
        d = self.parse(SeatAliveSerializer)
        seat = interventions.seat_set_alive(game=game, actor=request.user, seat_id=seat_id, alive=d["alive"],
                                            reason=d["reason"])
        return Response(visibility.seat_projection(visibility.viewer_for(request.user, game), seat))


class SeatReplaceView(_ConsoleView):
    @extend_schema(request=SeatReplaceSerializer, responses=s.SeatSerializer, summary="Replace a seat's player")
    def post(self, request, pk, seat_id):
        game = self.game(pk)
        d = self.parse(SeatReplaceSerializer)
        seat = interventions.seat_replace_player(game=game, actor=request.user, seat_id=seat_id, user=d["user"],
                                                 reason=d["reason"])
        return Response(visibility.seat_projection(visibility.viewer_for(request.user, game), seat))


class ReviewModeView(_ConsoleView):
    @extend_schema(request=ReviewModeSerializer, responses=s.GameSerializer,
                   summary="Turn review before publishing on or off")
    def post(self, request, pk):
        game = self.game(pk)
        d = self.parse(ReviewModeSerializer)
        game = review.game_set_review(game=game, actor=request.user, enabled=d["enabled"],
                                      auto_minutes=d["auto_minutes"], reason=d["reason"])
        return Response(s.GameSerializer(game, context={"request": request}).data)


class PublishView(_ConsoleView):
    @extend_schema(request=ReasonRequiredSerializer, responses=s.PhaseSerializer, summary="Publish the held result")
    def post(self, request, pk):
        game = self.game(pk)
        d = self.parse(ReasonRequiredSerializer)
        return Response(s.PhaseSerializer(review.phase_publish(game=game, actor=request.user,
                                                               reason=d["reason"])).data)


class PublishAtView(_ConsoleView):
    @extend_schema(request=PublishAtSerializer, responses=s.PhaseSerializer,
                   summary="Set when the held result publishes itself")
    def post(self, request, pk):
        game = self.game(pk)
        d = self.parse(PublishAtSerializer)
        phase = review.phase_set_publish_at(game=game, actor=request.user, publish_at=d["publish_at"],
                                            reason=d["reason"])
        return Response(s.PhaseSerializer(phase).data)
