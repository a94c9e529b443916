"""Outage protection (issue 23, item 8; ``gm.core.services.outage``): the deadline sweep records its last success;
the first sweep after a gap longer than ``GM_OUTAGE_AFTER`` moves every open deadline that fell in the gap by the
gap plus ``GM_OUTAGE_GRACE`` before it resolves anything, tells every running game publicly, and the master's
console (page and API) shows the outage. The clock is injected (time_machine plus the services' ``clock``): beat
"stops" simply by not sweeping for 15 simulated minutes."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from gm.core import services
from gm.core.models import LogEntry, Outage, Phase, SweepMark
from gm.core.services import outage
from gm.core.tasks import phase_deadline_task
from tests.helpers import api, client_for, game_page

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("outage_on")]

ONUW_NAMES = ["Alice", "Boris", "Clara", "Dmitri"]
ONUW_DEAL = ["seer", "werewolf", "robber", "troublemaker", "villager", "villager", "drunk"]


@pytest.fixture
def outage_on():
    with override_settings(GM_OUTAGE_AFTER=600.0, GM_OUTAGE_GRACE=900.0):
        yield


def open_phase(game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def sweep_at(moment):
    return services.phases_sweep(clock=lambda: moment)


def test_sweep_records_its_last_success(frozen, running_game):
    assert outage.last_sweep() is None
    report = services.phases_sweep()
    assert report.outage is None and outage.last_sweep() == timezone.now()
    frozen.shift(5)
    services.phases_sweep()
    assert SweepMark.objects.get(name="phases").last_success == timezone.now()


def test_fifteen_minutes_without_a_sweep_moves_the_deadline_before_anything_resolves(frozen, running_game, master,
                                                                                     make_user):
    """The deadline (12:00 + 1 h) falls ten minutes into a 15-minute outage: the first sweep after it moves the
    deadline by the outage plus the grace (15 + 15 min) and resolves nothing; the phase resolves, once, at the moved
    deadline."""
    round_1 = open_phase(running_game)
    deadline = round_1.deadline
    # A second game whose deadline is after the outage: it only gets the notice.
    later = services.game_create(master=master, module="tally", title="Later", options={"rounds": 3}, rng_seed=7)
    services.game_open_signup(game=later, actor=master)
    for i in range(2):
        services.seat_join(game=later, user=make_user(f"late{i}"), display_name=f"Late{i}")
    frozen.shift(2400)
    services.game_start(game=later, actor=master)
    later_phase = open_phase(later)
    later_deadline = later_phase.deadline  # 13:40

    last_ok = deadline - timedelta(minutes=5)
    assert sweep_at(last_ok).resolved == []
    # Beat stops for 15 minutes; a queued ETA task fires when the workers come back, before the first sweep.
    back = last_ok + timedelta(minutes=15)
    frozen.move_to(back)
    assert phase_deadline_task.run(round_1.pk) is False
    round_1.refresh_from_db()
    assert round_1.status == Phase.Status.OPEN and round_1.deadline == deadline

    report = sweep_at(back)
    assert report.resolved == [] and report.outage is not None
    round_1.refresh_from_db()
    moved = deadline + timedelta(minutes=15) + timedelta(minutes=15)
    assert round_1.status == Phase.Status.OPEN
    assert round_1.deadline == moved and round_1.base_deadline == moved
    later_phase.refresh_from_db()
    assert later_phase.deadline == later_deadline
    record = Outage.objects.get(pk=report.outage)
    assert (record.down_from, record.detected_at, record.shift_seconds) == (last_ok, back, 1800)
    assert record.phases == [round_1.pk] and sorted(record.games) == sorted([running_game.pk, later.pk])
    notices = LogEntry.objects.filter(kind__startswith="core.outage", visibility="public")
    assert {(e.game_id, e.kind) for e in notices} == {(running_game.pk, "core.outage_shifted"),
                                                      (later.pk, "core.outage")}
    # Nothing resolves before the moved deadline, by sweep or ETA task; the outage is recovered only once.
    for minutes in (11, 18, 25, 29):  # sweeps every few minutes again
        assert sweep_at(deadline + timedelta(minutes=minutes)).resolved == []
    frozen.move_to(moved - timedelta(seconds=1))
    assert phase_deadline_task.run(round_1.pk) is False
    assert sweep_at(moved).resolved == [round_1.pk]
    assert Outage.objects.count() == 1
    assert LogEntry.objects.filter(phase=round_1, kind="core.phase_resolved").count() == 1


def test_a_short_gap_is_no_outage(frozen, running_game):
    round_1 = open_phase(running_game)
    assert sweep_at(round_1.deadline - timedelta(minutes=5)).resolved == []
    report = sweep_at(round_1.deadline + timedelta(minutes=4))  # 9 min since the last sweep: below 10
    assert report.outage is None and report.resolved == [round_1.pk]
    assert not Outage.objects.exists()


def test_protection_off_resolves_after_any_gap(frozen, running_game):
    round_1 = open_phase(running_game)
    with override_settings(GM_OUTAGE_AFTER=None):
        sweep_at(round_1.deadline - timedelta(minutes=5))
        report = sweep_at(round_1.deadline + timedelta(hours=2))
    assert report.outage is None and report.resolved == [round_1.pk]


def test_a_held_result_due_in_the_gap_publishes_after_the_grace(frozen, running_game, master):
    services.review.game_set_review(game=running_game, actor=master, enabled=True, auto_minutes=5, reason="check")
    round_1 = open_phase(running_game)
    sweep_at(round_1.deadline)  # resolves and holds; publishes at deadline + 5 min
    round_1.refresh_from_db()
    assert round_1.is_held
    publish_at = round_1.publish_at
    report = sweep_at(round_1.deadline + timedelta(minutes=20))
    assert report.outage is not None and report.published == []
    round_1.refresh_from_db()
    assert round_1.publish_at == publish_at + timedelta(minutes=20 + 15)
    assert sweep_at(round_1.publish_at - timedelta(minutes=5)).published == []
    assert sweep_at(round_1.publish_at).published == [round_1.pk]


def _onuw_game(master, make_user):
    users = {n: make_user(n.lower()) for n in ONUW_NAMES}
    game = services.game_create(master=master, module="onuw", title="ONUW", options={"deal": ONUW_DEAL}, rng_seed=9)
    services.game_open_signup(game=game, actor=master)
    for name in ONUW_NAMES:
        services.seat_join(game=game, user=users[name], display_name=name)
    services.game_start(game=game, actor=master)
    return game, users


def test_onuw_outage_is_shown_publicly_and_on_the_masters_console(frozen, master, make_user):
    game, users = _onuw_game(master, make_user)
    night = open_phase(game)
    before = night.deadline
    sweep_at(before - timedelta(minutes=1))
    frozen.move_to(before + timedelta(minutes=14))
    report = services.phases_sweep()
    assert report.outage is not None and report.resolved == []
    night.refresh_from_db()
    assert night.status == Phase.Status.OPEN
    assert night.deadline == before + timedelta(minutes=15 + 15)

    player_page = game_page(game, users["Alice"])
    assert "The site was down from" in player_page and "(15 min): the deadline moved by 30 min" in player_page
    assert 'id="console-outages"' not in player_page
    anonymous = game_page(game, None)
    assert "The site was down from" in anonymous
    console = client_for(master).get(reverse("gm:console_life", args=[game.pk])).content.decode()
    assert 'id="console-outages"' in console and "The deadline of Night 1 moved by 30 min." in console
    assert client_for(users["Alice"]).get(reverse("gm:console_life", args=[game.pk])).status_code == 403
    status, body = api(client_for(master), "get", f"/api/games/{game.pk}/console/")
    assert status == 200
    assert [(o["minutes"], o["shift_minutes"], o["moved"]) for o in body["outages"]] == [(15, 30, "Night 1")]
    status, _ = api(client_for(users["Alice"]), "get", f"/api/games/{game.pk}/console/")
    assert status == 403
    # The night then resolves at its moved deadline, once.
    frozen.move_to(night.deadline - timedelta(minutes=5))
    assert services.phases_sweep().resolved == []
    frozen.move_to(night.deadline)
    assert services.phases_sweep().resolved == [night.pk]


def test_fm_outage_notice_and_moved_deadline(frozen, master, make_user):
    from tests.integration.fm_table import build

    game, users = build(master, make_user)
    night = open_phase(game)
    before = night.deadline
    sweep_at(before - timedelta(minutes=2))
    frozen.move_to(before + timedelta(minutes=20))
    assert services.phases_sweep().resolved == []
    night.refresh_from_db()
    assert night.deadline == before + timedelta(minutes=22 + 15)
    page = game_page(game, users["Alice"])
    assert "The site was down from" in page and "the deadline moved by 37 min" in page
    status, body = api(client_for(master), "get", f"/api/games/{game.pk}/console/")
    assert status == 200 and body["outages"][0]["moved"] == "Night 1"
