"""BV-15.14 ``temporary_master`` in the shell: the first executed player becomes a read-only co-master of the game
(the core's co-masters, issue 24) — he sees everything the master sees, every write of his is refused, and the
players know it (the rules announce it)."""
from __future__ import annotations

import pytest

from gm.core import visibility
from gm.core.models import CoMaster
from tests.helpers import api, client_for, game_page, open_phase_id

from .test_shell import resolve, start

pytestmark = pytest.mark.django_db

SEVEN = ["count", "lamia", "monk", "hunter", "vampire", "vampire", "vampire"]


def test_BV_15_14_first_executed_becomes_a_read_only_co_master(master, make_user):
    users = [make_user(f"tm{i}") for i in range(7)]
    game = start(master, users, temporary_master=True, deal=SEVEN)
    for _ in range(4):  # night 1 without a vote: one living player is drawn and executed (BV-15.14)
        if CoMaster.objects.filter(game=game).exists():
            break
        resolve(game)
    row = CoMaster.objects.get(game=game)
    assert row.read_only and row.public and row.source == "module"
    executed = game.seats.get(user=row.user)
    assert not executed.alive and [str(executed.pk)] == game.state["co_masters"]
    viewer = visibility.viewer_for(row.user, game)
    assert viewer.is_master and viewer.read_only and viewer.sees_everything and not viewer.may_act
    # he reads every seat's secrets (the console, the API's seats) …
    page = game_page(game, row.user)
    assert 'id="console"' in page and "read-only co-master" in page
    status, seats = api(client_for(row.user), "get", f"/api/games/{game.pk}/seats/")
    assert status == 200 and all("private" in s for s in seats)
    # … and changes nothing: every POST is refused
    client = client_for(row.user)
    client.raise_request_exception = False
    phase = open_phase_id(game)
    for url in (f"/games/{game.pk}/posts/", f"/games/{game.pk}/console/pause/", f"/games/{game.pk}/order/"):
        assert client.post(url, {"body": "I was the hunter!", "reason": "x", "phase": phase}).status_code == 403
    status, _body = api(client, "post", f"/api/games/{game.pk}/orders/", {"phase": phase, "payload": {}})
    assert status == 403
    # a living player does not read the secrets, but knows who the assistant is (public)
    alive = game.seats.filter(alive=True).first()
    assert not visibility.viewer_for(alive.user, game).is_master
    status, listed = api(client_for(alive.user), "get", f"/api/games/{game.pk}/comasters/")
    assert [c["username"] for c in listed] == [row.user.username]
