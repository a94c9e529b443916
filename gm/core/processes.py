"""Child processes for tools and real-worker tests: ``celery worker`` / ``celery beat`` subprocesses (each in its
own process group, output in a log file) and a bounded poll.

Used by ``manage.py gm_bench`` (:mod:`gm.modules.forum_mafia.bench`) and the real-worker tests
(``tests/integration/worker_utils.py``). Nothing here runs in the web or worker processes themselves.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings


def rss_mb(pid: int) -> float:
    """Resident set size of process ``pid`` in MiB (Linux ``/proc/<pid>/status``, ``VmRSS``)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise OSError(f"no VmRSS for process {pid}")


class WaitTimeout(AssertionError, TimeoutError):
    """:func:`wait_until` gave up: an ``AssertionError`` for tests, a ``TimeoutError`` for tools (playtest)."""


def wait_until(predicate: Callable[[], Any], *, timeout: float, interval: float = 0.05,
               message: Callable[[], str] | str = "condition not met") -> Any:
    """Poll ``predicate`` until it returns something truthy (returned) or raise :class:`WaitTimeout` after
    ``timeout`` seconds (the message says what was awaited)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            text = message() if callable(message) else message
            raise WaitTimeout(f"timed out after {timeout:.1f}s: {text}")
        time.sleep(interval)


def free_port() -> int:
    """A TCP port nobody listens on at 127.0.0.1 right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ChildProcess:
    """What every child process of ours offers, given ``proc`` (a ``subprocess.Popen`` started with
    ``start_new_session=True``, or ``None`` before it starts), ``log_path`` and ``_log_file`` (its open output file):
    liveness, its output, SIGKILL and a warm stop of its whole process group."""

    proc: subprocess.Popen | None
    log_path: Path
    _log_file: Any

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def tail(self, lines: int = 60) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL the whole process group (a dead worker: no shutdown, no ack, no rollback message)."""
        if self.alive():
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.proc is not None:
            self.proc.wait(timeout=10)
        self._close_log()

    def terminate(self) -> None:
        """Start a warm shutdown: SIGTERM to the process group. Send it once: a second SIGTERM during the shutdown
        kept a Celery worker alive until :meth:`stop`'s 15 s SIGKILL in the tests."""
        if self.alive():
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def stop(self, timeout: float = 15, *, terminated: bool = False) -> None:
        """Warm shutdown (SIGTERM, unless ``terminated``: :meth:`terminate` sent it already), then SIGKILL if it
        does not exit within ``timeout`` seconds."""
        if self.alive():
            if not terminated:
                self.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close_log()

    def _close_log(self) -> None:
        if self._log_file is not None and not self._log_file.closed:
            self._log_file.close()


@dataclass
class CeleryProcess(ChildProcess):
    """One ``celery`` subprocess (its own process group) with its output in ``log_path``."""

    name: str
    nodename: str
    proc: subprocess.Popen
    log_path: Path
    _log_file: Any = field(repr=False, default=None)


class CeleryProcesses:
    """Starts workers and beat for one test and stops all of them at teardown."""

    def __init__(self, *, log_dir: Path, queue: str, env: Mapping[str, str]):
        self.log_dir = log_dir
        self.queue = queue
        self.env = dict(env)
        self.started: list[CeleryProcess] = []
        self._counter = 0

    def spawn(self, name: str, args: list[str], extra_env: Mapping[str, str] | None = None,
              nodename: str = "") -> CeleryProcess:
        """``python <args>`` (this interpreter) as a child in its own process group, output in ``<name>.log``;
        stopped with the others by :meth:`stop_all`."""
        env = {**self.env, **(extra_env or {})}
        log_path = self.log_dir / f"{name}.log"
        log_file = open(log_path, "ab")  # noqa: SIM115 - closed by CeleryProcess.stop/kill
        proc = subprocess.Popen(
            [sys.executable, *args],
            cwd=settings.BASE_DIR, env=env, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        process = CeleryProcess(name=name, nodename=nodename or name, proc=proc, log_path=log_path,
                                _log_file=log_file)
        self.started.append(process)
        return process

    def _spawn(self, name: str, nodename: str, args: list[str], extra_env: Mapping[str, str] | None) -> CeleryProcess:
        return self.spawn(name, ["-m", "celery", "-A", "gm", *args], extra_env, nodename)

    def worker(self, *, extra_env: Mapping[str, str] | None = None, wait: bool = True) -> CeleryProcess:
        """A ``--pool=solo`` worker consuming only this session's queue (no mingle/gossip/heartbeat, so it never
        talks to other workers on the same Redis)."""
        self._counter += 1
        name = f"w{self._counter}-{os.getpid()}"
        nodename = f"{name}@{socket.gethostname()}"
        process = self._spawn(
            name, nodename,
            ["worker", "--pool=solo", "-l", "info", "-Q", self.queue, "-n", f"{name}@%h",
             "--without-mingle", "--without-gossip", "--without-heartbeat"],
            extra_env,
        )
        if wait:
            self.wait_ready(process)
        return process

    def beat(self, *, extra_env: Mapping[str, str] | None = None) -> CeleryProcess:
        """``celery beat`` with the DatabaseScheduler (settings) on the test database; schedules the sweep."""
        self._counter += 1
        name = f"beat{self._counter}-{os.getpid()}"
        return self._spawn(
            name, name,
            ["beat", "-l", "info", "--max-interval", "1", "-s", str(self.log_dir / f"{name}-schedule")],
            extra_env,
        )

    def wait_ready(self, *processes: CeleryProcess, timeout: float = 45) -> None:
        for process in processes:
            def ready(process=process):
                if not process.alive():
                    raise AssertionError(f"{process.name} exited with {process.proc.returncode}:\n{process.tail()}")
                return f"{process.nodename} ready." in process.log()

            wait_until(ready, timeout=timeout, interval=0.1,
                       message=lambda process=process: f"{process.name} not ready:\n{process.tail()}")

    def stop_all(self) -> None:
        """Warm shutdown of every process started, newest first: SIGTERM to all of them at once, then wait for
        each (:meth:`ChildProcess.stop`), so that a test with a beat and four workers waits for the slowest one,
        not for the sum of their shutdowns (about a second each)."""
        for process in reversed(self.started):
            process.terminate()
        for process in reversed(self.started):
            process.stop(terminated=True)

    def report(self, lines: int = 80) -> str:
        return "\n".join(f"===== {p.name} (pid {p.pid}, rc {p.proc.returncode}) log tail =====\n{p.tail(lines)}"
                         for p in self.started)




# -- broker (Redis) ---------------------------------------------------------------------------------------------


def queue_keys(queue: str) -> list[str]:
    """The Redis list keys kombu uses for ``queue`` (one per priority step)."""
    from kombu.transport.redis import PRIORITY_STEPS, Channel

    return [queue] + [f"{queue}{Channel.sep}{step}" for step in PRIORITY_STEPS if step]


def redis_client():
    """A client of the Redis database the Celery broker URL names."""
    import redis

    return redis.Redis.from_url(settings.CELERY_BROKER_URL)


def queue_length(queue: str) -> int:
    """How many messages wait in ``queue`` (Redis broker)."""
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
    """When done with ``queue`` (Redis broker): purge it and drop the exchange binding tables kombu keeps for it."""
    from kombu.transport.redis import Channel

    purge_queue(queue)
    client = redis_client()
    try:
        client.delete(Channel.keyprefix_queue % queue, Channel.keyprefix_binding_permanent % queue)
    finally:
        client.close()



def database_url(alias: str = "default") -> str:
    """``DATABASE_URL`` of the database this process is connected to (after a test or scratch database was swapped
    in), for the child processes."""
    from urllib.parse import quote

    from django.db import connections

    sd = connections[alias].settings_dict
    user = quote(sd.get("USER") or "", safe="")
    password = quote(sd.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = sd.get("HOST") or "127.0.0.1"
    port = f":{sd['PORT']}" if sd.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(sd['NAME'], safe='')}"
