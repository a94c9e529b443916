"""Pages a player reads around his games, in Debian's Chromium at 375 px and 1280 px, in Russian and English:

* the language switcher is compact on a phone: in the header's first row, small, still switching (issue 17, 18);

Each test sets up its data once and loads one page per (width, language) combination; nothing here needs the
Celery worker (phases are resolved by calling the service).
"""
from __future__ import annotations

import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, WIDE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Every (width, language) combination a page is checked in.
COMBOS = [(width, language) for width in (NARROW, WIDE) for language in ("ru", "en")]
OVERFLOW_JS = "() => document.documentElement.scrollWidth"


def show(new_context, live_server, user, language: str, width: int, path: str):
    """A page at ``path`` as ``user`` (``None``: anonymous) in ``language`` at ``width`` px; asserts it does not
    scroll sideways."""
    context, page = new_context(user)
    host = re.sub(r"^https?://", "", live_server.url).split(":")[0]
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}])
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(path)
    assert page.locator("html").get_attribute("lang") == language
    assert page.evaluate(OVERFLOW_JS) <= width, f"{path} scrolls sideways at {width} px in {language}"
    return page


# -- the language switcher -----------------------------------------------------------------------------------------


def test_language_switcher_is_compact_on_a_phone_and_switches(new_context, live_server, make_user):
    user = make_user("reader")  # a logged-in header has the most links
    for width, language in COMBOS:
        page = show(new_context, live_server, user, language, width, "/")
        switch = page.locator(".lang-switch")
        box = switch.bounding_box()
        brand = page.locator(".site-header .brand").bounding_box()
        if width == NARROW:
            # on the brand's row, a small control (RU | EN): it takes no row of its own
            assert box["height"] <= 34 and box["width"] <= 100, box
            assert abs((box["y"] + box["height"] / 2) - (brand["y"] + brand["height"] / 2)) <= 12, (box, brand)
            assert box["x"] + box["width"] <= width
            expect(switch.get_by_role("button", name="English")).to_have_text("EN", use_inner_text=True)
        else:
            expect(switch.get_by_role("button", name="English")).to_have_text("English", use_inner_text=True)
        expect(switch.locator('button[aria-pressed="true"]')).to_have_attribute("value", language)
        other = "en" if language == "ru" else "ru"
        switch.locator(f'button[value="{other}"]').click()
        expect(page.locator("html")).to_have_attribute("lang", other)
        page.context.close()
