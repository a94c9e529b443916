"""REST API of the forum life features (issue 23 items 1–4): the public standby board, a player's role confirmation
and replacement request, a volunteer's offer, and the master's console part (activity options, flags, requests,
volunteers, tenure records). Each view parses, calls one service of ``gm.core.services.activity`` /
``replacements`` and answers; errors have the API's shape, and a refused request changes nothing.

API of the long-game features (issue 23, items 5–10): ISO, the phase index, the vote history. Each view finds the
game through ``visibility.game_or_404``, calls one selector of ``gm.core.services.iso`` and serialises; everything a
viewer gets went through the visibility layer.
"""
from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import life, visibility
from ..services import activity, early_ends, graveyard, iso, phase_named, replacements, vacations
from . import serializers as s
from .console import _ConsoleView


class StandbySeatSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    game_title = serializers.CharField()
    module = serializers.CharField()
    seat = serializers.IntegerField()
    display_name = serializers.CharField()
    public = serializers.ListField(child=serializers.ListField(child=serializers.CharField()),
                                   help_text=gettext_lazy("The seat's public facts as [label, text] pairs."))
    phase = serializers.CharField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    left_seconds = serializers.IntegerField(allow_null=True)
    volunteered = serializers.BooleanField()
    can_volunteer = serializers.BooleanField()


class StandbyView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=StandbySeatSerializer(many=True), summary="The standby board: seats needing a player")
    def get(self, request):
        board = replacements.standby_board(user=request.user)
        return Response(StandbySeatSerializer([{
            "game": r["game"].pk, "game_title": r["game"].title, "module": r["game"].module,
            "seat": r["seat"]["id"], "display_name": r["seat"]["display_name"],
            "public": [[str(a), str(b)] for a, b in r["seat"]["public_facts"]],
            "phase": r["phase"].label if r["phase"] is not None else None, "deadline": r["deadline"],
            "left_seconds": r["left_seconds"], "volunteered": r["volunteered"], "can_volunteer": r["can_volunteer"],
        } for r in board], many=True).data)


class DoneSerializer(serializers.Serializer):
    ok = serializers.BooleanField()


class RoleReadView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=DoneSerializer, summary="I have read my role")
    def post(self, request, pk):
        game = visibility.game_or_404(request.user, pk)
        activity.role_confirm(game=game, user=request.user)
        return Response({"ok": True})


class ReplacementRequestSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="",
                                   help_text=gettext_lazy("Why (only the master reads it)."))


class ReplacementStateSerializer(serializers.Serializer):
    requested_at = serializers.DateTimeField()
    acknowledged = serializers.BooleanField()
    withdrawn = serializers.BooleanField()


def _request_state(request_row) -> dict:
    return {"requested_at": request_row.created_at, "acknowledged": request_row.acknowledged_at is not None,
            "withdrawn": request_row.withdrawn_at is not None}


class ReplacementView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReplacementRequestSerializer, responses=ReplacementStateSerializer,
                   summary="Ask privately to be replaced")
    def post(self, request, pk):
        game = visibility.game_or_404(request.user, pk)
        data = ReplacementRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = replacements.replacement_request(game=game, user=request.user, reason=data.validated_data["reason"])
        return Response(_request_state(row))


class ReplacementWithdrawView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=ReplacementStateSerializer,
                   summary="Take back a request to be replaced (before the master acknowledges it)")
    def post(self, request, pk):
        game = visibility.game_or_404(request.user, pk)
        return Response(_request_state(replacements.replacement_withdraw(game=game, user=request.user)))


class VolunteerView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=DoneSerializer, summary="Offer to take a seat of the standby board")
    def post(self, request, pk, seat_id):
        game = visibility.game_or_404(request.user, pk)
        replacements.volunteer(game=game, user=request.user, seat_id=seat_id)
        return Response({"ok": True})


# -- the master's console --------------------------------------------------------------------------------------


class LifeSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    display_name = serializers.CharField()
    role_read_at = serializers.DateTimeField(allow_null=True)
    prodded_at = serializers.DateTimeField(allow_null=True)
    flagged_at = serializers.DateTimeField(allow_null=True)
    flag = serializers.CharField(allow_blank=True)
    extensions_used = serializers.IntegerField()


class LifeRequestSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField()
    user = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    acknowledged_at = serializers.DateTimeField(allow_null=True)


class LifeVolunteerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField()
    user = serializers.CharField()
    created_at = serializers.DateTimeField()


class LifeTenureSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    user = serializers.CharField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    orders = serializers.IntegerField()
    missed = serializers.IntegerField()


class LifeSerializer(serializers.Serializer):
    options = serializers.DictField(help_text=gettext_lazy("The game's activity options (defaults filled in)."))
    seats = LifeSeatSerializer(many=True)
    requests = LifeRequestSerializer(many=True)
    volunteers = LifeVolunteerSerializer(many=True)
    tenures = LifeTenureSerializer(many=True)


def _life(game) -> dict:
    part = life.console_part(game, list(game.seats.select_related("user").order_by("position")))
    return {
        "options": part["options"],
        "seats": [{"seat": r["seat"].pk, "display_name": r["seat"].display_name,
                   "role_read_at": r["status"].get("role_read"), "prodded_at": r["status"].get("prodded"),
                   "flagged_at": r["status"].get("flagged"), "flag": r["status"].get("flag", ""),
                   "extensions_used": r["status"].get("extensions_used", 0)} for r in part["seats"]],
        "requests": [{"id": r["request"].pk, "seat": r["request"].seat_id, "user": r["request"].user.get_username(),
                      "reason": r["request"].reason, "created_at": r["request"].created_at,
                      "acknowledged_at": r["request"].acknowledged_at} for r in part["requests"]],
        "volunteers": [{"id": v["volunteer"].pk, "seat": v["volunteer"].seat_id, "user": v["name"],
                        "created_at": v["volunteer"].created_at} for v in part["volunteers"]],
        "tenures": [{"seat": t["seat"].pk, "user": t["name"], "started_at": t["started_at"],
                     "ended_at": t["ended_at"], "orders": t["orders"], "missed": t["missed"]}
                    for t in part["tenures"]],
    }


class LifeOptionsSerializer(serializers.Serializer):
    options = serializers.DictField(help_text=gettext_lazy(
        "Activity options to change: prod_after, prod_grace, replacement_min_time, extension_length, extension_cap "
        "(whole hours), extensions_per_player (0–10), idle_kill, emergency_pause (true/false)."))
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class FlagSerializer(serializers.Serializer):
    flagged = serializers.BooleanField()
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class AckSerializer(serializers.Serializer):
    request = serializers.IntegerField()
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class ApproveSerializer(serializers.Serializer):
    volunteer = serializers.IntegerField()


class LifeConsoleView(_ConsoleView):
    @extend_schema(responses=LifeSerializer, summary="Activity and replacements: options, seats, requests, records")
    def get(self, request, pk):
        return Response(LifeSerializer(_life(self.game(pk))).data)

    @extend_schema(request=LifeOptionsSerializer, responses=LifeSerializer, summary="Change the activity options")
    def post(self, request, pk):
        game = self.game(pk)
        d = self.parse(LifeOptionsSerializer)
        game = activity.activity_options_set(game=game, actor=request.user, changes=d["options"], reason=d["reason"])
        return Response(LifeSerializer(_life(game)).data)


class LifeFlagView(_ConsoleView):
    @extend_schema(request=FlagSerializer, responses=LifeSerializer, summary="Flag a seat for replacement, or clear it")
    def post(self, request, pk, seat_id):
        game = self.game(pk)
        d = self.parse(FlagSerializer)
        replacements.seat_flag(game=game, actor=request.user, seat_id=seat_id, flagged=d["flagged"],
                               reason=d["reason"])
        return Response(LifeSerializer(_life(game)).data)


class LifeAckView(_ConsoleView):
    @extend_schema(request=AckSerializer, responses=LifeSerializer, summary="Acknowledge a replacement request")
    def post(self, request, pk):
        game = self.game(pk)
        d = self.parse(AckSerializer)
        replacements.replacement_acknowledge(game=game, actor=request.user, request_id=d["request"],
                                             reason=d["reason"])
        return Response(LifeSerializer(_life(game)).data)


class LifeApproveView(_ConsoleView):
    @extend_schema(request=ApproveSerializer, responses=LifeSerializer, summary="Give a seat to a volunteer")
    def post(self, request, pk):
        game = self.game(pk)
        d = self.parse(ApproveSerializer)
        replacements.volunteer_approve(game=game, actor=request.user, volunteer_id=d["volunteer"])
        return Response(LifeSerializer(_life(game)).data)


# -- a user's away dates and emergency pause ----------------------------------------------------------------------


class AwaySerializer(serializers.Serializer):
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


class PauseStateSerializer(serializers.Serializer):
    started_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    games = serializers.ListField(child=serializers.IntegerField())


class AwayStateSerializer(serializers.Serializer):
    away = AwaySerializer(allow_null=True, help_text=gettext_lazy("The declared away dates (inclusive), or null."))
    pausable_games = serializers.ListField(child=serializers.IntegerField(), help_text=gettext_lazy(
        "The running games an emergency pause would pause now."))
    last_pause = PauseStateSerializer(allow_null=True)


class EmergencyPauseSerializer(serializers.Serializer):
    hours = serializers.IntegerField(help_text=gettext_lazy("How long, in whole hours (at most 72 by default)."))


def _away_state(user) -> dict:
    current = vacations.away_of(user)
    games, last = vacations.emergency_pause_allowed(user=user)
    return {"away": {"starts_on": current.starts_on, "ends_on": current.ends_on} if current else None,
            "pausable_games": [g.pk for g in games],
            "last_pause": {"started_at": last.started_at, "ends_at": last.ends_at, "ended_at": last.ended_at,
                           "games": last.games} if last else None}


class AwayView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=AwayStateSerializer, summary="My away dates and emergency pause")
    def get(self, request):
        return Response(AwayStateSerializer(_away_state(request.user)).data)

    @extend_schema(request=AwaySerializer, responses=AwayStateSerializer, summary="Declare my away dates")
    def post(self, request):
        data = AwaySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        vacations.away_set(user=request.user, starts_on=data.validated_data["starts_on"],
                           ends_on=data.validated_data["ends_on"])
        return Response(AwayStateSerializer(_away_state(request.user)).data)

    @extend_schema(request=None, responses=AwayStateSerializer, summary="Withdraw my away dates")
    def delete(self, request):
        vacations.away_clear(user=request.user)
        return Response(AwayStateSerializer(_away_state(request.user)).data)


class EmergencyPauseView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=EmergencyPauseSerializer, responses=AwayStateSerializer,
                   summary="Take my emergency pause: pause my running games that allow it")
    def post(self, request):
        data = EmergencyPauseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        vacations.emergency_pause_start(user=request.user, hours=data.validated_data["hours"])
        return Response(AwayStateSerializer(_away_state(request.user)).data)


class IsoSerializer(serializers.Serializer):
    author = serializers.CharField(help_text=gettext_lazy("The author's name as the thread shows it."))
    seat = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("His seat id; null for the master."))
    phase = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("The phase filter (ordinal), if any."))
    phases = serializers.ListField(child=serializers.IntegerField(),
                                   help_text=gettext_lazy("Ordinals of the phases he posted in."))
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    count = serializers.IntegerField()
    posts = s.PostSerializer(many=True)


class PhaseIndexSerializer(serializers.Serializer):
    ordinal = serializers.IntegerField()
    label = serializers.CharField()
    start = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Id of its public start log line."))
    results = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Id of its public end log line."))
    hammer = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Id of its hammer log line, if any."))
    post = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Its first thread post."))
    post_page = serializers.IntegerField(allow_null=True)
    votes = serializers.CharField(help_text=gettext_lazy("URL of its vote history page, or empty."))


class VoteRowSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    seat = serializers.CharField()
    withdrawn = serializers.BooleanField()
    lines = serializers.ListField(child=serializers.CharField())


class TallyRowSerializer(serializers.Serializer):
    lines = serializers.ListField(child=serializers.CharField())
    count = serializers.IntegerField()


class VoteHistorySerializer(serializers.Serializer):
    phase = serializers.IntegerField()
    label = serializers.CharField()
    public = serializers.BooleanField()
    hidden = serializers.BooleanField(help_text=gettext_lazy("A secret ballot still open: voters are not shown."))
    rows = VoteRowSerializer(many=True)
    tally = TallyRowSerializer(many=True, help_text=gettext_lazy("A secret ballot's count without voters."))


class _GameView(APIView):
    permission_classes = [permissions.AllowAny]

    def viewer(self, pk) -> visibility.Viewer:
        return visibility.viewer_for(self.request.user, visibility.game_or_404(self.request.user, pk))


class IsoView(_GameView):
    @extend_schema(responses=IsoSerializer, summary="One author's posts in this game (ISO)", parameters=[
        OpenApiParameter("phase", int, description="Only this phase (ordinal)."),
        OpenApiParameter("page", int, description="Page (1-based).")])
    def get(self, request, pk, author):
        """``author``: a seat id of this game, or ``master``. Only what the caller may read of each post."""
        page = iso.iso_page(self.viewer(pk), author=author, phase=request.query_params.get("phase"),
                            page=request.query_params.get("page"))
        return Response(IsoSerializer({
            "author": page.author, "seat": page.seat.pk if page.seat else None,
            "phase": page.phase.ordinal if page.phase else None, "phases": [p.ordinal for p in page.phases],
            "page": page.page.number, "pages": page.page.paginator.num_pages, "count": page.page.paginator.count,
            "posts": page.items}).data)


class PhaseIndexView(_GameView):
    @extend_schema(responses=PhaseIndexSerializer(many=True), summary="Every phase with its start, results, "
                                                                      "first post and vote history")
    def get(self, request, pk):
        from ..views import THREAD_PAGE_SIZE

        rows = iso.phase_index(self.viewer(pk), page_size=THREAD_PAGE_SIZE)
        return Response(PhaseIndexSerializer([{**r, "ordinal": r["phase"].ordinal} for r in rows], many=True).data)


class VoteHistoryView(_GameView):
    @extend_schema(responses=VoteHistorySerializer, summary="The vote history of one phase, with the time of each "
                                                            "change", parameters=[
        OpenApiParameter("phase", int, required=True, description="The phase (ordinal).")])
    def get(self, request, pk):
        history = iso.vote_history(self.viewer(pk), phase=request.query_params.get("phase"))
        return Response(VoteHistorySerializer({**history, "phase": history["phase"].ordinal}).data)



class ReadyRequestSerializer(serializers.Serializer):
    phase = serializers.IntegerField(help_text=gettext_lazy("The phase the caller is done with (its id)."))
    done = serializers.BooleanField(default=True, help_text=gettext_lazy("False takes the “done” back."))


class ReadySerializer(serializers.Serializer):
    closed = serializers.BooleanField(help_text=gettext_lazy("Whether everyone is done now: the phase ends."))
    pressed = serializers.IntegerField()
    waited = serializers.IntegerField()


class ReadyView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReadyRequestSerializer, responses=ReadySerializer,
                   summary="Press “done” for the open phase (games with the all_ready option)")
    def post(self, request, pk):
        """The caller is done with the phase the body names (``done: false`` takes it back); once every living
        player who acts in it is, it ends (``closed``). 403 ``not_allowed`` without the option or for a seat that does
        not act; 409 ``stale``/``late`` for a phase that has ended."""
        game = visibility.game_or_404(request.user, pk)
        data = ReadyRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        phase = phase_named(game=game, phase_id=data.validated_data["phase"])
        closed = early_ends.ready_set(phase=phase, user=request.user, done=data.validated_data["done"])
        pressed, waited = early_ends.ready_count(phase)
        return Response(ReadySerializer({"closed": closed, "pressed": pressed, "waited": waited}).data)


class GraveyardPostSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    author = serializers.CharField()
    body = serializers.CharField()
    created_at = serializers.DateTimeField()


class GraveyardWriteSerializer(serializers.Serializer):
    body = serializers.CharField(max_length=graveyard.MAX_BODY)


class GraveyardView(_GameView):
    @extend_schema(responses=GraveyardPostSerializer(many=True), summary="The graveyard room (the dead, the master)")
    def get(self, request, pk):
        """The graveyard room's posts, oldest first: for the dead of a game with the graveyard, the master, spectators
        when the game lets them, everyone once it is over; 404 for anyone else (a living player never reads it)."""
        viewer = self.viewer(pk)
        if not graveyard.may_read(viewer):
            raise Http404
        return Response(GraveyardPostSerializer(graveyard.posts(viewer), many=True).data)

    @extend_schema(request=GraveyardWriteSerializer, responses={201: GraveyardPostSerializer},
                   summary="Write in the graveyard room (a dead player, the master)")
    def post(self, request, pk):
        viewer = self.viewer(pk)
        data = GraveyardWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        post = graveyard.graveyard_post(game=viewer.game, user=request.user, body=data.validated_data["body"])
        author = post.seat.display_name if post.seat is not None else str(gettext_lazy("Master"))
        return Response(GraveyardPostSerializer({"id": post.pk, "author": author, "body": post.body,
                                                 "created_at": post.created_at}).data, status=201)
