"""Fair-play signals (issue 24 item 6): a login keeps only keyed hashes of its IP address and device cookie; the
master's console (page and API) flags two seats, or a seat and a spectator, of one game that shared one in the last
30 days; players never see any of it (canary through pages and API); rows go after 90 days and with the account."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from gm.core.services import comasters
from gm.fairplay import services
from gm.fairplay.models import LoginSignal, Spectator
from tests.helpers import api, client_for, game_page

pytestmark = pytest.mark.django_db

SHARED_IP = "203.0.113.77"


def login(user, ip: str, device: str | None = None) -> Client:
    """Log ``user`` in through the login form from ``ip`` (with the ``gm_device`` cookie ``device`` if given)."""
    client = Client(REMOTE_ADDR=ip, HTTP_ACCEPT_LANGUAGE="en")
    client.raise_request_exception = True
    if device:
        client.cookies[services.DEVICE_COOKIE] = device
    response = client.post("/accounts/login/", {"login": user.username, "password": f"pw-{user.username}-123"})
    assert response.status_code == 302, response.content[:500]
    return client


def test_login_stores_only_keyed_hashes_and_sets_a_device_cookie(players):
    client = login(players[0], SHARED_IP)
    device = client.cookies[services.DEVICE_COOKIE].value
    assert services.valid_device_id(device)
    assert client.cookies[services.DEVICE_COOKIE]["httponly"]
    row = LoginSignal.objects.get(user=players[0])
    assert row.ip_hash == services.digest(SHARED_IP) and row.device_hash == services.digest(device)
    assert SHARED_IP not in row.ip_hash and device not in row.device_hash
    assert len(row.ip_hash) == 64
    # the same browser logs in again: same device hash, no new cookie
    client.post("/accounts/logout/")
    again = client.post("/accounts/login/", {"login": "p0", "password": "pw-p0-123"})
    assert services.DEVICE_COOKIE not in again.cookies
    assert set(LoginSignal.objects.filter(user=players[0]).values_list("device_hash", flat=True)) == {
        services.digest(device)}


def _setup_shared(game, players, spectator):
    login(players[0], SHARED_IP)
    login(players[1], SHARED_IP)  # two seats on one address
    watcher = login(spectator, "198.51.100.9")
    device = watcher.cookies[services.DEVICE_COOKIE].value
    login(players[2], "192.0.2.50", device=device)  # a seat in the spectator's browser
    assert watcher.get(f"/games/{game.pk}/").status_code == 200  # the spectator's view is remembered
    assert Spectator.objects.filter(game=game, user=spectator).exists()


def test_master_console_flags_shared_logins_players_never_see_them(running_game, master, players, spectator,
                                                                     make_user):
    game = running_game
    _setup_shared(game, players, spectator)
    # the console's activity part, which the console loads after the page (htmx)
    page = client_for(master).get(f"/games/{game.pk}/console/life/").content.decode()
    assert "Fair play: shared logins" in page
    part = page.split('id="fairplay-h"')[1].split("</section>")[0]
    assert "Seat0 (p0) — Seat1 (p1): same network address" in part
    assert "Seat2 (p2) — spectator watcher: same browser" in part
    status, body = api(client_for(master), "get", f"/api/games/{game.pk}/console/fairplay/")
    assert status == 200
    pairs = {(f["kind"], f["a"]["username"], f["b"]["username"], f["b"]["role"]) for f in body["flags"]}
    assert pairs == {("ip", "p0", "p1", "seat"), ("device", "p2", "watcher", "spectator")}
    # a read-only co-master sees what the master sees
    make_user("reader")
    comasters.comaster_add(game=game, actor=master, username="reader", read_only=True, public=False)
    reader = type(master).objects.get(username="reader")
    assert "Seat0 (p0) — Seat1 (p1)" in client_for(reader).get(f"/games/{game.pk}/console/life/").content.decode()
    # canary: the flagged players themselves, another player and the spectator see nothing of it anywhere
    canaries = ("same network address", "same browser", "Fair play: shared", "fairplay", services.digest(SHARED_IP))
    for user in (players[0], players[1], players[3], spectator, None):
        html = game_page(game, user)
        client = client_for(user)
        client.raise_request_exception = False
        bodies = [html]
        for url in (f"/api/games/{game.pk}/", f"/api/games/{game.pk}/seats/", f"/api/games/{game.pk}/log/",
                    f"/api/games/{game.pk}/posts/", f"/api/games/{game.pk}/console/",
                    f"/games/{game.pk}/console/life/"):
            bodies.append(client.get(url).content.decode())
        status, _body = api(client, "get", f"/api/games/{game.pk}/console/fairplay/")
        assert status in (401, 403)
        for text in bodies:
            for canary in canaries:
                assert canary not in text, (user, canary)


def test_flags_only_within_thirty_days_and_rows_purged_after_ninety(running_game, master, players, spectator,
                                                                     frozen, django_user_model):
    game = running_game
    login(players[0], SHARED_IP)
    login(players[1], SHARED_IP)
    viewer = type("V", (), {"is_master": True, "game": game})()
    assert len(services.game_flags(viewer)) == 1
    frozen.shift(timedelta(days=31).total_seconds())
    assert services.game_flags(viewer) == []
    assert services.purge() == 0
    frozen.shift(timedelta(days=60).total_seconds())
    assert services.purge() == 2 and not LoginSignal.objects.exists()


def test_purge_task_and_account_deletion_forget_the_signals(players, spectator, running_game):
    from accounts.services import account_delete
    from gm.fairplay.tasks import fairplay_purge_task

    login(players[0], SHARED_IP)
    login(spectator, SHARED_IP).get(f"/games/{running_game.pk}/")
    assert fairplay_purge_task() == 0 and LoginSignal.objects.count() == 2
    account_delete(user=players[0])
    account_delete(user=spectator)
    assert not LoginSignal.objects.exists() and not Spectator.objects.exists()


@pytest.mark.parametrize("language, words", [("en", "keyed hashes"), ("ru", "хеши с ключом")])
def test_privacy_page_documents_the_signals(language, words):
    response = client_for(None, language=language).get("/privacy/")
    assert response.status_code == 200
    body = response.content.decode()
    assert words in body and "90" in body and "gm_device" in body
