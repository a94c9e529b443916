"""The statistics (issue 24 item 3): constant-time aggregates at game end, abandoned games left out, pages with
charts, the per-player history, CSV/JSON export, and no running game's secrets."""
from __future__ import annotations

import csv
import io
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gm.community import services
from gm.community.models import PlayerGame, SetupStat
from gm.core import services as core
from gm.core.models import Game

from .botgames import T0, play_onuw

pytestmark = pytest.mark.django_db


@pytest.fixture
def pool(make_user):
    return [make_user(f"bot{i}") for i in range(10)]


def _finished_game(master, pool, seed: int) -> Game:
    rng = random.Random(seed)
    while True:
        game, _now = play_onuw(master=master, pool=pool, rng=rng, start=T0, replace_p=0, kill_p=0, abort_p=0)
        if not services.abandoned(game):
            return game


def _queries_at_game_end(game) -> int:
    with CaptureQueriesContext(connection) as ctx:
        phase = game.phases.order_by("-ordinal").first()
        services.record_game_end(game=game, phase=phase)
    return len(ctx.captured_queries)


def test_game_end_costs_the_same_whatever_the_number_of_games(master, pool):
    """The aggregates are incremented at game end with a fixed number of queries for a game of a given size: the
    cost does not grow with the games already counted (no scan of all games)."""
    first = _finished_game(master, pool, 1)
    cost_first = _queries_at_game_end(first)
    for seed in range(2, 8):
        _finished_game(master, pool, seed)
    assert _queries_at_game_end(first) == cost_first


def test_aborted_games_are_left_out(master, pool):
    rng = random.Random(5)
    game, _now = play_onuw(master=master, pool=pool, rng=rng, start=T0, replace_p=0, kill_p=0, abort_p=1.0)
    assert game.status == Game.Status.ABORTED
    assert not SetupStat.objects.exists() and not PlayerGame.objects.exists()


def test_stats_page_charts_and_tables_in_both_languages(client, master, pool):
    game = _finished_game(master, pool, 3)
    for lang, word in (("ru", "Статистика"), ("en", "Statistics")):
        client.cookies["django_language"] = lang
        page = client.get(reverse("community:stats") + "?module=onuw")
        html = page.content.decode()
        assert page.status_code == 200 and word in html
        assert 'src="/static/vendor/chartjs/chart.umd.min.js"' in html and "community/stats.js" in html
        assert 'id="chart-sides"' in html and "data-values=" in html
    assert client.get(reverse("community:stats") + "?module=nope").status_code == 400
    assert client.get(reverse("community:stats"), {"module": "onuw", "setup": "99:nothing"}).status_code == 400
    row = SetupStat.objects.filter(kind="game").first()
    one = client.get(reverse("community:stats"), {"module": "onuw", "setup": f"{row.players}:{row.setup}"})
    assert one.status_code == 200 and f'value="{row.players}:{row.setup}" selected' in one.content.decode()
    assert game.status == Game.Status.FINISHED


def test_no_inline_script_on_community_pages(client, master, pool, players):
    _finished_game(master, pool, 4)
    for url in (reverse("community:stats"), reverse("community:sanctions"),
                reverse("community:player", args=[pool[0].username])):
        html = client.get(url).content.decode()
        assert "<script" not in html.split("</head>", 1)[1], url  # scripts only in the head, all with src
        policy = client.get(url)["Content-Security-Policy"]
        assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";")[0]


def test_running_games_roles_never_show(client, master, pool):
    """A running game's dealt cards appear nowhere in the statistics, the history or the export."""
    game = core.game_create(master=master, module="onuw", title="Live", rng_seed=9)
    core.game_open_signup(game=game, actor=master)
    for i, user in enumerate(pool[:4]):
        core.seat_join(game=game, user=user, display_name=f"L{i}")
    core.game_start(game=game, actor=master, clock=lambda: T0)
    assert not SetupStat.objects.exists() and not PlayerGame.objects.exists()
    client.cookies["django_language"] = "en"
    page = client.get(reverse("community:player", args=[pool[0].username])).content.decode()
    assert "Live" not in page
    assert client.get(reverse("api-stats")).json() == []
    assert client.get(reverse("api-player-history", args=[pool[0].username])).json() == []


def test_history_page_and_exports(client, master, pool):
    game = _finished_game(master, pool, 6)
    line = PlayerGame.objects.filter(game=game).first()
    user = line.user
    client.cookies["django_language"] = "en"
    html = client.get(reverse("community:player", args=[user.username])).content.decode()
    assert game.title in html and "Reliability record" in html
    data = client.get(reverse("api-player-history", args=[user.username]), {"format": "json"}).json()
    assert data[0]["game"] == game.pk and data[0]["result"] == line.result and data[0]["role"] == line.role
    text = client.get(reverse("api-player-history", args=[user.username]), {"format": "csv"})
    assert text["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(text.content.decode())))
    assert rows[0]["game"] == str(game.pk)
    stats = client.get(reverse("api-stats"), {"module": "onuw", "format": "csv"})
    table = list(csv.DictReader(io.StringIO(stats.content.decode())))
    games = [r for r in table if r["kind"] == "game"]
    assert games and int(games[0]["games"]) == 1
    sides = [r for r in table if r["kind"] == "side"]
    assert sum(int(r["wins"]) for r in sides) >= 1
    assert client.get(reverse("api-stats"), {"module": "nope"}).status_code == 400
    reliability = client.get(reverse("api-player-reliability", args=[user.username])).json()
    assert reliability["finished"] == 1


def test_profile_shows_the_reliability_record(client, master, pool):
    game = _finished_game(master, pool, 2)
    user = PlayerGame.objects.filter(game=game).first().user
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("profile")).content.decode()
    assert "Надёжность" in html or "надёжност" in html.lower()
    assert reverse("community:player", args=[user.username]) in html


def test_staff_warning_page_and_public_sanction_table(sanction_table, client, make_user, players):
    staff = make_user("mod")
    staff.is_staff = True
    staff.save()
    client.force_login(players[0])
    assert client.get(reverse("community:warnings")).status_code == 403
    client.force_login(staff)
    client.cookies["django_language"] = "en"
    response = client.post(reverse("community:warnings"), {"username": players[1].username, "points": 3,
                                                           "days": 30, "reason": "abandoned two games"})
    assert response.status_code == 302
    page = client.get(reverse("community:warnings")).content.decode()
    assert "abandoned two games" in page
    table = client.get(reverse("community:sanctions")).content.decode()
    assert "cannot sign up for games" in table


def test_requirements_page(client, master, players):
    game = core.game_create(master=master, module="tally", title="Strict", options={"rounds": 1}, rng_seed=3)
    core.game_open_signup(game=game, actor=master)
    client.force_login(master)
    client.cookies["django_language"] = "en"
    url = reverse("community:requirements", args=[game.pk])
    assert client.post(url, {"min_finished": 2, "max_missed_percent": "", "max_modkilled": ""}).status_code == 302
    client.force_login(players[0])
    html = client.get(url).content.decode()
    assert "at least 2 finished games" in html and "you have 0" in html
    assert client.post(url, {"min_finished": 0}).status_code == 403


def test_game_page_shows_the_requirements_and_a_refused_join_says_why(client, master, players):
    game = core.game_create(master=master, module="tally", title="Strict", options={"rounds": 1}, rng_seed=3)
    core.game_open_signup(game=game, actor=master)
    services.requirement_set(game=game, actor=master, min_finished=1)
    client.force_login(players[0])
    client.cookies["django_language"] = "en"
    page = client.get(game.get_absolute_url()).content.decode()
    assert "at least 1 finished games" in page
    response = client.post(reverse("gm:seat_join", args=[game.pk]), {"display_name": "Newbie"}, follow=True)
    assert "requires at least 1 finished games; you have 0" in response.content.decode()
    assert not game.seats.exists()
    client.force_login(master)
    assert reverse("community:requirements", args=[game.pk]) in client.get(game.get_absolute_url()).content.decode()


def test_a_game_ended_with_no_result_is_abandoned_but_nobody_winning_counts(master, pool):
    """Aborted games and games whose last resolution gave no outcome at all are left out; a game its rules end
    with nobody winning (``Outcome([])``) is a result and counts."""
    game = _finished_game(master, pool, 8)
    last = game.phases.order_by("-ordinal").first()
    assert not services.abandoned(game)
    last.result = {**last.result, "outcome": {"winners": [], "winning_seats": []}}
    assert not services.abandoned(game, last)
    last.result = {**last.result, "outcome": None}
    assert services.abandoned(game, last)
