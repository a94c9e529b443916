"""Live pages in a real browser: a game page left open sees the phase change after the master resolves it (the phase
card polls) and a "N new posts — show" bar after another player posts (the thread polls); the bar's link brings the
new posts in without a reload. At a phone's and a desktop's width, in Russian and in English; the pages poll every
second here (every 30 s on the site: the same code path) so the test stays short."""
from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import expect

from gm.core import services
from tests.browser.conftest import HEIGHT, NARROW, WIDE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The texts each language shows (from the catalogues, so a changed wording fails here, not silently).
WORDS = {
    "en": {"changed": "The phase has changed.", "new": "1 new post — show"},
    "ru": {"changed": "Фаза сменилась.", "new": "1 новое сообщение — показать"},
}


@pytest.mark.parametrize(("width", "language"), [(NARROW, "ru"), (WIDE, "en")])
def test_open_page_follows_the_phase_and_new_posts(new_context, live_server, running_game, master, players,
                                                    settings, width, language):
    settings.GM_LIVE_POLL_SECONDS = 1
    words = WORDS[language]
    context, page = new_context(players[0])
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page.set_viewport_size({"width": width, "height": HEIGHT})
    page.goto(f"/games/{running_game.pk}/")
    heading = page.locator("#phase-h")
    before = heading.inner_text()
    expect(page.locator("#phase-live")).not_to_contain_text(words["changed"])

    # the master resolves the phase (the service a resolve-now or the worker calls); the open page follows. A poll
    # may land between the claim (the phase is "being resolved", still Round 1) and the commit of the next phase:
    # the card then says the phase changed before its heading names the next one, which the next poll brings.
    services.phase_resolve_now(game=running_game, actor=master)
    expect(page.locator("#phase-live")).to_contain_text(words["changed"])
    with translation.override(language):
        label = str(running_game.phases.get(status="open").label)
    assert label != before
    expect(heading).to_have_text(label)

    # another player posts; the bar offers the new post, and its link brings it in
    expect(page.locator("#thread-news")).to_be_empty()
    services.post_create(game=running_game, user=players[1], body="Fresh news from the table")
    bar = page.locator("#thread-news a")
    expect(bar).to_have_text(words["new"])
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    bar.click()
    expect(page.locator("#thread")).to_contain_text("Fresh news from the table")
    expect(page.locator("#thread-news")).to_be_empty()
