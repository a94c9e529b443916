"""Fault tests of a running playtest (``gm_playtest``'s runner and stack), on servers of their own: they never stop
the shared PostgreSQL or Redis.

* the worker SIGKILLed whenever a phase is being resolved, a new one started each time: every phase still resolved
  exactly once (one result; one more claim per kill at most: the beat sweep's reclaim). CI runs 5 kills
  (``-m worker``); the soak run (``-m soak``, ``bin/playtest-soak``) 50;
* a private ``redis-server`` stopped for a minute during a night (``-m soak``): no phase lost, every phase resolved
  once it is back;
* a private PostgreSQL cluster restarted under the web server: while it is down the site answers a clean error page
  (no traceback, no debug page), and it recovers afterwards.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
import requests

from gm.core.playtest.runner import WorkerKiller
from gm.core.playtest.stack import PrivatePostgres, PrivateRedis, Stack, wait_until
from gm.modules.forum_mafia.playtest.runner import play_game

from .worker_utils import forget_queue, routed_to, skip_reason, worker_database_url


def _needs_postgres_and_redis():
    reason = skip_reason()
    if reason:
        pytest.skip(reason)


def _stack(tmp_path, settings, queue: str, resolving_timeout: int = 3, **env) -> Stack:
    return Stack(env={"DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": worker_database_url(),
                      "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, **env}, queue=queue, log_dir=tmp_path,
                 resolving_timeout=resolving_timeout)


def _kill_run(tmp_path, settings, *, kills: int, players: int, deadline: float, max_games: int,
              phase_cap: int = 60, resolving_timeout: int = 3) -> None:
    """Play games (seeds 1, 2, …) while the killer SIGKILLs the worker during resolutions, until ``kills`` kills
    landed; assert every phase of every game was resolved exactly once."""
    _needs_postgres_and_redis()
    queue = f"gm-playtest-kill-{os.getpid()}"
    with routed_to(queue, settings):
        stack = _stack(tmp_path, settings, queue, resolving_timeout=resolving_timeout)
        game_ids: list[int] = []
        killer = WorkerKiller(stack, limit=kills, game_ids=lambda: game_ids[-1:])
        reports = []
        try:
            stack.start()
            killer.start()
            for seed in range(1, max_games + 1):
                report = play_game(base_url=stack.base_url, players=players, seed=seed, deadline=deadline,
                                   phase_cap=phase_cap, resolve_timeout=45, on_game=game_ids.append,
                                   killer=killer)
                reports.append(report)
                print("\n".join(report.lines()))
                if killer.kills >= kills:
                    break
        finally:
            killer.stop()
            stack.stop()
            print(stack.report())
            forget_queue(queue)
    phases = [p for r in reports for p in r.phases]
    hit = [p for p in phases if p.kills]
    print(f"\nworker SIGKILLed {killer.kills} times during resolutions over {len(reports)} games and {len(phases)} "
          f"phases; {len(hit)} phases were hit, claims of those: {[p.claims for p in hit]}; every phase resolved "
          f"once: {all(p.resolved_entries == 1 for p in phases if p.resolved_at)}")
    assert not killer.errors, killer.errors
    assert killer.kills == kills, f"only {killer.kills} kills landed in {len(reports)} games"
    for report in reports:
        exactly_once = [f for f in report.failures if "phase cap" not in f and "did not finish" not in f]
        assert not exactly_once, exactly_once  # a stalemate is the bots' game, not a resolution fault
    for p in phases:
        if p.resolved_at is not None:
            assert (p.resolved_entries, p.trace_entries) == (1, 1), p
            assert 1 <= p.claims <= 1 + p.kills, p
    assert any(p.claims > 1 for p in hit), "no kill interrupted a resolution that the sweep then took over"


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_worker_sigkilled_5_times_during_resolutions_every_phase_resolved_once(tmp_path, settings, card_collection):
    """Exactly once under crashes: the worker is SIGKILLed 5 times, each while a phase is ``resolving``; the beat
    sweep reclaims each such phase after ``GM_RESOLVING_TIMEOUT`` and a new worker resolves it once."""
    _kill_run(tmp_path, settings, kills=5, players=6, deadline=1.5, max_games=3, phase_cap=30, resolving_timeout=2)


@pytest.mark.soak
@pytest.mark.django_db(transaction=True)
def test_soak_worker_sigkilled_50_times(tmp_path, settings, card_collection):
    """The soak version: 50 kills over 16-player games."""
    _kill_run(tmp_path, settings, kills=50, players=16, deadline=3, max_games=20)


@pytest.mark.soak
@pytest.mark.django_db(transaction=True)
def test_soak_redis_down_for_a_minute_no_phase_lost(tmp_path, settings, card_collection):
    """A private Redis (the stack's broker) stops for 60 s in Night 1, past its deadline. Celery's worker exits when
    it loses the broker; supervised as in production (restarted when it exits), it connects again once Redis is
    back, and no phase is lost: every phase is resolved, exactly once, and the game ends with a winner."""
    _needs_postgres_and_redis()
    redis = PrivateRedis(tmp_path).start()
    queue = f"gm-playtest-redis-{os.getpid()}"
    settings.CELERY_BROKER_URL = redis.url
    from gm.celery import app

    previous_broker = app.conf.broker_url
    _switch_broker(app, redis.url)
    try:
        with routed_to(queue, settings):
            stack = _stack(tmp_path, settings, queue, CELERY_BROKER_URL=redis.url)
            try:
                stack.start()
                stack.supervise()
                report = play_game(base_url=stack.base_url, players=10, seed=3, deadline=3, phase_cap=60,
                                   resolve_timeout=90, outage=(2, 60.0, redis.stop, redis.start), log=print)
                print("\n".join(report.lines()))
                print(f"restarted by the supervisor: {stack.restarts}")
            finally:
                stack.stop()
                print(stack.report())
    finally:
        _switch_broker(app, previous_broker)
        redis.stop()
    assert not report.failures, report.failures
    assert report.finished and report.winners
    for p in report.phases:
        assert (p.claims, p.resolved_entries, p.trace_entries) == (1, 1, 1), p
    night = report.phases[1]
    print(f"Night 1 resolved {night.latency:.1f}s after its deadline (Redis was down for 60 s around it)")


def _switch_broker(app, url: str) -> None:
    """Publish this process's tasks to ``url`` from now on (the app caches its connection and producer pools)."""
    app.conf.broker_url = url
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def private_postgres():
    """A PostgreSQL cluster of this test's own, migrated, in a short directory (the socket path is limited)."""
    if not Path("/usr/lib/postgresql").exists():
        pytest.skip("no PostgreSQL server binaries under /usr/lib/postgresql")
    base = Path(tempfile.mkdtemp(prefix="gmpg-"))
    base.chmod(0o755)  # run as root, the cluster runs as ``postgres``, which must reach its directory
    cluster = PrivatePostgres(base / "pg").init()
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.destroy()
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.worker
def test_postgres_restart_site_answers_clean_errors_and_recovers(tmp_path, private_postgres):
    """PostgreSQL goes down under a running web server (production-like: DEBUG off): pages and the API answer a
    5xx with the site's error page or an error body — no traceback, no debug page — and the site answers normally
    again once PostgreSQL is back (the broken persistent connections are replaced)."""
    import subprocess
    import sys

    from gm.core.playtest.stack import REPO_ROOT

    url = private_postgres.create_database("gm_faults")
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "tests.settings", "DEBUG": "0",
           "CELERY_BROKER_URL": "memory://"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=REPO_ROOT, env=env,
                   check=True, timeout=300)
    stack = Stack(env={"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "tests.settings", "DEBUG": "0",
                       "CELERY_BROKER_URL": "memory://"}, queue="unused", log_dir=tmp_path, web_workers=1,
                  web_threads=2)
    pages = ["/", "/api/games/", "/accounts/login/"]  # the login page needs no database for an anonymous visitor
    try:
        stack.start_web()
        for page in pages:
            assert requests.get(stack.base_url + page, timeout=10).status_code == 200, page
        private_postgres.stop()
        for page in pages:
            response = requests.get(stack.base_url + page, timeout=30)
            body = response.text
            assert "Traceback" not in body and "OperationalError" not in body and "psycopg" not in body, body[:500]
            if page == "/accounts/login/":
                assert response.status_code in (200, 500), (page, response.status_code)
            elif page.startswith("/api/"):
                assert response.status_code == 500 and response.json()["code"] == "server_error", body[:300]
            else:
                assert response.status_code == 500 and "Server error" in body, body[:300]
        private_postgres.start()

        def recovered():
            return all(requests.get(stack.base_url + page, timeout=10).status_code == 200 for page in pages)

        wait_until(recovered, timeout=30, interval=0.5, message=lambda: stack.report())
    finally:
        stack.stop()
        print(stack.report())
