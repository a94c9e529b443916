"""What the game page tells a player who cannot act: results held for the master's review, his own death, decks
due; and the confirmation step before the actions that cannot be taken back."""
from __future__ import annotations

from datetime import timedelta

import pytest

from gm.core import review, services
from gm.core.models import Phase
from tests.helpers import client_for, game_page, page_part
from tests.integration import fm_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(frozen, master, make_user, card_collection):
    return fm_table.build(master, make_user)


def test_a_held_result_is_announced_to_players_and_spectators_without_its_content(table, master, spectator, frozen):
    game, users = table
    review.game_set_review(game=game, actor=master, enabled=True, auto_minutes=90, reason="new rules")
    fm_table.night_orders(game, users)
    fm_table.resolve(game, frozen)
    held = Phase.objects.get(game=game, kind="night", number=1)
    assert held.is_held
    frozen.shift(timedelta(hours=2))
    for who in (users["Alice"], users["Boris"], spectator, None):
        page = game_page(game, who)
        notice = page_part(page, "held")
        assert "The master is reviewing the results of Night 1" in notice, who
        assert "(2\xa0hours ago)" in notice and "at the latest" in notice, notice
        assert "Boris has died." not in page  # the held result itself stays hidden
    assert page_part(game_page(game, master), "held") == ""  # the master has his console for it
    ru = client_for(users["Alice"], language="ru").get(f"/games/{game.pk}/").content.decode()
    assert "Мастер проверяет результаты фазы «Ночь 1»" in ru
    review.phase_publish(game=game, actor=master, reason="fine")
    assert page_part(game_page(game, users["Alice"]), "held") == ""


def test_no_review_notice_while_a_phase_is_open(table):
    game, users = table
    assert page_part(game_page(game, users["Alice"]), "held") == ""


def test_FM_6_2_a_dead_player_is_told_on_his_page_and_in_his_inbox_and_nobody_else_is(
        table, master, spectator, frozen, django_capture_on_commit_callbacks):
    from gm.core import interventions
    from gm.core.models import LogEntry
    from gm.inbox.models import Notification
    from gm.inbox.services import notify_phase_results

    game, users = table
    fm_table.play_night(game, users, frozen)  # Alice shoots Boris: his last card, he dies (FM-6.2)
    night = Phase.objects.get(game=game, kind="night", number=1)
    told = LogEntry.objects.get(game=game, kind="fm.you_died")
    assert (told.visibility, told.seat.display_name, told.phase_id) == ("seat", "Boris", night.pk)
    page = game_page(game, users["Boris"])
    notice = page_part(page, "fm-dead")
    assert "You died in Night 1: your Hand was left without cards (FM-6.2)." in notice
    assert "You can still read the thread, the public log and your own results" in notice
    assert page_part(page, "fm-orders") == "" and 'id="fm-order-form"' not in page  # no order form for him
    assert page_part(game_page(game, users["Alice"]), "fm-orders")  # the living still order
    for other in (users["Alice"], users["Eva"], spectator, None):
        assert "You died" not in game_page(game, other) and 'id="fm-dead"' not in game_page(game, other), other
    assert 'id="fm-dead"' not in game_page(game, master)  # he reads it among what each player was told
    ru = client_for(users["Boris"], language="ru").get(f"/games/{game.pk}/").content.decode()
    assert "Вы погибли: Ночь 1" in page_part(ru, "fm-dead")

    notify_phase_results(phase_id=night.pk)
    mine = Notification.objects.filter(entry=told)
    assert [n.user for n in mine] == [users["Boris"]]
    inbox = client_for(users["Boris"]).get("/inbox/").content.decode()
    assert "You died in Night 1" in inbox
    assert "You died" not in client_for(users["Alice"]).get("/inbox/").content.decode()

    # The master's kill: the hero is told why, and his abilities show as unavailable.
    harry = game.seats.get(display_name="Harry")
    alive_page = page_part(game_page(game, users["Harry"]), "fm-panel")
    assert "unavailable: the dead use no abilities" not in alive_page and "Abilities" in alive_page
    with django_capture_on_commit_callbacks(execute=True):
        interventions.seat_set_alive(game=game, actor=master, seat_id=harry.pk, alive=False, reason="left the forum")
    told = LogEntry.objects.get(game=game, kind="fm.you_died", seat=harry)
    assert [n.user for n in Notification.objects.filter(entry=told)] == [users["Harry"]]
    assert "You died in Day 1" in client_for(users["Harry"]).get("/inbox/").content.decode()
    page = game_page(game, users["Harry"])
    assert "You died in Day 1: the master removed your character from the game." in page_part(page, "fm-dead")
    assert "unavailable: the dead use no abilities" in page_part(page, "fm-panel")


@pytest.fixture
def building(master, make_user, card_collection):
    return deck_building_game(master, make_user)


def deck_building_game(master, make_user):
    """A forum Mafia game of five in deck building (FM-4.5) and its players."""
    from gm.modules.forum_mafia.services import signup as fm

    game = services.game_create(master=master, module="forum_mafia", title="Decks", rng_seed=7)
    services.game_open_signup(game=game, actor=master)
    users = []
    for name, role in (("ann", "strongman"), ("bob", "paranoid"), ("cid", "geek"), ("dan", "manager"),
                       ("eve", "authority")):
        users.append(make_user(name))
        fm.signup_create(game=game, user=users[-1], public_role=role, character_name=name.title(), pledges=True)
    services.game_start(game=game, actor=master)
    game.refresh_from_db()
    return game, users


def test_FM_4_5_deck_building_calls_each_player_to_build_his_deck_with_the_deadline(building, spectator):
    import random

    from cards import deckrules
    from cards.services import collection_for_game, deck_rules_for, deck_submit

    game, users = building
    phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    assert phase.kind == "deckbuilding"
    call = page_part(game_page(game, users[0]), "fm-deck-due")
    assert "Build your deck" in call and f'href="/games/{game.pk}/deck/"' in call and "Open the deck builder" in call
    assert "Decks are due by" in call and "left)" in call and "random valid deck (FM-4.5)" in call
    for other in (spectator, None):
        assert page_part(game_page(game, other), "fm-deck-due") == ""
    seat = game.seats.get(user=users[0])
    deck = deckrules.random_valid_deck(collection=collection_for_game(game), rules=deck_rules_for(seat),
                                       rng=random.Random(1))
    deck_submit(game=game, user=users[0], entries=deck)
    call = page_part(game_page(game, users[0]), "fm-deck-due")
    assert "Your deck is saved" in call and "Change my deck" in call
    ru = client_for(users[1], language="ru").get(f"/games/{game.pk}/").content.decode()
    assert "Соберите колоду" in page_part(ru, "fm-deck-due")


HTMX = {"HTTP_HX_REQUEST": "true"}


def test_starting_and_withdrawing_ask_for_confirmation_and_refuse_without_it(signup_game, master, players):
    game = signup_game
    page = game_page(game, master)
    assert 'name="confirm" required' in page and "Yes, start now: signups close and the roles are dealt" in page
    response = client_for(master).post(f"/games/{game.pk}/start/", follow=True)
    assert "Tick the box to confirm. Nothing was changed." in response.content.decode()
    game.refresh_from_db()
    assert game.status == "signup" and not game.phases.exists()
    client_for(master).post(f"/games/{game.pk}/start/", {"confirm": "on"})
    game.refresh_from_db()
    assert game.status == "running"


def test_withdrawing_a_signup_asks_for_confirmation(signup_game, players):
    game = signup_game
    page = game_page(game, players[0])
    assert 'name="confirm" required' in page and "Yes, withdraw my signup" in page
    response = client_for(players[0]).post(f"/games/{game.pk}/leave/", follow=True)
    assert "Tick the box to confirm. Nothing was changed." in response.content.decode()
    assert game.seats.filter(user=players[0]).exists()
    client_for(players[0]).post(f"/games/{game.pk}/leave/", {"confirm": "on"})
    assert not game.seats.filter(user=players[0]).exists()


def test_FM_2_withdrawing_a_forum_mafia_signup_asks_for_confirmation(master, make_user, card_collection):
    from gm.modules.forum_mafia.models import Signup
    from gm.modules.forum_mafia.services import signup as fm

    game = services.game_create(master=master, module="forum_mafia", title="Signups", rng_seed=3)
    services.game_open_signup(game=game, actor=master)
    ann = make_user("ann")
    fm.signup_create(game=game, user=ann, public_role="strongman", character_name="Ann", pledges=True)
    page = client_for(ann).get(f"/games/{game.pk}/signup/").content.decode()
    assert 'id="fm-withdraw-confirm" name="confirm" required' in page
    withdraw_url = f"/games/{game.pk}/fm/signup/withdraw/"
    assert f'action="{withdraw_url}"' in page
    response = client_for(ann).post(withdraw_url, follow=True)
    assert "Tick the box to confirm. Nothing was changed." in response.content.decode()
    assert Signup.objects.get(user=ann).status == "active"
    client_for(ann).post(withdraw_url, {"confirm": "on"})
    assert Signup.objects.get(user=ann).status == "withdrawn"


def test_replacing_a_player_and_aborting_ask_for_confirmation(table, master, make_user):
    from gm.core.models import AuditEntry

    game, users = table
    alice = game.seats.get(display_name="Alice")
    newcomer = make_user("newcomer")
    console = page_part(game_page(game, master), "console")
    assert "Yes, give this seat to the new player" in console and "Give this seat to another player?" in console
    assert "Yes, abort the game for everyone; it cannot be undone" in console
    assert 'hx-confirm="Abort the game' in console
    client = client_for(master)
    body = client.post(f"/games/{game.pk}/console/seat/replace/",
                       {"seat": alice.pk, "user": "newcomer", "reason": "gone"}, **HTMX).content.decode()
    assert "Tick the box to confirm. Nothing was changed." in body
    alice.refresh_from_db()
    assert alice.user == users["Alice"]
    client.post(f"/games/{game.pk}/console/seat/replace/",
                {"seat": alice.pk, "user": "newcomer", "reason": "gone", "confirm": "on"}, **HTMX)
    alice.refresh_from_db()
    assert alice.user == newcomer

    response = client.post(f"/games/{game.pk}/console/abort/", {"reason": "server move"}, follow=True)
    assert "Tick the box to confirm. Nothing was changed." in response.content.decode()
    game.refresh_from_db()
    assert game.status == "running"
    assert client_for(users["Boris"]).post(f"/games/{game.pk}/console/abort/",
                                           {"reason": "x", "confirm": "on"}).status_code == 403
    response = client.post(f"/games/{game.pk}/console/abort/", {"reason": "server move", "confirm": "on"},
                           follow=True)
    assert "The game was aborted." in response.content.decode()
    game.refresh_from_db()
    assert game.status == "aborted"
    assert AuditEntry.objects.filter(game=game, action="abort", reason="server move").exists()


def test_a_plain_post_comes_back_to_its_form_with_the_message(table):
    """The no-htmx order form: the redirect names the form's anchor (feedback.js moves the message there and
    brings it into view below the sticky menu), and every page loads that script."""
    game, users = table
    client = client_for(users["Alice"])
    response = client.post(f"/games/{game.pk}/fm/orders/withdraw/")
    assert response.status_code == 302 and response["Location"].endswith("#fm-orders")
    page = client.get(response["Location"]).content.decode()
    assert '<ul class="messages" role="status">' in page and "js/feedback.js" in page
