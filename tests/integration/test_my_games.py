""""My games" (``/my-games/``, ``gm.core.dashboard``) and the inbox grouped by game (issue 17, item 10).

One player, "me", has: a forum Mafia Night 1 (an order owed, 5 h left), a forum Mafia Day 1 (the Veche open, 3 h
left), a forum Mafia deck-building stage (his deck due, 30 h left), an ONUW night as the seer (an order owed), a
forum Mafia game in signup he signed up for, and a game he masters in signup. The page lists them most urgent first,
each with what it needs from him, in a fixed number of queries however many games he has.
"""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gm.core import services as core
from gm.core.models import Game, Phase
from gm.inbox.models import Notification
from gm.modules.forum_mafia.services import signup as fm
from gm.modules.forum_mafia.services.overrides import game_setup_override
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

THREE = ["advice", "bluff", "tail"]


def fm_started(master, make_user, me, prefix: str, kind: str, left: timedelta) -> Game:
    """A forum Mafia game set up by its master in ``kind`` 1 with ``me`` and four others; the phase ends in
    ``left``."""
    game = core.game_create(master=master, module="forum_mafia", title=f"FM {prefix}", options={}, rng_seed=3)
    roles = ["sheriff", "mafia_boss", "doctor", "mafia_advisor", "mafia_killer"]
    users = [me] + [make_user(f"{prefix}{i}") for i in range(4)]
    players = [{"user": u, "name": f"{prefix.title()}{i}", "secret_role": roles[i], "hand": THREE}
               for i, u in enumerate(users)]
    game_setup_override(game=game, actor=master, players=players, start_kind=kind, start_number=1)
    Phase.objects.filter(game=game, status=Phase.Status.OPEN).update(deadline=timezone.now() + left)
    game.refresh_from_db()
    return game


def fm_deckbuilding(master, make_user, me, left: timedelta) -> Game:
    game = core.game_create(master=master, module="forum_mafia", title="FM decks", options={}, rng_seed=4242)
    core.game_open_signup(game=game, actor=master)
    roles = ["strongman", "geek", "cultist", "engineer", "prosecutor"]
    for i, user in enumerate([me] + [make_user(f"deck{i}") for i in range(4)]):
        fm.signup_create(game=game, user=user, public_role=roles[i], character_name=f"Deck{i}", pledges=True)
    core.game_start(game=game, actor=master)
    Phase.objects.filter(game=game, status=Phase.Status.OPEN).update(deadline=timezone.now() + left)
    return game


def onuw_night(master, make_user, me) -> Game:
    game = core.game_create(master=master, module="onuw", title="ONUW night", rng_seed=9,
                            options={"deal": ["seer", "werewolf", "robber", "troublemaker", "villager", "villager",
                                              "drunk"]})
    core.game_open_signup(game=game, actor=master)
    for i, user in enumerate([me] + [make_user(f"on{i}") for i in range(3)]):
        core.seat_join(game=game, user=user, display_name=f"On{i}")
    core.game_start(game=game, actor=master)
    return game


def fm_signup(master, me) -> Game:
    game = core.game_create(master=master, module="forum_mafia", title="FM signup", options={}, rng_seed=1)
    core.game_open_signup(game=game, actor=master)
    fm.signup_create(game=game, user=me, public_role="geek", character_name="Early", pledges=True)
    return game


def rows(html: str) -> list[tuple[str, str]]:
    """``(game title, the needs' text)`` of each line of "My games", in page order."""
    out = []
    for item in re.findall(r'<li class="card my-game.*?</li>\s*(?=<li class="card my-game|</ol>)', html, re.S):
        title = re.search(r"<h3><a [^>]*>(.*?)</a></h3>", item).group(1)
        needs = " | ".join(re.sub(r"<[^>]+>", "", n).strip()
                           for n in re.findall(r'<li class="need[^"]*">(.*?)</li>', item, re.S))
        out.append((title, re.sub(r"\s+", " ", needs)))
    return out


@pytest.fixture
def me(make_user):
    return make_user("me", host=True)


@pytest.fixture
def my_games(master, make_user, me, card_collection):
    games = {
        "night": fm_started(master, make_user, me, "night", "night", timedelta(hours=5, minutes=10)),
        "day": fm_started(master, make_user, me, "day", "day", timedelta(hours=3, minutes=10)),
        "decks": fm_deckbuilding(master, make_user, me, timedelta(hours=30, minutes=10)),
        "onuw": onuw_night(master, make_user, me),
        "signup": fm_signup(master, me),
    }
    games["mine"] = core.game_create(master=me, module="forum_mafia", title="My own", options={}, rng_seed=2)
    core.game_open_signup(game=games["mine"], actor=me)
    return games


def test_my_games_lists_what_each_game_needs_most_urgent_first(my_games, me):
    html = client_for(me).get("/my-games/").content.decode()
    assert rows(html) == [
        ("FM day", "The Veche is open in Day 1: you have not voted (FM-7.1). — 3 h left"),
        ("FM night", "You owe an order in Night 1. — 5 h left"),
        ("ONUW night", "You owe an order in Night 1. — 23 h left"),
        ("FM decks", "Your deck is due: build it before Deck building ends (FM-4.5). — 30 h left"),
        ("My own", "Signup open: 0 players signed up; start the game when ready."),
        ("FM signup", "Signup open: you are signed up; the game has not started yet."),
    ]
    assert 'href="/my-games/"' in html  # the header links to it


def test_my_games_follows_what_the_player_did(my_games, me):
    night = my_games["night"].phases.get(status=Phase.Status.OPEN)
    core.order_submit(phase=night, user=me, payload={})
    day = my_games["day"].phases.get(status=Phase.Status.OPEN)
    fm.vote_submit(phase=day, user=me, target=None)
    html = client_for(me).get("/my-games/").content.decode()
    found = dict(rows(html))
    assert found["FM night"] == "Your order for Night 1 is in; you may change it until the deadline. — 5 h left"
    assert found["FM day"] == "You have voted in Day 1; you may change your vote until the deadline. — 3 h left"
    assert rows(html)[0][0] == "ONUW night"  # what still needs him comes first
    ru = dict(rows(client_for(me, language="ru").get("/my-games/").content.decode()))
    assert ru["FM decks"] == "За вами колода: соберите её до конца фазы «Набор колод» (FM-4.5). — ещё 30 ч"


def test_the_master_sees_his_games_order_count(master, make_user, me, card_collection):
    game = fm_started(master, make_user, me, "night", "night", timedelta(hours=5, minutes=10))
    core.order_submit(phase=game.phases.get(status=Phase.Status.OPEN), user=me, payload={})
    assert rows(client_for(master).get("/my-games/").content.decode()) == [
        ("FM night", "Night 1: 1 of 5 players have given an order. — 5 h left")]


def _queries(user) -> int:
    client = client_for(user)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get("/my-games/").status_code == 200
    return len(ctx.captured_queries)


def test_my_games_query_count_does_not_grow_with_the_games(master, make_user, me, card_collection):
    fm_started(master, make_user, me, "night", "night", timedelta(hours=5))
    own = core.game_create(master=me, module="forum_mafia", title="Own 1", options={}, rng_seed=2)
    core.game_open_signup(game=own, actor=me)
    few = _queries(me)
    fm_started(master, make_user, me, "day", "day", timedelta(hours=3))
    fm_deckbuilding(master, make_user, me, timedelta(hours=30))
    onuw_night(master, make_user, me)
    fm_signup(master, me)
    for n in (2, 3):
        core.game_create(master=me, module="onuw", title=f"Own {n}", options={}, rng_seed=n)
    many = _queries(me)
    assert many == few, (few, many)
    print(f"my games page: {many} queries")


# -- the inbox grouped by game --------------------------------------------------------------------------------------


def note(user, game, key: str) -> Notification:
    return Notification.objects.create(user=user, game=game, kind=Notification.Kind.ROOM_INVITATION,
                                       data={"members": ["X"]}, key=key, created_at=timezone.now())


def test_inbox_groups_by_game_and_marks_one_game_read(my_games, me, make_user):
    other = make_user("other")
    for i in range(2):
        note(me, my_games["night"], f"n{i}")
    note(me, my_games["day"], "d0")
    foreign = note(other, my_games["night"], "x0")
    html = client_for(me).get("/inbox/").content.decode()
    night, day = my_games["night"].pk, my_games["day"].pk
    groups = re.findall(r'<section class="inbox-game" id="inbox-game-(\d+)"', html)
    assert sorted(map(int, groups)) == sorted([night, day])
    night_part = re.search(rf'id="inbox-game-{night}".*?</section>', html, re.S).group(0)
    assert night_part.count('class="card note unread"') == 2
    assert f'action="/inbox/games/{night}/read-all/"' in night_part
    # "My games" shows the unread count per game and marks one game read
    mine = client_for(me).get("/my-games/").content.decode()
    assert re.search(rf'id="my-game-{night}".*?2 unread notifications', mine, re.S)
    response = client_for(me).post(f"/inbox/games/{night}/read-all/", {"next": "/my-games/"})
    assert response.status_code == 302 and response["Location"] == "/my-games/"
    assert not Notification.objects.filter(user=me, game=my_games["night"], read_at__isnull=True).exists()
    assert Notification.objects.filter(user=me, game=my_games["day"], read_at__isnull=True).count() == 1
    foreign.refresh_from_db()
    assert foreign.read_at is None  # another user's notification of the same game is not his to mark
    # and "mark all read" still marks every game
    client_for(me).post("/inbox/read-all/")
    assert not Notification.objects.filter(user=me, read_at__isnull=True).exists()


def test_my_games_needs_a_login(client):
    response = client.get("/my-games/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_my_games_for_a_held_result_a_pause_and_a_dead_character(master, make_user, me, card_collection):
    game = fm_started(master, make_user, me, "night", "night", timedelta(hours=5, minutes=10))
    other = game.seats.exclude(user=me).first().user
    Phase.objects.filter(game=game).update(status=Phase.Status.RESOLVED, held_at=timezone.now(),
                                           publish_at=timezone.now() + timedelta(hours=2))
    assert rows(client_for(me).get("/my-games/").content.decode()) == [
        ("FM night", "The master is reviewing the results of Night 1.")]
    assert rows(client_for(master).get("/my-games/").content.decode()) == [
        ("FM night", "The results of Night 1 await your review. — 1 h left")]
    Game.objects.filter(pk=game.pk).update(paused_at=timezone.now())
    assert rows(client_for(other).get("/my-games/").content.decode()) == [
        ("FM night", "The master has paused the game.")]
    game.seats.filter(user=me).update(alive=False)
    assert rows(client_for(me).get("/my-games/").content.decode()) == [
        ("FM night", "Your character is dead: you may read the game.")]


def test_ON_6_onuw_night_and_day_needs(master, make_user, me):
    game = onuw_night(master, make_user, me)  # me: the seer (chooses at night); On3: the troublemaker
    villager_game = core.game_create(master=master, module="onuw", title="ONUW villager", rng_seed=9, options={
        "deal": ["villager", "werewolf", "robber", "troublemaker", "seer", "villager", "drunk"]})
    core.game_open_signup(game=villager_game, actor=master)
    for i, user in enumerate([me] + [make_user(f"vil{i}") for i in range(3)]):
        core.seat_join(game=villager_game, user=user, display_name=f"Vil{i}")
    core.game_start(game=villager_game, actor=master)
    found = dict(rows(client_for(me).get("/my-games/").content.decode()))
    assert found["ONUW villager"] == "Night 1: your card has nothing to choose; wait for the day. — 23 h left"
    night = game.phases.get(status=Phase.Status.OPEN)
    assert core.phase_resolve_due(phase_id=night.pk, clock=lambda: night.deadline + timedelta(seconds=1))
    found = dict(rows(client_for(me).get("/my-games/").content.decode()))
    assert found["ONUW night"].startswith("Voting is open in Day 1: you have not voted (ON-6). — ")
