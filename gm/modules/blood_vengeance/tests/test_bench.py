"""Blood Vengeance's ``gm_bench`` figures (issue 21): a night's resolution with 20 and with 6 players. Speed is
measured by the benchmark, never asserted here: these tests check the figures' shape, that the benchmark night is
the table it describes, and that the resolution's query count does not grow with the number of players."""
from __future__ import annotations

import math

import pytest

from gm.core import registry

from ..bench import figures

pytestmark = pytest.mark.django_db


def test_bench_a_night_resolves_with_a_query_count_independent_of_players(master):
    twenty = figures.resolution(master, players=20, phases=1)
    six = figures.resolution(master, players=6, phases=1)
    for res in (twenty, six):
        assert all(isinstance(v, int | float) and math.isfinite(v) for v in res.values()), res
    assert twenty["queries"] > 0 and twenty["queries"] == six["queries"], (twenty, six)


def test_bench_figures_and_goals_in_the_gm_bench_run(master):
    module = registry.get("blood_vengeance")
    out = module.bench_figures(master=master, quick=True)
    assert set(out) == {f"bv_resolution_{n}p_{k}" for n in (20, 6) for k in ("ms_median", "ms_p95", "queries")}
    fine = {**out, "resolution_16p_ms_median": out["bv_resolution_20p_ms_median"] + 1}
    assert list(module.bench_goals_missed(fine)) == []
    slow = {**fine, "resolution_16p_ms_median": out["bv_resolution_20p_ms_median"] / 2,
            "bv_resolution_6p_queries": out["bv_resolution_20p_queries"] + 1}
    missed = list(module.bench_goals_missed(slow))
    assert len(missed) == 2 and "resolution_16p_ms_median" in missed[0] and "queries" in missed[1]
    assert list(registry.get("onuw").bench_figures(master=master, quick=True)) == []  # the default: none
