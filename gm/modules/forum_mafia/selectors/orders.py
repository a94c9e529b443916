"""Reads of forum Mafia orders (FM-5): the night or day that takes orders and what a living player may order in it
now (his cards, targets, the FM-5.3 discard, his abilities), with the engine's reasons in the active language.
Shared by the order panel (:mod:`..views.orders`) and the order-options API (:mod:`..api.orders`).
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from cards.services import card_namer, collection_for_game
from gm.core import page_memo, services, visibility
from gm.core.engine import PhaseInfo, RuleViolation
from gm.core.models import Game, Phase
from gm.core.services import ServiceError

from ..engine import abilities
from ..engine import game as game_rules
from ..engine import orders as order_rules
from ..engine.state import DAY, NIGHT
from ..texts import named_error
from ..texts.orders import ability_message, engine_message

ORDER_PHASES = (NIGHT, DAY)


def open_order_phase(game: Game) -> Phase | None:
    """The game's unresolved phase if it is a night or a day (the phases forum Mafia takes orders in)."""
    phase = page_memo.unresolved_phase(game)
    return phase if phase is not None and phase.kind in ORDER_PHASES else None


def ordering_phase(game: Game, viewer: visibility.Viewer) -> Phase:
    """The open night/day phase ``viewer`` may order in. Raises :class:`ServiceError` ``forbidden`` (no seat: the
    master, spectators, anonymous), ``not_allowed`` (a dead character) or ``state`` (no open night or day)."""
    if viewer.seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    if not viewer.seat.alive:
        raise ServiceError(_("Dead characters give no orders."), code="not_allowed")
    phase = open_order_phase(game) if not game.is_over else None
    if phase is None or phase.status != Phase.Status.OPEN:
        raise ServiceError(_("No night or day is open for orders now."), code="state")
    return phase


def order_options_for(*, game: Game, viewer: visibility.Viewer, phase: Phase) -> dict:
    """What ``viewer`` (a living player) may do in ``phase`` now: ``order_options`` for his seat, with its
    messages (``why_not``, each card's ``reason``) in the active language. Only his own cards are in it. Also
    ``abilities`` (``abilities.ability_options``: his phase and instant abilities, labels and reasons translated)
    and ``pay_from_hand`` (the cultist may pay prices from his Hand, FM-8)."""
    seats = page_memo.seats(game)
    own = next(s for s in seats if s.pk == viewer.seat.pk)
    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
    seat_infos = [services.seat_info(s) for s in seats]
    own_info = next(s for s in seat_infos if s.id == own.pk)
    options = order_rules.order_options(state=game.state, phase=info, seat=own_info, seats=seat_infos)
    name = card_namer(collection_for_game(game))
    options = dict(options)
    options["why_not"] = engine_message(options.get("why_not"))
    options["cards"] = [{**c, "reason": engine_message(c.get("reason"), c.get("reason_params"), name)}
                        for c in options.get("cards", [])]
    options["abilities"] = [
        {**a, "label": _(a["label"]), "reason": ability_message(a.get("reason"), a.get("reason_params"), name)}
        for a in abilities.ability_options(state=game.state, phase=info, seat=own_info, seats=seat_infos)]
    options["pay_from_hand"] = own.data.get("public_role") == "cultist"
    return options


def validate_order(*, state, phase, seat, payload, seats=()) -> dict:
    """``GameModule.validate_order``: :func:`..engine.game.validate_order` (none in deck building, FM-4.5; else
    FM-5.2–FM-5.7), its refusal's card slugs and role slugs shown as names in the reader's language."""
    try:
        return game_rules.validate_order(state=state, phase=phase, seat=seat, seats=seats, payload=payload)
    except RuleViolation as exc:
        raise RuleViolation([named_error(e) for e in exc.errors]) from None
