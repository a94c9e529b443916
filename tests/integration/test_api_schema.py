"""The OpenAPI schema (``/api/schema/``) describes what the API answers: each endpoint fixed after the leak audit's
schemathesis run (``test_leak_audit.py``) is called here once per viewer kind and its answer validated against the
schema with schemathesis' ``response_schema_conformance`` check — a deterministic regression test for each."""
from __future__ import annotations

import pytest
import schemathesis
from rest_framework.authtoken.models import Token
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.integration import leak_audit as la

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_user, master, spectator, frozen) -> la.World:
    """The leak audit's "Canaries" game in Night 1 (Olga's letter and Mafia message ordered)."""
    world = la.World(canaries=la.new_canaries(), users=la.make_users(make_user, master, spectator))
    la.canaries_game(world)
    return world


@pytest.fixture
def schema(db):
    with la.wsgi_app() as app:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", app)


def call(schema, world, method: str, path: str, viewer: str, **path_parameters):
    """One call of ``method path`` as ``viewer`` (a DRF token; none for ``anonymous``), validated against the
    schema; returns the parsed JSON."""
    user = world.users[viewer]
    headers = {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"} if user else {}
    case = schema[path][method].Case(path_parameters={"id": world.game.pk, **path_parameters})
    response = case.call_and_validate(headers=headers, checks=[response_schema_conformance])
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("viewer", ["master", "olga", "gleb", "ivan", "spectator", "anonymous"])
def test_seats_are_one_unpaginated_list(schema, world, viewer):
    seats = call(schema, world, "GET", "/api/games/{id}/seats/", viewer)
    assert [s["display_name"] for s in seats] == [row[0] for row in la.TABLE]
    params = {p["name"] for p in schema.raw_schema["paths"]["/api/games/{id}/seats/"]["get"].get("parameters", [])}
    assert params == {"id"}  # no limit/offset: the list is never paged


@pytest.mark.parametrize("viewer", ["olga", "anonymous"])
def test_card_collection_is_its_version_and_cards(schema, world, viewer):
    collection = call(schema, world, "GET", "/api/cards/", viewer)
    assert set(collection) == {"version", "cards"} and collection["version"]
    assert "letter" in {card["slug"] for card in collection["cards"]}


@pytest.mark.parametrize("viewer", ["master", "olga", "gleb", "ivan", "spectator", "anonymous"])
def test_game_cards_are_a_list_of_seats_with_secrets_only_where_allowed(schema, world, viewer):
    """FM-5.1: everyone sees each seat's Hand count; the Hand, Sleeve and deck only their owner and the master."""
    seats = call(schema, world, "GET", "/api/games/{id}/cards/", viewer)
    assert [s["display_name"] for s in seats] == [row[0] for row in la.TABLE]
    with_hand = {s["display_name"] for s in seats if "hand" in s}
    assert with_hand == ({row[0] for row in la.TABLE} if viewer == "master"
                         else {viewer.title()} & {row[0] for row in la.TABLE})
    assert all("hand_count" in s for s in seats)


@pytest.mark.parametrize("query", [{"limit": 268510947398695223296}, {"offset": 268510947398695223296},
                                   {"limit": 10**6, "offset": 1}])
def test_huge_page_bounds_are_cut_not_a_server_error(schema, world, query):
    """A ``limit`` beyond what PostgreSQL's bigint holds was a 500 (found by schemathesis): it is cut to the
    ceiling; an ``offset`` past the end is an empty page."""
    case = schema["/api/games/{id}/log/"]["GET"].Case(path_parameters={"id": world.game.pk}, query=query)
    response = case.call_and_validate(checks=[response_schema_conformance])
    assert response.status_code == 200, response.text
    page, offset = response.json(), query.get("offset", 0)
    assert page["count"] > 1 and len(page["results"]) == max(0, page["count"] - offset)


@pytest.mark.parametrize("at", ["0054-04-26T00:48:52+00:00", "9999-12-31T23:59:59-12:00"])
def test_veche_moment_out_of_range_is_a_clear_error(schema, world, at, frozen, django_capture_on_commit_callbacks):
    """FM-7.1 ``?at=``: a moment of year 54 came back in Moscow's local mean time (+02:30:17, no valid date-time;
    found by schemathesis) and one near year 9999 overflows in the viewer's time zone: both are refused."""
    la.day_1(world, frozen, django_capture_on_commit_callbacks)
    case = schema["/api/games/{id}/fm/veche/"]["GET"].Case(path_parameters={"id": world.game.pk}, query={"at": at})
    response = case.call_and_validate(checks=[response_schema_conformance])
    message = response.json()["errors"]["at"][0]  # in the site's language: the bounds are what it must name
    assert response.status_code == 400 and "2000" in message and "2999" in message
    fine = schema["/api/games/{id}/fm/veche/"]["GET"].Case(path_parameters={"id": world.game.pk},
                                                       query={"at": "2026-01-01T12:30:00+00:00"})
    assert fine.call_and_validate(checks=[response_schema_conformance]).status_code == 200
