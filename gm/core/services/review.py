"""Review before publishing (the master's console): a per-game option under which a phase's result is computed at the
deadline, stored, and shown to nobody but the master until he approves it or the auto-publish time passes.

Exactly once, in two steps:

1. **Hold** — :func:`gm.core.services.phase_resolve` resolves as always (claim, lock, engine, digest) and stores the
   whole engine result in ``Phase.result``; with ``Game.review_results`` on it then calls :func:`hold` instead of
   applying the result: the phase is ``resolved`` with ``held_at`` (and ``publish_at`` when the master set an
   auto-publish delay), and nothing else changes — seats, game state, groups and the log stay as they were, no next
   phase opens and nobody is notified. Players and spectators therefore see nothing of it (there is nothing to see);
   the master's console reads the held result from ``Phase.result``.
2. **Publish** — :func:`phase_publish` (the master) or :func:`publish_due` (the beat sweep, once ``publish_at`` has
   passed) locks the phase row and applies the stored result exactly as ``phase_resolve`` would have: seat data and
   deaths, groups, the log entries (with the ``core.phase_resolved`` line), the game state, the end of the game or the
   next phase, then the notifications after commit. The compare-and-set is ``published_at IS NULL`` under the phase
   row's lock, backed by the one-unresolved-phase constraint, so a result is published once.

While a result is held, the master's seat edits and kill/revive are refused (they would be overwritten by it).
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import Event, Outcome, PhaseSpec, Resolution
from ..models import Game, LogEntry, Phase
from .base import Clock, ServiceError, audit_write, require_master, task
from .resolution import canonical_digest, resolution_apply, resolution_data

logger = logging.getLogger("gm.resolution")

#: The longest auto-publish delay a master may set (minutes): one week.
MAX_AUTO_MINUTES = 7 * 24 * 60


def _reason(reason) -> str:
    text = (reason or "").strip() if isinstance(reason, str) or reason is None else ""
    if not text:
        raise ServiceError({"reason": [_("Give a reason; it goes into the audit log.")]})
    return text


def hold(*, game: Game, phase: Phase, snapshot: dict, result: Resolution, orders: int, now: datetime) -> Phase:
    """Store ``result`` of ``phase`` and hold it for review (called by ``phase_resolve`` inside its transaction, with
    the phase, game and seat rows locked, instead of applying it): the phase becomes ``resolved`` with its snapshot,
    result and digest (so it replays like any other), ``held_at`` and, with an auto-publish delay, ``publish_at``;
    one master-only log line. Seats, game state, groups and the public log are not touched. Returns ``phase``."""
    phase.state = snapshot
    phase.status = Phase.Status.RESOLVED
    phase.resolved_at = now
    stored = resolution_data(result, game.game_module.constant_state_keys)
    phase.result_digest = canonical_digest(stored)
    phase.result = stored
    phase.held_at = now
    if game.review_auto_minutes:
        phase.publish_at = now + timedelta(minutes=game.review_auto_minutes)
    phase.save(update_fields=["state", "status", "resolved_at", "result_digest", "result", "held_at", "publish_at"])
    LogEntry.objects.create(game=game, phase=phase, visibility="master", kind="core.result_held",
                            data={"orders": orders}, created_at=now)
    logger.info("phase result held for review", extra={"game": game.pk, "phase": phase.pk, "ordinal": phase.ordinal})
    return phase


def held_phase(game: Game) -> Phase | None:
    """The game's resolved phase whose result waits for publication, if any (at most one: no next phase opens
    before it is published)."""
    return game.phases.filter(held_at__isnull=False, published_at__isnull=True).order_by("-ordinal").first()


def stored_resolution(stored: dict, constant_state: dict) -> Resolution:
    """The engine result stored in ``Phase.result`` (:func:`gm.core.resolution_data`) as a
    :class:`Resolution` again, its state completed with the game's ``constant_state`` (the keys kept once, on the
    game)."""
    return Resolution(
        state={**constant_state, **stored.get("state", {})},
        events=[Event(e["kind"], dict(e.get("data") or {}), e["visibility"], e.get("seat"), e.get("group") or "")
                for e in stored.get("events", [])],
        seat_data={int(k): v for k, v in stored.get("seat_data", {}).items()},
        alive={int(k): v for k, v in stored.get("alive", {}).items()},
        groups={k: list(v) for k, v in stored.get("groups", {}).items()},
        next_phase=PhaseSpec(**stored["next_phase"]) if stored.get("next_phase") else None,
        outcome=Outcome(**stored["outcome"]) if stored.get("outcome") is not None else None,
    )


def _apply(phase: Phase, now: datetime) -> Phase:
    """Apply ``phase``'s stored result (the phase row locked by the caller; held and unpublished) through the same
    :func:`gm.core.resolution_apply` as a resolution at the deadline, then mark it published."""
    game = Game.objects.select_for_update().get(pk=phase.game_id)
    seats = list(game.seats.select_for_update().order_by("position"))
    constant = {k: game.state[k] for k in game.game_module.constant_state_keys if k in game.state}
    resolution_apply(game=game, phase=phase, seats=seats, result=stored_resolution(phase.result, constant), now=now)
    game.save(update_fields=["state", "status", "finished_at", "outcome"])
    phase.published_at = now
    phase.save(update_fields=["published_at"])
    task("gm.core.tasks.phase_notify_task").delay_on_commit(phase.pk)
    return phase


def _locked_held(game: Game) -> Phase:
    phase = (Phase.objects.select_for_update()
             .filter(game_id=game.pk, held_at__isnull=False, published_at__isnull=True).first())
    if phase is None:
        raise ServiceError(_("No result is waiting for your review."), code="state")
    return phase


def phase_publish(*, game: Game, actor, reason: str, clock: Clock = timezone.now) -> Phase:
    """Publish the held result of ``game`` now (master only; audited as ``publish`` with ``reason``): the players
    get their results and the next phase opens (or the game ends). Raises :class:`ServiceError` ``forbidden``,
    ``invalid`` (no reason) or ``state`` (nothing held, or the game is over)."""
    require_master(game, actor)
    reason = _reason(reason)
    with transaction.atomic():
        phase = _locked_held(game)
        if Game.objects.get(pk=game.pk).is_over:
            raise ServiceError(_("The game is already over."), code="state")
        now = clock()
        _apply(phase, now)
        audit_write(game=game, actor=actor, action="publish", reason=reason, phase=phase, now=now)
        return phase


def phase_set_publish_at(*, game: Game, actor, publish_at: datetime | None, reason: str,
                         clock: Clock = timezone.now) -> Phase:
    """Set (or, with ``None``, clear) when the held result publishes itself (master only; audited). ``publish_at``
    is an aware datetime in the future, at most a week ahead. Raises :class:`ServiceError`."""
    require_master(game, actor)
    reason = _reason(reason)
    now = clock()
    if publish_at is not None and (timezone.is_naive(publish_at) or publish_at <= now
                                   or publish_at > now + timedelta(minutes=MAX_AUTO_MINUTES)):
        raise ServiceError({"publish_at": [_("Choose a time in the future, at most a week ahead.")]})
    with transaction.atomic():
        phase = _locked_held(game)
        phase.publish_at = publish_at
        phase.save(update_fields=["publish_at"])
        audit_write(game=game, actor=actor, action="publish_at", reason=reason, phase=phase, now=now,
                        data={"publish_at": publish_at.isoformat() if publish_at else None})
        return phase


def game_set_review(*, game: Game, actor, enabled: bool, auto_minutes: int | None = None, reason: str,
                    clock: Clock = timezone.now) -> Game:
    """Turn review before publishing on or off for ``game`` (master only; audited as ``review_mode``).

    ``auto_minutes``: with review on, a held result publishes itself that many minutes after its resolution (1 …
    one week); ``None`` waits for the master's approval. A result already held stays held until published. Raises
    :class:`ServiceError` ``forbidden``, ``invalid`` (``reason``, ``auto_minutes``) or ``state`` (game over)."""
    require_master(game, actor)
    reason = _reason(reason)
    if not isinstance(enabled, bool):
        raise ServiceError({"enabled": [_("“enabled” is true or false.")]})
    if auto_minutes is not None and (isinstance(auto_minutes, bool) or not isinstance(auto_minutes, int)
                                     or not 1 <= auto_minutes <= MAX_AUTO_MINUTES):
        raise ServiceError({"auto_minutes": [_("Publish after 1 to %(max)s minutes, or leave it empty to publish "
                                               "only when you approve.") % {"max": MAX_AUTO_MINUTES}]})
    with transaction.atomic():
        Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first()
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.is_over:
            raise ServiceError(_("The game is already over."), code="state")
        locked.review_results = enabled
        locked.review_auto_minutes = auto_minutes if enabled else None
        locked.save(update_fields=["review_results", "review_auto_minutes"])
        audit_write(game=locked, actor=actor, action="review_mode", reason=reason, now=clock(),
                        data={"enabled": enabled, "auto_minutes": locked.review_auto_minutes})
        return locked


def publish_due(*, clock: Clock = timezone.now, limit: int = 100) -> list[int]:
    """The beat sweep's part: publish every held result whose ``publish_at`` has passed; returns their phase ids.
    Each is its own transaction with the compare-and-set of :func:`_apply` (a second sweep finds nothing)."""
    now = clock()
    published = []
    for phase_id in Phase.objects.filter(held_at__isnull=False, published_at__isnull=True, publish_at__lte=now,
                                         game__status__in=[Game.Status.RUNNING, Game.Status.SETUP]
                                         ).values_list("pk", flat=True)[:limit]:
        with transaction.atomic():
            phase = Phase.objects.select_for_update().get(pk=phase_id)
            if phase.published_at is not None or phase.publish_at is None or phase.publish_at > now:
                continue
            _apply(phase, now)
            published.append(phase_id)
    return published
