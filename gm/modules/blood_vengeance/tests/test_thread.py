"""Blood Vengeance's game thread, phase by phase: open in the night's discussion, closed in the light time, only the
tied in a defence, closed all night under vampire secrets — in the engine, the thread services, the page (the reply
form hidden, the reason shown) and the API (a clear refusal) (BV-14.2, BV-14.8, BV-5.6, BV-15.10, BV-7.6, BV-15.12).
"""
from __future__ import annotations

import pytest

from gm.core import services as core
from gm.core.engine import PhaseInfo
from gm.core.models import Game, Post
from gm.core.services import ServiceError
from tests.helpers import api, client_for, open_phase_id

from .. import engine
from ..module import MODULE
from .engine_kit import Game as EngineGame

DEAL = ["count", "lamia", "monk", "hunter", "vampire", "vampire"]


def phase(kind: str, number: int = 1) -> PhaseInfo:
    return PhaseInfo(kind=kind, number=number, ordinal=1)


# -- the pure rule ------------------------------------------------------------------------------------------------


def test_BV_14_8_the_thread_is_open_at_night_and_closed_in_the_light_time():
    g = EngineGame(DEAL)
    for kind in ("night", "verdict", "arbiter"):
        assert engine.thread_closed(g.state, phase=phase(kind), sid="1") is None, kind
    assert engine.thread_closed(g.state, phase=phase("light"), sid="1") == "light"
    assert engine.thread_closed(g.state, phase=None, sid="1") is None  # between phases and after the end


def test_BV_5_6_only_the_tied_post_in_a_defence():
    g = EngineGame(DEAL)
    g.play({1: {"vote": 5}, 2: {"vote": 6}})  # one vote each: P5 and P6 tied, defence 1 opens
    assert g.kind == "defence" and sorted(g.state["tied"]) == ["5", "6"]
    assert engine.thread_closed(g.state, phase=phase("defence"), sid="5") is None
    assert engine.thread_closed(g.state, phase=phase("defence"), sid="6") is None
    assert engine.thread_closed(g.state, phase=phase("defence"), sid="1") == "defence"


def test_BV_15_10_vampire_secrets_close_the_thread_all_night():
    g = EngineGame(DEAL, vampire_secrets=True)
    assert engine.thread_closed(g.state, phase=phase("night"), sid="1") == "secrets"
    g.play({1: {"vote": 5}, 2: {"vote": 6}})
    assert g.kind == "defence"
    assert engine.thread_closed(g.state, phase=phase("defence"), sid="5") == "secrets"
    # the die of BV-15.11 choosing vampire secrets closes it too, another face does not
    rolled = {**g.state, "die": 5, "variant": "vampire_secrets", "options": {**g.state["options"],
                                                                             "vampire_secrets": False}}
    assert engine.thread_closed(rolled, phase=phase("night"), sid="1") == "secrets"
    assert engine.thread_closed({**rolled, "die": 6, "variant": "standard"}, phase=phase("night"), sid="1") is None


def test_BV_14_8_the_reasons_name_their_rules():
    from django.utils import translation

    with translation.override("en"):
        assert MODULE.thread_closed(state=EngineGame(DEAL).state, phase=phase("light"),
                                    seat=EngineGame(DEAL).seats[0]).endswith("(BV-14.8)")
    with translation.override("ru"):
        text = MODULE.thread_closed(state=EngineGame(DEAL, vampire_secrets=True).state, phase=phase("night"),
                                    seat=EngineGame(DEAL).seats[0])
        assert text.endswith("(BV-15.10)") and "Секреты вампиров" in text
    assert MODULE.thread_closed(state=EngineGame(DEAL).state, phase=phase("night"),
                                seat=EngineGame(DEAL).seats[0]) == ""


# -- the shell: services, page, API --------------------------------------------------------------------------------


@pytest.fixture
def six(make_user):
    return [make_user(f"bvt{i}") for i in range(6)]


def start(master, users, **options) -> Game:
    game = core.game_create(master=master, module="blood_vengeance", title="BV", rng_seed=3,
                            options={"deal": DEAL, **options})
    core.game_open_signup(game=game, actor=master)
    for i, user in enumerate(users):
        core.seat_join(game=game, user=user, display_name=f"P{i + 1}", accept=["code_of_honour"])  # BV-15.15
    core.game_start(game=game, actor=master)
    game.refresh_from_db()
    return game


def resolve(game):
    from gm.core.scenario import resolve_at_deadline

    resolve_at_deadline(game.phases.get(status="open"))
    game.refresh_from_db()


def page(user, game) -> str:
    return client_for(user).get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db
def test_BV_14_8_the_light_time_closes_the_thread_in_the_service_page_and_api(master, six):
    game = start(master, six)
    core.post_create(game=game, user=six[0], body="Night talk")  # night 1: the discussion is open
    assert 'id="post-form"' in page(six[0], game)
    resolve(game)  # nobody voted: light 1 opens
    assert game.phases.get(status="open").kind == "light"
    with pytest.raises(ServiceError) as exc:
        core.post_create(game=game, user=six[0], body="Day talk")
    assert exc.value.code == "forbidden" and "BV-14.8" in str(exc.value.errors)
    post = Post.objects.get(game=game, body="Night talk")
    with pytest.raises(ServiceError):  # an edit is a post too
        core.post_edit(post=post, user=six[0], body="Night talk, edited by day")
    html = page(six[0], game)
    assert 'id="post-form"' not in html and 'id="thread-closed"' in html and "BV-14.8" in html
    status, body = api(client_for(six[0]), "post", f"/api/games/{game.pk}/posts/", {"body": "Day talk"})
    assert status == 403 and "BV-14.8" in str(body)
    assert Post.objects.filter(game=game).count() == 1
    core.post_create(game=game, user=master, body="The master speaks by day")  # the master always posts
    assert 'id="post-form"' in page(master, game)
    assert 'id="thread-closed"' not in page(None, game)  # a spectator is told nothing of the players' rule


@pytest.mark.django_db
def test_BV_5_6_the_defence_lets_only_the_tied_post_in_the_shell(master, six):
    game = start(master, six)
    seats = list(game.seats.order_by("position"))
    for voter, target in ((0, 4), (1, 5)):
        core.order_submit(phase=game.phases.get(status="open"), user=six[voter], payload={"vote": seats[target].pk})
    resolve(game)
    assert game.phases.get(status="open").kind == "defence"
    core.post_create(game=game, user=six[4], body="I am no hunter")  # a tied player defends himself
    with pytest.raises(ServiceError) as exc:
        core.post_create(game=game, user=six[0], body="Me too")
    assert "BV-5.6" in str(exc.value.errors)
    assert 'id="post-form"' in page(six[4], game) and 'id="thread-closed"' in page(six[0], game)
    status, body = api(client_for(six[0]), "post", f"/api/games/{game.pk}/posts/", {"body": "Me too"})
    assert status == 403 and "BV-5.6" in str(body)


@pytest.mark.django_db
def test_BV_15_10_vampire_secrets_close_the_thread_in_the_shell(master, six):
    game = start(master, six, vampire_secrets=True)
    assert open_phase_id(game) is not None and game.phases.get(status="open").kind == "night"
    with pytest.raises(ServiceError) as exc:
        core.post_create(game=game, user=six[0], body="Let us talk")
    assert "BV-15.10" in str(exc.value.errors)
    html = page(six[0], game)
    assert 'id="post-form"' not in html and "BV-15.10" in html


@pytest.mark.django_db
def test_BV_7_6_and_15_12_the_dead_and_the_silenced_are_not_told_of_a_closed_thread(master, six):
    game = start(master, six, enchanted=True, silenced_seats=[4])
    html = page(six[4], game)
    assert 'id="post-form"' not in html and 'id="thread-closed"' not in html  # silenced: no form at any time
    with pytest.raises(ServiceError):
        core.post_create(game=game, user=six[4], body="hello")
