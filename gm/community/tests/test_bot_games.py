"""The reliability record and the statistics kept incrementally (game end, handover, modkill) equal the figures
recomputed from the core's events, on many in-process ONUW bot games with replacements, master's kills and aborts
(issue 24: "reliability and stats recomputed from events match incremental figures on 200 bot games")."""
from __future__ import annotations

import pytest

from gm.community import services
from gm.community.models import PlayerGame, Reliability, SetupStat
from gm.core.models import Game

from .botgames import play_many

pytestmark = pytest.mark.django_db


@pytest.fixture
def pool(make_user):
    return [make_user(f"bot{i}") for i in range(14)]


def _check(master, pool, games: int, seed: int) -> None:
    ends = play_many(master=master, pool=pool, games=games, seed=seed)
    assert ends["finished"] > games // 2  # most games end with a result; the rest were aborted
    assert services.reliability_recompute() == services.reliability_stored()
    assert services.stats_recompute() == services.stats_stored()
    stored = services.reliability_stored()
    totals = {c: sum(r[c] for r in stored.values()) for c in services.COUNTERS}
    # The games exercised every counter, so the equality above compares real figures.
    assert totals["finished"] > 0 and totals["replaced_out"] > 0 and totals["modkilled"] > 0
    assert totals["missed_orders"] > 0 and totals["action_phases"] > totals["missed_orders"]
    # Aborted games and games finished without a winner (nor a draw) are left out of the statistics.
    counted = [g for g in Game.objects.filter(status=Game.Status.FINISHED) if not services.abandoned(g)]
    assert 0 < len(counted) <= ends["finished"]
    game_rows = SetupStat.objects.filter(kind=SetupStat.Kind.GAME)
    assert sum(r.games for r in game_rows) == len(counted)
    assert PlayerGame.objects.filter(result=PlayerGame.Result.REPLACED).exists()


def test_incremental_equals_recomputed_on_20_bot_games(master, pool):
    _check(master, pool, games=20, seed=24)


@pytest.mark.soak
def test_incremental_equals_recomputed_on_200_bot_games(master, pool):
    _check(master, pool, games=200, seed=2024)


def test_rebuild_repairs_tampered_counters(master, pool):
    """``reliability_rebuild`` / ``stats_rebuild`` (``manage.py gm_community_recompute --fix``) restore the figures
    when the stored counters were damaged."""
    play_many(master=master, pool=pool, games=6, seed=7)
    expected = services.reliability_stored()
    expected_stats = services.stats_stored()
    Reliability.objects.update(finished=99)
    SetupStat.objects.update(games=0)
    assert services.reliability_stored() != expected
    assert services.reliability_rebuild() > 0
    services.stats_rebuild()
    assert services.reliability_stored() == expected
    assert services.stats_stored() == expected_stats


def test_recompute_command_reports_and_fixes(master, pool):
    """``manage.py gm_community_recompute`` agrees on untouched figures, exits 1 on damaged ones, and ``--fix``
    repairs them."""
    import io
    import json

    from django.core.management import call_command

    play_many(master=master, pool=pool, games=3, seed=11)
    out = io.StringIO()
    call_command("gm_community_recompute", "--json", stdout=out)
    assert json.loads(out.getvalue()) == {"reliability_differ": 0, "stat_rows_differ": 0, "history_agrees": True,
                                          "fixed": False}
    Reliability.objects.update(modkilled=7)
    with pytest.raises(SystemExit) as failed:
        call_command("gm_community_recompute", stdout=io.StringIO())
    assert failed.value.code == 1
    out = io.StringIO()
    call_command("gm_community_recompute", "--fix", "--json", stdout=out)
    assert json.loads(out.getvalue())["fixed"] is True
    assert services.reliability_recompute() == services.reliability_stored()
