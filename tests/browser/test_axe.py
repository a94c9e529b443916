"""Accessibility (issue 24 item 7): every page kind of the site and of forum Mafia passes an axe-core audit in
Chromium with no serious or critical violation, in English on a desktop (1280 px, light scheme) and in Russian on a
phone (375 px, dark scheme). The other modules' pages: ``test_axe_modules.py`` (a second file, so that
pytest-xdist's ``--dist loadfile`` runs the two walks side by side).

The games are the developer demo (``manage.py gm_demo``: forum Mafia in signup and in Night 1, and every other
module's demo game) plus a seven-player forum Mafia table played into Day 1 (a dead player, the graveyard on, two
votes in the Veche, a chat room), built once for the file (``tests/browser/axe_site.py``). Each page kind names who
looks at it: a seated player, the master, a spectator (a logged-in user without a seat) or an anonymous visitor.

Not audited: the API's Swagger UI (``/api/docs/``) and ReDoc pages — third-party single-page apps served as they
are, not templates of this site — and the Django admin (Django's own templates).
"""
from __future__ import annotations

import pytest

from tests.browser.axe_site import (
    GAME_PAGES,
    NOT_FOUND,
    build_site,
    check_page,
    close_contexts,
    game_cases,
    params,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def _site_cases() -> list[tuple]:
    """The pages outside a game: ``(case name, None, viewer, path)``."""
    pages = {
        "lobby-anonymous": (None, "/"),
        "lobby-player": ("player1", "/?module=forum_mafia"),
        "signup": (None, "/accounts/signup/"),
        "login": (None, "/accounts/login/"),
        "password-reset": (None, "/accounts/password/reset/"),
        "profile": ("player1", "/accounts/profile/"),
        "account-delete": ("player1", "/accounts/delete/"),
        "api-token": ("player1", "/accounts/api-token/"),
        "bot-guide": ("player1", "/api/bots/"),
        "inbox": ("player1", "/inbox/"),
        "my-games": ("player1", "/my-games/"),
        "away": ("player1", "/away/"),
        "standby-board": (None, "/standby/"),
        "rules-index": (None, "/rules/"),
        "new-game": ("master", "/games/new/"),
        "not-found": (None, NOT_FOUND),
        # the community's pages (issue 24)
        "stats": (None, "/stats/"),
        "player-record": (None, "/players/player1/"),
        "sanctions": (None, "/sanctions/"),
        "chat-channels": ("player1", "/accounts/notifications/channels/"),
        "privacy": (None, "/privacy/"),
    }
    for module in ("forum_mafia", "onuw", "bloodwood", "blood_vengeance", "october_night"):
        pages[f"new-game-{module}"] = ("master", f"/games/new/?module={module}")
    return [(f"site-{kind}", None, viewer, path) for kind, (viewer, path) in pages.items()]


def _rules_cases() -> list[tuple]:
    """Each rules page (long documents in one language: audited in one look)."""
    from gm.core import rules

    return [(f"rules-{doc.slug}", None, None, doc.url) for doc in rules.documents()]


#: The pages of the core that every module's game shares, audited on the richest game (forum Mafia's Day 1), and
#: forum Mafia's own pages: ``(case name, game key, viewer, path)``.
FM_CASES = [
    ("fm_day-console-life", "fm_day", "master", "/games/{pk}/console/life/"),
    ("fm_day-phase-index", "fm_day", "player", "/games/{pk}/phases/"),
    ("fm_day-iso-seat", "fm_day", "spectator", "/games/{pk}/iso/{seat}/"),
    ("fm_day-iso-master", "fm_day", None, "/games/{pk}/iso/master/"),
    ("fm_day-votes", "fm_day", "spectator", "/games/{pk}/votes/?phase=3"),
    ("fm_day-graveyard", "fm_day", "dead", "/games/{pk}/graveyard/"),
    ("fm_day-veche", "fm_day", "player", "/games/{pk}/fm/veche/"),
    ("fm_day-room", "fm_day", "member", "/games/{pk}/fm/rooms/room:0-1/"),
    ("fm_day-game-dead", "fm_day", "dead", "/games/{pk}/"),
    ("fm_night-my-cards", "fm_night", "player", "/games/{pk}/cards/"),
    ("fm_signup-signup-form", "fm_signup", "spectator", "/games/{pk}/fm/signup/"),
    ("fm_signup-game-page", "fm_signup", None, "/games/{pk}/"),
    ("fm_signup-game-page-signed", "fm_signup", "player1", "/games/{pk}/"),
    ("fm_signup-console", "fm_signup", "master", "/games/{pk}/console/"),
    ("fm_signup-balance", "fm_signup", "master", "/games/{pk}/balance/"),
    ("fm_signup-requirements", "fm_signup", "master", "/games/{pk}/requirements/"),
]


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """The live server and the games, built once for this file (see ``axe_site``)."""
    yield from build_site(django_db_blocker, fm_day=True)


@pytest.fixture(scope="module")
def browser(chromium, site):
    """The browser (first: without Chromium the file is skipped before the games are built), whose profiles (one
    per viewer and look) are closed before it is."""
    yield chromium
    close_contexts(site)


@pytest.mark.parametrize(("game_key", "viewer", "path", "look"), [
    *params(_site_cases()), *params(_rules_cases(), looks=("en-1280-light",)),
    *params(game_cases(["fm_night", "fm_day"], GAME_PAGES)), *params(FM_CASES)])
def test_page_has_no_serious_axe_violation(browser, site, game_key, viewer, path, look):
    """axe-core (WCAG 2.2 A/AA and best practices) finds nothing serious or critical on the page."""
    check_page(site, browser, game_key, viewer, path, look)


def test_veche_vote_by_keyboard_only_is_announced_and_counted(browser, site):
    """A player votes in forum Mafia's Veche (FM-7) with the keyboard only: Tab to the vote's select, an arrow key
    to a character, Tab to a punishment and Space, Tab to "Vote" and Enter. htmx swaps the Veche in; the focus
    moves to its confirmation (a status message inside the Veche, an aria-live region) and the tally counts the
    vote; every region htmx swaps on the page is a live region, and what a poll brings in (the unread badge) is read
    out from the page's permanent live region."""
    from gm.core.models import Order
    from tests.browser.axe_site import page_for, tab_to, visit

    game = site.games["fm_day"]
    page = page_for(site, browser, "voter", "en-1280-light")
    visit(page, f"/games/{game.pk}/")
    assert page.evaluate(LIVE_TARGETS_JS) == [], "htmx targets without aria-live"

    before = page.locator("#fm-veche-count").inner_text()
    tab_to(page, "#fm-vote-for")
    page.keyboard.press("ArrowDown")  # "For peace"
    page.keyboard.press("ArrowDown")  # the first character
    chosen = page.evaluate("document.getElementById('fm-vote-for').value")
    assert chosen.isdigit(), chosen
    tab_to(page, "input[name=punishment]")
    page.keyboard.press("Space")
    tab_to(page, "#fm-vote-form button[value=vote]")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('#fm-veche [role=status]')")
    assert page.evaluate("document.activeElement.closest('[aria-live]').id") == "fm-veche"
    order = Order.objects.filter(phase__game=game, seat__user=site.users["voter"]).order_by("-version").first()
    assert order is not None and str(order.payload["vote"]["for"]) == chosen
    assert page.locator("#fm-veche-count").inner_text() != before
    assert page.evaluate(LIVE_TARGETS_JS) == [], "htmx targets without aria-live"

    # A region htmx swaps without a form (the unread badge's poll) is read out from the permanent live region.
    page.evaluate("htmx.ajax('GET', '/inbox/badge/', {target: '#inbox-unread', swap: 'outerHTML'})")
    page.wait_for_function("() => (document.getElementById('gm-announcer').textContent || '').trim() !== ''")
    badge = " ".join(page.locator("#inbox-unread").text_content().split())
    assert "unread" in badge and page.locator("#gm-announcer").text_content() == badge


#: The ids of the regions htmx swaps on the page (``hx-target`` of an element, or the element itself when it
#: loads or polls) that are neither a live region nor inside one.
LIVE_TARGETS_JS = """() => {
  const live = '[aria-live], [role=status], [role=alert], [role=log]';
  const out = [];
  document.querySelectorAll('[hx-get], [hx-post]').forEach(e => {
    const sel = e.getAttribute('hx-target');
    const target = sel ? document.querySelector(sel) : e;
    if (!target || !target.closest(live)) out.push(sel || e.id || e.outerHTML.slice(0, 80));
  });
  return out; }"""


def test_night_order_by_keyboard_only_keeps_the_focus(browser, site):
    """Forum Mafia's night order form (FM-5, htmx) with the keyboard only: Tab to the night's mode and an arrow key
    to "discard two Hand cards" (FM-5.3) — the form saves itself and is swapped in, the focus staying on the same
    radio —, Tab and Space on two Hand cards, Tab to "Save" and Enter: the order is saved and the focus is on its
    confirmation, a status message inside the order's live region."""
    from gm.core.models import Order
    from tests.browser.axe_site import FOCUSED_JS, page_for, tab_to, visit

    game = site.games["fm_night"]
    page = page_for(site, browser, "seat-fm_night", "en-1280-light")
    visit(page, f"/games/{game.pk}/")
    tab_to(page, "#fm-mode-play")
    page.keyboard.press("ArrowDown")
    page.wait_for_selector("#fm-order-form input[name=discard]")
    assert page.evaluate(FOCUSED_JS)["id"] == "fm-mode-discard"
    for _card in range(2):
        tab_to(page, "#fm-order-form input[name=discard]:not(:checked)")
        page.keyboard.press("Space")
    tab_to(page, "#fm-order-form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('#fm-orders [role=status]')")
    assert page.evaluate("document.activeElement.closest('[aria-live]').id") == "fm-orders"
    order = Order.objects.filter(phase__game=game, seat__user=site.users["seat-fm_night"]).order_by("-version").first()
    assert order is not None and len(order.payload.get("discard") or []) == 2, order and order.payload
