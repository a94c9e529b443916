"""Forum Mafia abilities in the shell (FM-3.3, FM-4.7, FM-4.8, FM-8, FM-10.6): the instant abilities (maniac's swap,
joker's mapping guess, looter, geek) through ``ability_services.ability_use``, the panel and the API; the deck
rebuild through ``ability_services.deck_rebuild``, the deck builder page and the API; the order form's "Abilities"
part; the scenario runner's instant lines; and the secrecy of what these abilities tell.

The table (Night 1, set up by the master's override) — ring order:

* Alice: sheriff, public ``looter``; Hand pistol, advice, tail; Sleeve witness, ace (a Law member holding an ace).
* Boris: mafia_boss, public ``geek``; Hand pistol, hack, advice, bluff, tail.
* Clara: doctor, public ``assassin``; Hand body_armour, bunker, advice.
* Dmitri: mafia_killer, dead; Sleeve bunker, coffee (the looter's prey).
* Eva: mafia_advisor, public ``banker``; Hand pistol (exactly one card); empty deck.
* Max: maniac, public ``magician``; Hand pistol, advice; Sleeve bunker, coffee; empty deck.
* Jack: joker (damage, recon), public ``cultist``; Hand sniper_rifle, advice, tail; Sleeve ace.

The test client re-raises any exception a view lets escape, so a 500 fails the test.
"""
from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.html import escape

from cards import deckrules
from cards.services import collection_for_game, deck_rules_for
from gm.core import services, visibility
from gm.core.models import Game, LogEntry, Order, Phase, Seat
from gm.core.scenario import ScenarioRun
from gm.core.services import ServiceError
from gm.modules.forum_mafia import scenario
from gm.modules.forum_mafia.services import abilities as ability_services
from gm.modules.forum_mafia.services.overrides import game_setup_override
from gm.modules.forum_mafia.tests.test_orders import HTMX, element
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

NAMES = ("Alice", "Boris", "Clara", "Dmitri", "Eva", "Max", "Jack")
ROLES = {"Alice": "sheriff", "Boris": "mafia_boss", "Clara": "doctor", "Dmitri": "mafia_killer",
         "Eva": "mafia_advisor", "Max": "maniac", "Jack": "joker"}


@pytest.fixture(autouse=True)
def english():
    """Service messages in English (the site's default language is Russian)."""
    with translation.override("en"):
        yield


@pytest.fixture
def users(make_user):
    return {name: make_user(name.lower()) for name in NAMES}


def _table(users, **changes):
    players = [
        {"name": "Alice", "public_role": "looter", "secret_role": "sheriff", "hand": ["pistol", "advice", "tail"],
         "sleeve": ["witness", "ace"], "deck": ["coffee", "advice"]},
        {"name": "Boris", "public_role": "geek", "secret_role": "mafia_boss",
         "hand": ["pistol", "hack", "advice", "bluff", "tail"], "sleeve": [], "deck": ["coffee"]},
        {"name": "Clara", "public_role": "assassin", "secret_role": "doctor",
         "hand": ["body_armour", "bunker", "advice"], "sleeve": [], "deck": ["coffee"]},
        {"name": "Dmitri", "public_role": "monk", "secret_role": "mafia_killer", "hand": [],
         "sleeve": ["bunker", "coffee"], "deck": [], "alive": False},
        {"name": "Eva", "public_role": "banker", "secret_role": "mafia_advisor", "hand": ["pistol"], "sleeve": [],
         "deck": []},
        {"name": "Max", "public_role": "magician", "secret_role": "maniac", "hand": ["pistol", "advice"],
         "sleeve": ["bunker", "coffee"], "deck": []},
        {"name": "Jack", "public_role": "cultist", "secret_role": "joker", "colours": ["damage", "recon"],
         "hand": ["sniper_rifle", "advice", "tail"], "sleeve": ["ace"], "deck": ["coffee"]},
    ]
    out = []
    for p in players:
        if p["name"] in changes:
            if changes[p["name"]] is None:
                continue
            p = {**p, **changes[p["name"]]}
        out.append({**p, "user": users[p["name"]]})
    return out


def _setup(master, users, *, start=("night", 1), seed=5, **changes) -> Game:
    game = services.game_create(master=master, module="forum_mafia", title="Abilities", options={}, rng_seed=seed)
    game_setup_override(game=game, actor=master, players=_table(users, **changes), start_kind=start[0],
                        start_number=start[1])
    game.refresh_from_db()
    return game


@pytest.fixture
def night(frozen, master, users):
    return _setup(master, users)


def seat(game: Game, name: str) -> Seat:
    return game.seats.get(display_name=name)


def cards(game: Game, name: str, where: str) -> list[str]:
    return [c["kind"] for c in seat(game, name).data["cards"][where]]


def uid(game: Game, name: str, kind: str, where: str = "hand") -> int:
    return next(c["uid"] for c in seat(game, name).data["cards"][where] if c["kind"] == kind)


def open_phase(game: Game) -> Phase | None:
    return game.phases.exclude(status=Phase.Status.RESOLVED).first()


def at(game: Game) -> dict:
    """What every ability and order form names: the phase it is for (the open one)."""
    return {"phase": open_phase(game).pk}


def snapshot(game: Game) -> tuple:
    """Everything an ability could change: seats (data, alive, version), the game state and status, the log."""
    game.refresh_from_db()
    seats = [(s.pk, s.data, s.alive, s.version) for s in game.seats.order_by("position")]
    return seats, game.state, game.status, LogEntry.objects.filter(game=game).count()


def use(game: Game, user, payload: dict) -> ability_services.AbilityResult:
    phase = open_phase(game)
    return ability_services.ability_use(game=game, user=user, payload=payload,
                                        phase_id=phase.pk if phase is not None else None)


def refused(game: Game, user, payload: dict) -> ServiceError:
    before = snapshot(game)
    with pytest.raises(ServiceError) as info:
        use(game, user, payload)
    assert snapshot(game) == before, "a refused ability changes nothing"
    return info.value


def entries(game: Game, kind: str) -> list[LogEntry]:
    return list(LogEntry.objects.filter(game=game, kind=kind).order_by("id"))


def valid_deck(game: Game, name: str, seed: int = 1) -> list[dict]:
    s = seat(game, name)
    return deckrules.random_valid_deck(collection=collection_for_game(game), rules=deck_rules_for(s),
                                       rng=random.Random(seed))


def api_url(game: Game, what: str = "abilities/") -> str:
    return f"/api/games/{game.pk}/{what}"


# == FM-3.3 maniac: the instant Hand↔Sleeve swap ===================================================================


def test_FM_3_3_maniac_swap_through_the_service(night, users):
    max_ = seat(night, "Max")
    pistol, coffee = uid(night, "Max", "pistol"), uid(night, "Max", "coffee", "sleeve")
    result = use(night, users["Max"], {"ability": "maniac", "mode": "swap", "hand_card": pistol,
                                       "sleeve_card": coffee})
    assert cards(night, "Max", "hand") == ["coffee", "advice"]  # the new card takes the old one's place
    assert cards(night, "Max", "sleeve") == ["bunker", "pistol"]
    assert result.seat.version == max_.version + 1 and not result.finished
    mine = entries(night, "fm.swapped")
    assert len(mine) == 1 and mine[0].visibility == "seat" and mine[0].seat_id == max_.pk
    assert mine[0].phase_id == open_phase(night).pk
    assert entries(night, "fm.t_swapped")[0].visibility == "master"
    # Any number of times, by slug too (FM-3.3 "at any moment").
    use(night, users["Max"], {"ability": "maniac", "mode": "swap", "hand_card": "coffee", "sleeve_card": "pistol"})
    assert cards(night, "Max", "hand") == ["pistol", "advice"] and cards(night, "Max", "sleeve") == ["bunker",
                                                                                                  "coffee"]
    night.refresh_from_db()
    assert night.state["fm"]["instant_seq"] == 2


def test_FM_3_3_maniac_swap_refused_changes_nothing(night, users):
    error = refused(night, users["Max"], {"ability": "maniac", "mode": "swap", "hand_card": "pistol",
                                          "sleeve_card": "ace"})
    assert error.code == "invalid" and "(FM-3.3)" in error.errors["hand_card"][0]
    assert error.details[0]["code"] == "swap_cards"
    # Not his ability (FM-8): nobody else may swap.
    error = refused(night, users["Alice"], {"ability": "maniac", "mode": "swap", "hand_card": "pistol",
                                            "sleeve_card": "witness"})
    assert error.code == "not_allowed" and "You don't have the ability “Maniac”" in str(error)


def test_FM_3_3_maniac_swap_through_the_api(night, users):
    client = client_for(users["Max"])
    status, data = api(client, "post", api_url(night), {**at(night), "ability": "maniac", "mode": "swap",
                                                        "hand_card": "advice", "sleeve_card": "bunker"})
    assert status == 200 and data["finished"] is False
    assert [c["kind"] for c in data["seat"]["private"]["cards"]["hand"]] == ["pistol", "bunker"]
    assert any("You swapped" in t for t in data["results"])
    before = snapshot(night)
    status, data = api(client, "post", api_url(night), {**at(night), "ability": "maniac", "mode": "swap",
                                                        "hand_card": "ace", "sleeve_card": "coffee"})
    assert status == 400 and data["code"] == "invalid" and data["details"][0]["code"] == "swap_cards"
    assert snapshot(night) == before


# == FM-8 looter ===================================================================================================


def test_FM_8_looter_copies_a_dead_sleeve_once_per_game(night, users):
    dmitri, alice = seat(night, "Dmitri"), seat(night, "Alice")
    error = refused(night, users["Alice"], {"ability": "looter", "target": seat(night, "Boris").pk})
    assert error.details[0]["code"] == "looter_dead" and error.errors["target"] == ["Name a dead character. (FM-8)"]
    use(night, users["Alice"], {"ability": "looter", "target": dmitri.pk})
    sleeve = seat(night, "Alice").data["cards"]["sleeve"]
    assert [c["kind"] for c in sleeve] == ["witness", "ace", "bunker", "coffee"]
    assert [c["provenance"] for c in sleeve[2:]] == ["ability", "ability"]  # FM-8: role cards pay no price
    assert cards(night, "Dmitri", "sleeve") == ["bunker", "coffee"]  # copies: the dead keep theirs
    looted = entries(night, "fm.looted")[0]
    assert looted.visibility == "seat" and looted.seat_id == alice.pk and looted.data["target"] == "Dmitri"
    # Once per game: spent.
    error = refused(night, users["Alice"], {"ability": "looter", "target": dmitri.pk})
    assert error.code == "not_allowed" and "once per game" in str(error) and "(FM-8)" in str(error)


def test_FM_8_looter_through_the_api(night, users):
    client = client_for(users["Alice"])
    dmitri = seat(night, "Dmitri").pk
    status, data = api(client, "post", api_url(night),
                       {**at(night), "ability": "looter", "target": seat(night, "Eva").pk})
    assert status == 400 and data["details"][0]["code"] == "looter_dead"
    status, data = api(client, "post", api_url(night), {**at(night), "ability": "looter", "target": dmitri})
    assert status == 200 and [c["kind"] for c in data["seat"]["private"]["cards"]["sleeve"]][-2:] == ["bunker",
                                                                                                       "coffee"]
    status, data = api(client, "post", api_url(night), {**at(night), "ability": "looter", "target": dmitri})
    assert status == 403 and data["code"] == "not_allowed" and data["details"][0]["code"] == "ability_spent"


# == FM-8 geek =====================================================================================================


def test_FM_8_geek_takes_a_collection_card_once_per_game(night, users):
    error = refused(night, users["Boris"], {"ability": "geek", "card": "ace"})  # special: not in the collection
    assert error.details[0]["code"] == "geek_card" and error.errors["card"]
    error = refused(night, users["Boris"], {"ability": "geek", "card": "no_such_card"})
    assert error.details[0]["code"] == "geek_card"
    use(night, users["Boris"], {"ability": "geek", "card": "sniper_rifle"})
    sleeve = seat(night, "Boris").data["cards"]["sleeve"]
    assert [(c["kind"], c["provenance"]) for c in sleeve] == [("sniper_rifle", "ability")]
    error = refused(night, users["Boris"], {"ability": "geek", "card": "pistol"})
    assert error.code == "not_allowed" and error.details[0]["code"] == "ability_spent"


def test_FM_8_geek_through_the_api_in_russian(night, users):
    client = client_for(users["Boris"], language="ru")
    status, data = api(client, "post", api_url(night), {**at(night), "ability": "geek", "card": "bunker"})
    assert status == 200 and any("Бункер" in t for t in data["results"])
    status, data = api(client, "post", api_url(night), {**at(night), "ability": "geek", "card": "bunker"})
    assert status == 403 and "Гик" in data["errors"]["ability"][0]


# == FM-3.3 joker: the mapping guess ===============================================================================


def right_mapping(game: Game, joker: str = "Jack") -> dict[str, str]:
    return {str(s.pk): ROLES[s.display_name] for s in game.seats.exclude(display_name=joker)}


def test_FM_3_3_joker_mapping_incomplete_or_unknown_role_is_refused(night, users):
    mapping = right_mapping(night)
    del mapping[str(seat(night, "Clara").pk)]
    error = refused(night, users["Jack"], {"ability": "joker", "mode": "guess", "mapping": mapping})
    assert error.details[0]["code"] == "mapping_incomplete" and "Clara" in error.errors["mapping"][0]
    mapping[str(seat(night, "Clara").pk)] = "dragon"
    error = refused(night, users["Jack"], {"ability": "joker", "mode": "guess", "mapping": mapping})
    assert error.details[0]["code"] == "mapping_role"


def test_FM_3_3_joker_right_guess_wins_and_leaves_the_game_goes_on_he_wins_at_its_end(frozen, master, users):
    # Only Alice (Law) and Boris (Mafia, one Hand card) besides the joker are alive.
    game = _setup(master, users, Clara=None, Eva=None, Max=None,
                  Boris={"hand": ["bluff"], "sleeve": []})
    jack = seat(game, "Jack")
    result = use(game, users["Jack"], {"ability": "joker", "mode": "guess", "mapping": right_mapping(game)})
    game.refresh_from_db()
    assert not result.finished and game.status == Game.Status.RUNNING and open_phase(game).status == "open"
    assert seat(game, "Jack").alive is False and game.state["fm"]["left"] == {str(jack.pk): "won"}
    left = entries(game, "fm.joker_left")[0]
    assert left.visibility == "public" and left.data == {"player": "Jack", "right": True}
    assert cards(game, "Alice", "sleeve") == ["witness", "ace"]  # a right guess leaves the aces alone
    # He can't act any more.
    error = refused(game, users["Jack"], {"ability": "maniac", "mode": "swap"})
    assert error.code == "not_allowed" and "left the game" in str(error)
    # The game goes on: Alice shoots Boris, whose last card goes; Law wins (FM-10.1) — and the joker with it.
    services.order_submit(phase=open_phase(game), user=users["Alice"],
                          payload={"plays": [{"card": "pistol", "from": "hand", "target": seat(game, "Boris").pk}]})
    services.phase_resolve_now(game=game, actor=master)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.outcome["winners"] == ["law", "joker"]
    assert jack.pk in game.outcome["winning_seats"]


def test_FM_3_3_joker_wrong_guess_leaves_and_every_ace_vanishes(night, users):
    mapping = right_mapping(night)
    mapping[str(seat(night, "Alice").pk)] = "doctor"
    result = use(night, users["Jack"], {"ability": "joker", "mode": "guess", "mapping": mapping})
    night.refresh_from_db()
    assert not result.finished and night.status == Game.Status.RUNNING
    assert seat(night, "Jack").alive is False and night.state["fm"]["left"][str(seat(night, "Jack").pk)] == "lost"
    assert cards(night, "Alice", "sleeve") == ["witness"] and cards(night, "Jack", "sleeve") == []
    assert "ace" in [c["kind"] for c in seat(night, "Alice").data["cards"]["discard"]]
    assert entries(night, "fm.joker_left")[0].data["right"] is False
    assert {e.data["player"] for e in entries(night, "fm.t_aces_vanish")} == {"Alice", "Jack"}
    # Alice's seat changed too: its version went up (an open Hand-reorder form of hers is now stale).
    assert seat(night, "Alice").version == 1


def test_FM_10_6_victory_right_after_an_instant_effect_finishes_the_game(frozen, master, users):
    """Only the maniac and the joker are alive; the joker's right guess takes him out: the maniac is the sole
    survivor and wins at once (FM-10.3, FM-10.6), the joker with him; the open phase is closed."""
    game = _setup(master, users, **{n: {"alive": False, "hand": []} for n in ("Alice", "Boris", "Clara", "Eva")})
    phase = open_phase(game)
    services.order_submit(phase=phase, user=users["Max"], payload={})
    client = client_for(users["Jack"])
    status, data = api(client, "post", api_url(game), {**at(game), "ability": "joker", "mode": "guess",
                                                       "mapping": right_mapping(game)})
    assert status == 200 and data["finished"] is True and data["winners"] == ["maniac", "joker"]
    game.refresh_from_db()
    phase.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert game.outcome == {"winners": ["maniac", "joker"],
                            "winning_seats": [seat(game, "Max").pk, seat(game, "Jack").pk]}
    assert phase.status == Phase.Status.RESOLVED and phase.resolved_at is not None and phase.result == {}
    assert not game.phases.exclude(status=Phase.Status.RESOLVED).exists()
    finished = entries(game, "core.game_finished")
    assert len(finished) == 1 and finished[0].phase_id == phase.pk and finished[0].data == {
        "winners": ["maniac", "joker"]}
    victory = entries(game, "fm.victory")[0]
    assert victory.visibility == "public" and victory.data == {"winner": "maniac", "players": ["Max", "Jack"]}
    assert entries(game, "fm.t_victory_check")[0].data["layer"] == "instant"
    # Nothing resolves or is used in a finished game any more.
    assert services.phase_claim(phase_id=phase.pk, early=True) is None
    status, data = api(client_for(users["Max"]), "post", api_url(game), {"phase": phase.pk, "ability": "maniac",
                                                                        "mode": "swap", "hand_card": "pistol",
                                                                        "sleeve_card": "bunker"})
    assert status == 409 and data["code"] == "stale" and data["open_phase"] is None  # the phase it named is over
    assert services.phases_sweep().resolved == []


def test_phase_resolve_finishing_a_game_uses_game_finish_without_extra_queries(frozen, master, users):
    """The finishing code moved into ``services.game_finish``: a resolution that ends the game closes no phase twice
    and makes exactly the queries it made (the phase is already resolved when the game is finished)."""
    game = _setup(master, users, **{n: {"alive": False, "hand": []} for n in ("Alice", "Clara", "Eva", "Max",
                                                                             "Jack")},
                  Boris={"hand": ["pistol", "advice"], "sleeve": []})
    # Boris (Mafia) is the only one alive with Dmitri dead: Mafia already won — the night resolves into a finish.
    phase = open_phase(game)
    frozen.move_to(phase.deadline)
    token = services.phase_claim(phase_id=phase.pk)
    with CaptureQueriesContext(connection) as ctx:
        services.phase_resolve(phase_id=phase.pk, token=token)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.outcome["winners"] == ["mafia"]
    updates = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("UPDATE") and '"core_phase"' in q["sql"]]
    assert len(updates) == 1  # the resolution's own save; game_finish found the phase resolved
    assert len(entries(game, "core.game_finished")) == 1


# == the instant abilities on the panel (no JavaScript and htmx) ====================================================


def page(client: Client, game: Game) -> str:
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def test_panel_offers_each_players_instant_abilities(night, users, master, spectator):
    html = element(page(client_for(users["Max"]), night), "fm-abilities")
    swap = element(html, "fm-instant-maniac-swap")
    assert 'name="hand_card"' in swap and ">Pistol<" in swap and 'name="sleeve_card"' in swap and ">Coffee<" in swap
    assert "any number of times" in swap
    # Max's deck is empty: the rebuild link.
    assert f'href="/games/{night.pk}/fm/rebuild/"' in element(html, "fm-rebuild")
    # The looter picks among the dead only.
    looter = element(element(page(client_for(users["Alice"]), night), "fm-abilities"), "fm-instant-looter")
    assert ">Dmitri<" in looter and ">Boris<" not in looter and "once per game · not used yet" in looter
    # The geek picks any collection card (not the special ones).
    geek = element(element(page(client_for(users["Boris"]), night), "fm-abilities"), "fm-instant-geek")
    assert 'value="sniper_rifle"' in geek and 'value="ace"' not in geek
    # The joker names a secret role for every other player, himself excepted.
    joker = element(element(page(client_for(users["Jack"]), night), "fm-abilities"), "fm-instant-joker-guess")
    for name in ("Alice", "Boris", "Clara", "Dmitri", "Eva", "Max"):
        assert f'name="map_{seat(night, name).pk}"' in joker
    assert f'name="map_{seat(night, "Jack").pk}"' not in joker and 'value="mafia_killer"' in joker
    # Clara (doctor, assassin) has no instant ability and a deck: no panel. Nor the dead, the master, spectators.
    assert not element(page(client_for(users["Clara"]), night), "fm-abilities")
    for user in (users["Dmitri"], master, spectator, None):
        assert not element(page(client_for(user), night), "fm-abilities")


def test_panel_no_js_use_redirects_with_the_result(night, users):
    client = client_for(users["Alice"])
    url = f"/games/{night.pk}/fm/abilities/"
    response = client.post(url, {**at(night), "ability": "looter", "target": str(seat(night, "Dmitri").pk)})
    assert response.status_code == 302 and response["Location"].endswith("#fm-abilities")
    html = client.get(response["Location"]).content.decode()
    assert "You copied the Sleeve of Dmitri" in html
    # Spent: the form is greyed with the reason, and a crafted POST is refused with it.
    looter = element(element(html, "fm-abilities"), "fm-instant-looter")
    assert "fm-unplayable" in looter and "<fieldset disabled>" in looter and "once per game" in looter
    response = client.post(url, {**at(night), "ability": "looter", "target": str(seat(night, "Dmitri").pk)})
    html = client.get(response["Location"]).content.decode()
    assert "You have already used “Looter” (once per game). (FM-8)" in html


def test_panel_htmx_use_rerenders_the_panel_and_the_order_form(night, users):
    client = client_for(users["Max"])
    pistol, bunker = uid(night, "Max", "pistol"), uid(night, "Max", "bunker", "sleeve")
    response = client.post(f"/games/{night.pk}/fm/abilities/", {**at(night), "ability": "maniac", "mode": "swap",
                                                               "hand_card": str(pistol),
                                                               "sleeve_card": str(bunker)}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith("<section") and "<html" not in html
    assert "You swapped Pistol, Bunker" in element(html, "fm-abilities")
    orders = element(html, "fm-orders")
    assert 'hx-swap-oob="true"' in orders and f'id="fm-pick-{pistol}"' in orders  # pistol now in the Sleeve slot
    assert f'name="sleeve" value="{pistol}"' in orders
    # Refused under htmx: the reasons in the panel, nothing changed.
    response = client.post(f"/games/{night.pk}/fm/abilities/", {**at(night), "ability": "maniac", "mode": "swap",
                                                               "hand_card": "x"}, **HTMX)
    assert "Name one card of your Hand and one of your Sleeve to swap. (FM-3.3)" in element(
        response.content.decode(), "fm-abilities")


def test_panel_htmx_joker_guess_reloads_the_page(night, users):
    data = {**at(night), "ability": "joker", "mode": "guess",
            **{f"map_{k}": v for k, v in right_mapping(night).items()}}
    response = client_for(users["Jack"]).post(f"/games/{night.pk}/fm/abilities/", data, **HTMX)
    assert response.status_code == 204 and response["HX-Refresh"] == "true"
    assert seat(night, "Jack").alive is False


# == FM-4.7 / FM-4.8: the rebuild ===================================================================================


def test_FM_4_7_rebuild_refused_while_the_deck_holds_cards(night, users):
    before = snapshot(night)
    with pytest.raises(ServiceError) as info:
        ability_services.deck_rebuild(game=night, user=users["Alice"], deck=valid_deck(night, "Alice"))
    assert info.value.code == "state" and "still holds 2 cards" in info.value.errors["deck"][0]
    assert "(FM-4.7)" in info.value.errors["deck"][0] and snapshot(night) == before
    status, data = api(client_for(users["Alice"]), "post", api_url(night, "deck/rebuild/"),
                       {"deck": valid_deck(night, "Alice")})
    assert status == 409 and data["code"] == "state"


def test_FM_4_3_invalid_rebuild_lists_every_broken_rule(night, users):
    before = snapshot(night)
    deck = ["pistol"] * 3 + ["sniper_rifle"] * 3 + ["ace"]
    with pytest.raises(ServiceError) as info:
        ability_services.deck_rebuild(game=night, user=users["Max"], deck=deck)
    codes = {d["code"] for d in info.value.details}
    assert {"copies", "non_free_count", "special_card"} <= codes, codes
    assert len(info.value.errors["deck"]) == len(info.value.details) >= 4
    assert snapshot(night) == before
    status, data = api(client_for(users["Max"]), "post", api_url(night, "deck/rebuild/"), {"deck": deck})
    assert status == 400 and {d["code"] for d in data["details"]} == codes


def test_FM_8_magician_first_rebuild_makes_the_bottom_two_free(night, users):
    deck = valid_deck(night, "Max")
    result = ability_services.deck_rebuild(game=night, user=users["Max"], deck=deck)
    new = result.seat.data["cards"]["deck"]
    assert len(new) == len(deck) and sorted(c["kind"] for c in new) == sorted(e["kind"] for e in deck)
    assert [c["free"] for c in new[-2:]] == [True, True]
    assert not any(c["free"] for c in new[:-2] if not collection_for_game(night)[c["kind"]].free)
    assert result.seat.data["deck_list"] == deck
    rebuilt = entries(night, "fm.rebuilt")[0]
    assert rebuilt.visibility == "seat" and rebuilt.seat_id == result.seat.pk and rebuilt.data == {
        "count": len(deck)}
    night.refresh_from_db()
    assert night.state["fm"]["rebuilds"] == {str(result.seat.pk): 1}


def test_FM_8_magician_second_rebuild_has_no_free_bottom(night, users):
    ability_services.deck_rebuild(game=night, user=users["Max"], deck=valid_deck(night, "Max"))
    max_ = seat(night, "Max")
    data = max_.data
    data["cards"]["discard"] += data["cards"]["deck"]
    data["cards"]["deck"] = []
    Seat.objects.filter(pk=max_.pk).update(data=data)
    result = ability_services.deck_rebuild(game=night, user=users["Max"], deck=valid_deck(night, "Max", 2))
    collection = collection_for_game(night)
    assert [c["free"] for c in result.seat.data["cards"]["deck"][-2:]] == [
        collection[c["kind"]].free for c in result.seat.data["cards"]["deck"][-2:]]


def test_FM_8_banker_draws_one_card_of_the_new_deck_into_the_sleeve(night, users):
    deck = valid_deck(night, "Eva")
    status, data = api(client_for(users["Eva"]), "post", api_url(night, "deck/rebuild/"), {"deck": deck})
    assert status == 200
    box = seat(night, "Eva").data["cards"]
    assert len(box["deck"]) == len(deck) - 1 and len(box["sleeve"]) == 1
    assert any("You drew into your Sleeve" in t for t in data["results"])
    assert entries(night, "fm.drew_sleeve")[0].seat_id == seat(night, "Eva").pk


def test_FM_4_8_rebuild_recharges_the_mafia_message(night, users):
    eva = seat(night, "Eva")
    night.state["fm"]["used"] = {str(eva.pk): ["mafia_message"]}
    night.save(update_fields=["state"])
    message = element(element(page(client_for(users["Eva"]), night), "fm-orders"), "fm-ability-mafia_advisor-message")
    assert "fm-unplayable" in message and "used · rebuilding your deck recharges it" in message
    ability_services.deck_rebuild(game=night, user=users["Eva"], deck=valid_deck(night, "Eva"))
    night.refresh_from_db()
    assert night.state["fm"]["used"][str(eva.pk)] == []
    message = element(element(page(client_for(users["Eva"]), night), "fm-orders"), "fm-ability-mafia_advisor-message")
    assert "fm-unplayable" not in message and "once until your next rebuild · ready" in message


def test_FM_4_7_rebuild_on_the_deck_builder_page(night, users):
    client = client_for(users["Max"])
    url = f"/games/{night.pk}/fm/rebuild/"
    html = client.get(url).content.decode()
    assert "Rebuild your deck" in html and f'action="{url}"' in html and "Rebuild my deck" in html
    # Alice's deck is not empty: no submit button, and why.
    html = client_for(users["Alice"]).get(url).content.decode()
    assert "Rebuild my deck" not in html and "still holds 2 cards" in html
    # Live check (htmx) and a refused submit with every broken rule.
    response = client.post(url, {"n_pistol": "3", "action": "submit"})
    assert response.status_code == 400 and "(FM-4.3)" in response.content.decode()
    assert seat(night, "Max").data["cards"]["deck"] == []
    post = {}
    for entry in valid_deck(night, "Max"):
        post[f"n_{entry['kind']}"] = str(int(post.get(f"n_{entry['kind']}", "0")) + 1)
        if entry.get("count_as"):
            post[f"nf_{entry['kind']}"] = "on"
    response = client.post(url, {**post, "action": "check"}, **HTMX)
    assert response.status_code == 200 and "This deck is valid." in response.content.decode()
    response = client.post(url, {**post, "action": "submit"})
    assert response.status_code == 302 and response["Location"].endswith("#fm-abilities")
    assert len(seat(night, "Max").data["cards"]["deck"]) == 15
    assert "Your new deck is shuffled" in client.get(response["Location"]).content.decode()


def test_rebuild_reproducible_from_the_phase_seed_and_the_counter(frozen, master, users, make_user):
    decks = []
    for run in range(2):
        others = {n: make_user(f"{n.lower()}{run}") for n in NAMES}
        game = _setup(master, others, seed=9)
        deck = valid_deck(game, "Max")
        result = ability_services.deck_rebuild(game=game, user=others["Max"], deck=deck)
        decks.append([c["kind"] for c in result.seat.data["cards"]["deck"]])
    assert decks[0] == decks[1]


# == the order form's "Abilities" part (FM-3, FM-8) ================================================================


def orders_html(game: Game, user) -> str:
    return element(page(client_for(user), game), "fm-orders")


def submit(client: Client, game: Game, data: dict):
    return client.post(f"/games/{game.pk}/fm/orders/", {"action": "submit", **at(game), **data}, **HTMX)


def test_order_form_offers_the_phase_abilities_with_uses_left(night, users):
    html = orders_html(night, users["Max"])
    abilities = element(html, "fm-order-abilities")
    damage = element(abilities, "fm-ability-maniac-damage")
    assert "2 damage to a target" in damage and "once per night" in damage and "disabled" not in element(
        damage, "fm-ab-maniac-damage")
    assert "fm-ab-maniac-swap" not in abilities  # instant: on the panel, not ordered
    pay = element(damage, "fm-ab_pay_maniac-damage")
    assert ">Bunker<" in pay and ">Coffee<" in pay
    target = element(damage, "fm-ab_target_maniac-damage")
    assert ">Boris<" in target and ">Max<" not in target and ">Dmitri<" not in target
    # The assassin (Clara) may kill only a character with exactly 1 Hand card: Eva.
    assassin = element(orders_html(night, users["Clara"]), "fm-ability-assassin")
    assert "once per game · not used yet" in assassin
    assert [n for n in NAMES if f">{n}<" in element(assassin, "fm-ab_target_assassin")] == ["Eva"]
    # The joker's two, the Mafia message with its text and the other living mafiosi only.
    joker = element(orders_html(night, users["Jack"]), "fm-order-abilities")
    assert element(joker, "fm-ability-joker-hr") and "once per phase" in element(joker, "fm-ability-joker-ace")
    message = element(orders_html(night, users["Boris"]), "fm-ability-mafia_boss-message")
    assert element(message, "fm-ab_text_mafia_boss-message")
    assert [n for n in NAMES if f">{n}<" in element(message, "fm-ab_target_mafia_boss-message")] == ["Eva"]
    # Alice (sheriff, looter) has no phase ability.
    assert not element(orders_html(night, users["Alice"]), "fm-order-abilities")


def test_order_form_submits_an_ability_with_the_order(night, users):
    client = client_for(users["Max"])
    coffee, boris = uid(night, "Max", "coffee", "sleeve"), seat(night, "Boris").pk
    pistol = uid(night, "Max", "pistol")
    response = submit(client, night, {"hand": pistol, f"target_{pistol}": boris, "abilities": "maniac-damage",
                                      "ab_target_maniac-damage": boris, "ab_pay_maniac-damage": coffee})
    assert "Your order is saved" in response.content.decode()
    order = Order.objects.filter(seat=seat(night, "Max")).order_by("-version").first()
    assert order.payload["abilities"] == [{"ability": "maniac", "mode": "damage", "target": boris, "pay": coffee}]
    html = orders_html(night, users["Max"])
    assert "Ability: Maniac (damage) → Boris · paid with Coffee" in html
    assert "checked" in element(html, "fm-ab-maniac-damage")  # the form shows the current order
    assert f'value="{coffee}" selected' in element(html, "fm-ab_pay_maniac-damage")


def test_order_form_refuses_a_spent_ability_with_the_reason(night, users):
    clara = seat(night, "Clara")
    night.state["fm"]["used"] = {str(clara.pk): ["assassin"]}
    night.save(update_fields=["state"])
    html = orders_html(night, users["Clara"])
    row = element(html, "fm-ability-assassin")
    assert "fm-unplayable" in row and "disabled" in element(row, "fm-ab-assassin")
    assert "You have already used “Assassin” (once per game)." in row and "once per game · used" in row
    # Posted anyway: refused next to the ability, nothing stored.
    response = submit(client_for(users["Clara"]), night, {"abilities": "assassin",
                                                         "ab_target_assassin": seat(night, "Eva").pk})
    row = element(response.content.decode(), "fm-ability-assassin")
    assert "You have already used “Assassin” (once per game). (FM-8)" in row
    assert not Order.objects.filter(seat=clara).exists()


def test_order_form_night_only_abilities_greyed_by_day(frozen, master, users):
    game = _setup(master, users, start=("day", 1))
    row = element(orders_html(game, users["Max"]), "fm-ability-maniac-damage")
    assert "fm-unplayable" in row and "can only be used at night" in row
    assert "fm-unplayable" not in element(orders_html(game, users["Jack"]), "fm-ability-joker-ace")


def test_order_form_ability_errors_go_next_to_their_input(night, users):
    response = submit(client_for(users["Max"]), night, {"abilities": "maniac-damage",
                                                       "ab_target_maniac-damage": seat(night, "Boris").pk})
    row = element(response.content.decode(), "fm-ability-maniac-damage")
    assert "Name a card of your Sleeve to discard for it. (FM-3.3)" in row
    assert not Order.objects.exists()


def test_order_options_api_lists_the_abilities(night, users):
    status, data = api(client_for(users["Max"]), "get", f"/api/games/{night.pk}/order-options/")
    assert status == 200 and data["pay_from_hand"] is False
    by_key = {a["key"]: a for a in data["abilities"]}
    assert set(by_key) == {"maniac-damage", "maniac-armour", "maniac-swap"}
    assert by_key["maniac-swap"]["instant"] is True and by_key["maniac-swap"]["uses_left"] is None
    assert by_key["maniac-damage"]["pay_choices"] == [uid(night, "Max", "bunker", "sleeve"),
                                                      uid(night, "Max", "coffee", "sleeve")]


def test_FM_8_cultist_pays_a_price_from_the_hand(night, users):
    client = client_for(users["Jack"])
    sniper, advice = uid(night, "Jack", "sniper_rifle"), uid(night, "Jack", "advice")
    html = orders_html(night, users["Jack"])
    assert element(html, f"fm-pay_hand_{sniper}-{advice}")
    response = submit(client, night, {"hand": sniper, f"target_{sniper}": seat(night, "Boris").pk,
                                      f"pay_hand_{sniper}": advice})
    assert "Your order is saved" in response.content.decode()
    play = Order.objects.get(seat=seat(night, "Jack")).payload["plays"][0]
    assert play["pay_hand"] == [advice] and "pay" not in play
    html = orders_html(night, users["Jack"])
    assert "paid from the Hand with Advice" in html
    assert "checked" in element(html, f"fm-pay_hand_{sniper}-{advice}")
    assert "checked" not in element(html, f"fm-pay_{sniper}-{uid(night, 'Jack', 'ace', 'sleeve')}")
    # Nobody else gets the Hand inputs.
    pistol = uid(night, "Max", "pistol")
    assert f"pay_hand_{pistol}" not in orders_html(night, users["Max"])


# == the scenario runner's instant lines ============================================================================


def _scenario(steps: list[dict]) -> dict:
    players = []
    for p in _table({n: None for n in NAMES}):
        players.append({k: v for k, v in p.items() if k != "user"})
    return {"game": "forum_mafia", "seed": 3, "players": players, "steps": steps}


def _run(data: dict) -> ScenarioRun:
    from django.db import transaction

    run = None
    try:
        with transaction.atomic():
            run = scenario.run(data, name="abilities")
            raise _Rollback
    except _Rollback:
        pass
    return run


class _Rollback(Exception):
    pass


def test_scenario_instant_lines_run_at_once_in_file_order(frozen):
    run = _run(_scenario([{
        "phase": "night 1",
        "orders": [
            {"player": "Max", "ability": "maniac", "mode": "swap", "hand_card": "pistol", "sleeve_card": "bunker"},
            # After the swap the pistol is in his Sleeve: he plays it from there.
            {"player": "Max", "card": "pistol", "from": "sleeve", "target": "Boris"},
            {"player": "Alice", "ability": "looter", "target": "Dmitri"},
            {"player": "Alice", "ability": "looter", "target": "Dmitri"},
            {"player": "Boris", "ability": "geek", "card": "sniper_rifle"},
        ],
        "expect": {
            "rejected": [{"player": "Alice", "ability": "looter", "reason": "submission"}],
            "players": {"Max": {"hand": ["bunker", "advice"], "sleeve": ["coffee"]},
                        "Alice": {"sleeve": ["witness", "ace", "bunker", "coffee"]},
                        "Boris": {"sleeve": ["sniper_rifle"]}},
            "private_log": {"Max": "swapped", "Alice": "Dmitri"},
            "next_phase": "day 1",
        },
    }]))
    assert run.failures == []


def test_scenario_joker_guess_by_names_ends_the_game(frozen):
    data = _scenario([{
        "phase": "night 1",
        "orders": [{"player": "Jack", "ability": "joker", "mode": "guess",
                    "mapping": {n: r for n, r in ROLES.items() if n != "Jack"}}],
        "expect": {"next_phase": "none", "winner": "maniac", "public_log_contains": ["Jack"]},
    }])
    for p in data["players"]:
        if p["name"] not in ("Max", "Jack"):
            p["alive"] = False
    run = _run(data)
    assert run.failures == [] and run.game.outcome["winners"] == ["maniac", "joker"]
    # An incomplete mapping is a refused line.
    data["steps"][0]["orders"][0]["mapping"] = {}
    data["steps"][0]["expect"] = {"rejected": [{"player": "Jack", "ability": "joker"}], "next_phase": "day 1"}
    assert _run(data).failures == []


# == secrecy: what these abilities tell reaches only their owner and the master ===================================


def test_ability_results_reach_only_their_owner_and_the_master(night, users, master, spectator):
    use(night, users["Max"], {"ability": "maniac", "mode": "swap", "hand_card": "pistol", "sleeve_card": "bunker"})
    use(night, users["Alice"], {"ability": "looter", "target": seat(night, "Dmitri").pk})
    use(night, users["Boris"], {"ability": "geek", "card": "sniper_rifle"})
    ability_services.deck_rebuild(game=night, user=users["Eva"], deck=valid_deck(night, "Eva"))
    secret = {"fm.swapped": "Max", "fm.looted": "Alice", "fm.geek_card": "Boris", "fm.rebuilt": "Eva",
              "fm.drew_sleeve": "Eva"}
    night.refresh_from_db()
    kinds = {e.kind for e in LogEntry.objects.filter(game=night)}
    assert set(secret) <= kinds and {"fm.t_swapped", "fm.t_looted", "fm.t_geek_card", "fm.t_rebuilt"} <= kinds
    for kind, owner in secret.items():
        entry = LogEntry.objects.get(game=night, kind=kind)
        for who in (*users, "master", "spectator", "anonymous"):
            user = users.get(who) if who in users else master if who == "master" else spectator \
                if who == "spectator" else None
            viewer = visibility.viewer_for(user, night)
            sees = visibility.log_entries(viewer).filter(pk=entry.pk).exists()
            assert sees == (who in (owner, "master")), (kind, who, viewer.kind)
    # The master's trace of them: the master only (the dead player Dmitri included among those who don't see).
    for entry in LogEntry.objects.filter(game=night, kind__startswith="fm.t_"):
        kinds_seeing = {visibility.viewer_for(u, night).kind for u in (*users.values(), master, spectator, None)
                        if visibility.log_entries(visibility.viewer_for(u, night)).filter(pk=entry.pk).exists()}
        assert kinds_seeing == {"master"}, entry.kind
    # On the page: Max's result is in his results, nobody else's.
    with translation.override("en"):
        text = LogEntry.objects.get(game=night, kind="fm.swapped").text()
    assert escape(text) in element(page(client_for(users["Max"]), night), "fm-results")
    for user in (users["Alice"], users["Dmitri"], spectator, None):
        assert escape(text) not in page(client_for(user), night)


def test_api_schema_documents_the_ability_endpoints():
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = response.json()["paths"]
    use_op = paths["/api/games/{id}/fm/abilities/"]["post"]
    rebuild_op = paths["/api/games/{id}/fm/deck/rebuild/"]["post"]
    assert use_op["operationId"] == "fm_ability_use" and rebuild_op["operationId"] == "fm_deck_rebuild"
    assert "FmAbilityUse" in str(use_op["requestBody"]) and "FmAbilityResult" in str(use_op["responses"])


def test_api_refuses_outsiders(night, users, master, spectator):
    body = {**at(night), "ability": "geek", "card": "bunker"}
    for user, code in ((master, "forbidden"), (spectator, "forbidden"), (users["Dmitri"], "not_allowed")):
        status, data = api(client_for(user), "post", api_url(night), body)
        assert (status, data["code"]) == (403, code), user
    status, data = api(Client(), "post", api_url(night), body)
    assert status == 403 and data["code"] == "not_authenticated"
    status, data = api(client_for(users["Boris"]), "post", api_url(night), {**at(night), "ability": "wizard"})
    assert status == 400 and "ability" in data["errors"]
    assert Seat.objects.get(display_name="Boris").data["cards"]["sleeve"] == []
