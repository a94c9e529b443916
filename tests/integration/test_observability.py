"""Operations: ``/health/`` (database, cache, broker, Celery ping, no overdue phase), ``/metrics`` (Prometheus text,
loopback or token only), Sentry initialised only with ``SENTRY_DSN``, and JSON log lines kept in the worker."""
from __future__ import annotations

import io
import json
import logging
import logging.config
import os
import re
import subprocess
import sys
from unittest import mock

import pytest
from django.conf import settings
from django.test import override_settings

from gm.core import services
from gm.core.metrics import count_email_failure, email_failures
from gm.core.models import Phase

pytestmark = pytest.mark.django_db
no_ping = override_settings(GM_HEALTH_CELERY_PING=False, GM_HEALTH_OVERDUE_MINUTES=10)


def _open_phase(game) -> Phase:
    return game.phases.get(status=Phase.Status.OPEN)


@no_ping
def test_health_is_200_with_a_phase_not_yet_overdue(frozen, running_game, client):
    frozen.shift(3600 + 9 * 60)  # nine minutes past the first deadline: late, not yet unhealthy
    response = client.get("/health/?format=json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert any(key.startswith("NoOverduePhase") for key in body), body
    assert any(key.startswith("Database") for key in body) and any(key.startswith("Broker") for key in body)


@no_ping
def test_health_is_500_when_a_phase_is_overdue_by_more_than_n_minutes(frozen, running_game, client):
    frozen.shift(3600 + 11 * 60)
    response = client.get("/health/?format=json")
    assert response.status_code == 500
    failed = {k: v for k, v in response.json().items() if k.startswith("NoOverduePhase")}
    assert failed and "overdue" in next(iter(failed.values())), response.json()
    services.phases_sweep()  # resolved: healthy again
    assert client.get("/health/?format=json").status_code == 200


@no_ping
def test_a_paused_game_is_not_overdue(frozen, running_game, master, client):
    services.game_pause(game=running_game, actor=master)
    frozen.shift(3600 + 60 * 60)
    assert client.get("/health/?format=json").status_code == 200


def test_health_pings_celery_when_enabled(client):
    with override_settings(GM_HEALTH_CELERY_PING=True), \
            mock.patch("health_check.contrib.celery.Ping.run", side_effect=None) as ping:
        response = client.get("/health/?format=json")
    assert ping.called and any(k.startswith("Ping") for k in response.json()), response.json()


def test_metrics_names_after_a_resolution(frozen, running_game, client):
    frozen.shift(3600 + 30)
    assert services.phases_sweep().resolved
    before = email_failures()  # the cache outlives a test: other tests in this process may have counted some
    count_email_failure()
    response = client.get("/metrics")
    assert response.status_code == 200
    text = response.content.decode()
    for name in ("gm_deadline_lateness_seconds_bucket", "gm_deadline_lateness_seconds_count",
                 "gm_phase_resolutions_total", "gm_phases_overdue", "gm_email_failures_total"):
        assert name in text, text
    assert 'gm_deadline_lateness_seconds_bucket{le="15.0"} 0.0' in text  # resolved 30 s late
    assert 'gm_deadline_lateness_seconds_bucket{le="60.0"} 1.0' in text
    assert "gm_deadline_lateness_seconds_sum 30.0" in text and "gm_phase_resolutions_total 1.0" in text
    assert f"gm_email_failures_total {before + 1}.0" in text


@override_settings(GM_METRICS_TOKEN="s3cret-token")
def test_metrics_only_for_loopback_or_the_token(client):
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 403
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    ok = client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer s3cret-token")
    assert ok.status_code == 200 and b"gm_phases_overdue" in ok.content
    assert client.get("/metrics", REMOTE_ADDR="::1").status_code == 200


def test_metrics_without_a_token_setting_refuse_remote_clients(client):
    with override_settings(GM_METRICS_TOKEN=""):
        assert client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer ").status_code == 403


SENTRY_PROBE = (
    "import django, sentry_sdk; django.setup(); "
    "from django.conf import settings; print(sentry_sdk.get_client().is_active(), bool(settings.SENTRY_DSN))"
)


@pytest.mark.parametrize("dsn, active", [("https://public@127.0.0.1:9/1", "True True"), ("", "False False")])
def test_sentry_is_initialised_only_with_a_dsn(dsn, active):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "gm.settings", "SENTRY_DSN": dsn}
    out = subprocess.run([sys.executable, "-c", SENTRY_PROBE], env=env, capture_output=True, text=True,
                         cwd=settings.BASE_DIR, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == active


def test_worker_keeps_the_json_root_logger_and_the_resolution_line(frozen, running_game):
    from gm import settings as site_settings  # the site's LOGGING (tests.settings silences it)
    from gm.celery import app

    assert app.conf.worker_hijack_root_logger is False
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.config.DictConfigurator(site_settings.LOGGING).configure_formatter(
        site_settings.LOGGING["formatters"]["json"]))
    try:
        root.handlers = [handler]
        root.setLevel(logging.INFO)
        # What the worker does at start: with hijacking off, the root logger LOGGING set up stays as it is.
        app.log.setup_logging_subsystem(loglevel=logging.INFO, colorize=False)
        assert root.handlers == [handler]
        phase = _open_phase(running_game)
        frozen.shift(3600)
        services.phases_sweep()
    finally:
        root.handlers, _ = saved[0], root.setLevel(saved[1])
    lines = [json.loads(line) for line in stream.getvalue().splitlines() if line.startswith("{")]
    resolved = [line for line in lines if line.get("message") == "phase resolved"]
    assert len(resolved) == 1, lines
    line = resolved[0]
    assert (line["game"], line["phase"]) == (running_game.pk, phase.pk)
    assert line["duration_ms"] >= 0 and line["queries"] > 0 and line["name"] == "gm.resolution"


def test_compose_and_dockerfile_probe_health():
    import yaml

    docker = settings.BASE_DIR / "docker"
    services_ = yaml.safe_load((docker / "compose.yaml").read_text())["services"]
    assert "docker/healthcheck.py" in " ".join(services_["web"]["healthcheck"]["test"])
    assert "inspect ping" in " ".join(services_["worker"]["healthcheck"]["test"])
    dockerfile = (docker / "Dockerfile").read_text()
    assert re.search(r"^HEALTHCHECK .*docker/healthcheck\.py", dockerfile, re.M)
    assert "/health/" in (docker / "healthcheck.py").read_text()


@no_ping
def test_the_container_probe_passes_against_a_healthy_site(live_server):
    port = live_server.url.rsplit(":", 1)[1]
    env = {**os.environ, "ALLOWED_HOSTS": "localhost", "GM_HEALTH_PORT": port}
    probe = subprocess.run([sys.executable, str(settings.BASE_DIR / "docker" / "healthcheck.py")], env=env,
                           capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0, probe.stderr
    env["GM_HEALTH_PORT"] = "9"  # nothing listens there: the probe fails
    assert subprocess.run([sys.executable, str(settings.BASE_DIR / "docker" / "healthcheck.py")], env=env,
                          capture_output=True, timeout=60).returncode == 1
