"""Co-masters (issue 24 item 5): a full co-master acts through the console (pages and API) and the audit trail names
him; a read-only co-master (the core feature behind BV-15.14) reads every secret and is refused on every write;
players can't make themselves co-masters and never learn of a hidden one."""
from __future__ import annotations

import pytest

from gm.core import services, visibility
from gm.core.models import AuditEntry, CoMaster, Phase
from gm.core.services import comasters
from tests.helpers import api, client_for, game_page, open_phase_id, page_part

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def helper(make_user):
    return make_user("helper")


@pytest.fixture
def reader(make_user):
    return make_user("reader")


def test_master_adds_a_co_master_who_extends_through_the_console_and_the_audit_names_him(
        frozen, running_game, master, helper):
    game = running_game
    response = client_for(master).post(f"/games/{game.pk}/console/comasters/add/",
                                       {"username": "helper", "public": "on", "reason": "two of us"})
    assert response.status_code == 302
    assert CoMaster.objects.filter(game=game, user=helper, read_only=False).exists()
    # the console on the page, then a console form (htmx) and an API action, both as the co-master
    page = game_page(game, helper)
    assert 'id="console"' in page and "Add a co-master" in page
    response = client_for(helper).post(f"/games/{game.pk}/console/extend/", {"minutes": 10, "reason": "late"},
                                       **HTMX)
    assert response.status_code == 200 and "The deadline was extended" in response.content.decode()
    status, body = api(client_for(helper), "post", f"/api/games/{game.pk}/pause/", {"reason": "lunch"})
    assert status == 200, body
    actors = dict(AuditEntry.objects.filter(game=game).values_list("action", "actor__username"))
    assert actors == {"comaster_add": "master", "extend": "helper", "pause": "helper"}
    console = page_part(game_page(game, master), "console")
    assert "helper" in console and "deadline extended" in console
    status, body = api(client_for(master), "get", f"/api/games/{game.pk}/console/comasters/")
    assert status == 200 and body["comasters"][0]["username"] == "helper" and body["may_act"] is True


def test_read_only_co_master_sees_secrets_and_gets_403_on_every_post(frozen, running_game, master, reader):
    game = running_game
    status, body = api(client_for(master), "post", f"/api/games/{game.pk}/console/comasters/",
                       {"username": "reader", "read_only": True, "public": False})
    assert status == 201, body
    viewer = visibility.viewer_for(reader, game)
    assert viewer.is_master and viewer.read_only and not viewer.may_act and viewer.sees_everything
    # GET: the console with every seat's secret, the API console too
    page = game_page(game, reader)
    assert 'id="console"' in page and "read-only co-master" in page
    seat = game.seats.order_by("position").first()
    status, body = api(client_for(reader), "get", f"/api/games/{game.pk}/console/")
    assert status == 200 and any(s["id"] == seat.pk for s in body["seats"])
    status, body = api(client_for(reader), "get", f"/api/games/{game.pk}/seats/")
    assert status == 200 and all("private" in s for s in body)
    # POST: every console form, game action and API write is refused; nothing changes
    phase = open_phase_id(game)
    deadline = Phase.objects.get(pk=phase).deadline
    client = client_for(reader)
    client.raise_request_exception = False
    posts = [
        f"/games/{game.pk}/console/extend/", f"/games/{game.pk}/console/pause/",
        f"/games/{game.pk}/console/resolve-now/", f"/games/{game.pk}/console/abort/",
        f"/games/{game.pk}/console/seat/alive/", f"/games/{game.pk}/console/comasters/add/",
        f"/games/{game.pk}/console/comasters/remove/", f"/games/{game.pk}/posts/", f"/games/{game.pk}/order/",
        f"/games/{game.pk}/extend/", f"/games/{game.pk}/pause/",
    ]
    for url in posts:
        assert client.post(url, {"minutes": 10, "reason": "x", "seat": seat.pk, "alive": "0",
                                 "username": "master", "body": "hi", "phase": phase}).status_code == 403, url
    for url in (f"/api/games/{game.pk}/extend/", f"/api/games/{game.pk}/pause/",
                f"/api/games/{game.pk}/console/seats/{seat.pk}/alive/", f"/api/games/{game.pk}/console/comasters/",
                f"/api/games/{game.pk}/posts/"):
        status, _body = api(client, "post", url, {"minutes": 10, "reason": "x", "alive": False, "body": "hi",
                                                  "username": "master", "phase": phase})
        assert status == 403, url
    # the service refuses him too (the second wall)
    with pytest.raises(services.ServiceError) as exc:
        services.phase_extend(game=game, actor=reader, minutes=5, reason="x")
    assert exc.value.code == "forbidden"
    assert Phase.objects.get(pk=phase).deadline == deadline and game.posts.count() == 0
    assert not AuditEntry.objects.filter(game=game, actor=reader).exists()


def test_hidden_read_only_co_master_is_unknown_to_players_public_one_is_listed(
        running_game, master, reader, helper, players, spectator):
    game = running_game
    comasters.comaster_add(game=game, actor=master, username="reader", read_only=True, public=False)
    comasters.comaster_add(game=game, actor=master, username="helper", public=True)
    for user in (players[0], spectator, None):
        page = game_page(game, user)
        assert "reader" not in page and "helper" in page
        status, body = api(client_for(user), "get", f"/api/games/{game.pk}/comasters/")
        assert status == 200 and [c["username"] for c in body] == ["helper"]
        status, _body = api(client_for(user), "get", f"/api/games/{game.pk}/console/comasters/")
        assert status in (401, 403)
    status, body = api(client_for(master), "get", f"/api/games/{game.pk}/comasters/")
    assert sorted(c["username"] for c in body) == ["helper", "reader"]


def test_a_player_cannot_make_himself_a_co_master(running_game, players):
    game = running_game
    client = client_for(players[0])
    client.raise_request_exception = False
    response = client.post(f"/games/{game.pk}/console/comasters/add/", {"username": players[0].username})
    assert response.status_code == 403
    status, body = api(client, "post", f"/api/games/{game.pk}/console/comasters/", {"username": players[1].username})
    assert status == 403
    with pytest.raises(services.ServiceError) as exc:
        comasters.comaster_add(game=game, actor=players[0], username=players[0].username)
    assert exc.value.code == "forbidden"
    assert not CoMaster.objects.exists()


def test_master_may_not_add_a_seated_player_or_himself_and_co_masters_cannot_sign_up(
        signup_game, master, players, helper):
    game = signup_game
    for name in (players[0].username, "master", "nobody"):
        with pytest.raises(services.ServiceError):
            comasters.comaster_add(game=game, actor=master, username=name)
    comasters.comaster_add(game=game, actor=master, username="helper")
    with pytest.raises(services.ServiceError) as exc:
        services.seat_join(game=game, user=helper, display_name="Sneaky")
    assert exc.value.code == "not_allowed"
    comasters.comaster_remove(game=game, actor=master, username="helper")
    assert not CoMaster.objects.exists()
    assert list(AuditEntry.objects.filter(game=game).values_list("action", flat=True)) == [
        "comaster_remove", "comaster_add"]


def test_co_masters_see_drafts_and_receive_the_masters_results(master, helper, make_user):
    from gm.core.services import game_create

    game = game_create(master=master, module="tally", title="Draft", options={"rounds": 1}, rng_seed=1)
    assert not visibility.can_see_game(helper, game)
    comasters.comaster_add(game=game, actor=master, username="helper", read_only=True, public=False)
    game = type(game).objects.get(pk=game.pk)
    assert visibility.can_see_game(helper, game)
    assert game in visibility.visible_games(helper)
    assert helper in comasters.master_users(game)


def test_co_masters_get_the_masters_phase_results_and_trace_in_their_inbox(frozen, running_game, master, reader):
    from gm.core.scenario import resolve_at_deadline
    from gm.inbox.models import Notification
    from gm.inbox.services import notify_phase_results

    game = running_game
    comasters.comaster_add(game=game, actor=master, username="reader", read_only=True, public=False)
    phase = game.phases.get(status="open")
    resolve_at_deadline(phase)
    notify_phase_results(phase_id=phase.pk)
    mine = Notification.objects.get(user=reader, phase=phase, kind="phase_results")
    masters = Notification.objects.get(user=master, phase=phase, kind="phase_results")
    assert mine.data == masters.data  # he reads what the master reads
    entry = game.log_entries.filter(visibility="master").first()
    assert entry is not None and reader in visibility.entry_recipients(entry)
    assert not any(s.user in visibility.entry_recipients(entry) for s in game.seats.all())
