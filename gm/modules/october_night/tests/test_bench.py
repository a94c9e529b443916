"""October Night's ``gm_bench`` figures (issue 22 item 6): one action phase with 5 and with 3 players and the game
page's query count. Speed is measured by the benchmark, never asserted here: these tests check the figures' shape and
that the query counts grow neither with the players nor with the days played (OC-3, OC-11)."""
from __future__ import annotations

import math

import pytest

from gm.core import registry

from ..bench import figures

pytestmark = pytest.mark.django_db


def test_OC_3_bench_a_phases_resolution_has_the_same_query_count_for_3_and_5_players(master):
    five = figures.resolution(master, players=5, phases=1)
    three = figures.resolution(master, players=3, phases=1)
    for res in (five, three):
        assert all(isinstance(v, int | float) and math.isfinite(v) for v in res.values()), res
    assert five["queries"] > 0 and five["queries"] == three["queries"], (five, three)


def test_OC_11_bench_the_game_page_query_count_is_independent_of_days_played(master):
    out = figures.pages(master)
    assert out["oc_page_queries"] > 0 and out["oc_page_queries"] == out["oc_page_played_queries"], out


def test_bench_figures_and_goals_in_the_gm_bench_run(master):
    module = registry.get("october_night")
    out = module.bench_figures(master=master, quick=True)
    phases = {f"oc_phase_{n}p_{k}" for n in (5, 3) for k in ("ms_median", "ms_p95", "queries")}
    assert set(out) == phases | {"oc_page_queries", "oc_page_played_queries"}
    fine = {**out, "resolution_16p_ms_median": out["oc_phase_5p_ms_median"] + 1}
    assert list(module.bench_goals_missed(fine)) == []
    slow = {**fine, "resolution_16p_ms_median": out["oc_phase_5p_ms_median"] / 2,
            "oc_phase_3p_queries": out["oc_phase_5p_queries"] + 1,
            "oc_page_played_queries": out["oc_page_queries"] + 1}
    missed = list(module.bench_goals_missed(slow))
    assert len(missed) == 3 and "resolution_16p_ms_median" in missed[0] and "queries" in missed[1], missed
