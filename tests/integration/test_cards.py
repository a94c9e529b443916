"""The cards app end to end on the test-only ``cardtest`` module: the collection as editable data with a per-game
snapshot (FM-4.2), secrecy of Hand, Sleeve, deck and deck list through every page and endpoint (FM-5.1), deck
submission during the deck-building stage with every broken rule at once (FM-4.3, FM-4.5), Hand reordering with
optimistic versioning (FM-4.6) and the deck builder page.

The game has four seats in ring order: ``p0`` and ``p1`` sheriffs (Damage + Recon), ``p2`` a doctor (Protection +
Sabotage), ``p3`` a sheriff whose public role is ``spendthrift``. The test client re-raises any exception a view
lets escape, so a 500 fails the test.
"""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from django.test import Client

from cards import deckrules
from cards import services as card_services
from cards.collection_data import CARDS
from cards.containers import Containers
from cards.models import CardKind, current_collection
from gm.core import services, visibility
from gm.core.models import Game, LogEntry, Phase, Seat
from gm.core.visibility import ANONYMOUS, DEAD_PLAYER, MASTER, PLAYER, SPECTATOR, VIEWER_KINDS
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

ROLES = [["sheriff", None], ["sheriff", None], ["doctor", None], ["sheriff", "spendthrift"]]
SPECIAL = {"mulligan", "ace", "dummy"}

#: Valid FM-4.3 decks: 15 non-free cards of the role's colours, one free card.
SHERIFF_DECK = (["pistol"] * 2 + ["sniper_rifle"] * 2 + ["ambush"] * 2 + ["martial_art"] * 2 + ["poison"] * 2
                + ["tail"] * 2 + ["witness"] * 2 + ["wiretap", "autopsy"])
DOCTOR_DECK = (["bunker"] * 2 + ["body_armour"] * 2 + ["bodyguard"] * 2 + ["superhero"] * 2 + ["pickpocket"] * 2
               + ["arson"] * 2 + ["hack"] * 2 + ["breach", "stimulant_shot"])
#: A sheriff's deck breaking four FM-4.3 rules at once: 14 non-free cards, 4 free ones, 3 pistols, 5 off-colour
#: cards (bunker, body_armour, hack and the free coffee and letter: colour limits count free cards too).
BROKEN_DECK = (["pistol"] * 3 + ["sniper_rifle"] * 2 + ["ambush"] * 2 + ["martial_art"] * 2 + ["poison"] * 2
               + ["bunker", "body_armour", "hack"] + ["autopsy", "coffee", "letter", "bluff"])
BROKEN_DETAILS = [
    {"rule": "FM-4.3", "code": "non_free_count", "card": None, "params": {"count": 14, "required": 15}},
    {"rule": "FM-4.3", "code": "free_count", "card": None, "params": {"count": 4, "max": 3}},
    {"rule": "FM-4.3", "code": "copies", "card": "pistol", "params": {"card": "pistol", "count": 3, "max": 2}},
    {"rule": "FM-4.3", "code": "off_colour", "card": None, "params": {"count": 5, "max": 2}},
]


# -- helpers ----------------------------------------------------------------------------------------------------


def start_card_game(master, users, *, seed: int = 4242, roles=ROLES, title: str = "Cards") -> Game:
    """A started ``cardtest`` game (deck-building stage open, deadline in one hour), seats in ``users`` order."""
    game = services.game_create(master=master, module="cardtest", title=title, options={"roles": roles},
                                rng_seed=seed)
    services.game_open_signup(game=game, actor=master)
    for i, user in enumerate(users):
        services.seat_join(game=game, user=user, display_name=f"Seat{i}")
    services.game_start(game=game, actor=master)
    game.refresh_from_db()
    return game


def seat_of(game: Game, user) -> Seat:
    return Seat.objects.get(game=game, user=user)


def open_phase(game: Game) -> Phase:
    return game.phases.exclude(status=Phase.Status.RESOLVED).get()


def end_deck_building(game: Game, master) -> None:
    """The master resolves the deck-building stage now: decks are dealt, Night 1 opens."""
    assert open_phase(game).kind == "deckbuilding"
    services.phase_resolve_now(game=game, actor=master)
    game.refresh_from_db()
    assert open_phase(game).kind == "night"


def hand_uids(seat: Seat) -> list[int]:
    seat.refresh_from_db()
    return [c["uid"] for c in seat.data["cards"]["hand"]]


def all_kinds(seat: Seat) -> Counter:
    """Every card of the seat's deck list as dealt (deck + Hand), by kind."""
    cards = seat.data["cards"]
    return Counter(c["kind"] for c in cards["deck"] + cards["hand"])


@pytest.fixture
def game(frozen, master, players) -> Game:
    return start_card_game(master, players)


# == 1. The collection as data (FM-4.2) ==========================================================================


def test_FM_4_2_migration_loaded_all_43_kinds():
    """The data migration loaded every §11 kind, pistol … dummy, with their data."""
    slugs = list(CardKind.objects.order_by("pk").values_list("slug", flat=True))
    assert len(slugs) == 43 == len(CARDS)
    assert slugs == [c["slug"] for c in CARDS]
    assert slugs[0] == "pistol" and slugs[-1] == "dummy"
    collection = current_collection()
    assert {k.slug for k in collection.kinds.values() if k.special} == SPECIAL
    for row in CARDS:
        kind = collection[row["slug"]]
        assert (kind.colour, kind.price, kind.free, kind.name_ru, kind.name_en, dict(kind.effect)) == (
            row["colour"], row["price"], row["free"], row["name_ru"], row["name_en"], row["effect"])


def test_FM_4_2_special_kinds_are_not_offered_in_deck_building(game, players):
    client = client_for(players[0])
    page = client.get(f"/games/{game.pk}/deck/").content.decode()
    assert all(f'name="n_{k.slug}"' in page for k in current_collection().buildable())
    assert len(current_collection().buildable()) == 40
    for slug in SPECIAL:
        assert f"n_{slug}" not in page
    # A deck naming special kinds is refused with FM-4.2 special_card (each kind once, with its count).
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/",
                       {"deck": SHERIFF_DECK + ["ace", "ace", "mulligan", "dummy"], "check_only": True})
    assert status == 200 and data["valid"] is False
    special = [e for e in data["errors"] if e["code"] == "special_card"]
    assert {(e["rule"], e["card"], e["params"]["count"]) for e in special} == {
        ("FM-4.2", "ace", 2), ("FM-4.2", "mulligan", 1), ("FM-4.2", "dummy", 1)}
    assert len(data["errors"]) == 3  # the special cards are left out of the counts: the rest is valid
    # ... and a special count posted through the builder page is ignored (no input for it).
    response = client.post(f"/games/{game.pk}/deck/", {**{f"n_{s}": n for s, n in Counter(SHERIFF_DECK).items()},
                                                       "n_ace": "2", "action": "submit"})
    assert response.status_code == 302
    assert "ace" not in [e["kind"] for e in seat_of(game, players[0]).data["deck_list"]]


def _admin_change_pistol(superuser, **changes) -> None:
    pistol = CardKind.objects.get(slug="pistol")
    form = {
        "slug": pistol.slug, "name_ru": pistol.name_ru, "name_en": pistol.name_en, "colour": pistol.colour,
        "price": pistol.price, "timing": pistol.timing, "target": pistol.target, "text_ru": pistol.text_ru,
        "text_en": pistol.text_en, "effect": json.dumps(pistol.effect), "_save": "Save",
    }
    if pistol.free:
        form["free"] = "on"
    form.update(changes)
    client = client_for(None)
    assert client.login(username=superuser.get_username(), password="pw-root-123")
    url = f"/admin/cards/cardkind/{pistol.pk}/change/"
    assert client.get(url).status_code == 200
    response = client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:3000]


def test_FM_4_2_admin_edit_changes_new_games_but_not_a_running_game(frozen, master, players, django_user_model):
    running = start_card_game(master, players[:2], title="Before")
    old_version = running.state["collection_version"]
    assert old_version == current_collection().version
    assert running.state["collection"] == current_collection().snapshot()

    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-123")
    _admin_change_pistol(admin, name_en="Laser Pistol", name_ru="Лазерный пистолет", price="2")

    # The database (what a new game snapshots) changed ...
    now = current_collection()
    assert (now["pistol"].name_en, now["pistol"].name_ru, now["pistol"].price) == (
        "Laser Pistol", "Лазерный пистолет", 2)
    assert now.version != old_version
    status, data = api(client_for(None), "get", "/api/cards/")
    pistol = next(c for c in data["cards"] if c["slug"] == "pistol")
    assert status == 200 and data["version"] == now.version and (pistol["name_en"], pistol["price"]) == (
        "Laser Pistol", 2)

    # ... the running game still plays with its snapshot.
    running.refresh_from_db()
    assert running.state["collection_version"] == old_version
    kept = card_services.collection_for_game(running)
    assert (kept["pistol"].name_en, kept["pistol"].name_ru, kept["pistol"].price) == ("Pistol", "Пистолет", 0)
    assert kept.version == old_version
    status, data = api(client_for(players[0]), "get", "/api/cards/", {"game": running.pk})
    pistol = next(c for c in data["cards"] if c["slug"] == "pistol")
    assert status == 200 and data["version"] == old_version
    assert (pistol["name"], pistol["name_en"], pistol["price"]) == ("Pistol", "Pistol", 0)
    # Its deck rules and dealt cards follow the snapshot too (price 0 pistol, names from the snapshot).
    end_deck_building(running, master)
    status, view = api(client_for(players[0]), "get", f"/api/games/{running.pk}/cards/")
    dealt = [c for c in view[0]["hand"] if c["kind"] == "pistol"]
    assert all((c["name"], c["price"]) == ("Pistol", 0) for c in dealt)

    # A game started after the edit gets the new version.
    later = start_card_game(master, players[2:], title="After")
    assert later.state["collection_version"] == now.version != old_version
    assert card_services.collection_for_game(later)["pistol"].name_en == "Laser Pistol"


# == 2. Secrets (FM-5.1): Hand, Sleeve, deck and deck list ======================================================

OWNER_HAND = ["autopsy", "interrogation"]
OWNER_SLEEVE = ["negotiation"]
OWNER_DECK = ["dossier", "oracle"]  # the deck's content: only the master (and, after the game, everyone) sees it
OWNER_DECK_LIST = ["hr_department", "hr_department", "surveillance_camera"]
OTHERS_CARDS = ["pistol", "bunker", "pistol"]


def _tokens(slugs) -> set[str]:
    """Every way a card can show up: its slug and both display names."""
    by_slug = {c["slug"]: c for c in CARDS}
    return {t for s in slugs for t in (s, by_slug[s]["name_ru"], by_slug[s]["name_en"])}


HAND_TOKENS = _tokens(OWNER_HAND + OWNER_SLEEVE)
DECK_TOKENS = _tokens(OWNER_DECK)
DECK_LIST_TOKENS = set(OWNER_DECK_LIST)  # stored as slugs; shown as slugs or as builder counts


def _containers(hand, sleeve, deck, first_uid=1) -> dict:
    uid = iter(range(first_uid, first_uid + 100))
    make = lambda kinds: [{"uid": next(uid), "kind": k, "provenance": "deck", "free": False} for k in kinds]  # noqa: E731
    return Containers.from_dict({"hand": make(hand), "sleeve": make(sleeve), "deck": make(deck)}).to_dict()


@pytest.fixture
def secrets(frozen, master, players, spectator):
    """Night 1 of a card game; the owner ``p1`` holds distinctive cards and deck list, ``p0`` is dead."""
    game = start_card_game(master, players)
    for user, deck in zip(players, [SHERIFF_DECK, SHERIFF_DECK, DOCTOR_DECK, SHERIFF_DECK], strict=True):
        card_services.deck_submit(game=game, user=user, entries=deck)  # (no random decks in anyone's log)
    end_deck_building(game, master)
    assert not LogEntry.objects.filter(game=game, kind__startswith="cards.random_deck").exists()
    for seat in game.seats.all():
        data = dict(seat.data)
        if seat.user == players[1]:
            data["cards"] = _containers(OWNER_HAND, OWNER_SLEEVE, OWNER_DECK)
            data["deck_list"] = [{"kind": k} for k in OWNER_DECK_LIST]
        else:
            data["cards"] = _containers(OTHERS_CARDS, [], ["pistol"])
            data["deck_list"] = [{"kind": "pistol"}]
        Seat.objects.filter(pk=seat.pk).update(data=data)
    Seat.objects.filter(game=game, user=players[0]).update(alive=False)
    # What the deck-building stage logs for a player given a random deck: the list for him, the name for the master.
    owner = seat_of(game, players[1])
    LogEntry.objects.create(game=game, visibility="seat", seat=owner, kind="cards.random_deck",
                            data={"deck": OWNER_DECK_LIST}, created_at=game.started_at)
    LogEntry.objects.create(game=game, visibility="master", kind="cards.random_deck_master",
                            data={"name": owner.display_name}, created_at=game.started_at)
    users = {"master": master, "owner": players[1], "other": players[2], "dead": players[0],
             "spectator": spectator, "anonymous": None}
    return game, users


#: viewer → kind: the table covers every viewer kind of the core.
VIEWERS = {"master": MASTER, "owner": PLAYER, "other": PLAYER, "dead": DEAD_PLAYER, "spectator": SPECTATOR,
           "anonymous": ANONYMOUS}
CHANNELS = {
    "cards_page": "/games/{id}/cards/",
    "deck_page": "/games/{id}/deck/",
    "api_cards": "/api/games/{id}/cards/",
    "api_deck": "/api/games/{id}/deck/",
    "api_seats": "/api/games/{id}/seats/",
    "game_page": "/games/{id}/",
    "feed": "/games/{id}/feed/",
    "lobby": "/",
    "api_game": "/api/games/{id}/",
    "api_log": "/api/games/{id}/log/",
    "api_phases": "/api/games/{id}/phases/",
    "api_orders": "/api/games/{id}/orders/",
    "api_posts": "/api/games/{id}/posts/",
    "api_audit": "/api/games/{id}/audit/",
}
#: (viewer, channel) → what the viewer reads there during the game: H = Hand and Sleeve, D = the deck's content,
#: L = the deck list. Missing: nothing.
SEES = {
    ("owner", "cards_page"): "H", ("owner", "deck_page"): "L", ("owner", "api_cards"): "HL",
    ("owner", "api_deck"): "L", ("owner", "api_seats"): "HL", ("owner", "game_page"): "HL",
    ("owner", "api_log"): "L",
    ("master", "cards_page"): "HD", ("master", "api_cards"): "HDL", ("master", "api_seats"): "HDL",
    ("master", "game_page"): "HDL", ("master", "api_log"): "L",
}


def _read(client: Client, url: str) -> tuple[int, str]:
    response = client.get(url)
    return response.status_code, response.content.decode()


def _builder_counts(page: str) -> dict[str, int]:
    """``n_<slug>`` input values of the deck builder page."""
    return {m[0]: int(m[1]) for m in re.findall(r'name="n_(\w+)" type="number"[^>]*value="(\d+)"', page)}


def _seen(channel: str, text: str) -> str:
    if channel == "deck_page":  # the builder lists the whole collection; the deck list shows as its counts
        counts = _builder_counts(text)
        return "L" if counts and all(counts.get(s) == n for s, n in Counter(OWNER_DECK_LIST).items()) else ""
    seen = ""
    if any(t in text for t in HAND_TOKENS):
        seen += "H"
    if any(t in text for t in DECK_TOKENS):
        seen += "D"
    if any(t in text for t in DECK_LIST_TOKENS):
        seen += "L"
    return seen


def test_secrets_table_covers_every_viewer_kind():
    assert set(VIEWERS.values()) == set(VIEWER_KINDS)


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("viewer", list(VIEWERS))
def test_FM_5_1_only_owner_and_master_read_hand_sleeve_deck_and_deck_list(secrets, viewer, language):
    """FM-5.1: only the Hand count is public; every page and endpoint goes through the visibility layer."""
    game, users = secrets
    user = users[viewer]
    assert visibility.viewer_for(user, game).kind == VIEWERS[viewer]
    client = client_for(user, language=language)
    for channel, url in CHANNELS.items():
        status, text = _read(client, url.format(id=game.pk))
        assert status in (200, 302, 401, 403, 404), (channel, status)
        seen = _seen(channel, text)
        assert seen == SEES.get((viewer, channel), ""), (viewer, channel, status)
    # The published Hand count (FM-5.1) is there for everyone.
    status, cards = api(client, "get", f"/api/games/{game.pk}/cards/")
    owner = next(v for v in cards if v["display_name"] == "Seat1")
    assert status == 200 and owner["hand_count"] == 2
    if viewer in ("master", "owner"):
        assert [c["kind"] for c in owner["hand"]] == OWNER_HAND
        assert [c["kind"] for c in owner["sleeve"]] == OWNER_SLEEVE
        assert owner["deck_count"] == 2
        assert ("deck" in owner) is (viewer == "master")  # nobody may look into his own deck (FM-4.6)
    else:
        assert set(owner) == {"seat", "display_name", "hand_count"}
    status, seats = api(client, "get", f"/api/games/{game.pk}/seats/")
    owner = next(s for s in seats if s["display_name"] == "Seat1")
    assert owner["public"] == {"hand_count": 2}
    assert ("private" in owner) is (viewer in ("master", "owner"))


def test_FM_4_6_owner_does_not_see_his_own_deck_order(secrets):
    """FM-4.6: nobody may look into his own deck (the cards API shows the owner only the deck count)."""
    game, users = secrets
    client = client_for(users["owner"])
    texts = {channel: _read(client, url.format(id=game.pk))[1] for channel, url in CHANNELS.items()}
    assert {channel for channel, text in texts.items() if "D" in _seen(channel, text)} == set()


@pytest.mark.parametrize("viewer", list(VIEWERS))
def test_FM_5_1_everything_is_revealed_after_the_game(secrets, viewer):
    game, users = secrets
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    client = client_for(users[viewer])
    status, cards = api(client, "get", f"/api/games/{game.pk}/cards/")
    owner = next(v for v in cards if v["display_name"] == "Seat1")
    assert status == 200
    assert [c["kind"] for c in owner["hand"]] == OWNER_HAND
    assert [c["kind"] for c in owner["sleeve"]] == OWNER_SLEEVE
    assert [c["kind"] for c in owner["deck"]] == OWNER_DECK
    assert owner["deck_list"] == [{"kind": k} for k in OWNER_DECK_LIST]
    for channel in ("api_seats", "game_page"):
        status, text = _read(client, CHANNELS[channel].format(id=game.pk))
        assert status == 200 and _seen(channel, text) == "HDL", channel
    status, text = _read(client, CHANNELS["cards_page"].format(id=game.pk))
    if users[viewer] is None:
        assert status == 302  # the cards page is for logged-in users; the API and the game page show all
    else:
        assert status == 200 and _seen("cards_page", text) == "HD"


# == 3. Deck submission (FM-4.5) ================================================================================


def test_FM_4_5_deck_submitted_during_the_stage_is_stored(game, players):
    client = client_for(players[0])
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": SHERIFF_DECK})
    assert status == 201 and data["valid"] is True
    assert seat_of(game, players[0]).data["deck_list"] == [{"kind": k} for k in SHERIFF_DECK]
    status, data = api(client, "get", f"/api/games/{game.pk}/deck/")
    assert status == 200 and data["valid"] is True and data["errors"] == []
    assert data["rules"]["role_colours"] == ["damage", "recon"]
    # It can be changed until the deadline.
    status, data = api(client_for(players[2]), "post", f"/api/games/{game.pk}/deck/", {"deck": DOCTOR_DECK})
    assert status == 201
    changed = SHERIFF_DECK[:-1]  # no free card now
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": changed})
    assert status == 201 and seat_of(game, players[0]).data["deck_list"] == [{"kind": k} for k in changed]


def test_FM_4_3_FM_4_5_invalid_deck_gets_every_broken_rule_at_once_and_nothing_is_stored(game, players):
    client = client_for(players[0])
    assert api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": SHERIFF_DECK})[0] == 201
    version = seat_of(game, players[0]).version
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": BROKEN_DECK})
    assert status == 400 and data["code"] == "invalid"
    assert [{k: e[k] for k in ("rule", "code", "card", "params")} for e in data["details"]] == BROKEN_DETAILS
    assert all(e["message"] for e in data["details"])
    # The sentences name the rule, with the numbers and the card's display name.
    sentences = data["errors"]["deck"]
    assert len(sentences) == 4 and all(s.endswith("(FM-4.3)") for s in sentences)
    assert any("14" in s and "15" in s for s in sentences) and any("Pistol" in s for s in sentences)
    seat = seat_of(game, players[0])
    assert seat.data["deck_list"] == [{"kind": k} for k in SHERIFF_DECK] and seat.version == version


def test_FM_4_5_check_only_returns_errors_without_storing(game, players):
    client = client_for(players[0])
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": BROKEN_DECK, "check_only": True})
    assert status == 200 and data["valid"] is False
    assert [{k: e[k] for k in ("rule", "code", "card", "params")} for e in data["errors"]] == BROKEN_DETAILS
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": SHERIFF_DECK, "check_only": True})
    assert status == 200 and data == {"valid": True, "errors": []}
    assert "deck_list" not in seat_of(game, players[0]).data


def test_FM_4_2_unknown_card_in_a_deck(game, players):
    client = client_for(players[0])
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": SHERIFF_DECK + ["laser_sword"] * 2})
    assert status == 400 and data["code"] == "invalid"
    assert [{k: e[k] for k in ("rule", "code", "card", "params")} for e in data["details"]] == [{
        "rule": "FM-4.2", "code": "unknown_card", "card": "laser_sword", "params": {"card": "laser_sword", "count": 2},
    }]
    assert "laser_sword" in data["errors"]["deck"][0] and data["errors"]["deck"][0].endswith("(FM-4.2)")
    assert "deck_list" not in seat_of(game, players[0]).data
    # Malformed entries are reported with their position, not a 500.
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": [1, {"kind": "pistol", "x": 1}]})
    assert status == 400 and [e["code"] for e in data["details"]][:2] == ["bad_entry", "bad_entry"]
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": "pistol"})
    assert status == 400 and data["details"][0]["code"] == "bad_entry"
    for body in ({"deck": None}, {"deck": [None, ["pistol"], {"kind": 5}, {"kind": {"a": 1}}]}, {},
                 {"deck": [{"kind": "pistol", "count_as": ["x"]}]}, {"deck": SHERIFF_DECK, "check_only": "maybe"},
                 {"deck": {"pistol": 2}}):
        status, data = api(client, "post", f"/api/games/{game.pk}/deck/", body)
        assert status == 400 and data["code"] == "invalid", body
    assert "deck_list" not in seat_of(game, players[0]).data


def test_FM_4_5_deck_refused_after_the_stage(game, master, players):
    client = client_for(players[0])
    end_deck_building(game, master)
    before = seat_of(game, players[0])
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": SHERIFF_DECK})
    assert status == 409 and data["code"] == "state"
    assert "deck-building stage" in data["errors"]["__all__"][0] and "FM-4.5" in data["errors"]["__all__"][0]
    after = seat_of(game, players[0])
    assert (after.data, after.version) == (before.data, before.version)
    # check_only still answers (it stores nothing).
    assert api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": SHERIFF_DECK, "check_only": True})[0] == 200


def test_FM_4_5_deck_refused_after_the_deadline(game, players, frozen):
    client = client_for(players[0])
    assert api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": SHERIFF_DECK[:-1]})[0] == 201
    frozen.shift(3601)  # past the deadline, not resolved yet
    assert open_phase(game).status == Phase.Status.OPEN
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/", {"deck": SHERIFF_DECK})
    assert status == 409 and data["code"] == "late"
    assert "deadline" in data["errors"]["__all__"][0]
    assert seat_of(game, players[0]).data["deck_list"] == [{"kind": k} for k in SHERIFF_DECK[:-1]]
    # The same through the builder page: a clear message, nothing stored.
    response = client.post(f"/games/{game.pk}/deck/", {**{f"n_{s}": n for s, n in Counter(SHERIFF_DECK).items()},
                                                      "action": "submit"})
    assert response.status_code == 400 and "The deadline of Deck building has passed" in response.content.decode()
    assert seat_of(game, players[0]).data["deck_list"] == [{"kind": k} for k in SHERIFF_DECK[:-1]]


def test_FM_4_5_random_valid_deck_for_players_without_one(game, master, players, frozen):
    assert api(client_for(players[0]), "post", f"/api/games/{game.pk}/deck/", {"deck": SHERIFF_DECK})[0] == 201
    # p1 submits nothing; p2's stored deck is made invalid behind the service's back (e.g. an edited collection).
    p2 = seat_of(game, players[2])
    Seat.objects.filter(pk=p2.pk).update(data={**p2.data, "deck_list": [{"kind": "pistol"}]})
    stage = open_phase(game)
    frozen.shift(3600)
    assert services.phases_sweep().resolved == [stage.pk]  # the deadline ends the stage
    game.refresh_from_db()
    assert open_phase(game).kind == "night" and game.status == Game.Status.RUNNING
    collection = card_services.collection_for_game(game)
    seats = {s.user: s for s in game.seats.select_related("user")}
    # p0 plays the deck he built: shuffled, six cards drawn.
    assert all_kinds(seats[players[0]]) == Counter(SHERIFF_DECK)
    for seat in seats.values():
        cards = seat.data["cards"]
        assert len(cards["hand"]) == 6 and len(cards["deck"]) == len(seat.data["deck_list"]) - 6
        rules = card_services.deck_rules_for(seat)
        assert deckrules.validate_deck(seat.data["deck_list"], collection=collection, rules=rules) == []
        assert all_kinds(seat) == Counter(e["kind"] for e in seat.data["deck_list"])
    # Each player given a random deck is told, privately; the master is told who.
    random_seats = [seats[p].pk for p in players[1:]]
    told = LogEntry.objects.filter(game=game, kind="cards.random_deck")
    assert sorted(e.seat_id for e in told) == sorted(random_seats)
    assert all(e.visibility == LogEntry.Visibility.SEAT for e in told)
    for_master = LogEntry.objects.filter(game=game, kind="cards.random_deck_master")
    assert all(e.visibility == LogEntry.Visibility.MASTER for e in for_master)
    assert sorted(e.data["name"] for e in for_master) == ["Seat1", "Seat2", "Seat3"]
    p1_view = visibility.log_entries(visibility.viewer_for(players[1], game))
    assert [e.seat_id for e in p1_view.filter(kind="cards.random_deck")] == [seats[players[1]].pk]
    assert not p1_view.filter(kind="cards.random_deck_master").exists()
    assert not visibility.log_entries(visibility.viewer_for(players[0], game)).filter(
        kind__startswith="cards.random_deck").exists()
    master_view = visibility.log_entries(visibility.viewer_for(master, game))
    assert master_view.filter(kind="cards.random_deck_master").count() == 3
    # ... and the player reads it on the game page, in his language.
    page = client_for(players[1]).get(f"/games/{game.pk}/").content.decode()
    assert "you were given a random valid deck" in page
    assert "Seat2 had no valid deck" not in page
    assert "Seat2 had no valid deck" in client_for(master).get(f"/games/{game.pk}/").content.decode()


def test_FM_4_5_same_seed_and_decks_give_the_same_hands(frozen, master, players, make_user):
    """FM-3.5 / FM-4.5: the deal (random decks, shuffles, opening hands) is reproducible from the seed."""
    others = [make_user(f"q{i}") for i in range(4)]

    def play(users, title):
        game = start_card_game(master, users, seed=99, title=title)
        api(client_for(users[0]), "post", f"/api/games/{game.pk}/deck/", {"deck": SHERIFF_DECK})
        api(client_for(users[2]), "post", f"/api/games/{game.pk}/deck/", {"deck": DOCTOR_DECK})
        end_deck_building(game, master)
        return [(s.data["deck_list"], s.data["cards"]) for s in game.seats.order_by("position")]

    first, second = play(players, "First"), play(others, "Second")
    assert first == second
    hands = [[c["kind"] for c in cards["hand"]] for _deck, cards in first]
    assert len(set(map(tuple, hands))) > 1  # (not trivially equal: the seats' hands differ)
    third = start_card_game(master, [make_user(f"r{i}") for i in range(4)], seed=100, title="Third")
    end_deck_building(third, master)
    assert [s.data["cards"] for s in third.seats.order_by("position")] != [cards for _deck, cards in first]


# == 4. Hand reorder (FM-4.6) ===================================================================================


@pytest.fixture
def night(game, master):
    """Night 1: every seat holds a 6-card Hand."""
    end_deck_building(game, master)
    return game


def _reorder(client, game, hand, version):
    return api(client, "post", f"/api/games/{game.pk}/cards/reorder/", {"hand": hand, "version": version})


def test_FM_4_6_reorder_with_the_current_version(night, players):
    seat = seat_of(night, players[0])
    uids, version = hand_uids(seat), seat.version
    client = client_for(players[0])
    new = list(reversed(uids))
    status, data = _reorder(client, night, new, version)
    assert status == 200 and [c["uid"] for c in data["hand"]] == new and data["version"] == version + 1
    seat.refresh_from_db()
    assert hand_uids(seat) == new and seat.version == version + 1

    # The same (now stale) version: 409 conflict telling to reload; nothing changes.
    status, data = _reorder(client, night, uids, version)
    assert status == 409 and data["code"] == "conflict" and "Reload" in data["errors"]["__all__"][0]
    seat.refresh_from_db()
    assert hand_uids(seat) == new and seat.version == version + 1


@pytest.mark.parametrize("case", ["not_in_hand", "missing", "duplicate", "extra", "empty"])
def test_FM_4_6_reorder_must_be_a_permutation_of_the_hand(night, players, case):
    seat = seat_of(night, players[0])
    uids, version, data_before = hand_uids(seat), seat.version, seat.data
    deck_uid = seat.data["cards"]["deck"][0]["uid"]
    hand = {"not_in_hand": uids[:-1] + [deck_uid], "missing": uids[:-1], "duplicate": uids[:-1] + [uids[0]],
            "extra": uids + [deck_uid], "empty": []}[case]
    status, data = _reorder(client_for(players[0]), night, hand, version)
    assert status == 400 and data["code"] == "invalid" and data["errors"]["hand"]
    assert "6" in data["errors"]["hand"][0]
    seat.refresh_from_db()
    assert (seat.data, seat.version) == (data_before, version)


def test_FM_4_6_reorder_bad_shapes_are_400(night, players):
    seat = seat_of(night, players[0])
    client = client_for(players[0])
    for body in ({"hand": "1,2", "version": seat.version}, {"hand": hand_uids(seat)}, {"version": seat.version},
                 {"hand": ["a"], "version": seat.version}, {"hand": hand_uids(seat), "version": "x"}):
        status, data = api(client, "post", f"/api/games/{night.pk}/cards/reorder/", body)
        assert status == 400 and data["code"] == "invalid", body
    seat_after = seat_of(night, players[0])
    assert (seat_after.data, seat_after.version) == (seat.data, seat.version)


def test_FM_4_6_reorder_refused_when_no_phase_is_open(night, master, players, frozen):
    seat = seat_of(night, players[0])
    uids, version = hand_uids(seat), seat.version
    client = client_for(players[0])
    frozen.shift(3601)  # Night 1's deadline passed; the sweep has not resolved it yet
    status, data = _reorder(client, night, list(reversed(uids)), version)
    assert status == 409 and data["code"] == "late"
    # Through the page: the message, nothing changed.
    response = client.post(f"/games/{night.pk}/cards/move/", {"uid": uids[0], "direction": "down",
                                                            "version": version}, follow=True)
    assert response.status_code == 200 and "FM-4.6" in response.content.decode()
    # After the game, there is no phase at all.
    frozen.shift(-3601)
    Game.objects.filter(pk=night.pk).update(status=Game.Status.FINISHED)
    Phase.objects.filter(game=night).update(status=Phase.Status.RESOLVED)
    status, data = _reorder(client, night, list(reversed(uids)), version)
    assert status == 409 and data["code"] == "state"  # no phase at all
    seat.refresh_from_db()
    assert hand_uids(seat) == uids and seat.version == version


def test_FM_4_6_a_paused_phase_stays_open_for_reordering_like_orders(night, master, players, frozen):
    """While the game is paused its phase is still open (orders are accepted too, FM-5.6), even past the deadline
    it had when paused; the deadline moves on resume."""
    seat = seat_of(night, players[0])
    uids = hand_uids(seat)
    services.game_pause(game=night, actor=master)
    frozen.shift(2 * 3600)
    status, data = _reorder(client_for(players[0]), night, list(reversed(uids)), seat.version)
    assert status == 200 and [c["uid"] for c in data["hand"]] == list(reversed(uids))
    order = services.order_submit(phase=open_phase(night), user=players[0], payload={"x": 1})
    assert order.version == 1


def test_FM_4_6_reorder_by_outsiders_is_refused(night, players, spectator):
    seat = seat_of(night, players[0])
    uids, version = hand_uids(seat), seat.version
    status, data = _reorder(client_for(None), night, uids, version)
    assert status in (401, 403)
    status, data = _reorder(client_for(spectator), night, uids, version)
    assert status == 403 and data["code"] == "forbidden"
    response = client_for(spectator).post(f"/games/{night.pk}/cards/move/",
                                          {"uid": uids[0], "direction": "down", "version": version})
    assert response.status_code == 404
    assert hand_uids(seat) == uids and seat_of(night, players[0]).version == version


def test_FM_4_6_another_players_cards_cant_be_reordered(night, players):
    """There is no seat parameter: a player reorders only his own Hand; naming another player's card is refused."""
    theirs = seat_of(night, players[1])
    # Give the other player uids that his neighbour does not have.
    Seat.objects.filter(pk=theirs.pk).update(
        data={**theirs.data, "cards": _containers(["pistol"] * 3, [], ["bunker"], first_uid=500)})
    theirs.refresh_from_db()
    their_data, their_version = theirs.data, theirs.version
    mine = seat_of(night, players[0])
    my_uids, my_version = hand_uids(mine), mine.version
    their_uids = hand_uids(theirs)
    client = client_for(players[0])
    status, data = _reorder(client, night, their_uids, my_version)
    assert status == 400 and data["errors"]["hand"]
    status, data = _reorder(client, night, my_uids[:-1] + [their_uids[0]], my_version)
    assert status == 400 and data["errors"]["hand"]
    response = client.post(f"/games/{night.pk}/cards/move/", {"uid": their_uids[1], "direction": "up",
                                                            "version": my_version}, follow=True)
    assert response.status_code == 200
    assert "every card of your Hand exactly once" in response.content.decode()
    theirs.refresh_from_db()
    mine.refresh_from_db()
    assert (theirs.data, theirs.version) == (their_data, their_version)
    assert hand_uids(mine) == my_uids and mine.version == my_version


def test_FM_4_6_move_buttons_without_javascript(night, players):
    seat = seat_of(night, players[0])
    uids = hand_uids(seat)
    client = client_for(players[0])
    page = client.get(f"/games/{night.pk}/cards/").content.decode()
    assert page.count('value="up"') == 5 and page.count('value="down"') == 5  # none at the ends
    assert f'name="version" value="{seat.version}"' in page
    response = client.post(f"/games/{night.pk}/cards/move/", {"uid": uids[0], "direction": "down",
                                                            "version": seat.version})
    assert response.status_code == 302 and response["Location"] == f"/games/{night.pk}/cards/"
    assert hand_uids(seat) == [uids[1], uids[0], *uids[2:]]
    seat.refresh_from_db()
    response = client.post(f"/games/{night.pk}/cards/move/", {"uid": uids[5], "direction": "up",
                                                            "version": seat.version})
    assert response.status_code == 302
    assert hand_uids(seat) == [uids[1], uids[0], uids[2], uids[3], uids[5], uids[4]]
    # Moving the front card up changes nothing but is no error.
    seat.refresh_from_db()
    version = seat.version
    client.post(f"/games/{night.pk}/cards/move/", {"uid": uids[1], "direction": "up", "version": version})
    assert hand_uids(seat)[0] == uids[1]
    # A stale version: the page says to reload, nothing changes.
    before = hand_uids(seat)
    response = client.post(f"/games/{night.pk}/cards/move/", {"uid": uids[0], "direction": "down", "version": 0},
                           follow=True)
    assert "Reload" in response.content.decode()
    assert hand_uids(seat) == before
    # Garbage: a message, no 500.
    for bad in ({"uid": "x", "version": "1"}, {"uid": "1"}, {}, {"uid": "9" * 5000, "version": "1"}):
        response = client.post(f"/games/{night.pk}/cards/move/", bad, follow=True)
        assert response.status_code == 200, bad
    assert hand_uids(seat) == before


def test_FM_4_6_move_buttons_with_htmx(night, players):
    seat = seat_of(night, players[0])
    uids = hand_uids(seat)
    client = client_for(players[0])
    response = client.get(f"/games/{night.pk}/cards/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "<html" not in response.content.decode()
    response = client.post(f"/games/{night.pk}/cards/move/", {"uid": uids[2], "direction": "up",
                                                            "version": seat.version}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body and 'id="hand-panel"' in body
    new = [uids[0], uids[2], uids[1], *uids[3:]]
    assert hand_uids(seat) == new
    seat.refresh_from_db()
    assert f'name="version" value="{seat.version}"' in body  # the panel carries the new version
    response = client.post(f"/games/{night.pk}/cards/move/", {"uid": uids[2], "direction": "up",
                                                            "version": seat.version - 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Reload" in response.content.decode()
    assert hand_uids(seat) == new


# == 5. The deck builder page (FM-4.3, FM-4.5) ==================================================================


def _rows(page: str) -> dict[str, bool]:
    """slug → whether its row is shown (not ``hidden``)."""
    rows = re.findall(r"<tr( hidden)?>\s*<td[^>]*>.*?name=\"n_(\w+)\"", page, flags=re.S)
    return {slug: not hidden for hidden, slug in rows}


def _counts_form(deck, **extra) -> dict:
    return {**{f"n_{s}": str(n) for s, n in Counter(deck).items()}, **extra}


def test_deck_builder_shows_the_collection_with_filters(game, players):
    client = client_for(players[0])
    response = client.get(f"/games/{game.pk}/deck/")
    page = response.content.decode()
    assert response.status_code == 200 and "<html" in page
    rows = _rows(page)
    assert len(rows) == 40 and all(rows.values())
    assert "Pistol" in page and "2 damage" in page  # names and effect texts in the reader's language
    assert "Пистолет" in client_for(players[0], language="ru").get(f"/games/{game.pk}/deck/").content.decode()
    rows = _rows(client.get(f"/games/{game.pk}/deck/", {"colour": "recon"}).content.decode())
    assert {s for s, shown in rows.items() if shown} == {k["slug"] for k in CARDS if k["colour"] == "recon"}
    rows = _rows(client.get(f"/games/{game.pk}/deck/", {"price": "2", "timing": "night"}).content.decode())
    assert {s for s, shown in rows.items() if shown} == {
        k["slug"] for k in CARDS if k["price"] == 2 and k["timing"] == "night" and k["colour"] != "special"}
    # Filters survive a live check (they are fields of the same form).
    response = client.post(f"/games/{game.pk}/deck/", _counts_form(SHERIFF_DECK, action="check", colour="damage"),
                           HTTP_HX_REQUEST="true")
    rows = _rows(response.content.decode())
    assert {s for s, shown in rows.items() if shown} == {k["slug"] for k in CARDS if k["colour"] == "damage"}
    # Nonsense filter values show nothing rather than fail.
    assert client.get(f"/games/{game.pk}/deck/", {"colour": "<x>", "price": "9"}).status_code == 200


def test_FM_4_3_deck_builder_live_check_with_counters(game, players):
    client = client_for(players[0])
    response = client.post(f"/games/{game.pk}/deck/", _counts_form(SHERIFF_DECK, action="check"),
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body and 'id="deck-form"' in body
    assert "Non-free: 15 / 15" in body and "Free: 1 / ≤3" in body and "This deck is valid." in body
    assert "Damage: 10" in body and "Recon: 6" in body
    response = client.post(f"/games/{game.pk}/deck/", _counts_form(BROKEN_DECK, action="check"),
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "Non-free: 14 / 15" in body and "Free: 4 / ≤3" in body and "This deck is valid." not in body
    assert body.count("(FM-4.3)") == 4
    # Without htmx: the whole page with the same check.
    response = client.post(f"/games/{game.pk}/deck/", _counts_form(BROKEN_DECK, action="check"))
    assert response.status_code == 200 and "<html" in response.content.decode()
    assert response.content.decode().count("(FM-4.3)") == 4
    assert "deck_list" not in seat_of(game, players[0]).data  # checking stores nothing


def test_FM_4_5_deck_builder_submit(game, master, players):
    client = client_for(players[0])
    response = client.post(f"/games/{game.pk}/deck/", _counts_form(SHERIFF_DECK, action="submit"))
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/deck/"
    stored = seat_of(game, players[0]).data["deck_list"]
    assert Counter(e["kind"] for e in stored) == Counter(SHERIFF_DECK)
    page = client.get(f"/games/{game.pk}/deck/").content.decode()
    assert "Your deck is saved" in page and _builder_counts(page)["pistol"] == 2
    # An invalid deck: every error, status 400, the stored deck unchanged.
    response = client.post(f"/games/{game.pk}/deck/", _counts_form(BROKEN_DECK, action="submit"))
    assert response.status_code == 400 and "(FM-4.3)" in response.content.decode()
    assert seat_of(game, players[0]).data["deck_list"] == stored
    # After the stage: no submit button, a clear message, nothing stored.
    end_deck_building(game, master)
    page = client.get(f"/games/{game.pk}/deck/").content.decode()
    assert 'value="submit"' not in page and "only during the deck-building stage" in page
    before = seat_of(game, players[0]).data
    response = client.post(f"/games/{game.pk}/deck/", _counts_form(SHERIFF_DECK[:-1], action="submit"))
    assert response.status_code == 400 and "FM-4.5" in response.content.decode()
    assert seat_of(game, players[0]).data == before


@pytest.mark.parametrize("value", ["abc", "99", "-1", "1.5", " 1 0", "²", "٣", "9" * 5000])
def test_deck_builder_bad_counts_get_a_clear_message(game, players, value):
    client = client_for(players[0])
    form = _counts_form(SHERIFF_DECK, action="submit")
    form["n_pistol"] = value
    for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(f"/games/{game.pk}/deck/", form, **htmx)
        body = response.content.decode()
        assert response.status_code in (200, 400)
        assert "“Pistol”: give a number of copies from 0 to 9." in body
    assert "deck_list" not in seat_of(game, players[0]).data


def test_deck_builder_for_outsiders(game, master, spectator):
    assert client_for(master).get(f"/games/{game.pk}/deck/").status_code == 404  # the master has no seat
    assert client_for(spectator).get(f"/games/{game.pk}/deck/").status_code == 404
    response = client_for(None).get(f"/games/{game.pk}/deck/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client_for(spectator).post(f"/games/{game.pk}/deck/", _counts_form(SHERIFF_DECK, action="submit"))
    assert response.status_code == 404


def test_FM_4_3_spendthrift_count_as_non_free_box_only_for_price_2_and_more(game, master, players):
    """FM-4.3 / FM-8 spendthrift: his price ≥ 2 cards are free unless he counts them as non-free."""
    page = client_for(players[3]).get(f"/games/{game.pk}/deck/").content.decode()
    boxes = set(re.findall(r'type="checkbox" name="nf_(\w+)"', page))
    assert boxes == {k["slug"] for k in CARDS if k["price"] >= 2 and not k["free"] and k["colour"] != "special"}
    assert {"contract", "dossier", "safe_house", "redirect"} == boxes
    for user in players[:3]:
        assert 'name="nf_' not in client_for(user).get(f"/games/{game.pk}/deck/").content.decode()

    # A spendthrift sheriff: two contracts and a dossier counted as non-free complete his 15.
    deck = ["pistol"] * 2 + ["sniper_rifle"] * 2 + ["ambush"] * 2 + ["martial_art"] * 2 + ["poison"] * 2 + [
        "tail"] * 2 + ["contract"] * 2 + ["dossier"]
    client = client_for(players[3])
    response = client.post(f"/games/{game.pk}/deck/", _counts_form(deck, action="check"), HTTP_HX_REQUEST="true")
    assert "Non-free: 12 / 15" in response.content.decode() and "Free: 3 / ≤3" in response.content.decode()
    form = _counts_form(deck, action="submit", nf_contract="on", nf_dossier="on")
    response = client.post(f"/games/{game.pk}/deck/", {**form, "action": "check"}, HTTP_HX_REQUEST="true")
    assert "Non-free: 15 / 15" in response.content.decode() and "This deck is valid." in response.content.decode()
    assert client.post(f"/games/{game.pk}/deck/", form).status_code == 302
    stored = seat_of(game, players[3]).data["deck_list"]
    assert stored.count({"kind": "contract", "count_as": "non_free"}) == 2
    assert {"kind": "dossier", "count_as": "non_free"} in stored
    # The box means nothing for a card he can't count so: refused with FM-4.3 bad_count_as.
    status, data = api(client, "post", f"/api/games/{game.pk}/deck/",
                       {"deck": [*stored, {"kind": "pistol", "count_as": "non_free"}], "check_only": True})
    assert "bad_count_as" in [e["code"] for e in data["errors"]]
    # In play his price >= 2 cards are free however they were counted (FM-8).
    end_deck_building(game, master)
    cards = seat_of(game, players[3]).data["cards"]
    assert all(c["free"] for c in cards["hand"] + cards["deck"] if c["kind"] in ("contract", "dossier"))
    assert not any(c["free"] for c in cards["hand"] + cards["deck"] if c["kind"] == "pistol")
