"""REST API. Views parse input, call one service or visibility selector, and serialize.

Every list is scoped to the viewer through ``gm.core.visibility`` (DRF applies no object permissions to lists).
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from .. import services, visibility
from ..models import Game
from . import serializers as s


def _module_choices():
    from ..registry import choices

    return choices()


class GameFilter(filters.FilterSet):
    """The games list's filters: ``?module=<slug>`` (a registered game) and ``?status=<status>`` (a game status).
    An unknown value is a 400 naming the parameter."""

    module = filters.ChoiceFilter(choices=_module_choices, help_text="A registered game module's slug.")
    status = filters.ChoiceFilter(choices=Game.Status.choices, help_text="The game's status.")

    class Meta:
        model = Game
        fields = ["module", "status"]


class GameViewSet(viewsets.GenericViewSet):
    """Games the viewer may see, with their seats, phases, log, orders, thread and master actions."""

    queryset = Game.objects.none()
    serializer_class = s.GameSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    filterset_class = GameFilter

    @property
    def filter_backends(self):
        # The filters belong to the games list only (the schema too): the other actions look a game up by id.
        return [filters.DjangoFilterBackend] if getattr(self, "action", None) == "list" else []

    def get_queryset(self):
        return visibility.visible_games(self.request.user)

    def _game(self, *, write: bool = False) -> Game:
        return self.get_object(write=write)

    def _master_game(self) -> Game:
        """The game, once the viewer is known to be its master: master-only actions call this before reading the
        body, so anyone else gets 403 whatever he sent (404 for a game he may not see)."""
        game = self.get_object()
        if not self._viewer(game).is_master:
            raise services.ServiceError(_("Only the game's master may do this."), code="forbidden")
        return game

    def _viewer(self, game: Game) -> visibility.Viewer:
        return visibility.viewer_for(self.request.user, game)

    def _paged(self, queryset, serializer_class):
        page = self.paginate_queryset(queryset)
        data = serializer_class(page if page is not None else queryset, many=True,
                                context=self.get_serializer_context()).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    def list(self, request):
        """Games the viewer may see, newest first; ``?module=`` and ``?status=`` narrow the list."""
        return self._paged(self.filter_queryset(self.get_queryset()), s.GameSerializer)

    def retrieve(self, request, pk=None):
        return Response(s.GameSerializer(self._game(), context=self.get_serializer_context()).data)

    @extend_schema(request=s.GameCreateSerializer, responses={201: s.GameSerializer})
    def create(self, request):
        data = s.GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_create(master=request.user, **data.validated_data)
        return Response(s.GameSerializer(game, context=self.get_serializer_context()).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(responses=s.SeatSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)  # every seat at once: the schema says so too
    def seats(self, request, pk=None):
        return Response(s.SeatSerializer(visibility.seats(self._viewer(self._game())), many=True).data)

    @extend_schema(responses=s.PhaseSerializer(many=True))
    @action(detail=True, methods=["get"])
    def phases(self, request, pk=None):
        game = self._game()
        viewer = self._viewer(game)
        queryset = game.phases.order_by("ordinal")
        page = self.paginate_queryset(queryset)
        phases = page if page is not None else list(queryset)
        data = s.PhaseSerializer(phases, many=True).data
        for item, phase in zip(data, phases, strict=True):  # the actors of a phase can betray roles
            item["actors"] = visibility.phase_actors(viewer, phase)
        return self.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(responses=s.LogEntrySerializer(many=True))
    @action(detail=True, methods=["get"])
    def log(self, request, pk=None):
        return self._paged(visibility.log_entries(self._viewer(self._game())), s.LogEntrySerializer)

    @extend_schema(responses=s.AuditEntrySerializer(many=True))
    @action(detail=True, methods=["get"])
    def audit(self, request, pk=None):
        return self._paged(visibility.audit_entries(self._viewer(self._game())), s.AuditEntrySerializer)

    @extend_schema(methods=["GET"], responses=s.OrderSerializer(many=True))
    @extend_schema(methods=["POST"], request=s.OrderSubmitSerializer, responses={201: s.OrderSerializer})
    @action(detail=True, methods=["get", "post"])
    def orders(self, request, pk=None):
        """GET: order versions the viewer may see. POST: a new version of the caller's order for the phase the body
        names (``phase``, required; 409 ``stale`` with ``open_phase`` when that phase has ended)."""
        game = self._game(write=request.method == "POST")
        if request.method == "GET":
            return self._paged(visibility.orders(self._viewer(game)), s.OrderSerializer)
        data = s.OrderSubmitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        order = services.order_submit(game=game, phase_id=values["phase"], user=request.user,
                                      payload=values["payload"], base_version=values["base_version"])
        return Response(s.OrderSerializer(order).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.OrderTargetSerializer, responses={201: s.OrderSerializer})
    @action(detail=True, methods=["post"], url_path="orders/withdraw")
    def orders_withdraw(self, request, pk=None):
        """Withdraw the caller's order for the phase the body names (a new version with no payload)."""
        game = self._game(write=True)
        data = s.OrderTargetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        order = services.order_withdraw(phase=services.phase_named(game=game, phase_id=values["phase"]),
                                        user=request.user, base_version=values["base_version"])
        return Response(s.OrderSerializer(order).data, status=status.HTTP_201_CREATED)

    def _posts(self, viewer: visibility.Viewer, posts) -> list:
        return s.PostSerializer(visibility.thread_items(viewer, posts), many=True).data

    @extend_schema(methods=["GET"], responses=s.PostSerializer(many=True))
    @extend_schema(methods=["POST"], request=s.PostCreateSerializer, responses={201: s.PostSerializer})
    @action(detail=True, methods=["get", "post"])
    def posts(self, request, pk=None):
        """GET: the game thread, oldest first, as the viewer may see it (FM-9.1; a private part's text only for its
        recipient and the master, FM-9.2). POST: a new post by the caller — same rules as the page (FM-1.4, FM-9.7,
        FM-9.2 with the reason when refused)."""
        game = self._game()
        viewer = self._viewer(game)
        if request.method == "GET":
            queryset = visibility.posts(viewer)
            page = self.paginate_queryset(queryset)
            data = self._posts(viewer, page if page is not None else queryset)
            return self.get_paginated_response(data) if page is not None else Response(data)
        data = s.PostCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        post = services.post_create(game=game, user=request.user, **data.validated_data)
        return Response(self._posts(viewer, visibility.posts(viewer).filter(pk=post.pk))[0],
                        status=status.HTTP_201_CREATED)

    @extend_schema(methods=["GET"], responses=s.PostSerializer,
                   parameters=[OpenApiParameter("post_id", int, OpenApiParameter.PATH, description="The post's id.")])
    @extend_schema(methods=["PATCH"], request=s.PostEditSerializer, responses=s.PostSerializer,
                   parameters=[OpenApiParameter("post_id", int, OpenApiParameter.PATH, description="The post's id.")])
    @action(detail=True, methods=["get", "patch"], url_path=r"posts/(?P<post_id>[0-9]+)", url_name="post")
    def post_item(self, request, pk=None, post_id=None):
        """GET: one post as the viewer may see it. PATCH: its author edits it (the earlier version is kept for the
        master; a private message can be neither added nor changed, FM-9.2)."""
        game = self._game()
        viewer = self._viewer(game)
        post = visibility.posts(viewer).filter(pk=post_id).first()
        if post is None:
            raise services.ServiceError(_("No such post."), code="not_found")
        if request.method == "PATCH":
            data = s.PostEditSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            fields = data.validated_data
            post = services.post_edit(post=post, user=request.user, body=fields.get("body", post.body),
                                      comment=fields.get("comment"))
        return Response(self._posts(viewer, visibility.posts(viewer).filter(pk=post.pk))[0])

    @extend_schema(request=s.JoinSerializer, responses={201: s.SeatSerializer})
    @action(detail=True, methods=["post"])
    def join(self, request, pk=None):
        game = self._game()
        if game.game_module.signup_view:
            raise services.ServiceError(_("This game has its own signup (see its signup endpoint)."),
                                        code="not_allowed")
        data = s.JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = services.seat_join(game=game, user=request.user, **data.validated_data)
        viewer = self._viewer(game)
        return Response(s.SeatSerializer(visibility.seat_projection(viewer, seat)).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"])
    def leave(self, request, pk=None):
        services.seat_leave(game=self._game(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses=s.GameSerializer)
    @action(detail=True, methods=["post"], url_path="open-signup")
    def open_signup(self, request, pk=None):
        game = services.game_open_signup(game=self._master_game(), actor=request.user)
        return Response(s.GameSerializer(game, context=self.get_serializer_context()).data)

    @extend_schema(request=None, responses=s.PhaseSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        return Response(s.PhaseSerializer(services.game_start(game=self._master_game(), actor=request.user)).data)

    @extend_schema(request=s.ExtendSerializer, responses=s.PhaseSerializer)
    @action(detail=True, methods=["post"])
    def extend(self, request, pk=None):
        game = self._master_game()
        data = s.ExtendSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        phase = services.phase_extend(game=game, actor=request.user, **data.validated_data)
        return Response(s.PhaseSerializer(phase).data)

    @extend_schema(request=s.ReasonSerializer, responses=s.GameSerializer)
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        game = self._master_game()
        data = s.ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_pause(game=game, actor=request.user, **data.validated_data)
        return Response(s.GameSerializer(game, context=self.get_serializer_context()).data)

    @extend_schema(request=s.ReasonSerializer, responses=s.GameSerializer)
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        game = self._master_game()
        data = s.ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_resume(game=game, actor=request.user, **data.validated_data)
        return Response(s.GameSerializer(game, context=self.get_serializer_context()).data)

    @extend_schema(request=s.PhaseActionSerializer, responses=s.PhaseSerializer)
    @action(detail=True, methods=["post"], url_path="resolve-now")
    def resolve_now(self, request, pk=None):
        game = self._master_game()
        data = s.PhaseActionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        phase = services.phase_resolve_now(game=game, actor=request.user, **data.validated_data)
        return Response(s.PhaseSerializer(phase).data)

    def get_object(self, *, write: bool = False):
        """The game of the URL through the visibility layer's one lookup (``visibility.game_or_404``: the same
        rule as :meth:`get_queryset`, read by a query compiled once per process); ``Http404`` otherwise.
        ``write``: the lean row of a write that reads its state again under its lock."""
        game = visibility.game_or_404(self.request.user, self.kwargs.get(self.lookup_url_kwarg or self.lookup_field),
                                      write=write)
        self.check_object_permissions(self.request, game)
        return game
