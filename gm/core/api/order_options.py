"""``GET /api/games/<id>/order-options/``: what the caller may order now, for every game module, through its
``GameModule.order_options`` hook (the shape is documented there and by :class:`OrderOptionsSerializer`)."""
from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import visibility


class OrderOptionsTargetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class OrderOptionsChoiceSerializer(serializers.Serializer):
    """One legal order as a whole payload for ``POST /api/games/<id>/orders/``."""

    key = serializers.CharField()
    label = serializers.CharField()
    payload = serializers.DictField()


class OrderOptionsSerializer(serializers.Serializer):
    """What the caller may order now. Every game answers these keys; a game may add its own (forum Mafia: ``cards``,
    ``hand``, ``sleeve``, ``dead_targets``, ``can_discard_two``, ``named_cards``, ``abilities``,
    ``pay_from_hand``)."""

    phase = serializers.IntegerField(help_text=gettext_lazy(
        "The id of the phase these options are for: name it as “phase” in the order you send."))
    can_order = serializers.BooleanField()
    why_not = serializers.CharField(allow_blank=True)
    targets = OrderOptionsTargetSerializer(many=True, help_text=gettext_lazy("The players you may name now."))
    choices = OrderOptionsChoiceSerializer(many=True, required=False, help_text=gettext_lazy(
        "Every legal order as a whole payload, for games whose orders are a short list of choices."))


class OrderOptionsView(APIView):
    """What the caller's own seat may order in the open phase. Errors: 404 for a game the caller can't see or whose
    game offers no order options; 403 ``forbidden`` without a seat (master, spectators), 403 ``not_allowed`` for a
    dead seat, 409 ``state`` when no phase takes his orders (as the game says)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=OrderOptionsSerializer)
    def get(self, request, pk):
        game = visibility.game_or_404(request.user, pk)
        viewer = visibility.viewer_for(request.user, game)
        options = game.game_module.order_options(game=game, viewer=viewer)
        if options is None:
            raise Http404(_("This game offers no order options."))
        return Response(options)
