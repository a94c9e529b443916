"""Deadlines, exactly-once claims, and master interventions — on frozen time (time_machine), no sleeps."""
from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone, translation

from gm.core import services
from gm.core.models import AuditEntry, Game, LogEntry, Order, Phase
from gm.core.services import ServiceError
from gm.core.tasks import phase_deadline_task

pytestmark = pytest.mark.django_db


def open_phase(game: Game) -> Phase:
    return game.phases.get(status=Phase.Status.OPEN)


def test_game_start_opens_first_phase_with_its_deadline(frozen, running_game):
    phase = open_phase(running_game)
    assert running_game.status == Game.Status.RUNNING
    assert (phase.ordinal, phase.kind, phase.number) == (1, "round", 1)
    assert phase.opens_at == timezone.now()
    assert phase.deadline == timezone.now() + timedelta(seconds=3600)
    assert LogEntry.objects.filter(game=running_game, kind="core.phase_opened", visibility="public").count() == 1


def test_orders_change_until_deadline_and_late_order_is_refused(frozen, running_game, players):
    phase = open_phase(running_game)
    services.order_submit(phase=phase, user=players[0], payload={"number": 3})
    second = services.order_submit(phase=phase, user=players[0], payload={"number": 5})
    assert second.version == 2
    frozen.shift(3600)
    with translation.override("en"), pytest.raises(ServiceError) as err:
        services.order_submit(phase=phase, user=players[0], payload={"number": 7})
    assert err.value.code == "late"
    assert "The deadline of Round 1 has passed" in str(err.value)
    assert list(Order.objects.filter(phase=phase).values_list("version", flat=True)) == [1, 2]
    with pytest.raises(ServiceError) as err:
        services.order_withdraw(phase=phase, user=players[0])
    assert err.value.code == "late"


def test_invalid_order_gets_field_errors_and_stores_nothing(frozen, running_game, players):
    phase = open_phase(running_game)
    with pytest.raises(ServiceError) as err:
        services.order_submit(phase=phase, user=players[0], payload={"number": 12, "colour": "red"})
    assert set(err.value.errors) == {"number", "colour"}
    with pytest.raises(ServiceError) as err:
        services.order_submit(phase=phase, user=players[0], payload=["not", "an", "object"])
    assert "payload" in err.value.errors
    assert not Order.objects.exists()


def test_sweep_resolves_only_due_phases_and_opens_the_next_with_its_deadline(frozen, running_game, players):
    """FM-1.3: each phase has a deadline; at the deadline all orders resolve at once and the next phase opens."""
    phase = open_phase(running_game)
    services.order_submit(phase=phase, user=players[0], payload={"number": 4})
    assert services.phases_sweep().resolved == []
    frozen.shift(3600)
    report = services.phases_sweep()
    assert report.resolved == [phase.pk]
    phase.refresh_from_db()
    assert phase.status == Phase.Status.RESOLVED and phase.claims == 1
    nxt = open_phase(running_game)
    assert nxt.ordinal == 2 and nxt.deadline == timezone.now() + timedelta(seconds=3600)
    # A second sweep (or a late ETA task) finds nothing to do: exactly once.
    assert services.phases_sweep().resolved == []
    assert phase_deadline_task.run(phase.pk) is False
    assert LogEntry.objects.filter(phase=phase, kind="core.phase_resolved").count() == 1


def test_eta_task_resolves_when_due_and_not_before(frozen, running_game):
    phase = open_phase(running_game)
    assert phase_deadline_task.run(phase.pk) is False
    frozen.shift(3600)
    assert phase_deadline_task.run(phase.pk) is True
    assert phase_deadline_task.run(phase.pk) is False


def test_claim_is_compare_and_set(frozen, running_game):
    phase = open_phase(running_game)
    frozen.shift(3600)
    token = services.phase_claim(phase_id=phase.pk)
    assert token is not None
    assert services.phase_claim(phase_id=phase.pk) is None
    assert services.phase_resolve(phase_id=phase.pk, token=services.uuid.uuid4()) is None  # not our claim
    assert services.phase_resolve(phase_id=phase.pk, token=token) is not None
    assert services.phase_resolve(phase_id=phase.pk, token=token) is None


@override_settings(GM_RESOLVING_TIMEOUT=120)
def test_phase_left_resolving_by_dead_worker_is_reclaimed_after_timeout(frozen, running_game, players):
    phase = open_phase(running_game)
    services.order_submit(phase=phase, user=players[1], payload={"number": 6})
    frozen.shift(3600)
    assert services.phase_claim(phase_id=phase.pk) is not None  # ...and the worker dies here
    frozen.shift(60)
    assert services.phases_sweep().reclaimed == []
    frozen.shift(61)
    assert services.phases_sweep().reclaimed == [phase.pk]
    phase.refresh_from_db()
    assert phase.status == Phase.Status.RESOLVED and phase.claims == 2
    seat = running_game.seats.get(user=players[1])
    assert seat.data["score"] == 6
    assert LogEntry.objects.filter(phase=phase, kind="core.phase_resolved").count() == 1


@override_settings(GM_RESOLVING_TIMEOUT=600, GM_OVERDUE_AFTER=60)
def test_overdue_phase_is_logged_as_error_and_flagged_for_the_master(frozen, running_game, master, client, caplog):
    phase = open_phase(running_game)
    frozen.shift(3600)
    services.phase_claim(phase_id=phase.pk)  # stuck: its worker died
    frozen.shift(30)
    assert services.phases_sweep().overdue == []
    frozen.shift(31)
    with caplog.at_level(logging.ERROR, logger="gm.deadlines"):
        assert services.phases_sweep().overdue == [phase.pk]
    assert any(r.levelno == logging.ERROR and r.message == "phase overdue" for r in caplog.records)
    assert services.phases_sweep().overdue == []  # flagged once
    client.force_login(master)
    page = client.get(running_game.get_absolute_url())
    assert page.status_code == 200 and 'class="flag"' in page.content.decode()


def test_extend_moves_deadline_is_capped_logged_publicly_and_audited(frozen, running_game, master, players):
    phase = open_phase(running_game)
    before = phase.deadline
    with pytest.raises(ServiceError) as err:
        services.phase_extend(game=running_game, actor=players[0], minutes=30)
    assert err.value.code == "forbidden"
    phase = services.phase_extend(game=running_game, actor=master, minutes=30, reason="slow players")
    assert phase.deadline == before + timedelta(minutes=30)
    entry = LogEntry.objects.get(game=running_game, kind="core.deadline_extended")
    assert entry.visibility == "public" and entry.data["minutes"] == 30
    assert AuditEntry.objects.get(game=running_game, action="extend").reason == "slow players"
    with override_settings(GM_MAX_EXTENSION=3600):
        with pytest.raises(ServiceError) as err:
            services.phase_extend(game=running_game, actor=master, minutes=31)
        assert "minutes" in err.value.errors
    with pytest.raises(ServiceError):
        services.phase_extend(game=running_game, actor=master, minutes=0)
    # The old deadline passing no longer resolves the phase.
    frozen.shift(3600)
    assert services.phases_sweep().resolved == []
    frozen.shift(30 * 60)
    assert services.phases_sweep().resolved == [phase.pk]


def test_pause_stops_the_deadline_and_resume_shifts_it(frozen, running_game, master, players):
    phase = open_phase(running_game)
    frozen.shift(1800)
    services.game_pause(game=running_game, actor=master, reason="holiday")
    frozen.shift(7200)
    assert services.phases_sweep().resolved == []
    services.order_submit(phase=phase, user=players[2], payload={"number": 1})  # orders still open while paused
    with pytest.raises(ServiceError):
        services.game_pause(game=running_game, actor=master)
    services.game_resume(game=running_game, actor=master)
    phase.refresh_from_db()
    assert phase.deadline == timezone.now() + timedelta(seconds=1800)
    kinds = list(LogEntry.objects.filter(game=running_game, visibility="public").values_list("kind", flat=True))
    assert "core.game_paused" in kinds and "core.game_resumed" in kinds
    assert set(AuditEntry.objects.values_list("action", flat=True)) == {"pause", "resume"}
    frozen.shift(1800)
    assert services.phases_sweep().resolved == [phase.pk]


def test_resolve_now_resolves_before_deadline_logged_and_audited(frozen, running_game, master, players):
    phase = open_phase(running_game)
    with pytest.raises(ServiceError):
        services.phase_resolve_now(game=running_game, actor=players[0])
    services.phase_resolve_now(game=running_game, actor=master, reason="everyone ordered")
    phase.refresh_from_db()
    assert phase.status == Phase.Status.RESOLVED
    assert LogEntry.objects.filter(phase=phase, kind="core.resolved_now", visibility="public").exists()
    assert AuditEntry.objects.filter(action="resolve_now", reason="everyone ordered").exists()
    assert open_phase(running_game).ordinal == 2


def test_dead_seat_and_non_actor_cannot_order(frozen, running_game, players):
    phase = open_phase(running_game)
    services.order_submit(phase=phase, user=players[0], payload={"number": 0})  # tally: ordering 0 kills
    frozen.shift(3600)
    services.phases_sweep()
    nxt = open_phase(running_game)
    with pytest.raises(ServiceError) as err:
        services.order_submit(phase=nxt, user=players[0], payload={"number": 1})
    assert err.value.code == "not_allowed"
    Phase.objects.filter(pk=nxt.pk).update(actors=[running_game.seats.get(user=players[1]).pk])
    nxt.refresh_from_db()
    with pytest.raises(ServiceError) as err:
        services.order_submit(phase=nxt, user=players[2], payload={"number": 1})
    assert err.value.code == "not_allowed"
    services.order_submit(phase=nxt, user=players[1], payload={"number": 1})


def test_result_is_reproducible_from_stored_snapshot_orders_and_seed(frozen, running_game, players):
    phase = open_phase(running_game)
    for i, user in enumerate(players):
        services.order_submit(phase=phase, user=user, payload={"number": i + 1})
    frozen.shift(3600)
    services.phases_sweep()
    phase.refresh_from_db()
    orders = {o.seat_id: o.payload for o in Order.objects.filter(phase=phase)}
    rerun = services.run_engine(game=running_game, phase=phase, snapshot=phase.state, orders=orders)
    assert services.canonical_digest(rerun) == phase.result_digest


def test_game_finishes_after_last_round_with_outcome(frozen, running_game, players):
    for _round in range(3):
        phase = open_phase(running_game)
        services.order_submit(phase=phase, user=players[3], payload={"number": 9})
        frozen.shift(3600)
        services.phases_sweep()
    running_game.refresh_from_db()
    assert running_game.status == Game.Status.FINISHED
    assert running_game.outcome["winning_seats"] == [running_game.seats.get(user=players[3]).pk]
    assert not running_game.phases.exclude(status=Phase.Status.RESOLVED).exists()


def test_paused_and_finished_games_are_not_swept(frozen, running_game, master):
    services.game_pause(game=running_game, actor=master)
    frozen.shift(10 * 3600)
    assert services.phases_sweep() == services.SweepReport()


def test_FM_5_6_last_order_version_counts_at_deadline(frozen, running_game, players):
    """FM-5.6: orders can be changed any number of times until the deadline; the last version counts, and a
    withdrawn order counts as no order."""
    phase = open_phase(running_game)
    services.order_submit(phase=phase, user=players[0], payload={"number": 3})
    services.order_submit(phase=phase, user=players[0], payload={"number": 5})
    services.order_submit(phase=phase, user=players[1], payload={"number": 7})
    services.order_withdraw(phase=phase, user=players[1])
    frozen.shift(3600)
    services.phases_sweep()
    scores = {s.user_id: s.data["score"] for s in running_game.seats.all()}
    assert scores[players[0].pk] == 5
    assert scores[players[1].pk] == 0
    history = list(Order.objects.filter(phase=phase, seat__user=players[1]).values_list("version", "payload"))
    assert history == [(1, {"number": 7}), (2, None)]  # every version is kept for the audit


def test_each_resolution_writes_one_structured_log_line(frozen, running_game, caplog):
    phase = open_phase(running_game)
    frozen.shift(3600)
    with caplog.at_level(logging.INFO, logger="gm.resolution"):
        services.phases_sweep()
    records = [r for r in caplog.records if r.name == "gm.resolution"]
    assert len(records) == 1
    record = records[0]
    assert (record.game, record.phase, record.ordinal, record.kind) == (running_game.pk, phase.pk, 1, "round")
    assert record.duration_ms >= 0 and record.queries > 5 and record.orders == 0


def test_resolution_query_count_does_not_grow_with_players(frozen, master, make_user, caplog):
    counts = []
    for size in (3, 12):
        game = services.game_create(master=master, module="tally", title=f"G{size}", rng_seed=size)
        services.game_open_signup(game=game, actor=master)
        users = [make_user(f"q{size}-{i}") for i in range(size)]
        for i, user in enumerate(users):
            services.seat_join(game=game, user=user, display_name=f"N{i}")
        services.game_start(game=game, actor=master)
        phase = open_phase(game)
        for user in users:
            services.order_submit(phase=phase, user=user, payload={"number": 2})
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="gm.resolution"):
            token = services.phase_claim(phase_id=phase.pk, early=True)
            services.phase_resolve(phase_id=phase.pk, token=token)
        counts.append(next(r.queries for r in caplog.records if r.name == "gm.resolution"))
    assert counts[0] == counts[1], counts


def test_deadline_task_eta_is_the_deadline_however_late_the_commit(frozen, running_game, monkeypatch, settings,
                                                                   django_capture_on_commit_callbacks):
    """A phase's deadline task is published after its transaction commits; its ETA is fixed when the phase is
    scheduled, so a transaction that commits 40 s later (a game start, an outage moving many deadlines, a batch of
    thousands) still gets its task at the deadline, not 40 s after it. A wait longer than ``GM_ETA_MAX`` is capped
    and marked as a hop."""
    from django.db import transaction

    settings.GM_ETA_MAX = 1800
    sent = []
    monkeypatch.setattr(phase_deadline_task, "apply_async", lambda *args, **kwargs: sent.append((args, kwargs)))
    phase = open_phase(running_game)
    soon, far = Phase.objects.get(pk=phase.pk), Phase.objects.get(pk=phase.pk)
    soon.deadline = timezone.now() + timedelta(seconds=600)
    far.deadline = timezone.now() + timedelta(days=3)
    scheduled_at = timezone.now()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        services.schedule_deadline(soon, now=timezone.now())
        services.schedule_deadline(far, now=timezone.now())
        frozen.shift(40)  # the rest of the transaction, or the other 4,999 messages before these
    assert len(sent) == 2, sent
    assert [kwargs["eta"] for _args, kwargs in sent] == [soon.deadline, scheduled_at + timedelta(seconds=1800)]
    assert all("countdown" not in kwargs for _args, kwargs in sent)
    hops = [kwargs.get("kwargs", args[1] if len(args) > 1 else None) for args, kwargs in sent]
    assert hops == [{"hop": False}, {"hop": True}], sent
