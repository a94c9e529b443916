"""The balance report's simulation (``gm.core.balance``) on every shipped module's pure engine: no HTTP, and no database
but what a policy reads once per report (October Night's data set, OC-17). Small numbers of games (the suite's time
is short); speed is measured by ``manage.py gm_bench`` (``balance_1000_fm16_s``), never here."""
from __future__ import annotations

import json

import pytest

from gm.core import balance, registry

#: Every shipped module with balance bots, its table and how many games the suite plays (each module's bots must
#: finish a game; October Night's are the slowest).
MODULES = [("forum_mafia", 8, 3), ("onuw", 5, 20), ("bloodwood", 6, 5), ("blood_vengeance", 8, 5),
           ("october_night", 3, 1)]


def report(slug: str, players: int, games: int, seed: int = 1, options=None) -> dict:
    request = balance.check_request(module=registry.get(slug), slug=slug, players=players, games=games, seed=seed,
                                    options=options)
    return balance.estimate(request)


def total(rep: dict) -> float:
    return sum(row["win_rate"] for row in rep["sides"].values()) + rep["draw_rate"]


@pytest.mark.django_db
@pytest.mark.parametrize(("slug", "players", "games"), MODULES)
def test_every_module_with_bots_plays_to_a_report(slug, players, games):
    rep = report(slug, players, games)
    assert rep["games"] == games
    assert total(rep) == pytest.approx(1.0)
    assert sum(rep["ends"].values()) == games
    assert rep["mean_phases"] >= 1
    assert rep["refused_orders"] == 0  # the bots choose among legal orders only
    for side in registry.get(slug).balance_policy().sides:
        row = rep["sides"][side]
        assert 0.0 <= row["ci_low"] <= row["win_rate"] <= row["ci_high"] <= 1.0


def test_forum_mafia_16_player_default_is_stable_across_seeds_within_its_intervals():
    """Issue 24 item 4: two reports of forum Mafia's 16-player default with different seeds agree — every side's
    (and the draw's) 95 % intervals overlap, and the estimate of each side that won at least a few games in both lies
    inside the other report's interval (a side that won once or never has a one-sided interval at 0 that the other
    report's single win can fall just outside)."""
    a = report("forum_mafia", 16, 30, seed=1)
    b = report("forum_mafia", 16, 30, seed=2)
    assert a != b  # different seeds, different games
    assert set(a["sides"]) >= {"law", "mafia", "maniac", "avenger"}
    for one, other in ((a, b), (b, a)):
        assert total(one) == pytest.approx(1.0)
        for side, row in one["sides"].items():
            theirs = other["sides"].get(side, {"wins": 0, "ci_low": 0.0, "ci_high": 1.0})
            assert row["ci_low"] <= theirs["ci_high"] and theirs["ci_low"] <= row["ci_high"], side
            if min(row["wins"], theirs["wins"]) >= 3:
                assert theirs["ci_low"] <= row["win_rate"] <= theirs["ci_high"], side
        assert one["draw_ci_low"] <= other["draw_ci_high"] and other["draw_ci_low"] <= one["draw_ci_high"]
    assert a["sides"]["law"]["wins"] >= 3 and b["sides"]["law"]["wins"] >= 3  # the comparison above ran


def test_same_seed_gives_the_same_report_byte_for_byte():
    one = json.dumps(report("forum_mafia", 8, 3, seed=7), sort_keys=True)
    assert one == json.dumps(report("forum_mafia", 8, 3, seed=7), sort_keys=True)
    assert json.dumps(report("onuw", 6, 30, seed=7)) == json.dumps(report("onuw", 6, 30, seed=7))
    assert report("onuw", 6, 30, seed=7) != report("onuw", 6, 30, seed=8)


def test_options_reach_the_engine():
    """A fixed composition (FM-3.4) is dealt: with only Law and the three mafiosi, the maniac never wins."""
    roles = ["mafia_boss", "mafia_advisor", "mafia_killer"] + ["sheriff", "doctor", "agent", "judge", "detective"]
    rep = report("forum_mafia", 8, 3, options=json.dumps({"roles": roles, "hero": False}))
    assert rep["options"]["roles"] == roles
    assert rep["sides"]["maniac"]["wins"] == 0


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"slug": "chess"}, "module"),
    ({"players": 2}, "players"),
    ({"players": 41}, "players"),
    ({"players": "many"}, "players"),
    ({"games": 0}, "games"),
    ({"games": 5001}, "games"),
    ({"seed": "x"}, "seed"),
    ({"options": "{not json"}, "options"),
    ({"options": "[1, 2]"}, "options"),
    ({"options": {"no_such_option": 1}}, "options"),
    ({"options": {"roles": ["mafia_boss", "sheriff"]}}, "options"),  # a fixed composition of another size (FM-3.4)
])
def test_bad_requests_are_refused_with_the_field_at_fault(kwargs, field):
    args = {"slug": "forum_mafia", "players": 8, "games": 10, "seed": 1, "options": None, **kwargs}
    module = registry.get(args["slug"]) if args["slug"] in dict(registry.choices()) else None
    with pytest.raises(balance.BalanceError) as caught:
        balance.check_request(module=module, **args)
    assert caught.value.field == field
    assert caught.value.render()


def test_a_module_without_balance_bots_is_refused():
    with pytest.raises(balance.BalanceError) as caught:
        balance.check_request(module=registry.get("tally"), slug="tally", players=4, games=1)
    assert caught.value.field == "module"


def test_wilson_interval():
    assert balance.wilson(0, 10)[0] == 0.0 and balance.wilson(10, 10)[1] == 1.0
    low, high = balance.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert balance.wilson(0, 0) == (0.0, 1.0)


def test_summary_counts_a_shared_win_as_its_own_side_and_a_capped_game_as_a_draw():
    runs = [balance.GameRun("village", ("village",), 2, "victory"),
            balance.GameRun("tanner+village", ("tanner", "village"), 2, "victory"),
            balance.GameRun(None, (), 60, balance.CAPPED)]
    rep = balance.summarise(runs, sides=("village", "werewolf"))
    assert list(rep["sides"]) == ["village", "werewolf", "tanner+village"]
    assert rep["sides"]["werewolf"]["wins"] == 0
    assert rep["draw_rate"] == pytest.approx(1 / 3)
    assert total(rep) == pytest.approx(1.0)
    assert rep["ends"] == {"phase_cap": 1, "victory": 2}
    assert rep["winners"] == {"tanner": 1, "village": 2}
    assert rep["mean_phases"] == pytest.approx(64 / 3)
