"""Game options as non-masters read them: a module shows only the options it declares public, so no module ever
shows a deal or a role list to players, spectators or anonymous visitors; and master-only API actions refuse anyone
else (403) before looking at the body."""
from __future__ import annotations

import pytest
from django.test import Client

from gm.core import registry, services
from gm.core.engine import GameModule
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

#: options that name who gets which role: never public while the game runs.
SECRET = {"roles": [["mafia", None], ["sheriff", None]], "deal": ["werewolf", "seer", "villager"],
          "composition": ["mafia", "doctor"], "secret_future_option": 1}


@pytest.mark.parametrize("module", registry.all_modules(), ids=lambda m: m.slug)
def test_no_module_makes_a_deal_public(module):
    shown = module.public_options(SECRET)
    assert not set(shown) & set(SECRET), shown
    assert not any(v == SECRET[k] for k, v in shown.items() if k in SECRET)


def test_the_core_default_shows_only_declared_options():
    class Declared(GameModule):
        slug = "declared"
        public_option_keys = ("rounds",)

    assert GameModule().public_options({"rounds": 3, "deal": [1]}) == {}
    assert Declared().public_options({"rounds": 3, "deal": [1]}) == {"rounds": 3}


def test_anonymous_visitor_does_not_see_the_test_modules_role_deal(master, players):
    game = services.game_create(master=master, module="cardtest", title="Deal", rng_seed=1,
                                options={"roles": [["mafia", None], ["sheriff", None]]})
    services.game_open_signup(game=game, actor=master)
    for viewer in (None, players[0]):
        status, data = api(client_for(viewer), "get", f"/api/games/{game.pk}/")
        assert status == 200 and "roles" not in data["options"], data["options"]
        page = client_for(viewer).get(f"/games/{game.pk}/").content.decode()
        assert "mafia" not in page
    status, data = api(client_for(master), "get", f"/api/games/{game.pk}/")
    assert data["options"] == {"roles": [["mafia", None], ["sheriff", None]]}


@pytest.mark.parametrize("action", ["extend", "pause", "resume", "resolve-now", "open-signup", "start"])
@pytest.mark.parametrize("body", ["garbage", {"minutes": "x", "reason": ["no"], "phase": "z"}])
def test_master_only_actions_refuse_others_before_reading_the_body(running_game, players, action, body):
    client = client_for(players[0])
    url = f"/api/games/{running_game.pk}/{action}/"
    if body == "garbage":
        response = client.post(url, "{not json", content_type="application/json")
        status, data = response.status_code, response.json()
    else:
        status, data = api(client, "post", url, body)
    assert status == 403, data
    assert data["code"] == "forbidden"
    status, _data = api(Client(), "post", url, body if isinstance(body, dict) else {})
    assert status in (401, 403)


def test_fm_reject_refuses_a_non_master_before_the_body(master, players):
    game = services.game_create(master=master, module="forum_mafia", title="FM", rng_seed=1)
    services.game_open_signup(game=game, actor=master)
    status, data = api(client_for(players[0]), "post", f"/api/games/{game.pk}/signups/1/reject/", {"reason": []})
    assert status == 403 and data["code"] == "forbidden"
