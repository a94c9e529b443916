"""Forum Mafia resolution benchmarks — figures printed, never asserted (no timed tests in the suite).

Not collected by the normal test run (``python_files`` matches ``test_*.py`` only); run them with ``bin/bench``::

    bin/bench                                                          # the pure engine; PostgreSQL part skipped
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gm_bench bin/bench  # + the whole resolution on PostgreSQL
    BENCH_RUNS=1000 BENCH_PHASES=60 bin/bench                         # more samples

1. **Pure engine** — :func:`gm.modules.forum_mafia.resolution.resolve` on one 16-player Night 1 where every
   player plays a Hand and a Sleeve card (targeted damage, armour and recon: :mod:`tests.integration.fm_night`),
   ``BENCH_RUNS`` (≥ 200) runs; median and p95. Target: median ≤ 1 ms.
2. **Whole resolution on PostgreSQL** — ``services.phase_resolve`` on a claimed phase (lock and load the seats and
   orders, run the engine, write the seats, log entries and phase result, open Day 1, COMMIT), for
   ``BENCH_PHASES`` (≥ 30) fresh 5-player and 16-player games each, and its query count. Target: median ≤ 15 ms.
   The two Celery messages a resolution publishes after commit (the next phase's deadline task, the
   notification task) are stubbed out: the figure is the database and the engine, not the broker.
"""
from __future__ import annotations

import os
import random
import statistics
import time

import pytest

from tests.integration import fm_night

RUNS = max(200, int(os.environ.get("BENCH_RUNS", "300")))
PHASES = max(30, int(os.environ.get("BENCH_PHASES", "30")))


def _summary(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {"n": len(ordered), "median": statistics.median(ordered) * 1e3,
            "p95": ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))] * 1e3,
            "min": ordered[0] * 1e3, "max": ordered[-1] * 1e3}


def _line(label: str, s: dict, extra: str = "") -> str:
    return (f"{label}: {s['n']} runs, median {s['median']:.3f} ms, p95 {s['p95']:.3f} ms, "
            f"min {s['min']:.3f} ms, max {s['max']:.3f} ms{extra}")


def test_bench_engine_16_player_night(capsys):
    from gm.modules.forum_mafia import resolution

    state, phase, seats, orders = fm_night.engine_night(16)
    first = resolution.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=random.Random(0))
    assert first.next_phase is not None and not first.alive  # the table is what the benchmark says it is
    assert not [e for e in first.events if e.kind == "fm.t_void"]
    plays = sum(len(o.get("plays", [])) for o in orders.values())
    for i in range(20):  # warm-up (the collection cache, the interned card instances)
        resolution.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=random.Random(i))
    samples = []
    for i in range(RUNS):
        started = time.perf_counter()
        resolution.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=random.Random(i))
        samples.append(time.perf_counter() - started)
    s = _summary(samples)
    with capsys.disabled():
        print()
        print(_line(f"pure engine, 16-player night ({plays} plays, {len(first.events)} events)", s,
                    f"  [target: median ≤ 1 ms{'' if s['median'] <= 1 else ' — ABOVE'}]"))


@pytest.fixture
def postgresql():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip(f"the whole-resolution benchmark needs PostgreSQL (DATABASE_URL=postgres://...), "
                    f"the database is {connection.vendor}")


@pytest.fixture
def no_celery_publish(monkeypatch):
    """The resolution's after-commit Celery messages are not part of the figure (and need no broker)."""
    from gm.core import tasks

    monkeypatch.setattr(tasks.phase_deadline_task, "apply_async_on_commit", lambda *a, **k: None)
    monkeypatch.setattr(tasks.phase_notify_task, "delay_on_commit", lambda *a, **k: None)


@pytest.mark.django_db(transaction=True)
def test_bench_phase_resolve_postgresql(postgresql, card_collection, no_celery_publish, master, make_user, capsys):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from gm.core import services
    from gm.core.models import LogEntry, Phase

    results = {}
    for n in (5, 16):
        users = [make_user(f"b{n}_{i}") for i in range(n)]
        phases = []
        for g in range(PHASES + 1):  # one more: the first (query count) is not timed
            # A user has one seat per game, so the same accounts sit at every table.
            game, phase = fm_night.db_night(master, users, title=f"bench {n}/{g}")
            fm_night.submit_orders(game, phase)
            phases.append(phase)
        past = max(p.deadline for p in phases)
        clock = lambda past=past: past  # noqa: E731 - every phase is due
        samples, engine_ms = [], []
        for index, phase in enumerate(phases):
            token = services.phase_claim(phase_id=phase.pk, clock=clock)
            assert token is not None
            if index == 0:
                with CaptureQueriesContext(connection) as ctx:
                    assert services.phase_resolve(phase_id=phase.pk, token=token, clock=clock) is not None
                queries = len(ctx.captured_queries)
                continue
            started = time.perf_counter()
            assert services.phase_resolve(phase_id=phase.pk, token=token, clock=clock) is not None
            samples.append(time.perf_counter() - started)
            engine_ms.append(LogEntry.objects.get(phase=phase, kind="core.trace").data["duration_ms"])
        assert Phase.objects.filter(game__title__startswith=f"bench {n}/", kind="day",
                                    status=Phase.Status.OPEN).count() == len(phases)
        results[n] = (_summary(samples), queries, statistics.median(engine_ms))
    with capsys.disabled():
        print()
        for n, (s, queries, inside) in results.items():
            print(_line(f"phase_resolve on PostgreSQL, {n} players", s,
                        f", {queries} queries (in-transaction part: median {inside:.1f} ms)"
                        f"  [target: median ≤ 15 ms{'' if s['median'] <= 15 else ' — ABOVE'}]"))
        same = results[5][1] == results[16][1]
        print(f"query count 5 vs 16 players: {results[5][1]} vs {results[16][1]}"
              f" ({'equal' if same else 'DIFFERENT'})")
