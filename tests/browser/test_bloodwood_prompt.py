"""Bloodwood's prompts in Debian's Chromium on a 375 px screen (issue 20 item 5): the refill split is checked as it is
picked (``static/js/bloodwood_split.js``, BW-6b/BW-6f: picking the day count sets the night count; a split the
server did not offer shows the reason and disables the button), and the prompt's countdown ticks
(``static/js/countdown.js``)."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from gm.core import services as core
from gm.core.models import Phase
from gm.core.scenario import resolve_at_deadline
from gm.modules.bloodwood.tests.test_shell import POSITION
from tests.helpers import client_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_BW_6f_the_refill_split_is_checked_live_and_the_prompt_counts_down(new_context, live_server, master,
                                                                          make_user, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    users = [make_user(f"bwb{i}") for i in range(5)]
    game = core.game_create(master=master, module="bloodwood", title="BW", options={"position": POSITION},
                            rng_seed=3)
    core.game_open_signup(game=game, actor=master)
    for i, u in enumerate(users):
        core.seat_join(game=game, user=u, display_name=f"P{i + 1}")
    core.game_start(game=game, actor=master)
    turn = game.phases.get(status=Phase.Status.OPEN)
    client_for(users[0]).post(reverse("bloodwood:order", args=[game.pk]), {"line": "discard", "card": "vaccine"})
    resolve_at_deadline(Phase.objects.get(pk=turn.pk))
    game.refresh_from_db()
    due = game.state["step"]["due"]
    context, page = new_context(users[0])
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(game.get_absolute_url())
    day, night = page.locator("select[name=day]"), page.locator("select[name=night]")
    button = page.locator("#bw-line button[type=submit]")
    offered = [int(v) for v in day.locator("option").evaluate_all("os => os.map(o => o.value)")]
    for d in offered:
        day.select_option(str(d))
        expect(night).to_have_value(str(due - d))
        expect(button).to_be_enabled()
        expect(page.locator("#bw-split-check")).to_be_hidden()
    # a split the server did not offer (a tampered option): the reason shows and the button is disabled
    page.evaluate("""() => { const s = document.querySelector('select[name=day]');
        s.add(new Option('99', '99')); s.value = '99'; s.dispatchEvent(new Event('change')); }""")
    expect(page.locator("#bw-split-check")).to_be_visible()
    expect(button).to_be_disabled()
    expect(page.locator("#bw-countdown .countdown")).to_have_text(re.compile(r"\(\d+:\d\d:\d\d\)"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_BW_21a_the_target_picker_offers_only_the_cards_legal_targets(new_context, live_server, master, make_user,
                                                                      monkeypatch):
    """BW-21a/BW-6a on the page (``static/js/bloodwood_targets.js``): the target picker keeps only the legal targets
    of the card picked (the server's list), and "Play" is disabled for a card that can't be played now."""
    from gm.modules.bloodwood import selectors

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    users = [make_user(f"bwt{i}") for i in range(5)]
    game = core.game_create(master=master, module="bloodwood", title="BW", options={"position": POSITION},
                            rng_seed=3)
    core.game_open_signup(game=game, actor=master)
    for i, u in enumerate(users):
        core.seat_join(game=game, user=u, display_name=f"P{i + 1}")
    core.game_start(game=game, actor=master)
    game.refresh_from_db()
    mover = str(game.seats.get(position=0).pk)
    hand = {c["card"]: c for c in selectors.hand_options(game.state, mover)}
    context, page = new_context(users[0])
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(game.get_absolute_url())
    card, play = page.locator("select[name=card]"), page.locator("#bw-line button[value=play]")
    offered = "() => [...document.querySelectorAll('select[name=target] option')].filter(o => !o.disabled && o.value)" \
              ".map(o => Number(o.value))"
    card.select_option("bite")
    legal = [t["id"] for t in hand["bite"]["targets"]]
    assert hand["bite"]["playable"] and legal and page.evaluate(offered) == legal
    expect(play).to_be_enabled()
    card.select_option("vaccine")  # a day card by night (wrong_phase): it may be discarded, not played
    assert not hand["vaccine"]["playable"]
    expect(play).to_be_disabled()
    assert page.evaluate(offered) == []
