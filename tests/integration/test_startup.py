"""Starting the production site (gm.wsgi, as gunicorn does) without ``collectstatic`` fails at once with a clear
message, instead of answering 500 on every page; with the manifest in place, or in development, it starts."""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def start(entry: str, static_root: Path, profile: str = "production") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "GM_EXTRA_MODULES", "DJANGO_SETTINGS_MODULE"}}
    env.update(GM_PROFILE=profile, SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="example.com",
               STATIC_ROOT=str(static_root), DATABASE_URL="postgres://gm:pw@127.0.0.1:5432/gm")
    return subprocess.run([sys.executable, "-c", f"import {entry}; print('started')"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("entry", ["gm.wsgi", "gm.asgi"])
def test_production_without_collectstatic_refuses_to_start(tmp_path, entry):
    result = start(entry, tmp_path / "static")
    assert result.returncode != 0 and "started" not in result.stdout
    assert "Static files are not collected" in result.stderr
    assert "collectstatic" in result.stderr


def test_production_with_collected_files_starts(tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    (static / "staticfiles.json").write_text(json.dumps({"paths": {}, "version": "1.1", "hash": ""}))
    result = start("gm.wsgi", static)
    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout


def test_development_needs_no_collectstatic(tmp_path):
    result = start("gm.wsgi", tmp_path / "static", profile="development")
    assert result.returncode == 0, result.stderr
