"""``gm.core.prepared.PreparedQuery``: a queryset compiled once per process answers as the queryset does — the same
fields, related objects and annotations — for each call's values, in one query, on the calling thread's connection;
a parameter that is not among the compiled parameters is refused when first compiled."""
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


def test_a_parameter_used_twice_fills_both_places(running_game, master):
    """A value in the outer query and in an ``OR`` (or a subquery) fills every place it appears."""
    prepared = PreparedQuery(lambda pk: Game.objects.filter(pk=pk) | Game.objects.filter(master_id=pk), "pk")
    assert [g.pk for g in prepared(pk=running_game.pk)] == [running_game.pk]
    either = Game.objects.filter(pk=master.pk) | Game.objects.filter(master_id=master.pk)
    assert [g.pk for g in prepared(pk=master.pk)] == [g.pk for g in either] != []
    assert prepared(pk=-5) == []


def test_a_parameter_that_changes_the_sql_is_refused(running_game):
    """A parameter that is not among the compiled parameters (it was not used, or it changed the SQL's shape) is
    refused at the first call."""
    prepared = PreparedQuery(lambda pk: Game.objects.all(), "pk")
    with pytest.raises(ImproperlyConfigured, match="not among the compiled parameters"):
        prepared(pk=running_game.pk)


def test_the_call_must_give_exactly_the_named_parameters_and_no_none(running_game):
    """Another parameter name is a ``TypeError``; ``None`` a ``ValueError`` (the queryset would say ``IS NULL``,
    the compiled ``= %s`` would match nothing)."""
    prepared = PreparedQuery(lambda pk: Game.objects.filter(pk=pk), "pk")
    with pytest.raises(TypeError, match="exactly the parameters"):
        prepared(id=running_game.pk)
    with pytest.raises(ValueError, match="may not be None"):
        prepared(pk=None)
    assert prepared.first(pk=running_game.pk).pk == running_game.pk


def test_a_games_seats_and_phases_for_the_game_page(running_game, signup_game, master):
    """``page_memo``'s seats (with their users' away dates, activity rows and open replacement request) and phases
    (with the latest resolved phase's seats, the phase's ``game_id`` in a subquery too) equal their querysets."""
    from gm.core import page_memo, services
    from gm.core.models import Phase

    other = services.game_create(master=master, module="tally", title="Empty", options={"rounds": 3}, rng_seed=3)
    for game in (running_game, signup_game, other):  # phases and seats; seats only; neither
        seats = page_memo._SEATS(game_id=game.pk)
        expected = list(page_memo._seat_rows(game.pk))
        assert [s.pk for s in seats] == [s.pk for s in expected]
        for row, want in zip(seats, expected, strict=True):
            _same(row, want)
            assert row.open_request_id == want.open_request_id
            assert getattr(row.user, "away", None) == getattr(want.user, "away", None)
        phases = page_memo._PHASES(game_id=game.pk)
        expected = list(page_memo._phase_rows(game.pk))
        assert [p.pk for p in phases] == [p.pk for p in expected]
        assert [p.gm_latest_seats for p in phases] == [p.gm_latest_seats for p in expected]
        assert all(p.status == w.status and p.deadline == w.deadline for p, w in zip(phases, expected, strict=True))
    assert Phase.objects.filter(game=running_game).exists()
