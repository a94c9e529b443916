"""A forum Mafia night resolved through the shell: orders through ``order_submit``, the deadline through
``phase_claim`` + ``phase_resolve`` on a frozen clock, and — on PostgreSQL + Redis — by a real Celery worker.

Checks FM-1.3 (the phase resolves once at its deadline, Day 1 opens), FM-5.1 (public Hand counts), FM-5.4
(replacement draws), FM-6 (what the engine returned is what the seats hold; the master reads the ``fm.t_*``
resolution trace, a player does not) and that a resolution's query count does not grow with the number of
players. The table is :mod:`gm.modules.forum_mafia.bench.table` (every player plays a Hand and a Sleeve card).
"""
from __future__ import annotations

import os
import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cards.containers import Containers
from gm.core import services, visibility
from gm.core.engine import PhaseInfo, SeatInfo
from gm.core.models import Game, LogEntry, Order, Phase, Seat
from gm.modules.forum_mafia.bench import table as fm_night
from gm.modules.forum_mafia.engine import resolution
from tests.integration.worker_utils import (
    SESSION_QUEUE,
    CeleryProcesses,
    forget_queue,
    purge_queue,
    routed_to,
    skip_reason,
    wait_until,
    worker_database_url,
)


@pytest.fixture
def users(make_user):
    """``users(n, prefix)`` → ``n`` player accounts."""
    def make(n: int, prefix: str = "fm"):
        return [make_user(f"{prefix}{i}") for i in range(n)]

    return make


def hand(seat: Seat) -> list[int]:
    return [c["uid"] for c in seat.data["cards"]["hand"]]


@pytest.mark.django_db
def test_FM_6_night_resolves_exactly_once_and_day_1_opens(frozen, master, users):
    players = users(5)
    game, phase = fm_night.db_night(master, players)
    assert (phase.kind, phase.number, phase.status) == ("night", 1, Phase.Status.OPEN)
    before = {s.pk: s for s in game.seats.order_by("position")}
    first = next(iter(before.values()))
    services.order_submit(phase=phase, user=first.user, payload={})  # FM-5.6: replaced by the next version
    stored = fm_night.submit_orders(game, phase)
    assert stored[first.pk].version == 2

    frozen.move_to(phase.deadline - timedelta(seconds=1))
    assert services.phase_claim(phase_id=phase.pk) is None  # not due yet
    frozen.move_to(phase.deadline)
    token = services.phase_claim(phase_id=phase.pk)
    assert token is not None
    assert services.phase_claim(phase_id=phase.pk) is None  # a second claimer gets nothing
    resolved = services.phase_resolve(phase_id=phase.pk, token=token)
    assert resolved is not None and resolved.status == Phase.Status.RESOLVED
    # Exactly once: the same token again, a due-resolve, a sweep and the deadline task all find nothing to do.
    assert services.phase_resolve(phase_id=phase.pk, token=token) is None
    assert services.phase_resolve_due(phase_id=phase.pk) is None
    assert services.phases_sweep().resolved == []
    phase.refresh_from_db()
    assert phase.claims == 1
    assert LogEntry.objects.filter(phase=phase, kind="core.phase_resolved").count() == 1
    assert LogEntry.objects.filter(phase=phase, kind="fm.hand_counts").count() == 1

    # Day 1 opens (FM-1.3) with its own deadline.
    game.refresh_from_db()
    day = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    assert (day.kind, day.number, day.ordinal) == ("day", 1, phase.ordinal + 1)
    assert day.deadline == timezone.now() + timedelta(seconds=game.duration_for("day"))
    assert game.status == Game.Status.RUNNING

    # The seats hold what the engine returned; a re-run from the stored snapshot gives the same result.
    after = {s.pk: s for s in game.seats.order_by("position")}
    for pk, seat in after.items():  # the engine returns only the seats whose cards changed
        changed = str(pk) in phase.result["seat_data"]
        assert seat.data == (phase.result["seat_data"][str(pk)] if changed else before[pk].data)
        assert seat.version == before[pk].version + int(changed)
    orders = {o.seat_id: o.payload for o in Order.objects.filter(phase=phase).order_by("version")}
    rerun = services.run_engine(game=game, phase=phase, snapshot=phase.state, orders=orders)
    assert services.canonical_digest(rerun, game.game_module.constant_state_keys) == phase.result_digest
    assert "collection" not in phase.state["game"] and "collection" not in phase.result["state"]  # stored once

    # FM-5.4 / FM-6.1: the played Hand card went to the discard pile and is owed one replacement draw; losses
    # (damage beyond armour) first absorb that draw, the rest leave the front of the Hand.
    losses = {e["data"]["player"]: e["data"]["losses"] for e in phase.result["events"] if e["kind"] == "fm.t_damage"}
    assert 0 in losses.values() and max(losses.values()) >= 2
    for pk, seat in after.items():
        old = Containers.from_dict(before[pk].data["cards"])
        new = Containers.from_dict(seat.data["cards"])
        played = orders[pk]["plays"][0]["uid"]
        assert played not in hand(seat) and played in [i.uid for i in new.discard]
        lost = losses.get(seat.display_name, 0)
        drawn = 0 if lost else 1
        rest = [u for u in hand(before[pk]) if u != played]
        assert hand(seat) == rest[max(0, lost - 1):] + [i.uid for i in old.deck[:drawn]]
        assert new.deck == old.deck[drawn:]
    assert orders[first.pk]["plays"], "the last order version counts (FM-5.6)"

    # FM-5.1: the public log has every living seat's Hand count, equal to the real one.
    counts = LogEntry.objects.get(phase=phase, kind="fm.hand_counts")
    assert counts.visibility == LogEntry.Visibility.PUBLIC
    assert {c["player"]: c["count"] for c in counts.data["counts"]} == \
        {s.display_name: len(hand(s)) for s in after.values() if s.alive}

    # The master reads the resolution trace; a player reads his own results and no trace, no one else's.
    trace = visibility.log_entries(visibility.viewer_for(master, game)).filter(phase=phase, kind__startswith="fm.t_")
    assert {"fm.t_order", "fm.t_damage", "fm.t_armour", "fm.t_recon", "fm.t_hand_counts"} <= \
        set(trace.values_list("kind", flat=True))
    player = players[1]
    seen = visibility.log_entries(visibility.viewer_for(player, game)).filter(phase=phase)
    assert not seen.filter(kind__startswith="fm.t_").exists()
    assert seen.filter(kind="fm.hand_counts").exists()
    own = Seat.objects.get(game=game, user=player)
    assert set(seen.filter(visibility=LogEntry.Visibility.SEAT).values_list("seat_id", flat=True)) == {own.pk}
    spectator_view = visibility.log_entries(visibility.viewer_for(None, game)).filter(phase=phase)
    assert not spectator_view.exclude(visibility=LogEntry.Visibility.PUBLIC).exists()


def _resolve_counting(phase: Phase, frozen) -> tuple[int, list[str]]:
    frozen.move_to(phase.deadline)
    token = services.phase_claim(phase_id=phase.pk)
    assert token is not None
    with CaptureQueriesContext(connection) as ctx:
        assert services.phase_resolve(phase_id=phase.pk, token=token) is not None
    return len(ctx.captured_queries), [q["sql"][:60] for q in ctx.captured_queries]


@pytest.mark.django_db
def test_resolution_query_count_does_not_grow_with_players(frozen, master, users):
    """5 and 16 players, every one playing two cards: the same number of queries (bulk writes, one read of the
    seats and one of the orders). On SQLite, Django splits a bulk write over 999 parameters into batches, so
    there only the writes of a big table may take a few more."""
    counts = {}
    for n in (5, 16):
        game, phase = fm_night.db_night(master, users(n, prefix=f"q{n}_"), title=f"FM {n}")
        fm_night.submit_orders(game, phase)
        counts[n] = _resolve_counting(phase, frozen)
        assert Phase.objects.get(game=game, status=Phase.Status.OPEN).kind == "day"
        assert LogEntry.objects.filter(phase=phase, kind="fm.t_order").count() == n
    (small, small_sql), (big, big_sql) = counts[5], counts[16]
    if connection.vendor == "postgresql":
        assert small == big, (small_sql, big_sql)
    else:
        assert small <= big <= small + 4, (small_sql, big_sql)
    assert big <= 25, big_sql


# -- a real Celery worker (PostgreSQL + Redis) ----------------------------------------------------------------


#: Decided at collection, so that on SQLite the test is skipped before a transactional database is set up (and
#: flushed).
WORKER_SKIP = skip_reason()


@pytest.fixture
def worker_env(settings, card_collection):
    with routed_to(SESSION_QUEUE, settings) as queue:
        yield queue
    forget_queue(SESSION_QUEUE)


@pytest.mark.worker
@pytest.mark.skipif(WORKER_SKIP is not None, reason=str(WORKER_SKIP))
@pytest.mark.django_db(transaction=True)
def test_FM_1_3_real_worker_resolves_a_forum_mafia_night_at_its_deadline(worker_env, master, users, tmp_path,
                                                                            settings):
    """A real ``celery worker`` resolves the Night 1 of a 5-player forum Mafia game at its deadline through the
    phase's ETA task: one claim, one ``core.phase_resolved``, Day 1 open, seats as the engine says."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": worker_database_url(),
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "CELERY_TASK_DEFAULT_QUEUE": worker_env,
           "GM_OVERDUE_AFTER": "3600", "PYTHONUNBUFFERED": "1"}
    procs = CeleryProcesses(log_dir=tmp_path, queue=worker_env, env=env)
    try:
        game, phase = fm_night.db_night(master, users(5))
        fm_night.submit_orders(game, phase)
        purge_queue(worker_env)  # the ETA message of the original (24 h) deadline
        deadline = timezone.now() + timedelta(seconds=2)
        Phase.objects.filter(pk=phase.pk).update(deadline=deadline, base_deadline=deadline)
        phase.refresh_from_db()
        services.schedule_deadline(phase, now=timezone.now())  # outside atomic: published at once
        worker = procs.worker()

        def resolved():
            phase.refresh_from_db()
            return phase.status == Phase.Status.RESOLVED

        wait_until(resolved, timeout=30, interval=0.1, message=lambda: f"phase still {phase.status}:\n{worker.tail()}")
        assert phase.resolved_at >= deadline and phase.claims == 1
        assert LogEntry.objects.filter(phase=phase, kind="core.phase_resolved").count() == 1
        day = Phase.objects.get(game=game, status=Phase.Status.OPEN)
        assert (day.kind, day.number) == ("day", 1)
        for seat in game.seats.all():
            assert seat.data == phase.result["seat_data"].get(str(seat.pk), seat.data)
        # What the worker computed is what the pure engine computes from the same input and seed.
        seats = [SeatInfo(**s) for s in phase.state["seats"]]
        orders = {o.seat_id: o.payload for o in Order.objects.filter(phase=phase).order_by("version")}
        state = {**phase.state["game"], "collection": game.state["collection"]}  # kept once, on the game
        again = resolution.resolve(state=state, phase=PhaseInfo("night", 1, phase.ordinal),
                                   seats=seats, orders=orders, rng=random.Random(phase.rng_seed))
        assert services.canonical_digest(again, ("collection",)) == phase.result_digest
        log = worker.log()
        assert "Traceback" not in log and "ERROR" not in log, worker.tail()
    finally:
        procs.stop_all()
        print(procs.report())
