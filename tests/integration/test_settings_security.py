"""Settings that keep a deployment safe: the production profile refuses a weak SECRET_KEY, runserver holds no
idle database connections while production checks its persistent ones, and under DEBUG only localhost sees
Django's technical error pages (everyone else the site's friendly ones)."""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import include, path

ROOT = Path(__file__).resolve().parents[2]


def load_settings(tmp_path, argv=("manage.py",), **env_overrides) -> subprocess.CompletedProcess:
    """Import gm.settings in a fresh process with ``env_overrides`` and print a few values as JSON."""
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "GM_EXTRA_MODULES", "SECRET_KEY"}}
    env.update(GM_PROFILE="production", ALLOWED_HOSTS="example.com", STATIC_ROOT=str(tmp_path / "static"),
               DATABASE_URL="postgres://gm:pw@127.0.0.1:5432/gm")
    env.update(env_overrides)
    script = (f"import sys, json; sys.argv = {list(argv)!r}; import gm.settings as s; "
              "db = s.DATABASES['default']; "
              "print(json.dumps({'max_age': db.get('CONN_MAX_AGE'), 'health': db.get('CONN_HEALTH_CHECKS')}))")
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("key", ["", "change-me", "short-key-of-forty-characters-0123456789",
                                 "dev-only-insecure-key-8c1f0e7a5b2d4c6e9f3a1b7d5e2c4a6f8b0d2e4f6a8c",
                                 "django-insecure-" + "x1y2z3" * 10, "a" * 64])
def test_production_refuses_a_weak_secret_key(tmp_path, key):
    result = load_settings(tmp_path, SECRET_KEY=key)
    assert result.returncode != 0
    assert "SECRET_KEY is missing or weak" in result.stderr


def test_production_accepts_a_strong_key_and_checks_its_connections(tmp_path):
    result = load_settings(tmp_path, SECRET_KEY=secrets.token_urlsafe(50))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"max_age": 60, "health": True}


def test_runserver_keeps_no_idle_connections(tmp_path):
    result = load_settings(tmp_path, argv=("manage.py", "runserver"), GM_PROFILE="development")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["max_age"] == 0


def _boom(request):
    raise RuntimeError("secret detail of the failure")


urlpatterns = [path("boom/", _boom), path("", include("gm.urls"))]


@pytest.fixture
def debug_site(settings):
    settings.DEBUG = True
    settings.ROOT_URLCONF = __name__
    settings.INTERNAL_IPS = ["127.0.0.1", "::1"]


@pytest.mark.django_db
def test_debug_500_and_404_are_friendly_to_anyone_but_localhost(debug_site):
    remote = Client(REMOTE_ADDR="203.0.113.9", raise_request_exception=False)
    response = remote.get("/boom/")
    assert response.status_code == 500
    page = response.content.decode()
    assert "secret detail" not in page and "Traceback" not in page and "DEBUG = True" not in page
    assert "Server error" in page  # the site's own 500 page
    response = remote.get("/no-such-page/")
    assert response.status_code == 404 and b"DEBUG = True" not in response.content
    local = Client(REMOTE_ADDR="127.0.0.1", raise_request_exception=False)
    response = local.get("/boom/")
    assert response.status_code == 500 and b"secret detail" in response.content
    assert b"DEBUG = True" in local.get("/no-such-page/").content
