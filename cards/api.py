"""Cards REST API: the collection (public), my deck (get / check / submit), cards of a game's seats as the
viewer may see them (owner and master: everything; others: the published Hand count), Hand reordering."""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core import visibility
from gm.core.models import Game, Seat
from gm.core.services import ServiceError

from . import selectors, services
from .models import current_collection


class CardKindSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    name_ru = serializers.CharField()
    name_en = serializers.CharField()
    colour = serializers.CharField()
    price = serializers.IntegerField()
    free = serializers.BooleanField()
    timing = serializers.CharField()
    target = serializers.CharField()
    text = serializers.CharField()
    effect = serializers.DictField()
    special = serializers.BooleanField()


class CollectionSerializer(serializers.Serializer):
    version = serializers.CharField(help_text=_("The digest identifying this exact set of card kinds."))
    cards = CardKindSerializer(many=True)


def kind_data(kind, language: str) -> dict:
    return {"slug": kind.slug, "name": kind.name(language), "name_ru": kind.name_ru, "name_en": kind.name_en,
            "colour": kind.colour, "price": kind.price, "free": kind.free, "timing": kind.timing,
            "target": kind.target, "text": kind.text(language), "effect": dict(kind.effect), "special": kind.special}


def _visible_game(request, pk) -> Game:
    return visibility.game_or_404(request.user, pk)


class CollectionView(APIView):
    """The card collection (public). ``?game=<id>``: the snapshot that game plays with."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[OpenApiParameter("game", int, required=False)], responses=CollectionSerializer)
    def get(self, request):
        game_id = request.query_params.get("game")
        if game_id:
            if not game_id.isdigit():
                raise ServiceError({"game": [_("Give a game id (a number).")]})
            collection = services.collection_for_game(_visible_game(request, int(game_id)))
        else:
            collection = current_collection()
        language = request.LANGUAGE_CODE
        data = [kind_data(collection[slug], language) for slug in sorted(collection.kinds)]
        return Response({"version": collection.version, "cards": data})


class DeckSerializer(serializers.Serializer):
    deck = serializers.JSONField(help_text=_("Card slugs, or {\"kind\": slug, \"count_as\": \"non_free\"}."))
    check_only = serializers.BooleanField(default=False, help_text=_("Only check the deck; store nothing."))


class DeckView(APIView):
    """My deck in a game: GET the stored deck list with its check; POST ``{"deck": [...]}`` to submit it during the
    deck-building stage (FM-4.5), or with ``"check_only": true`` to get every broken FM-4.3 rule without storing."""

    permission_classes = [permissions.IsAuthenticated]

    def _seat(self, request, game) -> Seat:
        seat = Seat.objects.filter(game=game, user=request.user).first()
        if seat is None:
            raise ServiceError(_("You have no seat in this game."), code="forbidden")
        return seat

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        game = _visible_game(request, pk)
        seat = self._seat(request, game)
        deck_list = seat.data.get("deck_list") or []
        errors = services.deck_check(game=game, seat=seat, entries=deck_list)
        collection = services.collection_for_game(game)
        return Response({"deck": deck_list, "valid": not errors,
                         "errors": services.deck_error_details(errors, collection),
                         "rules": services.deck_rules_for(seat).to_dict()})

    @extend_schema(request=DeckSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        game = _visible_game(request, pk)
        data = DeckSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entries = data.validated_data["deck"]
        if data.validated_data["check_only"]:
            seat = self._seat(request, game)
            errors = services.deck_check(game=game, seat=seat, entries=entries)
            collection = services.collection_for_game(game)
            return Response({"valid": not errors, "errors": services.deck_error_details(errors, collection)})
        seat = services.deck_submit(game=game, user=request.user, entries=entries)
        return Response({"deck": seat.data["deck_list"], "valid": True}, status=status.HTTP_201_CREATED)


class SeatCardsSerializer(serializers.Serializer):
    """One seat's cards as ``cards.selectors.seat_cards`` gives them: everyone gets the first three fields; the
    owner, the master and (after the game) everyone the rest; ``deck`` (in order) the master and after the game."""

    seat = serializers.IntegerField()
    display_name = serializers.CharField()
    hand_count = serializers.IntegerField()
    version = serializers.IntegerField(required=False)
    hand = serializers.ListField(child=serializers.DictField(), required=False)
    sleeve = serializers.ListField(child=serializers.DictField(), required=False)
    discard = serializers.ListField(child=serializers.DictField(), required=False)
    deck_count = serializers.IntegerField(required=False)
    sleeve_count = serializers.IntegerField(required=False)
    deck_list = serializers.JSONField(required=False, allow_null=True)
    deck_built = serializers.ListField(child=serializers.ListField(), required=False,
                                       help_text=_("[card name, count] pairs of the deck as built."))
    deck_built_count = serializers.IntegerField(required=False)
    deck = serializers.ListField(child=serializers.DictField(), required=False)


class GameCardsView(APIView):
    """Every seat's cards as the viewer may see them: the owner and the master see Hand, Sleeve, discard pile and
    deck count (the master also the deck's order); everyone else only the Hand count (FM-5.1)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=SeatCardsSerializer(many=True))
    def get(self, request, pk):
        game = _visible_game(request, pk)
        viewer = visibility.viewer_for(request.user, game)
        return Response(selectors.game_cards(viewer, services.collection_for_game(game)))


class ReorderSerializer(serializers.Serializer):
    hand = serializers.ListField(child=serializers.IntegerField(), help_text=_("Card ids, front first."))
    version = serializers.IntegerField(help_text=_("The seat version your page showed."))


class HandReorderView(APIView):
    """Reorder my Hand (FM-4.6) with optimistic versioning: a stale ``version`` gets 409 ``conflict``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReorderSerializer, responses=SeatCardsSerializer)
    def post(self, request, pk):
        game = _visible_game(request, pk)
        data = ReorderSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = services.hand_reorder(game=game, user=request.user, uids=data.validated_data["hand"],
                                     version=data.validated_data["version"])
        viewer = visibility.viewer_for(request.user, game)
        return Response(selectors.seat_cards(viewer, seat, services.collection_for_game(game)))
