"""The October Night API beyond the core's orders: a player's claim of a character sheet at sign-up (OC-2.1),
``POST /api/games/<pk>/oc/claim/``; refused with the OC-18 code (``sheet_taken`` names who holds the sheet,
``unknown_sheet``) in the caller's language, as the game page's form is."""
from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core.web import game_or_404

from . import services


class ClaimSerializer(serializers.Serializer):
    character = serializers.CharField(allow_blank=True, help_text=gettext_lazy(
        "A character sheet's slug (vicar, detective, witch…); empty: drop the claim, a random free sheet."))


class ClaimDoneSerializer(serializers.Serializer):
    character = serializers.CharField(allow_blank=True)


class ClaimView(APIView):
    """``POST /api/games/<id>/oc/claim/``: claim a free character sheet for one's seat at sign-up (OC-2.1)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="oc_claim", request=ClaimSerializer, responses=ClaimDoneSerializer)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module="october_night")
        data = ClaimSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = services.sheet_claim(game=game, user=request.user, character=data.validated_data["character"])
        return Response({"character": (seat.data or {}).get("claim", "")})
