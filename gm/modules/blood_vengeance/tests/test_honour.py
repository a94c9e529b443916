"""The players' code of honour and its enforcement: the code asked at signup when the spell of silence is on — on the
page (the text and a required checkbox), in the service and the API (a clear refusal listing the texts) —, and the
spell carried into the next game of a series, a dead offender's included (BV-15.15, BV-15.12, BV-12.3).
"""
from __future__ import annotations

import pytest
from django.utils import translation

from gm.core import interventions
from gm.core import services as core
from gm.core.engine import SeatInfo
from gm.core.models import Game, LogEntry, Seat
from gm.core.services import ServiceError
from tests.helpers import api, client_for, open_phase_id

from .. import engine, services
from ..module import MODULE
from .engine_kit import Game as EngineGame

DEAL = ["count", "lamia", "monk", "hunter", "vampire", "vampire"]
HONOUR = "code_of_honour"


# -- BV-15.15: the code of honour at signup ------------------------------------------------------------------------


def test_BV_15_15_the_code_of_honour_is_asked_only_with_the_spell_of_silence():
    assert engine.asks_code_of_honour({"enchanted": True}) is True
    assert engine.asks_code_of_honour({"enchanted": False}) is False and MODULE.signup_consents({}) == []
    with translation.override("en"):
        (consent,) = MODULE.signup_consents({"enchanted": True})
        assert consent.key == HONOUR and consent.rule == "BV-15.15"
        assert consent.title == "The players' code of honour" and "The dead are silent!" in consent.text
        assert len(consent.text.split("\n\n")) == 8  # the seed's seven rules and the spell that enforces them
    with translation.override("ru"):
        (consent,) = MODULE.signup_consents({"enchanted": True})
        assert consent.title == "Кодекс чести игроков" and "Мёртвые молчат!" in consent.text


@pytest.fixture
def six(make_user):
    return [make_user(f"bvh{i}") for i in range(6)]


def signup_game(master, **options) -> Game:
    game = core.game_create(master=master, module="blood_vengeance", title="BV", rng_seed=3,
                            options={"deal": DEAL, **options})
    core.game_open_signup(game=game, actor=master)
    return game


@pytest.mark.django_db
def test_BV_15_15_the_signup_page_shows_the_code_and_refuses_without_it(master, six):
    game = signup_game(master, enchanted=True)
    client = client_for(six[0])
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="consent-code_of_honour"' in html and "The dead are silent!" in html
    assert 'name="accept_code_of_honour"' in html
    response = client.post(f"/games/{game.pk}/join/", {"display_name": "Anna"}, follow=True)
    assert not Seat.objects.filter(game=game).exists()
    assert "Accept it to sign up." in response.content.decode() and "BV-15.15" in response.content.decode()
    client.post(f"/games/{game.pk}/join/", {"display_name": "Anna", "accept_code_of_honour": "on"})
    assert Seat.objects.filter(game=game, user=six[0], display_name="Anna").exists()
    plain = signup_game(master)
    html = client_for(six[1]).get(f"/games/{plain.pk}/").content.decode()
    assert 'id="consent-code_of_honour"' not in html and 'name="accept_code_of_honour"' not in html
    client_for(six[1]).post(f"/games/{plain.pk}/join/", {"display_name": "Boris"})
    assert Seat.objects.filter(game=plain, user=six[1]).exists()


@pytest.mark.django_db
def test_BV_15_15_the_service_and_the_api_refuse_a_signup_without_the_code(master, six):
    game = signup_game(master, enchanted=True)
    with pytest.raises(ServiceError) as exc:
        core.seat_join(game=game, user=six[0], display_name="Anna")
    assert "BV-15.15" in exc.value.errors["accept"][0] and not Seat.objects.filter(game=game).exists()
    status, body = api(client_for(six[1]), "post", f"/api/games/{game.pk}/join/", {"display_name": "Boris"})
    assert status == 400, body
    assert "BV-15.15" in str(body) and body["consents"][0]["key"] == HONOUR
    assert "The dead are silent!" in body["consents"][0]["text"]
    status, body = api(client_for(six[1]), "post", f"/api/games/{game.pk}/join/",
                       {"display_name": "Boris", "accept": [HONOUR]})
    assert status == 201, body
    core.seat_join(game=game, user=six[0], display_name="Anna", accept=[HONOUR])
    assert Seat.objects.filter(game=game).count() == 2


# -- BV-15.12: the spell carried into the next game of a series ----------------------------------------------------


def test_BV_15_12_a_dead_offender_may_be_silenced_only_in_a_series():
    g = EngineGame(DEAL, enchanted=True)
    g.state["dead"] = ["5"]
    assert "5" not in engine.enchantable(g.state) and "4" in engine.enchantable(g.state)
    with pytest.raises(engine.BvError) as exc:
        engine.enchant(g.state, seat=SeatInfo(5, "P5", 4))
    assert exc.value.code == "dead"
    s = EngineGame(DEAL, enchanted=True, series="Autumn")
    s.state["dead"] = ["5"]
    assert "5" in engine.enchantable(s.state)
    state, events = engine.enchant(s.state, seat=SeatInfo(5, "P5", 4, alive=False))
    assert state["silenced"] == ["5"] and [e.kind for e in events] == ["bv.enchanted_next"]
    assert "5" not in engine.enchantable(state)  # once is enough


def test_BV_15_12_the_silenced_start_the_next_game_silenced_pure():
    g = EngineGame(DEAL)
    seats = g.seats
    state, events = engine.carry_silence(g.state, seats=seats, sids=["6", "2"])
    assert state["silenced"] == ["2", "6"]  # ring order
    assert [e.kind for e in events] == ["bv.silence_carried"] and events[0].visibility == "public"
    assert events[0].data["names"] == {"2": "P2", "6": "P6"}
    assert not engine.has_vote(state, "2") and engine.has_vote(state, "1")
    assert g.state["silenced"] == []  # the input state is not changed
    assert engine.carry_silence(g.state, seats=seats, sids=[]) == (g.state, [])


def start(master, users, names=None, **options) -> Game:
    game = signup_game(master, **options)
    for i, user in enumerate(users):
        core.seat_join(game=game, user=user, display_name=(names or [f"P{j + 1}" for j in range(6)])[i],
                       accept=[HONOUR])
    core.game_start(game=game, actor=master)
    game.refresh_from_db()
    return game


def seat_of(game, user) -> Seat:
    return game.seats.get(user=user)


@pytest.mark.django_db
def test_BV_15_12_a_player_silenced_at_the_end_of_a_series_game_starts_the_next_one_silenced(master, six):
    first = start(master, six, enchanted=True, series="Autumn")
    services.enchant(game=first, actor=master, seat_id=seat_of(first, six[4]).pk, reason="spoke by day")
    interventions.seat_set_alive(game=first, actor=master, seat_id=seat_of(first, six[5]).pk, alive=False,
                                 reason="left")
    first.refresh_from_db()
    html = client_for(master).get(f"/games/{first.pk}/").content.decode()
    assert f'<option value="{seat_of(first, six[5]).pk}">' in html  # a dead player can be silenced in a series
    services.enchant(game=first, actor=master, seat_id=seat_of(first, six[5]).pk, reason="a dead man's sigh")
    assert LogEntry.objects.filter(game=first, kind="bv.enchanted_next", visibility="public").exists()
    services.declare_hunters_win(game=first, actor=master, reason="obvious")
    html = client_for(six[0]).get(f"/games/{first.pk}/").content.decode()
    assert 'id="bv-series-silenced"' in html and "P5, P6" in html

    # the next game of the series: other names, another order; the offenders are silenced from the start
    order = [six[5], six[0], six[4], six[1], six[2], six[3]]
    second = start(master, order, names=["A", "B", "C", "D", "E", "F"], enchanted=True, series="Autumn")
    carried = sorted([str(seat_of(second, six[5]).pk), str(seat_of(second, six[4]).pk)])
    assert sorted(second.state["silenced"]) == carried
    assert seat_of(second, six[4]).data.get("silenced") is True and not seat_of(second, six[0]).data.get("silenced")
    line = LogEntry.objects.get(game=second, kind="bv.silence_carried")
    assert line.visibility == "public" and sorted(line.data["seats"]) == carried
    with translation.override("en"):
        assert "A, C start this game under the spell of silence" in line.text()
    with pytest.raises(ServiceError):
        core.post_create(game=second, user=six[4], body="I am back")
    status, body = api(client_for(six[4]), "post", f"/api/games/{second.pk}/orders/",
                       {"phase": open_phase_id(second), "payload": {"vote": seat_of(second, six[0]).pk}})
    assert status == 400 and "no_vote" in str(body)
    core.post_create(game=second, user=six[0], body="Hello")  # the others speak as usual

    # another series, or none, carries nothing
    other = start(master, six, enchanted=True, series="Winter")
    plain = start(master, six)
    assert other.state["silenced"] == [] and plain.state["silenced"] == []
    assert not LogEntry.objects.filter(game__in=[other, plain], kind="bv.silence_carried").exists()


@pytest.mark.django_db
def test_BV_15_12_the_silence_is_carried_only_from_the_last_game_of_the_series(master, six):
    first = start(master, six, enchanted=True, series="Spring")
    services.enchant(game=first, actor=master, seat_id=seat_of(first, six[2]).pk, reason="threats")
    services.declare_hunters_win(game=first, actor=master, reason="obvious")
    second = start(master, six, series="Spring")  # the variant off: the carried silence still holds
    assert second.state["silenced"] == [str(seat_of(second, six[2]).pk)]
    services.declare_hunters_win(game=second, actor=master, reason="obvious")
    third = start(master, six, series="Spring")  # still silenced at the second game's end: silenced again
    assert third.state["silenced"] == [str(seat_of(third, six[2]).pk)]
    Game.objects.filter(pk=third.pk).update(state={**third.state, "silenced": []})  # say the master forgave him
    third.refresh_from_db()
    services.declare_hunters_win(game=third, actor=master, reason="obvious")
    fourth = start(master, six, series="Spring")
    assert fourth.state["silenced"] == []  # only the series' last game counts, not the first
