"""The forum Mafia Veche API (FM-7): the count and result of a day, and the vote."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core import visibility
from gm.core.api.serializers import OrderTargetSerializer
from gm.core.services import ServiceError
from gm.core.web import game_or_404

from ..engine import veche
from ..selectors.veche import int_or_none, parse_at, public_votes, secret_ballot, veche_phase, voting_phase
from ..services import signup as services

MODULE = "forum_mafia"



#: One counted vote (``for`` is a Python keyword, hence the classes built with ``type``).
FmVecheVoteSerializer = type("FmVecheVoteSerializer", (serializers.Serializer,), {
    "__doc__": "A living character's current vote and its strength (FM-7.3).",
    "voter": serializers.CharField(),
    "for": serializers.CharField(help_text=gettext_lazy("A character's name, or “peace”.")),
    "punishment": serializers.ChoiceField(choices=list(veche.PUNISHMENTS), allow_null=True),
    "prosecutor_bonus": serializers.BooleanField(),
    "strength": serializers.FloatField(),
})


class FmVecheCandidateSerializer(serializers.Serializer):
    player = serializers.CharField()
    strength = serializers.FloatField()
    voters = serializers.ListField(child=serializers.CharField())


class FmVecheTallySerializer(serializers.Serializer):
    """The public count (``veche.tally``) without the secret negotiation bonus."""

    votes = FmVecheVoteSerializer(many=True)
    candidates = FmVecheCandidateSerializer(many=True)
    peace = serializers.FloatField()
    cast = serializers.FloatField()
    leader = serializers.CharField(allow_null=True)
    punishment = serializers.ChoiceField(choices=list(veche.PUNISHMENTS), allow_null=True)
    outcome = serializers.ChoiceField(choices=["peace", "two_alive", "no_votes", "leader"])


FmVecheChangeSerializer = type("FmVecheChangeSerializer", (serializers.Serializer,), {
    "__doc__": "One vote change of the day (public, FM-7.1).",
    "at": serializers.DateTimeField(),
    "voter": serializers.CharField(),
    "for": serializers.CharField(allow_null=True,
                                 help_text=gettext_lazy("A name, “peace”, or null: the vote was taken back.")),
    "punishment": serializers.ChoiceField(choices=list(veche.PUNISHMENTS), allow_null=True),
    "prosecutor_bonus": serializers.BooleanField(),
    "strength": serializers.FloatField(),
})


class FmVecheResultSerializer(serializers.Serializer):
    """The engine's public outcome of a resolved day (negotiation included)."""

    text = serializers.CharField()
    outcome = serializers.CharField()
    leader = serializers.CharField(allow_null=True)
    punishment = serializers.CharField(allow_null=True)
    peace = serializers.FloatField()
    cast = serializers.FloatField()
    candidates = FmVecheCandidateSerializer(many=True)


class FmVecheSerializer(serializers.Serializer):
    """The Veche of one day (FM-7): the public count at ``at`` and the vote changes up to then."""

    phase = serializers.IntegerField()
    day = serializers.IntegerField()
    label = serializers.CharField()
    open = serializers.BooleanField(help_text=gettext_lazy("The day is not resolved yet."))
    at = serializers.DateTimeField(allow_null=True)
    tally = FmVecheTallySerializer()
    history = FmVecheChangeSerializer(many=True)
    times = serializers.ListField(child=serializers.DateTimeField(),
                                  help_text=gettext_lazy("Every vote change time of the day (for ?at=)."))
    result = FmVecheResultSerializer(allow_null=True)


@extend_schema_field(OpenApiTypes.ANY)
class VoteForField(serializers.Field):
    """A seat id, ``"peace"``, or ``null`` (take the vote back)."""

    def to_internal_value(self, data):
        if data is None or data == veche.PEACE:
            return data
        if isinstance(data, int) and not isinstance(data, bool):
            return data
        raise serializers.ValidationError(_("Give a seat id, “peace” or null."))

    def to_representation(self, value):
        return value


FmVoteRequestSerializer = type("FmVoteRequestSerializer", (OrderTargetSerializer,), {
    "__doc__": "A Veche vote (FM-7.1–7.3, FM-7.5).",
    "for": VoteForField(allow_null=True, help_text=gettext_lazy(
        "A living character's seat id, “peace”, or null to take the vote back.")),
    "punishment": serializers.ChoiceField(choices=list(veche.PUNISHMENTS), required=False,
                                          default=veche.EXECUTION),
    "prosecutor_bonus": serializers.BooleanField(required=False, default=False,
                                                 help_text=gettext_lazy("The prosecutor's +2, once per game.")),
    "keep": serializers.JSONField(required=False, allow_null=True, default=None,
                                  help_text=gettext_lazy("Maniac: the Sleeve card (uid or slug) kept if jailed.")),
})


def _day_param(request) -> int | None:
    raw = request.query_params.get("day")
    if raw in (None, ""):
        return None
    day = int_or_none(raw)
    if day is None:
        raise ServiceError({"day": [_("Give the day's number.")]})
    return day


class VecheView(APIView):
    """``GET /api/games/<id>/veche/``: the public Veche of the day in progress (else the last day): the count by
    strength, who voted for whom, peace, and every vote change (FM-7.1); ``?at=<ISO time>`` the count and the changes
    at that moment; ``?day=N`` another day. The same for every viewer, anonymous included; nothing of an order
    but its vote. 404 before Day 1."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="fm_veche", responses=FmVecheSerializer, parameters=[
        OpenApiParameter("at", OpenApiTypes.DATETIME, description="The moment of the day to count at."),
        OpenApiParameter("day", OpenApiTypes.INT, description="The day's number (default: the current or last).")])
    def get(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        at = parse_at(request.query_params.get("at"))
        phase = veche_phase(game, _day_param(request))
        if phase is None:
            raise ServiceError(_("There is no Veche yet: it meets by day (FM-7.1)."), code="not_found")
        viewer = visibility.viewer_for(request.user, game)
        return Response(FmVecheSerializer(secret_ballot(public_votes(phase, at), game=game, phase=phase,
                                                        viewer=viewer)).data)


class VecheVoteView(APIView):
    """``POST /api/games/<id>/veche/vote/``: vote in the open day (a new version of the caller's day order with its
    ``vote`` part replaced; the cards stay): ``for`` a seat id or ``"peace"`` (``null`` takes the vote back),
    ``punishment``, ``prosecutor_bonus``, ``keep``, and ``phase`` (the day's id, required) with ``base_version``.
    Returns the public Veche. Errors: 400 ``invalid`` (the engine's reasons with rule IDs), 403 ``not_allowed``
    (dead) / ``forbidden`` (no seat), 409 ``late`` after the deadline, ``stale`` (with ``open_phase``) when the
    named day has ended, ``conflict`` when the order changed since ``base_version``, ``state`` when it is no day."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="fm_veche_vote", request=FmVoteRequestSerializer, responses=FmVecheSerializer)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        data = FmVoteRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        phase = voting_phase(game, values["phase"])
        target = values["for"]
        if target is None:
            services.vote_withdraw(phase=phase, user=request.user, base_version=values["base_version"])
        else:
            services.vote_submit(phase=phase, user=request.user, target=None if target == veche.PEACE else target,
                                 punishment=values["punishment"], prosecutor_bonus=values["prosecutor_bonus"],
                                 keep=values["keep"], base_version=values["base_version"])
        phase.refresh_from_db()
        viewer = visibility.viewer_for(request.user, game)
        return Response(FmVecheSerializer(secret_ballot(public_votes(phase), game=game, phase=phase,
                                                        viewer=viewer)).data)
