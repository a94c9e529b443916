"""Early ends (issue 23, item 5; ``gm.core.services.early_ends``): forum Mafia's hammer (FM-7.H1 [house]) and the
"done" button (``all_ready``), both off by default, set on the master's console; through pages and the API, for
forum Mafia and ONUW. The phase then resolves once through the sweep."""
from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gm.core import services
from gm.core.models import AuditEntry, GameLife, LogEntry, Phase, ReadyMark, life_of
from gm.core.services import ServiceError, early_ends
from tests.helpers import api, client_for, game_page, page_part

pytestmark = pytest.mark.django_db


def open_phase(game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def fm_day(master, make_user, frozen, *, hammer=True):
    from tests.integration.fm_table import build, ids, play_night

    game, users = build(master, make_user)
    if hammer:
        response = client_for(master).post(reverse("gm:early_ends_set", args=[game.pk]),
                                           {"hammer": "on", "reason": "fast days"}, follow=True)
        assert "The early-end options were saved." in response.content.decode()
    play_night(game, users, frozen)  # Boris dies: six alive, each of strength 1
    day = open_phase(game)
    assert day.kind == "day"
    return game, users, ids(game), day


def vote(client, game, day, target):
    return api(client, "post", f"/api/games/{game.pk}/fm/veche/vote/",
               {"phase": day.pk, "for": target, "punishment": "execution"})


def test_FM_7_H1_hammer_ends_the_day_at_more_than_half_the_living_strength(frozen, master, make_user):
    game, users, seat, day = fm_day(master, make_user, frozen)
    deadline = day.deadline
    for voter in ("Alice", "Harry", "Jo"):  # 3 of 6: half, no majority
        status, _ = vote(client_for(users[voter]), game, day, seat["Eva"])
        assert status == 200
    day.refresh_from_db()
    assert day.deadline == deadline and not LogEntry.objects.filter(kind="core.hammer").exists()
    frozen.shift(60)
    status, _ = vote(client_for(users["Clara"]), game, day, seat["Eva"])  # 4 of 6: the hammer
    assert status == 200
    day.refresh_from_db()
    assert day.deadline == timezone.now() and day.status == Phase.Status.OPEN
    line = LogEntry.objects.get(kind="core.hammer", visibility="public")
    assert (line.data["player"], line.data["voter"]) == ("Eva", "Clara")
    # Later votes are refused as late; nothing is stored.
    status, body = vote(client_for(users["Eva"]), game, day, seat["Alice"])
    assert status == 409 and body["code"] == "late"
    # The next sweep resolves the day, once; the results say who hammered whom and the index links it.
    assert services.phases_sweep().resolved == [day.pk]
    assert services.phases_sweep().resolved == []
    page = html.unescape(game_page(game, users["Jo"]))
    assert "Clara's vote gave Eva more than half of the living votes: the day ends now (hammer)." in page
    index = client_for(users["Jo"]).get(reverse("gm:phase_index", args=[game.pk])).content.decode()
    assert f'href="{game.get_absolute_url()}#log-{line.pk}">hammer</a>' in page_part(index, "phase-index")
    assert not game.seats.get(display_name="Eva").alive  # executed by FM-7.4/7.5 as any day


def test_FM_7_H1_peace_never_hammers(frozen, master, make_user):
    game, users, seat, day = fm_day(master, make_user, frozen)
    for voter in ("Alice", "Harry", "Jo", "Clara", "Eva"):
        status, _ = api(client_for(users[voter]), "post", f"/api/games/{game.pk}/fm/veche/vote/",
                        {"phase": day.pk, "for": "peace"})
        assert status == 200
    assert not LogEntry.objects.filter(kind="core.hammer").exists()


def test_FM_7_H1_hammer_is_off_by_default(frozen, master, make_user):
    game, users, seat, day = fm_day(master, make_user, frozen, hammer=False)
    assert life_of(game).hammer is False
    for voter in ("Alice", "Harry", "Jo", "Clara", "Dmitri"):
        vote(client_for(users[voter]), game, day, seat["Eva"])
    day.refresh_from_db()
    assert day.deadline > timezone.now() and not LogEntry.objects.filter(kind="core.hammer").exists()


def _onuw(master, make_user, **options):
    names = ["Alice", "Boris", "Clara", "Dmitri"]
    users = {n: make_user(n.lower()) for n in names}
    game = services.game_create(master=master, module="onuw", title="ONUW", rng_seed=9, options={
        "deal": ["seer", "werewolf", "robber", "troublemaker", "villager", "villager", "drunk"]})
    services.game_open_signup(game=game, actor=master)
    for n in names:
        services.seat_join(game=game, user=users[n], display_name=n)
    return game, users


def test_onuw_has_no_hammer_and_all_ready_is_set_on_the_console(master, make_user):
    game, users = _onuw(master, make_user)
    with pytest.raises(ServiceError) as err:
        early_ends.early_end_options_set(game=game, actor=master, hammer=True, all_ready=False, reason="x")
    assert "hammer" in err.value.errors and not GameLife.objects.filter(game=game).exists()
    with pytest.raises(ServiceError) as err:
        early_ends.early_end_options_set(game=game, actor=users["Alice"], hammer=False, all_ready=True, reason="x")
    assert err.value.code == "forbidden"
    response = client_for(master).post(reverse("gm:early_ends_set", args=[game.pk]),
                                       {"all_ready": "on", "reason": "quick nights"}, follow=True)
    assert "The early-end options were saved." in response.content.decode()
    assert life_of(type(game).objects.get(pk=game.pk)).all_ready is True
    assert AuditEntry.objects.get(action="early_ends").data == {"hammer": False, "all_ready": True}


def test_onuw_all_ready_ends_the_night_once_everyone_pressed_done(frozen, master, make_user):
    game, users = _onuw(master, make_user)
    early_ends.early_end_options_set(game=game, actor=master, hammer=False, all_ready=True, reason="quick")
    services.game_start(game=game, actor=master)
    night = open_phase(game)
    deadline = night.deadline
    page = page_part(game_page(game, users["Alice"]), "ready")
    assert "0 of 4 players who act in this phase are done" in page and ">Done</button>" in page
    url = reverse("gm:ready", args=[game.pk])
    for name in ("Alice", "Boris", "Clara"):
        response = client_for(users[name]).post(url, {"phase": night.pk, "done": "1"}, follow=True)
        assert "You are done with this phase." in response.content.decode()
    # The last one presses through the API: everyone is done, the night ends now.
    status, body = api(client_for(users["Dmitri"]), "post", f"/api/games/{game.pk}/ready/", {"phase": night.pk})
    assert status == 200 and body == {"closed": True, "pressed": 4, "waited": 4}
    night.refresh_from_db()
    assert night.deadline == timezone.now() < deadline
    assert LogEntry.objects.filter(kind="core.all_ready", phase=night, visibility="public").count() == 1
    assert services.phases_sweep().resolved == [night.pk]
    day = open_phase(game)
    # A "done" for the ended night is stale; for the day it counts afresh.
    status, body = api(client_for(users["Alice"]), "post", f"/api/games/{game.pk}/ready/", {"phase": night.pk})
    assert status == 409 and body["code"] == "stale"
    status, body = api(client_for(users["Alice"]), "post", f"/api/games/{game.pk}/ready/", {"phase": day.pk})
    assert body == {"closed": False, "pressed": 1, "waited": 4}
    status, body = api(client_for(users["Alice"]), "post", f"/api/games/{game.pk}/ready/",
                       {"phase": day.pk, "done": False})
    assert body == {"closed": False, "pressed": 0, "waited": 4}


def test_all_ready_refusals_change_nothing(frozen, master, make_user, spectator):
    game, users = _onuw(master, make_user)
    services.game_start(game=game, actor=master)
    night = open_phase(game)
    status, body = api(client_for(users["Alice"]), "post", f"/api/games/{game.pk}/ready/", {"phase": night.pk})
    assert status == 403 and body["code"] == "not_allowed"  # the option is off
    assert 'id="ready"' not in game_page(game, users["Alice"])
    early_ends.early_end_options_set(game=game, actor=master, hammer=False, all_ready=True, reason="quick")
    status, body = api(client_for(spectator), "post", f"/api/games/{game.pk}/ready/", {"phase": night.pk})
    assert status == 403
    frozen.move_to(night.deadline + timedelta(seconds=1))
    status, body = api(client_for(users["Alice"]), "post", f"/api/games/{game.pk}/ready/", {"phase": night.pk})
    assert status == 409 and body["code"] == "late"
    status, body = api(client_for(users["Alice"]), "post", f"/api/games/{game.pk}/ready/", {"phase": "x"})
    assert status == 400
    assert not ReadyMark.objects.exists()


def test_fm_all_ready_skips_the_dead(frozen, master, make_user):
    game, users, seat, day = fm_day(master, make_user, frozen, hammer=False)
    early_ends.early_end_options_set(game=game, actor=master, hammer=False, all_ready=True, reason="quick")
    status, body = api(client_for(users["Boris"]), "post", f"/api/games/{game.pk}/ready/", {"phase": day.pk})
    assert status == 403 and body["code"] == "not_allowed"  # dead
    for name in ("Alice", "Harry", "Jo", "Eva", "Dmitri"):
        status, body = api(client_for(users[name]), "post", f"/api/games/{game.pk}/ready/", {"phase": day.pk})
        assert body["closed"] is False
    status, body = api(client_for(users["Clara"]), "post", f"/api/games/{game.pk}/ready/", {"phase": day.pk})
    assert body == {"closed": True, "pressed": 6, "waited": 6}
