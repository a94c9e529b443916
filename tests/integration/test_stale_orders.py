"""Input made for a phase that has since ended saves nothing.

Every order form, vote form, ability form and order API call names the phase it was made for (and the order version it
edits); a player who opened the Night 1 form and presses Submit after the night resolved is told "Night 1 has ended;
Day 1 is open now — your order was not saved" and nothing is stored, for either phase. Through the API the answer is
409 ``stale`` with the open phase's id. Covered for the forum Mafia order form, the Veche and the instant abilities,
the ONUW forms, and the core's generic form and API (the ``tally`` test module); plus the order version a form edits
(a change made elsewhere since is a ``conflict``; a vote cast since the card form was loaded is not).
"""
from __future__ import annotations

import html as htmllib
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from gm.core import services
from gm.core.models import Game, Order, Phase
from gm.modules.forum_mafia.services.overrides import game_setup_override
from gm.modules.forum_mafia.tests.test_orders import element
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NAMES = ("Alice", "Boris", "Clara", "Dmitri", "Eva")
FILLER = ["advice", "bluff", "tail"]


@pytest.fixture
def users(make_user):
    return {name: make_user(name.lower()) for name in NAMES}


def fm_game(master, users, *, kind: str) -> Game:
    """A forum Mafia game set up by the master in Night 1 or Day 1: Alice (sheriff) holds a pistol and an
    interrogation, Boris and Eva are the mafia; nobody dies of doing nothing, so the next phase opens."""
    game = services.game_create(master=master, module="forum_mafia", title="Stale", options={}, rng_seed=5)
    players = [
        {"name": "Alice", "secret_role": "sheriff", "hand": ["pistol", "interrogation", *FILLER], "sleeve": [],
         "deck": ["coffee"]},
        {"name": "Boris", "secret_role": "mafia_boss", "hand": FILLER, "sleeve": [], "deck": ["coffee"]},
        {"name": "Clara", "secret_role": "doctor", "hand": FILLER, "sleeve": [], "deck": ["coffee"]},
        {"name": "Dmitri", "public_role": "paranoid", "secret_role": "maniac", "hand": FILLER,
         "sleeve": ["pistol", "witness"], "deck": ["coffee"]},
        {"name": "Eva", "secret_role": "mafia_killer", "hand": FILLER, "sleeve": [], "deck": ["coffee"]},
    ]
    game_setup_override(game=game, actor=master, players=[{**p, "user": users[p["name"]]} for p in players],
                        start_kind=kind, start_number=1)
    game.refresh_from_db()
    return game


def open_phase(game: Game) -> Phase:
    return game.phases.get(status=Phase.Status.OPEN)


def resolve(game: Game) -> Phase:
    """Resolve the open phase at its deadline; returns the phase opened after it."""
    phase = open_phase(game)
    assert services.phase_resolve_due(phase_id=phase.pk, clock=lambda: phase.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    return open_phase(game)


def hidden(html: str, name: str) -> str:
    """The value of the first hidden input ``name`` in ``html`` (what the browser would post back)."""
    found = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', html)
    assert found, f"no hidden {name} in the form"
    return found.group(1)


def uid(game: Game, name: str, kind: str) -> int:
    cards = game.seats.get(display_name=name).data["cards"]
    return next(c["uid"] for c in cards["hand"] + cards["sleeve"] if c["kind"] == kind)


def seat_id(game: Game, name: str) -> int:
    return game.seats.get(display_name=name).pk


def page(client, game: Game) -> str:
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


# == forum Mafia: the order form ===================================================================================


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no_js"])
def test_night_1_order_form_posted_after_the_night_resolved_stores_nothing(frozen, master, users, htmx):
    game = fm_game(master, users, kind="night")
    night = open_phase(game)
    client = client_for(users["Alice"])
    form = element(page(client, game), "fm-order-form")  # the page Alice left open in Night 1
    assert hidden(form, "phase") == str(night.pk) and hidden(form, "version") == "0"
    day = resolve(game)
    assert (day.kind, day.number) == ("day", 1)
    pistol = uid(game, "Alice", "pistol")
    response = client.post(reverse("forum_mafia:orders", args=[game.pk]), {
        "action": "submit", "phase": hidden(form, "phase"), "version": hidden(form, "version"),
        "hand": str(pistol), f"target_{pistol}": str(seat_id(game, "Boris"))}, **(HTMX if htmx else {}))
    message = "Night 1 has ended; Day 1 is open now — your order was not saved."
    if htmx:
        panel = element(htmllib.unescape(response.content.decode()), "fm-orders")
        assert response.status_code == 200 and message in panel
        assert hidden(panel, "phase") == str(day.pk)  # the form of the phase open now comes back
    else:
        assert response.status_code == 302
        assert message in htmllib.unescape(page(client, game))
    assert not Order.objects.exists()  # neither for the night that ended nor for the day


def test_night_1_withdraw_form_posted_after_the_night_resolved_changes_nothing(frozen, master, users):
    game = fm_game(master, users, kind="night")
    night = open_phase(game)
    services.order_submit(phase=night, user=users["Alice"], payload={})
    client = client_for(users["Alice"])
    orders = element(page(client, game), "fm-orders")
    resolve(game)
    response = client.post(reverse("forum_mafia:order_withdraw", args=[game.pk]),
                           {"phase": hidden(orders, "phase"), "version": hidden(orders, "version")}, **HTMX)
    assert "Night 1 has ended; Day 1 is open now" in htmllib.unescape(response.content.decode())
    assert Order.objects.count() == 1


def test_api_order_for_a_phase_that_ended_is_409_with_the_open_phase(frozen, master, users):
    game = fm_game(master, users, kind="night")
    night = open_phase(game)
    client = client_for(users["Alice"])
    status, options = api(client, "get", f"/api/games/{game.pk}/order-options/")
    assert status == 200 and options["phase"] == night.pk  # the id to name in the order
    url = f"/api/games/{game.pk}/orders/"
    status, body = api(client, "post", url, {"phase": night.pk, "payload": {}})
    assert status == 201, body
    day = resolve(game)
    for path, body in (("", {"phase": night.pk, "payload": {}}), ("withdraw/", {"phase": night.pk})):
        status, answer = api(client, "post", url + path, body)
        assert status == 409, answer
        assert answer["code"] == "stale" and answer["phase"] == night.pk and answer["open_phase"] == day.pk
        assert answer["errors"]["phase"] == ["Night 1 has ended; Day 1 is open now — your order was not saved."]
    assert list(Order.objects.values_list("phase_id", "version")) == [(night.pk, 1)]
    # Named, the day takes the order: the refusal was about the phase, not the player.
    status, body = api(client, "post", url, {"phase": day.pk, "payload": {}})
    assert status == 201 and body["phase"] == day.ordinal


def test_stale_refusal_is_translated(frozen, master, users):
    game = fm_game(master, users, kind="night")
    night = open_phase(game)
    resolve(game)
    client = client_for(users["Alice"], language="ru")
    status, answer = api(client, "post", f"/api/games/{game.pk}/orders/", {"phase": night.pk, "payload": {}})
    assert status == 409
    assert answer["errors"]["phase"] == ["Фаза «Ночь 1» окончена, сейчас идёт «День 1» — ваш приказ не сохранён."]


def test_ability_for_a_phase_that_ended_changes_nothing(frozen, master, users):
    game = fm_game(master, users, kind="night")
    night = open_phase(game)
    client = client_for(users["Dmitri"])
    panel = element(page(client, game), "fm-abilities")
    assert hidden(panel, "phase") == str(night.pk)
    day = resolve(game)
    before = game.seats.get(display_name="Dmitri").data["cards"]
    swap = {"ability": "maniac", "mode": "swap", "hand_card": uid(game, "Dmitri", "advice"),
            "sleeve_card": uid(game, "Dmitri", "witness")}
    status, answer = api(client, "post", f"/api/games/{game.pk}/abilities/", {"phase": night.pk, **swap})
    assert status == 409 and answer["code"] == "stale" and answer["open_phase"] == day.pk
    response = client.post(reverse("forum_mafia:ability_use", args=[game.pk]),
                           {"phase": str(night.pk), **{k: str(v) for k, v in swap.items()}}, **HTMX)
    assert "Night 1 has ended; Day 1 is open now" in htmllib.unescape(response.content.decode())
    assert game.seats.get(display_name="Dmitri").data["cards"] == before


# == forum Mafia: the Veche ========================================================================================


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no_js"])
def test_day_1_vote_form_posted_after_the_day_resolved_stores_nothing(frozen, master, users, htmx):
    game = fm_game(master, users, kind="day")
    day = open_phase(game)
    client = client_for(users["Alice"])
    form = element(page(client, game), "fm-vote-form")
    assert hidden(form, "phase") == str(day.pk)
    night = resolve(game)
    assert (night.kind, night.number) == ("night", 2)
    response = client.post(reverse("forum_mafia:veche", args=[game.pk]), {
        "phase": hidden(form, "phase"), "version": hidden(form, "version"), "for": str(seat_id(game, "Boris")),
        "punishment": "execution"}, **(HTMX if htmx else {}))
    text = htmllib.unescape(response.content.decode())
    message = "Day 1 has ended; Night 2 is open now — your vote was not saved."
    assert message in (element(text, "fm-veche") if htmx else text)
    assert not Order.objects.exists()
    status, answer = api(client, "post", f"/api/games/{game.pk}/veche/vote/", {"phase": day.pk, "for": "peace"})
    assert status == 409 and answer["code"] == "stale" and answer["open_phase"] == night.pk
    assert answer["errors"]["phase"] == [message]
    assert not Order.objects.exists()


# == ONUW ==========================================================================================================


ONUW_NAMES = ["Alice", "Boris", "Clara", "Dmitri"]
#: Alice seer, Boris werewolf, Clara robber, Dmitri troublemaker; center villager, villager, drunk.
ONUW_DEAL = ["seer", "werewolf", "robber", "troublemaker", "villager", "villager", "drunk"]


def test_onuw_night_form_posted_after_the_night_resolved_stores_nothing(master, users):
    game = services.game_create(master=master, module="onuw", title="ONUW", options={"deal": ONUW_DEAL}, rng_seed=9)
    services.game_open_signup(game=game, actor=master)
    for name in ONUW_NAMES:
        services.seat_join(game=game, user=users[name], display_name=name)
    services.game_start(game=game, actor=master)
    night = open_phase(game)
    assert night.kind == "night"
    client = client_for(users["Clara"])  # the robber
    form = re.search(r'<form method="post" action="[^"]*" class="onuw-order">.*?</form>', page(client, game), re.S)
    assert form and hidden(form.group(0), "phase") == str(night.pk)
    day = resolve(game)
    assert day.kind == "day"
    response = client.post(reverse("onuw:order", args=[game.pk]), {
        "phase": hidden(form.group(0), "phase"), "version": hidden(form.group(0), "version"),
        "swap_with": str(seat_id(game, "Boris"))}, follow=True)
    shown = [str(m) for m in response.context["messages"]]
    assert shown == ["Night 1 has ended; Day 1 is open now — your order was not saved."]
    assert not Order.objects.exists()
    # The day's vote, named, is taken.
    client.post(reverse("onuw:order", args=[game.pk]), {"phase": day.pk, "vote": str(seat_id(game, "Boris"))})
    assert list(Order.objects.values_list("phase_id", flat=True)) == [day.pk]


# == the core's generic order form and API (the tally test module) ===============================================


def test_core_form_and_api_refuse_a_round_that_ended(running_game, players):
    first = open_phase(running_game)
    client = client_for(players[0])
    resolve(running_game)
    second = open_phase(running_game)
    response = client.post(reverse("gm:order_submit", args=[running_game.pk]),
                           {"phase": str(first.pk), "version": "0", "payload": '{"number": 3}'}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Round 1 has ended; Round 2 is open now — your order was not saved."]
    status, answer = api(client, "post", f"/api/games/{running_game.pk}/orders/",
                         {"phase": first.pk, "payload": {"number": 3}})
    assert status == 409 and (answer["code"], answer["phase"], answer["open_phase"]) == ("stale", first.pk,
                                                                                          second.pk)
    assert not Order.objects.exists()


def test_order_for_a_phase_being_resolved_names_no_open_phase(running_game, players):
    phase = open_phase(running_game)
    assert services.phase_claim(phase_id=phase.pk, early=True)  # a worker is resolving it now
    status, answer = api(client_for(players[0]), "post", f"/api/games/{running_game.pk}/orders/",
                         {"phase": phase.pk, "payload": {"number": 3}})
    assert status == 409 and answer["code"] == "stale" and answer["open_phase"] is None
    assert answer["errors"]["phase"] == ["Round 1 has ended — your order was not saved."]
    assert not Order.objects.exists()


# == the order version a form edits ================================================================================


def test_order_changed_elsewhere_since_the_form_was_loaded_is_a_conflict(frozen, master, users):
    game = fm_game(master, users, kind="day")
    day = open_phase(game)
    tab1, tab2 = client_for(users["Alice"]), client_for(users["Alice"])
    old = element(page(tab1, game), "fm-order-form")
    assert hidden(old, "version") == "0"
    url = reverse("forum_mafia:orders", args=[game.pk])
    interrogation, boris, clara = uid(game, "Alice", "interrogation"), seat_id(game, "Boris"), seat_id(game, "Clara")
    # A vote cast since (another panel's part) does not make the card form stale.
    tab2.post(reverse("forum_mafia:veche", args=[game.pk]), {"phase": day.pk, "version": "0", "for": "peace"})
    response = tab1.post(url, {"action": "submit", "phase": str(day.pk), "version": "0",
                               "hand": str(interrogation), f"target_{interrogation}": str(boris)}, **HTMX)
    assert "Your order is saved" in response.content.decode()
    assert Order.objects.filter(phase=day).order_by("-version").first().payload["vote"] == {"for": "peace"}
    # A card form loaded at version 1 (before the cards of version 2) is refused: its cards changed since.
    response = tab2.post(url, {"action": "submit", "phase": str(day.pk), "version": "1",
                               "hand": str(interrogation), f"target_{interrogation}": str(clara)}, **HTMX)
    assert "Your order changed since this form was loaded" in htmllib.unescape(response.content.decode())
    assert Order.objects.filter(phase=day).count() == 2
    status, answer = api(tab2, "post", f"/api/games/{game.pk}/orders/",
                         {"phase": day.pk, "base_version": 1, "payload": {}})
    assert status == 409 and answer["code"] == "conflict" and answer["version"] == 2
    assert Order.objects.filter(phase=day).count() == 2


# == the OpenAPI schema ============================================================================================


def test_schema_says_every_order_write_names_its_phase():
    response = client_for(None).get("/api/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    components = schema["components"]["schemas"]

    def request_schema(path: str) -> dict:
        body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        return components[body["$ref"].rsplit("/", 1)[-1]]

    for path in ("/api/games/{id}/orders/", "/api/games/{id}/orders/withdraw/", "/api/games/{id}/fm/veche/vote/",
                 "/api/games/{id}/fm/abilities/"):
        body = request_schema(path)
        assert "phase" in body["required"], path
        assert body["properties"]["phase"]["type"] == "integer" and "stale" in body["properties"]["phase"][
            "description"], path
    assert "base_version" in request_schema("/api/games/{id}/orders/")["properties"]
    options = schema["paths"]["/api/games/{id}/order-options/"]["get"]["responses"]["200"]["content"]
    ref = options["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert "phase" in components[ref]["properties"]
