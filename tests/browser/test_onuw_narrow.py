"""The ONUW game page on a 375 px wide phone screen, in Debian's Chromium: no horizontal scroll for a player in the
night (his night form, ON-4) and by day (the vote form, ON-6), nor for anyone reading the full reveal after the game
(ON-3), whose values keep a readable column instead of being squeezed word by word."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from playwright.sync_api import sync_playwright

from gm.modules.onuw.tests.test_shell import NAMES, post_order, resolve, seat, start

pytestmark = pytest.mark.django_db(transaction=True)

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync"]
WIDTH = 375
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')].filter(el => el.getBoundingClientRect().right > width + 0.5)
    .map(el => el.tagName + (el.id ? '#' + el.id : '') + (el.className ? '.' + el.className : ''));
  return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 10)};
}"""


def _session(user) -> dict:
    client = Client()
    client.force_login(user)
    return {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}


def test_ON_4_and_ON_6_the_game_page_fits_a_375px_screen(transactional_db, live_server, master, players, spectator,
                                                          monkeypatch):
    # The database fixture first, so it is torn down after the live server. Playwright's sync API keeps an event loop
    # in this thread; the test's own ORM calls between pages are safe (one at a time).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    game = start(master, players)  # Alice seer, Boris the lone werewolf, Clara robber, Dima troublemaker
    url = f"{live_server.url}{game.get_absolute_url()}"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=LAUNCH_ARGS)

        def look(user, *, expect: str) -> dict:
            context = browser.new_context(viewport={"width": WIDTH, "height": 800}, locale="en-US")
            if user is not None:
                context.add_cookies([{**_session(user), "url": live_server.url}])
            context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}])
            page = context.new_page()
            page.goto(url)
            assert page.locator(expect).count() >= 1, expect
            facts = page.evaluate(OVERFLOW)
            facts["dd"] = page.eval_on_selector_all(".reveal-seat dd", "els => els.map(e => e.clientWidth)")
            context.close()
            return facts

        try:
            for user, form in ((players[0], "input[name=look]"), (players[3], "input[name=swap]"),
                               (master, "#console-h")):
                facts = look(user, expect=form)
                assert facts["scroll"] <= facts["width"] and not facts["wide"], facts
            post_order(players[0], game, {"look": "center1+center3"})
            post_order(players[2], game, {"swap_with": seat(game, "Dima").pk})
            resolve(game)
            facts = look(players[1], expect="input[name=vote]")
            assert facts["scroll"] <= facts["width"] and not facts["wide"], facts
            for name in NAMES:
                post_order(players[NAMES.index(name)], game, {"vote": seat(game, "Boris" if name != "Boris"
                                                                              else "Alice").pk})
            resolve(game)
            for user in (None, spectator, players[1]):
                facts = look(user, expect="#reveal")
                assert facts["scroll"] <= facts["width"] and not facts["wide"], facts
                # the reveal's values keep at least half of a phone's line, not a word-wide sliver
                assert facts["dd"] and min(facts["dd"]) >= WIDTH // 2 - 20, facts
        finally:
            browser.close()
            connections.close_all()  # the connection the ORM opened inside Playwright's loop context
