"""The writes of Mafia: Blood Vengeance: a player's night vote, verdict or arbiter's choice (BV-5, BV-15), and his
light-time actions checked action by action and merged into his one light order (BV-14.4a), or a withdrawal.

Every function is keyword-only and hands the write to the core's services, which run it in one transaction with the
phase row locked, validate the payload through the engine and store a new order version; a refused order raises
:class:`gm.core.services.ServiceError` and saves nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from gm.core import services as core
from gm.core.models import Game, Order, Seat
from gm.core.services import ServiceError

from . import engine
from .texts import refusal_text, role_name


@dataclass
class ActionsResult:
    """What :func:`submit_actions` did: the stored ``order`` (``None`` when nothing was stored) and the refused
    actions, each ``{"role", "code", "rule", "message"}`` (BV-14.4a)."""

    order: Order | None = None
    refused: list[dict[str, Any]] = field(default_factory=list)


def submit_order(*, game: Game, user, phase_id: Any, payload: dict, base_version: int | None = None) -> Order:
    """Save ``user``'s order ``payload`` (night vote, verdict, arbiter's choice, or a whole light order) for the
    phase ``phase_id`` of ``game``. Raises ``ServiceError`` (the engine's BV-16 reason and rule ID)."""
    phase = core.phase_named(game=game, phase_id=phase_id)
    return core.order_submit(phase=phase, user=user, payload=payload, base_version=base_version)


def withdraw_order(*, game: Game, user, phase_id: Any, base_version: int | None = None) -> Order:
    """Withdraw ``user``'s order for the phase ``phase_id`` of ``game``. Raises ``ServiceError``."""
    phase = core.phase_named(game=game, phase_id=phase_id)
    return core.order_withdraw(phase=phase, user=user, base_version=base_version)


def submit_actions(*, game: Game, user, phase_id: Any, actions: list[dict], clock=None) -> ActionsResult:
    """BV-14.4a: check each of ``actions`` (light actions ``{"role", "target" | "targets", "mode", "abstain"}``)
    on its own; store the accepted ones merged into ``user``'s latest light order (one action per ``role``, the
    newer replacing the older), so a refused action leaves his earlier version of that ``role`` standing. Returns
    the stored order and the refusals (each with its BV-16 code and reason); raises ``ServiceError`` only for what
    the core refuses (no seat, a dead seat, a phase that has ended, the deadline)."""
    phase = core.phase_named(game=game, phase_id=phase_id)
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    if phase.kind != "light":
        raise ServiceError(refusal_text("wrong_phase"), code="invalid")
    game.refresh_from_db(fields=["state"])
    result = ActionsResult()
    accepted: list[dict] = []
    for action in actions:
        try:
            accepted.append(engine.validate_action(game.state, sid=str(seat.pk), action=action))
        except engine.BvError as exc:
            role = action.get("role") if isinstance(action, dict) else None
            result.refused.append({"role": role, "code": exc.code, "rule": exc.rule,
                                   "message": f"{role_name(str(role))}: {refusal_text(exc.code)} [{exc.rule}]"})
    if not accepted:
        return result
    latest = Order.objects.filter(phase=phase, seat=seat).order_by("-version").first()
    merged: dict[str, dict] = {a["role"]: a for a in ((latest.payload or {}).get("actions") or [])} \
        if latest is not None and latest.payload else {}
    for action in accepted:
        merged[action["role"]] = action
    kwargs = {"clock": clock} if clock is not None else {}
    result.order = core.order_submit(phase=phase, user=user, payload={"actions": list(merged.values())}, **kwargs)
    return result
