"""``bin/respawn``, which runs the demo's Celery worker and beat (Procfile.dev): a command that exits is started
again, and SIGTERM (what honcho sends on Ctrl-C) stops both the command and the respawner. No Django needed."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESPAWN = ROOT / "bin" / "respawn"


def _wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def test_a_command_that_exits_is_started_again_until_sigterm(tmp_path):
    runs = tmp_path / "runs"
    proc = subprocess.Popen([str(RESPAWN), "sh", "-c", f"echo run >> {runs}; exit 3"], stderr=subprocess.PIPE,
                            env={**os.environ, "RESPAWN_DELAY": "0.2"}, start_new_session=True, text=True)
    try:
        assert _wait_for(lambda: runs.exists() and len(runs.read_text().splitlines()) >= 3, timeout=10)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=5)
    assert "'sh' exited with status 3; starting it again in 0.2s" in proc.stderr.read()


def test_sigterm_stops_a_running_command_and_the_respawner(tmp_path):
    started = tmp_path / "started"
    proc = subprocess.Popen([str(RESPAWN), "sh", "-c", f"echo $$ > {started}; exec sleep 60"],
                            env={**os.environ, "RESPAWN_DELAY": "0.2"}, start_new_session=True)
    assert _wait_for(lambda: started.exists() and started.read_text().strip(), timeout=10)
    child = int(started.read_text())
    os.kill(proc.pid, signal.SIGTERM)  # the respawner alone: it passes the signal on to its command
    assert proc.wait(timeout=5) != 0
    assert _wait_for(lambda: not _running(child), timeout=5), "the command outlived its respawner"


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_without_a_command_it_says_how_to_use_it():
    done = subprocess.run([str(RESPAWN)], capture_output=True, text=True, timeout=5)
    assert done.returncode == 2 and "usage: bin/respawn COMMAND" in done.stderr
