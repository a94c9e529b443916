"""The compose stack's front proxy (``docker/nginx.conf``) serves uploaded media with the headers
``accounts.views.media`` sends in development: ``nosniff`` and a sandboxing CSP always, images inline, anything else
as an ``attachment`` of type ``application/octet-stream``, so an HTML or SVG polyglot stored before uploads were
re-encoded never renders as a page of the site. Runs the config file itself under Debian's nginx on a loopback port
(the upstream and the volume path swapped for local ones); skips where nginx is not installed.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest
import yaml

from gm.core.processes import free_port, wait_until

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "docker" / "nginx.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def test_compose_puts_the_proxy_in_front_with_the_media_volume():
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    proxy = compose["services"]["proxy"]
    assert "media:/srv/media:ro" in proxy["volumes"]
    assert any(v.endswith(":/etc/nginx/conf.d/default.conf:ro") for v in proxy["volumes"])
    assert "web" in proxy["depends_on"]
    assert "ports" not in compose["services"]["web"]  # the site is reached through the proxy only


@pytest.mark.skipif(NGINX is None, reason="needs Debian's nginx (apt-get install nginx-light)")
def test_media_headers_under_nginx(tmp_path):
    media = tmp_path / "media"
    (media / "avatars").mkdir(parents=True)
    (media / "avatars" / "ab12.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 16)
    (media / "avatars" / "poly.html").write_text("<script>alert(1)</script>")
    port = free_port()
    site = CONF.read_text().replace("server web:8000;", "server 127.0.0.1:9;").replace(
        "alias /srv/media/;", f"alias {media}/;").replace("listen 8080;", f"listen 127.0.0.1:{port};")
    assert f"127.0.0.1:{port}" in site and str(media) in site
    (tmp_path / "site.conf").write_text(site)
    # As root, nginx's workers would drop to www-data, who can't read pytest's private temp directory.
    (tmp_path / "nginx.conf").write_text(
        ("user root; " if os.geteuid() == 0 else "")
        + f"daemon off; pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log;\n"
        f"events {{}}\nhttp {{ access_log off; include /etc/nginx/mime.types; include {tmp_path}/site.conf; }}\n")
    # Temp paths of its own keep nginx off /var/lib/nginx.
    conf = (tmp_path / "nginx.conf").read_text().replace(
        "http {", "http { " + " ".join(f"{t}_temp_path {tmp_path}/{t};" for t in
                                         ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")))
    (tmp_path / "nginx.conf").write_text(conf)
    proc = subprocess.Popen([NGINX, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        def get(path):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
                return response.headers

        image = wait_until(lambda: _try(get, "/media/avatars/ab12.png"), timeout=10, message="nginx to answer")
        assert image["Content-Type"] == "image/png"
        assert image["X-Content-Type-Options"] == "nosniff"
        assert "sandbox" in image["Content-Security-Policy"]
        assert image.get("Content-Disposition") is None
        html = get("/media/avatars/poly.html")
        assert html["Content-Type"] == "application/octet-stream"
        assert html["Content-Disposition"] == "attachment"
        assert html["X-Content-Type-Options"] == "nosniff"
        assert re.search(r"default-src 'none'; sandbox", html["Content-Security-Policy"])
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _try(get, path):
    try:
        return get(path)
    except OSError:
        return None
