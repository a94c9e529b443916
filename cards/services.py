"""Card write services: the collection snapshot at game start, deck checking and submission (FM-4.3, FM-4.5),
and Hand reordering with optimistic versioning (FM-4.6).

A seat's cards live in its module data, so one seat read is one query:
``seat.data["cards"]`` (the containers, :class:`cards.containers.Containers` as a dict), ``seat.data["deck_list"]``
(the submitted deck entries) and the role keys the deck rules read: ``secret_role``, ``public_role`` (a slug or
``{"custom": name}``) and ``joker_colours``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.dispatch import receiver
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from gm.core.models import Game, Seat
from gm.core.services import Clock, ServiceError, phase_accepting_for_update
from gm.core.signals import game_started

from . import deckrules
from .containers import ContainerError, Containers
from .domain import Collection
from .models import current_collection

#: The phase kind of the deck-building stage (FM-4.5); modules that use cards name their stage so.
DECKBUILDING = "deckbuilding"


@receiver(game_started)
def snapshot_collection(sender, *, game: Game, module, **kwargs) -> None:
    """FM-4.2: a card game carries the collection it started with in its state (``state["collection"]``, a list
    of kind dicts, and ``state["collection_version"]``), so later edits in the admin never change it."""
    if getattr(module, "uses_cards", False) and "collection" not in game.state:
        collection = current_collection()
        game.state["collection"] = collection.snapshot()
        game.state["collection_version"] = collection.version


def collection_for_game(game: Game) -> Collection:
    """The game's snapshot if it has one (started card games), else the current collection."""
    if "collection" in game.state:
        return Collection.from_snapshot(game.state["collection"])
    return current_collection()


def public_role_slug(data: dict) -> str | None:
    role = data.get("public_role")
    return role if isinstance(role, str) else None


def deck_rules_for(seat: Seat) -> deckrules.DeckRules:
    """The FM-4.3 rules for ``seat``'s secret and public roles (raises :class:`ServiceError` if the roles are
    not dealt yet or the joker has not chosen valid colours)."""
    data = seat.data or {}
    if not data.get("secret_role"):
        raise ServiceError(_("Your secret role has not been dealt yet; decks are built after the deal."), code="state")
    try:
        return deckrules.rules_for(
            secret_role=data["secret_role"], public_role=public_role_slug(data),
            joker_colours=data.get("joker_colours"),
        )
    except ValueError as exc:  # an undealt role or a joker who has not chosen two colours yet
        raise ServiceError(
            {"deck": [_("Your role's deck rules can't be determined yet: %(reason)s") % {"reason": exc}]},
            code="state",
        ) from None


def deck_check(*, game: Game, seat: Seat, entries: Any) -> list[deckrules.DeckError]:
    """Every FM-4.3 rule the deck ``entries`` break for ``seat`` (empty list: valid). Pure reads only."""
    return deckrules.validate_deck(entries, collection=collection_for_game(game), rules=deck_rules_for(seat))


def card_namer(collection: Collection):
    """slug → the card's display name in the active language (the slug itself for a kind not in ``collection``)."""
    language = translation.get_language() or "ru"
    return lambda slug: collection[slug].name(language) if slug in collection else slug


def render_deck_errors(errors: Sequence[deckrules.DeckError], collection: Collection) -> list[str]:
    """Each error as a sentence in the active language (card display names), with its rule ID."""
    namer = card_namer(collection)
    return [f"{e.render(_, card_name=namer)} ({e.rule})" for e in errors]


def deck_error_details(errors: Sequence[deckrules.DeckError], collection: Collection) -> list[dict]:
    """Machine-readable errors for the API: rule, code, card, numbers and the rendered message."""
    namer = card_namer(collection)
    return [{"rule": e.rule, "code": e.code, "card": e.card, "params": {k: v for k, v in e.params.items()},
             "message": e.render(_, card_name=namer)} for e in errors]


def _own_seat(game: Game, user, *, lock: bool = False) -> Seat:
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in first."), code="forbidden")
    qs = Seat.objects.filter(game=game, user=user)
    seat = (qs.select_for_update() if lock else qs).first()
    if seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    return seat


def deck_submit(*, game: Game, user, entries: Any, clock: Clock = timezone.now) -> Seat:
    """Store ``user``'s deck list for the deck-building stage after checking every FM-4.3 rule (FM-4.5).

    ``entries``: a list of card slugs or ``{"kind": slug, "count_as": "non_free"}``. Raises
    :class:`ServiceError`: ``state``/``late`` outside the stage or after its deadline, ``invalid`` with every broken
    rule (``errors["deck"]`` sentences, ``details`` structured) — nothing is stored then.
    """
    with transaction.atomic():
        phase_accepting_for_update(
            game=game, now=clock(), kind=DECKBUILDING,
            wrong_stage=_("Decks are submitted during the deck-building stage before Night 1 (FM-4.5); "
                          "it is not open now."),
        )
        seat = _own_seat(game, user, lock=True)
        if not seat.alive:
            raise ServiceError(_("Dead characters build no decks."), code="not_allowed")
        errors = deck_check(game=game, seat=seat, entries=entries)
        if errors:
            collection = collection_for_game(game)
            raise ServiceError({"deck": render_deck_errors(errors, collection)},
                               details=deck_error_details(errors, collection))
        seat.data = {**seat.data, "deck_list": deckrules.normalise_deck(entries)}
        seat.version = F("version") + 1
        seat.save(update_fields=["data", "version"])
        seat.refresh_from_db(fields=["version"])
        return seat


def hand_reorder(*, game: Game, user, uids: Any, version: Any, clock: Clock = timezone.now) -> Seat:
    """Put ``user``'s Hand in the order of ``uids`` (every Hand card's uid exactly once, front first; FM-4.6).

    ``version`` is the seat version the player's page showed; if the seat changed since (another tab, or the
    phase resolved), a ``conflict`` :class:`ServiceError` says so and nothing changes. Also refused (``late``)
    while no phase is open for orders.
    """
    if not isinstance(uids, list) or not all(isinstance(u, int) and not isinstance(u, bool) for u in uids):
        raise ServiceError({"hand": [_("Give the new Hand order as a list of card ids.")]})
    if not isinstance(version, int) or isinstance(version, bool):
        raise ServiceError({"version": [_("The version is missing; reload the page.")]})
    seat = _own_seat(game, user)
    with transaction.atomic():
        closed = _("The Hand can be reordered only while a phase is open (FM-4.6).")
        phase_accepting_for_update(game=game, now=clock(), wrong_stage=closed, late=closed)
    if seat.version != version:
        raise _conflict()
    containers = Containers.from_dict(seat.data.get("cards") or {})
    try:
        containers.reorder_hand(uids)
    except ContainerError:
        raise ServiceError({"hand": [
            _("The new order must list every card of your Hand exactly once (%(count)s cards).")
            % {"count": len(containers.hand)}
        ]}) from None
    data = {**seat.data, "cards": containers.to_dict()}
    if not Seat.objects.filter(pk=seat.pk, version=version).update(data=data, version=F("version") + 1):
        raise _conflict()
    seat.refresh_from_db()
    return seat


def _conflict() -> ServiceError:
    return ServiceError(
        _("Your cards changed since this page was loaded (another tab, or the phase was resolved). "
          "Reload to see the current Hand, then try again."),
        code="conflict",
    )
