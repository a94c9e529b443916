"""``gm.core.prepared.PreparedQuery``: a queryset compiled once per process answers as the queryset does — the same
fields, related objects and annotations — for each call's values, in one query, on the calling thread's connection;
a shape whose parameter is not a plain value is refused when first compiled."""
from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, connections
from django.utils import timezone

from gm.core import visibility
from gm.core.models import CoMaster, Game, Seat
from gm.core.prepared import PreparedQuery

pytestmark = pytest.mark.django_db


def _same(left, right) -> None:
    """The two model instances hold equal values in every concrete field."""
    assert type(left) is type(right)
    for field in left._meta.concrete_fields:
        assert getattr(left, field.attname) == getattr(right, field.attname), field.name


def test_the_game_row_equals_the_querysets_for_each_game(running_game, master, make_user,
                                                         django_assert_num_queries):
    """``visibility.game_or_404``'s row: the game, its master with his profile, its long-game options and both
    ``Exists`` annotations, as the queryset itself loads them — for two games in turn, one with a co-master."""
    from gm.core import services

    other = services.game_create(master=master, module="tally", title="Other", options={"rounds": 3}, rng_seed=1)
    CoMaster.objects.create(game=other, user=make_user("co"), read_only=True, created_at=timezone.now())
    prepared = PreparedQuery(visibility._game_page_row, "pk")
    for game in (running_game, other, running_game):
        expected = visibility._game_page_row(game.pk)[0]
        with django_assert_num_queries(1):
            (row,) = prepared(pk=game.pk)
            _same(row, expected)
            _same(row.master, expected.master)
            _same(row.master.profile, expected.master.profile)
            assert row.gm_has_comasters is expected.gm_has_comasters
            assert row.gm_has_open_offer is expected.gm_has_open_offer
            assert row.state == expected.state and row.options == expected.options
        assert ("life" in row._state.fields_cache) is ("life" in expected._state.fields_cache)
    assert prepared(pk=running_game.pk)[0].gm_has_comasters is False
    assert prepared(pk=other.pk)[0].gm_has_comasters is True
    assert prepared(pk=-1) == [] and prepared.first(pk=10 ** 12) is None


def test_a_viewers_seat_with_two_parameters(running_game, master, players):
    """``page_memo.seat_of`` outside a page: each (game, user) pair finds that user's seat or none."""
    from gm.core.page_memo import _SEAT_OF

    for user in players:
        expected = Seat.objects.get(game=running_game, user=user)
        _same(_SEAT_OF.first(game_id=running_game.pk, user_id=user.pk), expected)
    assert _SEAT_OF.first(game_id=running_game.pk, user_id=master.pk) is None
    assert _SEAT_OF.first(game_id=running_game.pk + 1000, user_id=players[0].pk) is None


@pytest.mark.django_db(transaction=True)
def test_another_thread_runs_it_on_its_own_connection(running_game):
    """The SQL compiled on one thread runs on another thread's connection (a threaded server's), not on the
    compiling thread's."""
    prepared = PreparedQuery(lambda pk: Game.objects.filter(pk=pk), "pk")
    assert prepared(pk=running_game.pk)[0].pk == running_game.pk
    answers, used = [], []

    def other():
        try:
            answers.append(prepared(pk=running_game.pk)[0].title)
            used.append(connections["default"])
        finally:
            connections.close_all()

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(30)
    assert answers == [running_game.title]
    assert used and used[0] is not connection


@pytest.mark.parametrize("build, why", [
    (lambda pk: Game.objects.filter(pk__in=[pk]), None),
    (lambda pk: Game.objects.filter(pk=pk) | Game.objects.filter(master_id=pk), "2 times"),
    (lambda pk: Game.objects.all(), "0 times"),
])
def test_a_parameter_that_is_not_one_plain_value_is_refused(running_game, build, why):
    """A parameter that appears twice or not at all among the compiled parameters is refused at the first call
    (``pk__in=[pk]`` is one plain parameter on PostgreSQL and SQLite, and is accepted)."""
    prepared = PreparedQuery(build, "pk")
    if why is None:
        assert [g.pk for g in prepared(pk=running_game.pk)] == [running_game.pk]
        return
    with pytest.raises(ImproperlyConfigured, match=why):
        prepared(pk=running_game.pk)


def test_the_call_must_give_exactly_the_named_parameters(running_game):
    prepared = PreparedQuery(lambda pk: Game.objects.filter(pk=pk), "pk")
    with pytest.raises(TypeError, match="exactly the parameters"):
        prepared(id=running_game.pk)
