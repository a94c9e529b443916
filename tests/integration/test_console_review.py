"""Review before publishing (issue 8 item 3): the deadline computes and stores the result once, nobody but the master
sees any of it — not the living player, the other player, the dead player, the spectator, the anonymous visitor, on
the game page, the API or the feed — until the master approves it or the auto-publish time he set passes (the beat
sweep), and then it is applied exactly once."""
from __future__ import annotations

from datetime import timedelta

import pytest

from gm.core import interventions, review, services, visibility
from gm.core.models import AuditEntry, LogEntry, Phase
from gm.core.services import ServiceError
from tests.helpers import api, client_for
from tests.integration.console_table import build_table, seat, shoot_boris

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(frozen, master, make_user, card_collection):
    return build_table(master, make_user)


def held_night(game, users, master, *, auto_minutes=None):
    """Eva dies by the master's hand first (a dead player viewer), review is turned on, Alice shoots Boris and the
    night resolves at its deadline: held."""
    interventions.seat_set_alive(game=game, actor=master, seat_id=seat(game, "Eva").pk, alive=False, reason="gone")
    review.game_set_review(game=game, actor=master, enabled=True, auto_minutes=auto_minutes, reason="disputed rules")
    night = shoot_boris(game, users)
    return night


def resolve_at_deadline(night, frozen):
    frozen.shift(timedelta(days=2))
    assert services.phase_resolve_due(phase_id=night.pk) is not None
    night.refresh_from_db()
    return night


def viewers(game, users, master, spectator):
    return {"player": users["Alice"], "other player": users["Clara"], "victim": users["Boris"],
            "dead player": users["Eva"], "spectator": spectator, "anonymous": None}


def test_held_result_is_invisible_to_every_other_viewer_until_the_master_publishes(table, master, spectator, frozen):
    game, users = table
    night = held_night(game, users, master)
    everyone = viewers(game, users, master, spectator)
    seen_before = {kind: set(visibility.log_entries(visibility.viewer_for(u, game)).values_list("pk", flat=True))
                   for kind, u in everyone.items()}
    entries_before = set(LogEntry.objects.filter(game=game).values_list("pk", flat=True))
    night = resolve_at_deadline(night, frozen)
    assert night.status == Phase.Status.RESOLVED and night.is_held and night.result_digest
    boris = seat(game, "Boris")
    assert boris.alive  # nothing applied yet
    assert not Phase.objects.filter(game=game).exclude(status=Phase.Status.RESOLVED).exists()  # Day 1 not open
    new_entries = LogEntry.objects.filter(game=game).exclude(pk__in=entries_before)
    assert list(new_entries.values_list("visibility", flat=True)) == ["master"]  # "held for review", master only
    for kind, user in everyone.items():
        viewer = visibility.viewer_for(user, game)
        assert set(visibility.log_entries(viewer).values_list("pk", flat=True)) == seen_before[kind], kind
        assert next(s for s in visibility.seats(viewer) if s["id"] == boris.pk)["alive"], kind
        page = client_for(user).get(game.get_absolute_url()).content.decode()
        assert "Boris has died" not in page and "Day 1" not in page, kind
        status, log = api(client_for(user), "get", f"/api/games/{game.pk}/log/")
        assert status == 200 and {e["id"] for e in log["results"]} <= seen_before[kind], kind
    feed = client_for(None).get(f"/games/{game.pk}/feed/").content.decode()
    assert "Boris" not in feed
    # The master sees the held result on his console: the trace and what each player will be told.
    page = client_for(master).get(game.get_absolute_url()).content.decode()
    assert "waiting for your review" in page and "Boris" in page

    with pytest.raises(ServiceError):  # the master's seat edits would be overwritten: refused while held
        interventions.seat_edit(game=game, actor=master, seat_id=boris.pk, changes={"jail": 1}, reason="x")
    with pytest.raises(ServiceError) as exc:
        review.phase_publish(game=game, actor=users["Alice"], reason="please")
    assert exc.value.code == "forbidden" and seat(game, "Boris").alive

    review.phase_publish(game=game, actor=master, reason="checked the trace")
    night.refresh_from_db()
    assert night.published_at is not None and not night.is_held
    assert not seat(game, "Boris").alive
    day = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    assert (day.kind, day.number, day.ordinal) == ("day", 1, night.ordinal + 1)
    spectator_view = visibility.viewer_for(spectator, game)
    deaths = visibility.log_entries(spectator_view).filter(phase=night, kind="fm.death")
    assert sorted(e.data["player"] for e in deaths) == ["Boris", "Eva"]  # Eva: the master's kill before
    assert AuditEntry.objects.get(game=game, action="publish").reason == "checked the trace"
    with pytest.raises(ServiceError) as exc:  # exactly once
        review.phase_publish(game=game, actor=master, reason="again")
    assert exc.value.code == "state"
    assert Phase.objects.filter(game=game).count() == 2
    # The published result is the stored one: a replay of the snapshot gives the same digest.
    rerun = services.run_engine(game=game, phase=night, snapshot=night.state,
                                orders=services.latest_orders(night, list(game.seats.all())))
    assert services.canonical_digest(rerun, game.game_module.constant_state_keys) == night.result_digest


def test_held_result_publishes_itself_at_the_time_the_master_set_by_the_sweep_once(table, master, frozen):
    game, users = table
    night = resolve_at_deadline(held_night(game, users, master, auto_minutes=30), frozen)
    assert night.publish_at == night.held_at + timedelta(minutes=30)
    frozen.shift(timedelta(minutes=29))
    assert services.phases_sweep().published == []
    assert seat(game, "Boris").alive
    frozen.shift(timedelta(minutes=2))
    assert services.phases_sweep().published == [night.pk]
    assert services.phases_sweep().published == []
    assert not seat(game, "Boris").alive
    assert Phase.objects.filter(game=game, status=Phase.Status.OPEN).count() == 1


def test_master_moves_the_auto_publish_time_and_refusals_change_nothing(table, master, frozen):
    game, users = table
    night = resolve_at_deadline(held_night(game, users, master), frozen)
    assert night.publish_at is None
    from django.utils import timezone

    with pytest.raises(ServiceError) as exc:
        review.phase_set_publish_at(game=game, actor=master, publish_at=timezone.now() - timedelta(minutes=1),
                                    reason="x")
    assert "publish_at" in exc.value.errors
    with pytest.raises(ServiceError):
        review.game_set_review(game=game, actor=master, enabled=True, auto_minutes=0, reason="x")
    night.refresh_from_db()
    assert night.publish_at is None
    review.phase_set_publish_at(game=game, actor=master, publish_at=timezone.now() + timedelta(minutes=5),
                                reason="players asked")
    frozen.shift(timedelta(minutes=6))
    assert services.phases_sweep().published == [night.pk]
    assert AuditEntry.objects.get(game=game, action="publish_at").reason == "players asked"


def test_notifications_go_out_only_when_the_result_is_published(table, master, frozen, monkeypatch):
    from gm.core import tasks
    from gm.inbox.models import Notification
    from gm.inbox.services import notify_phase_results

    game, users = table
    sent = []
    monkeypatch.setattr(tasks.phase_notify_task, "delay_on_commit", lambda phase_id: sent.append(phase_id))
    night = resolve_at_deadline(held_night(game, users, master), frozen)
    assert sent == []
    review.phase_publish(game=game, actor=master, reason="fine")
    assert sent == [night.pk]
    notify_phase_results(phase_id=night.pk)
    assert Notification.objects.filter(user=users["Alice"], phase=night).exists()


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_publish_a_held_result_once(table, master, frozen):
    """Exactly once on PostgreSQL: two sweeps race for one due held result; one publishes, one Day 1 opens."""
    from django.db import connection

    from tests.helpers import race

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL's row locks")
    game, users = table
    night = resolve_at_deadline(held_night(game, users, master, auto_minutes=1), frozen)
    frozen.shift(timedelta(minutes=2))
    results = race(lambda i: review.publish_due())
    assert sorted(len(r) for r in results) == [0, 1], results
    assert Phase.objects.filter(game=game, status=Phase.Status.OPEN).count() == 1
    assert LogEntry.objects.filter(phase=night, kind="core.phase_resolved").count() == 1
