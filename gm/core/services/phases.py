"""DOC"""
from __future__ import annotations

import hashlib
import json
import logging
import time
import uuid
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, JSONField, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from ..models import Game, LogEntry, Order, Phase, Seat
from ..prepared import PreparedQuery
from .base import Clock, task
from .outage import outage_recover, sweep_succeeded
from .resolution import canonical_json, phase_snapshot, resolution_apply, resolution_data, run_engine
from .review import hold, publish_due

logger = logging.getLogger("gm.resolution")
deadline_logger = logging.getLogger("gm.deadlines")


def phase_claim(*, phase_id: int, clock: Clock = timezone.now, early: bool = False) -> uuid.UUID | None:
    """Compare-and-set ``open → resolving`` for a due phase of a running, unpaused game.

    Returns the claim token, or ``None`` when another worker got there first, the phase is not due (unless
    ``early``, used by "resolve now") or the game is paused.
    """
    now = clock()
    token = uuid.uuid4()
    # The status test must stay on the updated table itself: a join on ``game__…`` makes Django write
    # ``WHERE id IN (SELECT … status='open')``, and PostgreSQL does not re-check that subquery against the row
    # version a concurrent claimer just committed, so a late claimer could re-open a resolved phase.
    live_games = Game.objects.filter(paused_at__isnull=True, status__in=[Game.Status.RUNNING, Game.Status.SETUP])
    qs = Phase.objects.filter(pk=phase_id, status=Phase.Status.OPEN, game_id__in=live_games.values("pk"))
    if not early:
        qs = qs.filter(deadline__lte=now)
    claimed = qs.update(status=Phase.Status.RESOLVING, claim_token=token, claimed_at=now, claims=F("claims") + 1)
    return token if claimed else None


def phase_reclaim(*, phase_id: int, clock: Clock = timezone.now) -> uuid.UUID | None:
    """Take over a phase left ``resolving`` for more than ``GM_RESOLVING_TIMEOUT`` seconds (its worker died).

    Compare-and-set on the old claim time; returns the new token or ``None``.
    """
    now = clock()
    token = uuid.uuid4()
    stale_before = now - timedelta(seconds=settings.GM_RESOLVING_TIMEOUT)
    claimed = Phase.objects.filter(pk=phase_id, status=Phase.Status.RESOLVING, claimed_at__lte=stale_before).update(
        claim_token=token, claimed_at=now, claims=F("claims") + 1
    )
    if claimed:
        deadline_logger.warning("phase reclaimed", extra={"phase": phase_id})
    return token if claimed else None


class _QueryCounter:
    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def _phase_write_resolved(phase: Phase, *, result_json: str) -> None:
    """Save a resolved ``phase``'s ``state``, ``status``, ``resolved_at``, ``result_digest`` and ``result``;
    ``result_json`` is ``phase.result`` already encoded as JSON (on PostgreSQL sent as it is)."""
    if connection.vendor != "postgresql":
        phase.save(update_fields=["state", "status", "resolved_at", "result_digest", "result"])
        return
    # Raw SQL: compiling the ORM's UPDATE cost as much as PostgreSQL's work on it.
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {connection.ops.quote_name(Phase._meta.db_table)} SET state = %s::jsonb, "
                       f"status = %s, resolved_at = %s, result_digest = %s, result = %s::jsonb WHERE id = %s",
                       [json.dumps(phase.state, ensure_ascii=False), phase.status, phase.resolved_at,
                        phase.result_digest, result_json, phase.pk])


def _game_write(game: Game, before: Mapping[str, Any]) -> None:
    """Save a resolved ``game``'s ``state``, ``status``, ``finished_at`` and ``outcome``; ``before`` is the state
    it was loaded with. On PostgreSQL, when the module's ``constant_state_keys`` (the card collection: most of the
    state) are unchanged, they are kept in the row and only the other keys are sent; otherwise a plain ``save``."""
    constant = game.game_module.constant_state_keys
    state = game.state
    if connection.vendor != "postgresql" or not constant or any(
            (k in state) != (k in before) or state.get(k) != before.get(k) for k in constant):
        # An UPDATE, not save(update_fields=…): save reads the row count back, which the pipeline holds until its end.
        Game.objects.filter(pk=game.pk).update(state=state, status=game.status, finished_at=game.finished_at,
                                               outcome=game.outcome)
        return
    table = connection.ops.quote_name(Game._meta.db_table)
    kept = [k for k in constant if k in state]
    rest = {k: v for k, v in state.items() if k not in constant}
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET state = (SELECT coalesce(jsonb_object_agg(c.key, c.value), '{{}}'::jsonb) "
            f"FROM jsonb_each({table}.state) AS c WHERE c.key = ANY(%s)) || %s::jsonb, status = %s, "
            f"finished_at = %s, outcome = %s::jsonb WHERE id = %s",
            [kept, json.dumps(rest, ensure_ascii=False), game.status, game.finished_at,
             json.dumps(game.outcome, ensure_ascii=False) if game.outcome is not None else None, game.pk])


def _pipeline() -> AbstractContextManager:
    """On PostgreSQL with psycopg 3 (libpq ≥ 14), the connection's pipeline mode: the resolution's writes go out
    without waiting for each answer (only a statement whose result is read — the next phase's id — waits), so they
    cost a round trip or two instead of one each (issue 25); elsewhere nothing. An error still surfaces inside the
    transaction, which then rolls back whole."""
    if connection.vendor != "postgresql":
        return nullcontext()
    raw = connection.connection
    try:
        import psycopg
    except ImportError:  # psycopg2: no pipeline mode
        return nullcontext()
    if not isinstance(raw, psycopg.Connection) or not psycopg.Pipeline.is_supported():
        return nullcontext()
    return raw.pipeline()


def _locked_phase(phase_id: int) -> QuerySet[Phase]:
    return Phase.objects.select_for_update().filter(pk=phase_id)


def _locked_game(game_id: int) -> QuerySet[Game]:
    # With its long-game options (the deadline grid of the next phase reads them): not one more query later. Only
    # the game's row is locked (``of``): a locking join locks in plan order (tests/…/test_lock_order.py).
    return Game.objects.select_for_update(of=("self",)).select_related("life").filter(pk=game_id)


def _locked_seats(game_id: int, phase_id: int) -> QuerySet[Seat]:
    last = Order.objects.filter(phase_id=phase_id, seat_id=OuterRef("pk")).order_by("-version").values("payload")[:1]
    return (Seat.objects.filter(game_id=game_id).select_for_update(of=("self",))
            .annotate(gm_last_order=Subquery(last, output_field=JSONField())).order_by("position"))


# The three reads of every resolution, compiled to SQL once per process (gm.core.prepared): their compiling cost
# more than a tenth of a 16-player resolution (issue 25 goal 1).
_LOCKED_PHASE = PreparedQuery(_locked_phase, "phase_id")
_LOCKED_GAME = PreparedQuery(_locked_game, "game_id")
_LOCKED_SEATS = PreparedQuery(_locked_seats, "game_id", "phase_id")


def _seats_and_orders(game: Game, phase: Phase) -> tuple[list[Seat], dict[int, Any]]:
    """``game``'s seats in ring order, locked (only their rows), and the orders that count in ``phase`` — as
    :func:`~gm.core.services.base.latest_orders` gives them (FM-5.6: each seat's last version; withdrawn orders and
    seats that are dead or not among the phase's actors dropped) — in one query."""
    seats = _LOCKED_SEATS(game_id=game.pk, phase_id=phase.pk)
    allowed = {s.pk for s in seats if s.alive and (phase.actors is None or s.pk in phase.actors)}
    return seats, {s.pk: s.gm_last_order for s in seats if s.gm_last_order is not None and s.pk in allowed}


def phase_resolve(*, phase_id: int, token: uuid.UUID, clock: Clock = timezone.now) -> Phase | None:
    """Resolve a phase this worker has claimed with ``token``, in one transaction.

    Locks the phase row, checks the claim is still this worker's, runs the module engine on the seats' state
    and the last order versions, writes the log, seat changes and game state, marks the phase ``resolved``, and
    opens the next phase (or finishes the game). Returns the resolved phase, or ``None`` if the claim was lost
    (nothing is written then). Emits one structured log line (game, phase, duration, query count).
    """
    started = time.perf_counter()
    counter = _QueryCounter()
    with connection.execute_wrapper(counter), transaction.atomic():
        phase = _LOCKED_PHASE.first(phase_id=phase_id)
        if phase is None:
            raise Phase.DoesNotExist(f"no phase {phase_id}")
        if phase.status != Phase.Status.RESOLVING or phase.claim_token != token:
            return None
        game = _LOCKED_GAME.first(game_id=phase.game_id)
        if game is None:
            raise Game.DoesNotExist(f"no game {phase.game_id}")
        if game.is_over:  # defence in depth: nothing resolves in a finished or aborted game
            return None
        now = clock()
        # Locked so that an optimistic seat edit (Hand reorder) can't commit between this read and our write; each
        # with its last order version in the same query (issue 25: fewer round trips inside the transaction).
        seats, orders = _seats_and_orders(game, phase)
        snapshot = phase_snapshot(game, seats)
        if (phase.state or {}).get("dice"):  # fixed dice (``interventions.phase_dice_fix``) go into the input
            snapshot["dice"] = phase.state["dice"]
        result = run_engine(game=game, phase=phase, snapshot=snapshot, orders=orders)
        if game.review_results:  # review before publishing: stored now, applied when published (gm.core.review)
            return hold(game=game, phase=phase, snapshot=snapshot, result=result, orders=len(orders), now=now)
        phase.state = snapshot
        phase.status = Phase.Status.RESOLVED
        phase.resolved_at = now

        def phase_write() -> None:
            # Encoded while the database works on the seat changes sent just before (pipeline mode).
            stored = resolution_data(result, game.game_module.constant_state_keys)
            body = canonical_json(stored)  # hashed, and on PostgreSQL stored as it is (not encoded twice)
            phase.result_digest = hashlib.sha256(body.encode()).hexdigest()
            phase.result = stored
            _phase_write_resolved(phase, result_json=body)

        with _pipeline():  # the writes below wait for no answer but the next phase's id
            def trace() -> LogEntry:
                # Written with the resolution's other entries: the duration runs up to that insert (engine and apply).
                duration_ms = round((time.perf_counter() - started) * 1000, 1)
                return LogEntry(game=game, phase=phase, visibility="master", kind="core.trace",
                                data={"duration_ms": duration_ms, "orders": len(orders), "claims": phase.claims},
                                created_at=now)

            before = game.state
            resolution_apply(game=game, phase=phase, seats=seats, result=result, now=now, trace=trace,
                             seats_sent=phase_write)
            _game_write(game, before)
        task("gm.core.tasks.phase_notify_task").delay_on_commit(phase.pk)
    logger.info(
        "phase resolved",
        extra={"game": game.pk, "phase": phase.pk, "ordinal": phase.ordinal, "kind": phase.kind,
               "duration_ms": round((time.perf_counter() - started) * 1000, 1), "queries": counter.count,
               "orders": len(orders), "events": len(result.events)},
    )
    return phase


def phase_resolve_due(*, phase_id: int, clock: Clock = timezone.now) -> Phase | None:
    """Claim ``phase_id`` if it is due and resolve it; ``None`` if it was not ours to resolve (also when an automatic
    extension moved its deadline instead: ``extensions.extend_if_owed``, issue 23)."""
    from .extensions import extend_if_owed

    if extend_if_owed(phase_id=phase_id, clock=clock):
        return None
    token = phase_claim(phase_id=phase_id, clock=clock)
    if token is None:
        return None
    return phase_resolve(phase_id=phase_id, token=token, clock=clock)


@dataclass
class SweepReport:
    """What one sweep did: ids of phases it ``resolved``, ``reclaimed`` from dead workers, flagged ``overdue``, and
    whose held result it ``published`` (review before publishing, ``gm.core.review``); ``outage``: the id of the
    :class:`~gm.core.models.Outage` it recovered from first, if any."""

    resolved: list[int] = field(default_factory=list)
    reclaimed: list[int] = field(default_factory=list)
    overdue: list[int] = field(default_factory=list)
    published: list[int] = field(default_factory=list)
    outage: int | None = None


def phases_sweep(*, clock: Clock = timezone.now, limit: int = 100) -> SweepReport:
    """The periodic deadline sweep (beat, every ``GM_SWEEP_INTERVAL`` seconds).

    Flags phases more than ``GM_OVERDUE_AFTER`` seconds past their deadline (an error log line and
    ``Phase.overdue_at``, shown on the master's page), reclaims phases stuck in ``resolving``, and claims and
    resolves every due phase, and publishes held results whose auto-publish time has passed, at most ``limit`` of
    each per sweep. First of all, after an outage (the last successful sweep older than ``GM_OUTAGE_AFTER``),
    :func:`~gm.core.services.outage.outage_recover` moves the deadlines that fell in the gap; the sweep records its
    success at the end.
    """
    report = SweepReport()
    recovered = outage_recover(clock=clock)
    report.outage = recovered.pk if recovered is not None else None
    now = clock()
    live = Q(game__paused_at__isnull=True, game__status__in=[Game.Status.RUNNING, Game.Status.SETUP])
    overdue_before = now - timedelta(seconds=settings.GM_OVERDUE_AFTER)
    for phase in Phase.objects.filter(
        live, status__in=[Phase.Status.OPEN, Phase.Status.RESOLVING], deadline__lte=overdue_before,
        overdue_at__isnull=True,
    ).select_related("game")[:limit]:
        if Phase.objects.filter(pk=phase.pk, overdue_at__isnull=True).update(overdue_at=now):
            report.overdue.append(phase.pk)
            deadline_logger.error(
                "phase overdue",
                extra={"game": phase.game_id, "phase": phase.pk, "status": phase.status,
                       "overdue_seconds": round((now - phase.deadline).total_seconds(), 1)},
            )
    stale_before = now - timedelta(seconds=settings.GM_RESOLVING_TIMEOUT)
    for phase_id in Phase.objects.filter(status=Phase.Status.RESOLVING, claimed_at__lte=stale_before).values_list(
        "pk", flat=True
    )[:limit]:
        token = phase_reclaim(phase_id=phase_id, clock=clock)
        if token is not None and phase_resolve(phase_id=phase_id, token=token, clock=clock) is not None:
            report.reclaimed.append(phase_id)
    for phase_id in Phase.objects.filter(live, status=Phase.Status.OPEN, deadline__lte=now).order_by(
        "deadline"
    ).values_list("pk", flat=True)[:limit]:
        if phase_resolve_due(phase_id=phase_id, clock=clock) is not None:
            report.resolved.append(phase_id)
    report.published = publish_due(clock=clock, limit=limit)
    sweep_succeeded(clock=clock)
    return report
