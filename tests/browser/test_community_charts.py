"""The statistics page in a real browser (issue 24 item 3): Chart.js, served from the site's own static files, draws
the side and role charts under the enforced Content-Security-Policy with no violation and no third-party request."""
from __future__ import annotations

import random

import pytest

from gm.community.tests.botgames import T0, play_onuw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_stats_charts_draw_without_csp_violations(new_context, live_server, master, make_user):
    pool = [make_user(f"bot{i}") for i in range(8)]
    rng = random.Random(3)
    for _i in range(3):
        play_onuw(master=master, pool=pool, rng=rng, start=T0, abort_p=0, kill_p=0, replace_p=0)
    _ctx, page = new_context()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: problems.append(f"third-party request {r.url}")
            if not r.url.startswith((live_server.url, "data:", "blob:")) else None)
    page.goto("/stats/?module=onuw")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("typeof Chart === 'function'")
    for canvas in ("chart-sides", "chart-roles"):
        assert page.evaluate(f"!!Chart.getChart(document.getElementById('{canvas}'))"), canvas
        assert page.evaluate(f"Chart.getChart(document.getElementById('{canvas}')).data.labels.length") > 0
    assert problems == []
