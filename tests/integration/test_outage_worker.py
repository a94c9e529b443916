"""Outage protection with real Celery processes (issue 23, item 8): a worker and ``celery beat`` sweep every second;
beat is stopped, 15 minutes without a sweep are simulated (the sweep's mark and a deadline that fell in the gap are
moved back by the test), and when beat comes back its first sweep moves the deadline by the gap plus the grace
before it resolves anything. Needs PostgreSQL + Redis (skipped otherwise), like ``test_worker.py``."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from gm.core.models import LogEntry, Outage, Phase, SweepMark
from gm.core.services import outage

from .test_worker import (  # noqa: F401 - the real-worker fixtures
    _forget_session_queue,
    _needs_postgres_and_redis,
    assert_clean_log,
    celery_procs,
    open_phase,
    session_queue,
)
from .worker_utils import purge_queue, queue_length, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

OUTAGE_ENV = {"GM_TEST_OUTAGE_AFTER": "600", "GM_OUTAGE_GRACE": "900"}


def test_beat_stopped_for_15_minutes_moves_the_deadline_before_anything_resolves(
        running_game, celery_procs, session_queue):  # noqa: F811 - the fixtures imported above
    phase = open_phase(running_game)
    purge_queue(session_queue)  # the round's ETA task: only the sweep acts here
    worker = celery_procs.worker(extra_env=OUTAGE_ENV)
    beat = celery_procs.beat(extra_env=OUTAGE_ENV)
    wait_until(lambda: outage.last_sweep() is not None, timeout=30, interval=0.2,
               message=lambda: f"no sweep recorded:\n{worker.tail()}\n{beat.tail()}")
    beat.stop()
    wait_until(lambda: queue_length(session_queue) == 0, timeout=15, interval=0.2, message="sweeps still queued")
    time.sleep(1.5)  # the last queued sweep has finished
    # 15 minutes without a sweep; the round's deadline fell 5 minutes ago, inside the gap.
    now = timezone.now()
    SweepMark.objects.filter(name="phases").update(last_success=now - timedelta(minutes=15))
    due = now - timedelta(minutes=5)
    Phase.objects.filter(pk=phase.pk).update(deadline=due, base_deadline=due)
    beat = celery_procs.beat(extra_env=OUTAGE_ENV)
    wait_until(lambda: Outage.objects.exists(), timeout=30, interval=0.2,
               message=lambda: f"no outage recorded:\n{worker.tail()}\n{beat.tail()}")
    time.sleep(3)  # three more sweeps: none may resolve the moved phase
    phase.refresh_from_db()
    record = Outage.objects.get()
    assert phase.status == Phase.Status.OPEN and phase.claims == 0
    gap = record.detected_at - record.down_from
    assert timedelta(minutes=15) <= gap < timedelta(minutes=16)
    assert phase.deadline == due + gap + timedelta(minutes=15) == phase.base_deadline
    assert record.phases == [phase.pk] and record.games == [running_game.pk]
    assert LogEntry.objects.filter(phase=phase, kind="core.outage_shifted", visibility="public").count() == 1
    assert Outage.objects.count() == 1
    assert_clean_log(worker, beat)
