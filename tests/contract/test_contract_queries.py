"""The game page's database queries do not grow with the number of phases or players: the same viewer kind gets
the page of a longer game (one scenario file cut after two numbers of steps that leave the same phase kind open)
and of a bigger table (signup with 3 and with 8 seats, or two scenario files of different table sizes when the
module seats players through its own signup) with the same number of queries."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.contract.conftest import players_in, run_scenario, scenario_files, steps_in
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

VIEWERS = ("master", "player", "anonymous")


def page_queries(game, viewer: str) -> int:
    """Queries of the game page's rendering for ``viewer`` (its second load: per-process caches warm; the game's
    stamp moved first, so the page is rendered rather than served kept, ``gm.core.page_cache``)."""
    from gm.core.bench import move_stamp

    user = {"master": game.master, "anonymous": None}.get(viewer)
    if viewer == "player":
        seat = game.seats.filter(alive=True).order_by("position").first() or game.seats.order_by("position").first()
        user = seat.user if seat is not None else None
    client = client_for(user)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    move_stamp(game.pk)
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


def cuts(path) -> tuple[int, int] | None:
    """Two step counts after which the file's game waits in a phase of the same kind, as far apart as the file
    allows (past the first resolution where it can: the first results bring parts of the page of their own)."""
    import yaml

    steps = yaml.safe_load(path.read_text(encoding="utf-8"))["steps"]
    kinds = [str(step.get("phase", "")).split(" ")[0] for step in steps]
    pairs = [(a, b) for a in range(1, len(steps)) for b in range(a + 2, len(steps)) if kinds[a] == kinds[b]]
    if not pairs:
        return None
    return max(pairs, key=lambda p: (p[0] >= 2, p[1] - p[0]))


def doubled_history(game) -> None:
    """Copy every order version and log entry of ``game``'s resolved phases once more (the history of a game
    twice as long, behind the same open phase)."""
    from gm.core.models import LogEntry, Order

    for order in Order.objects.filter(phase__game=game, phase__status="resolved"):
        Order.objects.create(phase=order.phase, seat=order.seat, version=order.version + 1000,
                             payload=order.payload, submitted_by=order.submitted_by, created_at=order.created_at)
    for entry in LogEntry.objects.filter(game=game, phase__status="resolved"):
        entry.pk = None
        entry.save()


def test_contract_game_page_queries_do_not_grow_with_phases(gm_module, tmp_path, card_collection):
    """Two cuts of one scenario file waiting in the same phase kind; where no file has them (a module with a
    fixed short sequence of phases, ONUW), the same cut with its history doubled."""
    files = sorted(scenario_files(gm_module), key=lambda p: (-steps_in(p), p.name))
    found = next(((path, pair) for path in files if (pair := cuts(path)) is not None), None)
    if found is not None:
        path, (short_cut, long_cut) = found
        short = run_scenario(path, steps=short_cut, tmp_path=tmp_path)
        long = run_scenario(path, steps=long_cut, tmp_path=tmp_path)
        assert long.phases.count() > short.phases.count()
    else:
        path = files[0]
        assert steps_in(path) >= 2, f"{gm_module}: no scenario file has two steps or more"
        short = run_scenario(path, steps=steps_in(path) - 1, tmp_path=tmp_path)
        long = run_scenario(path, steps=steps_in(path) - 1, tmp_path=tmp_path)
        doubled_history(long)
    assert not short.is_over and not long.is_over
    grown = growth(short, long)
    assert not grown, f"{gm_module}: the game page needs more queries for a longer game ({path.name}): {grown}"


def test_contract_query_check_finds_a_page_that_grows(gm_module, tmp_path, card_collection, monkeypatch):
    """Self-test: a module whose seat data costs a query per seat (``seat_facts``, the seats table) is reported."""
    from gm.core.models import Seat

    files = sorted(scenario_files(gm_module), key=lambda p: (players_in(p), p.name))
    small = run_scenario(files[0], steps=1, tmp_path=tmp_path)
    big = run_scenario(files[-1], steps=1, tmp_path=tmp_path)
    assert big.seats.count() > small.seats.count()
    original = gm_module.module.seat_facts

    def a_query_a_seat(data, **kwargs):
        Seat.objects.exists()
        return original(data, **kwargs)

    monkeypatch.setattr(gm_module.module, "seat_facts", a_query_a_seat)
    assert growth(small, big)


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
