"""The master's console in a real browser (issue 17 item 17), at 375 px and 1280 px, in Russian and English: the
game page with the console open does not scroll sideways even with long character names (the seat table and the
console's seat entries wrap them), and a seat edit goes through the form — the master opens a seat, opens its edit
form (htmx), picks a card by its name, gives a reason and saves; the console comes back naming the new card.

One game for the whole module's story; each of the four width × language combinations loads the page once and
makes one edit."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from gm.core import services
from gm.core.models import Seat
from gm.modules.forum_mafia.services.overrides import game_setup_override

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT_DIR = Path(__file__).resolve().parents[2] / "test-results" / "screenshots" / "console"
#: Long names, one without a single space: the table and the console must wrap them at 375 px.
NAMES = ["MaximilianusKonstantinopolskiyVysheslavtsev", "Александра Длинноимённая-Верещагина", "Clara",
         "Dmitri", "Eva"]
ROLES = ["sheriff", "mafia_boss", "doctor", "mafia_killer", "detective"]
#: Each combination puts a different card in front of the long-named player's Hand: (card slug, its name).
EDITS = {("ru", 375): ("coffee", "Кофе"), ("ru", 1280): ("pistol", "Пистолет"),
         ("en", 375): ("coffee", "Coffee"), ("en", 1280): ("pistol", "Pistol")}


@pytest.fixture
def game(master, make_user, card_collection):
    """A forum Mafia table in Night 1 (the master's setup override), the first player's Hand: Tail, Tail."""
    game = services.game_create(master=master, module="forum_mafia", title="Console", options={}, rng_seed=7)
    players = [{"user": make_user(f"player{i}"), "name": name, "public_role": {"custom": f"Role {i}"},
                "secret_role": role, "hand": ["tail", "tail"], "sleeve": [], "deck": ["coffee"] * 3}
               for i, (name, role) in enumerate(zip(NAMES, ROLES, strict=True))]
    game_setup_override(game=game, actor=master, players=players, start_kind="night", start_number=1)
    game.refresh_from_db()
    return game


def no_sideways_scroll(page, width: int, what: str) -> None:
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"{what}: the page scrolls sideways at {width} px (scrollWidth {scroll_width})"


def test_console_fits_the_screen_and_edits_a_seat_through_the_form(new_context, live_server, game, master):
    from django.conf import settings

    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    seat = Seat.objects.get(game=game, display_name=NAMES[0])
    host = re.sub(r"^https?://", "", live_server.url).split(":")[0]
    context, page = new_context(master)
    for (language, width), (slug, card) in EDITS.items():
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host,
                              "path": "/"}])
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/games/{game.pk}/?view={language}-{width}")  # a new URL each time: a real page load
        expect(page.locator("html")).to_have_attribute("lang", language)
        entry = page.locator(f"#console-seat-{seat.pk}")
        entry.locator("summary").click()
        no_sideways_scroll(page, width, f"{language} game page with the console")
        entry.locator(".seat-edit-open").click()  # the form comes in by htmx
        picker = page.locator(f"#edit-{seat.pk}-hand-0")
        expect(picker).to_be_visible()
        no_sideways_scroll(page, width, f"{language} seat edit form")
        picker.select_option(label=card)
        page.locator(f"#edit-{seat.pk}-reason").fill("misdeal" if language == "en" else "ошибка раздачи")
        page.screenshot(path=str(SCREENSHOT_DIR / f"edit-{language}-{width}.png"), full_page=True)
        page.locator(f"#seat-edit-{seat.pk} button[type=submit]").click()
        notice = page.locator("#console .notice")
        expect(notice).to_contain_text(NAMES[0])
        entry = page.locator(f"#console-seat-{seat.pk}")
        expect(entry.locator("dl")).to_contain_text(card, use_inner_text=False)
        no_sideways_scroll(page, width, f"{language} console after the edit")
        seat.refresh_from_db()
        assert seat.data["cards"]["hand"][0]["kind"] == slug
