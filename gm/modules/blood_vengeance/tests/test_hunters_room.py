"""The hunters' room: the hunters' private chat for their gathering, open only in the light time, read only by the
hunters' group, the master and — after the game — everyone (BV-4.1, BV-14.2, BV-6.3, BV-7.6, BV-15.2, BV-15.12)."""
from __future__ import annotations

import pytest

from gm.core import interventions
from gm.core.engine import PhaseInfo
from gm.core.services import ServiceError
from tests.helpers import client_for

from .. import engine, services
from ..models import HuntersPost
from .engine_kit import Game as EngineGame
from .test_thread import DEAL, page, resolve, start  # the same 6-player table

# DEAL (test_thread's table): P3 and P4 are the hunters


def test_BV_14_2_the_hunters_room_is_open_only_in_the_light_time():
    g = EngineGame(DEAL)
    light, night = PhaseInfo("light", 1, 2), PhaseInfo("night", 1, 1)
    assert engine.hunters_room_closed(g.state, phase=light, sid="3") is None
    assert engine.hunters_room_closed(g.state, phase=night, sid="3") == "room_night"
    assert engine.hunters_room_closed(g.state, phase=None, sid="3") == "room_night"
    assert engine.hunters_room_closed({**g.state, "dead": ["3"]}, phase=light, sid="3") == "dead"  # BV-7.6
    assert engine.hunters_room_closed({**g.state, "silenced": ["3"]}, phase=light, sid="3") == "silenced"


@pytest.fixture
def six(make_user):
    return [make_user(f"bvr{i}") for i in range(6)]


@pytest.mark.django_db
def test_BV_14_2_the_hunters_talk_in_their_room_by_day_and_nobody_else_reads_it(master, six):
    game = start(master, six)
    with pytest.raises(ServiceError) as exc:  # night 1: the room is closed
        services.hunters_post(game=game, user=six[2], body="Who is the lord?")
    assert exc.value.code == "state" and "BV-14.2" in str(exc.value.errors)
    html = page(six[2], game)
    assert 'id="bv-hunters"' in html and 'id="bv-hunters-form"' not in html and 'id="bv-hunters-closed"' in html
    resolve(game)  # light 1
    response = client_for(six[2]).post(f"/games/{game.pk}/bv/hunters-room/", {"body": "Let us take P1"})
    assert response.status_code == 302
    services.hunters_post(game=game, user=six[3], body="Agreed")
    assert list(HuntersPost.objects.filter(game=game).values_list("body", flat=True)) == ["Let us take P1", "Agreed"]
    hunter = page(six[3], game)
    assert 'id="bv-hunters-form"' in hunter and "Let us take P1" in hunter and "P3, P4" in hunter
    for outsider in (six[0], six[4], None):  # a vampire, another vampire, a spectator: not even the room
        html = page(outsider, game)
        assert 'id="bv-hunters"' not in html and "Let us take P1" not in html
    assert "Let us take P1" in page(master, game) and 'id="bv-hunters-form"' not in page(master, game)
    with pytest.raises(ServiceError) as exc:
        services.hunters_post(game=game, user=six[0], body="I am a hunter too")
    assert exc.value.code == "forbidden"
    with pytest.raises(ServiceError):
        services.hunters_post(game=game, user=six[2], body="   ")
    interventions.seat_set_alive(game=game, actor=master, seat_id=game.seats.get(user=six[3]).pk, alive=False,
                                 reason="left")
    with pytest.raises(ServiceError) as exc:  # BV-7.6: the dead hunter reads but is silent
        services.hunters_post(game=game, user=six[3], body="From beyond")
    assert "BV-7.6" in str(exc.value.errors) and "Agreed" in page(six[3], game)
    services.declare_hunters_win(game=game, actor=master, reason="obvious")
    assert "Let us take P1" in page(six[0], game)  # the end reveals everything (BV-14.9)
    assert HuntersPost.objects.filter(game=game).count() == 2


@pytest.mark.django_db
def test_BV_15_2_lone_hunters_have_no_room(master, six):
    game = start(master, six, lone_hunters=True)
    resolve(game)
    assert 'id="bv-hunters"' not in page(six[2], game)
    with pytest.raises(ServiceError) as exc:
        services.hunters_post(game=game, user=six[2], body="Anyone?")
    assert exc.value.code == "forbidden"
