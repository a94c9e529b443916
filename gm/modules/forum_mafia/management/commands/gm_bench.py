"""``manage.py gm_bench [--json] [--quick] [--long] [--keep-logs]`` — the forum Mafia benchmarks (issues 9, 25)
on PostgreSQL.

Figures (medians and p95 over repeated runs; see :mod:`gm.modules.forum_mafia.bench.figures`):

* the pure engine on a 16-player night where everybody plays two cards;
* a whole resolution (``services.phase_resolve``: lock, load, engine, write, open the next phase, COMMIT) with 16
  and 6 players, and its query count;
* the game page for a player, the master and a spectator of a 16-player game after 20 phases: queries and time;
* order submit latency: 50 logged-in clients (threads) against gunicorn with 3 workers on a free loopback port,
  paced (each pauses 0–2 s before each order) and in a burst (back to back: the server saturated);
* deadline lateness ``resolved_at − deadline``: 500 games due within one minute, 2 Celery workers + beat;
* the resident memory of a worker process after 1,000 resolutions;
* every other game module's own figures and goals (``GameModule.bench_figures``/``bench_goals_missed``): Blood
  Vengeance's 20-player night resolution against the 16-player forum Mafia one above (issue 21).
* the balance report (issue 24 item 4): 1,000 bot games of forum Mafia's 16-player default on the pure engine, one
  process per CPU (``balance_1000_fm16_s`` wall clock, ``balance_1000_fm16_cpu_s`` CPU seconds in all; ``--quick``
  plays 20).
* issue 25, each against a floor measured in the same run, interleaved (:mod:`~gm.modules.forum_mafia.bench.floors`):
  every module's resolution against the raw-SQL database floor of its write shape (``pg_floor_ms``,
  ``resolution_floor_ratio_<slug>``), forum Mafia from 8 to 40 players, the game page at 100 to 10,000 posts, 10 and
  60 phases, 0 and 40 rooms and on a big game against a bare authenticated view (``page_floor_ms``);
* with ``--long`` (:mod:`~gm.modules.forum_mafia.bench.scale`): 5,000 games on time with 4 workers, worker scaling
  1 → 4, 200 clients submitting orders against the same gunicorn's bare view, a worker's memory from 1,000 to 10,000
  resolutions.

The command never touches the site's data: it creates a scratch database next to the configured one (its name
plus ``_gm_bench``; one left by an interrupted run is dropped first), migrates it, runs everything there (the child
processes too, on a Celery queue of their own) and drops it at the end. It refuses to run on anything but
PostgreSQL. The full run takes a few minutes; ``--quick`` runs every part with tiny sizes (seconds; the test suite
uses it). Timings depend on the machine and its load: compare figures taken on the same machine.

Exit status 0 with the figures on stdout (``--json``: one JSON object whose values are all numbers); 1 when a part
fails (the message and the tails of the child processes' logs on stderr; the scratch database is dropped all the
same); 2 with a message on stderr when the database is not PostgreSQL or the broker is in-memory (nothing is run).
As each part finishes, its new or changed figures go to stderr as one line ``gm_bench: figures {…}`` (both modes),
so a run that fails or is interrupted late keeps what its finished parts measured.
"""
from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import override_settings

#: The goals of issue 9 item 3: key, bound, and whether the figure must stay at or below it.
GOALS = {
    "engine_16p_night_ms_median": 1.0,
    "resolution_16p_ms_median": 15.0,
    "order_submit_p95_ms": 100.0,
    "game_page_queries_player": 15,
    "game_page_queries_master": 15,
    "game_page_queries_spectator": 15,
    "worker_rss_mb_after_1000": 200.0,
    "balance_1000_fm16_s": 60.0,  # issue 24 item 4: 1,000 bot games of the 16-player default in under a minute
}

#: Issue 25's goals, each a ratio against a floor of the same run: key → the bound it must stay at or below.
RATIO_GOALS = {
    "resolution_16p_floor_ratio": 2.0,
    "resolution_growth_40_over_8": 2.0,
    "page_growth_10000_over_100": 1.3,
    "game_page_big_floor_ratio_player": 4.0,
    "game_page_big_floor_ratio_master": 6.0,
    "game_page_big_floor_ratio_spectator": 3.0,
    "game_page_big_queries_player": 15,
    "game_page_big_queries_master": 15,
    "game_page_big_queries_spectator": 15,
}
#: … and those that must stay at or above (``--long`` only).
RATIO_FLOORS = {"worker_scaling_4_over_1": 3.5, "order_submit_rps_over_bare": 0.5}


def goals_missed(figures: dict) -> list[str]:
    """The goals ``figures`` misses, in words (empty when every goal is met)."""
    missed = [f"{key} = {figures[key]} > {bound}" for key, bound in GOALS.items() if figures[key] > bound]
    if figures["resolution_16p_queries"] != figures["resolution_6p_queries"]:
        missed.append(f"resolution queries 16 players ({figures['resolution_16p_queries']}) != 6 players "
                      f"({figures['resolution_6p_queries']})")
    if figures["lateness_p99_s"] > figures["sweep_interval_s"] + 1:
        missed.append(f"lateness_p99_s = {figures['lateness_p99_s']} > sweep interval + 1 s")
    from gm.core import registry

    for module in registry.all_modules():  # every game's own goals (GameModule.bench_goals_missed)
        missed.extend(module.bench_goals_missed(figures))
    for key, bound in RATIO_GOALS.items():  # issue 25: ratios against floors measured in the same run
        if key in figures and figures[key] > bound:
            missed.append(f"{key} = {figures[key]} > {bound}")
    for key, bound in RATIO_FLOORS.items():
        if key in figures and figures[key] < bound:
            missed.append(f"{key} = {figures[key]} < {bound}")
    return missed


class Command(BaseCommand):
    help = "Forum Mafia benchmarks on a scratch PostgreSQL database (engine, resolution, page, orders, deadlines, RSS)."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", dest="as_json", help="print one JSON object")
        parser.add_argument("--quick", action="store_true", help="tiny sizes: checks the machinery, not the speed")
        parser.add_argument("--long", action="store_true",
                            help="also issue 25's long figures: 5,000 games on time with 4 workers, worker scaling, "
                                 "200 clients against gunicorn, worker memory from 1,000 to 10,000 resolutions "
                                 "(about 20 minutes; with --quick in tiny sizes)")
        parser.add_argument("--keep-logs", action="store_true",
                            help="keep the child processes' logs (their directory is printed on stderr)")

    def handle(self, *args, as_json: bool = False, quick: bool = False, keep_logs: bool = False, long: bool = False,
               **options):
        from ...bench import figures

        if connection.vendor != "postgresql":
            raise CommandError(f"gm_bench needs PostgreSQL (set DATABASE_URL=postgres://...); the database is "
                               f"{connection.vendor}. Nothing was run.", returncode=2)
        if str(settings.CELERY_BROKER_URL).startswith("memory"):
            raise CommandError("gm_bench needs a broker its worker processes can reach (CELERY_BROKER_URL, e.g. "
                               "redis://127.0.0.1:6379/0); memory:// is private to one process.", returncode=2)
        sizes = figures.QUICK if quick else figures.FULL
        taken: dict = {}  # filled part by part (figures.run_all's ``out``)
        reported: dict = {}

        def report_taken() -> None:
            # On stderr in both modes: a long run that fails or is interrupted late still leaves its finished parts'
            # figures in the log (stdout keeps the one JSON object of a finished run). A figure a later part
            # replaces (the interleaved resolution median) is reported again.
            new = {k: v for k, v in figures.rounded(taken).items() if reported.get(k, reported) != v}
            if new:
                self.stderr.write("gm_bench: figures " + json.dumps(new, sort_keys=True))
                reported.update(new)

        def progress(text: str) -> None:
            report_taken()
            if not as_json:
                self.stderr.write(f"gm_bench: {text}")

        quiet = logging.getLogger("gm")
        level = quiet.level
        quiet.setLevel(logging.WARNING)  # the resolution's log line, once per phase, is not the output
        try:
            # The site as it runs in production: without DEBUG's query log and template debugging, which cost a
            # page or a resolution more than some of the figures' floors (the child processes get DEBUG=false).
            with override_settings(DEBUG=False):
                results = self._run(sizes, progress, keep_logs, long=long, out=taken)
        finally:
            quiet.setLevel(level)
            report_taken()
        if as_json:
            self.stdout.write(json.dumps(results, sort_keys=True))
            return
        width = max(map(len, results))
        for key, value in results.items():
            bound = GOALS.get(key, RATIO_GOALS.get(key))
            goal = (f"  (goal ≤ {bound})" if bound is not None else
                    f"  (goal ≥ {RATIO_FLOORS[key]})" if key in RATIO_FLOORS else "")
            self.stdout.write(f"{key:<{width}}  {value}{goal}")
        missed = goals_missed(results)
        self.stdout.write("goals missed: " + ("; ".join(missed) if missed else "none"))

    def _run(self, sizes, progress, keep_logs: bool, *, long: bool = False, out: dict | None = None) -> dict:
        from gm.core.processes import CeleryProcesses, database_url

        from ...bench import figures

        creation = connection.creation
        site_name = connection.settings_dict["NAME"]
        connection.settings_dict.setdefault("TEST", {})["NAME"] = f"{site_name}_gm_bench"
        progress(f"creating the scratch database {site_name}_gm_bench")
        creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        queue = f"gm-bench-{os.getpid()}"
        log_dir = Path(tempfile.mkdtemp(prefix="gm_bench-"))
        env = {**os.environ, "DATABASE_URL": database_url(), "CELERY_TASK_DEFAULT_QUEUE": queue,
               "DJANGO_SETTINGS_MODULE": "gm.settings", "DEBUG": "false", "LOG_LEVEL": "WARNING"}
        procs = CeleryProcesses(log_dir=log_dir, queue=queue, env=env)
        from gm.celery import app

        previous_queue = app.conf.task_default_queue
        app.conf.task_default_queue = queue
        try:
            return figures.run_all(sizes=sizes, procs=procs, progress=progress, long=long, out=out)
        except Exception as exc:
            raise CommandError(f"gm_bench failed: {exc}\n{procs.report(30)}") from exc
        finally:
            procs.stop_all()
            app.conf.task_default_queue = previous_queue
            _forget_queue(app, queue)
            connection.close()
            creation.destroy_test_db(site_name, verbosity=0)
            if keep_logs:
                self.stderr.write(f"gm_bench: logs in {log_dir}")
            else:
                for path in log_dir.iterdir():
                    path.unlink()
                log_dir.rmdir()


def _forget_queue(app, queue: str) -> None:
    """Drop the run's queue and whatever still waits in it or in the broker's unacknowledged set (the deadline
    tasks of the scratch games the stopped workers held)."""
    from gm.core.processes import forget_queue

    try:
        if str(settings.CELERY_BROKER_URL).startswith(("redis", "rediss")):
            forget_queue(queue)
        else:
            with app.connection_for_write() as conn:
                conn.default_channel.queue_purge(queue)
                conn.default_channel.queue_delete(queue)
    except Exception as exc:  # noqa: BLE001 - a leftover queue is harmless; the figures are already taken
        logging.getLogger("gm.bench").warning("could not delete the queue %s: %s", queue, exc)
