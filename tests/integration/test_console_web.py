"""The master's console on the web and in the API (issue 8 item 3): the console shows every seat's secrets and order
versions to the master only; each intervention's HTML form works with htmx (the console comes back) and without
JavaScript (redirect + messages); each API endpoint answers in the API's error shape; bad input and non-masters
change nothing."""
from __future__ import annotations

import pytest

from gm.core.models import AuditEntry, Phase
from tests.helpers import api, client_for
from tests.integration.console_table import build_table, seat, shoot_boris, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(frozen, master, make_user, card_collection):
    return build_table(master, make_user)
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_console_shows_every_seat_secret_and_order_versions_to_the_master_only(table, master, spectator):
    game, users = table
    night = shoot_boris(game, users)
    from gm.core import services

    services.order_submit(phase=night, user=users["Alice"], payload={})  # version 2
    page = client_for(master).get(game.get_absolute_url()).content.decode()
    assert 'id="console"' in page
    for text in ("Sheriff", "Mafia boss", "Pistol", "v1", "v2", "What-if preview"):
        assert text in page, text
    night.__class__.objects.filter(pk=night.pk).update(overdue_at=night.deadline)  # the foundation's flag
    console = client_for(master).get(game.get_absolute_url()).content.decode().split('id="console"')[1]
    assert 'class="flag">Overdue' in console.split("</h3>")[0]
    for user in (users["Alice"], users["Clara"], spectator, None):  # not Boris: he knows he is the boss
        other = client_for(user).get(game.get_absolute_url()).content.decode()
        assert 'id="console"' not in other and "Mafia boss" not in other


def test_kill_form_without_js_and_with_htmx(table, master):
    game, _users = table
    eva, clara = seat(game, "Eva"), seat(game, "Clara")
    url = f"/games/{game.pk}/console/seat/alive/"
    response = client_for(master).post(url, {"seat": eva.pk, "alive": "0", "reason": "left"})
    assert response.status_code == 302 and response["Location"].endswith("#console")
    assert not seat(game, "Eva").alive
    response = client_for(master).post(url, {"seat": clara.pk, "alive": "0", "reason": "left too"}, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="console"' in body and "<html" not in body and "the seat&#x27;s life was changed" in body
    assert not seat(game, "Clara").alive
    assert list(AuditEntry.objects.filter(game=game, action="kill").values_list("reason", flat=True)) == [
        "left too", "left"]


def test_refused_forms_change_nothing_and_say_why(table, master):
    game, users = table
    alice = seat(game, "Alice")
    before = snapshot(game)
    client = client_for(master)
    # No reason (htmx): the console comes back with the error.
    body = client.post(f"/games/{game.pk}/console/seat/alive/", {"seat": alice.pk, "alive": "0"},
                       **HTMX).content.decode()
    assert "This field is required" in body
    # An unknown card (no JS): the edit page again, the picker's field error naming it.
    response = client.post(f"/games/{game.pk}/console/seat/edit/",
                           {"seat": alice.pk, "version": alice.version, "hand-0": "bazooka", "reason": "fix"})
    assert response.status_code == 400 and "no card “bazooka”" in response.content.decode()
    # Nothing changed at all.
    body = client.post(f"/games/{game.pk}/console/seat/edit/", {
        "seat": alice.pk, "hand-0": "pistol", "hand-1": "tail", "hand-2": "tail", "jail": "0", "public_role": "custom",
        **{f"deck-{i}": "coffee" for i in range(4)}, "reason": "x"}, **HTMX).content.decode()
    assert "Nothing was changed" in body
    # A player posting to the console.
    response = client_for(users["Alice"]).post(f"/games/{game.pk}/console/seat/alive/",
                                               {"seat": alice.pk, "alive": "0", "reason": "me"})
    assert response.status_code == 403
    assert snapshot(game) == before


def test_console_forms_for_the_existing_actions_need_a_reason(table, master):
    game, _users = table
    client = client_for(master)
    deadline = Phase.objects.get(game=game, status="open").deadline
    client.post(f"/games/{game.pk}/console/extend/", {"minutes": 10})
    assert Phase.objects.get(game=game, status="open").deadline == deadline
    client.post(f"/games/{game.pk}/console/extend/", {"minutes": 10, "reason": "weekend"})
    client.post(f"/games/{game.pk}/console/pause/", {"reason": "server move"}, **HTMX)
    client.post(f"/games/{game.pk}/console/resume/", {"reason": "back"})
    client.post(f"/games/{game.pk}/console/resolve-now/", {"reason": "all ordered"})
    assert dict(AuditEntry.objects.filter(game=game).exclude(action="setup_override")
                .values_list("action", "reason")) == {
        "extend": "weekend", "pause": "server move", "resume": "back", "resolve_now": "all ordered"}


def test_preview_page_and_partial(table, master):
    game, users = table
    shoot_boris(game, users)
    full = client_for(master).get(f"/games/{game.pk}/console/preview/").content.decode()
    assert "<html" in full and "nothing was committed" in full and "Boris" in full
    partial = client_for(master).get(f"/games/{game.pk}/console/preview/", **HTMX).content.decode()
    assert "<html" not in partial and "Boris" in partial
    assert client_for(users["Alice"]).get(f"/games/{game.pk}/console/preview/").status_code == 403
    assert Phase.objects.get(game=game, ordinal=2).status == "open"


# -- API -----------------------------------------------------------------------------------------------------------


def test_api_console_and_interventions(table, master, make_user):
    game, users = table
    boss, base = client_for(master), f"/api/games/{game.pk}/console"
    alice = seat(game, "Alice")
    shoot_boris(game, users)
    status, data = api(boss, "get", f"{base}/")
    assert status == 200
    mine = next(r for r in data["seats"] if r["id"] == alice.pk)
    assert mine["fields"]["hand"] == ["pistol", "tail", "tail"] and mine["orders"][0]["version"] == 1
    assert ["Secret role", "Sheriff"] in mine["summary"]
    status, data = api(boss, "get", f"{base}/preview/")
    assert status == 200 and data["alive"] == {str(seat(game, "Boris").pk): False}
    assert any(e["visibility"] == "master" for e in data["events"])

    status, data = api(boss, "post", f"{base}/seats/{alice.pk}/edit/",
                       {"changes": {"hand": ["tail", "pistol"]}, "reason": "misdeal"})
    assert status == 200 and [c["kind"] for c in data["private"]["cards"]["hand"]] == ["tail", "pistol"]
    status, data = api(boss, "post", f"{base}/seats/{alice.pk}/alive/", {"alive": False, "reason": "gone"})
    assert status == 200 and data["alive"] is False
    make_user("sub")
    status, data = api(boss, "post", f"{base}/seats/{alice.pk}/replace/", {"user": "sub", "reason": "sub in"})
    assert status == 200 and seat(game, "Alice").user.username == "sub"
    assert set(AuditEntry.objects.filter(game=game).exclude(action="setup_override")
               .values_list("action", flat=True)) == {
        "seat_edit", "kill", "replace"}


def test_api_refusals_change_nothing(table, master):
    game, users = table
    boss, base = client_for(master), f"/api/games/{game.pk}/console"
    clara = seat(game, "Clara")
    before = snapshot(game)
    status, data = api(boss, "post", f"{base}/seats/{clara.pk}/edit/", {"changes": {"hand": ["bazooka"]},
                                                                       "reason": "x"})
    assert status == 400 and "bazooka" in data["errors"]["changes.hand"][0]
    status, data = api(boss, "post", f"{base}/seats/{clara.pk}/alive/", {"alive": False})
    assert status == 400 and "reason" in data["errors"]
    status, data = api(boss, "post", f"{base}/seats/{clara.pk}/replace/", {"user": "nobody", "reason": "x"})
    assert status == 400 and "user" in data["errors"]
    status, data = api(boss, "post", f"{base}/seats/999999/alive/", {"alive": False, "reason": "x"})
    assert status == 404
    status, data = api(boss, "post", f"{base}/publish/", {"reason": "x"})
    assert status == 409 and data["code"] == "state"
    for user in (users["Clara"], None):
        status, _ = api(client_for(user), "post", f"{base}/seats/{clara.pk}/alive/", {"alive": False, "reason": "x"})
        assert status in (401, 403)
        status, _ = api(client_for(user), "get", f"{base}/")
        assert status in (401, 403)
    assert snapshot(game) == before


def test_api_review_and_publish(table, master, frozen):
    from datetime import timedelta

    from gm.core import services

    game, users = table
    boss, base = client_for(master), f"/api/games/{game.pk}/console"
    status, data = api(boss, "post", f"{base}/review/", {"enabled": True, "auto_minutes": 0, "reason": "x"})
    assert status == 400 and "auto_minutes" in data["errors"]
    status, data = api(boss, "post", f"{base}/review/", {"enabled": True, "reason": "disputes"})
    assert status == 200
    night = shoot_boris(game, users)
    frozen.shift(timedelta(days=2))
    services.phase_resolve_due(phase_id=night.pk)
    status, data = api(boss, "get", f"{base}/")
    assert data["held"]["phase"] == night.pk and any("Boris" in e["text"] for e in data["held"]["events"])
    status, data = api(client_for(users["Alice"]), "post", f"{base}/publish/", {"reason": "x"})
    assert status == 403 and seat(game, "Boris").alive
    status, data = api(boss, "post", f"{base}/publish/", {"reason": "ok"})
    assert status == 200 and not seat(game, "Boris").alive


def test_console_endpoints_are_in_the_openapi_schema(client):
    schema = client.get("/api/schema/").content.decode()
    for p in ("/console/", "/console/preview/", "/console/seats/{seat_id}/edit/", "/console/seats/{seat_id}/alive/",
              "/console/seats/{seat_id}/replace/", "/console/review/", "/console/publish/", "/console/publish-at/"):
        assert p in schema, p


def test_review_publish_at_and_publish_forms(table, master, frozen):
    from datetime import timedelta

    from gm.core import services

    game, users = table
    client = client_for(master)
    client.post(f"/games/{game.pk}/console/review/", {"enabled": "on", "auto_minutes": "", "reason": "disputes"})
    game.refresh_from_db()
    assert game.review_results and game.review_auto_minutes is None
    night = shoot_boris(game, users)
    frozen.shift(timedelta(days=2))
    services.phase_resolve_due(phase_id=night.pk)
    body = client.post(f"/games/{game.pk}/console/publish-at/", {"publish_at": "2020-01-01T10:00", "reason": "x"},
                       **HTMX).content.decode()
    assert "Choose a time in the future" in body
    body = client.post(f"/games/{game.pk}/console/publish/", {"reason": ""}, **HTMX).content.decode()
    assert "This field is required" in body and seat(game, "Boris").alive
    body = client.post(f"/games/{game.pk}/console/publish/", {"reason": "checked"}, **HTMX).content.decode()
    assert "The result is published." in body and not seat(game, "Boris").alive
