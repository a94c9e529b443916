"""The forum Mafia abilities API (FM-3.3, FM-4.7, FM-8): instant abilities and the deck rebuild."""
from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core import services, visibility
from gm.core.models import Game, LogEntry
from gm.core.web import game_or_404

from ..services import abilities as ability_services

MODULE = "forum_mafia"



class FmAbilityUseSerializer(serializers.Serializer):
    """An instant ability (FM-3.3, FM-8), in the phase it names."""

    phase = serializers.IntegerField(help_text=gettext_lazy(
        "The id of the night or day this is for (required). If it has ended, nothing changes and the answer is 409 "
        "with code “stale”, “phase” and “open_phase”."))

    ability = serializers.ChoiceField(choices=["maniac", "joker", "looter", "geek"],
                                      help_text=gettext_lazy("The role slug of the ability."))
    mode = serializers.CharField(required=False, allow_blank=True,
                                 help_text=gettext_lazy("swap (maniac), guess (joker); empty for the others."))
    hand_card = serializers.JSONField(required=False, help_text=gettext_lazy("Maniac swap: a Hand card (uid or slug)."))
    sleeve_card = serializers.JSONField(required=False,
                                        help_text=gettext_lazy("Maniac swap: a Sleeve card (uid or slug)."))
    mapping = serializers.DictField(child=serializers.CharField(), required=False,
                                    help_text=gettext_lazy("Joker: seat id → secret role slug, every other player."))
    target = serializers.IntegerField(required=False, help_text=gettext_lazy("Looter: a dead character's seat id."))
    card = serializers.CharField(required=False, help_text=gettext_lazy("Geek: a collection card slug."))


class FmAbilityResultSerializer(serializers.Serializer):
    """What the ability did, as the caller may see it."""

    seat = serializers.DictField(help_text=gettext_lazy("The caller's seat as the visibility layer projects it."))
    results = serializers.ListField(child=serializers.CharField(),
                                    help_text=gettext_lazy("What the caller was told, and the public news."))
    finished = serializers.BooleanField(help_text=gettext_lazy("The game ended right after it (FM-10.6)."))
    winners = serializers.ListField(child=serializers.CharField())


class FmRebuildSerializer(serializers.Serializer):
    deck = serializers.JSONField(help_text=gettext_lazy("Card slugs, or {\"kind\": slug, \"count_as\": \"non_free\"}."))


def _result(request, game: Game, result: ability_services.AbilityResult) -> Response:
    game.refresh_from_db()
    viewer = visibility.viewer_for(request.user, game)
    seat = result.seat
    texts = [e.text() for e in result.entries if e.visibility == LogEntry.Visibility.PUBLIC
             or (e.visibility == LogEntry.Visibility.SEAT and e.seat_id == seat.pk)]
    return Response({"seat": visibility.seat_projection(viewer, seat), "results": texts, "finished": result.finished,
                     "winners": list((game.outcome or {}).get("winners") or []) if result.finished else []})


class AbilityUseView(APIView):
    """``POST /api/games/<id>/abilities/``: use an instant ability now (the maniac's swap, the joker's mapping, the
    looter's copies, the geek's card) in the phase the body names (``phase``, required). Errors: 400 ``invalid``
    (the engine's reasons with rule IDs, ``details`` structured), 403 ``not_allowed`` (not your ability, spent, dead
    or left) / ``forbidden`` (no seat), 409 ``state``/``late`` (no night or day open), ``stale`` (with
    ``open_phase``) when the named phase has ended."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="fm_ability_use", request=FmAbilityUseSerializer,
                   responses=FmAbilityResultSerializer)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        data = FmAbilityUseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        payload = dict(data.validated_data)
        phase_id = payload.pop("phase")
        result = ability_services.ability_use(game=game, user=request.user, payload=payload,
                                              phase_id=services.phase_named(game=game, phase_id=phase_id,
                                                                                 current=False).pk)
        return _result(request, game, result)


class DeckRebuildView(APIView):
    """``POST /api/games/<id>/deck/rebuild/``: rebuild an exhausted deck (FM-4.7) from ``deck`` under the FM-4.3
    rules (400 with every broken rule), recharging the abilities of FM-4.8. 409 ``state`` while the deck holds
    cards or no night or day is open."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="fm_deck_rebuild", request=FmRebuildSerializer, responses=FmAbilityResultSerializer)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=MODULE)
        data = FmRebuildSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = ability_services.deck_rebuild(game=game, user=request.user, deck=data.validated_data["deck"])
        return _result(request, game, result)
