"""Accessibility of the ONUW game page: every control of every order form — the doppelganger's copy (ON-4.1), each
waking role's night choice (lone werewolf ON-4.2, seer ON-4.5, robber ON-4.6, troublemaker ON-4.7, drunk ON-4.8)
and the day vote (ON-6) — has a label, each form's choices are a group named by its question (a fieldset with a
legend), and ids are unique, for every viewer kind."""
from __future__ import annotations

import re

import pytest

from gm.modules.onuw.tests.test_shell import NAMES, open_phase, post_order, resolve, seat, start
from tests.helpers import client_for
from tests.integration.html_check import PageReader

pytestmark = pytest.mark.django_db

#: Alice seer, Boris the lone werewolf, Clara robber, Dima troublemaker; the drunk waits in the center…
NIGHT_DEAL = ["seer", "werewolf", "robber", "troublemaker", "villager", "werewolf", "drunk"]
#: …and here Dima is the drunk and Alice the doppelganger (her copy step first).
DRUNK_DEAL = ["doppelganger", "werewolf", "villager", "drunk", "werewolf", "seer", "villager"]


def _page(user, game) -> tuple[str, PageReader]:
    response = client_for(user).get(game.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    return html, PageReader(html)


def _check(game, users: dict, fields: dict[str, str]) -> None:
    """Every viewer's page is labelled with unique ids; each player in ``fields`` has his order form, with the
    choice ``field`` inside a fieldset whose legend asks the question."""
    for kind, user in users.items():
        html, page = _page(user, game)
        assert page.unlabelled() == [], kind
        if kind != "master":  # the master's console repeats its reason form (the core's part)
            assert page.duplicate_ids() == [], kind
        if kind in fields:
            form = next(f for f in page.forms if "/onuw/order/" in f.attrs.get("action", ""))
            names = {c.attrs.get("name") for c in form.controls if c.type in ("radio", "checkbox")}
            assert names == {fields[kind]}, kind
            group = re.search(r'<fieldset>\s*<legend>([^<]+)</legend>(.*?)</fieldset>',
                              html[html.index('class="onuw-order"'):], re.S)
            assert group and f'name="{fields[kind]}"' in group.group(2), kind


def test_ON_4_every_night_form_and_the_vote_form_are_labelled(master, players, spectator):
    game = start(master, players, deal=NIGHT_DEAL)
    everyone = {"master": master, "spectator": spectator, "anonymous": None,
                **{name: players[i] for i, name in enumerate(NAMES)}}
    _check(game, everyone, {"Alice": "look", "Boris": "look", "Clara": "swap_with", "Dima": "swap"})
    post_order(players[0], game, {"look": "center1+center2"})  # an order given: the withdraw form is labelled too
    _check(game, {"Alice": players[0]}, {"Alice": "look"})
    resolve(game)
    assert open_phase(game).kind == "day"
    post_order(players[1], game, {"vote": seat(game, "Alice").pk})
    _check(game, everyone, {name: "vote" for name in NAMES})


def test_ON_4_1_doppelganger_and_drunk_forms_are_labelled(master, players, spectator):
    game = start(master, players, deal=DRUNK_DEAL)
    users = {"master": master, "spectator": spectator, "Alice": players[0], "Dima": players[3]}
    _check(game, users, {"Alice": "copy"})
    post_order(players[0], game, {"copy": seat(game, "Boris").pk})  # she becomes a werewolf: no night choice
    resolve(game)
    _check(game, users, {"Dima": "take"})
