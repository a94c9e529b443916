"""Content-Security-Policy: every HTML page (game page, lobby, API docs) is served with an enforced policy that
allows scripts from this origin only, and the API docs load Swagger UI and Redoc from the site's own static files."""
from __future__ import annotations

import re

import pytest

from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def _policy(response) -> dict[str, list[str]]:
    """The enforced policy of ``response`` as {directive: [sources]}; fails when the header is missing."""
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no enforced Content-Security-Policy on {response.request['PATH_INFO']}"
    parts = (p.split() for p in header.split(";") if p.strip())
    return {p[0]: p[1:] for p in parts}


def _assert_scripts_self_only(response) -> None:
    policy = _policy(response)
    assert policy["script-src"] == ["'self'"], policy
    assert "'unsafe-inline'" not in policy.get("default-src", [])


def test_game_page_lobby_and_profile_carry_the_policy(running_game, players, spectator, client):
    player = client_for(players[0])
    for response in (player.get(f"/games/{running_game.pk}/"), client_for(spectator).get("/"), client.get("/"),
                     player.get("/accounts/profile/")):
        assert response.status_code == 200
        _assert_scripts_self_only(response)
        html = response.content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script on a rendered page"
        assert not re.search(r"<[a-z][^>]*\son[a-z]+\s*=", html, re.I), "inline event handler on a page"


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_api_docs_use_local_scripts_only(client, path):
    response = client.get(path)
    assert response.status_code == 200
    _assert_scripts_self_only(response)
    html = response.content.decode()
    sources = re.findall(r'<script[^>]*\bsrc="([^"]+)"', html)
    assert sources and all(src.startswith("/") and not src.startswith("//") for src in sources), sources
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script on the docs page"
    assert "googleapis" not in html and "jsdelivr" not in html


def test_swagger_start_script_is_served_as_javascript(client):
    html = client.get("/api/docs/").content.decode()
    start = [s for s in re.findall(r'<script[^>]*\bsrc="([^"]+)"', html) if "script" in s.split("?", 1)[-1]]
    assert start, "Swagger UI's start-up script is not a separate file"
    response = client.get(start[0].replace("&amp;", "&"))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in response.content
