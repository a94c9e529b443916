"""The player's dashboard on the game page (issue 8 item 2), for its owner: his public and secret role cards with
their abilities and uses left (FM-3, FM-8), his Hand in order, Sleeve, deck count and discard pile (FM-4.6, FM-5.1),
the order form (FM-5) and the Veche vote (FM-7), the deadline with the time left (a script only refreshes it), his
private results phase by phase, his private messages (FM-9.2), the thread (FM-9.1) — and none of it for others."""
from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.html import escape

from gm.core import services
from gm.core.models import LogEntry
from tests.helpers import game_page, page_part
from tests.integration import fm_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(frozen, master, make_user):
    return fm_table.build(master, make_user)




def test_FM_1_2_FM_5_1_night_dashboard_for_its_owner(table):
    game, users = table
    html = game_page(game, users["Alice"])
    panel = page_part(html, "fm-panel")
    assert "Secret role" in panel and "Sheriff" in panel and "PublicAlice" in panel  # FM-3: both role cards
    assert 'class="role-text"' in panel  # what the role does
    cards = page_part(html, "hand-panel")
    hand = re.search(r'<ol class="hand">(.*?)</ol>', cards, re.S).group(1)
    names = re.findall(r'<span title="[^"]*">([^<]+)</span>', hand)
    assert names == ["Pistol", "Tail", "Tail", "Tail"]  # the Hand in its order (FM-5.1)
    assert "Sleeve (0)" in cards and "Cards in the deck: <strong>4</strong>" in cards and "Discard pile (0)" in cards
    assert 'aria-label="Move Pistol down"' in cards  # reordering buttons are named
    orders = page_part(html, "fm-orders")
    assert 'id="fm-order-form"' in orders and 'method="post"' in orders  # FM-5: the order form
    phase = page_part(html, "phase")
    assert 'data-deadline="' in phase and "left)" in phase and 'id="phase-countdown"' in phase
    assert "(Europe/Moscow)" in phase  # the deadline's zone: the viewer's (the site default here)
    nav = re.search(r'<nav class="dash-nav".*?</nav>', html, re.S).group(0)
    for anchor in ("#fm-panel", "#hand-panel", "#fm-orders", "#seats", "#log-h", "#thread"):
        assert f'href="{anchor}"' in nav, anchor
    assert "countdown.js" in html


def test_FM_3_4_abilities_with_uses_left_on_the_role_card(table):
    """FM-3.4 hero: his abilities on the role card with the uses left; none on a role card without abilities."""
    game, users = table
    panel = page_part(game_page(game, users["Harry"]), "fm-panel")
    abilities = re.search(r'<ul class="role-abilities">(.*?)</ul>', panel, re.S).group(1)
    assert "Hero" in abilities and 'class="uses"' in abilities


def test_FM_7_1_FM_9_2_day_dashboard_vote_results_and_messages(table, frozen):
    game, users = table
    fm_table.play_night(game, users, frozen)
    post = services.post_create(game=game, user=users["Clara"], body='Hi all [private="Alice"]meet me[/private]',
                                comment="")
    assert post.pk
    html = game_page(game, users["Alice"])
    veche = page_part(html, "fm-veche")
    assert 'id="fm-vote-form"' in veche and '<label for="fm-vote-for">' in veche  # FM-7: the vote panel
    results = page_part(html, "fm-results")
    with translation.override("en"):
        mine = [e.text() for e in LogEntry.objects.filter(game=game, visibility="seat",
                                                          seat=game.seats.get(display_name="Alice"))
                .exclude(phase=None)]
    assert mine and all(escape(t) in results for t in mine)
    assert "<summary>Night 1</summary>" in results  # grouped phase by phase
    # FM-5.6: the order that counted (its last version), in words, under its phase — for her only
    assert "Your order (version 2):</strong> Pistol (Hand) → Boris" in results
    assert "Pistol (Hand) → Boris" not in game_page(game, users["Clara"])
    messages = page_part(html, "messages")
    assert "From Clara" in messages and "meet me" in messages  # FM-9.2: to her, readable
    assert 'id="post-form"' in page_part(html, "thread")
    assert 'href="#messages"' in html and 'href="#fm-veche"' in html
    # The sender sees to whom he wrote, not the text read back; a third player sees neither.
    assert "To Alice" in page_part(game_page(game, users["Clara"]), "messages")
    assert "meet me" not in game_page(game, users["Jo"])


def test_dead_player_keeps_his_cards_and_results_but_gives_no_orders(table, frozen):
    game, users = table
    fm_table.play_night(game, users, frozen)
    html = game_page(game, users["Boris"])
    panel = page_part(html, "fm-panel")
    assert "Mafia boss" in panel and ">dead</span>" in panel
    assert 'id="fm-order-form"' not in html and 'id="fm-vote-form"' not in html
    assert page_part(html, "fm-results")


@pytest.mark.parametrize("who", ["Clara", "master", "spectator", "anonymous"])
def test_no_one_else_gets_alices_dashboard(table, who, master, spectator):
    game, users = table
    user = {"master": master, "spectator": spectator, "anonymous": None}.get(who, users.get(who))
    html = game_page(game, user)
    assert "PublicAlice" in html  # public
    panel = page_part(html, "fm-panel")
    assert "Sheriff" not in panel
    assert 'aria-label="Move Pistol down"' not in html  # nobody else moves her cards
    if who in ("spectator", "anonymous"):
        assert not panel and 'id="fm-order-form"' not in html and 'class="dash-nav"' not in html


def test_paused_game_shows_no_running_countdown(table, master):
    game, users = table
    services.game_pause(game=game, actor=master, reason="holiday")
    phase = page_part(game_page(game, users["Alice"]), "phase")
    assert "data-deadline" not in phase and "Paused" in phase and "left)" not in phase


def test_deadline_in_the_players_time_zone(table):
    import zoneinfo

    from django.utils import formats, timezone

    game, users = table
    alice = users["Alice"]
    alice.profile.time_zone = "America/New_York"
    alice.profile.save()
    deadline = fm_table.open_phase(game).deadline
    with translation.override("en"), timezone.override(zoneinfo.ZoneInfo("America/New_York")):
        shown = formats.date_format(timezone.localtime(deadline), "DATETIME_FORMAT")
    phase = page_part(game_page(game, alice), "phase")
    assert shown in phase and "(America/New_York)" in phase
