"""The production profile passes ``manage.py check --deploy --fail-level WARNING``.

Runs in a subprocess because settings are read once per process: ``DJANGO_SETTINGS_MODULE=gm.settings`` with
``GM_PROFILE=production`` and a real-looking secret, as docker/compose.yaml runs it.
"""
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (
    "import django; django.setup(); from django.core.management import call_command; "
    "call_command('check', deploy=True, fail_level='WARNING')"
)


def test_production_profile_passes_deploy_check(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in {"DEBUG", "GM_EXTRA_MODULES", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS"}}
    env.update(
        DJANGO_SETTINGS_MODULE="gm.settings",
        GM_PROFILE="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="example.com",
        DATABASE_URL=os.environ.get("DATABASE_URL") or f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        STATIC_ROOT=str(tmp_path / "static"),
    )
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout + result.stderr
