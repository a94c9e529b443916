"""The lobby (issue 8 item 1): games with open signups, running and finished games (and the viewer's own drafts),
the module filter, each game's master, players, phase and deadline in the viewer's time zone, and a number of
queries that does not grow with the number of games."""
from __future__ import annotations

import re
import zoneinfo
from datetime import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import formats, timezone, translation

from gm.core import services
from gm.core.models import Game
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def _section(html: str, key: str) -> str:
    """The HTML of the lobby section ``key`` (``signup``, ``running``, ``finished``, ``drafts``), or ``""``."""
    match = re.search(rf'<section[^>]*id="lobby-{key}".*?</section>', html, re.S)
    return match.group(0) if match else ""


def _game(master, module: str, title: str, *, seats=(), status: str = "signup", start: bool = False) -> Game:
    game = services.game_create(master=master, module=module, title=title, options={"rounds": 3}
                                if module == "tally" else {}, rng_seed=7)
    if status == "draft":
        return game
    services.game_open_signup(game=game, actor=master)
    for i, user in enumerate(seats):
        services.seat_join(game=game, user=user, display_name=f"{title}-P{i}")
    if start:
        services.game_start(game=game, actor=master)
    if status in ("finished", "aborted"):
        services.game_abort(game=game, actor=master, reason="test")
    game.refresh_from_db()
    return game


@pytest.fixture
def games(master, players, make_user, frozen):
    other = make_user("othermaster", host=True)
    return {
        "signup": _game(master, "tally", "Signup tally", seats=players[:2]),
        "running": _game(master, "tally", "Running tally", seats=players[:3], start=True),
        "cards": _game(other, "cardtest", "Signup cards", seats=players[2:]),
        "over": _game(master, "tally", "Over tally", seats=players[:2], start=True, status="aborted"),
        "draft": _game(master, "tally", "Draft tally", status="draft"),
    }


def test_sections_hold_their_games(games, spectator, master):
    html = client_for(spectator).get("/").content.decode()
    assert "Signup tally" in _section(html, "signup") and "Signup cards" in _section(html, "signup")
    assert "Running tally" in _section(html, "running") and "Running tally" not in _section(html, "signup")
    assert "Over tally" in _section(html, "finished")
    assert "Draft tally" not in html and _section(html, "drafts") == ""  # someone else's draft is invisible
    assert "Draft tally" in _section(client_for(master).get("/").content.decode(), "drafts")


def test_each_game_shows_master_players_and_phase(games, spectator):
    html = client_for(spectator).get("/").content.decode()
    running = re.search(rf'<li class="game-row" id="lobby-game-{games["running"].pk}">.*?</li>\s*</ul>|'
                        rf'<li class="game-row" id="lobby-game-{games["running"].pk}">.*?</dl>', html, re.S).group(0)
    assert "master" in running  # the master's name (his username: no display name set)
    assert "3 players" in running
    for i in range(3):
        assert f"Running tally-P{i}" in running
    with translation.override("en"):
        label = games["running"].phases.get(status="open").label
    assert label in running
    signup = _section(html, "signup")
    assert "othermaster" in signup and "Signup cards-P0" in signup and "Signup cards-P1" in signup


def test_module_filter(games, spectator):
    client = client_for(spectator)
    html = client.get("/", {"module": "cardtest"}).content.decode()
    assert "Signup cards" in html
    assert "Signup tally" not in html and "Running tally" not in html and "Over tally" not in html
    assert 'id="lobby-module"' in html and '<option value="cardtest" selected>' in html
    html = client.get("/", {"module": "tally"}).content.decode()
    assert "Signup tally" in html and "Running tally" in html and "Signup cards" not in html
    html = client.get("/", {"module": ""}).content.decode()  # "All games"
    assert "Signup tally" in html and "Signup cards" in html


def test_unknown_module_is_refused_with_the_reason_and_lists_every_game(games, spectator):
    response = client_for(spectator).get("/", {"module": "chess"})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="lobby-module-error"' in html and "chess" in html  # Django's "Select a valid choice. chess is…"
    assert "Signup tally" in html and "Signup cards" in html


def test_deadline_in_the_viewers_time_zone(games, make_user):
    tokyo = make_user("tokyo")
    tokyo.profile.time_zone = "Asia/Tokyo"
    tokyo.profile.save()
    deadline = games["running"].phases.get(status="open").deadline

    def shown(zone: str) -> str:
        with translation.override("en"), timezone.override(zoneinfo.ZoneInfo(zone)):
            return formats.date_format(timezone.localtime(deadline), "DATETIME_FORMAT")

    assert shown("Asia/Tokyo") != shown("Europe/Moscow")
    html = client_for(tokyo).get("/").content.decode()
    running = _section(html, "running")
    assert shown("Asia/Tokyo") in running and "(Asia/Tokyo)" in running
    stamp = re.search(r'<time class="lobby-deadline" datetime="([^"]+)"', running).group(1)
    assert datetime.fromisoformat(stamp) == deadline  # the same instant, machine-readable, for scripts
    anonymous = _section(client_for(None).get("/").content.decode(), "running")
    assert shown("Europe/Moscow") in anonymous and shown("Asia/Tokyo") not in anonymous  # the site default


def _lobby_queries(client) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/")
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_query_count_does_not_grow_with_the_number_of_games(master, players, make_user, frozen):
    viewer = make_user("viewer")
    client = client_for(viewer)
    _game(master, "tally", "First", seats=players[:2], start=True)
    _game(master, "cardtest", "Second", seats=players[2:])
    client.get("/")  # warm caches that are per process (content types, permissions…)
    few = _lobby_queries(client)
    hosts = [make_user(f"host{i}", host=True) for i in range(3)]
    for i, host in enumerate(hosts):
        _game(host, "tally", f"Running {i}", seats=players[:3], start=True)
        _game(host, "cardtest", f"Signup {i}", seats=players[1:])
        _game(host, "tally", f"Over {i}", seats=players[:2], start=True, status="aborted")
    assert Game.objects.count() == 11
    many = _lobby_queries(client)
    assert many == few, f"{few} queries for 2 games, {many} for 11"
    assert many <= 12


def test_status_filter_shows_one_section(games, master):
    client = client_for(master)
    html = client.get("/?status=running").content.decode()
    assert "Running tally" in _section(html, "running")
    assert not _section(html, "signup") and not _section(html, "finished") and not _section(html, "drafts")
    html = client.get("/?module=tally&status=signup").content.decode()
    assert "Signup tally" in html and "Signup cards" not in html and "Running tally" not in html
    response = client.get("/?status=bogus")
    assert response.status_code == 400 and 'id="lobby-status-error"' in response.content.decode()
    assert "Running tally" in response.content.decode()  # refused filter: every game listed


def test_lobby_is_paginated_keeping_the_filter(master, players, frozen, settings, monkeypatch):
    from gm.core import views

    monkeypatch.setattr(views, "LOBBY_PAGE_SIZE", 2)
    for i in range(5):
        _game(master, "tally", f"Paged {i}")
    client = client_for(master)
    first = client.get("/?module=tally").content.decode()
    assert first.count('class="game-row"') == 2 and "Paged 4" in first and "Paged 0" not in first
    assert 'href="?module=tally&amp;page=3"' in first
    last = client.get("/?module=tally&page=3").content.decode()
    assert last.count('class="game-row"') == 1 and "Paged 0" in last


def test_api_games_filter_by_module_and_status(games, master):
    client = client_for(master)
    titles = lambda url: {g["title"] for g in client.get(url).json()["results"]}  # noqa: E731
    assert titles("/api/games/?module=cardtest") == {"Signup cards"}
    assert titles("/api/games/?module=tally&status=running") == {"Running tally"}
    assert titles("/api/games/?status=aborted") == {"Over tally"}
    response = client.get("/api/games/?status=bogus")
    assert response.status_code == 400 and "status" in response.json()["errors"]
    assert client.get("/api/games/?module=nope").status_code == 400
    # the detail routes ignore the list's filters
    assert client.get(f"/api/games/{games['cards'].pk}/?module=tally").status_code == 200


def test_api_schema_documents_the_games_filters(client):
    schema = client.get("/api/schema/?format=json").json()
    params = {p["name"] for p in schema["paths"]["/api/games/"]["get"]["parameters"]}
    assert {"module", "status", "limit", "offset"} <= params
    status = next(p for p in schema["paths"]["/api/games/"]["get"]["parameters"] if p["name"] == "status")
    assert set(status["schema"]["enum"]) == {"draft", "signup", "setup", "running", "finished", "aborted"}
