"""The processes a playtest runs against: a web server (gunicorn), a Celery worker and Celery beat, started as
subprocesses of the calling process with their own queue, and helpers for private Redis and PostgreSQL servers
(the fault tests stop and restart those, never the shared ones).

Everything here is plumbing for :mod:`.runner` and the playtest tests; no game rules.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..processes import ChildProcess, free_port, wait_until  # noqa: F401 - re-exported

REPO_ROOT = Path(__file__).resolve().parents[3]


@dataclass
class Process(ChildProcess):
    """One subprocess in its own process group, its output in ``log_path``; :meth:`start` starts it."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log_path: Path
    proc: subprocess.Popen | None = None
    _log_file: Any = field(default=None, repr=False)

    def start(self) -> Process:
        self._log_file = open(self.log_path, "ab")  # noqa: SIM115 - closed by stop/kill
        self.proc = subprocess.Popen(self.argv, cwd=REPO_ROOT, env=self.env, stdout=self._log_file,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        return self


class Stack:
    """gunicorn + ``celery worker`` + ``celery beat`` on the database and broker of ``env`` (``DATABASE_URL``,
    ``CELERY_BROKER_URL``; ``DJANGO_SETTINGS_MODULE`` too), consuming and publishing on ``queue`` only, so other
    workers on the same Redis database never see these messages. ``base_url`` is the web server's address.

    The beat sweep runs every ``sweep_interval`` seconds; a phase left ``resolving`` by a dead worker is reclaimed
    after ``resolving_timeout`` seconds."""

    def __init__(self, *, env: Mapping[str, str], queue: str, log_dir: Path | None = None, sweep_interval: int = 1,
                 resolving_timeout: int = 5, web_workers: int = 2, web_threads: int = 8):
        self.queue = queue
        self.log_dir = Path(log_dir or tempfile.mkdtemp(prefix="gm-playtest-"))
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.web_workers, self.web_threads = web_workers, web_threads
        self.env = {**os.environ, **env, "CELERY_TASK_DEFAULT_QUEUE": queue,
                    "GM_SWEEP_INTERVAL": str(sweep_interval), "GM_RESOLVING_TIMEOUT": str(resolving_timeout),
                    "GM_OVERDUE_AFTER": "3600", "GM_ACTIVITY_INTERVAL": "1", "PYTHONUNBUFFERED": "1"}
        self.web: Process | None = None
        self.worker: Process | None = None
        self.beat: Process | None = None
        self.workers_started = 0
        self.restarts: dict[str, int] = {"worker": 0, "beat": 0}  # by :meth:`supervise`
        self._stopping = threading.Event()

    def _process(self, name: str, args: list[str], env: Mapping[str, str] | None = None) -> Process:
        return Process(name=name, argv=[sys.executable, *args], env={**self.env, **(env or {})},
                       log_path=self.log_dir / f"{name}.log")

    def start(self) -> Stack:
        self.start_web()
        self.start_worker()
        self.start_beat()
        return self

    def start_web(self, env: Mapping[str, str] | None = None) -> Process:
        # --no-control-socket: gunicorn 23+ opens ~/.gunicorn/gunicorn.ctl by default, shared by every instance.
        self.web = self._process("web", [
            "-m", "gunicorn", "gm.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
            "--workers", str(self.web_workers), "--threads", str(self.web_threads),
            "--timeout", "60", "--graceful-timeout", "5", "--no-control-socket"], env).start()
        self.wait_web()
        return self.web

    def wait_web(self, timeout: float = 60) -> None:
        import requests

        def up():
            if not self.web.alive():
                raise RuntimeError(f"the web server exited:\n{self.web.tail()}")
            try:
                return requests.get(self.base_url + "/api/", timeout=2).status_code < 500
            except requests.RequestException:
                return False

        wait_until(up, timeout=timeout, interval=0.2, message=lambda: f"web server not up:\n{self.web.tail()}")

    def start_worker(self, *, wait: bool = True) -> Process:
        self.workers_started += 1
        name = f"worker{self.workers_started}"
        self.worker = self._process(name, [
            "-m", "celery", "-A", "gm", "worker", "--pool=solo", "-l", "info", "-Q", self.queue,
            "-n", f"{name}-{os.getpid()}@%h", "--without-mingle", "--without-gossip", "--without-heartbeat"]).start()
        if wait:
            self.wait_worker()
        return self.worker

    def wait_worker(self, timeout: float = 60) -> None:
        worker = self.worker

        def ready():
            if not worker.alive():
                raise RuntimeError(f"{worker.name} exited:\n{worker.tail()}")
            return " ready." in worker.log()

        wait_until(ready, timeout=timeout, interval=0.1, message=lambda: f"{worker.name} not ready:\n{worker.tail()}")

    def start_beat(self) -> Process:
        self.beat = self._process("beat", ["-m", "celery", "-A", "gm", "beat", "-l", "info", "--max-interval", "1",
                                           "-s", str(self.log_dir / "beat-schedule")]).start()
        return self.beat

    def supervise(self, interval: float = 0.5) -> threading.Thread:
        """Restart the worker or beat whenever it exits, as the production restart policy does (``restart:
        unless-stopped`` in ``docker/compose.yaml``); ``restarts`` counts them. Celery 5.7's worker exits
        ("Unrecoverable error") when it loses Redis, so a broker outage needs this."""

        def watch():
            while not self._stopping.wait(interval):
                if self.worker is not None and not self.worker.alive():
                    self.restarts["worker"] += 1
                    self.start_worker(wait=False)
                if self.beat is not None and not self.beat.alive():
                    self.restarts["beat"] += 1
                    self.start_beat()

        thread = threading.Thread(target=watch, name="stack-supervisor", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self._stopping.set()
        for process in (self.beat, self.worker, self.web):
            if process is not None:
                process.stop()

    def report(self, lines: int = 30) -> str:
        return "\n".join(f"===== {p.name} (log {p.log_path}) =====\n{p.tail(lines)}"
                         for p in (self.web, self.worker, self.beat) if p is not None)


# -- private servers for the fault tests ----------------------------------------------------------------------------


class PrivateRedis:
    """A throw-away ``redis-server`` on a free port (no persistence) that may be stopped and started again on the
    same port."""

    def __init__(self, log_dir: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = Process(name="redis", argv=[shutil.which("redis-server") or "redis-server", "--port",
                                                   str(self.port), "--save", "", "--appendonly", "no",
                                                   "--bind", "127.0.0.1"],
                               env=dict(os.environ), log_path=Path(log_dir) / "redis.log")

    def start(self) -> PrivateRedis:
        self.process.start()
        wait_until(self._answers, timeout=20, interval=0.1, message="private redis-server not up")
        return self

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        self.process.kill()


def postgres_bin() -> Path:
    """The newest ``/usr/lib/postgresql/<version>/bin`` (Debian's layout)."""
    root = Path("/usr/lib/postgresql")
    versions = sorted((p for p in root.iterdir() if (p / "bin" / "pg_ctl").exists()),
                      key=lambda p: int(p.name) if p.name.isdigit() else 0)
    if not versions:
        raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql")
    return versions[-1] / "bin"


class PrivatePostgres:
    """A throw-away PostgreSQL cluster (``initdb -A trust``) on a free port with its socket in its own directory;
    stop and start it at will. Runs as the current user (PostgreSQL refuses root: then as ``postgres`` via
    ``runuser``)."""

    def __init__(self, base_dir: Path):
        self.dir = Path(base_dir)
        self.data = self.dir / "data"
        self.port = free_port()
        self.bin = postgres_bin()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        self._as_root = os.geteuid() == 0

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        command = list(argv)
        if self._as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)
        if check and done.returncode:
            raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return done

    def init(self) -> PrivatePostgres:
        self.dir.mkdir(parents=True, exist_ok=True)
        if self._as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")
        return self

    def start(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "server.log"), "-w",
                  "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def create_database(self, name: str) -> str:
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
