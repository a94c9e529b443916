"""The writes of One Night Ultimate Werewolf: a player's order for the phase his form was made for (doppelganger
copy, night action or day vote, ON-4, ON-6, ON-14), submitted or withdrawn.

Every function is keyword-only and hands the write to the core's services, which run it in one transaction with the
phase row locked, validate the payload through the engine and audit it; a refused order raises
:class:`gm.core.services.ServiceError` and saves nothing.
"""
from __future__ import annotations

from typing import Any

from gm.core import services as core
from gm.core.models import Game, Order


def submit_order(*, game: Game, user, phase_id: Any, payload: dict, base_version: int | None) -> Order:
    """Save ``user``'s order ``payload`` for the phase ``phase_id`` of ``game`` (the form's hidden ``phase``; a
    phase that has ended is refused with the core's ``stale`` message naming both phases). ``base_version`` is the
    order version the form edited. Raises ``ServiceError``."""
    return core.order_submit(game=game, phase_id=phase_id, user=user, payload=payload, base_version=base_version)


def withdraw_order(*, game: Game, user, phase_id: Any, base_version: int | None) -> Order:
    """Withdraw ``user``'s order for the phase ``phase_id`` of ``game`` (as :func:`submit_order`). Raises
    ``ServiceError``."""
    phase = core.phase_named(game=game, phase_id=phase_id)
    return core.order_withdraw(phase=phase, user=user, base_version=base_version)
