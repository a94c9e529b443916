"""Flooding: DRF throttles on the API (anonymous per IP, users per user, the token endpoint per IP), and per-seat
limits a minute on thread posts, private messages (FM-9.2), chat-room posts (FM-9.3) and order changes, with a
translated "slow down" message; the master is exempt. Rates are lowered here (the suite runs without them)."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from gm.core import services
from gm.core.models import Phase, Post
from gm.core.services import ServiceError
from tests.helpers import api, client_for, open_phase_id
from tests.integration.test_thread import SECRET, Table, table  # noqa: F401 - the FM day-1 table fixture

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def rates(settings):
    def set_rates(api_rates=None, **seat):
        if api_rates is not None:
            settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": api_rates}
        settings.GM_SEAT_RATES = seat

    return set_rates


def test_api_throttles_anonymous_clients_per_ip_and_users_per_user(rates, running_game, players):
    rates({"anon": "3/min", "user": "5/min", "auth": "2/min"})
    url = f"/api/games/{running_game.pk}/"
    for _ in range(3):
        assert Client(REMOTE_ADDR="198.51.100.1").get(url).status_code == 200
    response = Client(REMOTE_ADDR="198.51.100.1").get(url)
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert response.json()["errors"]["__all__"][0].startswith("Помедленнее")  # Russian: the site's default
    assert response.json()["code"] == "throttled"
    assert Client(REMOTE_ADDR="198.51.100.2").get(url).status_code == 200  # another address
    for _ in range(5):
        assert client_for(players[0]).get(url).status_code == 200
    assert client_for(players[0]).get(url).status_code == 429
    assert client_for(players[1]).get(url).status_code == 200  # another user


def test_token_endpoint_is_throttled_per_ip(rates, players):
    rates({"anon": None, "user": None, "auth": "2/min"})
    for _ in range(2):
        assert Client().post("/api/auth/token/", {"username": "p0", "password": "pw-p0-123"}).status_code == 200
    assert Client().post("/api/auth/token/", {"username": "p0", "password": "pw-p0-123"}).status_code == 429


def test_thread_posts_per_seat_with_a_slow_down_message_and_the_master_exempt(rates, running_game, master, players,
                                                                               frozen):
    rates(post=3)
    url = f"/api/games/{running_game.pk}/posts/"
    for i in range(3):
        assert api(client_for(players[0]), "post", url, {"body": f"post {i}"})[0] == 201
    status, data = api(client_for(players[0]), "post", url, {"body": "one too many"})
    assert status == 429 and data["code"] == "throttled"
    assert data["errors"]["__all__"][0].startswith("Slow down")
    with translation.override("ru"):
        status, data = api(client_for(players[0], language="ru"), "post", url, {"body": "ещё"})
    assert status == 429 and data["errors"]["__all__"][0].startswith("Помедленнее")
    assert not Post.objects.filter(body__in=["one too many", "ещё"]).exists()
    assert api(client_for(players[1]), "post", url, {"body": "another seat"})[0] == 201
    for i in range(6):
        services.post_create(game=running_game, user=master, body=f"master {i}")
    frozen.shift(60)
    assert api(client_for(players[0]), "post", url, {"body": "a minute later"})[0] == 201


def test_order_changes_per_seat(rates, running_game, players, frozen):
    rates(order=2)
    url = f"/api/games/{running_game.pk}/orders/"
    phase_id = open_phase_id(running_game)
    assert api(client_for(players[0]), "post", url, {"phase": phase_id, "payload": {"number": 1}})[0] == 201
    assert api(client_for(players[0]), "post", url, {"phase": phase_id, "payload": {"number": 2}})[0] == 201
    status, data = api(client_for(players[0]), "post", url, {"phase": phase_id, "payload": {"number": 3}})
    assert status == 429 and data["code"] == "throttled"
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    with pytest.raises(ServiceError) as err:
        services.order_withdraw(phase=phase, user=players[0])
    assert err.value.code == "throttled"
    frozen.shift(60)
    assert api(client_for(players[0]), "post", url, {"phase": phase_id, "payload": {"number": 3}})[0] == 201


def test_private_messages_have_their_own_lower_limit(rates, frozen, table):  # noqa: F811
    # the clock is frozen: with the real one a minute could turn between the posts and reset the count
    rates(post=10, private=2)
    for i in range(2):
        table.post("Boris", f'[private="Dmitri"]{SECRET} {i}[/private]')
    with pytest.raises(ServiceError) as err:
        table.post("Boris", f'[private="Dmitri"]{SECRET} 3[/private]')
    assert err.value.code == "throttled"
    table.post("Boris", "a public post is still fine")

