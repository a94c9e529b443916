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
from gm.core.processes import (  # noqa: F401
    CeleryProcess,
    CeleryProcesses,
    database_url,
    forget_queue,
    purge_queue,
    queue_keys,
    queue_length,
    redis_client,
    wait_until,
)

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


@contextmanager
def playtest_stack(tmp_path: Path, settings, name: str) -> Iterator[Any]:
    """gunicorn + worker + beat (``gm.core.playtest.stack.Stack``) on the test database, on a queue of the caller's
    own (``gm-playtest-<name>-…``), stopped and its queue deleted afterwards; the caller skips first when
    :func:`skip_reason` says the machine can't run it."""
    from gm.core.playtest.stack import Stack

    queue = f"gm-playtest-{name}-{id(tmp_path)}"
    with routed_to(queue, settings):
        stack = Stack(env={"DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": worker_database_url(),
                           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL}, queue=queue, log_dir=tmp_path)
        try:
            stack.start()
            yield stack
        finally:
            stack.stop()
            print(stack.report())
            forget_queue(queue)
