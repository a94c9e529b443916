"""Delivery by a real Celery worker process (``celery worker --pool=solo`` on the PostgreSQL test database and a
per-session Redis queue, as ``tests/integration/test_worker.py``): the message is queued after commit, the worker
posts it to the local endpoint, and a failing endpoint is retried after the real exponential backoff (countdowns
of 1 s and 2 s here), with the waits visible in the times the requests arrive.

Run with PostgreSQL + Redis (skipped otherwise)."""
from __future__ import annotations

import json
import os
import time

import pytest

from gm.chatpush.models import EVENTS, Delivery
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
    channels.channel_add_apprise(user=players[0], url=endpoint.url("/hook", scheme="json"), events=list(EVENTS))
    endpoint.fail_next = 2
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    created = fanout.phase_opened(phase_id=phase.pk)  # no transaction open: each row is handed to the queue now
    assert len(created) == 2
    wait_until(lambda: Delivery.objects.filter(status=Delivery.Status.SENT).count() == 2, timeout=60,
               message=lambda: f"deliveries: {list(Delivery.objects.values_list('status', 'attempts'))}\n"
                               f"{worker.report()}")
    assert len(endpoint.requests) == 4  # two messages, the first of them after two failures
    retried = Delivery.objects.get(attempts=3)
    assert retried.delays == [BACKOFF, 2 * BACKOFF]
    times = [r.received for r in endpoint.requests]
    # The first message's three attempts: waits of at least 1 s and then 2 s between them (the other message may
    # arrive in between, the worker being free while the retry waits for its countdown).
    first_three = [t for r, t in zip(endpoint.requests, times, strict=True)
                   if json.loads(r.body)["title"] == retried.title]
    assert len(first_three) == 3
    assert first_three[1] - first_three[0] >= BACKOFF * 0.9 and first_three[2] - first_three[1] >= 2 * BACKOFF * 0.9
    assert time.monotonic() >= first_three[2]
