"""Celery tasks: they take ids, re-fetch, and call services; nothing else."""
from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from . import services
from .models import Phase
from .services.outage import sweep_stale

logger = logging.getLogger("gm.deadlines")


@shared_task(name="gm.core.tasks.phases_sweep_task", ignore_result=True)
def phases_sweep_task() -> dict:
    """Beat's periodic sweep: resolve every due phase, reclaim stuck ones, flag overdue ones."""
    report = services.phases_sweep()
    return {"resolved": report.resolved, "reclaimed": report.reclaimed, "overdue": report.overdue,
            "published": report.published, "outage": report.outage}


@shared_task(name="gm.core.tasks.phase_deadline_task", ignore_result=True)
def phase_deadline_task(phase_id: int, hop: bool = False) -> bool:
    """The ETA task of one phase: resolve it if it is due (only makes resolution prompt; the sweep is the
    guarantee). A ``hop`` task woke early because its countdown was capped below the broker's visibility
    timeout: it re-schedules itself for the rest of the wait. After an outage (the sweep's mark is stale) it
    leaves the phase to the sweep, which first moves the deadlines that fell in the gap."""
    phase = Phase.objects.filter(pk=phase_id).only("pk", "deadline", "status").first()
    if phase is None or phase.status != Phase.Status.OPEN:
        return False
    now = timezone.now()
    if phase.deadline > now:
        if hop:
            services.schedule_deadline(phase, now=now)
        return False
    if sweep_stale(now=now):
        logger.warning("deadline task defers to the sweep after an outage", extra={"phase": phase_id})
        return False
    return services.phase_resolve_due(phase_id=phase_id) is not None


@shared_task(name="gm.core.tasks.phase_resolve_task", ignore_result=True)
def phase_resolve_task(phase_id: int) -> bool:
    """Resolve ``phase_id`` if it is due (used by tests and tools; the same path as the deadline task)."""
    return services.phase_resolve_due(phase_id=phase_id) is not None


@shared_task(name="gm.core.tasks.phase_notify_task", ignore_result=True)
def phase_notify_task(phase_id: int) -> int:
    """Tell each player and the master what he may read of a resolved phase: the apps listening to
    :data:`gm.core.signals.phase_results_ready` do it (``gm.inbox``: inbox notifications, and the result e-mail
    of :mod:`gm.core.notifications` to the users who opted in). Returns how many e-mails were sent."""
    from .signals import phase_results_ready

    results = phase_results_ready.send(sender=Phase, phase_id=phase_id)
    return sum(r for _receiver, r in results if isinstance(r, int))


@shared_task(name="gm.core.tasks.activity_sweep_task", ignore_result=True)
def activity_sweep_task() -> dict:
    """Beat's activity sweep (every ``GM_ACTIVITY_INTERVAL`` seconds): prod quiet players and flag seats quiet past
    the grace in the next batch of games of the round, end emergency pauses that are due
    (``gm.core.services.activity.activity_sweep_tick``)."""
    from .services.activity import activity_sweep_tick

    return {key: len(ids) for key, ids in activity_sweep_tick().items()}


@shared_task(name="gm.core.tasks.comaster_takeover_sweep_task", ignore_result=True)
def comaster_takeover_sweep_task() -> dict:
    """Beat's inactive-master check (every ``GM_TAKEOVER_INTERVAL`` seconds, issue 24): offer the games whose master
    did nothing for ``GM_MASTER_INACTIVE_DAYS`` to their co-masters or the standby masters
    (``gm.core.services.comaster_takeover.takeover_sweep``)."""
    from .services.comaster_takeover import takeover_sweep

    report = takeover_sweep()
    return {"offered": report.offered, "closed": report.closed}


@shared_task(name="gm.core.tasks.page_stamps_prune_task", ignore_result=True)
def page_stamps_prune_task() -> int:
    """Prune the game pages' stamp rows (``page_stamps.prune``: older than ``GM_PAGE_STAMP_KEEP`` s but each game's
    newest, and those of deleted games) every ``GM_PAGE_STAMP_PRUNE_INTERVAL`` s; returns how many went."""
    from .page_stamps import prune

    return prune()
