"""The figures of ``manage.py gm_bench`` (issue 9 item 3): each function measures one thing on the database this
process is connected to (the command's scratch database) and returns plain numbers. Speed is measured here, never
asserted in the test suite.

Tables: :mod:`gm.modules.forum_mafia.bench.table` (a 16-player Night 1 where everybody plays a Hand and a Sleeve
card). Child processes (Celery workers, beat, gunicorn) come from :class:`gm.core.processes.CeleryProcesses`; they
are pointed at the same database and at a queue of their own.
"""
from __future__ import annotations

import http.client
import json
import logging
import math
import random
import secrets
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gm.core.bench import percentile
from gm.core.processes import free_port

from ..engine import resolution as engine_resolution
from . import table


@dataclass(frozen=True)
class Sizes:
    """How much each figure samples. :data:`FULL` is what the issue asks for; :data:`QUICK` only proves the
    machinery works (seconds, for the test suite)."""

    engine_runs: int
    resolution_phases: int
    page_phases: int
    page_runs: int
    clients: int
    requests_per_client: int
    lateness_games: int
    lateness_window_s: float
    rss_resolutions: int
    rss_games: int
    think_s: float
    balance_games: int = 1000
    #: issue 25: interleaved samples per figure against its floor, and the sizes of the growth figures.
    floor_runs: int = 30
    growth_runs: int = 15
    page_floor_runs: int = 15
    page_posts: tuple[int, ...] = (100, 1000, 10000)
    page_phase_counts: tuple[int, ...] = (10, 60)
    page_rooms: tuple[int, ...] = (0, 40)
    big_page: tuple[int, int, int, int] = (60, 2000, 300, 40)  # phases, posts, private messages, rooms
    growth_players: tuple[int, ...] = (8, 16, 32, 40)


FULL = Sizes(engine_runs=300, resolution_phases=30, page_phases=20, page_runs=15, clients=50, requests_per_client=10,
             lateness_games=500, lateness_window_s=60, rss_resolutions=1000, rss_games=10, think_s=1.0)
QUICK = Sizes(engine_runs=20, resolution_phases=2, page_phases=20, page_runs=2, clients=4, requests_per_client=2,
              lateness_games=6, lateness_window_s=2, rss_resolutions=10, rss_games=2, think_s=0.05, balance_games=20,
              floor_runs=3, growth_runs=2, page_floor_runs=2, page_posts=(20, 60), page_phase_counts=(2, 4),
              page_rooms=(0, 4), big_page=(4, 60, 10, 4), growth_players=(8, 40))


@contextmanager
def no_publish() -> Iterator[None]:
    """The Celery messages services publish after commit (a phase's deadline task, the result notification) are
    dropped: for in-process timings (the figure is the database and the engine, not the broker) and while tables
    are set up (their deadlines are rescheduled when the figure needs them)."""
    from gm.core import tasks

    saved = (tasks.phase_deadline_task.apply_async_on_commit, tasks.phase_notify_task.delay_on_commit)
    tasks.phase_deadline_task.apply_async_on_commit = lambda *a, **k: None
    tasks.phase_notify_task.delay_on_commit = lambda *a, **k: None
    try:
        yield
    finally:
        tasks.phase_deadline_task.apply_async_on_commit, tasks.phase_notify_task.delay_on_commit = saved


class People:
    """Accounts for the tables: one master allowed to host, and players made on demand (no usable password: the
    order-submit clients get their sessions from :func:`login_session`)."""

    def __init__(self):
        from django.contrib.auth import get_user_model
        from django.contrib.auth.models import Permission

        self.model = get_user_model()
        self.tag = secrets.token_hex(3)
        master = self.model.objects.create_user(username=f"bench-master-{self.tag}")
        master.user_permissions.add(Permission.objects.get(codename="host_game"))
        self.master = self.model.objects.get(pk=master.pk)
        self._count = 0

    def users(self, n: int) -> list:
        made = []
        for _ in range(n):
            self._count += 1
            user = self.model(username=f"bench-{self.tag}-{self._count}")
            user.set_unusable_password()
            made.append(user)
        return self.model.objects.bulk_create(made)


def login_session(user) -> str:
    """A logged-in session for ``user`` in the session store, as ``django.contrib.auth.login`` leaves it; returns
    the session key (the cookie value)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def resolve_open_phase(game) -> None:
    """Claim and resolve ``game``'s open phase as if its deadline had passed (the clock is set to the deadline)."""
    from gm.core import services
    from gm.core.models import Phase

    phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    clock = lambda deadline=phase.deadline: deadline  # noqa: E731
    token = services.phase_claim(phase_id=phase.pk, clock=clock)
    services.phase_resolve(phase_id=phase.pk, token=token, clock=clock)


# -- 1. the pure engine ---------------------------------------------------------------------------------------


def engine_night(*, players: int = 16, runs: int) -> dict[str, float]:
    """``resolution.resolve`` on :func:`table.engine_night` (``players`` seats, every one plays two cards), ``runs``
    times after a warm-up; milliseconds."""

    state, phase, seats, orders = table.engine_night(players)
    first = engine_resolution.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=random.Random(0))
    if first.next_phase is None or first.alive or [e for e in first.events if e.kind == "fm.t_void"]:
        raise RuntimeError("the benchmark night is not the table it describes (a death, a void play or no Day 1)")
    for i in range(20):  # warm-up: the collection cache, the interned card instances
        engine_resolution.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=random.Random(i))
    samples = []
    for i in range(runs):
        started = time.perf_counter()
        engine_resolution.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=random.Random(i))
        samples.append((time.perf_counter() - started) * 1e3)
    return {"median": statistics.median(samples), "p95": percentile(samples, 0.95), "events": len(first.events)}


# -- 2. a whole resolution ------------------------------------------------------------------------------------


def resolution(people: People, *, players: int, phases: int) -> dict[str, float]:
    """``services.phase_resolve`` of a claimed Night 1 with every player's order (lock and load the seats and
    orders, run the engine, write the seats, log and result, open Day 1, COMMIT) in ``phases`` fresh games of
    ``players``, after one more whose query count is taken; milliseconds. The after-commit Celery messages are not
    sent (:func:`no_publish`)."""
    from gm.core import services
    from gm.core.models import LogEntry

    users = people.users(players)
    samples, inside, queries = [], [], 0
    with no_publish():
        nights = []
        for g in range(phases + 1):
            game, phase = table.db_night(people.master, users, title=f"bench resolution {players}/{g}")
            table.submit_orders(game, phase)
            nights.append(phase)
        past = max(p.deadline for p in nights)
        clock = lambda: past  # noqa: E731 - every phase is due
        for index, phase in enumerate(nights):
            token = services.phase_claim(phase_id=phase.pk, clock=clock)
            connection.queries_log.clear()  # a full log (9,000 entries) would make the capture count 0
            started = time.perf_counter()
            with CaptureQueriesContext(connection) as ctx:
                if services.phase_resolve(phase_id=phase.pk, token=token, clock=clock) is None:
                    raise RuntimeError(f"phase {phase.pk} did not resolve")
            elapsed = (time.perf_counter() - started) * 1e3
            if index == 0:
                queries = len(ctx.captured_queries)
                continue
            samples.append(elapsed)
            inside.append(LogEntry.objects.get(phase=phase, kind="core.trace").data["duration_ms"])
    return {"median": statistics.median(samples), "p95": percentile(samples, 0.95), "queries": queries,
            "in_transaction_median": statistics.median(inside)}


# -- 3. the game page -----------------------------------------------------------------------------------------


def long_game(people: People, *, players: int, phases: int, posts_per_phase: int = 2):
    """A forum Mafia game of ``players`` after ``phases`` resolutions (Night 1 with everybody's orders, then phases
    without orders) with up to ``posts_per_phase`` thread posts per phase; returns ``(game, users)``."""
    from gm.core import services

    users = people.users(players)
    with no_publish():
        game, phase = table.db_night(people.master, users, title=f"bench page {players}/{phases}")
        table.submit_orders(game, phase)
        for ordinal in range(phases):
            for k in range(posts_per_phase):
                author = users[(ordinal * posts_per_phase + k) % players]
                try:
                    services.post_create(game=game, user=author, body=f"Post {k} of phase {ordinal}.")
                except services.ServiceError:
                    pass  # the thread is closed in this phase for this player (e.g. at night)
            resolve_open_phase(game)
    game.refresh_from_db()
    return game, users


def game_page(game, viewers: dict[str, Any], *, runs: int) -> dict[str, dict[str, float]]:
    """GET the game page as each of ``viewers`` (name → user, ``None`` for anonymous) ``runs`` times after a
    warm-up, in process with Django's test client, each rendered (the game's stamp moved before it, untimed: not
    the kept page); the query count of the last request and the median time in milliseconds, per viewer."""
    from django.test import Client

    from gm.core.bench import move_stamp

    out = {}
    for name, user in viewers.items():
        client = Client(HTTP_HOST="localhost")
        if user is not None:
            client.force_login(user)
        url = game.get_absolute_url()
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"the game page answered {response.status_code} to {name}")
        samples = []
        for _ in range(runs):
            move_stamp(game.pk)
            connection.queries_log.clear()
            started = time.perf_counter()
            with CaptureQueriesContext(connection) as ctx:
                client.get(url)
            samples.append((time.perf_counter() - started) * 1e3)
        out[name] = {"queries": len(ctx.captured_queries), "median": statistics.median(samples)}
    return out


# -- child processes ------------------------------------------------------------------------------------------


def wait_http(port: int, process, *, timeout: float = 60) -> None:
    """Poll ``GET /`` on ``127.0.0.1:port`` until it answers (any status)."""
    from gm.core.processes import wait_until

    def answers():
        if not process.alive():
            raise RuntimeError(f"{process.name} exited:\n{process.tail()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/")
            conn.getresponse().read()
            conn.close()
            return True
        except OSError:
            return False

    wait_until(answers, timeout=timeout, interval=0.2, message=lambda: f"gunicorn not up:\n{process.tail()}")


# -- 4. order submit latency ----------------------------------------------------------------------------------


def order_submit(people: People, procs, *, clients: int, requests_per_client: int, think_s: float = 1.0,
                 gunicorn_workers: int = 3) -> dict[str, float]:
    """``POST /api/games/<id>/orders/`` latency in milliseconds: gunicorn with ``gunicorn_workers`` sync workers on a
    free loopback port, ``clients`` threads each logged in as a different player (a session cookie and a CSRF
    token, as a browser has) sending his Night order. After one unmeasured request each (the workers' first
    requests load the code), two runs:

    * ``paced`` — all clients at once, each sending ``requests_per_client`` orders with a random pause of 0 to
      2 × ``think_s`` seconds before each (players who change their orders now and then);
    * ``burst`` — all clients at once, each sending ``requests_per_client`` orders back to back (the server saturated:
      the figure is mostly waiting in gunicorn's queue).

    Every answer must be 201 (a failure is counted in ``errors``; its time is still a sample)."""
    seats = []
    with no_publish():
        for g in range(math.ceil(clients / 16)):
            users = people.users(16)
            game, night = table.db_night(people.master, users, title=f"bench orders {g}")
            given = table.orders([s.pk for s in game.seats.order_by("position")])
            for seat in game.seats.select_related("user").order_by("position"):
                seats.append((game.pk, seat.user, {"phase": night.pk, "payload": given[seat.pk]}))
    seats = seats[:clients]
    csrf = secrets.token_hex(16)  # an unmasked 32-character secret: the cookie and the header carry the same value
    jobs = [(game_id, login_session(user), payload) for game_id, user, payload in seats]

    port = free_port()
    server = procs.spawn("gunicorn", ["-m", "gunicorn", "gm.wsgi:application", "--workers", str(gunicorn_workers),
                                      "--bind", f"127.0.0.1:{port}", "--access-logfile", "-",
                                      "--no-control-socket"])  # gunicorn 23+ shares ~/.gunicorn/gunicorn.ctl
    wait_http(port, server)
    errors: list[str] = []
    lock = threading.Lock()

    def submit(conn: http.client.HTTPConnection, path: str, body: str, headers: dict) -> float:
        started = time.perf_counter()
        try:
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            text, status = response.read(), response.status
        except OSError as exc:
            conn.close()
            text, status = str(exc).encode(), 0
        elapsed = (time.perf_counter() - started) * 1e3
        if status != 201:
            with lock:
                errors.append(f"{status}: {text[:200]!r}")
        return elapsed

    def run(*, warm: bool, pause_s: float) -> list[float]:
        samples: list[float] = []
        start = threading.Barrier(len(jobs))

        def client(index: int, game_id: int, session_key: str, payload: dict) -> None:
            rng = random.Random(index)
            path, body = f"/api/games/{game_id}/orders/", json.dumps(payload)  # the phase and the payload
            headers = {"Content-Type": "application/json", "X-CSRFToken": csrf,
                       "Cookie": f"{settings.SESSION_COOKIE_NAME}={session_key}; {settings.CSRF_COOKIE_NAME}={csrf}"}
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            start.wait()
            for _ in range(1 if warm else requests_per_client):
                if pause_s:
                    time.sleep(rng.uniform(0, 2 * pause_s))  # a player's pause, not a wait for a condition
                elapsed = submit(conn, path, body, headers)
                with lock:
                    samples.append(elapsed)
            conn.close()

        threads = [threading.Thread(target=client, args=(i, *job)) for i, job in enumerate(jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return samples

    try:
        run(warm=True, pause_s=0)
        paced = run(warm=False, pause_s=think_s)
        burst = run(warm=False, pause_s=0)
    finally:
        server.stop()
    if errors:
        logging.getLogger("gm.bench").warning("order submit errors: %s (first: %s)", len(errors), errors[0])
    return {"p95": percentile(paced, 0.95), "median": statistics.median(paced), "requests": len(paced) + len(burst),
            "burst_p95": percentile(burst, 0.95), "burst_median": statistics.median(burst), "errors": len(errors)}


# -- 5. deadline lateness -------------------------------------------------------------------------------------


def _schedule(phases) -> None:
    """Publish each phase's deadline task the way the site does (``services.schedule_deadline``, after commit)."""
    from gm.core import services

    with transaction.atomic():
        now = timezone.now()
        for phase in phases:
            services.schedule_deadline(phase, now=now)


def lateness(people: People, procs, *, games: int, window_s: float, workers: int = 2,
             lead_s: float = 5) -> dict[str, float]:
    """``resolved_at − deadline`` of ``games`` 6-player Night 1 phases whose deadlines are spread evenly over
    ``window_s`` seconds starting ``lead_s`` seconds after they are scheduled, resolved by ``workers`` Celery
    worker processes and beat (the sweep every ``GM_SWEEP_INTERVAL`` seconds); seconds."""
    from gm.core.models import Phase
    from gm.core.processes import wait_until

    users = people.users(6)
    with no_publish():
        phases = [table.db_night(people.master, users, title=f"bench lateness {g}")[1] for g in range(games)]
    started = [procs.worker(wait=False) for _ in range(workers)]
    procs.beat()
    procs.wait_ready(*started)
    base = timezone.now() + timedelta(seconds=lead_s)
    step = window_s / max(1, games - 1)
    with transaction.atomic():
        for i, phase in enumerate(phases):
            phase.deadline = phase.base_deadline = base + timedelta(seconds=i * step)
            Phase.objects.filter(pk=phase.pk).update(deadline=phase.deadline, base_deadline=phase.deadline)
    _schedule(phases)
    ids = [p.pk for p in phases]

    def done():
        return not Phase.objects.filter(pk__in=ids).exclude(status=Phase.Status.RESOLVED).exists()

    wait_until(done, timeout=lead_s + window_s + 120, interval=0.5,
               message=lambda: f"phases still unresolved:\n{procs.report(20)}")
    late = [(resolved - deadline).total_seconds() for resolved, deadline in
            Phase.objects.filter(pk__in=ids).values_list("resolved_at", "deadline")]
    for process in started:
        process.stop()
    return {"p99": percentile(late, 0.99), "p50": percentile(late, 0.5), "max": max(late), "games": games}


# -- 6. worker memory -----------------------------------------------------------------------------------------


def worker_rss(people: People, procs, *, resolutions: int, games: int) -> dict[str, float]:
    """Resident memory of one Celery worker process (``--pool=solo``) after it resolved ``resolutions`` phases:
    ``games`` 6-player games whose phases last 0 seconds, so each resolution opens the next phase already due and
    its deadline task follows at once (the result notifications run in the same worker); MiB."""
    from gm.core.models import Game, Phase
    from gm.core.processes import rss_mb, wait_until

    users = people.users(6)
    with no_publish():
        ids = []
        for g in range(games):
            game, phase = table.db_night(people.master, users, title=f"bench memory {g}")
            Game.objects.filter(pk=game.pk).update(durations={"night": 0, "day": 0})
            ids.append(game.pk)
        Phase.objects.filter(game_id__in=ids).update(deadline=timezone.now())
    worker = procs.worker()
    rss_start = rss_mb(worker.pid)
    started = time.monotonic()
    _schedule(Phase.objects.filter(game_id__in=ids, status=Phase.Status.OPEN))

    def count():
        return Phase.objects.filter(game_id__in=ids, status=Phase.Status.RESOLVED).count()

    wait_until(lambda: count() >= resolutions, timeout=60 + resolutions * 0.5, interval=0.5,
               message=lambda: f"{count()} of {resolutions} resolutions:\n{worker.tail()}")
    rss = rss_mb(worker.pid)
    elapsed = time.monotonic() - started
    Game.objects.filter(pk__in=ids).update(paused_at=timezone.now())
    done = count()
    worker.stop()
    return {"rss_mb": rss, "rss_mb_start": rss_start, "resolutions": done, "per_second": done / elapsed}


# -- issue 25: against the floors --------------------------------------------------------------------------------


def against_floors(people: People, sizes: Sizes, progress: Callable[[str], None],
                   out: dict[str, float] | None = None) -> dict[str, float]:
    """Issue 25's figures, each interleaved with its floor in this run (:mod:`gm.modules.forum_mafia.bench.floors`):
    every registered module's resolution against the database floor, forum Mafia's growth from 8 to 40 players,
    the game page's growth with posts, phases and rooms, and a big game's page, against a bare view.
    ``resolution_16p_ms_median`` becomes the interleaved figure (the one the floor ratio is taken of). Added to
    ``out`` (a new dict if ``None``) part by part, and returned."""
    from gm.core import registry

    from . import floors

    out = {} if out is None else out
    slugs = sorted(m.slug for m in registry.all_modules())
    progress(f"resolutions against the database floor ({', '.join(slugs)}), {sizes.floor_runs} runs")
    res = floors.resolutions(people, runs=sizes.floor_runs, slugs=slugs)
    out |= res
    out["resolution_16p_ms_median"] = res["resolution_ms_median_forum_mafia"]
    progress(f"resolution growth {sizes.growth_players} players")
    out |= floors.resolution_growth(people, runs=sizes.growth_runs, sizes=sizes.growth_players)
    progress("page growth with posts, phases and rooms, against a bare view")
    out |= floors.page_growth(people, runs=sizes.page_floor_runs, posts=sizes.page_posts,
                              phases=sizes.page_phase_counts, rooms=sizes.page_rooms)
    phases, posts, private, rooms = sizes.big_page
    progress(f"big game page ({phases} phases, {posts} posts, {private} private messages, {rooms} rooms)")
    out |= floors.big_page(people, runs=sizes.page_floor_runs, phases=phases, posts=posts, private=private,
                           rooms=rooms)
    return out


# -- all of them ----------------------------------------------------------------------------------------------


def balance_report(*, games: int, players: int = 16) -> dict[str, float]:
    """The balance report of issue 24 item 4 (``gm.core.balance``) for forum Mafia's ``players``-player default:
    ``games`` seeded bot games on the pure engine, in one process per CPU (``workers``). Returns the wall-clock
    ``seconds``, the CPU seconds of this process and its workers (``cpu_seconds``: what one CPU alone would need),
    ``games`` and ``workers``. No database."""
    import os
    import resource

    from gm.core import balance, registry

    workers = os.cpu_count() or 1
    request = balance.check_request(module=registry.get("forum_mafia"), slug="forum_mafia", players=players,
                                    games=games, seed=1)

    def cpu() -> float:
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    began, cpu_began = time.monotonic(), cpu()
    report = balance.estimate(request, workers=workers)
    return {"seconds": time.monotonic() - began, "cpu_seconds": cpu() - cpu_began, "games": report["games"],
            "workers": workers}


def run_all(*, sizes: Sizes, procs, progress: Callable[[str], None] = lambda text: None,
            long: bool = False, out: dict[str, float] | None = None) -> dict[str, float]:
    """Every figure of ``manage.py gm_bench`` on the connected (scratch) database; the keys of the issue plus a few
    more (all numbers). ``long``: also issue 25's long figures (:func:`gm.modules.forum_mafia.bench.scale.run_long`,
    tiny when ``sizes`` is :data:`QUICK`). ``out``: a dict the figures are added to as each part finishes, so a
    caller still holds the finished parts' figures when a later part fails or the run is interrupted."""
    began = time.monotonic()
    people = People()
    out = {} if out is None else out
    out["quick"] = int(sizes != FULL)

    progress("pure engine, 16-player night")
    engine = engine_night(players=16, runs=sizes.engine_runs)
    out |= {"engine_16p_night_ms_median": engine["median"], "engine_16p_night_ms_p95": engine["p95"]}

    progress(f"balance report, forum Mafia 16 players, {sizes.balance_games} games")
    report = balance_report(games=sizes.balance_games)
    out |= {"balance_1000_fm16_s": report["seconds"], "balance_1000_fm16_cpu_s": report["cpu_seconds"],
            "balance_games": report["games"], "balance_workers": report["workers"]}

    for players in (16, 6):
        progress(f"whole resolution, {players} players")
        res = resolution(people, players=players, phases=sizes.resolution_phases)
        out |= {f"resolution_{players}p_ms_median": res["median"], f"resolution_{players}p_ms_p95": res["p95"],
                f"resolution_{players}p_queries": res["queries"],
                f"resolution_{players}p_in_transaction_ms_median": res["in_transaction_median"]}

    from gm.core import registry

    for module in registry.all_modules():  # the other games' own figures, next to these (GameModule.bench_figures)
        progress(f"{module.slug}: its own figures")
        with no_publish():
            out |= module.bench_figures(master=people.master, quick=sizes != FULL)

    progress(f"game page, 16 players after {sizes.page_phases} phases")
    game, users = long_game(people, players=16, phases=sizes.page_phases)
    page = game_page(game, {"player": users[0], "master": people.master, "spectator": people.users(1)[0]},
                     runs=sizes.page_runs)
    for viewer, figures in page.items():
        out |= {f"game_page_queries_{viewer}": figures["queries"], f"game_page_ms_median_{viewer}": figures["median"]}

    out["resolution_16p_ms_median_alone"] = out["resolution_16p_ms_median"]  # before issue 25: not interleaved
    against_floors(people, sizes, progress, out)

    progress(f"order submit, {sizes.clients} clients against gunicorn")
    orders = order_submit(people, procs, clients=sizes.clients, requests_per_client=sizes.requests_per_client,
                          think_s=sizes.think_s)
    out |= {"order_submit_p95_ms": orders["p95"], "order_submit_median_ms": orders["median"],
            "order_submit_burst_p95_ms": orders["burst_p95"], "order_submit_burst_median_ms": orders["burst_median"],
            "order_submit_requests": orders["requests"], "order_submit_errors": orders["errors"]}

    progress(f"deadline lateness, {sizes.lateness_games} games, 2 workers + beat")
    late = lateness(people, procs, games=sizes.lateness_games, window_s=sizes.lateness_window_s)
    out |= {"sweep_interval_s": float(settings.GM_SWEEP_INTERVAL), "lateness_p99_s": late["p99"],
            "lateness_p50_s": late["p50"], "lateness_max_s": late["max"], "lateness_games": late["games"]}
    procs.stop_all()  # beat too: the memory figure has its worker to itself

    progress(f"worker memory after {sizes.rss_resolutions} resolutions")
    rss = worker_rss(people, procs, resolutions=sizes.rss_resolutions, games=sizes.rss_games)
    out |= {"worker_rss_mb_after_1000": rss["rss_mb"], "worker_rss_mb_start": rss["rss_mb_start"],
            "worker_resolutions": rss["resolutions"], "worker_resolutions_per_s": rss["per_second"]}
    if long:
        from . import scale

        procs.stop_all()
        scale.run_long(people, procs, quick=sizes != FULL, progress=progress, out=out)
    out["total_s"] = time.monotonic() - began
    return rounded(out)


def rounded(figures: dict[str, float]) -> dict[str, float]:
    """``figures`` with its floats rounded to 3 decimals (what ``gm_bench`` prints)."""
    return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in figures.items()}
