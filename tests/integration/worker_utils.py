"""Helpers for the real-worker tests: start/stop ``celery worker`` and ``celery beat`` subprocesses against the
test database and a per-session Redis queue, poll with a bound, and talk to the broker and PostgreSQL directly.

Only ``tests/integration/test_worker.py`` uses this; it needs PostgreSQL + Redis (see :func:`skip_reason`).
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# Moved to gm.core.processes (manage.py gm_bench uses them too); re-exported for the worker tests.
from gm.core.processes import CeleryProcess, CeleryProcesses, database_url, wait_until  # noqa: F401

REPO_ROOT = Path(__file__).resolve().parents[2]
#: One queue per pytest session, so parallel sessions (and a developer's own worker) never share messages.
SESSION_QUEUE = f"gm-test-{os.getpid()}"


def skip_reason() -> str | None:
    """Why the worker tests can't run here (``None`` when they can)."""
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        return (f"real-worker tests need PostgreSQL (DATABASE_URL=postgres://...), the database is "
                f"{connection.vendor}")
    if not str(settings.CELERY_BROKER_URL).startswith("redis"):
        return (f"real-worker tests need Redis (CELERY_BROKER_URL=redis://...), the broker is "
                f"{settings.CELERY_BROKER_URL!r}")
    return None


def worker_database_url() -> str:
    """``DATABASE_URL`` of the test database pytest-django created (the one this process is connected to)."""
    return database_url()


def psycopg_params() -> dict[str, Any]:
    """Keyword arguments for ``psycopg.connect`` to the test database."""
    from django.db import connection

    sd = connection.settings_dict
    params = {"dbname": sd["NAME"], "user": sd.get("USER") or None, "password": sd.get("PASSWORD") or None,
              "host": sd.get("HOST") or None, "port": sd.get("PORT") or None}
    return {k: v for k, v in params.items() if v is not None}


# -- broker ---------------------------------------------------------------------------------------------


def queue_keys(queue: str) -> list[str]:
    """The Redis list keys kombu uses for ``queue`` (one per priority step)."""
    from kombu.transport.redis import PRIORITY_STEPS, Channel

    return [queue] + [f"{queue}{Channel.sep}{step}" for step in PRIORITY_STEPS if step]


def redis_client():
    import redis
    from django.conf import settings

    return redis.Redis.from_url(settings.CELERY_BROKER_URL)


def queue_length(queue: str) -> int:
    client = redis_client()
    try:
        return sum(client.llen(key) for key in queue_keys(queue))
    finally:
        client.close()


def purge_queue(queue: str) -> int:
    """Delete every waiting message of ``queue``, and the unacknowledged copies that killed or stopped workers
    left in kombu's ``unacked`` hash for it (so no later consumer of this Redis database restores them)."""
    import json

    client = redis_client()
    try:
        waiting = sum(client.llen(key) for key in queue_keys(queue))
        client.delete(*queue_keys(queue))
        stale = []
        for tag, raw in client.hscan_iter("unacked"):
            try:
                _message, _exchange, routing_key = json.loads(raw)
            except (ValueError, TypeError):
                continue
            if routing_key == queue:
                stale.append(tag)
        if stale:
            client.hdel("unacked", *stale)
            client.zrem("unacked_index", *stale)
        return waiting
    finally:
        client.close()


def forget_queue(queue: str) -> None:
    """At the end of the session: purge ``queue`` and drop the exchange binding tables kombu keeps for it."""
    from kombu.transport.redis import Channel

    purge_queue(queue)
    client = redis_client()
    try:
        client.delete(Channel.keyprefix_queue % queue, Channel.keyprefix_binding_permanent % queue)
    finally:
        client.close()


# -- processes ------------------------------------------------------------------------------------------


@contextmanager
def routed_to(queue: str, settings) -> Iterator[str]:
    """Route this process's tasks to ``queue`` (pytest-django's ``settings`` and the Celery app's ``conf``, which
    read the setting at import time), empty before; the previous queue is restored afterwards. The caller empties
    or forgets the queue when done."""
    from gm.celery import app

    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    purge_queue(queue)
    try:
        yield queue
    finally:
        app.conf.task_default_queue = previous
