"""``manage.py gm_playtest --game SLUG --players N --seed S --deadline SECONDS`` — play games of any registered module
(default ``forum_mafia``) with bot players to the end through the site's HTTP interface (see
:mod:`gm.core.playtest`; the module's bots come from its ``GameModule.bot_policy``).

By default it starts its own web server (gunicorn), Celery worker and Celery beat on the database and broker of the
settings (``DATABASE_URL``, ``CELERY_BROKER_URL``), with a queue of its own so that no other worker takes its
messages, and stops them at the end. ``--base-url URL`` plays against a stack that is already running instead (it
must use the same database; its worker and beat resolve the deadlines).

``--seeds 1-20`` plays one game per seed (the nightly run: ``bin/playtest-nightly``). ``--kill-worker K`` SIGKILLs
the worker K times in all, each time while a phase is being resolved, and starts a new one. ``--redis-outage
SECONDS`` runs the stack on a private ``redis-server`` and stops it for that long during the second phase (forum
Mafia's first night). ``--flaky-players N``: N bots go quiet after the first phase; the site prods them and flags
their seats, standby bots volunteer from the standby board and the master approves them (issue 23). ``--all-ready``:
the game's "done" button is on and the bots press it after each phase they played, so phases end early.

Prints per game: phases, deaths per phase, winner, resolution time per phase, refused requests by reason, and the
exactly-once checks. Exit status 0 when every game ended with a winner and every check held, 1 otherwise.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


def seed_list(value: str) -> list[int]:
    """``"7"`` → ``[7]``; ``"1-20"`` → 1…20; ``"1,5,9"`` → those."""
    seeds: list[int] = []
    for part in value.split(","):
        first, _, last = part.strip().partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise CommandError(f"Seeds are numbers or ranges like 1-20, not {part!r}.")
        seeds += list(range(int(first), int(last or first) + 1))
    return seeds


class Command(BaseCommand):
    help = "Play games with bot players over HTTP against a web server, worker and beat; print a summary."

    def add_arguments(self, parser):
        parser.add_argument("--game", default="forum_mafia",
                            help="the game module's slug (default forum_mafia)")
        parser.add_argument("--players", type=int,
                            help="bot players per game (forum Mafia 5–40, default 10; else the game's range)")
        parser.add_argument("--seed", type=int, default=1, help="the game's RNG seed and the bots' (default 1)")
        parser.add_argument("--seeds", help="several games, e.g. 1-20 (overrides --seed)")
        parser.add_argument("--deadline", type=float, default=3.0,
                            help="seconds a phase lasts (forum Mafia: each night and day; deck building lasts twice "
                                 "that) (default 3)")
        parser.add_argument("--base-url", help="play against this running site instead of starting one")
        parser.add_argument("--phase-cap", type=int, default=None,
                            help="a game still running after this many phases is a failure (default: the game's "
                                 "bot policy's phase_cap, 60 unless it says otherwise)")
        parser.add_argument("--kill-worker", type=int, default=0, metavar="K",
                            help="SIGKILL the worker K times in all, each time during a resolution")
        parser.add_argument("--redis-outage", type=float, default=0, metavar="SECONDS",
                            help="run on a private redis-server and stop it this long during the first night")
        parser.add_argument("--log-dir", help="where the spawned processes' logs go (default: a temporary dir)")
        parser.add_argument("--flaky-players", type=int, default=0, metavar="N",
                            help="N bots go quiet after the first phase: prodded, flagged and replaced by standby "
                                 "bots (issue 23; an activity-option hour lasts one deadline)")
        parser.add_argument("--all-ready", action="store_true",
                            help="the game's \"done\" button is on and each bot presses it once it has played a "
                                 "phase, which then ends when every actor is done (issue 23), not at its deadline")

    def handle(self, *args, game: str, players: int | None, seed: int, seeds: str | None, deadline: float,
               base_url: str | None, phase_cap: int | None, kill_worker: int, redis_outage: float, log_dir: str | None,
               verbosity: int = 1, flaky_players: int = 0, all_ready: bool = False, **options):
        from gm.core import registry
        from gm.core.playtest.runner import WorkerKiller, play_game, policy_for
        from gm.core.playtest.stack import PrivateRedis, Stack

        try:
            policy = policy_for(game)
        except registry.UnknownModule:
            known = ", ".join(m.slug for m in registry.all_modules() if m.bot_policy() is not None)
            raise CommandError(f"Unknown game {game!r}; games with bots: {known}.") from None
        except LookupError as exc:
            raise CommandError(f"No bots: {exc}.") from None
        players = policy.default_players if players is None else players
        phase_cap = policy.phase_cap if phase_cap is None else phase_cap
        if not policy.min_players <= players <= policy.max_players:
            raise CommandError(f"--players must be between {policy.min_players} and {policy.max_players}.")
        from gm.core.playtest.policy import Policy

        if all_ready and type(policy).dispatch is not Policy.dispatch:
            raise CommandError(f"--all-ready needs bots that use the generic dispatch; {game}'s have their own.")
        if deadline < 1:
            raise CommandError("--deadline must be at least 1 second.")
        if base_url and (kill_worker or redis_outage):
            raise CommandError("--kill-worker and --redis-outage need the processes this command starts "
                               "(leave out --base-url).")
        games = seed_list(seeds) if seeds else [seed]
        logs = Path(log_dir or tempfile.mkdtemp(prefix="gm-playtest-"))
        logs.mkdir(parents=True, exist_ok=True)
        say = self.stdout.write if verbosity > 1 else (lambda s: None)

        stack = redis = killer = None
        game_ids: list[int] = []
        previous_queue = None
        try:
            if not base_url:
                env = {"GM_ACTIVITY_HOUR": str(deadline)} if flaky_players else {}
                if redis_outage:
                    redis = PrivateRedis(logs).start()
                    env["CELERY_BROKER_URL"] = redis.url
                    self._use_broker(redis.url)
                stack = Stack(env=env, queue=f"gm-playtest-{os.getpid()}", log_dir=logs,
                              resolving_timeout=3 if kill_worker else 30)
                previous_queue = self._route_to(stack.queue)
                self.stdout.write(f"Starting web, worker and beat (logs in {logs}) …")
                stack.start()
                # Its own stack has just started: a stale sweep mark left by an earlier run on this database is no
                # outage of these games, and would shift the first game's deadlines by the gap (issue 23).
                from gm.core.services.outage import sweep_succeeded

                sweep_succeeded()
                if redis_outage:
                    stack.supervise()  # the worker exits when it loses Redis: restart it, as production does
                base_url = stack.base_url
                if kill_worker:
                    killer = WorkerKiller(stack, limit=kill_worker, game_ids=lambda: game_ids[-1:])
                    killer.start()
            outage = None
            if redis_outage:
                outage = (2, redis_outage, redis.stop, redis.start)  # ordinal 2: Night 1
            reports = []
            started = time.monotonic()
            for number in games:
                report = play_game(game=game, base_url=base_url, players=players, seed=number, deadline=deadline,
                                   phase_cap=phase_cap, log=say, on_game=game_ids.append, killer=killer,
                                   outage=outage, resolve_timeout=60 + (30 if kill_worker else 0),
                                   flaky=flaky_players, all_ready=all_ready)
                reports.append(report)
                for line in report.lines():
                    self.stdout.write(line)
                self.stdout.write("")
            if killer is not None:
                killer.stop()
                if killer.errors:
                    reports[-1].failures += [f"worker killer: {e}" for e in killer.errors]
                self.stdout.write(f"Worker SIGKILLed {killer.kills} times, each while a phase was resolving.")
            if redis_outage:
                self.stdout.write(f"Restarted after they exited (during the outage): {stack.restarts}.")
        finally:
            if killer is not None:
                killer.stop()
            if stack is not None:
                stack.stop()
                self._forget_queue(stack.queue)
                if previous_queue is not None:
                    self._route_to(previous_queue)
            if redis is not None:
                redis.stop()
        failed = [r for r in reports if not r.ok]
        total = time.monotonic() - started
        phases = sum(len(r.phases) for r in reports)
        self.stdout.write(f"{len(reports)} games, {phases} phases in {total:.0f}s: {len(reports) - len(failed)} ended "
                          f"with a winner and passed every check, {len(failed)} failed"
                          + (f" (seeds {', '.join(str(r.seed) for r in failed)})" if failed else "") + ".")
        if failed:
            raise SystemExit(1)

    @staticmethod
    def _route_to(queue: str) -> str:
        """Publish this process's tasks (the deadline of the phase ``game_start`` opens) to ``queue``; returns the
        queue used before."""
        from gm.celery import app

        previous = app.conf.task_default_queue
        settings.CELERY_TASK_DEFAULT_QUEUE = queue
        app.conf.task_default_queue = queue
        return previous

    @staticmethod
    def _use_broker(url: str) -> None:
        from gm.celery import app

        settings.CELERY_BROKER_URL = url
        app.conf.broker_url = url

    @staticmethod
    def _forget_queue(queue: str) -> None:
        """Drop the playtest's queue from the broker (best effort: a broker that is down is no error here)."""
        from gm.celery import app

        try:
            with app.connection_for_write() as connection:
                connection.default_channel.queue_delete(queue)
        except Exception:  # noqa: BLE001 - cleanup only
            pass
