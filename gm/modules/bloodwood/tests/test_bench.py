"""Bloodwood's ``gm_bench`` figures (issue 20 item 8): one step's resolution with 12 and with 5 players and the game
page's query count. Speed is measured by the benchmark, never asserted here: these tests check the figures' shape
and that the query counts grow neither with the players nor with the steps played (BW-24)."""
from __future__ import annotations

import math

import pytest

from gm.core import registry

from ..bench import figures

pytestmark = pytest.mark.django_db


def test_BW_24_bench_a_steps_resolution_has_the_same_query_count_for_5_and_12_players(master):
    twelve = figures.resolution(master, players=12, phases=1)
    five = figures.resolution(master, players=5, phases=1)
    for res in (twelve, five):
        assert all(isinstance(v, int | float) and math.isfinite(v) for v in res.values()), res
    assert twelve["queries"] > 0 and twelve["queries"] == five["queries"], (twelve, five)


def test_BW_25_bench_the_game_page_query_count_is_independent_of_players_and_steps(master):
    out = figures.pages(master)
    assert out["bw_page_5p_queries"] > 0
    assert out["bw_page_5p_queries"] == out["bw_page_12p_queries"] == out["bw_page_12p_played_queries"], out


def test_bench_figures_and_goals_in_the_gm_bench_run(master):
    module = registry.get("bloodwood")
    out = module.bench_figures(master=master, quick=True)
    steps = {f"bw_step_{n}p_{k}" for n in (12, 5) for k in ("ms_median", "ms_p95", "queries")}
    assert set(out) == steps | {"bw_page_5p_queries", "bw_page_12p_queries", "bw_page_12p_played_queries"}
    fine = {**out, "resolution_16p_ms_median": out["bw_step_12p_ms_median"]}
    assert list(module.bench_goals_missed(fine)) == []
    slow = {**fine, "resolution_16p_ms_median": out["bw_step_12p_ms_median"] / 3,
            "bw_step_5p_queries": out["bw_step_12p_queries"] + 1,
            "bw_page_12p_played_queries": out["bw_page_12p_queries"] + 1}
    missed = list(module.bench_goals_missed(slow))
    assert len(missed) == 3 and "resolution_16p_ms_median" in missed[0] and "queries" in missed[1], missed
