"""The role card in a real browser (Debian's Chromium), at 375 px and 1280 px, in Russian and English: a forum Mafia
mafioso's card names his fellow mafiosi (FM-3.1) and says how he wins (FM-10.2), an ONUW player's card says how his
team wins (ON-9–ON-12) — all visible on the page, and the page does not scroll sideways."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from gm.modules.onuw.tests import test_shell as onuw
from tests.browser.conftest import NARROW, WIDE
from tests.integration import fm_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT_DIR = Path(__file__).resolve().parents[2] / "test-results" / "screenshots" / "role_card"

#: language → what the cards say (the teammates' heading, the win heading, the Mafia's and the village's condition).
WORDS = {
    "en": ("Your fellow mafiosi", "How you win", "The Mafia and the traitor win", "Village team: you win"),
    "ru": ("Ваши сообщники по Мафии", "Как вы побеждаете", "Мафия и предатель побеждают",
           "Деревенская команда: вы побеждаете"),
}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_FM_3_1_FM_10_ON_9_role_cards_show_teammates_and_win_condition(new_context, live_server, card_collection,
                                                                          master, make_user, players, language):
    fm_game, users = fm_table.build(master, make_user)  # Boris, Eva, Dmitri: the Mafia
    onuw_game = onuw.start(master, players)  # Alice: the seer (village)
    team_words, win_words, mafia_win, village_win = WORDS[language]
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    _ctx, fm_page = new_context(users["Boris"])
    _ctx, onuw_page = new_context(players[0])
    for page in (fm_page, onuw_page):  # the page language, in place of the English that new_context sets
        page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/",
                                   "domain": re.sub(r"^https?://", "", live_server.url).split(":")[0]}])
    for width in (NARROW, WIDE):
        for page, game, card, expected in (
                (fm_page, fm_game, "#fm-panel .role-secret", (team_words, "Eva", "Dmitri", win_words, mafia_win)),
                (onuw_page, onuw_game, "#onuw-panel", (win_words, village_win))):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"/games/{game.pk}/")
            box = page.locator(card)
            for text in expected:
                expect(box).to_contain_text(text)
            for part in ("#fm-teammates", "#fm-win") if page is fm_page else ("#onuw-win",):
                expect(page.locator(part)).to_be_visible()
                right = page.locator(part).evaluate("e => e.getBoundingClientRect().right")
                assert right <= width, (part, width, right)
            scroll = page.evaluate("document.documentElement.scrollWidth")
            assert scroll <= width, (language, width, game.module, scroll)
            page.screenshot(path=str(SCREENSHOT_DIR / f"{game.module}-{language}-{width}.png"), full_page=True)
