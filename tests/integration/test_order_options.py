"""``GET /api/games/<id>/order-options/`` is the core's, for every module, through ``GameModule.order_options``:
ONUW lists every legal order of the caller as a whole payload (each of them accepted by the orders API), in the
core's shape; nobody but a living seated player gets options; a game without the hook answers 404."""
from __future__ import annotations

import pytest

from gm.core import services
from gm.core.models import Game
from gm.core.scenario import resolve_at_deadline
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

KEYS = {"phase", "kind", "can_order", "why_not", "targets", "choices"}


@pytest.fixture
def onuw(master, players):
    """Seer, robber, troublemaker, drunk dealt in seat order; werewolf, villager, villager in the center."""
    game = services.game_create(master=master, module="onuw", title="Options", rng_seed=1, options={
        "deal": ["seer", "robber", "troublemaker", "drunk", "werewolf", "villager", "villager"]})
    services.game_open_signup(game=game, actor=master)
    for user in players:
        services.seat_join(game=game, user=user, display_name=user.username.upper())
    services.game_start(game=game, actor=master)
    return Game.objects.get(pk=game.pk)


def options_of(user, game):
    return api(client_for(user), "get", f"/api/games/{game.pk}/order-options/")


def test_onuw_offers_every_legal_night_choice_and_each_is_accepted(onuw, players):
    """ON-4.5–4.8: the seer 3 players or 3 center pairs, the robber and the troublemaker the others, the drunk the
    three center cards; every offered payload passes the orders API."""
    seer, robber, troublemaker, drunk = players
    expected = {seer: 3 + 3, robber: 3, troublemaker: 3, drunk: 3}
    for user, count in expected.items():
        status, body = options_of(user, onuw)
        assert status == 200, body
        assert set(body) == KEYS and body["kind"] == "night" and body["can_order"] and body["why_not"] == ""
        assert len(body["choices"]) == count, body["choices"]
        assert {t["name"] for t in body["targets"]} == {p.username.upper() for p in players if p != user}
        for choice in body["choices"]:
            assert choice["key"] and choice["label"]
            status, order = api(client_for(user), "post", f"/api/games/{onuw.pk}/orders/",
                                {"phase": body["phase"], "payload": choice["payload"]})
            assert status == 201, (choice, order)


def test_onuw_day_offers_a_vote_for_every_other_player(onuw, players):
    resolve_at_deadline(onuw.phases.get(status="open"))
    status, body = options_of(players[0], onuw)
    assert status == 200 and body["kind"] == "day"
    assert sorted(c["payload"]["vote"] for c in body["choices"]) == sorted(t["id"] for t in body["targets"])


def test_only_a_seated_player_gets_options(onuw, master, spectator):
    assert options_of(master, onuw)[0] == 403
    assert options_of(spectator, onuw)[0] == 403
    assert api(client_for(None), "get", f"/api/games/{onuw.pk}/order-options/")[0] in (401, 403)


def test_a_game_without_order_options_answers_404(master, players):
    game = services.game_create(master=master, module="pig", title="Pig", rng_seed=1)
    services.game_open_signup(game=game, actor=master)
    for user in players[:2]:
        services.seat_join(game=game, user=user, display_name=user.username)
    services.game_start(game=game, actor=master)
    status, body = options_of(players[0], game)
    assert status == 404 and body["errors"], body
