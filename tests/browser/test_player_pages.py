"""Pages a player reads around his games, in Debian's Chromium at 375 px and 1280 px, in Russian and English:

* the language switcher is compact on a phone: in the header's first row, small, still switching (issue 17, 18);
* "My games" lists what each game needs from the player, most urgent first; the inbox groups by game with a
  "mark all read" per game (issue 17, 10);
* the rules pages (``/rules/<file>/#<ID>``) land on the rule, fit a phone, and rule IDs anywhere link there; the
  signup role picker shows the chosen public role's ability (FM-8) and the character name is optional (FM-2.1)
  (issue 17, 11);
* the thread's composer explains how to propose a chat room, and a lapsed proposal says why (FM-9.3) (issue 17, 14);
* the Veche count explains the rule that decides a tie (FM-7.4 hanging priority, FM-7.2 jail) (issue 17, 15);

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


# -- the Veche ------------------------------------------------------------------------------------------------------


def fm_day(master, make_user, players: list[dict], title: str = "Veche"):
    """A forum Mafia game set up by the master in Day 1 with ``players`` (``game_setup_override`` entries without
    users; a user is made for each); returns ``(game, {name: user})``."""
    from gm.core import services as core
    from gm.modules.forum_mafia.services.overrides import game_setup_override

    users = {p["name"]: make_user(p["name"].lower()) for p in players}
    game = core.game_create(master=master, module="forum_mafia", title=title, options={}, rng_seed=17)
    game_setup_override(game=game, actor=master, players=[{**p, "user": users[p["name"]]} for p in players],
                        start_kind="day", start_number=1)
    game.refresh_from_db()
    return game, users


THREE = ["advice", "bluff", "tail"]
VECHE_TABLE = [
    {"name": "Anna", "public_role": "authority", "secret_role": "sheriff", "hand": THREE},
    {"name": "Boris", "public_role": "politician", "secret_role": "mafia_boss", "hand": THREE},
    {"name": "Pavel", "public_role": "prosecutor", "secret_role": "commissioner", "hand": THREE},
    {"name": "Max", "public_role": "paranoid", "secret_role": "maniac", "hand": THREE},
    {"name": "Vera", "secret_role": "mafia_killer", "hand": THREE},
]


def test_FM_7_4_veche_count_explains_the_tie_rule(new_context, live_server, master, make_user, card_collection):
    from gm.core.models import Phase
    from gm.modules.forum_mafia.services import signup as fm

    game, users = fm_day(master, make_user, VECHE_TABLE)
    phase = game.phases.get(status=Phase.Status.OPEN)
    seat = {s.display_name: s.pk for s in game.seats.all()}
    fm.vote_submit(phase=phase, user=users["Anna"], target=seat["Max"], punishment="execution")  # 2
    fm.vote_submit(phase=phase, user=users["Pavel"], target=seat["Boris"], punishment="jail")  # 1
    fm.vote_submit(phase=phase, user=users["Vera"], target=seat["Boris"], punishment="jail")  # 1
    expected = {"en": ["Max (Paranoid) → Boris (Politician). Max leads.", "a tie means jail (FM-7.2)"],
                "ru": ["Max (Параноик) → Boris (Политик). Лидирует Max.", "при равенстве — тюрьма (FM-7.2)"]}
    for width, language in COMBOS:
        page = show(new_context, live_server, users["Boris"], language, width, game.get_absolute_url())
        standing = page.locator("#fm-veche-count .fm-veche-standing")
        for text in expected[language]:
            expect(standing).to_contain_text(text)
        assert standing.bounding_box()["width"] <= width
        page.context.close()


# -- My games and the inbox ----------------------------------------------------------------------------------------


def test_my_games_and_the_inbox_by_game(new_context, live_server, master, make_user, card_collection):
    from datetime import timedelta

    from django.utils import timezone

    from gm.inbox.models import Notification
    from tests.integration.test_my_games import fm_signup, fm_started

    me = make_user("me")
    night = fm_started(master, make_user, me, "night", "night", timedelta(hours=5, minutes=10))
    signup = fm_signup(master, me)
    for i, game in enumerate((night, night, signup)):
        Notification.objects.create(user=me, game=game, kind=Notification.Kind.ROOM_INVITATION,
                                    data={"members": ["Night1"]}, key=f"k{i}", created_at=timezone.now())
    expected = {"en": ("My games", "You owe an order in Night 1. — 5 h left"),
                "ru": ("Мои игры", "За вами приказ: Ночь 1. — ещё 5 ч")}
    for width, language in COMBOS:
        page = show(new_context, live_server, me, language, width, "/")
        link, need = expected[language]
        page.locator(".site-header").get_by_role("link", name=link).click()
        expect(page).to_have_url(re.compile("/my-games/$"))
        first = page.locator(".my-game").first
        expect(first.locator("h3")).to_have_text("FM night")
        expect(first.locator(".need").first).to_have_text(need)
        assert page.locator(".my-game").count() == 2
        assert page.evaluate(OVERFLOW_JS) <= width
        page.context.close()
    page = show(new_context, live_server, me, "en", NARROW, "/inbox/")
    group = page.locator(f"#inbox-game-{night.pk}")
    expect(group.locator(".note.unread")).to_have_count(2)
    group.get_by_role("button", name=f"Mark all read in {night.title}").click()
    expect(page.locator(f"#inbox-game-{night.pk} .note.unread")).to_have_count(0)
    expect(page.locator(f"#inbox-game-{signup.pk} .note.unread")).to_have_count(1)
    expect(page.locator("#inbox-unread")).to_contain_text("1")


# -- the rules and the signup role picker ---------------------------------------------------------------------------


def test_rules_pages_and_the_signup_role_picker(new_context, live_server, master, make_user, card_collection):
    from django.urls import reverse

    from gm.core import services as core

    game = core.game_create(master=master, module="forum_mafia", title="Sign", options={}, rng_seed=1)
    core.game_open_signup(game=game, actor=master)
    player = make_user("picker")
    ability = {"en": "Draws 1 extra card into the Hand at the start of Night 1.", "ru": "Night 1"}
    for width, language in COMBOS:
        page = show(new_context, live_server, player, language, width, "/rules/forum-mafia/#FM-5.3")
        rule = page.locator('li[id="FM-5.3"]')
        expect(rule).to_be_in_viewport()
        assert rule.bounding_box()["y"] >= 0
        assert page.evaluate(OVERFLOW_JS) <= width
        page.goto(reverse("forum_mafia:signup", args=[game.pk]))
        help_text = page.locator("#fm-role-help")
        expect(help_text).to_be_hidden()
        page.locator("#fm-signup select[name=public_role]").select_option("strongman")
        expect(help_text).to_be_visible()
        if language == "en":
            expect(help_text).to_contain_text(ability["en"])
        assert page.evaluate(OVERFLOW_JS) <= width
        page.context.close()
    # a rule ID in a page's text (here the name field's help) links to the rule
    page = show(new_context, live_server, player, "en", NARROW, reverse("forum_mafia:signup", args=[game.pk]))
    link = page.locator("#fm-signup a.rule-link", has_text="FM-2.1").first
    expect(link).to_have_attribute("href", "/rules/id/FM-2.1/")
    link.click()
    expect(page).to_have_url(re.compile("/rules/forum-mafia/#FM-2.1$"))
    expect(page.locator('li[id="FM-2.1"]')).to_be_in_viewport()
    # the character name may stay empty
    page.goto(reverse("forum_mafia:signup", args=[game.pk]))
    page.locator("#fm-signup select[name=public_role]").select_option("strongman")
    page.locator("#fm-signup input[name=pledges]").check()
    page.get_by_role("button", name="Join the game").click()
    expect(page.locator(".messages")).to_contain_text("You have signed up")
    assert game.seats.get(user=player).display_name == "picker"


# -- chat rooms -----------------------------------------------------------------------------------------------------


def test_FM_9_3_room_syntax_help_and_a_lapsed_room(new_context, live_server, master, make_user, card_collection):
    from datetime import timedelta

    from gm.core import services as core
    from gm.core.models import Phase

    table = [{"name": n, "public_role": {"custom": f"Role{n}"}, "secret_role": r, "hand": THREE}
             for n, r in (("Anna", "sheriff"), ("Boris", "mafia_boss"), ("Clara", "doctor"), ("Gleb", "agent"),
                          ("Hanna", "judge"))]
    game, users = fm_day(master, make_user, table, title="Rooms")
    for who, comment in (("Anna", "room: Boris, Clara"), ("Boris", "room: Anna, Clara"),
                         ("Clara", "room: Anna, Boris"), ("Gleb", "room: Hanna, Anna")):
        core.post_create(game=game, user=users[who], body=f"{who} speaks.", comment=comment)
    day = game.phases.get(status=Phase.Status.OPEN)
    assert core.phase_resolve_due(phase_id=day.pk, clock=lambda: day.deadline + timedelta(seconds=1))
    lapsed = {"en": "This room did not open at the end of Day 1: Anna, Hanna did not propose the same members",
              "ru": "Комната не открылась в конце фазы «День 1»: не предложили тот же состав: Anna, Hanna"}
    summary = {"en": "How to propose a chat room", "ru": "Как предложить комнату"}
    for width, language in COMBOS:
        page = show(new_context, live_server, users["Gleb"], language, width, game.get_absolute_url())
        expect(page.locator(".post-note", has_text=lapsed[language])).to_be_visible()
        help_box = page.locator("#comment-help")
        help_box.locator("summary", has_text=summary[language]).click()
        expect(help_box.locator("p").first).to_be_visible()
        expect(help_box.locator("a.rule-link", has_text="FM-9.3").first).to_be_visible()
        assert page.evaluate(OVERFLOW_JS) <= width
        page.context.close()
