"""The master's console on the game page: what ``gm/_console.html`` shows the master (and nobody else).

Read-only selectors over ``gm.core.visibility``; every intervention it offers is a service in
``gm.core.services`` called by a view in ``gm.core.views``.
"""
from __future__ import annotations

from . import visibility
from .forms import ExtendForm, ReasonForm
from .models import Game, Phase


def console_context(*, game: Game, viewer: visibility.Viewer, phase: Phase | None) -> dict:
    """The console's context for ``viewer`` (empty unless he is the game's master): the intervention forms, the
    open phase's orders (every version) and the audit log (newest first, 50 entries)."""
    if not viewer.is_master:
        return {}
    return {
        "extend_form": ExtendForm(),
        "reason_form": ReasonForm(),
        "audit": visibility.audit_entries(viewer)[:50],
        "all_orders": _orders_in_words(game, visibility.orders(viewer, phase).select_related("seat"))
        if phase else [],
    }


def _orders_in_words(game: Game, orders) -> list:
    """Every order version of the open phase with ``lines``: the order in words (the module's ``order_lines``, its
    cards named from the seat's current data), so the master reads orders as sentences, not JSON."""
    from .spectator import order_lines

    module = game.game_module
    names = dict(game.seats.values_list("pk", "display_name"))
    rows = list(orders)
    for order in rows:
        order.lines = [] if order.payload is None else order_lines(module, order.payload, order.seat.data, names)
    return rows
