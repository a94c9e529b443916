"""What a viewer may see of a seat's cards — decided by the core visibility layer (``may_see_private``).

The owner sees his Hand, Sleeve, discard pile, deck count and deck list (not the deck's order: nobody may look
into his own deck, FM-4.6); the master and, after the game, everyone see everything including the deck order;
everyone else sees only the Hand count, which the rules publish (FM-5.1).
"""
from __future__ import annotations

from collections import Counter

from django.utils import translation
from django.utils.translation import gettext

from gm.core import visibility
from gm.core.models import Seat

from .containers import Containers
from .deckrules import COLOUR_NAMES
from .domain import Collection


def _card(instance: dict, collection: Collection) -> dict:
    kind = collection.kinds.get(instance["kind"])
    language = translation.get_language() or "ru"
    return {
        **instance,
        "name": kind.name(language) if kind else instance["kind"],
        "text": kind.text(language) if kind else "",
        "colour": kind.colour if kind else "",
        "colour_name": gettext(COLOUR_NAMES[kind.colour]) if kind and kind.colour in COLOUR_NAMES else "",
        "price": kind.price if kind else 0,
        "timing": kind.timing if kind else "",
    }


def seat_cards(viewer: visibility.Viewer, seat: Seat, collection: Collection) -> dict:
    """``seat``'s cards as ``viewer`` may see them (see the module docstring). Always has ``hand_count`` and
    ``version``; ``hand``, ``sleeve``, ``discard``, ``deck_count``, ``deck_list`` only for the owner and above;
    ``deck`` (in order, top first) only for the master and after the game."""
    containers = Containers.from_dict(seat.data.get("cards") or {})
    view: dict = {"seat": seat.pk, "display_name": seat.display_name, "hand_count": len(containers.hand)}
    if not visibility.may_see_private(viewer, seat):
        return view
    view.update(
        version=seat.version,
        hand=[_card(c.to_dict(), collection) for c in containers.hand],
        sleeve=[_card(c.to_dict(), collection) for c in containers.sleeve],
        discard=[_card(c.to_dict(), collection) for c in containers.discard],
        deck_count=len(containers.deck),
        sleeve_count=len(containers.sleeve),
        deck_list=seat.data.get("deck_list"),
    )
    # The deck as built (FM-4.5), by name with counts — its composition, never its order (FM-4.6).
    built = Counter(e.get("kind") for e in seat.data.get("deck_list") or [] if isinstance(e, dict))
    view["deck_built"] = sorted(((_card({"kind": k}, collection)["name"], n) for k, n in built.items()))
    view["deck_built_count"] = sum(built.values())
    if viewer.sees_everything:
        view["deck"] = [_card(c.to_dict(), collection) for c in containers.deck]
    return view


def game_cards(viewer: visibility.Viewer, collection: Collection) -> list[dict]:
    """Every seat's cards as ``viewer`` may see them, ring order (one query)."""
    return [seat_cards(viewer, s, collection) for s in viewer.game.seats.order_by("position")]
