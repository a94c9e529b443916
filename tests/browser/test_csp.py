"""The enforced Content-Security-Policy in a real browser: the lobby, a forum Mafia game page (htmx order form),
Swagger UI and Redoc load with no policy violation, and the API docs actually render from the local copies."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.integration import fm_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


def test_pages_render_without_csp_violations(new_context, live_server, card_collection, master, make_user):
    game, users = fm_table.build(master, make_user)
    _ctx, page = new_context(users["Boris"])
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text)
            if m.type == "error" and ("Content Security Policy" in m.text or "unsafe-eval" in m.text) else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: problems.append(f"third-party request {r.url}")
            if not r.url.startswith((live_server.url, "data:", "blob:")) else None)
    for path in ("/", f"/games/{game.pk}/"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("typeof htmx === 'object' && htmx.config.allowEval === false"), path
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Game-master API")
    page.goto("/api/redoc/")
    expect(page.locator("redoc h1").first).to_contain_text("Game-master API")
    # Redoc's bundle always draws its vendor's logo from cdn.redoc.ly (no option turns it off): the policy blocks
    # that image, which is what it is for; anything else is a violation of ours.
    assert not [p for p in problems if REDOC_LOGO not in p], problems
