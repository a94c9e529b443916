"""The player's game page in Debian's Chromium, at 375 px and 1280 px, in Russian and English."""
from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from tests.integration import fm_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (375, 1280)
LANGUAGES = ("ru", "en")
COMBOS = [(w, lang) for w in WIDTHS for lang in LANGUAGES]


@pytest.fixture
def table(master, make_user, card_collection):
    game, users = fm_table.build(master, make_user)
    return game, users


def open_as(new_context, live_server, user, *, width: int, language: str, path: str) -> Page:
    context, page = new_context(user)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}])
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(path)
    return page


def settled_scroll(page: Page) -> float:
    """``window.scrollY`` once htmx has settled the swap (its settle delay is 20 ms)."""
    page.wait_for_timeout(200)
    return page.evaluate("window.scrollY")


def test_order_form_taps_keep_the_page_where_it_is(new_context, live_server, table):
    """Picking a card re-renders the order form (htmx swaps the section): the page must stay where the player
    tapped (it used to jump by the form's height), and so must choosing the card's target."""
    game, users = table
    for width, language in COMBOS:
        page = open_as(new_context, live_server, users["Alice"], width=width, language=language,
                       path=f"/games/{game.pk}/")
        for nth in (1, 2):  # the first card, then another: the form is swapped each time
            label = page.locator(".fm-slot-hand label.fm-choice").nth(nth)
            label.evaluate("el => el.scrollIntoView({block: 'center'})")
            before = settled_scroll(page)
            with page.expect_response(lambda r: r.request.method == "POST" and "/fm/orders/" in r.url):
                label.click()
            after = settled_scroll(page)
            assert abs(after - before) <= 50, f"{width} px, {language}: a tap moved the page {before} → {after}"
            expect(page.locator(".fm-slot-hand .fm-picked")).to_have_count(1)
            target = page.locator(".fm-slot-hand .fm-picked select").first
            before = settled_scroll(page)
            target.select_option(index=target.locator("option").count() - 1)
            after = settled_scroll(page)
            assert abs(after - before) <= 50, f"{width} px, {language}: a select moved the page {before} → {after}"
        page.context.close()
