"""docker/.env.example as compose uses it: loaded into the production profile it gives a site with every shipped
game module (an empty ``GM_MODULES=`` once shipped a site without games)."""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ("import django, json; django.setup(); from django.conf import settings; from gm.core import registry; "
          "print(json.dumps({'modules': settings.GM_MODULES, 'slugs': [m.slug for m in registry.all_modules()]}))")


def shipped_packages() -> list[str]:
    """Every package of gm/modules that is a game module (has a module.py)."""
    return sorted(f"gm.modules.{p.parent.name}" for p in (ROOT / "gm" / "modules").glob("*/module.py"))


def settings_from(env_file: Path, **extra) -> dict:
    file_env: dict = {}  # parsed here: environ.Env.read_env would change this process's os.environ
    for line in env_file.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            file_env[key.strip()] = value.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GM_", "SECRET_KEY", "DEBUG"))}
    env.update(file_env)
    env.update(DJANGO_SETTINGS_MODULE="gm.settings", GM_PROFILE="production", **extra)
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_env_example_loads_every_shipped_module(tmp_path):
    packages = shipped_packages()
    assert packages  # the test would prove nothing without modules
    # compose sets these itself (docker/compose.yaml); the example's SECRET_KEY is a placeholder to replace
    found = settings_from(ROOT / "docker" / ".env.example", SECRET_KEY=secrets.token_urlsafe(50),
                          DATABASE_URL="postgres://gm:pw@postgres:5432/gm", STATIC_ROOT=str(tmp_path))
    assert sorted(found["modules"]) == packages
    assert {"forum_mafia", "onuw"} <= set(found["slugs"]) and "tally" not in found["slugs"]


def test_an_empty_gm_modules_still_means_the_shipped_modules(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("ALLOWED_HOSTS=example.com\nGM_MODULES=\n")
    found = settings_from(env_file, SECRET_KEY=secrets.token_urlsafe(50), DATABASE_URL="postgres://gm:pw@db/gm",
                          STATIC_ROOT=str(tmp_path))
    assert sorted(found["modules"]) == shipped_packages()
