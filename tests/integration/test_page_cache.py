"""Kept game pages (issue 25, ``gm.core.page_cache``) and the stamps that say when they are out of date
(``gm.core.page_stamps``).

A kept page must be exactly what the page would render now, for this viewer only: every write path moves the
game's stamp (triggers, so ``bulk_create``, ``QuerySet.update`` and deletes too), a new post shows on the next
request, one viewer's kept page is never another's (the private-message and role canaries), a flash message or a
refused post's draft is never swallowed by a kept page, and the clock's bucket bounds how old a page's words about
time can be. PostgreSQL only: SQLite keeps no stamps, so no page is kept (checked too).
"""
from __future__ import annotations

import psycopg
import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.messages import add_message, constants
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Profile
from gm.core import page_cache, page_stamps, services
from gm.core.models import Away, Game, Order, PageStamp, Post, PostPrivate, Seat
from gm.core.visibility import game_or_404
from gm.modules.forum_mafia.bench import figures, floors
from gm.modules.forum_mafia.models import RoomPost

POSTGRES = connection.vendor == "postgresql"
postgres_only = pytest.mark.skipif(not POSTGRES, reason="page stamps are PostgreSQL triggers")


def _stamp(game) -> tuple:
    return page_stamps.stamp_of(game_or_404(game.master, game.pk))


def _client(user) -> Client:
    client = Client(HTTP_HOST="localhost")
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def _one_bucket(settings):
    """A day-long clock bucket: two requests a few milliseconds apart never straddle one (the bucket's own test
    sets its length)."""
    settings.GM_PAGE_CACHE_SECONDS = 86400


def _get(client, url: str):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response, len(ctx.captured_queries)


@pytest.fixture
def small_game(card_collection):
    """A running 16-player forum Mafia game after 2 phases, 6 posts of which 2 private messages; its viewers."""
    people = figures.People()
    game, viewers = floors.page_game(people, phases=2, posts=6, private=2)
    return game, viewers


@postgres_only
@pytest.mark.django_db
def test_every_table_a_game_page_draws_on_has_its_stamp_triggers():
    """The stamped tables are found from the models: the game, the tables keyed by it (core and modules), those
    keyed by one of them (orders, private parts, aliases, room proposals) and the user-wide rows shown in games
    (user, profile, away); each has its insert, update and delete trigger. Sessions and the stamps themselves are
    not stamped."""
    stamped = {m._meta.label for m in page_stamps.stamped_models()}
    for label in ("core.Game", "core.Seat", "core.Phase", "core.Post", "core.LogEntry", "core.Order",
                  "core.PostPrivate", "core.PostRevision", "core.SeatAlias", "core.ReadyMark", "core.CoMaster",
                  "forum_mafia.RoomPost", "forum_mafia.RoomProposal", "blood_vengeance.HuntersPost",
                  "auth.User", "accounts.Profile", "core.Away"):
        assert label in stamped, label
    assert "accounts.Session" not in stamped and "core.PageStamp" not in stamped
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
                       " WHERE t.tgname LIKE 'gm_page_stamp_%%'")
        triggers: dict[str, set] = {}
        for table, name in cursor.fetchall():
            triggers.setdefault(table, set()).add(name)
    for model in page_stamps.stamped_models():
        assert triggers.get(model._meta.db_table) == {"gm_page_stamp_i", "gm_page_stamp_u", "gm_page_stamp_d"}, \
            model._meta.db_table
    assert page_stamps.active()
    assert page_stamps.install() == 0  # already current: one query, nothing replaced


@postgres_only
@pytest.mark.django_db
def test_every_write_path_moves_the_stamp_of_its_game_only(small_game):
    """A bulk insert, a queryset update and a delete — straight on the game's tables, through a parent (a private
    part through its post, an order through its phase) and user-wide (a player's profile and away dates) — each
    move the game's stamp; a write to another game leaves it alone, and so does a write to a user who is not in
    it."""
    game, viewers = small_game
    other, _ = floors.page_game(figures.People(), phases=1, posts=1)
    outsider = get_user_model().objects.create_user(username="outsider")
    player = viewers["player"]
    writes = {
        "post bulk_create": lambda: Post.objects.bulk_create([Post(game=game, author=player, body="bulk")]),
        "private part update": lambda: PostPrivate.objects.filter(post__game=game).update(text="changed"),
        "order delete": lambda: Order.objects.filter(seat__game=game).order_by("-pk")[:1].get().delete(),
        "seat update": lambda: Seat.objects.filter(game=game, user=player).update(display_name="Renamed"),
        "profile write": lambda: Profile.objects.update_or_create(user=player, defaults={"language": "en"}),
        "away insert": lambda: Away.objects.create(user=player, starts_on=timezone.now().date(),
                                                   ends_on=timezone.now().date(), created_at=timezone.now()),
        "game update": lambda: Game.objects.filter(pk=game.pk).update(title="Renamed game"),
    }
    for name, write in writes.items():
        before, before_other = _stamp(game), _stamp(other)
        write()
        assert _stamp(game) != before, name
        assert _stamp(other) == before_other, name
    before = _stamp(game)
    Post.objects.bulk_create([Post(game=other, author=other.master, body="elsewhere")])
    Profile.objects.update_or_create(user=outsider, defaults={"language": "en"})
    RoomPost.objects.filter(game=other).delete()
    assert _stamp(game) == before


@postgres_only
@pytest.mark.django_db
def test_a_kept_page_is_the_rendered_page_at_two_queries_and_a_new_post_shows_at_once(small_game):
    """The same viewer's next request is served the kept rendering (the session with its user, the game with its
    stamp: 2 queries) byte for byte; a post written in between shows on the next request."""
    game, viewers = small_game
    url = game.get_absolute_url()
    for name in ("player", "master", "spectator"):
        client = _client(viewers[name])
        # A spectator's first look is recorded for the master's fair-play flags (a stamped write, once an hour).
        _get(client, url)
        first, rendered = _get(client, url)
        again, kept = _get(client, url)
        assert again.content == first.content, name
        assert kept == 2, (name, kept)
    client = _client(viewers["player"])
    _get(client, url)
    assert _get(client, url)[1] == 2
    services.post_create(game=game, user=game.master, body="Fresh news from the master")
    fresh, queries = _get(client, url)
    assert "Fresh news from the master" in fresh.content.decode(), "a new post after a kept page"
    assert queries > 2


@postgres_only
@pytest.mark.django_db
def test_kept_pages_never_reach_another_viewer(small_game):
    """The leak canaries on kept pages: a private message's text (FM-9.2) kept in its recipient's and the master's
    pages never reaches another player, a spectator or an anonymous visitor, in whatever order they ask; nor does
    the master's console reach anyone else."""
    game, viewers = small_game
    url = game.get_absolute_url()
    private = PostPrivate.objects.select_related("recipient").filter(post__game=game).first()
    PostPrivate.objects.filter(pk=private.pk).update(text="CANARY-private-words")
    recipient = private.recipient.user
    bystander = Seat.objects.filter(game=game).exclude(user__in=[recipient, private.post.author]).first().user
    console_marker = 'id="console"'
    for _round in range(2):  # the second round is served from kept pages
        pages = {name: _get(_client(user), url)[0].content.decode() for name, user in
                 {"recipient": recipient, "master": game.master, "bystander": bystander,
                  "spectator": viewers["spectator"], "anonymous": None}.items()}
        assert "CANARY-private-words" in pages["recipient"] and "CANARY-private-words" in pages["master"]
        for name in ("bystander", "spectator", "anonymous"):
            assert "CANARY-private-words" not in pages[name], name
            assert console_marker not in pages[name], name
        assert console_marker in pages["master"]


@postgres_only
@pytest.mark.django_db
def test_languages_and_queries_are_kept_apart(small_game):
    """One visitor's page in Russian and in English, and the master's page with and without ``?quote=<post>`` (the
    reply box filled), are kept apart: a kept page is never served for another language or another query."""
    game, viewers = small_game
    client = _client(None)  # a visitor's language is his cookie's (a user's, his profile's: a stamped write)
    url = game.get_absolute_url()
    ru = _get(client, url)[0].content.decode()
    client.cookies["django_language"] = "en"
    en = _get(client, url)[0].content.decode()
    assert 'lang="ru"' in ru and 'lang="en"' in en
    master = _client(game.master)
    plain = _get(master, url)[0].content.decode()
    post = Post.objects.filter(game=game, system__isnull=True).order_by("pk").first()
    quoting = _get(master, f"{url}?quote={post.pk}")[0].content.decode()
    assert quoting.count("[quote=") == plain.count("[quote=") + 1  # the reply box holds one more


@postgres_only
@pytest.mark.django_db
def test_a_flash_message_or_a_refused_draft_makes_the_page_of_the_moment(small_game, settings):
    """A request carrying a flash message, or a session holding a refused post's draft, gets no key: the page
    renders (and shows them) instead of a kept one; htmx requests and a 0-second setting get none either."""
    game, viewers = small_game
    game = game_or_404(game.master, game.pk)
    factory = RequestFactory()

    def request(**extra):
        req = factory.get(game.get_absolute_url(), **extra)
        SessionMiddleware(lambda r: None).process_request(req)
        MessageMiddleware(lambda r: None).process_request(req)
        req.user = viewers["player"]
        return req

    assert page_cache.page_key(request(), game) is not None
    with_message = request()
    add_message(with_message, constants.SUCCESS, "Your order was saved.")
    assert page_cache.page_key(with_message, game) is None
    with_draft = request()
    with_draft.session["draft"] = {"body": "unsent"}
    assert page_cache.page_key(with_draft, game, session_keys=("draft",)) is None
    htmx = request()
    htmx.htmx = True
    assert page_cache.page_key(htmx, game) is None
    settings.GM_PAGE_CACHE_SECONDS = 0
    assert page_cache.page_key(request(), game) is None


@postgres_only
@pytest.mark.django_db
def test_the_clock_bucket_bounds_a_kept_page_age(small_game, settings):
    """Within one bucket of ``GM_PAGE_CACHE_SECONDS`` the key holds; a bucket later it differs, so what a page says
    about the clock is at most that old."""
    game, viewers = small_game
    game = game_or_404(game.master, game.pk)
    settings.GM_PAGE_CACHE_SECONDS = 30
    factory = RequestFactory()

    def key():
        req = factory.get(game.get_absolute_url())
        SessionMiddleware(lambda r: None).process_request(req)
        MessageMiddleware(lambda r: None).process_request(req)
        req.user = viewers["player"]
        req.META["CSRF_COOKIE"] = "x" * 32
        return page_cache.page_key(req, game)

    with time_machine.travel(1_800_000_000.0, tick=False) as traveller:
        start = key()
        traveller.shift(10)
        assert key() == start
        traveller.shift(30)
        assert key() != start


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_commit_out_of_stamp_order_still_moves_the_stamp(small_game):
    """Transactions commit in any order: a reader that sees a later stamp row while an earlier one is still
    uncommitted must see the stamp move when the earlier commits (the count does, the maximum does not)."""
    game, _viewers = small_game
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    early = psycopg.connect(**{k: v for k, v in params.items() if k in ("dbname", "user", "password", "host",
                                                                      "port")})
    try:
        with early.cursor() as cursor:  # takes a stamp id first, commits last
            cursor.execute("INSERT INTO core_pagestamp (game_id) VALUES (%s)", [game.pk])
        PageStamp.objects.create(game_id=game.pk)  # autocommit: a later id, committed now
        seen = _stamp(game)
        early.commit()
        assert _stamp(game) != seen
        assert _stamp(game)[0] == seen[0]
    finally:
        early.close()


@postgres_only
@pytest.mark.django_db
def test_prune_keeps_each_game_newest_and_drops_deleted_games(small_game):
    """``page_stamps.prune``: rows older than the keep time go except each game's newest; a deleted game's rows go
    too; the game's stamp afterwards is still its newest row."""
    game, _viewers = small_game
    for _ in range(3):
        PageStamp.objects.create(game_id=game.pk)
    PageStamp.objects.create(game_id=10 ** 12)  # no such game
    newest = PageStamp.objects.filter(game_id=game.pk).order_by("-id").first().pk
    later = timezone.now() + timezone.timedelta(hours=2)
    gone = page_stamps.prune(keep_seconds=3600, now=later)
    assert gone >= 4
    assert list(PageStamp.objects.filter(game_id=game.pk).values_list("id", flat=True)) == [newest]
    assert not PageStamp.objects.filter(game_id=10 ** 12).exists()
    assert _stamp(game) == (newest, 1)


@pytest.mark.django_db
@pytest.mark.skipif(POSTGRES, reason="the SQLite side of the switch")
def test_sqlite_keeps_no_page(small_game):
    """Without triggers (SQLite) the stamps would never move, so no page is kept: every request renders."""
    game, viewers = small_game
    assert not page_stamps.active()
    client = _client(viewers["player"])
    _first, rendered = _get(client, game.get_absolute_url())
    _again, queries = _get(client, game.get_absolute_url())
    assert queries == rendered > 2

