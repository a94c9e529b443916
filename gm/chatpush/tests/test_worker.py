"""Delivery by a real Celery worker process (``celery worker --pool=solo`` on the PostgreSQL test database and a
per-session Redis queue, as ``tests/integration/test_worker.py``): the message is queued after commit, the worker
posts it to the local endpoint, and a failing endpoint is retried after the real exponential backoff (countdowns
of 1 s and 2 s here), with the waits visible in the times the requests arrive.

Run with PostgreSQL + Redis (skipped otherwise)."""
from __future__ import annotations

import json
import os

import pytest

from gm.chatpush.models import YOUR_MOVE, Delivery
from gm.chatpush.services import channels, fanout
from gm.core.models import Phase
from tests.integration.worker_utils import (
    SESSION_QUEUE,
    CeleryProcesses,
    forget_queue,
    purge_queue,
    routed_to,
    skip_reason,
    wait_until,
    worker_database_url,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

BACKOFF = 1.0


@pytest.fixture
def worker(settings, tmp_path, chatpush_settings):
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    with routed_to(SESSION_QUEUE, settings) as queue:
        env = {
            **os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": worker_database_url(),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "CELERY_TASK_DEFAULT_QUEUE": queue,
            "GM_CHATPUSH_ALLOW_LOCAL": "1", "GM_CHATPUSH_APPRISE_SERVICES": "json",
            "GM_CHATPUSH_BACKOFF": str(BACKOFF), "GM_CHATPUSH_MAX_ATTEMPTS": "4", "SITE_URL": settings.SITE_URL,
            "GM_WEBPUSH_VAPID_PRIVATE_KEY": settings.GM_WEBPUSH_VAPID_PRIVATE_KEY,
            "NO_PROXY": "127.0.0.1,localhost", "PYTHONUNBUFFERED": "1",
        }
        procs = CeleryProcesses(log_dir=tmp_path, queue=queue, env=env)
        try:
            procs.worker()
            yield procs
        finally:
            procs.stop_all()
            print(procs.report())
            purge_queue(queue)
            forget_queue(queue)


def test_worker_delivers_after_commit_and_backs_off(running_game, players, endpoint, worker):
    from accounts.models import Profile

    Profile.objects.update_or_create(user=players[0], defaults={"language": "en"})
    channels.channel_add_apprise(user=players[0], url=endpoint.url("/hook", scheme="json"), events=[YOUR_MOVE])
    endpoint.fail_next = 2
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    [row] = fanout.phase_opened(phase_id=phase.pk)  # no transaction open: the row is handed to the queue now
    wait_until(lambda: Delivery.objects.filter(pk=row.pk, status=Delivery.Status.SENT).exists(), timeout=60,
               message=lambda: f"delivery: {Delivery.objects.filter(pk=row.pk).values('status', 'attempts')}\n"
                               f"{worker.report()}")
    row.refresh_from_db()
    assert row.attempts == 3 and row.delays == [BACKOFF, 2 * BACKOFF]
    assert len(endpoint.requests) == 3
    first, second, third = (r.received for r in endpoint.requests)
    assert second - first >= BACKOFF * 0.9 and third - second >= 2 * BACKOFF * 0.9  # the countdowns were waited
    assert "your move" in json.loads(endpoint.requests[-1].body)["title"]
