"""Blood Vengeance before the game, in Debian's Chromium: the master's set-up checked live against BV-2 as he types
the role list on the "new game" page (BV-2.4, issue 21), and the players' code of honour a player must tick to sign
up when the spell of silence is on (BV-15.15)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gm.core import services as core
from gm.core.models import Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_BV_2_4_the_role_list_is_checked_as_the_master_types(new_context, master):
    _context, page = new_context(master)
    page.goto("/games/new/?module=blood_vengeance")
    check = page.locator("#bv-setup-check")
    expect(check).to_contain_text("as you build it")  # checked on load: nothing known yet
    page.locator("#id_opt_roles").fill("king count vampire vampire vampire hunter hunter")
    expect(check).to_contain_text("At most one vampire lord may be in play")
    page.locator("#id_opt_roles").fill("count lamia vampire vampire hunter hunter hunter")
    expect(check).to_contain_text("7 players: 4 vampires (1 lord, 1 special), 3 hunters (0 special)")
    expect(check).to_contain_text("hunters: 3, the table of BV-2.1 recommends 1–2")
    expect(check.locator(".errorlist")).to_have_count(0)


def test_BV_15_15_a_player_must_tick_the_code_of_honour_to_sign_up(new_context, master, make_user):
    game = core.game_create(master=master, module="blood_vengeance", title="BV", rng_seed=3,
                            options={"enchanted": True})
    core.game_open_signup(game=game, actor=master)
    player = make_user("bvbrowser")
    _context, page = new_context(player)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#consent-code_of_honour")).to_contain_text("The dead are silent!")
    form = page.locator("form[action$='/join/']")
    form.locator("input[name='display_name']").fill("Anna")
    form.get_by_role("button").click()  # unticked: the browser refuses to send the form
    assert form.locator("input[name='accept_code_of_honour']").evaluate("box => box.validity.valueMissing")
    assert not Seat.objects.filter(game=game).exists()
    form.locator("input[name='accept_code_of_honour']").check()
    form.get_by_role("button").click()
    expect(page.locator("form[action$='/leave/']")).to_be_visible()
    assert Seat.objects.filter(game=game, user=player, display_name="Anna").exists()
