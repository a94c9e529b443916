"""The game page's database queries do not grow with the number of phases or players: the same viewer kind gets
the page of a longer game (the module's longest scenario file cut after its first steps, then after all but its
last)
and of a bigger table (signup with 3 and with 8 seats, or two scenario files of different table sizes when the
module seats players through its own signup) with the same number of queries."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.contract.conftest import players_in, steps_in, run_scenario, scenario_files
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

VIEWERS = ("master", "player", "anonymous")


def page_queries(game, viewer: str) -> int:
    """Queries of the game page for ``viewer`` (its second load: per-process caches warm)."""
    user = {"master": game.master, "anonymous": None}.get(viewer)
    if viewer == "player":
        seat = game.seats.filter(alive=True).order_by("position").first() or game.seats.order_by("position").first()
        user = seat.user if seat is not None else None
    client = client_for(user)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(f"/games/{game.pk}/").status_code == 200
    return len(ctx.captured_queries)


def growth(small, big) -> dict[str, tuple[int, int]]:
    """viewer → (queries for ``small``, for ``big``) where ``big`` needs more."""
    out = {}
    for viewer in VIEWERS:
        counts = page_queries(small, viewer), page_queries(big, viewer)
        if counts[1] > counts[0]:
            out[viewer] = counts
    return out


def test_contract_game_page_queries_do_not_grow_with_phases(gm_module, tmp_path, card_collection):
    path = max(scenario_files(gm_module), key=lambda p: (steps_in(p), p.name))
    long_cut = steps_in(path) - 1
    assert long_cut >= 2, f"{gm_module}: no scenario file has three steps or more to compare"
    # past the first resolution where there is room: the first results bring parts of the page of their own
    short = run_scenario(path, steps=2 if long_cut >= 4 else 1, tmp_path=tmp_path)
    long = run_scenario(path, steps=long_cut, tmp_path=tmp_path)
    assert long.phases.count() > short.phases.count()
    grown = growth(short, long)
    assert not grown, f"{gm_module}: the game page needs more queries with more phases: {grown}"


def test_contract_game_page_queries_do_not_grow_with_players(gm_module, tmp_path, make_user, card_collection):
    from gm.core import services

    if gm_module.module.signup_view:  # its own signup page: two scenario tables of different sizes, first step
        files = sorted((p for p in scenario_files(gm_module) if steps_in(p) >= 2), key=players_in)
        small_file, big_file = files[0], files[-1]
        assert players_in(big_file) > players_in(small_file), f"{gm_module}: every scenario table has the same size"
        small = run_scenario(small_file, steps=1, tmp_path=tmp_path)
        big = run_scenario(big_file, steps=1, tmp_path=tmp_path)
    else:
        games = []
        for size in (max(3, gm_module.module.min_seats), min(8, gm_module.module.max_seats)):
            master = make_user(f"gm{size}", host=True)
            game = services.game_create(master=master, module=gm_module.slug, title="Queries", rng_seed=7)
            services.game_open_signup(game=game, actor=master)
            for i in range(size):
                services.seat_join(game=game, user=make_user(f"q{size}p{i}"), display_name=f"Seat{i}")
            games.append(game)
        small, big = games
    assert big.seats.count() > small.seats.count()
    grown = growth(small, big)
    assert not grown, f"{gm_module}: the game page needs more queries with more players: {grown}"
