"""Vacations and the emergency pause (issue 23 item 4), through the site's pages and API, for forum Mafia and ONUW:
away dates (a badge in the thread and the player list, shown to masters at signup too; no prods meanwhile), and one
emergency pause (at most ``GM_EMERGENCY_PAUSE_MAX_HOURS``, once every ``GM_EMERGENCY_PAUSE_MONTHS``) that pauses the
player's running games whose master allows it, posts a notice, and resumes them by itself — with a real worker and
beat for the resumption."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gm.core import services
from gm.core.models import Game, LogEntry, Phase
from gm.core.models_life import Away, EmergencyPause
from gm.core.services import activity, vacations
from gm.modules.forum_mafia.services import signup as fm_signup
from tests.helpers import api, client_for, page_part
from tests.integration import fm_table
from tests.integration.test_extensions import life_worker  # noqa: F401 - the real-worker fixture
from tests.integration.test_prods import onuw_game
from tests.integration.worker_utils import wait_until

pytestmark = pytest.mark.django_db


def test_away_dates_page_badges_and_bad_input(frozen, master, make_user):
    game, users = fm_table.build(master, make_user)
    jo = client_for(users["Jo"])
    services.post_create(game=game, user=users["Jo"], body="Jo speaks")
    # Bad input: a clear error, nothing saved.
    response = jo.post("/away/", {"action": "away", "starts_on": "2026-01-05", "ends_on": "2026-01-02"}, follow=True)
    assert "The last day comes before the first." in response.content.decode()
    status, body = api(jo, "post", "/api/away/", {"starts_on": "2025-12-01", "ends_on": "2025-12-05"})
    assert status == 400 and body["errors"]["ends_on"] == ["That time is already over."]
    status, body = api(jo, "post", "/api/away/", {"starts_on": "2026-01-01", "ends_on": "2026-06-30"})
    assert status == 400 and "ends_on" in body["errors"]
    assert not Away.objects.exists()
    # From tomorrow: no badge today.
    assert jo.post("/away/", {"action": "away", "starts_on": "2026-01-02", "ends_on": "2026-01-04"}).status_code == 302
    assert "You are away from" in jo.get("/away/").content.decode()
    assert "away until" not in client_for(None).get(f"/games/{game.pk}/").content.decode()
    frozen.shift(timedelta(days=1))
    for viewer in (None, users["Alice"], master):
        html = client_for(viewer).get(f"/games/{game.pk}/").content.decode()
        assert "away until" in page_part(html, "seats") and "away until" in page_part(html, "thread")
    status, posts = api(client_for(None), "get", f"/api/games/{game.pk}/posts/")
    assert [p["away_until"] for p in posts["results"]] == ["2026-01-04"]
    ru = client_for(None, language="ru").get(f"/games/{game.pk}/").content.decode()
    assert "отсутствует до" in ru
    # Withdrawn through the API: the badge goes.
    status, body = api(jo, "delete", "/api/away/")
    assert status == 200 and body["away"] is None
    assert "away until" not in client_for(None).get(f"/games/{game.pk}/").content.decode()
    status, body = api(jo, "delete", "/api/away/")
    assert status == 404


def test_masters_see_the_away_badge_at_signup(frozen, master, make_user):
    game = services.game_create(master=master, module="forum_mafia", title="Signup", options={}, rng_seed=1)
    services.game_open_signup(game=game, actor=master)
    early = make_user("early")
    vacations.away_set(user=early, starts_on="2026-01-01", ends_on="2026-01-10")
    fm_signup.signup_create(game=game, user=early, public_role="geek", character_name="Early", pledges=True)
    html = client_for(master).get(f"/games/{game.pk}/").content.decode()
    assert "Early" in page_part(html, "seats") and "away until" in page_part(html, "seats")


def test_emergency_pause_pauses_only_games_that_allow_it_and_resumes_them(frozen, master, make_user):
    game, users = fm_table.build(master, make_user)
    onuw, onuw_users = onuw_game(master, make_user)
    alice = users["Alice"]
    # Alice plays both games; only the forum Mafia master allows emergency pauses.
    services.game_abort(game=onuw, actor=master, reason="x")
    onuw2 = services.game_create(master=master, module="onuw", title="ONUW 2", rng_seed=4)
    services.game_open_signup(game=onuw2, actor=master)
    services.seat_join(game=onuw2, user=alice, display_name="AliceO")
    for i in range(2):
        services.seat_join(game=onuw2, user=onuw_users[i], display_name=f"O{i}")
    services.game_start(game=onuw2, actor=master)
    client = client_for(alice)
    status, body = api(client, "post", "/api/away/emergency-pause/", {"hours": 5})
    assert status == 409  # nothing allows it yet
    activity.activity_options_set(game=game, actor=master, changes={"emergency_pause": True})
    status, body = api(client, "get", "/api/away/")
    assert status == 200 and body["pausable_games"] == [game.pk]
    status, body = api(client, "post", "/api/away/emergency-pause/", {"hours": 73})
    assert status == 400
    night = fm_table.open_phase(game)
    deadline = night.deadline
    response = client.post("/away/", {"action": "pause", "hours": 5, "confirm": "on"})
    assert response.status_code == 302
    game.refresh_from_db()
    onuw2.refresh_from_db()
    assert game.paused_at == timezone.now() and onuw2.paused_at is None
    notice = LogEntry.objects.get(game=game, kind="core.emergency_paused")
    assert notice.visibility == "public"
    assert "took an emergency pause" in client_for(None).get(f"/games/{game.pk}/").content.decode()
    # Once every 6 months.
    status, body = api(client, "post", "/api/away/emergency-pause/", {"hours": 1})
    assert status == 409 and "every 6 months" in body["errors"]["__all__"][0]
    # Not prodded while paused (and the paused game is not swept at all).
    frozen.shift(timedelta(hours=4))
    assert activity.activity_sweep()["resumed"] == []
    frozen.shift(timedelta(hours=1))
    report = activity.activity_sweep()
    assert report["resumed"] == [EmergencyPause.objects.get().pk]
    game.refresh_from_db()
    night.refresh_from_db()
    assert game.paused_at is None and night.deadline == deadline + timedelta(hours=5)
    assert LogEntry.objects.filter(game=game, kind="core.emergency_resumed").count() == 1
    assert activity.activity_sweep()["resumed"] == []


def test_a_game_the_master_resumed_is_left_to_him(frozen, master, make_user):
    game, users = fm_table.build(master, make_user)
    activity.activity_options_set(game=game, actor=master, changes={"emergency_pause": True})
    vacations.emergency_pause_start(user=users["Boris"], hours=10)
    frozen.shift(timedelta(hours=1))
    services.game_resume(game=game, actor=master, reason="we go on")
    services.game_pause(game=game, actor=master, reason="my own pause")
    frozen.shift(timedelta(hours=10))
    assert len(activity.activity_sweep()["resumed"]) == 1
    game.refresh_from_db()
    assert game.paused_at is not None  # the master's own pause stays
    assert not LogEntry.objects.filter(game=game, kind="core.emergency_resumed").exists()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_beat_resumes_an_emergency_pause_by_itself(master, make_user, life_worker):  # noqa: F811
    game, users = fm_table.build(master, make_user)
    Game.objects.filter(pk=game.pk).update(activity_options={"emergency_pause": True})
    night = Phase.objects.get(game=game, status="open")
    pause = vacations.emergency_pause_start(user=users["Clara"], hours=1)
    game.refresh_from_db()
    assert game.paused_at == pause.started_at
    # The hour is cut to two seconds: beat's activity sweep (every second here) ends it.
    EmergencyPause.objects.filter(pk=pause.pk).update(ends_at=timezone.now() + timedelta(seconds=2))
    life_worker.worker()
    life_worker.beat()

    def resumed():
        game.refresh_from_db()
        return game.paused_at is None

    wait_until(resumed, timeout=40, interval=0.2, message=lambda: life_worker.report())
    pause.refresh_from_db()
    assert pause.ended_at is not None
    old = night.deadline
    night.refresh_from_db()
    assert night.deadline > old and night.status == "open"
    assert LogEntry.objects.filter(game=game, kind="core.emergency_resumed").count() == 1
