"""Accessibility (issue 24 item 7), the second half of ``test_axe.py``'s walk: the game page (for a seated player,
the master and a spectator) and the master's console of One Night Ultimate Werewolf, Bloodwood, Blood Vengeance and
October Night pass an axe-core audit with no serious or critical violation, in English at 1280 px (light) and in
Russian at 375 px (dark). The games are the modules' demo games (``manage.py gm_demo``)."""
from __future__ import annotations

import json

import pytest

from tests.browser.axe_site import build_site, check_page, close_contexts, game_cases, params

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

MODULES = ["onuw", "bloodwood", "blood_vengeance", "october_night"]


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """The live server and the demo games, built once for this file (see ``axe_site``)."""
    yield from build_site(django_db_blocker, fm_day=False)


@pytest.fixture(scope="module")
def browser(chromium, site):
    """The browser (first: without Chromium the file is skipped before the games are built), whose profiles (one
    per viewer and look) are closed before it is."""
    yield chromium
    close_contexts(site)


@pytest.mark.parametrize(("game_key", "viewer", "path", "look"), params(game_cases(MODULES)))
def test_page_has_no_serious_axe_violation(browser, site, game_key, viewer, path, look):
    """axe-core (WCAG 2.2 A/AA and best practices) finds nothing serious or critical on the page."""
    check_page(site, browser, game_key, viewer, path, look)


def test_october_night_board_and_order_form_by_keyboard_only(browser, site):
    """A player of October Night reaches every location of the SVG board with Tab, each named by what is there
    (OC-11.3, OC-11.5); Enter on one opens its entry in the location list; then, with the keyboard only, he picks
    "rest" as his line and sends the order, which is saved and confirmed in a status message."""
    from django.utils import translation

    from gm.core.models import Order
    from gm.modules.october_night.selectors import board
    from tests.browser.axe_site import FOCUSED_JS, page_for, tab_to, visit

    game = site.games["october_night"]
    user = site.users["seat-october_night"]
    page = page_for(site, browser, "seat-october_night", "en-1280-light")
    visit(page, f"/games/{game.pk}/")
    with translation.override("en"):
        names = [loc["name"] for loc in board(game.state)["locations"]]

    passed = tab_to(page, "input[name=main]")
    on_map = [f for f in passed if "oc-map-loc" in f["cls"]]
    assert [f["label"].split(",")[0].split(".")[0] for f in on_map] == names
    assert any("you are here" in f["label"] for f in on_map), on_map

    # Enter on a location of the board (Shift+Tab back to the last one) shows its entry of the list.
    while "oc-map-loc" not in page.evaluate(FOCUSED_JS)["cls"]:
        page.keyboard.press("Shift+Tab")
    slug = page.evaluate("document.activeElement.getAttribute('href')").removeprefix("#")
    page.keyboard.press("Enter")
    entry = page.locator(f"#{slug}")
    assert entry.is_visible() and page.evaluate("document.activeElement.id") == slug

    # Back to the order form; the radio group of the lines is walked with the arrow keys.
    tab_to(page, "input[name=main]")
    for _press in range(40):
        if page.evaluate("document.activeElement.value") == "rest":
            break
        page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.checked && document.activeElement.value") == "rest"
    tab_to(page, "form.oc-order button[type=submit]")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    order = Order.objects.filter(phase__game=game, seat__user=user).order_by("-version").first()
    assert order is not None and "rest" in json.dumps(order.payload), order and order.payload
    assert page.locator(".messages[role=status]").is_visible()
    assert page.locator("#oc-current-order").is_visible()
