"""Issue 25 goals 2 and 3: every page's query count stays the same whatever the game's size — posts, phases,
private messages, chat rooms, games in the lobby, notifications — and never exceeds 15.

Only query counts are asserted here (``CaptureQueriesContext``, as ``assertNumQueries`` counts them); the times
are ``manage.py gm_bench``'s (``page_growth_*``, ``game_page_big_*``), never a test's. The games are built with the
benchmark's own builders (:mod:`gm.modules.forum_mafia.bench.floors`), in small sizes.
"""
from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gm.modules.forum_mafia.bench import figures, floors

#: Issue 9's and issue 25's bound: no page makes more than this many queries.
MAX_QUERIES = 15


@pytest.fixture(autouse=True)
def _render_every_time(settings):
    """The counts here are the rendering's: a kept game page (``gm.core.page_cache``, 2 queries) would answer the
    second request and hide them. Kept pages are counted in ``test_page_cache.py``."""
    settings.GM_PAGE_CACHE_SECONDS = 0


def _queries(user, url: str, **headers) -> int:
    """The number of queries of the second GET of ``url`` as ``user`` (``None``: anonymous); the first warms the
    caches a real visitor's earlier pages would have warmed (the session, translations)."""
    client = Client(HTTP_HOST="localhost")
    if user is not None:
        client.force_login(user)
    first = client.get(url, **headers)
    assert first.status_code == 200, (url, first.status_code)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries)


def _page_counts(game, viewers: dict) -> dict[str, int]:
    return {name: _queries(user, game.get_absolute_url()) for name, user in viewers.items()}


def _game(people, **size):
    game, viewers = floors.page_game(people, **size)
    return game, {**viewers, "anonymous": None}


@pytest.mark.django_db
def test_game_page_query_count_is_the_same_at_every_size(card_collection):
    """The game page for a player, the master, a spectator and an anonymous visitor makes as many queries on a
    small game (2 phases, 5 posts, no chat room) as with three pages of posts, 14 phases, private messages (FM-9.2)
    and closed chat rooms (FM-9.3) — the rooms' closing phases' labels and post counts are not read per room — and
    never more than 15."""
    people = figures.People()
    small = _page_counts(*_game(people, phases=2, posts=5))
    sizes = {
        "posts": dict(phases=2, posts=65, private=0),
        "phases": dict(phases=14, posts=5),  # more than the 12 phases the log and results cover
        "rooms": dict(phases=2, posts=5, rooms=6),
        "private": dict(phases=2, posts=20, private=10),
    }
    for name, size in sizes.items():
        counts = _page_counts(*_game(people, **size))
        assert counts == small, {"small": small, name: counts}
    assert max(small.values()) <= MAX_QUERIES, small


@pytest.mark.django_db
def test_game_page_rooms_make_no_query_per_room(card_collection):
    """FM-9.3 rooms on the game page: 1 closed room and 8 closed rooms cost the master and a member the same
    number of queries (``room_services._closed_reason`` and ``Phase.label`` no longer load a phase and its game per
    room)."""
    people = figures.People()
    one = _page_counts(*_game(people, phases=3, posts=5, rooms=1))
    many = _page_counts(*_game(people, phases=3, posts=5, rooms=8))
    assert one == many, {"1 room": one, "8 rooms": many}


@pytest.mark.django_db
def test_thread_last_page_query_count_does_not_grow(card_collection):
    """The thread's last page (the htmx partial, read by keyset, not OFFSET) and its first page: the same number of
    queries with 5 posts as with 130 (seven pages)."""
    people = figures.People()
    counts = {}
    for posts in (5, 130):
        game, viewers = floors.page_game(people, phases=2, posts=posts, private=2)
        url = game.get_absolute_url() + "thread/"
        counts[posts] = {(name, page): _queries(viewers[name], url + page, HTTP_HX_REQUEST="true")
                         for name in ("player", "master") for page in ("", "?page=1")}
    assert counts[5] == counts[130], counts
    assert max(counts[130].values()) <= MAX_QUERIES, counts


@pytest.mark.django_db
def test_thread_last_page_shows_the_newest_posts_in_order(card_collection):
    """The keyset last page holds the newest posts, oldest first, as the OFFSET page did: 45 posts, 20 a page →
    page 3 with posts 40 to 44."""
    from gm.core.views import THREAD_PAGE_SIZE

    people = figures.People()
    game, viewers = floors.page_game(people, phases=2, posts=45)
    client = Client(HTTP_HOST="localhost")
    client.force_login(viewers["spectator"])
    body = client.get(game.get_absolute_url() + "thread/", HTTP_HX_REQUEST="true").content.decode()
    assert THREAD_PAGE_SIZE == 20
    shown = [i for i in range(45) if f"Bench post {i} " in body]
    assert shown == list(range(40, 45)), shown


@pytest.mark.django_db
def test_lobby_query_count_does_not_grow_with_games(card_collection):
    """The lobby (paginated, the games' state JSON not loaded): as many queries with 3 running games as with 40,
    for a visitor and a logged-in player."""
    from gm.modules.forum_mafia.bench import table

    people = figures.People()
    users = people.users(6)
    counts = {}
    made = 0
    for total in (3, 40):
        with figures.no_publish():
            while made < total:
                table.db_night(people.master, users, title=f"lobby {made}")
                made += 1
        counts[total] = {"anonymous": _queries(None, "/"), "player": _queries(users[0], "/"),
                         "running": _queries(users[0], "/?status=running")}
    assert counts[3] == counts[40], counts
    assert max(counts[40].values()) <= MAX_QUERIES, counts


@pytest.mark.django_db
def test_inbox_query_count_does_not_grow_with_notifications(card_collection):
    """The inbox: as many queries with 3 notifications as with 40 (across two games), the games' and phases' JSON
    not loaded for each."""
    from gm.inbox.models import Notification

    people = figures.People()
    game, viewers = floors.page_game(people, phases=2, posts=5)
    other, _ = floors.page_game(people, phases=2, posts=5)
    user = viewers["player"]
    counts = {}
    for total in (3, 40):
        have = Notification.objects.filter(user=user).count()
        Notification.objects.bulk_create([
            Notification(user=user, game=(game if i % 2 else other), phase=(game if i % 2 else other).phases.first(),
                         kind=Notification.Kind.choices[0][0], body=f"note {i}", created_at=timezone.now())
            for i in range(have, total)])
        counts[total] = _queries(user, "/inbox/")
    assert counts[3] == counts[40], counts
    assert counts[40] <= MAX_QUERIES, counts


#: An order over the API (issue 25 goal 5): the session and its user, the read-only co-master wall, the game (without
#: its state), then in the transaction the phase the body names, read with its row lock (and its game and options),
#: the seats with their latest order versions and the insert — eight statements with the transaction's two.
ORDER_QUERIES = 8


def _sql_of(ctx, start: str) -> str:
    """The whole captured statement that begins with ``start``."""
    return next(q["sql"] for q in ctx.captured_queries if q["sql"].startswith(start))


@pytest.mark.django_db
def test_order_submit_query_count_does_not_grow_with_the_table(card_collection):
    """FM-5.6 orders under a crowd: a player's Night order POSTed to the API costs as many statements at 6 players
    as at 16, a second version as many as the first, and no more than :data:`ORDER_QUERIES` — no query per seat,
    none to ask whether a player masters the game (the flood limit asks only past its limit), none for the next
    version number (read with the seats), and the phase the body names is read once, under its lock."""
    import json

    from gm.core.models import Order
    from gm.modules.forum_mafia.bench import table

    people = figures.People()
    counts = {}
    for players in (6, 16):
        users = people.users(players)
        with figures.no_publish():
            game, night = table.db_night(people.master, users, title=f"orders {players}")
        seat = game.seats.order_by("position").first()
        payload = table.orders([s.pk for s in game.seats.order_by("position")])[seat.pk]
        client = Client(HTTP_HOST="localhost")
        client.force_login(seat.user)
        url = f"/api/games/{game.pk}/orders/"
        body = json.dumps({"phase": night.pk, "payload": payload})
        assert client.post(url, body, content_type="application/json").status_code == 201  # warms the session
        with CaptureQueriesContext(connection) as ctx:
            response = client.post(url, body, content_type="application/json")
        assert response.status_code == 201, response.content
        assert response.json()["version"] == 2
        assert list(Order.objects.filter(phase=night, seat=seat).values_list("version", flat=True)
                    .order_by("version")) == [1, 2]
        counts[players] = len(ctx.captured_queries)
    assert counts[6] == counts[16], counts
    assert counts[16] <= ORDER_QUERIES, [q["sql"][:120] for q in ctx.captured_queries]
    # The game's state (15 kB of JSON at 16 players) is read and decoded once, with the locked phase; the lookup
    # of the URL's game reads neither it nor the page stamp the pages need.
    reading_state = [q["sql"][:80] for q in ctx.captured_queries if '"core_game"."state"' in q["sql"]]
    assert len(reading_state) == 1 and "FOR UPDATE" in _sql_of(ctx, reading_state[0]), reading_state
    assert not any("core_pagestamp" in q["sql"] for q in ctx.captured_queries)
