"""The web's conventions: robots.txt, the favicon, the sitemap of public games, Open Graph and Atom autodiscovery on
the game page, security.txt (RFC 9116) and a dark palette that keeps text readable."""
from __future__ import annotations

import re
from datetime import datetime

import pytest
from django.test import override_settings

from gm.core import services
from gm.core.models import Game
from gm.modules.onuw.tests.test_shell import DEAL as ONUW_DEAL
from gm.modules.onuw.tests.test_shell import start as start_onuw
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

SITE = "https://mafia.example.org"


@pytest.fixture
def drafts(master):
    return services.game_create(master=master, module="tally", title="Secret draft", options={"rounds": 3},
                                rng_seed=1)


def test_robots_disallows_private_areas_and_points_at_the_sitemap():
    with override_settings(SITE_URL=SITE):
        response = client_for(None).get("/robots.txt")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    for path in ("/api/", "/accounts/", "/games/*/console/"):
        assert f"Disallow: {path}\n" in text
    assert f"Sitemap: {SITE}/sitemap.xml" in text
    assert "Disallow: /\n" not in text  # the public pages stay crawlable


def test_favicon_is_linked_and_answers(signup_game):
    page = client_for(None).get("/").content.decode()
    link = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    assert link and link.group(1).endswith("favicon.svg")
    response = client_for(None).get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg") and b"<script" not in response.content


def test_sitemap_lists_public_games_on_site_url_and_no_draft(signup_game, running_game, drafts):
    aborted = services.game_create(master=signup_game.master, module="tally", title="Gone", options={"rounds": 3},
                                   rng_seed=2)
    services.game_open_signup(game=aborted, actor=signup_game.master)
    services.game_abort(game=aborted, actor=signup_game.master, reason="test")
    with override_settings(SITE_URL=SITE):
        response = client_for(None).get("/sitemap.xml", HTTP_HOST="127.0.0.1")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
    locations = re.findall(r"<loc>([^<]+)</loc>", response.content.decode())
    assert f"{SITE}/games/{running_game.pk}/" in locations
    assert f"{SITE}/games/{aborted.pk}/" in locations
    assert f"{SITE}/games/{drafts.pk}/" not in locations
    assert drafts.status == Game.Status.DRAFT and len(locations) == 2
    assert "example.com" not in response.content.decode()


def _meta(html: str) -> dict[str, str]:
    return dict(re.findall(r'<meta property="(og:[\w:]+)" content="([^"]*)">', html))


def test_open_graph_tags_on_a_public_signup_page(signup_game):
    with override_settings(SITE_URL=SITE):
        html = client_for(None).get(f"/games/{signup_game.pk}/").content.decode()
    og = _meta(html)
    free = signup_game.game_module.max_seats - signup_game.seats.count()
    assert og["og:title"] == signup_game.title and og["og:type"] == "website"
    assert og["og:url"] == f"{SITE}/games/{signup_game.pk}/"
    assert og["og:description"] == f"{signup_game.module_name} · {free} seats free"
    feed = re.search(r'<link rel="alternate" type="application/atom\+xml" href="([^"]+)"', html)
    assert feed and feed.group(1) == f"/games/{signup_game.pk}/feed/"
    assert client_for(None).get(feed.group(1)).status_code == 200


def test_open_graph_tags_hold_no_secret(master, players):
    """The preview is the same for every viewer (the master's too) and names no role, deal or private line, while
    the pages below it do show those secrets to whom they belong."""
    game = start_onuw(master, players, deal=ONUW_DEAL)
    anonymous = _meta(client_for(None).get(game.get_absolute_url()).content.decode())
    assert anonymous["og:description"] == f"{game.module_name} · {game.get_status_display()}"
    assert anonymous["og:title"] == game.title
    for user in [master, *players]:
        html = client_for(user).get(game.get_absolute_url()).content.decode()
        head = html.split("</head>", 1)[0].replace(game.module_name, "")  # "One Night Ultimate Werewolf"
        assert _meta(html) == anonymous
        assert "Your card:" in html or user == master  # a secret is on the page…
        for secret in ("Werewolf", "Seer", "Robber", "Troublemaker", "Drunk", "Your card", "Deal"):
            assert secret not in head  # …never in the preview


def test_no_open_graph_on_a_draft(drafts, master):
    html = client_for(master).get(f"/games/{drafts.pk}/").content.decode()
    assert "og:title" not in html and "application/atom+xml" not in html


def test_security_txt_follows_rfc_9116(frozen):
    with override_settings(SITE_URL=SITE, GM_SECURITY_CONTACT="security@example.org"):
        response = client_for(None).get("/.well-known/security.txt")
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    fields = dict(line.split(": ", 1) for line in response.content.decode().splitlines() if line)
    assert fields["Contact"] == "mailto:security@example.org"
    assert fields["Canonical"] == f"{SITE}/.well-known/security.txt"
    expires = datetime.strptime(fields["Expires"], "%Y-%m-%dT%H:%M:%S%z")
    assert 30 < (expires - datetime.fromisoformat("2026-01-01T12:00:00+00:00")).days < 366
