"""The REST API end to end: token and session auth, the game lifecycle, orders, the thread, master actions,
the error shape (``{"errors": {field: [...]}, "code": slug}``), the OpenAPI schema and 404s."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from gm.core import services
from gm.core.models import AuditEntry, Game, Order, Phase, Post
from tests.helpers import api, client_for, open_phase_id

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def assert_error(data, code: str, field: str = "__all__"):
    assert set(data) == {"errors", "code"}, data
    assert data["code"] == code, data
    assert field in data["errors"] and all(isinstance(m, str) and m for m in data["errors"][field]), data


def token_for(username: str) -> str:
    status, data = api(Client(), "post", "/api/auth/token/", {"username": username, "password": f"pw-{username}-123"})
    assert status == 200, data
    return data["token"]


# -- authentication -------------------------------------------------------------------------------------


def test_token_auth(running_game, players):
    token = token_for("p1")
    client = Client(enforce_csrf_checks=True)  # token requests need no CSRF token
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    status, seats = api(client, "get", f"/api/games/{running_game.pk}/seats/", **auth)
    assert status == 200
    assert [s["display_name"] for s in seats if "private" in s] == ["Seat1"]  # authenticated as p1
    status, order = api(client, "post", f"/api/games/{running_game.pk}/orders/",
                        {"phase": open_phase_id(running_game), "payload": {"number": 4}}, **auth)
    assert status == 201 and order["payload"] == {"number": 4} and order["seat"] == "Seat1"
    assert Order.objects.get().submitted_by == players[1]
    # a wrong token is refused, not treated as anonymous
    status, data = api(client, "get", f"/api/games/{running_game.pk}/seats/", HTTP_AUTHORIZATION="Token nope")
    assert status in (401, 403) and data["code"] == "authentication_failed"
    # wrong password: no token
    status, data = api(Client(), "post", "/api/auth/token/", {"username": "p1", "password": "wrong"})
    assert status == 400 and data["code"] == "invalid" and "__all__" in data["errors"]


def test_session_auth_needs_csrf_for_writes(running_game, players):
    client = Client(enforce_csrf_checks=True)
    client.force_login(players[1])
    url = f"/api/games/{running_game.pk}/orders/"
    status, data = api(client, "get", url)
    assert status == 200  # reads need no CSRF token
    body = {"phase": open_phase_id(running_game), "payload": {"number": 2}}
    status, data = api(client, "post", url, body)
    assert status == 403 and "CSRF" in data["errors"]["__all__"][0]
    assert not Order.objects.exists()
    client.get(running_game.get_absolute_url())  # sets the CSRF cookie
    csrf = client.cookies["csrftoken"].value
    status, data = api(client, "post", url, body, HTTP_X_CSRFTOKEN=csrf)
    assert status == 201 and data["version"] == 1


def test_anonymous_may_read_but_not_write(running_game):
    client = Client()
    assert api(client, "get", "/api/games/")[0] == 200
    status, data = api(client, "post", f"/api/games/{running_game.pk}/orders/", {"payload": {"number": 1}})
    assert status == 403
    assert_error(data, "not_authenticated")
    status, data = api(client, "post", "/api/games/", {"module": "tally", "title": "x"})
    assert status == 403 and not Game.objects.exclude(pk=running_game.pk).exists()


# -- the game lifecycle ---------------------------------------------------------------------------------


def test_create_requires_host_permission(make_user, master):
    plain = logged_in(make_user("plain"))
    status, data = api(plain, "post", "/api/games/", {"module": "tally", "title": "Mine"})
    assert status == 403
    assert_error(data, "forbidden")
    assert not Game.objects.exists()
    status, data = api(logged_in(master), "post", "/api/games/",
                       {"module": "tally", "title": "Mine", "options": {"rounds": 2}, "durations": {"round": 600},
                        "rng_seed": 7})
    assert status == 201, data
    assert (data["status"], data["master"], data["options"], data["durations"]) == (
        "draft", "master", {"rounds": 2}, {"round": 600.0})
    assert Game.objects.get(pk=data["id"]).rng_seed == 7


def test_lifecycle_signup_join_start_orders_posts(master, players, spectator):
    boss = logged_in(master)
    status, game = api(boss, "post", "/api/games/", {"module": "tally", "title": "Lifecycle"})
    assert status == 201
    base = f"/api/games/{game['id']}"
    p = [logged_in(u) for u in players]
    # joining a draft: it doesn't exist for players yet
    assert api(p[0], "post", f"{base}/join/", {"display_name": "Anna"})[0] == 404
    assert api(p[0], "post", f"{base}/open-signup/")[0] == 404
    status, data = api(boss, "post", f"{base}/open-signup/")
    assert status == 200 and data["status"] == "signup"
    for i, client in enumerate(p):
        status, seat = api(client, "post", f"{base}/join/", {"display_name": f"Hero{i}"})
        assert status == 201 and seat["display_name"] == f"Hero{i}" and seat["position"] == i
    status, data = api(p[0], "post", f"{base}/join/", {"display_name": "Again"})
    assert status == 409 and data["code"] == "duplicate"
    status, data = api(p[1], "post", f"{base}/start/")
    assert status == 403 and data["code"] == "forbidden"
    status, phase = api(boss, "post", f"{base}/start/")
    assert status == 200 and (phase["ordinal"], phase["kind"], phase["status"]) == (1, "round", "open")
    assert Game.objects.get(pk=game["id"]).status == "running"
    status, data = api(logged_in(spectator), "post", f"{base}/join/", {"display_name": "Late"})
    assert status == 409 and data["code"] == "state"

    # orders: versions, own history, withdrawal
    round1 = phase["id"]
    for number in (3, 5):
        status, order = api(p[2], "post", f"{base}/orders/", {"phase": round1, "payload": {"number": number}})
        assert status == 201 and order["payload"] == {"number": number}
    assert order["version"] == 2
    status, mine = api(p[2], "get", f"{base}/orders/")
    assert [o["version"] for o in mine["results"]] == [1, 2]
    assert api(p[3], "get", f"{base}/orders/")[1]["results"] == []
    status, order = api(p[2], "post", f"{base}/orders/withdraw/", {"phase": round1})
    assert status == 201 and order["version"] == 3 and order["payload"] is None
    status, data = api(p[2], "post", f"{base}/orders/withdraw/", {"phase": round1})
    assert status == 404 and data["code"] == "not_found"
    status, data = api(logged_in(spectator), "post", f"{base}/orders/", {"phase": round1, "payload": {"number": 1}})
    assert status == 403 and data["code"] == "forbidden"
    status, data = api(boss, "post", f"{base}/orders/", {"phase": round1, "payload": {"number": 1}})
    assert status == 403 and data["code"] == "forbidden"

    # the thread
    status, post = api(p[1], "post", f"{base}/posts/", {"body": "Hello, village"})
    assert status == 201 and post["author"] == "Hero1" and post["body"] == "Hello, village"
    status, data = api(logged_in(spectator), "post", f"{base}/posts/", {"body": "Hi"})
    assert status == 403 and data["code"] == "forbidden"
    assert [x["body"] for x in api(Client(), "get", f"{base}/posts/")[1]["results"]] == ["Hello, village"]
    assert Post.objects.count() == 1


def test_master_actions_and_players_are_refused(running_game, master, players):
    base = f"/api/games/{running_game.pk}"
    boss, player = logged_in(master), logged_in(players[0])
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    for action, body in (("extend", {"minutes": 10, "reason": "x"}), ("pause", {"reason": "x"}),
                         ("resume", {"reason": "x"}), ("resolve-now", {"reason": "x"})):
        status, data = api(player, "post", f"{base}/{action}/", body)
        assert status == 403, action
        assert_error(data, "forbidden")
    assert not AuditEntry.objects.exists()

    status, data = api(boss, "post", f"{base}/extend/", {"minutes": 30, "reason": "slow"})
    assert status == 200
    assert parse_datetime(data["deadline"]) == phase.deadline + timedelta(minutes=30)
    status, data = api(boss, "post", f"{base}/pause/", {"reason": "holiday"})
    assert status == 200 and data["paused_at"] is not None
    status, data = api(boss, "post", f"{base}/pause/", {"reason": "again"})
    assert status == 409 and data["code"] == "state"
    status, data = api(boss, "post", f"{base}/resolve-now/", {"reason": "now"})
    assert status == 409 and data["code"] == "state"  # resume first
    status, data = api(boss, "post", f"{base}/resume/", {})
    assert status == 400 and "reason" in data["errors"]  # the master's console: every intervention says why
    status, data = api(boss, "post", f"{base}/resume/", {"reason": "back"})
    assert status == 200 and data["paused_at"] is None
    status, data = api(boss, "post", f"{base}/resolve-now/", {"reason": "all in"})
    assert status == 200 and data["status"] == "resolved" and data["ordinal"] == 1
    assert running_game.phases.get(status=Phase.Status.OPEN).ordinal == 2
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == [
        "extend", "pause", "resume", "resolve_now"]
    status, audit = api(boss, "get", f"{base}/audit/")
    assert [a["reason"] for a in audit["results"]][-2:] == ["holiday", "slow"]


def test_late_order_is_409(frozen, running_game, players):
    client = logged_in(players[0])
    url = f"/api/games/{running_game.pk}/orders/"
    phase = open_phase_id(running_game)
    assert api(client, "post", url, {"phase": phase, "payload": {"number": 2}})[0] == 201
    frozen.shift(3600)
    status, data = api(client, "post", url, {"phase": phase, "payload": {"number": 3}})
    assert status == 409
    assert_error(data, "late")
    status, data = api(client, "post", f"{url}withdraw/", {"phase": phase})
    assert status == 409 and data["code"] == "late"
    assert Order.objects.count() == 1


def test_dead_player_may_not_order(frozen, running_game, players):
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    services.order_submit(phase=phase, user=players[0], payload={"number": 0})
    frozen.shift(3600)
    services.phases_sweep()
    status, data = api(logged_in(players[0]), "post", f"/api/games/{running_game.pk}/orders/",
                       {"phase": open_phase_id(running_game), "payload": {"number": 1}})
    assert status == 403 and data["code"] == "not_allowed"


def test_game_list_is_paginated_and_detail_works(running_game):
    status, data = api(Client(), "get", "/api/games/")
    assert status == 200 and data["count"] == 1 and data["results"][0]["id"] == running_game.pk
    status, data = api(Client(), "get", f"/api/games/{running_game.pk}/")
    assert status == 200 and data["title"] == running_game.title and data["module"] == "tally"
    status, data = api(Client(), "get", f"/api/games/{running_game.pk}/phases/")
    assert status == 200 and data["results"][0]["deadline"]
    assert parse_datetime(data["results"][0]["deadline"]) > timezone.now()


# -- schema, docs, errors -------------------------------------------------------------------------------


def test_openapi_schema_and_docs():
    response = Client().get("/api/schema/")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith("openapi:") and "/api/games/" in body and "/api/games/{id}/orders/" in body
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200 and "/api/games/" in json.loads(response.content)["paths"]
    assert Client().get("/api/docs/").status_code == 200


@pytest.mark.parametrize(
    "method, url",
    [
        ("get", "/api/games/999999/"),
        ("get", "/api/games/abc/"),
        ("get", "/api/games/999999/seats/"),
        ("get", "/api/games/999999/log/"),
        ("post", "/api/games/999999/orders/"),
        ("post", "/api/games/999999/join/"),
        ("get", "/api/nope/"),
        ("get", "/api/games/{game}/nope/"),
        ("post", "/api/games/{game}/orders/nope/"),
    ],
)
def test_unknown_game_or_url_is_404_json(running_game, players, method, url):
    status, data = api(logged_in(players[0]), method, url.format(game=running_game.pk),
                       {"payload": {"number": 1}} if method == "post" else None)
    assert status == 404
    assert_error(data, "not_found")


def test_wrong_method_is_405_json(running_game, players):
    status, data = api(logged_in(players[0]), "get", f"/api/games/{running_game.pk}/join/")
    assert status == 405
    assert_error(data, "method_not_allowed")


def test_openapi_schema_validates_without_warnings(tmp_path):
    """drf-spectacular generates a valid OpenAPI document for every endpoint, with no guessing warnings."""
    from django.core.management import call_command

    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    assert "/api/games/{id}/orders/:" in text and "/api/games/{id}/deck/:" in text


def test_FM_2_5_game_announced_with_a_start_date(master):
    """FM-2.5: the master announces the start date; it is stored in UTC and shown on the game page."""
    client = client_for(master)
    status, data = api(client, "post", "/api/games/", {"module": "tally", "title": "Dated",
                                                       "starts_at": "2026-12-01T18:00:00+03:00"})
    assert status == 201 and data["starts_at"] == "2026-12-01T18:00:00+03:00"  # in the viewer's zone
    from gm.core.models import Game

    assert Game.objects.get(pk=data["id"]).starts_at.isoformat() == "2026-12-01T15:00:00+00:00"  # stored in UTC
    page = client.get(f"/games/{data['id']}/").content.decode()
    assert 'datetime="2026-12-01T18:00:00+03:00"' in page  # Europe/Moscow, the profile's default zone
    status, data = api(client, "post", "/api/games/", {"module": "tally", "title": "Bad", "starts_at": "soon"})
    assert status == 400 and "starts_at" in data["errors"]
