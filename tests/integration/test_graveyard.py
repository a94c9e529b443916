"""The graveyard (issue 23, item 9; ``gm.core.services.graveyard``): on death a seat leaves its groups for the
graveyard room; the dead (and the master) read and write there, spectators read it when the game lets them, the
living never (the canary walk over every URL of the URLconf, as ``test_leak_audit``), everyone once the game is
over; "the dead see everything" (forbidden in forum Mafia, FM-9.7.H1). Pages and API, forum Mafia and ONUW."""
from __future__ import annotations

import secrets

import pytest
from django.urls import reverse

from gm.core import interventions, services
from gm.core.models import GroupMembership, Phase
from gm.core.services import ServiceError, graveyard
from tests.helpers import api, client_for, game_page
from tests.integration import leak_audit as la
from tests.integration.test_leak_audit import Audit

pytestmark = pytest.mark.django_db


def open_phase(game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def test_the_living_never_read_the_graveyard_canary_walk(make_user, master, spectator, frozen,
                                                         django_capture_on_commit_callbacks):
    canary = f"cnrgrave{secrets.token_hex(8)}"
    world = la.World(canaries=la.new_canaries(), users=la.make_users(make_user, master, spectator))
    game = la.canaries_game(world)  # Night 1 of "Canaries": Boris and Ivan are dead
    response = client_for(master).post(reverse("gm:graveyard_options", args=[game.pk]),
                                       {"graveyard": "on", "reason": "rest in peace"}, follow=True)
    assert "The graveyard options were saved." in response.content.decode()
    ivan = world.seat("Ivan")
    assert set(GroupMembership.objects.filter(seat=ivan).values_list("group", flat=True)) == {"graveyard"}
    response = client_for(world.users["ivan"]).post(reverse("gm:graveyard", args=[game.pk]),
                                                    {"body": f"Cold down here. {canary}"}, follow=True)
    assert "Your words are in the graveyard." in response.content.decode()
    seeded = world.canaries  # the stages below write the leak audit's own canaries; this walk looks for one
    world.canaries = {"GRAVE": canary}
    audit = Audit(world)

    def leaks(stage: str, readers: set[str]) -> list[str]:
        return [f"{stage}: the graveyard canary reached {viewer} at {url}"
                for (st, viewer, url), kinds in audit.seen.items() if st == stage and kinds and viewer not in readers]

    def found(stage: str, viewer: str) -> set[str]:
        return {audit.names[url] for (st, v, url), kinds in audit.seen.items() if st == stage and v == viewer and kinds}

    audit.fetch_all("night", game)
    assert not leaks("night", {"ivan", "master"})
    assert {"gm:graveyard", "api-graveyard"} <= found("night", "ivan") and "gm:graveyard" in found("night", "master")
    world.canaries = seeded
    la.day_1(world, frozen, django_capture_on_commit_callbacks)
    la.night_2(world, frozen, django_capture_on_commit_callbacks)
    la.finish(world, frozen)
    assert not audit.errors, "\n".join(audit.errors)
    for viewer in la.VIEWERS:  # the graveyard opens to all at the end, page and API
        client = audit.client(viewer)
        for url in (reverse("gm:graveyard", args=[game.pk]), reverse("api-graveyard", args=[game.pk])):
            response = client.get(url)
            assert response.status_code == 200 and canary in response.content.decode(), (viewer, url)


def test_FM_9_7_H1_the_dead_leave_the_mafia_for_the_graveyard_and_may_not_see_everything(frozen, master, make_user,
                                                                                         spectator):
    from tests.integration.fm_table import build, play_night

    game, users = build(master, make_user)
    with pytest.raises(ServiceError) as err:
        graveyard.graveyard_options_set(game=game, actor=master, graveyard=True, dead_see_everything=True,
                                        reason="rip")
    assert "dead_see_everything" in err.value.errors
    graveyard.graveyard_options_set(game=game, actor=master, graveyard=True, spectators_read_graveyard=True,
                                    reason="rip")
    boris = game.seats.get(display_name="Boris")
    assert any(g.startswith("faction") for g in GroupMembership.objects.filter(seat=boris).values_list("group",
                                                                                                       flat=True))
    play_night(game, users, frozen)  # Alice shoots Boris (the Mafia boss)
    boris.refresh_from_db()
    assert not boris.alive
    assert list(GroupMembership.objects.filter(seat=boris).values_list("group", flat=True)) == ["graveyard"]
    status, body = api(client_for(users["Boris"]), "post", f"/api/games/{game.pk}/graveyard/", {"body": "Avenge me"})
    assert status == 201 and body["author"] == "Boris"
    status, body = api(client_for(users["Eva"]), "post", f"/api/games/{game.pk}/graveyard/", {"body": "Hi"})
    assert status == 403  # the living do not write there
    for user, code in ((users["Eva"], 404), (None, 404), (spectator, 200), (master, 200), (users["Boris"], 200)):
        status, body = api(client_for(user), "get", f"/api/games/{game.pk}/graveyard/")
        assert status == code, user
        assert client_for(user).get(reverse("gm:graveyard", args=[game.pk])).status_code == code
    assert 'id="graveyard-link"' in game_page(game, users["Boris"])
    assert 'id="graveyard-link"' not in game_page(game, users["Eva"])
    status, body = api(client_for(users["Boris"]), "post", f"/api/games/{game.pk}/graveyard/", {"body": "  "})
    assert status == 400


def test_onuw_dead_see_everything_after_the_masters_kill(frozen, master, make_user):
    names = ["Alice", "Boris", "Clara", "Dmitri"]
    users = {n: make_user(n.lower()) for n in names}
    game = services.game_create(master=master, module="onuw", title="ONUW", rng_seed=9, options={
        "deal": ["seer", "werewolf", "robber", "troublemaker", "villager", "villager", "drunk"]})
    services.game_open_signup(game=game, actor=master)
    for n in names:
        services.seat_join(game=game, user=users[n], display_name=n)
    services.game_start(game=game, actor=master)
    boris = game.seats.get(display_name="Boris")
    # Off by default: a seat the master removes sees only his own secrets.
    interventions.seat_set_alive(game=game, actor=master, seat_id=boris.pk, alive=False, reason="left")
    status, body = api(client_for(users["Boris"]), "get", f"/api/games/{game.pk}/seats/")
    assert [s for s in body if "private" in s and s["id"] != boris.pk] == []
    graveyard.graveyard_options_set(game=game, actor=master, graveyard=True, dead_see_everything=True, reason="rip")
    assert list(GroupMembership.objects.filter(seat=boris).values_list("group", flat=True)) == ["graveyard"]
    status, body = api(client_for(users["Boris"]), "get", f"/api/games/{game.pk}/seats/")
    assert all("private" in s for s in body)
    status, body = api(client_for(users["Alice"]), "get", f"/api/games/{game.pk}/seats/")
    assert [s["id"] for s in body if "private" in s] == [game.seats.get(display_name="Alice").pk]
    assert client_for(users["Alice"]).get(reverse("gm:graveyard", args=[game.pk])).status_code == 404
