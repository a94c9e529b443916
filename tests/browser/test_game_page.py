"""The player's game page in Debian's Chromium, at 375 px and 1280 px, in Russian and English: each test sets up one
game (the seven-player table of ``tests/integration/fm_table.py`` in Night 1, or a game in signup or deck building)
and loads its pages once per width and language.

- Taps in the order form (htmx swaps) and choosing a target leave the page where it was (``window.scrollY``).
- Errors and confirmations show next to the form that caused them, below the sticky page menu, in the viewport.
- A result held for the master's review is announced to players and spectators; a dead player is told why and
  what he may still see, on his page and in his inbox, and gets no order form.
- Deck building calls the player to the deck builder with the deadline; Submit stays in reach on a phone.
- Start, Withdraw signup, Replace player and Abort ask for confirmation.
"""
from __future__ import annotations

import re

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from gm.core import review
from gm.core.models import Phase
from gm.core.scenario import resolve_at_deadline
from tests.integration import fm_table
from tests.integration.test_game_page_notices import deck_building_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (375, 1280)
LANGUAGES = ("ru", "en")
COMBOS = [(w, lang) for w in WIDTHS for lang in LANGUAGES]


@pytest.fixture
def table(master, make_user, card_collection):
    game, users = fm_table.build(master, make_user)
    return game, users


@pytest.fixture
def building(master, make_user, card_collection):
    return deck_building_game(master, make_user)


def open_as(new_context, live_server, user, *, width: int, language: str, path: str, height: int = 800) -> Page:
    """A fresh browser profile logged in as ``user`` (``None``: anonymous) reading ``language``, ``width`` × ``height``
    px, at ``path``."""
    context, page = new_context(user)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}])
    page.set_viewport_size({"width": width, "height": height})
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


def in_view(page: Page, selector: str) -> dict:
    """Where ``selector``'s element is: its box, the viewport's height, the bottom of the sticky page menu, and
    whether the element is what a tap at its centre reaches (nothing sticky covers it)."""
    return page.evaluate("""(sel) => {
      const el = document.querySelector(sel); const r = el.getBoundingClientRect();
      const nav = document.querySelector('.dash-nav');
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
      return {top: r.top, bottom: r.bottom, height: window.innerHeight,
              nav: nav ? nav.getBoundingClientRect().bottom : 0, reached: !!hit && (el === hit || el.contains(hit))};
    }""", selector)


def test_review_and_death_are_told_on_the_page_and_in_the_inbox(new_context, live_server, table, master, spectator):
    game, users = table
    review.game_set_review(game=game, actor=master, enabled=True, reason="new rules")
    fm_table.night_orders(game, users)  # Alice shoots Boris with his last card
    resolve_at_deadline(Phase.objects.get(game=game, status=Phase.Status.OPEN))
    texts = {"en": ("The master is reviewing the results of Night 1", "You died in Night 1",
                    "unavailable: the dead use no abilities"),
             "ru": ("Мастер проверяет результаты фазы «Ночь 1»", "Вы погибли: Ночь 1",
                    "недоступно: мёртвые не пользуются способностями")}
    for width, language in COMBOS:
        held, _died, _spent = texts[language]
        for who in (users["Alice"], spectator):
            page = open_as(new_context, live_server, who, width=width, language=language, path=f"/games/{game.pk}/")
            notice = page.locator("#held")
            expect(notice).to_be_visible()
            expect(notice.get_by_role("heading")).to_have_text(held)
            expect(page.get_by_text("Boris has died.")).to_have_count(0)
            page.context.close()
    review.phase_publish(game=game, actor=master, reason="checked")
    from gm.inbox.services import notify_phase_results

    notify_phase_results(phase_id=Phase.objects.get(game=game, kind="night", number=1).pk)
    for width, language in COMBOS:
        _held, died, _spent = texts[language]
        page = open_as(new_context, live_server, users["Boris"], width=width, language=language,
                       path=f"/games/{game.pk}/")
        expect(page.locator("#fm-dead")).to_contain_text(died)
        expect(page.locator("#held")).to_have_count(0)
        expect(page.locator("#fm-order-form")).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.goto("/inbox/")
        expect(page.locator("main")).to_contain_text(died)
        page.context.close()
        alice = open_as(new_context, live_server, users["Alice"], width=width, language=language,
                        path=f"/games/{game.pk}/")
        expect(alice.locator("#fm-order-form")).to_be_visible()  # the living still order in Day 1
        expect(alice.locator("#fm-dead")).to_have_count(0)
        expect(alice.get_by_text(died)).to_have_count(0)
        alice.context.close()


def test_deck_building_calls_to_action_and_submit_stays_in_reach_on_a_phone(new_context, live_server, building):
    game, users = building
    labels = {"en": ("Build your deck", "Open the deck builder", "Submit deck"),
              "ru": ("Соберите колоду", "Открыть набор колоды", None)}
    for width, language in COMBOS:
        heading, link, _submit = labels[language]
        page = open_as(new_context, live_server, users[0], width=width, language=language,
                       path=f"/games/{game.pk}/", height=667)
        call = page.locator("#fm-deck-due")
        expect(call.get_by_role("heading")).to_have_text(heading)
        expect(call).to_contain_text(re.compile(r"\d:\d\d"))  # the deadline's time
        call.get_by_role("link", name=link).click()
        expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/deck/")
        # A deck with many problems: the summary's text grows, and the Submit button must still show.
        for field in page.locator("#deck-form input[type=number]").all()[:12:3]:
            field.fill("2")
        page.locator("#deck-form button[value=check]").click()
        expect(page.locator(".deck-summary .errorlist")).to_be_visible()
        for scroll in (0, 1500):  # the top of the page, and deep in the collection (the summary sticks)
            page.evaluate(f"window.scrollTo(0, {scroll})")
            page.wait_for_timeout(100)
            where = in_view(page, ".deck-summary button[value=submit]")
            assert where["reached"] and 0 <= where["top"] and where["bottom"] <= where["height"], \
                f"{width} px, {language}, scrolled {scroll}: Submit is hidden {where}"
        page.context.close()


def test_start_and_withdraw_need_the_confirmation_box(new_context, live_server, signup_game, master, players):
    game = signup_game
    for width, language in COMBOS:
        page = open_as(new_context, live_server, master, width=width, language=language, path=f"/games/{game.pk}/")
        start = page.locator("form[action$='/start/']")
        start.get_by_role("button").click()  # unticked: the browser refuses to send the form
        assert start.locator("#start-confirm").evaluate("box => box.validity.valueMissing")
        player = open_as(new_context, live_server, players[0], width=width, language=language,
                         path=f"/games/{game.pk}/")
        leave = player.locator("form[action$='/leave/']")
        leave.get_by_role("button").click()
        assert leave.locator("#leave-confirm").evaluate("box => box.validity.valueMissing")
        game.refresh_from_db()
        assert game.status == "signup" and game.seats.filter(user=players[0]).exists()
        player.context.close()
        if (width, language) == COMBOS[-1]:
            start.locator("#start-confirm").check()
            start.get_by_role("button").click()
            expect(page.locator("#phase")).to_be_visible()
            game.refresh_from_db()
            assert game.status == "running"
        page.context.close()


def test_replace_and_abort_need_the_box_and_the_dialog(new_context, live_server, table, master):
    game, users = table
    alice = game.seats.get(display_name="Alice")
    for width, language in COMBOS:
        page = open_as(new_context, live_server, master, width=width, language=language, path=f"/games/{game.pk}/")
        page.locator(f"#console-seat-{alice.pk} > summary").click()
        replace = page.locator(f"#console-seat-{alice.pk} form[action$='/seat/replace/']")
        replace.locator("input[name=user]").fill("boris")
        replace.locator("input[name=reason]").fill("test")
        replace.get_by_role("button").click()  # unticked: refused by the browser, no request
        assert replace.locator("input[name=confirm]").evaluate("box => box.validity.valueMissing")
        replace.locator("input[name=confirm]").check()
        dialogs: list[str] = []

        def answer(dialog, *, accept: bool = False, seen: list = dialogs) -> None:
            seen.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        page.once("dialog", answer)
        replace.get_by_role("button").click()  # ticked: htmx asks once more; dismissed, nothing is sent
        expect(replace.locator("input[name=confirm]")).to_be_checked()
        page.wait_for_timeout(200)
        assert len(dialogs) == 1
        abort = page.locator("form[action$='/console/abort/']")
        abort.locator("input[name=reason]").fill("moving servers")
        abort.get_by_role("button").click()
        assert abort.locator("input[name=confirm]").evaluate("box => box.validity.valueMissing")
        abort.locator("input[name=confirm]").check()
        accept = (width, language) == COMBOS[-1]
        page.once("dialog", lambda d, accept=accept, answer=answer: answer(d, accept=accept))
        if accept:
            with page.expect_response(lambda r: r.request.method == "POST" and "/console/abort/" in r.url):
                abort.get_by_role("button").click()
        else:
            abort.get_by_role("button").click()
            page.wait_for_timeout(200)
        assert len(dialogs) == 2
        game.refresh_from_db()
        alice.refresh_from_db()
        assert alice.user == users["Alice"]
        assert game.status == ("aborted" if accept else "running"), (width, language)
        page.context.close()


def assert_in_view(page: Page, selector: str, what: str) -> None:
    """``selector``'s element is inside the viewport, below the sticky page menu, and nothing covers it."""
    where = in_view(page, selector)
    assert where["top"] >= where["nav"] - 1 and where["bottom"] <= where["height"] and where["reached"], \
        f"{what}: {where}"


def test_feedback_appears_where_the_player_acted(new_context, live_server, table):
    game, users = table
    saved = {"en": "Your order is saved.", "ru": "Ваш приказ сохранён."}
    for width, language in COMBOS:
        page = open_as(new_context, live_server, users["Alice"], width=width, language=language,
                       path=f"/games/{game.pk}/")
        label = page.locator(".fm-slot-hand label.fm-choice").nth(1)
        with page.expect_response(lambda r: r.request.method == "POST" and "/fm/orders/" in r.url):
            label.click()
        target = page.locator(".fm-slot-hand .fm-picked select").first
        target.select_option(index=0)  # no target: refused, the reason next to the card
        save = page.locator("#fm-order-form button[value=submit]")
        save.scroll_into_view_if_needed()
        with page.expect_response(lambda r: r.request.method == "POST" and "/fm/orders/" in r.url):
            save.click()
        expect(page.locator("#fm-orders [role=alert]").first).to_be_visible()
        page.wait_for_timeout(200)
        assert_in_view(page, "#fm-orders [role=alert]", f"{width} px, {language}: the refusal")
        assert page.evaluate("document.activeElement.getAttribute('role')") == "alert"
        target = page.locator(".fm-slot-hand .fm-picked select").first
        target.select_option(index=target.locator("option").count() - 1)
        page.locator("#fm-order-form button[value=submit]").click()
        expect(page.locator("#fm-orders [role=status]")).to_have_text(re.compile(saved[language]))
        page.wait_for_timeout(200)
        assert_in_view(page, "#fm-orders [role=status]", f"{width} px, {language}: the confirmation")
        # A plain POST (no htmx: the page's script not loaded yet, or JavaScript off) comes back to #fm-orders with
        # the message at the top of the page: it is moved next to the order form, below the menu.
        page.evaluate("""() => { const f = document.querySelector('.fm-current form');
                                 HTMLFormElement.prototype.submit.call(f); }""")
        page.wait_for_url(re.compile("#fm-orders$"))
        expect(page.locator("#fm-orders .messages")).to_be_visible()
        page.wait_for_timeout(200)
        assert_in_view(page, "#fm-orders .messages", f"{width} px, {language}: the message after a redirect")
        page.context.close()
