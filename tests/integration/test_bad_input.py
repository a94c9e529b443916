"""Bad input on every form and endpoint gets field-level errors and never a 500, and changes nothing.

The test client re-raises any exception a view lets escape (``raise_request_exception``), so a 500 fails the
test even where only the status is checked.
"""
from __future__ import annotations

import json
from functools import cached_property

import pytest
from django.conf import settings as django_settings
from django.contrib.messages import constants as message_levels
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from gm.core import services
from gm.core.models import AuditEntry, Game, GroupMembership, LogEntry, Order, Phase, Post, Seat

pytestmark = pytest.mark.django_db


class Raw(str):
    """A request body sent as is (not JSON-encoded)."""


def english(client: Client) -> Client:
    """Messages are checked in English (the site default is Russian)."""
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    client.raise_request_exception = True  # (the default) a view's exception fails the test, never a quiet 500
    return client


class World:
    """The running game (``{run}`` in URLs), a game in signup with one seat "Taken" (``{sig}``, made on first
    use), and clients (made on first use) for its ``master``, a ``player`` of the running game, an ``outsider``
    (logged in, no seat), the ``seated`` player of the signup game and an ``anonymous`` visitor."""

    def __init__(self, run, users, make_user):
        self.run, self.users, self.make_user, self._clients = run, users, make_user, {}

    @cached_property
    def sig(self) -> Game:
        master = self.users["master"]
        game = services.game_create(master=master, module="tally", title="Signup", rng_seed=1)
        services.game_open_signup(game=game, actor=master)
        self.users["seated"] = self.make_user("seated")
        services.seat_join(game=game, user=self.users["seated"], display_name="Taken")
        return game

    def url(self, template: str) -> str:
        return template.format(run=self.run.pk, sig=self.sig.pk if "{sig}" in template else None)

    def body(self, body):
        """``body`` with :data:`RUN_PHASE` (the ``phase`` an order names) replaced by the running game's open phase."""
        if isinstance(body, dict) and body.get("phase") == RUN_PHASE:
            return {**body, "phase": self.run.phases.get(status=Phase.Status.OPEN).pk}
        return body

    def client(self, who: str) -> Client:
        if who not in self._clients:
            client = english(Client())
            if who != "anonymous":
                if who == "seated":
                    self.sig  # noqa: B018 - creates the seated user
                client.force_login(self.users[who])
            self._clients[who] = client
        return self._clients[who]


@pytest.fixture
def world(running_game, master, players, spectator, make_user) -> World:
    return World(running_game, {"master": master, "player": players[1], "outsider": spectator}, make_user)


def snapshot() -> tuple:
    """Every row count and every mutable game/phase field: equal before and after a refused request."""
    counts = tuple(m.objects.count() for m in (Game, Seat, Phase, Order, LogEntry, AuditEntry, Post,
                                               GroupMembership, Token))
    games = tuple(Game.objects.order_by("pk").values_list("status", "paused_at", "options", "state"))
    phases = tuple(Phase.objects.order_by("pk").values_list("status", "deadline"))
    return counts, games, phases


def send(client: Client, url: str, body):
    if isinstance(body, Raw):
        data = str(body)
    else:
        data = json.dumps(body)
    return client.post(url, data=data, content_type="application/json")


def error_keys(response) -> set:
    data = response.json()
    assert set(data) == {"errors", "code"}, data
    assert isinstance(data["code"], str) and data["code"]
    for messages in data["errors"].values():
        assert isinstance(messages, list) and messages, data
        for message in messages:  # plain text, never a repr of DRF internals
            assert isinstance(message, str) and message and "ErrorDetail" not in message, data
    return set(data["errors"])


NOT_JSON = Raw('{"oops": ')
DEEP = Raw("[" * 100_000)  # deeper than Python's recursion limit
BIG_INT = Raw('{"module": "tally", "title": "x", "rng_seed": ' + "9" * 5000 + "}")
GOOD = {"module": "tally", "title": "A game"}
RUN_PHASE = "<the running game's open phase>"  # replaced by its id (World.body)
CREATE = "/api/games/"
ORDERS = "/api/games/{run}/orders/"
POSTS = "/api/games/{run}/posts/"
EXTEND = "/api/games/{run}/extend/"
JOIN = "/api/games/{sig}/join/"

# (who, url, body, status, a key that must be in "errors")
CASES = {
    # create a game
    "create-not-json": ("master", CREATE, NOT_JSON, 400, "__all__"),
    "create-list": ("master", CREATE, [GOOD], 400, "__all__"),
    "create-empty-body": ("master", CREATE, Raw(""), 400, "module"),
    "create-missing-title": ("master", CREATE, {"module": "tally"}, 400, "title"),
    "create-missing-module": ("master", CREATE, {"title": "x"}, 400, "module"),
    "create-unknown-module": ("master", CREATE, {**GOOD, "module": "nope"}, 400, "module"),
    "create-module-list": ("master", CREATE, {**GOOD, "module": ["tally"]}, 400, "module"),
    "create-blank-title": ("master", CREATE, {**GOOD, "title": "   "}, 400, "title"),
    "create-long-title": ("master", CREATE, {**GOOD, "title": "x" * 201}, 400, "title"),
    "create-title-list": ("master", CREATE, {**GOOD, "title": ["x"]}, 400, "title"),
    "create-title-nul": ("master", CREATE, {**GOOD, "title": "a\x00b"}, 400, "title"),
    "create-description-object": ("master", CREATE, {**GOOD, "description": {"a": 1}}, 400, "description"),
    "create-seed-negative": ("master", CREATE, {**GOOD, "rng_seed": -1}, 400, "rng_seed"),
    "create-seed-huge": ("master", CREATE, {**GOOD, "rng_seed": 2**63}, 400, "rng_seed"),
    "create-seed-text": ("master", CREATE, {**GOOD, "rng_seed": "abc"}, 400, "rng_seed"),
    "create-seed-fraction": ("master", CREATE, {**GOOD, "rng_seed": 1.5}, 400, "rng_seed"),
    "create-seed-5000-digits": ("master", CREATE, BIG_INT, 400, "__all__"),
    "create-durations-negative": ("master", CREATE, {**GOOD, "durations": {"round": -5}}, 400, "durations"),
    "create-durations-zero": ("master", CREATE, {**GOOD, "durations": {"round": 0}}, 400, "durations"),
    "create-durations-31-days": ("master", CREATE, {**GOOD, "durations": {"round": 31 * 86400}}, 400, "durations"),
    "create-durations-unknown-kind": ("master", CREATE, {**GOOD, "durations": {"nope": 10}}, 400, "durations"),
    "create-durations-text": ("master", CREATE, {**GOOD, "durations": {"round": "ten"}}, 400, "durations.round"),
    "create-durations-huge": ("master", CREATE, {**GOOD, "durations": {"round": 10**400}}, 400, "durations.round"),
    "create-durations-nan": ("master", CREATE, Raw('{"module": "tally", "title": "x", "durations": {"round": NaN}}'),
                             400, "__all__"),
    "create-durations-not-object": ("master", CREATE, {**GOOD, "durations": "daily"}, 400, "durations"),
    "create-options-rounds-text": ("master", CREATE, {**GOOD, "options": {"rounds": "x"}}, 400, "options.rounds"),
    "create-options-rounds-huge": ("master", CREATE, {**GOOD, "options": {"rounds": 10**30}}, 400, "options.rounds"),
    "create-options-rounds-bool": ("master", CREATE, {**GOOD, "options": {"rounds": True}}, 400, "options.rounds"),
    "create-options-unknown": ("master", CREATE, {**GOOD, "options": {"colour": "red"}}, 400, "options.colour"),
    "create-options-list": ("master", CREATE, {**GOOD, "options": [1]}, 400, "options"),
    "create-too-deep": ("master", CREATE, DEEP, 400, "__all__"),
    "create-not-a-host": ("player", CREATE, GOOD, 403, "__all__"),
    "create-anonymous": ("anonymous", CREATE, GOOD, 403, "__all__"),
    # join
    "join-not-json": ("outsider", JOIN, NOT_JSON, 400, "__all__"),
    "join-list": ("outsider", JOIN, [{"display_name": "x"}], 400, "__all__"),
    "join-empty-body": ("outsider", JOIN, Raw(""), 400, "display_name"),
    "join-missing-name": ("outsider", JOIN, {}, 400, "display_name"),
    "join-empty-name": ("outsider", JOIN, {"display_name": ""}, 400, "display_name"),
    "join-blank-name": ("outsider", JOIN, {"display_name": "   "}, 400, "display_name"),
    "join-null-name": ("outsider", JOIN, {"display_name": None}, 400, "display_name"),
    "join-long-name": ("outsider", JOIN, {"display_name": "x" * 81}, 400, "display_name"),
    "join-name-list": ("outsider", JOIN, {"display_name": ["x"]}, 400, "display_name"),
    "join-name-nul": ("outsider", JOIN, {"display_name": "x\x00"}, 400, "display_name"),
    "join-name-taken": ("outsider", JOIN, {"display_name": "taken"}, 400, "display_name"),
    "join-too-deep": ("outsider", JOIN, DEEP, 400, "__all__"),
    "join-own-game": ("master", JOIN, {"display_name": "Boss"}, 403, "__all__"),
    "join-twice": ("seated", JOIN, {"display_name": "Again"}, 409, "__all__"),
    "join-running-game": ("outsider", "/api/games/{run}/join/", {"display_name": "Late"}, 409, "__all__"),
    "join-unknown-game": ("outsider", "/api/games/999999/join/", {"display_name": "x"}, 404, "__all__"),
    "leave-without-seat": ("outsider", "/api/games/{sig}/leave/", {}, 404, "__all__"),
    "open-signup-twice": ("master", "/api/games/{sig}/open-signup/", {}, 409, "__all__"),
    "start-too-few-seats": ("master", "/api/games/{sig}/start/", {}, 409, "__all__"),
    "start-running-game": ("master", "/api/games/{run}/start/", {}, 409, "__all__"),
    # orders
    "order-not-json": ("player", ORDERS, NOT_JSON, 400, "__all__"),
    "order-list": ("player", ORDERS, [{"phase": RUN_PHASE, "payload": {"number": 1}}], 400, "__all__"),
    "order-empty-body": ("player", ORDERS, Raw(""), 400, "payload"),
    "order-missing-payload": ("player", ORDERS, {"phase": RUN_PHASE}, 400, "payload"),
    "order-missing-phase": ("player", ORDERS, {"payload": {"number": 1}}, 400, "phase"),
    "order-phase-text": ("player", ORDERS, {"phase": "Night 1", "payload": {"number": 1}}, 400, "phase"),
    "order-phase-list": ("player", ORDERS, {"phase": [1], "payload": {"number": 1}}, 400, "phase"),
    "order-phase-unknown": ("player", ORDERS, {"phase": 999999, "payload": {"number": 1}}, 400, "phase"),
    "order-base-version-negative": ("player", ORDERS, {"phase": RUN_PHASE, "base_version": -1,
                                                       "payload": {"number": 1}}, 400, "base_version"),
    "order-base-version-text": ("player", ORDERS, {"phase": RUN_PHASE, "base_version": "v1",
                                                   "payload": {"number": 1}}, 400, "base_version"),
    "order-payload-string": ("player", ORDERS, {"phase": RUN_PHASE, "payload": "string"}, 400, "payload"),
    "order-payload-list": ("player", ORDERS, {"phase": RUN_PHASE, "payload": [1]}, 400, "payload"),
    "order-payload-null": ("player", ORDERS, {"phase": RUN_PHASE, "payload": None}, 400, "payload"),
    "order-number-99": ("player", ORDERS, {"phase": RUN_PHASE, "payload": {"number": 99}}, 400, "number"),
    "order-number-negative": ("player", ORDERS, {"phase": RUN_PHASE, "payload": {"number": -1}}, 400, "number"),
    "order-number-text": ("player", ORDERS, {"phase": RUN_PHASE, "payload": {"number": "5"}}, 400, "number"),
    "order-number-bool": ("player", ORDERS, {"phase": RUN_PHASE, "payload": {"number": True}}, 400, "number"),
    "order-number-fraction": ("player", ORDERS, {"phase": RUN_PHASE, "payload": {"number": 2.5}}, 400, "number"),
    "order-number-huge": ("player", ORDERS, {"phase": RUN_PHASE, "payload": {"number": 10**400}}, 400, "number"),
    "order-empty-payload": ("player", ORDERS, {"phase": RUN_PHASE, "payload": {}}, 400, "number"),
    "order-extra-field": ("player", ORDERS, {"phase": RUN_PHASE, "payload": {"number": 1, "colour": "red"}}, 400,
                          "colour"),
    "order-too-deep": ("player", ORDERS, DEEP, 400, "__all__"),
    "order-without-seat": ("outsider", ORDERS, {"phase": RUN_PHASE, "payload": {"number": 1}}, 403, "__all__"),
    "order-by-master": ("master", ORDERS, {"phase": RUN_PHASE, "payload": {"number": 1}}, 403, "__all__"),
    "order-anonymous": ("anonymous", ORDERS, {"phase": RUN_PHASE, "payload": {"number": 1}}, 403, "__all__"),
    # the signup game has no phase: a phase of another game is not one of its phases
    "order-no-open-phase": ("seated", "/api/games/{sig}/orders/", {"phase": RUN_PHASE, "payload": {"number": 1}},
                            400, "phase"),
    "withdraw-nothing": ("player", "/api/games/{run}/orders/withdraw/", {"phase": RUN_PHASE}, 404, "__all__"),
    "withdraw-not-json": ("player", "/api/games/{run}/orders/withdraw/", NOT_JSON, 400, "__all__"),
    "withdraw-missing-phase": ("player", "/api/games/{run}/orders/withdraw/", {}, 400, "phase"),
    # posts
    "post-not-json": ("player", POSTS, NOT_JSON, 400, "__all__"),
    "post-list": ("player", POSTS, ["hello"], 400, "__all__"),
    "post-empty-body": ("player", POSTS, Raw(""), 400, "body"),
    "post-missing-body": ("player", POSTS, {}, 400, "body"),
    "post-empty-text": ("player", POSTS, {"body": ""}, 400, "body"),
    "post-blank-text": ("player", POSTS, {"body": " \n\t "}, 400, "body"),
    "post-null-text": ("player", POSTS, {"body": None}, 400, "body"),
    "post-text-list": ("player", POSTS, {"body": ["x"]}, 400, "body"),
    "post-text-too-long": ("player", POSTS, {"body": "x" * 20001}, 400, "body"),
    "post-text-nul": ("player", POSTS, {"body": "hi\x00"}, 400, "body"),
    "post-by-outsider": ("outsider", POSTS, {"body": "hi"}, 403, "__all__"),
    # master actions
    "extend-not-json": ("master", EXTEND, NOT_JSON, 400, "__all__"),
    "extend-list": ("master", EXTEND, [10], 400, "__all__"),
    "extend-empty-body": ("master", EXTEND, Raw(""), 400, "minutes"),
    "extend-missing-minutes": ("master", EXTEND, {"reason": "x"}, 400, "minutes"),
    "extend-minutes-text": ("master", EXTEND, {"minutes": "ten"}, 400, "minutes"),
    "extend-minutes-negative": ("master", EXTEND, {"minutes": -5}, 400, "minutes"),
    "extend-minutes-zero": ("master", EXTEND, {"minutes": 0}, 400, "minutes"),
    "extend-minutes-fraction": ("master", EXTEND, {"minutes": 1.5}, 400, "minutes"),
    "extend-minutes-bool": ("master", EXTEND, {"minutes": True}, 400, "minutes"),
    "extend-minutes-null": ("master", EXTEND, {"minutes": None}, 400, "minutes"),
    "extend-minutes-huge": ("master", EXTEND, {"minutes": 10**30}, 400, "minutes"),
    "extend-over-the-cap": ("master", EXTEND, {"minutes": 60 * 24 * 30, "reason": "x"}, 400, "minutes"),
    "extend-reason-too-long": ("master", EXTEND, {"minutes": 5, "reason": "x" * 501}, 400, "reason"),
    "extend-reason-list": ("master", EXTEND, {"minutes": 5, "reason": ["x"]}, 400, "reason"),
    "extend-too-deep": ("master", EXTEND, DEEP, 400, "__all__"),
    "extend-by-player": ("player", EXTEND, {"minutes": 5, "reason": "x"}, 403, "__all__"),
    "extend-no-reason": ("master", EXTEND, {"minutes": 5}, 400, "reason"),
    "pause-not-json": ("master", "/api/games/{run}/pause/", NOT_JSON, 400, "__all__"),
    "pause-list": ("master", "/api/games/{run}/pause/", ["x"], 400, "__all__"),
    "pause-reason-list": ("master", "/api/games/{run}/pause/", {"reason": ["x"]}, 400, "reason"),
    "pause-reason-too-long": ("master", "/api/games/{run}/pause/", {"reason": "x" * 501}, 400, "reason"),
    "pause-by-player": ("player", "/api/games/{run}/pause/", {"reason": "x"}, 403, "__all__"),
    "pause-blank-reason": ("master", "/api/games/{run}/pause/", {"reason": "  "}, 400, "reason"),
    "resume-not-json": ("master", "/api/games/{run}/resume/", NOT_JSON, 400, "__all__"),
    "resume-not-paused": ("master", "/api/games/{run}/resume/", {"reason": "x"}, 409, "__all__"),
    "resolve-now-not-json": ("master", "/api/games/{run}/resolve-now/", NOT_JSON, 400, "__all__"),
    "resolve-now-reason-object": ("master", "/api/games/{run}/resolve-now/", {"reason": {"a": 1}}, 400, "reason"),
    "resolve-now-by-player": ("player", "/api/games/{run}/resolve-now/", {"reason": "x"}, 403, "__all__"),
    # tokens
    "token-not-json": ("anonymous", "/api/auth/token/", NOT_JSON, 400, "__all__"),
    "token-list": ("anonymous", "/api/auth/token/", [], 400, "__all__"),
    "token-missing-fields": ("anonymous", "/api/auth/token/", {}, 400, "password"),
    "token-wrong-password": ("anonymous", "/api/auth/token/", {"username": "p1", "password": "x"}, 400, "__all__"),
    "token-too-deep": ("anonymous", "/api/auth/token/", DEEP, 400, "__all__"),
}


GROUPS = sorted({name.split("-")[0] for name in CASES})  # one test per endpoint, one subtest per case


@pytest.mark.parametrize("group", GROUPS)
def test_bad_api_requests_are_refused_with_field_errors_and_change_nothing(world, subtests, group):
    for name, (who, url, body, status, key) in CASES.items():
        if name.split("-")[0] != group:
            continue
        with subtests.test(name):
            url, client = world.url(url), world.client(who)
            before = snapshot()
            response = send(client, url, world.body(body))
            assert response.status_code == status, response.content
            assert key in error_keys(response)
            assert snapshot() == before


def test_the_good_requests_of_the_table_do_work(world):
    """The table's bad cases differ from working requests only in the bad part."""
    assert send(world.client("master"), CREATE, GOOD).status_code == 201
    assert send(world.client("outsider"), world.url(JOIN), {"display_name": "Fresh"}).status_code == 201
    assert send(world.client("player"), world.url(ORDERS),
                world.body({"phase": RUN_PHASE, "payload": {"number": 1}})).status_code == 201
    assert send(world.client("player"), world.url(POSTS), {"body": "hi"}).status_code == 201
    assert send(world.client("master"), world.url(EXTEND), {"minutes": 5, "reason": "ok"}).status_code == 200
    assert send(world.client("anonymous"), "/api/auth/token/",
                {"username": "p1", "password": "pw-p1-123"}).status_code == 200


# -- HTML forms -----------------------------------------------------------------------------------------


def error_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"] if m.level == message_levels.ERROR]


@pytest.mark.parametrize(
    "field, data, text",
    [
        ("options", {"options": "{bad json"}, "This is not valid JSON"),
        ("options", {"options": "[1, 2]"}, "Give a JSON object"),
        ("options", {"options": '{"rounds": "x"}'}, "Rounds must be a whole number"),
        ("options", {"options": "[" * 100_000}, "This is not valid JSON"),
        ("options", {"options": '{"rounds": ' + "9" * 5000 + "}"}, "This is not valid JSON"),
        ("durations", {"durations": '{"round": -5}'}, "between 1 second and 30 days"),
        ("durations", {"durations": '{"nope": 10}'}, "Unknown phase kind"),
        ("durations", {"durations": '{"round": ' + "9" * 400 + "}"}, "between 1 second and 30 days"),
        ("rng_seed", {"rng_seed": "-1"}, ""),
        ("rng_seed", {"rng_seed": "abc"}, ""),
        ("rng_seed", {"rng_seed": "9" * 5000}, ""),
        ("title", {"title": ""}, ""),
        ("module", {"module": "nope"}, ""),
    ],
)
def test_game_create_form_shows_field_errors(client, master, field, data, text):
    english(client).force_login(master)
    response = client.post(reverse("gm:game_create"), {"module": "tally", "title": "Form game", **data})
    assert response.status_code == 400
    form = response.context["form"]
    assert field in form.errors, form.errors
    if text:
        assert any(text in e for e in form.errors[field]), form.errors
    assert escape(form.errors[field][0]) in response.content.decode()  # shown on the form
    assert not Game.objects.exists()


def test_game_create_form_refuses_a_user_who_may_not_host(client, make_user):
    client.force_login(make_user("plain"))
    response = client.post(reverse("gm:game_create"), {"module": "tally", "title": "Mine"})
    assert response.status_code == 400 and response.context["form"].non_field_errors()
    assert not Game.objects.exists()


def post_form(client, url_name, game, data):
    response = client.post(reverse(url_name, args=[game.pk]), data, follow=True)
    assert response.redirect_chain == [(game.get_absolute_url(), 302)]
    assert response.status_code == 200
    return response


@pytest.mark.parametrize("name", ["", "   ", "x" * 81, "Taken", "taken"])
def test_join_form_with_bad_name(world, name):
    client, game = world.client("outsider"), world.sig
    before = snapshot()
    response = post_form(client, "gm:seat_join", game, {"display_name": name})
    messages = error_messages(response)
    assert messages and all(escape(m) in response.content.decode() for m in messages)
    assert snapshot() == before


@pytest.mark.parametrize(
    "payload, text",
    [
        ("", ""),
        ("{bad", "This is not valid JSON"),
        ("[1]", "Give a JSON object"),
        ('{"number": 99}', "Choose a whole number from 0 to 9"),
        ('{"number": "5"}', "Choose a whole number from 0 to 9"),
        ('{"number": 1, "colour": "red"}', "colour"),
        ("[" * 100_000, "This is not valid JSON"),
    ],
)
def test_order_form_with_bad_payload(world, payload, text):
    client = world.client("player")
    before = snapshot()
    response = post_form(client, "gm:order_submit", world.run, {"phase": world.body({"phase": RUN_PHASE})["phase"],
                                                                "payload": payload})
    messages = error_messages(response)
    assert any(text in m for m in messages), messages
    assert not Order.objects.exists()
    assert snapshot() == before


@pytest.mark.parametrize("minutes", ["-1", "0", "abc", "1.5", "", "9" * 5000, str(60 * 24 * 30)])
def test_extend_form_with_bad_minutes(world, minutes):
    client = world.client("master")
    before = snapshot()
    response = post_form(client, "gm:phase_extend", world.run, {"minutes": minutes})
    assert error_messages(response)
    assert snapshot() == before


@pytest.mark.parametrize(
    "url_name, who, data",
    [
        ("gm:post_create", "player", {"body": ""}),
        ("gm:post_create", "player", {"body": "   "}),
        ("gm:post_create", "player", {"body": "x" * 20001}),
        ("gm:post_create", "outsider", {"body": "hi"}),
        ("gm:game_pause", "master", {"reason": "x" * 501}),
        ("gm:game_pause", "player", {}),
        ("gm:game_resume", "master", {}),
        ("gm:phase_resolve_now", "player", {}),
        ("gm:game_start", "master", {}),
        ("gm:game_open_signup", "master", {}),
        ("gm:order_withdraw", "player", {}),  # names no phase
        ("gm:order_withdraw", "player", {"phase": RUN_PHASE}),  # no order to withdraw
        ("gm:order_submit", "player", {"payload": '{"number": 1}'}),  # names no phase
        ("gm:order_submit", "player", {"phase": "x", "payload": '{"number": 1}'}),
        ("gm:order_submit", "player", {"phase": "999999", "payload": '{"number": 1}'}),
        ("gm:order_submit", "player", {"phase": "9" * 5000, "payload": '{"number": 1}'}),
        ("gm:seat_leave", "outsider", {}),
    ],
)
def test_other_forms_refuse_with_a_message(world, url_name, who, data):
    game = world.sig if url_name == "gm:seat_leave" else world.run
    client = world.client(who)
    before = snapshot()
    response = post_form(client, url_name, game, world.body(data))
    assert error_messages(response)
    assert snapshot() == before


# -- arbitrary JSON never gives a 500 -------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=12,
)


def with_fields(**fields):
    """Either any JSON value, or an object with some of the endpoint's own fields set to any JSON value."""
    return json_values | st.fixed_dictionaries({}, optional=fields)


FUZZ = {
    "orders": ("player", ORDERS, with_fields(phase=json_values, base_version=json_values,
                                             payload=json_values | st.fixed_dictionaries(
                                                 {}, optional={"number": json_values}))),
    "join": ("outsider", JOIN, with_fields(display_name=json_values)),
    "extend": ("master", EXTEND, with_fields(minutes=json_values, reason=json_values)),
    "console-review": ("master", "/api/games/{run}/console/review/", with_fields(
        enabled=json_values, auto_minutes=json_values, reason=json_values)),
    "console-publish-at": ("master", "/api/games/{run}/console/publish-at/", with_fields(
        publish_at=json_values, reason=json_values)),
    "create": ("master", CREATE, with_fields(module=st.just("tally") | json_values, title=json_values,
                                             description=json_values, options=with_fields(rounds=json_values),
                                             durations=with_fields(round=json_values), rng_seed=json_values)),
}


@pytest.mark.parametrize("endpoint", FUZZ)
def test_arbitrary_json_never_gives_a_server_error(world, endpoint):
    who, url, strategy = FUZZ[endpoint]
    url, client = world.url(url), world.client(who)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(body=strategy)
    def check(body):
        response = client.post(url, data=json.dumps(body), content_type="application/json")
        assert response.status_code < 500
        if response.status_code >= 400:
            error_keys(response)

    check()


# -- wrong URLs -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/games/999999/", "/games/abc/", "/games/999999/feed/", "/games/-1/",
                                 "/games/1/nope/", "/nope/"])
def test_wrong_urls_are_404_pages(client, url):
    response = english(client).get(url)
    assert response.status_code == 404
    assert "<html" in response.content.decode() and "Not found" in response.content.decode()


def test_actions_on_unknown_games_are_404_and_get_is_405(world):
    client = world.client("player")
    assert client.post("/games/999999/join/", {"display_name": "x"}).status_code == 404
    assert client.post("/games/999999/order/", {"payload": "{}"}).status_code == 404
    assert client.get(reverse("gm:order_submit", args=[world.run.pk])).status_code == 405
