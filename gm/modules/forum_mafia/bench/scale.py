"""Issue 25 goals 4–6, ``manage.py gm_bench --long`` only (they take minutes): many games on time, worker scaling,
orders under a crowd against the same server's bare view, and a worker's memory from 1,000 to 10,000 resolutions.

Each figure is again taken against a floor measured in the same run where the issue names one (the order submits
against a bare authenticated view on the same gunicorn; four workers against one). Child processes come from
:class:`gm.core.processes.CeleryProcesses` on the command's scratch database and queue.
"""
from __future__ import annotations

import http.client
import json
import secrets
import statistics
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db.models import Count
from django.utils import timezone

from gm.core.processes import free_port

from . import table


def resolved_twice(phase_ids: list[int]) -> int:
    """How many of ``phase_ids`` have more than one ``core.phase_resolved`` log entry (exactly-once broken)."""
    from gm.core.models import LogEntry

    return (LogEntry.objects.filter(phase_id__in=phase_ids, kind="core.phase_resolved").values("phase_id")
            .annotate(n=Count("id")).filter(n__gt=1).count())


def _quick_games(people, games: int, players: int = 6) -> list[int]:
    """``games`` forum Mafia Night 1 games of ``players`` whose phases last 0 seconds (each resolution opens the next
    phase already due), their open phases due now; their ids."""
    from gm.core.models import Game, Phase

    from .figures import no_publish

    users = people.users(players)
    ids = []
    with no_publish():
        for g in range(games):
            game, _phase = table.db_night(people.master, users, title=f"bench scale {g}")
            ids.append(game.pk)
        Game.objects.filter(pk__in=ids).update(durations={"night": 0, "day": 0})
        Phase.objects.filter(game_id__in=ids).update(deadline=timezone.now())
    return ids


def worker_rps(people, procs, *, workers: int, seconds: float, games: int) -> dict[str, float]:
    """Resolutions per second of ``workers`` worker processes (``--pool=solo``) over ``seconds`` on ``games`` games
    that never wait (0-second phases), and how many phases were resolved twice (must be 0)."""
    from gm.core.models import Game, Phase
    from gm.core.processes import wait_until

    from .figures import _schedule

    ids = _quick_games(people, games)
    started = [procs.worker(wait=False) for _ in range(workers)]
    procs.wait_ready(*started)

    def count() -> int:
        return Phase.objects.filter(game_id__in=ids, status=Phase.Status.RESOLVED).count()

    _schedule(Phase.objects.filter(game_id__in=ids, status=Phase.Status.OPEN))
    wait_until(lambda: count() >= min(games, 5), timeout=120, interval=0.2,
               message=lambda: f"no resolutions:\n{procs.report(20)}")
    first, began = count(), time.monotonic()
    time.sleep(seconds)  # the figure is the work done in a fixed time, not a wait for a condition
    done, elapsed = count() - first, time.monotonic() - began
    Game.objects.filter(pk__in=ids).update(paused_at=timezone.now())
    for process in started:
        process.stop()
    phases = list(Phase.objects.filter(game_id__in=ids).values_list("pk", flat=True))
    return {"rps": done / elapsed, "resolved_twice": resolved_twice(phases)}


def lateness_many(people, procs, *, games: int, window_s: float, workers: int) -> dict[str, float]:
    """:func:`figures.lateness` with ``games`` games over ``window_s`` seconds and ``workers`` workers, plus how many
    phases were resolved twice and how many were missed (never resolved: the figure then fails)."""
    from gm.core.models import Phase

    from .figures import lateness

    before = set(Phase.objects.values_list("pk", flat=True))
    late = lateness(people, procs, games=games, window_s=window_s, workers=workers)
    mine = [pk for pk in Phase.objects.filter(game__title__startswith="bench lateness").values_list("pk", flat=True)
            if pk not in before]
    missed = Phase.objects.filter(pk__in=mine, ordinal=1).exclude(status=Phase.Status.RESOLVED).count()
    return {**late, "resolved_twice": resolved_twice(mine), "missed": missed}


def drain(procs) -> int:
    """Between two long parts: stop every worker and beat, pause every running bench game and drop what the part
    left in the run's queue (the deadline and notification tasks of its thousands of games), so that the next part
    measures its own work, not a backlog. Returns how many messages were dropped."""
    from gm.core.models import Game
    from gm.core.processes import purge_queue

    procs.stop_all()
    Game.objects.filter(status=Game.Status.RUNNING, paused_at__isnull=True).update(paused_at=timezone.now())
    if str(settings.CELERY_BROKER_URL).startswith(("redis", "rediss")):
        return purge_queue(procs.queue)
    from gm.celery import app

    with app.connection_for_write() as conn:
        return conn.default_channel.queue_purge(procs.queue) or 0


def _percentile(samples: list[float], q: float) -> float:
    from .figures import percentile

    return percentile(samples, q)


def crowd(people, procs, *, clients: int, requests_per_client: int, gunicorn_workers: int = 4) -> dict[str, float]:
    """``clients`` logged-in clients (threads) at once against gunicorn (``gunicorn_workers`` sync workers, the
    bench's URLs: the site plus the bare view): first each GETs the bare authenticated view
    ``requests_per_client`` times back to back (``bare_view_rps``), then each POSTs his Night order as many times
    (``order_submit_rps``, its p95 and the single-client median measured first); errors and lost orders (201
    answers without a stored version) counted."""
    from gm.core.models import Order

    from .figures import login_session, no_publish, wait_http
    from .floors import BARE_URL

    jobs = []
    with no_publish():
        for g in range(-(-clients // 16)):
            users = people.users(16)
            game, night = table.db_night(people.master, users, title=f"bench crowd {g}")
            given = table.orders([s.pk for s in game.seats.order_by("position")])
            for seat in game.seats.select_related("user").order_by("position"):
                jobs.append((game.pk, login_session(seat.user), {"phase": night.pk, "payload": given[seat.pk]}))
    jobs = jobs[:clients]
    csrf = secrets.token_hex(16)
    port = free_port()
    server = procs.spawn("gunicorn-crowd", [
        "-m", "gunicorn", "gm.wsgi:application", "--workers", str(gunicorn_workers), "--bind", f"127.0.0.1:{port}",
        "--backlog", str(max(2048, clients * 4)), "--no-control-socket"],
        extra_env={"DJANGO_SETTINGS_MODULE": "gm.modules.forum_mafia.bench.settings"})
    wait_http(port, server)
    errors: list[str] = []
    lock = threading.Lock()

    def one(conn, method: str, path: str, body: str | None, headers: dict, ok: int) -> float:
        started = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text, status = response.read(), response.status
        except OSError as exc:
            conn.close()
            text, status = str(exc).encode(), 0
        if status != ok:
            with lock:
                errors.append(f"{method} {path} {status}: {text[:120]!r}")
        return (time.perf_counter() - started) * 1e3

    def headers_for(session_key: str) -> dict:
        return {"Content-Type": "application/json", "X-CSRFToken": csrf,
                "Cookie": f"{settings.SESSION_COOKIE_NAME}={session_key}; {settings.CSRF_COOKIE_NAME}={csrf}"}

    def run(count: int, make: Callable[[tuple], tuple]) -> tuple[list[float], float]:
        samples: list[float] = []
        barrier = threading.Barrier(len(jobs[:count]) + 1)

        def client(job):
            method, path, body, ok = make(job)
            headers = headers_for(job[1])
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            barrier.wait()
            mine = [one(conn, method, path, body, headers, ok) for _ in range(requests_per_client)]
            conn.close()
            with lock:
                samples.extend(mine)

        threads = [threading.Thread(target=client, args=(job,)) for job in jobs[:count]]
        for thread in threads:
            thread.start()
        barrier.wait()
        began = time.perf_counter()
        for thread in threads:
            thread.join()
        return samples, time.perf_counter() - began

    def bare(job):
        return "GET", BARE_URL, None, 200

    def order(job):
        return "POST", f"/api/games/{job[0]}/orders/", json.dumps(job[2]), 201

    before = Order.objects.count()
    try:
        run(len(jobs), bare)  # warm-up: every gunicorn worker loads the code
        single, _elapsed = run(1, order)
        bare_samples, bare_elapsed = run(len(jobs), bare)
        order_samples, order_elapsed = run(len(jobs), order)
    finally:
        server.stop()
    stored = Order.objects.count() - before
    answered = len(order_samples) + len(single) - sum(1 for e in errors if e.startswith("POST"))
    return {"bare_view_rps": len(bare_samples) / bare_elapsed, "order_submit_rps": len(order_samples) / order_elapsed,
            "order_submit_p95_ms": _percentile(order_samples, 0.95),
            "order_submit_single_ms_median": statistics.median(single), "errors": len(errors),
            "lost_orders": max(0, answered - stored)}


def worker_rss_growth(people, procs, *, first: int, last: int, games: int) -> dict[str, float]:
    """One worker's resident memory after ``first`` and after ``last`` resolutions of 0-second phases (MiB). With a
    beat, as the site runs: 10,000 resolutions outlast ``GM_OUTAGE_AFTER``, and without the sweeps a beat schedules
    the deadline tasks would take the silence for an outage and leave every phase to a sweep that never comes."""
    from gm.core.models import Game, Phase
    from gm.core.processes import rss_mb, wait_until

    from .figures import _schedule

    ids = _quick_games(people, games)
    worker = procs.worker()
    procs.beat()

    def count() -> int:
        return Phase.objects.filter(game_id__in=ids, status=Phase.Status.RESOLVED).count()

    _schedule(Phase.objects.filter(game_id__in=ids, status=Phase.Status.OPEN))
    out = {}
    for mark in (first, last):
        wait_until(lambda mark=mark: count() >= mark, timeout=120 + mark * 0.5, interval=0.5,
                   message=lambda: f"{count()} resolutions:\n{worker.tail()}")
        out[mark] = rss_mb(worker.pid)
    Game.objects.filter(pk__in=ids).update(paused_at=timezone.now())
    procs.stop_all()
    return {"rss_first": out[first], "rss_last": out[last]}


def run_long(people, procs, *, quick: bool, progress: Callable[[str], None],
             out: dict[str, float] | None = None) -> dict[str, float]:
    """Goals 4–6 of issue 25 (``gm_bench --long``; with ``--quick`` in tiny sizes, to check the machinery), added to
    ``out`` (a new dict if ``None``) part by part, and returned: an interrupted run keeps its finished parts."""
    games, window = (20, 5) if quick else (5000, 600)
    seconds = 5 if quick else 60
    clients, per_client = (8, 2) if quick else (200, 5)
    first, last = (10, 40) if quick else (1000, 10000)
    out = {} if out is None else out
    progress(f"lateness, {games} games over {window} s, 4 workers + beat")
    late = lateness_many(people, procs, games=games, window_s=window, workers=4)
    drain(procs)
    out |= {"lateness_p99_s_5000": late["p99"], "lateness_p50_s_5000": late["p50"],
            "lateness_games_5000": late["games"], "lateness_resolved_twice": late["resolved_twice"],
            "lateness_missed": late["missed"]}
    for workers in (1, 4):
        progress(f"worker throughput, {workers} worker(s), {seconds} s")
        rps = worker_rps(people, procs, workers=workers, seconds=seconds, games=40 * workers)
        drain(procs)
        out |= {f"worker_rps_{workers}": rps["rps"], f"worker_resolved_twice_{workers}": rps["resolved_twice"]}
    out["worker_scaling_4_over_1"] = out["worker_rps_4"] / out["worker_rps_1"] if out["worker_rps_1"] else 0.0
    progress(f"orders under a crowd: {clients} clients against gunicorn")
    crowd_out = crowd(people, procs, clients=clients, requests_per_client=per_client)
    drain(procs)
    out |= {"bare_view_rps": crowd_out["bare_view_rps"], "order_submit_rps": crowd_out["order_submit_rps"],
            "order_submit_p95_ms_200c": crowd_out["order_submit_p95_ms"],
            "order_submit_single_ms_median": crowd_out["order_submit_single_ms_median"],
            "order_submit_rps_over_bare": crowd_out["order_submit_rps"] / crowd_out["bare_view_rps"],
            "crowd_errors": crowd_out["errors"], "crowd_lost_orders": crowd_out["lost_orders"]}
    progress(f"worker memory from {first} to {last} resolutions")
    rss = worker_rss_growth(people, procs, first=first, last=last, games=20)
    out |= {"worker_rss_mb_at_1k": rss["rss_first"], "worker_rss_mb_at_10k": rss["rss_last"],
            "worker_rss_growth_mb_1k_to_10k": rss["rss_last"] - rss["rss_first"]}
    return out
