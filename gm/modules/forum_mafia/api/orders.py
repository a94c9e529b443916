"""The forum Mafia order options (FM-5) in the core's ``GET /api/games/<id>/order-options/``
(``ForumMafiaModule.order_options``): what the caller's own seat may order now, through declared serializers so that
only the documented fields go out.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _lazy
from rest_framework import serializers

from gm.core import visibility
from gm.core.models import Game

from ..selectors.orders import order_options_for, ordering_phase

#: One card of ``order_options`` (its ``from`` key is a Python keyword, hence the class built with ``type``).
FmOrderCardSerializer = type("FmOrderCardSerializer", (serializers.Serializer,), {
    "__doc__": "A Hand or Sleeve card of the caller and whether he may play it now.",
    "uid": serializers.IntegerField(),
    "kind": serializers.CharField(help_text=_lazy("Card slug (§11).")),
    "from": serializers.ChoiceField(choices=["hand", "sleeve"]),
    "free": serializers.BooleanField(),
    "price": serializers.IntegerField(),
    "timing": serializers.ChoiceField(choices=["night", "day", "any"]),
    "target": serializers.ChoiceField(choices=["none", "one", "two", "dead", "one_card", "one_text"]),
    "needs_cards": serializers.BooleanField(),
    "playable": serializers.BooleanField(),
    "reason": serializers.CharField(allow_blank=True, help_text=_lazy("Why it can't be played now.")),
    "payers": serializers.ListField(child=serializers.IntegerField(),
                                    help_text=_lazy("The Sleeve uids that would pay its price by default.")),
})


class FmPersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class FmHandCardSerializer(serializers.Serializer):
    uid = serializers.IntegerField()
    kind = serializers.CharField()


class FmSleeveCardSerializer(FmHandCardSerializer):
    can_pay = serializers.BooleanField()


class FmAbilityOptionSerializer(serializers.Serializer):
    """One ability of the caller (``abilities.ability_options``): a phase ability goes into the order's
    ``abilities``; an instant one is used at once (``POST /api/games/<id>/abilities/``)."""

    ability = serializers.CharField(help_text=_lazy("The role slug the payload names it by."))
    mode = serializers.CharField(allow_blank=True)
    key = serializers.CharField()
    label = serializers.CharField()
    instant = serializers.BooleanField()
    timing = serializers.ChoiceField(choices=["night", "any"])
    per = serializers.ChoiceField(choices=["game", "rebuild", "phase", "night"], allow_null=True)
    needs_target = serializers.BooleanField()
    needs_dead_target = serializers.BooleanField()
    needs_guess = serializers.BooleanField()
    needs_text = serializers.BooleanField()
    needs_pay = serializers.BooleanField()
    needs_discard = serializers.BooleanField()
    needs_swap = serializers.BooleanField()
    needs_mapping = serializers.BooleanField()
    needs_card = serializers.BooleanField()
    targets = serializers.ListField(child=serializers.IntegerField(),
                                    help_text=_lazy("Seat ids it may be used on now."))
    guesses = serializers.ListField(child=serializers.CharField())
    pay_choices = serializers.ListField(child=serializers.IntegerField())
    others = serializers.ListField(child=serializers.IntegerField())
    available = serializers.BooleanField()
    reason = serializers.CharField(allow_blank=True, help_text=_lazy("Why it can't be used now."))
    reason_params = serializers.DictField()
    uses_left = serializers.IntegerField(allow_null=True, help_text=_lazy("null: any number of times."))


class FmOrderOptionsSerializer(serializers.Serializer):
    """What the caller may order now (FM-5): the shape of ``order_options``."""

    phase = serializers.IntegerField(help_text=_lazy(
        "The id of the night or day these options are for: name it as “phase” in the order you send."))
    can_order = serializers.BooleanField()
    why_not = serializers.CharField(allow_blank=True)
    cards = FmOrderCardSerializer(many=True)
    targets = FmPersonSerializer(many=True, help_text=_lazy("Living others you may target now."))
    dead_targets = FmPersonSerializer(many=True, help_text=_lazy("Dead characters (autopsy)."))
    can_discard_two = serializers.BooleanField()
    hand = FmHandCardSerializer(many=True)
    sleeve = FmSleeveCardSerializer(many=True)
    named_cards = serializers.ListField(child=serializers.CharField(),
                                        help_text=_lazy("Card slugs an accusation may name."))
    abilities = FmAbilityOptionSerializer(many=True)
    pay_from_hand = serializers.BooleanField(help_text=_lazy("The cultist may pay prices from his Hand."))


def order_options(*, game: Game, viewer: visibility.Viewer) -> dict:
    """``GET /api/games/<id>/order-options/`` of forum Mafia (``ForumMafiaModule.order_options``): what the caller's
    own seat may order in the open night or day (cards playable now with their price, timing and targeting, targets,
    the FM-5.3 discard option), in the shape of :class:`FmOrderOptionsSerializer`. Raises :class:`ServiceError` 403
    ``forbidden`` without a seat (master, spectators), 403 ``not_allowed`` for a dead character, 409 ``state`` when
    no night or day is open."""
    phase = ordering_phase(game, viewer)
    # Through the declared serializer: only the documented fields go out, whatever the engine adds later.
    options = {**order_options_for(game=game, viewer=viewer, phase=phase), "phase": phase.pk}
    return FmOrderOptionsSerializer(options).data
