"""The forum Mafia chat rooms API (FM-9.3): the viewer's rooms of the day and a room's posts."""
from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core import visibility
from gm.core.web import game_or_404

from ..services import rooms as room_services

MODULE = "forum_mafia"



class FmRoomMemberSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text=gettext_lazy("Seat id."))
    name = serializers.CharField()
    alive = serializers.BooleanField()


class FmRoomSerializer(serializers.Serializer):
    """A chat room the caller may read (FM-9.3)."""

    key = serializers.CharField(help_text=gettext_lazy("The room in URLs, e.g. “1-2” (room 2 of Day 1)."))
    group = serializers.CharField(source="slug", help_text=gettext_lazy("Its group slug, e.g. “room:1-2”."))
    label = serializers.CharField()
    day = serializers.IntegerField(help_text=gettext_lazy("The day it was agreed in."))
    members = FmRoomMemberSerializer(many=True)
    lasting = serializers.BooleanField(help_text=gettext_lazy("The conspirator's room: open to the end of the game "
                                                              "(FM-8)."))
    open = serializers.BooleanField(help_text=gettext_lazy("Whether it still takes posts; it closes once the night "
                                                           "after its day ends (FM-9.3)."))
    may_post = serializers.BooleanField(help_text=gettext_lazy("Whether the caller may write in it now."))
    closed_reason = serializers.CharField(allow_blank=True)
    post_count = serializers.IntegerField()


class FmRoomPostSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    author = serializers.CharField(help_text=gettext_lazy("The character's name."))
    seat = serializers.IntegerField(allow_null=True)
    author_alive = serializers.BooleanField(allow_null=True)
    phase_label = serializers.CharField(allow_blank=True)
    body = serializers.CharField(help_text=gettext_lazy("BBCode as written."))
    html = serializers.CharField(help_text=gettext_lazy("Rendered and sanitised HTML."))
    created_at = serializers.DateTimeField()


class FmRoomPostCreateSerializer(serializers.Serializer):
    body = serializers.CharField(allow_blank=True, trim_whitespace=False,
                                 help_text=gettext_lazy("BBCode, at most 20000 characters."))


class RoomListView(APIView):
    """``GET /api/games/<id>/rooms/``: the chat rooms the caller may read (FM-9.3) — his own (members who may speak:
    the living and a dead avenger), all of them for the master; an empty list for everyone else."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="fm_rooms_list", responses=FmRoomSerializer(many=True))
    def get(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        viewer = visibility.viewer_for(request.user, game)
        return Response(FmRoomSerializer(room_services.room_list(viewer), many=True).data)


class RoomPostsView(APIView):
    """``GET /api/games/<id>/rooms/<room>/posts/``: a room's posts, oldest first; ``POST``: write in it (members who
    may speak, while it is open). 404 ``not_found`` for a room the caller may not read (or that does not exist); 403
    ``forbidden`` for the master (he reads, he does not write); 409 ``state`` once the room is read-only (with the
    reason); 400 ``invalid`` (``body``)."""

    permission_classes = [permissions.AllowAny]

    def _room(self, request, pk, room):
        game = game_or_404(request.user, pk, module=MODULE)
        viewer = visibility.viewer_for(request.user, game)
        return game, viewer, room_services.room_get(viewer, room)

    @extend_schema(operation_id="fm_room_posts_list", responses=FmRoomPostSerializer(many=True))
    def get(self, request, pk, room):
        _game_, viewer, found = self._room(request, pk, room)
        return Response(FmRoomPostSerializer(room_services.room_posts(viewer, found), many=True).data)

    @extend_schema(operation_id="fm_room_posts_create", request=FmRoomPostCreateSerializer,
                   responses={201: FmRoomPostSerializer})
    def post(self, request, pk, room):
        game, viewer, found = self._room(request, pk, room)
        data = FmRoomPostCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        post = room_services.room_post_create(game=game, user=request.user, room=found.key,
                                              body=data.validated_data["body"])
        item = next(i for i in room_services.room_posts(viewer, found) if i["id"] == post.pk)
        return Response(FmRoomPostSerializer(item).data, status=status.HTTP_201_CREATED)
