"""Inbox REST API: ``GET /api/inbox/`` (the caller's notifications, unread first; ``?unread=1`` for unread only),
``POST /api/inbox/<id>/read/``, ``POST /api/inbox/read-all/``. Logged-in users only; every query is scoped to the
caller, so another user's notification is a 404 (its existence is not revealed)."""
from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from . import selectors, services
from .models import Notification


class NotificationSerializer(serializers.ModelSerializer):
    """One notification as its owner reads it: ``title``, ``text`` and ``url`` rendered in the request's language
    (``text`` of a private message is its text: only its recipient ever gets this row)."""

    title = serializers.CharField(read_only=True)
    text = serializers.CharField(read_only=True)
    url = serializers.CharField(read_only=True)
    unread = serializers.BooleanField(read_only=True)
    game_title = serializers.CharField(source="game.title", read_only=True)

    class Meta:
        model = Notification
        fields = ["id", "kind", "game", "game_title", "phase", "entry", "title", "text", "url", "unread",
                  "created_at", "read_at"]
        read_only_fields = fields


class ReadAllSerializer(serializers.Serializer):
    marked = serializers.IntegerField(help_text="how many notifications were unread and are now read")


class NotificationViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """The caller's inbox."""

    serializer_class = NotificationSerializer
    permission_classes = [permissions.IsAuthenticated]
    queryset = Notification.objects.none()

    def get_queryset(self):
        unread = self.request.query_params.get("unread", "") in ("1", "true", "yes")
        return selectors.notifications_for(self.request.user, unread_only=unread)

    @extend_schema(parameters=[OpenApiParameter("unread", OpenApiTypes.BOOL, description="only unread ones")])
    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        notes = selectors.present(page if page is not None else self.get_queryset(), request.user)
        data = NotificationSerializer(notes, many=True).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(request=None, responses=NotificationSerializer)
    @action(detail=True, methods=["post"])
    def read(self, request, pk=None):
        """Mark one of the caller's notifications read (404 for anyone else's)."""
        note = services.mark_read(user=request.user, notification_id=pk)
        note = selectors.present([selectors.notifications_for(request.user).get(pk=note.pk)], request.user)[0]
        return Response(NotificationSerializer(note).data)

    @extend_schema(request=None, responses=ReadAllSerializer)
    @action(detail=False, methods=["post"], url_path="read-all")
    def read_all(self, request):
        return Response({"marked": services.mark_all_read(user=request.user)})
