"""October Night in the shell: the panel for every viewer kind (the board, the sheets, the viewer's own side card and
nobody else's, OC-1.2, OC-11.3), the order form offering legal lines with the reasons others are unavailable
(OC-11.5), an illegal order refused with its reason (nothing saved), the order options API for bots, a phase
resolved through the deadline with its dice line in the public log (OC-11.2), and the master's per-game data edit
with validation (OC-17)."""
from __future__ import annotations

import html as htmllib
from datetime import timedelta

import pytest
from django.urls import reverse

from gm.core import services
from gm.core.models import Game, LogEntry, Order, Phase
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

NAMES = ["Аня", "Боря", "Вова"]
SIDES = ["summoners", "keepers", "chosen"]
CHARS = ["count", "witch", "wolfman"]


def create(master, **options) -> Game:
    game = services.game_create(master=master, module="october_night", title="October", rng_seed=5,
                                options={"sides": SIDES, "characters": CHARS, **options})
    services.game_open_signup(game=game, actor=master)
    return game


def start(master, players, **options) -> Game:
    game = create(master, **options)
    for user, name in zip(players, NAMES, strict=False):
        services.seat_join(game=game, user=user, display_name=name)
    services.game_start(game=game, actor=master)
    game.refresh_from_db()
    return game


def page(user, game, language="en") -> str:
    response = client_for(user, language=language).get(game.get_absolute_url())
    assert response.status_code == 200
    return htmllib.unescape(response.content.decode())


def open_phase(game) -> Phase:
    return game.phases.get(status=Phase.Status.OPEN)


def resolve(game) -> None:
    phase = open_phase(game)
    assert services.phase_resolve_due(phase_id=phase.pk, clock=lambda: phase.deadline + timedelta(seconds=1))
    game.refresh_from_db()


def test_OC_1_2_each_player_sees_only_his_own_side(master, players, spectator):
    game = start(master, players)
    assert "summoners" in page(players[0], game).split('id="oc-my-side"')[1][:200]
    other = page(players[1], game)
    assert "keepers" in other.split('id="oc-my-side"')[1][:200]
    assert "Your side card: summoners" not in other and "Your side card: chosen" not in other
    for viewer in (spectator, None):
        text = page(viewer, game)
        assert 'id="oc-my-side"' not in text and "Your side card" not in text
    # Only the cards in play are public (the set-up line), not who holds them.
    assert "Side cards in play: summoners 1, keepers 1, chosen 1" in page(spectator, game)
    assert "Sides revealed" in page(master, game)


def test_OC_11_3_board_and_sheets_are_public_and_readable(master, players, spectator):
    game = start(master, players)
    for viewer in (master, players[0], spectator, None):
        text = page(viewer, game)
        assert "<svg" in text and "Empty Manor" in text and "Sword Cane" in text
    assert "Пустая усадьба" in page(players[0], game, language="ru")


def test_OC_11_5_form_offers_legal_lines_and_says_why_others_are_not(master, players):
    game = start(master, players)
    text = page(players[0], game)
    assert 'value="rest"' in text and 'value="travel:old_oak"' in text
    assert 'value="fight:' not in text  # week 1 (OC-3.4)
    assert "Not available now" in text and "Nobody may fight in week 1" in text and "OC-3.4" in text
    # The location list says what he may do where: travel to the Old Oak Glade, rest at the Empty Manor.
    oak = text.split('id="oc-loc-old_oak"')[1].split("</li>")[0]
    manor = text.split('id="oc-loc-manor"')[1].split("</li>")[0]
    assert "Travel to Old Oak Glade" in oak and "you are here" in manor and "Rest (+1 health)" in manor


def test_OC_4_order_saved_and_illegal_order_refused(master, players):
    game = start(master, players)
    phase = open_phase(game)
    url = reverse("october_night:order", args=[game.pk])
    c = client_for(players[0])
    c.post(url, {"phase": phase.pk, "version": 0, "main": "travel:old_oak"})
    order = Order.objects.get(phase=phase, seat__display_name="Аня")
    assert order.payload == {"action": {"kind": "travel", "to": "old_oak"}}
    status, body = api(c, "post", f"/api/games/{game.pk}/orders/",
                       {"phase": phase.pk, "payload": {"action": {"kind": "fight", "target": order.seat_id}}})
    assert status == 400
    assert Order.objects.filter(phase=phase, seat__display_name="Аня").count() == 1


def test_OC_11_order_options_for_bots(master, players):
    game = start(master, players)
    status, body = api(client_for(players[0]), "get", f"/api/games/{game.pk}/order-options/")
    assert status == 200 and body["can_order"]
    keys = {c["key"] for c in body["choices"]}
    assert "rest" in keys and "travel:old_oak" in keys and not any(k.startswith("fight:") for k in keys)


def test_OC_11_2_resolution_writes_the_dice_line(master, players):
    game = start(master, players, position={"players": [{"location": "town_square"}, {}, {}]})
    phase = open_phase(game)
    services.order_submit(phase=phase, user=players[0],
                          payload={"action": {"kind": "buy", "cards": [game.state["reserve"][0]]}})
    resolve(game)
    lines = [e.text() for e in LogEntry.objects.filter(game=game, kind="oc.check")]
    assert len(lines) == 1 and lines[0].startswith("Аня buys: ")
    assert open_phase(game).kind == "contact"


def test_OC_17_master_edits_the_data_with_validation(master, players):
    game = create(master)
    url = reverse("october_night:data", args=[game.pk])
    assert 'id="oc-data"' in page(master, game)
    client_for(master).post(url, {"data": "enemies:\n  - {slug: ghoul, location: moon}\n", "reason": "test"})
    game.refresh_from_db()
    assert "data" not in game.options
    response = client_for(master).post(url, {"data": "enemies:\n  - {slug: ghoul, location: moon}\n"}, follow=True)
    assert "enemies[ghoul].location" in htmllib.unescape(response.content.decode())
    client_for(master).post(url, {"data": "enemies:\n  - {slug: ghoul, modifier: 12}\n", "reason": "harder"})
    game.refresh_from_db()
    assert game.options["data"] == {"enemies": [{"slug": "ghoul", "modifier": 12}]}
    # Only the master, and only before the start.
    client_for(players[0]).post(url, {"data": "settings: {reserve_size: 2}\n"})
    game.refresh_from_db()
    assert "settings" not in game.options["data"]
    for user, name in zip(players, NAMES, strict=False):
        services.seat_join(game=game, user=user, display_name=name)
    services.game_start(game=game, actor=master)
    game.refresh_from_db()
    ghoul = next(e for e in game.state["data"]["enemies"] if e["slug"] == "ghoul")
    assert ghoul["modifier"] == 12


def test_OC_11_6_master_console_seat_edit_is_audited(master, players):
    from gm.core import interventions

    game = start(master, players)
    seat = game.seats.get(display_name="Боря")
    fields = interventions.seat_fields(game=game, seat=seat)
    assert fields["health"] == 6
    interventions.seat_edit(game=game, actor=master, seat_id=seat.pk, changes={"health": 2, "clues": 4},
                            reason="a disputed fight")
    game.refresh_from_db()
    assert game.state["players"][str(seat.pk)]["health"] == 2 and game.state["players"][str(seat.pk)]["clues"] == 4
    assert game.audit_entries.filter(reason="a disputed fight").exists()
    spec = game.game_module.master_seat_form(state=game.state, seat=services.seat_info(seat), phase=None)
    assert {s["key"] for s in spec} >= {"location", "health", "assets"}
    with pytest.raises(services.ServiceError):
        interventions.seat_edit(game=game, actor=master, seat_id=seat.pk, changes={"assets": ["bazooka"]},
                                reason="typo")



def test_OC_4_5_trade_and_acceptance_from_the_panel(master, players):
    game = start(master, players, position={"players": [{"location": "manor"}, {"location": "manor"}, {}]})
    phase = open_phase(game)
    ids = {s.display_name: s.pk for s in game.seats.all()}
    url = reverse("october_night:order", args=[game.pk])
    text = page(players[0], game)
    assert f'value="trade:{ids["Боря"]}"' in text and 'name="trade_give"' in text and 'name="accept_from"' in text
    # OC-14.3: an ability with a cost is offered once per ingredient it may be paid with.
    witch = page(players[1], game)
    assert 'value="ability:herbal_remedy::mandrake_root"' in witch
    assert 'value="ability:herbal_remedy::bat_wing"' in witch
    client_for(players[0]).post(url, {"phase": phase.pk, "version": 0, "main": f"trade:{ids['Боря']}",
                                      "trade_give": ["graveyard_dirt"], "trade_get": ["bat_wing"]})
    client_for(players[1]).post(url, {"phase": phase.pk, "version": 0, "accept_from": ids["Аня"],
                                      "accept_give": ["bat_wing"], "accept_get": ["graveyard_dirt"]})
    resolve(game)
    assert "bat_wing" in game.state["players"][str(ids["Аня"])]["ingredients"]
    assert "graveyard_dirt" in game.state["players"][str(ids["Боря"])]["ingredients"]


def test_OC_11_7_core_orders_api_gives_the_codes_rules_and_fields(master, players):
    """OC-11.7: a refusal through the core's ``POST /api/games/<id>/orders/`` carries every OC-18 code with its
    rule ID, field and message (``details``), all at once; nothing is saved."""
    game = start(master, players)
    phase = open_phase(game)
    me = game.seats.get(display_name="Аня").pk
    status, body = api(client_for(players[0]), "post", f"/api/games/{game.pk}/orders/",
                       {"phase": phase.pk, "payload": {"action": {"kind": "heal", "target": me}}})
    assert status == 400 and body["details"]
    assert all(d["code"] and d["rule"].startswith("OC-") and d["message"] for d in body["details"])
    assert "self" in {d["code"] for d in body["details"]}
    assert not Order.objects.filter(phase=phase).exists()


def test_OC_2_1_players_claim_sheets_at_signup_conflicts_refused(master, players):
    """OC-2.1: at sign-up each player claims a free sheet (page and API); a sheet another player claimed, or the
    master assigned to another seat, is refused naming who holds it, and nothing changes; the claims (else random
    free sheets) are the characters at the start, each sheet once."""
    game = services.game_create(master=master, module="october_night", title="October", rng_seed=5,
                                options={"sides": SIDES, "characters": [None, None, "doctor"]})
    services.game_open_signup(game=game, actor=master)
    for user, name in zip(players, NAMES, strict=False):
        services.seat_join(game=game, user=user, display_name=name)
    url = reverse("october_night:claim", args=[game.pk])
    text = page(players[0], game)
    assert 'id="oc-claim"' in text and "Doctor — Вова" in text
    client_for(players[0]).post(url, {"character": "witch"})
    anya = game.seats.get(display_name="Аня")
    assert anya.data["claim"] == "witch"
    r = client_for(players[1], language="en").post(url, {"character": "witch"}, follow=True)
    assert "Аня has already claimed this character sheet" in htmllib.unescape(r.content.decode())
    assert "claim" not in game.seats.get(display_name="Боря").data
    status, body = api(client_for(players[1]), "post", f"/api/games/{game.pk}/oc/claim/", {"character": "doctor"})
    assert status == 400 and body["code"] == "sheet_taken" and body["details"][0]["rule"] == "OC-2.1"
    status, body = api(client_for(players[1]), "post", f"/api/games/{game.pk}/oc/claim/", {"character": "ghost"})
    assert status == 400 and body["code"] == "unknown_sheet"
    status, body = api(client_for(players[1]), "post", f"/api/games/{game.pk}/oc/claim/", {"character": "count"})
    assert status == 200 and body == {"character": "count"}
    client_for(players[0]).post(url, {"character": "witch"})  # his own claim again: fine
    services.game_start(game=game, actor=master)
    game.refresh_from_db()
    chars = [game.state["players"][str(s.pk)]["character"] for s in game.seats.order_by("position")]
    assert chars == ["witch", "count", "doctor"]
    status, body = api(client_for(players[0]), "post", f"/api/games/{game.pk}/oc/claim/", {"character": "vicar"})
    assert status == 409 and body["code"] == "state"


def test_OC_17_data_edit_names_the_yaml_line_that_is_wrong(master, players):
    """OC-17: a refused data edit names the line of the master's YAML at fault with the entry and the reason."""
    game = create(master)
    url = reverse("october_night:data", args=[game.pk])
    text = "settings:\n  reserve_size: 3\nenemies:\n  - slug: ghoul\n    modifier: 12\n    location: moon\n"
    r = client_for(master, language="en").post(url, {"data": text, "reason": "x"}, follow=True)
    body = htmllib.unescape(r.content.decode())
    assert "line 6: enemies[ghoul].location: Unknown location 'moon'." in body and "OC-17" in body
    r = client_for(master, language="en").post(url, {"data": "settings:\n  clues_per_mystery: 0\n"}, follow=True)
    assert "line 2: settings.clues_per_mystery" in htmllib.unescape(r.content.decode())
    game.refresh_from_db()
    assert "data" not in game.options


def test_OC_11_6_master_edits_the_board_of_a_running_game(master, players):
    """OC-11.6: the master's board edit from the panel (YAML with a reason), audited; a bad entry is refused with
    its line and nothing changes; players see no such form."""
    game = start(master, players)
    assert 'id="oc-board-edit"' in page(master, game) and 'id="oc-board-edit"' not in page(players[0], game)
    url = reverse("october_night:board", args=[game.pk])
    before = game.state["enemies"]
    r = client_for(master, language="en").post(url, {"board": "enemies:\n  - token: ghoul\n    location: moon\n",
                                                     "reason": "fix"}, follow=True)
    assert "line 3: enemies[0].location" in htmllib.unescape(r.content.decode())
    game.refresh_from_db()
    assert game.state["enemies"] == before
    client_for(players[0]).post(url, {"board": "bag: []\n", "reason": "mine"})
    game.refresh_from_db()
    assert game.state["bag"]
    client_for(master).post(url, {"board": "enemies:\n  - {token: ghoul, location: mill}\nbag: [werewolf]\n",
                                  "reason": "a lost token"})
    game.refresh_from_db()
    assert game.state["bag"] == ["werewolf"] and game.state["enemies"][0]["location"] == "mill"
    assert game.audit_entries.filter(action="board_edit", reason="a lost token").exists()
