"""A Redis outage under a real worker and beat: the worker survives it and every deadline that fell due during it
is resolved exactly once afterwards.

The test runs its own ``redis-server`` on a free port (never the shared one), a real ``celery worker`` (solo and
prefork pools) and ``celery beat`` on it and on the PostgreSQL test database, SIGKILLs Redis by pid while the
worker holds the phases' ETA deadline tasks, keeps it down for ``GM_TEST_REDIS_OUTAGE`` seconds (default 12; the
worker died within milliseconds of the loss without the fix, so a short outage shows it; run it with 60 for the
minute the issue describes), starts it again on the same port and checks.

Run with PostgreSQL (skipped otherwise)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gm .venv/bin/python -m pytest \\
        tests/integration/test_redis_outage.py -q -x
"""
from __future__ import annotations

import os
import shutil
import signal
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from gm.core import services
from gm.core.models import Game, LogEntry, Phase
from gm.core.playtest.stack import PrivateRedis

from .worker_utils import CeleryProcesses, routed_to, wait_until, worker_database_url

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

OUTAGE_SECONDS = float(os.environ.get("GM_TEST_REDIS_OUTAGE", "12"))
#: The deadline of the phases that fall due during the outage, in seconds after Redis is killed.
DUE_AFTER_KILL = 3.0


@pytest.fixture
def private_redis(tmp_path, settings):
    """A ``redis-server`` of this test's own; this process publishes to it (settings and the Celery app's cached
    connection pools), the previous broker is restored afterwards."""
    if connection.vendor != "postgresql":
        pytest.skip(f"the Redis outage test needs PostgreSQL (DATABASE_URL=postgres://...), not {connection.vendor}")
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server binary")
    from gm.celery import app

    redis = PrivateRedis(tmp_path).start()
    previous = app.conf.broker_url, app.conf.broker_write_url
    settings.CELERY_BROKER_URL = redis.url
    _publish_to(app, redis.url, redis.url)
    try:
        yield redis
    finally:
        _publish_to(app, *previous)
        redis.stop()


def _publish_to(app, url: str, write_url: str | None) -> None:
    # The app resolved broker_write_url from the settings already; publishing goes through it.
    app.conf.broker_url, app.conf.broker_write_url = url, write_url
    app._pool = None
    app.amqp._producer_pool = None


def _kill_by_pid(redis: PrivateRedis) -> None:
    os.kill(redis.process.pid, signal.SIGKILL)
    redis.process.proc.wait(timeout=10)
    redis.process.stop()  # closes its log file; the process is gone already


def _running_games(make_user, count: int) -> list[Game]:
    master = make_user("outage-master", host=True)
    players = [make_user(f"outage-p{i}") for i in range(4)]
    games = []
    for n in range(count):
        game = services.game_create(master=master, module="tally", title=f"Outage {n}", options={"rounds": 3},
                                    rng_seed=n)
        services.game_open_signup(game=game, actor=master)
        for i, user in enumerate(players):
            services.seat_join(game=game, user=user, display_name=f"Seat{i}")
        services.game_start(game=game, actor=master)  # publishes each first phase's ETA deadline task
        games.append(game)
    return games


def _first_phase(game: Game) -> Phase:
    return Phase.objects.get(game=game, ordinal=1)


#: prefork is the pool the site runs (docker/compose.yaml) and every CI run tests; solo (bin/demo's) runs with the soak
#: tests (bin/playtest-soak).
@pytest.mark.parametrize("pool", [pytest.param("solo", marks=pytest.mark.soak), "prefork"])
def test_worker_survives_redis_outage_and_due_deadlines_resolve_once(pool, private_redis, make_user, tmp_path,
                                                                     settings):
    queue = f"gm-outage-{os.getpid()}"
    with routed_to(queue, settings):
        procs = CeleryProcesses(log_dir=tmp_path, queue=queue, env={
            **os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": worker_database_url(),
            "CELERY_BROKER_URL": private_redis.url, "CELERY_TASK_DEFAULT_QUEUE": queue,
            "GM_SWEEP_INTERVAL": "1", "GM_RESOLVING_TIMEOUT": "3", "GM_OVERDUE_AFTER": "3600",
            "PYTHONUNBUFFERED": "1",
        })
        try:
            _outage_run(pool, private_redis, make_user, procs)
        finally:
            procs.stop_all()
            print(procs.report())


def _outage_run(pool: str, redis: PrivateRedis, make_user, procs: CeleryProcesses) -> None:
    name = f"{pool}-{os.getpid()}"
    pool_args = ["--pool=solo"] if pool == "solo" else ["--pool=prefork", "--concurrency=1"]
    worker = procs.spawn(name, ["-m", "celery", "-A", "gm", "worker", *pool_args, "-l", "info", "-Q", procs.queue,
                                "-n", f"{name}@%h", "--without-mingle", "--without-gossip", "--without-heartbeat"],
                         nodename=f"{name}@{__import__('socket').gethostname()}")
    procs.wait_ready(worker)
    procs.beat()

    due_game, due_game_2, later_game = games = _running_games(make_user, 3)
    # The worker holds each game's ETA deadline task, unacknowledged, as it always does in a running game.
    wait_until(lambda: worker.log().count("phase_deadline_task[") >= 3, timeout=30,
               message=lambda: f"the worker did not receive the 3 ETA deadline tasks:\n{worker.tail()}")

    # Two phases fall due during the outage (their ETA tasks too are held by the worker); the third is an hour away.
    deadline = timezone.now() + timedelta(seconds=DUE_AFTER_KILL + 1)
    due = [_first_phase(due_game), _first_phase(due_game_2)]
    for phase in due:
        Phase.objects.filter(pk=phase.pk).update(deadline=deadline, base_deadline=deadline)
        phase.refresh_from_db()
        services.schedule_deadline(phase, now=timezone.now())
    wait_until(lambda: worker.log().count("phase_deadline_task[") >= 5, timeout=30,
               message=lambda: f"the worker did not receive the 2 new ETA tasks:\n{worker.tail()}")
    pid = worker.pid

    _kill_by_pid(redis)
    killed_at = time.monotonic()
    while time.monotonic() - killed_at < OUTAGE_SECONDS:
        assert worker.alive(), (f"the {pool} worker exited {time.monotonic() - killed_at:.2f}s after Redis was "
                                f"killed (rc {worker.proc.returncode}):\n{worker.tail(40)}")
        time.sleep(0.2)
    for phase in due:
        phase.refresh_from_db()
        assert timezone.now() > phase.deadline, "the phase was meant to fall due during the outage"
        assert phase.status == Phase.Status.OPEN, "resolved while the broker was down?"

    redis.start()  # the same port: the worker's and beat's broker URL
    back_at = time.monotonic()

    def all_resolved():
        return all(Phase.objects.get(pk=p.pk).status == Phase.Status.RESOLVED for p in due)

    wait_until(all_resolved, timeout=60, interval=0.2,
               message=lambda: f"due phases not resolved after Redis came back:\n{procs.report(40)}")
    print(f"{pool}: Redis down {OUTAGE_SECONDS:.0f}s; due phases resolved {time.monotonic() - back_at:.1f}s after it "
          f"was back")
    time.sleep(3)  # a few more sweeps, and any late deadline task, must not resolve anything again

    assert worker.alive() and worker.pid == pid, f"the worker was replaced or died:\n{worker.tail(40)}"
    log = worker.log()
    assert "Unrecoverable error" not in log and "AttributeError" not in log, worker.tail(60)
    assert log.count("Connected to redis") >= 2, "the worker never reconnected"
    for game, phase in zip(games[:2], due, strict=True):
        phase.refresh_from_db()
        assert phase.status == Phase.Status.RESOLVED and phase.claims == 1, (phase.status, phase.claims)
        assert LogEntry.objects.filter(phase=phase, kind="core.phase_resolved").count() == 1
        assert LogEntry.objects.filter(phase=phase, kind="core.trace").count() == 1
        following = list(Phase.objects.filter(game=game, ordinal=2))
        assert len(following) == 1 and following[0].status == Phase.Status.OPEN
        game.refresh_from_db()
        assert game.state["round"] == 2
    untouched = _first_phase(later_game)
    assert untouched.status == Phase.Status.OPEN and untouched.claims == 0
    assert not Phase.objects.filter(game=later_game, ordinal=2).exists()
