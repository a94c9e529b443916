"""DOC"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Game, LogEntry, Phase
from .base import Clock, ServiceError, audit_write, require_master, schedule_deadline
from .grids import keep
from .phases import phase_claim, phase_resolve


def _open_phase_locked(game: Game) -> Phase:
    phase = Phase.objects.select_for_update().filter(game_id=game.pk, status=Phase.Status.OPEN).first()
    if phase is None:
        raise ServiceError(_("The game has no open phase."), code="state")
    return phase


def _check_meant_phase(game: Game, phase_id: int | None) -> None:
    """Refuse a master action aimed at phase ``phase_id`` (``None``: no check) unless that phase is still open."""
    if phase_id is None:
        return
    meant = Phase.objects.filter(game_id=game.pk, pk=phase_id).only("pk", "status").first()
    if meant is None:
        raise ServiceError({"phase": [_("This game has no such phase.")]})
    if meant.status == Phase.Status.RESOLVED:
        raise ServiceError(_("This phase is already resolved."), code="state")
    if meant.status != Phase.Status.OPEN:
        raise ServiceError(_("The phase is already being resolved."), code="state")


def phase_extend(*, game: Game, actor, minutes: int, reason: str = "", phase_id: int | None = None,
                 clock: Clock = timezone.now) -> Phase:
    """Move the open phase's deadline ``minutes`` later (master only), logged publicly and in the audit log.

    The total extension of one phase is capped at ``GM_MAX_EXTENSION`` seconds. ``phase_id``, when given, must be
    the open phase (a request retried after that phase resolved is refused: "This phase is already resolved.").
    Raises :class:`ServiceError`: ``forbidden`` (not the master) before anything else, then a non-positive amount,
    a cap overrun or a phase that is no longer open.
    """
    require_master(game, actor)
    if not isinstance(minutes, int) or minutes <= 0:
        raise ServiceError({"minutes": [_("Extend by a whole positive number of minutes.")]})
    with transaction.atomic():
        phase = _open_phase_locked(game)
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if phase_id is not None and phase.pk != phase_id:
            _check_meant_phase(game, phase_id)
        now = clock()
        if phase.deadline <= now and game.paused_at is None:
            raise ServiceError(_("The deadline has already passed; the phase is being resolved."), code="late")
        # The deadline grid is kept: the extended deadline goes on to the next grid point, out of quiet hours and
        # blocked dates; the cap counts what the deadline really moves.
        new_deadline = keep(game, phase.deadline + timedelta(minutes=minutes), kind=phase.kind)
        cap = settings.GM_MAX_EXTENSION
        used = (phase.deadline - phase.base_deadline).total_seconds()
        if used + (new_deadline - phase.deadline).total_seconds() > cap:
            raise ServiceError({"minutes": [
                _("A phase may be extended by at most %(cap)s min in all; %(left)s min are left.")
                % {"cap": int(cap // 60), "left": int(max(0, cap - used) // 60)}
            ]})
        phase.deadline = new_deadline
        phase.overdue_at = None
        phase.save(update_fields=["deadline", "overdue_at"])
        LogEntry.objects.create(
            game=game, phase=phase, visibility="public", kind="core.deadline_extended",
            data={"minutes": minutes, "deadline": new_deadline.isoformat()}, created_at=now,
        )
        audit_write(game=game, actor=actor, action="extend", reason=reason, phase=phase,
               data={"minutes": minutes, "deadline": new_deadline.isoformat()}, now=now)
        if game.paused_at is None:
            schedule_deadline(phase, now=now)
        return phase


def game_pause(*, game: Game, actor, reason: str = "", clock: Clock = timezone.now) -> Game:
    """Pause a running game (master only): deadlines stop; orders stay open. Logged publicly and audited."""
    with transaction.atomic():
        phase = Phase.objects.select_for_update().filter(game_id=game.pk, status=Phase.Status.OPEN).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.status not in (Game.Status.RUNNING, Game.Status.SETUP) or phase is None:
            raise ServiceError(_("Only a running game can be paused."), code="state")
        if game.paused_at is not None:
            raise ServiceError(_("The game is already paused."), code="state")
        now = clock()
        game.paused_at = now
        game.save(update_fields=["paused_at"])
        LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.game_paused", created_at=now)
        audit_write(game=game, actor=actor, action="pause", reason=reason, phase=phase, now=now)
        return game


def game_resume(*, game: Game, actor, reason: str = "", clock: Clock = timezone.now) -> Game:
    """Resume a paused game (master only): the open phase's deadline moves by the time spent paused."""
    with transaction.atomic():
        phase = Phase.objects.select_for_update().filter(game_id=game.pk, status=Phase.Status.OPEN).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.paused_at is None:
            raise ServiceError(_("The game is not paused."), code="state")
        now = clock()
        paused_for = now - game.paused_at
        game.paused_at = None
        game.save(update_fields=["paused_at"])
        data: dict[str, Any] = {"paused_seconds": round(paused_for.total_seconds())}
        if phase is not None:
            phase.deadline = keep(game, phase.deadline + paused_for, kind=phase.kind)  # the grid is kept
            phase.base_deadline += paused_for
            phase.overdue_at = None
            phase.save(update_fields=["deadline", "base_deadline", "overdue_at"])
            data["deadline"] = phase.deadline.isoformat()
            schedule_deadline(phase, now=now)
        LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.game_resumed", data=data,
                                created_at=now)
        audit_write(game=game, actor=actor, action="resume", reason=reason, phase=phase, data=data, now=now)
        return game


def phase_resolve_now(*, game: Game, actor, reason: str = "", phase_id: int | None = None,
                      clock: Clock = timezone.now) -> Phase:
    """End the open phase before its deadline and resolve it at once (master only), logged and audited.

    ``phase_id`` names the phase the master means (clients that may retry should send it): if that phase is no
    longer open the call is refused with "This phase is already resolved." (code ``state``) instead of resolving
    the next one, so a repeated request acts once. Raises :class:`ServiceError`: ``forbidden`` (not the master),
    ``state`` (no open phase, paused, already resolved or being resolved), field error ``phase`` (not a phase of
    this game).
    """
    require_master(game, actor)
    _check_meant_phase(game, phase_id)
    phase = Phase.objects.filter(game_id=game.pk, status=Phase.Status.OPEN).first()
    if phase is None:
        raise ServiceError(_("The game has no open phase."), code="state")
    if game.paused_at is not None:
        raise ServiceError(_("Resume the game first."), code="state")
    token = phase_claim(phase_id=phase.pk, clock=clock, early=True)
    if token is None:
        raise ServiceError(_("The phase is already being resolved."), code="state")
    now = clock()
    with transaction.atomic():
        LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.resolved_now", created_at=now)
        audit_write(game=game, actor=actor, action="resolve_now", reason=reason, phase=phase, now=now)
    resolved = phase_resolve(phase_id=phase.pk, token=token, clock=clock)
    if resolved is None:  # pragma: no cover - only if reclaimed within the same call
        raise ServiceError(_("The phase is already being resolved."), code="state")
    return resolved
