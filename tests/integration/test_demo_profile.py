"""The site as ``bin/demo`` runs it (the environment of ``bin/demo-env``): DEBUG off, so a missing page gets the
site's own 404 page and never Django's debug page with its URL list; static files collected and served by
WhiteNoise; and the Atom feed's links on the configured ``SITE_URL`` instead of the Sites framework's
``example.com``."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from django.urls import reverse

from gm.core.models import LogEntry
from gm.core.processes import free_port, wait_until

ROOT = Path(__file__).resolve().parents[2]
#: What the caller's environment may set that bin/demo-env would otherwise default.
DEMO_VARIABLES = ("PORT", "DEBUG", "SITE_URL", "GM_EXTRA_MODULES", "GM_CELERY_LOG_LEVEL", "GM_SERVE_MEDIA")


def demo_environment(**preset: str) -> dict[str, str]:
    """The environment after ``source bin/demo-env`` in a shell where only ``preset`` of the demo's variables is
    set (the rest of this process's environment passes through)."""
    base = {k: v for k, v in os.environ.items() if k not in DEMO_VARIABLES and not k.startswith("DJANGO_")}
    done = subprocess.run(["bash", "-c", "set -euo pipefail; source bin/demo-env; env -0"], cwd=ROOT,
                          env={**base, **preset}, capture_output=True, check=True, timeout=10)
    return dict(item.split("=", 1) for item in done.stdout.decode().split("\0") if "=" in item)


def test_demo_environment_defaults():
    env = demo_environment(PORT="8123")
    assert env["DEBUG"] == "0"
    assert env["SITE_URL"] == "http://127.0.0.1:8123"
    assert env["GM_CELERY_LOG_LEVEL"] == "warning"
    assert env["GM_SERVE_MEDIA"] == "1"
    assert "tests.fake_games.tally" in env["GM_EXTRA_MODULES"].split(",")
    # What the caller sets wins.
    assert demo_environment(DEBUG="1", SITE_URL="https://gm.example.org")["DEBUG"] == "1"


def test_demo_procfile_runs_celery_under_respawn_at_the_demo_log_level():
    procfile = (ROOT / "Procfile.dev").read_text()
    lines = {line.split(":", 1)[0]: line.split(":", 1)[1] for line in procfile.splitlines()
             if line and not line.startswith("#")}
    for name in ("worker", "beat"):
        assert lines[name].strip().startswith("bin/respawn celery -A gm " + name), lines[name]
        assert "-l ${GM_CELERY_LOG_LEVEL:-warning}" in lines[name]


@pytest.fixture
def demo_server(tmp_path):
    """``manage.py runserver`` (as Procfile.dev runs it) with the demo's environment, after ``collectstatic``
    into a temporary STATIC_ROOT. Its database is an empty SQLite file: these pages need none."""
    port = free_port()
    env = {**demo_environment(PORT=str(port)), "DJANGO_SETTINGS_MODULE": "gm.settings",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}", "STATIC_ROOT": str(tmp_path / "static"),
           "MEDIA_ROOT": str(tmp_path / "media"), "CELERY_BROKER_URL": "memory://"}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                   check=True, timeout=120)
    log = open(tmp_path / "web.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"

    def up():
        if proc.poll() is not None:
            raise AssertionError((tmp_path / "web.log").read_text())
        try:
            return requests.get(base + "/static/css/site.css", timeout=2) is not None
        except requests.ConnectionError:
            return False

    try:
        wait_until(up, timeout=60, interval=0.2, message="runserver did not answer")
        yield base, tmp_path
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


def test_demo_serves_static_files_and_the_sites_own_404_page(demo_server):
    base, tmp_path = demo_server
    css = requests.get(base + "/static/css/site.css", timeout=10)
    assert css.status_code == 200, css.status_code
    assert css.content == (ROOT / "static" / "css" / "site.css").read_bytes()
    assert css.headers["Content-Type"].startswith("text/css")

    missing = requests.get(base + "/no-such-page/", headers={"Accept-Language": "en"}, timeout=10)
    assert missing.status_code == 404
    assert "There is no such page." in missing.text  # templates/404.html
    # Django's debug 404 page lists every URL pattern; it must never be shown.
    assert "URLconf" not in missing.text and "api/schema/" not in missing.text
    assert requests.get(base + "/static/no-such-file.css", timeout=10).status_code == 404

    (tmp_path / "media").mkdir(exist_ok=True)
    (tmp_path / "media" / "hello.txt").write_text("uploaded")
    media = requests.get(base + "/media/hello.txt", timeout=10)
    assert media.status_code == 200 and media.text == "uploaded"


@pytest.mark.django_db
def test_feed_links_use_site_url(client, running_game, settings):
    settings.SITE_URL = "https://play.gm.test/"
    assert LogEntry.objects.filter(game=running_game).exists()
    response = client.get(reverse("gm:game_feed", args=[running_game.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    game_url = f"https://play.gm.test/games/{running_game.pk}/"
    assert f'href="{game_url}"' in body
    assert f'href="https://play.gm.test/games/{running_game.pk}/feed/"' in body
    assert f'href="{game_url}#log-' in body  # the entries
    assert "example.com" not in body
