"""Accessibility (issue 24 item 7), the second half of ``test_axe.py``'s walk: the game page (for a seated player,
the master and a spectator) and the master's console of One Night Ultimate Werewolf, Bloodwood, Blood Vengeance and
October Night pass an axe-core audit with no serious or critical violation, in English at 1280 px (light) and in
Russian at 375 px (dark). The games are the modules' demo games (``manage.py gm_demo``)."""
from __future__ import annotations

import pytest

from tests.browser.axe_site import build_site, check_page, close_contexts, game_cases, params

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

MODULES = ["onuw", "bloodwood", "blood_vengeance", "october_night"]


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """The live server and the demo games, built once for this file (see ``axe_site``)."""
    yield from build_site(django_db_blocker, fm_day=False)


@pytest.fixture(scope="module")
def browser(site, chromium):
    """The browser, whose profiles (one per viewer and look) are closed before it is."""
    yield chromium
    close_contexts(site)


@pytest.mark.parametrize(("game_key", "viewer", "path", "look"), params(game_cases(MODULES)))
def test_page_has_no_serious_axe_violation(site, browser, game_key, viewer, path, look):
    """axe-core (WCAG 2.2 A/AA and best practices) finds nothing serious or critical on the page."""
    check_page(site, browser, game_key, viewer, path, look)
