"""Deadline grids (issue 23, item 7; ``gm.core.services.grids``): a fixed time of day in the master's zone, quiet
hours and blocked dates where no deadline falls, extensions and pauses that keep the grid, the reminder lead table;
set through the master's console form, shown on the game page before the start in each viewer's zone. Frozen time
starts at 2026-01-01 12:00 UTC (15:00 in Moscow)."""
from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from django.urls import reverse

from gm.core import services
from gm.core.models import AuditEntry, GameLife, Phase, life_of
from gm.core.services import ServiceError, grids
from gm.inbox.models import Notification
from gm.inbox.services import reminders_sweep
from tests.helpers import client_for, game_page

pytestmark = pytest.mark.django_db

MOSCOW = "Europe/Moscow"  # UTC+3 all year


def utc(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 1, day, hour, minute, tzinfo=UTC)


def open_phase(game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def set_grid(game, master, **kw):
    kw.setdefault("zone", MOSCOW)
    return grids.grid_set(game=game, actor=master, reason="house grid", **kw)


def test_reminder_lead_table():
    lead = grids.reminder_lead
    assert lead(timedelta(hours=1)) == timedelta(minutes=15)
    assert lead(timedelta(minutes=20)) == timedelta(minutes=15)
    assert lead(timedelta(hours=24)) == timedelta(hours=1)
    assert lead(timedelta(hours=48)) == lead(timedelta(hours=96)) == timedelta(hours=2)
    assert lead(timedelta(days=7)) == timedelta(hours=4)


def test_fixed_time_of_day_gives_the_grid_point_nearest_to_the_phase_length(frozen, signup_game, master):
    signup_game.durations = {"round": 86400}
    signup_game.save(update_fields=["durations"])
    set_grid(signup_game, master, grid_time=time(20, 0))
    services.game_start(game=signup_game, actor=master)
    # 12:00 UTC + 24 h = Jan 2 12:00 UTC; the nearest 20:00 Moscow is Jan 2 17:00 UTC.
    assert open_phase(signup_game).deadline == utc(2, 17)
    assert AuditEntry.objects.get(game=signup_game, action="grid").data["grid_time"] == "20:00"


def test_a_short_phase_never_gets_less_than_half_its_length(frozen, signup_game, master):
    # 1-hour rounds, grid at 15:20 Moscow = 12:20 UTC: 20 minutes away is less than half an hour → next day's.
    set_grid(signup_game, master, grid_time=time(15, 20))
    services.game_start(game=signup_game, actor=master)
    assert open_phase(signup_game).deadline == utc(2, 12, 20)


def test_quiet_hours_move_a_deadline_to_their_end(frozen, signup_game, master):
    signup_game.durations = {"round": 11 * 3600}  # 12:00 + 11 h = 23:00 UTC = 02:00 Moscow
    signup_game.save(update_fields=["durations"])
    set_grid(signup_game, master, quiet_start=time(0, 0), quiet_end=time(9, 0))
    services.game_start(game=signup_game, actor=master)
    assert open_phase(signup_game).deadline == utc(2, 6)  # 09:00 Moscow


def test_blocked_dates_move_a_deadline_to_the_next_free_day_at_the_grid_time(frozen, signup_game, master):
    signup_game.durations = {"round": 86400}
    signup_game.save(update_fields=["durations"])
    set_grid(signup_game, master, grid_time=time(20, 0), blocked_dates="2026-01-02 2026-01-03")
    services.game_start(game=signup_game, actor=master)
    assert open_phase(signup_game).deadline == utc(4, 17)


def test_an_extension_and_a_pause_keep_the_grid(frozen, running_game, master):
    set_grid(running_game, master, grid_time=time(20, 0), quiet_start=time(1, 0), quiet_end=time(8, 0))
    phase = open_phase(running_game)
    assert phase.deadline == utc(1, 13)  # opened before the grid was set: it keeps its deadline
    services.phase_extend(game=running_game, actor=master, minutes=30, reason="slow")
    phase.refresh_from_db()
    assert phase.deadline == utc(1, 17)  # 13:30 UTC → the next 20:00 Moscow
    services.game_pause(game=running_game, actor=master, reason="holiday")
    frozen.shift(6 * 3600)
    services.game_resume(game=running_game, actor=master, reason="back")
    phase.refresh_from_db()
    assert phase.deadline == utc(2, 17)  # 23:00 UTC → the next day's 20:00 Moscow


def test_an_extension_beyond_the_cap_through_the_grid_is_refused(frozen, running_game, master, settings):
    settings.GM_MAX_EXTENSION = 3600
    set_grid(running_game, master, grid_time=time(20, 0))
    with pytest.raises(ServiceError) as err:
        services.phase_extend(game=running_game, actor=master, minutes=30, reason="slow")
    assert "minutes" in err.value.errors
    assert open_phase(running_game).deadline == utc(1, 13)


@pytest.mark.parametrize(("kw", "field"), [
    ({"zone": "Mars/Olympus"}, "zone"),
    ({"quiet_start": time(1, 0)}, "quiet_end"),
    ({"quiet_start": time(1, 0), "quiet_end": time(1, 0)}, "quiet_end"),
    ({"grid_time": time(3, 0), "quiet_start": time(1, 0), "quiet_end": time(8, 0)}, "grid_time"),
    ({"grid_time": time(23, 30), "quiet_start": time(23, 0), "quiet_end": time(6, 0)}, "grid_time"),
    ({"blocked_dates": "2026-01-02 tomorrow"}, "blocked_dates"),
    ({"kinds": ["night"]}, "kinds"),
])
def test_bad_grid_is_refused_and_changes_nothing(signup_game, master, kw, field):
    with pytest.raises(ServiceError) as err:
        grids.grid_set(game=signup_game, actor=master, reason="x", **kw)
    assert field in err.value.errors
    assert not GameLife.objects.exists() and not AuditEntry.objects.filter(action="grid").exists()


def test_only_the_master_sets_the_grid(signup_game, players):
    with pytest.raises(ServiceError) as err:
        grids.grid_set(game=signup_game, actor=players[0], grid_time=time(20, 0), reason="x")
    assert err.value.code == "forbidden"
    response = client_for(players[0]).post(reverse("gm:grid_set", args=[signup_game.pk]),
                                           {"grid_time": "20:00", "reason": "x"})
    assert response.status_code == 403 and not GameLife.objects.exists()


def _onuw(master, make_user):
    names = ["Alice", "Boris", "Clara", "Dmitri"]
    users = {n: make_user(n.lower()) for n in names}
    game = services.game_create(master=master, module="onuw", title="ONUW", rng_seed=9,
                                options={"deal": ["seer", "werewolf", "robber", "troublemaker", "villager",
                                                  "villager", "drunk"]})
    services.game_open_signup(game=game, actor=master)
    for n in names:
        services.seat_join(game=game, user=users[n], display_name=n)
    return game, users


def test_onuw_grid_set_on_the_console_shown_before_the_start_in_each_zone_and_applied(frozen, master, make_user):
    game, users = _onuw(master, make_user)
    alice = users["Alice"]
    alice.profile.time_zone = "Europe/Berlin"  # UTC+1
    alice.profile.save()
    response = client_for(master).post(reverse("gm:grid_set", args=[game.pk]), {
        "grid_time": "20:00", "zone": MOSCOW, "kinds": ["day"], "quiet_start": "01:00", "quiet_end": "08:00",
        "blocked_dates": "2026-01-03", "reminder_table": "on", "reason": "house grid"}, follow=True)
    assert "The deadline grid was saved." in response.content.decode()
    life = life_of(game)
    assert (life.grid_time, life.grid_kinds, life.blocked_dates) == (time(20, 0), ["day"], ["2026-01-03"])
    page = game_page(game, alice)  # before the start
    assert "Day: deadlines fall every day at 20:00 (Europe/Moscow). That is 18:00 your time." in page
    assert "No deadline falls between 01:00–08:00 (Europe/Moscow)" in page and "That is 23:00–06:00 your time." in page
    assert '<time datetime="2026-01-03">' in page and "15 min before for a phase of up to 1 h" in page
    assert 'id="console-grid"' not in page and 'id="console-grid"' in game_page(game, master)
    # Bad input through the form: shown, nothing changed.
    response = client_for(master).post(reverse("gm:grid_set", args=[game.pk]), {
        "grid_time": "20:00", "zone": "Nowhere/Town", "reason": "x"}, follow=True)
    assert "Unknown time zone." in response.content.decode()
    assert life_of(type(game).objects.get(pk=game.pk)).grid_zone == MOSCOW
    services.game_start(game=game, actor=master)
    night = open_phase(game)
    assert night.kind == "night" and night.deadline == utc(2, 12)  # nights are off the grid: 24 h, 15:00 Moscow
    assert services.phase_resolve_due(phase_id=night.pk, clock=lambda: night.deadline) is not None
    day = open_phase(game)
    # Jan 2 12:00 + 48 h = Jan 4 12:00 UTC → the nearest 20:00 Moscow is Jan 4 17:00 UTC.
    assert day.kind == "day" and day.deadline == utc(4, 17)


def test_fm_day_on_the_grid_and_reminded_by_the_table(frozen, master, make_user):
    from tests.integration.fm_table import build, play_night

    game, users = build(master, make_user)
    set_grid(game, master, grid_time=time(20, 0), kinds=["day"], reminder_table=True)
    play_night(game, users, frozen)  # resolves at 12:00 + 3 days (Jan 4 12:00 UTC)
    day = open_phase(game)
    assert day.kind == "day" and day.deadline == utc(6, 17)  # Jan 6 12:00 → 20:00 Moscow
    # A 53-hour phase is reminded 2 h before its deadline, not earlier.
    assert reminders_sweep(clock=lambda: day.deadline - timedelta(hours=2, minutes=1)).sent == []
    report = reminders_sweep(clock=lambda: day.deadline - timedelta(hours=2))
    assert report.sent and {s for _p, s in report.sent} <= {s.pk for s in game.seats.filter(alive=True)}
    assert Notification.objects.filter(kind="deadline_reminder", phase=day).count() == len(report.sent)


def test_without_the_table_or_a_reminder_nobody_is_reminded(frozen, running_game):
    phase = open_phase(running_game)
    assert reminders_sweep(clock=lambda: phase.deadline - timedelta(minutes=5)).sent == []
