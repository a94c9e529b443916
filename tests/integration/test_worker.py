"""Deadlines resolved by real Celery processes: ``celery worker --pool=solo`` and ``celery beat`` subprocesses on
the PostgreSQL test database and a per-session Redis queue.

They show the exactly-once design of ``gm.core.services`` end to end: the ETA task and the beat sweep each
resolve a due phase; 8 sweeping threads and 2 or 4 workers racing on the same phases (4 workers for 40 rounds in
every CI run; 2 workers for 40 and 200 with the soak tests) resolve every phase exactly once; and a worker killed
in the middle of a resolution leaves nothing behind but its claim, which the sweep reclaims and resolves exactly
once.

Run with PostgreSQL + Redis (skipped otherwise)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gm CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python -m pytest tests/integration/test_worker.py -q -x
"""
from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import threading
import time
import traceback
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from gm.core import services
from gm.core.models import Game, LogEntry, Phase, Seat
from gm.core.tasks import phase_resolve_task
from tests.helpers import running_tally_games

from .worker_utils import (
    SESSION_QUEUE,
    CeleryProcesses,
    forget_queue,
    psycopg_params,
    purge_queue,
    queue_length,
    routed_to,
    skip_reason,
    wait_until,
    worker_database_url,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

#: Seconds after which a phase left ``resolving`` is reclaimed, and the beat sweep interval, in the workers.
RESOLVING_TIMEOUT = 3
SWEEP_INTERVAL = 1
ROUND_SECONDS = 3600  # tally's default round duration


@pytest.fixture(autouse=True)
def _needs_postgres_and_redis():
    reason = skip_reason()
    if reason:
        pytest.skip(reason)


@pytest.fixture(scope="session")
def _forget_session_queue():
    yield
    if skip_reason() is None:  # session fixtures are set up even when every test here is skipped
        forget_queue(SESSION_QUEUE)


@pytest.fixture(autouse=True)
def session_queue(_needs_postgres_and_redis, _forget_session_queue, settings):
    """Route this process's tasks to the session's own queue (the Celery app read its config at import time, so
    its ``conf`` is switched too), empty before and after."""
    with routed_to(SESSION_QUEUE, settings) as queue:
        yield queue
    purge_queue(SESSION_QUEUE)


@pytest.fixture
def celery_procs(session_queue, tmp_path, settings):
    """Starts worker/beat subprocesses (``celery_procs.worker()``, ``celery_procs.beat()``) on the test database;
    all are stopped at teardown, before pytest-django flushes the database, and their logs printed (shown when
    the test fails)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": worker_database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_TASK_DEFAULT_QUEUE": session_queue,
        "GM_RESOLVING_TIMEOUT": str(RESOLVING_TIMEOUT),
        "GM_SWEEP_INTERVAL": str(SWEEP_INTERVAL),
        "GM_OVERDUE_AFTER": "3600",  # the tests make phases due by moving deadlines; never "overdue" here
        "PYTHONUNBUFFERED": "1",
    }
    procs = CeleryProcesses(log_dir=tmp_path, queue=session_queue, env=env)
    try:
        yield procs
    finally:
        procs.stop_all()
        print(procs.report())


def open_phase(game: Game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def make_due(*phase_ids: int, at=None) -> None:
    """Move the deadline of ``phase_ids`` to ``at`` (default: one second ago)."""
    at = at or timezone.now() - timedelta(seconds=1)
    Phase.objects.filter(pk__in=phase_ids).update(deadline=at, base_deadline=at)


def assert_clean_log(*procs) -> None:
    for proc in procs:
        text = proc.log()
        bad = [line for line in text.splitlines() if "ERROR" in line or "Traceback" in line]
        assert not bad, f"{proc.name} logged errors:\n" + "\n".join(bad[:20]) + f"\n--- tail ---\n{proc.tail()}"


def succeeded(proc, task: str) -> list[str]:
    """Return values the worker logged for ``task`` (``Task <task>[id] succeeded in 0.01s: <value>``)."""
    return re.findall(rf"Task {re.escape(task)}\[[^\]]+\] succeeded in [\d.e-]+s: (.*)", proc.log())


def assert_resolved_once_into_next_round(game: Game, phase: Phase, *, claims: int) -> Phase:
    phase.refresh_from_db()
    assert phase.status == Phase.Status.RESOLVED
    assert phase.claims == claims, f"phase claimed {phase.claims} times, expected {claims}"
    assert LogEntry.objects.filter(phase=phase, kind="core.phase_resolved").count() == 1
    assert LogEntry.objects.filter(phase=phase, kind="core.trace").count() == 1
    following = list(Phase.objects.filter(game=game, ordinal=2))
    assert len(following) == 1
    nxt = following[0]
    assert nxt.status == Phase.Status.OPEN and nxt.claims == 0
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.state["round"] == 2
    expected = phase.resolved_at + timedelta(seconds=game.duration_for("round"))
    assert game.duration_for("round") == ROUND_SECONDS
    assert abs((nxt.deadline - expected).total_seconds()) < 1, (nxt.deadline, expected)
    assert nxt.opens_at == phase.resolved_at
    return nxt


# -- 1. the two ways a due phase gets resolved -----------------------------------------------------------


def test_due_phase_is_resolved_by_a_real_worker(running_game, celery_procs):
    """The phase's ETA task, run by a real worker (no beat), resolves it right after its deadline: one claim,
    one ``core.phase_resolved`` entry, and round 2 opens with its deadline an hour after the resolution."""
    worker = celery_procs.worker()
    phase = open_phase(running_game)
    deadline = timezone.now() + timedelta(seconds=2)
    Phase.objects.filter(pk=phase.pk).update(deadline=deadline, base_deadline=deadline)
    phase.refresh_from_db()
    services.schedule_deadline(phase, now=timezone.now())  # outside atomic: published at once

    def resolved():
        phase.refresh_from_db()
        return phase.status == Phase.Status.RESOLVED

    wait_until(resolved, timeout=30, interval=0.1,
               message=lambda: f"phase still {phase.status}:\n{worker.tail()}")
    assert phase.resolved_at >= deadline
    assert_resolved_once_into_next_round(running_game, phase, claims=1)
    # The worker logs the task's result just after its transaction commits.
    wait_until(lambda: "True" in succeeded(worker, "gm.core.tasks.phase_deadline_task"), timeout=10,
               message=lambda: f"no successful phase_deadline_task in the log:\n{worker.tail()}")
    assert_clean_log(worker)


def test_due_phase_is_resolved_by_the_beat_sweep_without_its_eta_task(running_game, celery_procs, session_queue):
    """With the phase's ETA message gone (queue purged), ``celery beat``'s sweep (every second) is what resolves
    a due phase, exactly once."""
    phase = open_phase(running_game)
    purge_queue(session_queue)  # the ETA task game_start published
    assert queue_length(session_queue) == 0
    make_due(phase.pk)
    worker = celery_procs.worker()
    beat = celery_procs.beat()

    def resolved():
        phase.refresh_from_db()
        return phase.status == Phase.Status.RESOLVED

    wait_until(resolved, timeout=30, interval=0.1,
               message=lambda: f"phase still {phase.status}:\n{worker.tail()}\n{beat.tail()}")
    assert_resolved_once_into_next_round(running_game, phase, claims=1)
    wait_until(lambda: any(f"'resolved': [{phase.pk}]" in report
                           for report in succeeded(worker, "gm.core.tasks.phases_sweep_task")),
               timeout=10, message=lambda: f"no sweep reported resolving {phase.pk}:\n{worker.tail()}")
    assert not succeeded(worker, "gm.core.tasks.phase_deadline_task")
    assert_clean_log(worker)


def test_BW_24_a_phase_closed_early_is_resolved_by_the_worker_at_once_and_once(master, players, celery_procs):
    """The last actor's answer brings the deadline to now (``phase_complete``); the ETA task a real worker runs
    resolves it within seconds while beat sweeps every second — one claim, one resolution."""
    game = services.game_create(master=master, module="pig", title="Pig", rng_seed=5,
                                options={"close_early": True, "target": 100})
    services.game_open_signup(game=game, actor=master)
    for user in players[:2]:
        services.seat_join(game=game, user=user, display_name=user.username)
    services.game_start(game=game, actor=master)
    worker = celery_procs.worker()
    beat = celery_procs.beat()
    phase = open_phase(game)
    services.order_submit(phase=phase, user=players[0], payload={"move": "hold"})

    def resolved():
        phase.refresh_from_db()
        return phase.status == Phase.Status.RESOLVED

    wait_until(resolved, timeout=30, interval=0.1,
               message=lambda: f"phase still {phase.status}:\n{worker.tail()}\n{beat.tail()}")
    assert phase.claims == 1
    assert LogEntry.objects.filter(phase=phase, kind="core.phase_resolved").count() == 1
    assert Phase.objects.filter(game=game, ordinal=2, status=Phase.Status.OPEN).count() == 1
    assert_clean_log(worker, beat)


# -- 2. racing sweeps and workers ------------------------------------------------------------------------


@pytest.mark.parametrize("worker_count,rounds", [
    pytest.param(2, 40, marks=pytest.mark.soak), pytest.param(2, 200, marks=pytest.mark.soak), (4, 40)],
    ids=["2_workers", "2_workers_200_rounds", "4_workers"])
def test_exactly_once_race_8_threads_and_real_workers(master, players, celery_procs, session_queue,
                                                          worker_count, rounds):
    """3 games, 200 rounds (``bin/playtest-soak``; every CI run races 40 with 4 workers, the soak tests 40 and
    200 with 2): each round every game's phase is made
    due, then 8 threads sweep at the same moment
    while 2 real workers get two ``phase_resolve_task`` messages per phase. Every phase is claimed once and
    resolved once (one ``core.phase_resolved`` and one ``core.trace`` entry), ordinals stay contiguous, and the
    resolutions the sweeps report plus those the workers log add up to exactly one per phase. Issue 25's scale-out:
    the same with 4 worker processes (40 rounds)."""
    threads, copies = 8, 2
    started = time.monotonic()
    workers = [celery_procs.worker(wait=False) for _ in range(worker_count)]
    games = []
    for g in range(3):
        game = services.game_create(master=master, module="tally", title=f"Race {g}", options={"rounds": 1000},
                                    rng_seed=1000 + g)
        services.game_open_signup(game=game, actor=master)
        for i, user in enumerate(players):
            services.seat_join(game=game, user=user, display_name=f"Seat{i}")
        services.game_start(game=game, actor=master)
        games.append(game)
    celery_procs.wait_ready(*workers)
    game_ids = [g.pk for g in games]
    errors: list[str] = []
    swept: list[int] = []  # phase ids the threads' sweeps report as resolved by them
    sent = 0
    slowest_round = 0.0
    jitter = random.Random(2026)
    worker_first_every = 5

    # The sweeping threads live for the whole race (one DB connection each, closed at the end); two barriers
    # per round make all 8 sweeps start at the same moment and let the main thread wait for them.
    start, done, stop = threading.Barrier(threads + 1), threading.Barrier(threads + 1), threading.Event()

    def sweeper(index: int) -> None:
        try:
            connection.ensure_connection()
            while True:
                start.wait(timeout=60)
                if stop.is_set():
                    return
                try:
                    swept.extend(services.phases_sweep().resolved)
                except Exception:  # noqa: BLE001 - reported by the main thread after the round
                    errors.append(f"thread {index}:\n{traceback.format_exc()}")
                done.wait(timeout=60)
        except threading.BrokenBarrierError:
            pass  # the main thread gave up (a failed round) or timed out
        except BaseException:  # noqa: BLE001
            errors.append(f"thread {index}:\n{traceback.format_exc()}")
        finally:
            connection.close()

    pool = [threading.Thread(target=sweeper, args=(i,), name=f"sweeper-{i}", daemon=True) for i in range(threads)]
    for thread in pool:
        thread.start()
    try:
        for number in range(1, rounds + 1):
            round_started = time.monotonic()
            due = list(Phase.objects.filter(game_id__in=game_ids, status=Phase.Status.OPEN)
                       .values_list("pk", "ordinal"))
            assert sorted(o for _pk, o in due) == [number] * len(games), (number, due)
            due_ids = [pk for pk, _o in due]
            make_due(*due_ids)
            # One copy before the barrier releases the sweepers, one after; a 0-10 ms jitter moves the moment the
            # sweeps start across the workers' pick-up time, so the claims collide differently every round.
            for pk in due_ids:
                phase_resolve_task.delay(pk)
            if number % worker_first_every == 0:
                # A worker-first round: the sweeps start once a worker holds a claim (or after 0.5 s), so they
                # collide with a resolution in progress.
                with contextlib.suppress(AssertionError):
                    wait_until(lambda due_ids=due_ids: Phase.objects.filter(pk__in=due_ids).exclude(
                        status=Phase.Status.OPEN).exists(), timeout=0.5, interval=0.002)
            else:
                time.sleep(jitter.uniform(0, 0.01))
            try:
                start.wait(timeout=60)
                for pk in due_ids:
                    phase_resolve_task.delay(pk)
                sent += copies * len(due_ids)
                done.wait(timeout=60)
            except threading.BrokenBarrierError:
                raise AssertionError(f"round {number}: the sweepers did not finish:\n" + "\n".join(errors)) from None
            assert not errors, f"round {number}:\n" + "\n".join(errors)

            def round_done(due_ids=due_ids, number=number):
                resolved = Phase.objects.filter(pk__in=due_ids, status=Phase.Status.RESOLVED).count()
                opened = Phase.objects.filter(game_id__in=game_ids, ordinal=number + 1,
                                              status=Phase.Status.OPEN).count()
                return resolved == len(games) and opened == len(games)

            wait_until(round_done, timeout=30, interval=0.01,
                       message=lambda number=number: f"round {number} not resolved:\n{celery_procs.report(30)}")
            slowest_round = max(slowest_round, time.monotonic() - round_started)
    finally:
        stop.set()
        start.abort()  # releases the sweepers (they exit), whatever happened
        done.abort()
        for thread in pool:
            thread.join(timeout=30)
    assert not [t.name for t in pool if t.is_alive()], "sweeper threads hung"
    race_seconds = time.monotonic() - started

    # Drain: every message was consumed, and the workers logged a result for each (most are no-ops: False).
    def drained():
        done = sum(len(succeeded(w, "gm.core.tasks.phase_resolve_task")) for w in workers)
        return queue_length(session_queue) == 0 and done == sent

    wait_until(drained, timeout=60, interval=0.2,
               message=lambda: f"queue not drained ({queue_length(session_queue)} waiting):\n{celery_procs.report(30)}")
    by_workers = [succeeded(w, "gm.core.tasks.phase_resolve_task").count("True") for w in workers]

    resolved_total = rounds * len(games)
    for game in games:
        phases = list(Phase.objects.filter(game=game).order_by("ordinal").values_list("ordinal", "status", "claims"))
        assert [o for o, _s, _c in phases] == list(range(1, rounds + 2)), f"ordinals of game {game.pk}"
        assert [s for _o, s, _c in phases] == [Phase.Status.RESOLVED] * rounds + [Phase.Status.OPEN]
        assert [c for _o, _s, c in phases] == [1] * rounds + [0], f"claims of game {game.pk}"
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING
        assert game.state["round"] == rounds + 1 and len(game.state["totals"]) == rounds
    for kind in ("core.phase_resolved", "core.trace"):
        per_phase = dict(LogEntry.objects.filter(game_id__in=game_ids, kind=kind).values_list("phase_id")
                         .annotate(n=Count("id")).values_list("phase_id", "n"))
        assert len(per_phase) == resolved_total, f"{kind}: {len(per_phase)} phases have one"
        assert set(per_phase.values()) == {1}, f"{kind} written more than once for a phase"
    assert len(swept) == len(set(swept)), "a sweeper reported a phase another already resolved"
    assert len(swept) + sum(by_workers) == resolved_total, (len(swept), by_workers)
    assert not errors, "\n".join(errors)
    assert_clean_log(*workers)
    print(f"\nrace: {rounds} rounds x {len(games)} games = {resolved_total} phases resolved once each "
          f"(sweep threads {len(swept)}, workers {by_workers}); {sent} resolve tasks sent; "
          f"race {race_seconds:.1f}s, slowest round {slowest_round * 1000:.0f}ms, "
          f"total {time.monotonic() - started:.1f}s")


# -- 3. a worker dies mid-resolution ---------------------------------------------------------------------


def test_worker_killed_mid_resolution_resolves_exactly_once_later(running_game, players, celery_procs):
    """Worker A claims the phase and blocks inside ``phase_resolve`` (the test holds the game row lock) and is
    SIGKILLed there: its transaction dies with it, leaving only the claim (``resolving``). The beat sweep of
    worker B reclaims the phase after ``GM_RESOLVING_TIMEOUT`` and resolves it exactly once: one
    ``core.phase_resolved`` entry, one round 2, two claims, and each ordered number added to its seat's score
    once."""
    import psycopg

    phase = open_phase(running_game)
    orders = {players[0]: 7, players[1]: 3}
    for user, number in orders.items():
        services.order_submit(phase=phase, user=user, payload={"number": number})
    seats_before = {s.pk: s.data for s in Seat.objects.filter(game=running_game)}
    assert all(data["score"] == 0 for data in seats_before.values())

    locker = psycopg.connect(**psycopg_params(), autocommit=False)
    try:
        locker_pid = locker.execute("SELECT pg_backend_pid()").fetchone()[0]
        locker.execute("SELECT id FROM core_game WHERE id = %s FOR UPDATE", [running_game.pk]).fetchone()
        worker_a = celery_procs.worker()
        make_due(phase.pk)
        phase_resolve_task.delay(phase.pk)

        def blocked_backend():
            phase.refresh_from_db()
            if phase.status != Phase.Status.RESOLVING:
                return None
            with connection.cursor() as cursor:  # autocommit: a fresh pg_stat_activity snapshot each time
                cursor.execute(
                    "SELECT pid, wait_event_type, query FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                    [locker_pid],
                )
                return cursor.fetchone()

        pid, wait_type, query = wait_until(
            blocked_backend, timeout=30, interval=0.05,
            message=lambda: f"worker A never blocked on the game row (phase {phase.status}):\n{worker_a.tail()}")
        # pg_stat_activity keeps the first track_activity_query_size bytes (1,024 by default) of a query: the lock
        # query that also reads the game's long-game options is longer, and its FOR UPDATE falls past the cut.
        assert wait_type == "Lock" and "core_game" in query, query
        assert "FOR UPDATE" in query.upper() or len(query.encode()) >= 1000, query

        worker_a.kill()  # SIGKILL: mid-transaction, no shutdown
        assert worker_a.proc.returncode == -signal.SIGKILL
        locker.rollback()
    finally:
        locker.close()

    # The dead worker's backend ends (its transaction rolled back) once it gets the lock and finds no client.
    def backend_gone():
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            return cursor.fetchone()[0] == 0

    wait_until(backend_gone, timeout=30, interval=0.05, message=f"backend {pid} of the killed worker still there")
    phase.refresh_from_db()
    assert phase.status == Phase.Status.RESOLVING and phase.claims == 1
    assert not LogEntry.objects.filter(phase=phase, kind__in=["core.phase_resolved", "core.trace"]).exists()
    assert not Phase.objects.filter(game=running_game, ordinal=2).exists()
    assert {s.pk: s.data for s in Seat.objects.filter(game=running_game)} == seats_before
    # worker A may have run other tasks (notifications of the orders); the resolution is what must not succeed
    assert not [line for line in worker_a.log().splitlines() if "phase_resolve_task[" in line and "succeeded" in line]

    killed_at = timezone.now()
    worker_b = celery_procs.worker()
    beat = celery_procs.beat()

    def resolved():
        phase.refresh_from_db()
        return phase.status == Phase.Status.RESOLVED

    wait_until(resolved, timeout=30, interval=0.1,
               message=lambda: f"phase still {phase.status}:\n{worker_b.tail()}\n{beat.tail()}")
    assert phase.resolved_at >= phase.claimed_at - timedelta(seconds=1)
    assert phase.claimed_at >= killed_at - timedelta(seconds=1)  # the reclaim's claim time
    assert_resolved_once_into_next_round(running_game, phase, claims=2)
    scores = {s.user_id: s.data["score"] for s in Seat.objects.filter(game=running_game)}
    assert scores == {u.pk: orders.get(u, 0) for u in players}, scores
    assert {s.pk: s.data["secret"] for s in Seat.objects.filter(game=running_game)} == {
        pk: data["secret"] for pk, data in seats_before.items()}
    wait_until(lambda: any(f"'reclaimed': [{phase.pk}]" in report
                           for report in succeeded(worker_b, "gm.core.tasks.phases_sweep_task")),
               timeout=10, message=lambda: f"no sweep reported reclaiming {phase.pk}:\n{worker_b.tail()}")
    assert "phase reclaimed" in worker_b.log()
    assert_clean_log(worker_b)


def test_reminder_sweep_hands_each_full_batch_to_the_next_task(master, players, celery_procs):
    """Issue 25 goal 4: one beat tick of the reminder sweep, with batches of 2 phases, reaches every phase in its
    reminder window through tasks that each send the next (``gm.core.sweeps``), on a real worker; each phase's
    seats are reminded once."""
    from gm.inbox import services as inbox
    from gm.inbox.models import PhaseReminder
    from gm.inbox.tasks import reminders_sweep_task

    worker = celery_procs.worker(extra_env={"GM_SWEEP_BATCH": "2"})
    games = running_tally_games(master, players, 5, title="Remind")
    for game in games:
        inbox.reminder_set(game=game, actor=master, hours=ROUND_SECONDS // 3600)  # due from the phase's start
    reminders_sweep_task.delay()
    expected = 5 * len(players)
    wait_until(lambda: PhaseReminder.objects.filter(phase__game__in=games).count() >= expected, timeout=30,
               interval=0.2, message=lambda: f"reminders sent: "
               f"{PhaseReminder.objects.filter(phase__game__in=games).count()} of {expected}\n{worker.tail()}")
    # The worker logs a task's result just after its last reminder commits.
    wait_until(lambda: len(succeeded(worker, "gm.inbox.tasks.reminders_sweep_task")) >= 3, timeout=10,
               message=lambda: f"fewer than 3 sweep tasks in the log:\n{worker.tail()}")
    sweeps = succeeded(worker, "gm.inbox.tasks.reminders_sweep_task")
    assert len(sweeps) == 3, sweeps  # 2 + 2 + 1 phases: the last batch is not full and sends no next one
    assert PhaseReminder.objects.filter(phase__game__in=games).values("phase", "seat").distinct().count() == expected
    assert_clean_log(worker)
