"""Forum Mafia from the start of the game to Night 1, end to end: dealing the secret roles (FM-3.4, FM-3.5),
the deck-building stage with the joker's colours and the engineer's picks, the opening (FM-4.5) with every
start-of-game role effect (FM-3.1, FM-3.3, FM-8), the lucky's redeals during Night 1, the player's panel on the game
page, and the secrecy of roles, decks and Hands through every page and endpoint in both languages.

Seats are created with the core ``seat_join`` and given their claimed public role directly (the forum Mafia signup
form arrives separately). The test client re-raises any exception a view lets escape, so a 500 fails the test.
"""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from cards import deckrules
from cards import services as card_services
from cards.collection_data import CARDS
from cards.containers import Containers
from gm.core import services, visibility
from gm.core.models import Game, GroupMembership, LogEntry, Phase, Seat
from gm.core.services import ServiceError
from gm.modules.forum_mafia.engine.roles import LAW_ROLES, MAFIA_ROLES, PUBLIC_ROLE_BY_SLUG, SECRET_ROLES
from gm.modules.forum_mafia.services import setup as setup_services
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

CARD_NAMES = {c["slug"]: (c["name_ru"], c["name_en"]) for c in CARDS}
HOUR = 3600


# -- helpers ----------------------------------------------------------------------------------------------------


def fm_game(master, users, public, *, options=None, seed: int = 4242, title: str = "FM") -> Game:
    """A started forum Mafia game (deck-building stage open) with ``users`` seated in that order, each claiming
    the public role of ``public`` (a slug or ``{"custom": name}``)."""
    game = services.game_create(master=master, module="forum_mafia", title=title, options=options or {},
                                rng_seed=seed)
    services.game_open_signup(game=game, actor=master)
    for i, (user, role) in enumerate(zip(users, public, strict=True)):
        seat = services.seat_join(game=game, user=user, display_name=f"Seat{i}")
        Seat.objects.filter(pk=seat.pk).update(data={"public_role": role})
    services.game_start(game=game, actor=master)
    game.refresh_from_db()
    return game


def open_phase(game: Game) -> Phase:
    return game.phases.exclude(status=Phase.Status.RESOLVED).get()


def end_deck_building(game: Game, master) -> None:
    assert open_phase(game).kind == "deckbuilding"
    services.phase_resolve_now(game=game, actor=master)
    game.refresh_from_db()
    phase = open_phase(game)
    assert (phase.kind, phase.number) == ("night", 1)


def seats_by(game: Game, key: str) -> dict:
    """Seats of ``game`` keyed by their public role (``key="public"``) or secret role (``key="secret"``; lists)."""
    seats = list(game.seats.select_related("user").order_by("position"))
    if key == "public":
        return {s.data["public_role"] if isinstance(s.data["public_role"], str) else "custom": s for s in seats}
    out: dict[str, list[Seat]] = {}
    for s in seats:
        out.setdefault(s.data["secret_role"], []).append(s)
    return out


def submit_valid_deck(game: Game, seat: Seat, rng_seed: int = 1) -> list[dict]:
    """Submit a (seeded random) deck that is valid for ``seat``'s roles through the service."""
    rules = card_services.deck_rules_for(seat)
    deck = deckrules.random_valid_deck(collection=card_services.collection_for_game(game), rules=rules,
                                       rng=random.Random(rng_seed))
    card_services.deck_submit(game=game, user=seat.user, entries=deck)
    return deck


def snapshot(game: Game) -> tuple:
    """Everything the start-stretch services may change: every seat's data and version, and the log."""
    seats = tuple((s.pk, json.dumps(s.data, sort_keys=True), s.version) for s in game.seats.order_by("pk"))
    return seats, LogEntry.objects.filter(game=game).count()


def refused(code: str, call, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == code, err.value.errors
    return err.value


def hand(seat: Seat) -> list[str]:
    seat.refresh_from_db()
    return [c["kind"] for c in seat.data["cards"]["hand"]]


# == FM-3.4 / FM-3.5: dealing ===================================================================================


def expected_row(n: int, hero: bool) -> dict:
    joker_or_traitor = 0 if n < 13 else 1 if n <= 14 else 2
    return {"mafia": 3, "maniac": int(n >= 11), "joker_or_traitor": joker_or_traitor, "hero": int(hero),
            "law": n - 3 - (n >= 11) - joker_or_traitor - hero}


@pytest.mark.parametrize("hero", [False, True], ids=["no_hero", "hero"])
@pytest.mark.parametrize("n", range(5, 17))
def test_FM_3_4_game_start_deals_the_setup_table(frozen, master, make_user, n, hero):
    users = [make_user(f"u{i}") for i in range(n)]
    game = fm_game(master, users, ["authority"] * n, options={"hero": hero}, seed=1000 + n)
    roles = Counter(s.data["secret_role"] for s in game.seats.all())
    row = expected_row(n, hero)
    assert sum(roles.values()) == n
    assert {r: roles[r] for r in MAFIA_ROLES} == {r: 1 for r in MAFIA_ROLES}
    assert roles["maniac"] == row["maniac"] and roles["hero"] == row["hero"]
    assert roles["joker"] + roles["traitor"] == row["joker_or_traitor"]
    if n >= 15:
        assert roles["joker"] == roles["traitor"] == 1
    assert sum(roles[r] for r in LAW_ROLES) == row["law"]
    assert all(s.data["faction"] == SECRET_ROLES[s.data["secret_role"]].faction for s in game.seats.all())
    mafia = {s.pk for s in game.seats.all() if s.data["secret_role"] in MAFIA_ROLES}
    assert set(GroupMembership.objects.filter(game=game, group="faction:mafia").values_list("seat_id", flat=True)) \
        == mafia
    assert (open_phase(game).kind, game.status) == ("deckbuilding", Game.Status.SETUP)


def test_FM_3_4_joker_or_traitor_at_13_is_random(frozen, master, make_user):
    users = [make_user(f"u{i}") for i in range(13)]
    seen = set()
    for seed in range(12):
        game = fm_game(master, users, ["authority"] * 13, seed=seed, title=f"G{seed}")
        roles = Counter(s.data["secret_role"] for s in game.seats.all())
        assert roles["joker"] + roles["traitor"] == 1
        seen |= {r for r in ("joker", "traitor") if roles[r]}
    assert seen == {"joker", "traitor"}


def _deal(game: Game) -> list[str]:
    return [s.data["secret_role"] for s in game.seats.order_by("position")]


def test_FM_3_5_same_seed_deals_the_same_roles(frozen, master, make_user):
    users = [make_user(f"u{i}") for i in range(24)]
    first = fm_game(master, users[:12], ["authority"] * 12, options={"hero": True}, seed=777, title="A")
    again = fm_game(master, users[12:], ["authority"] * 12, options={"hero": True}, seed=777, title="B")
    assert _deal(first) == _deal(again)
    assert first.rng_seed == 777  # recorded with the game, so the master can reproduce the deal
    # The master's log holds the deal.
    (deal,) = LogEntry.objects.filter(game=first, kind="fm.deal")
    assert deal.visibility == "master"
    assert deal.data["deal"] == {s.display_name: s.data["secret_role"] for s in first.seats.all()}


def test_FM_3_5_different_seeds_deal_differently(frozen, master, make_user):
    users = [make_user(f"u{i}") for i in range(12)]
    deals = set()
    for seed in (1, 2, 3):
        game = fm_game(master, users, ["authority"] * 12, seed=seed, title=f"S{seed}")
        deals.add(tuple(_deal(game)))
    assert len(deals) == 3


FIXED = ["mafia_boss", "mafia_advisor", "mafia_killer", "joker", "hero", "sheriff"]


def test_FM_3_4_fixed_composition_validated_and_dealt(frozen, master, make_user):
    err = refused("invalid", services.game_create, master=master, module="forum_mafia", title="X",
                  options={"roles": ["mafia_boss", "mafia_boss", "wizard"]})
    assert any("wizard" in m and "(FM-3.4)" in m for m in err.errors["options.roles"])
    assert any("(FM-3.1)" in m for m in err.errors["options.roles"])
    refused("invalid", services.game_create, master=master, module="forum_mafia", title="X",
            options={"roles": "sheriff"})
    users = [make_user(f"u{i}") for i in range(7)]
    # One role per player: 6 roles for 7 players can't start (and nothing is dealt).
    game = services.game_create(master=master, module="forum_mafia", title="Fixed", options={"roles": FIXED},
                                rng_seed=5)
    services.game_open_signup(game=game, actor=master)
    for i, user in enumerate(users):
        services.seat_join(game=game, user=user, display_name=f"Seat{i}")
    err = refused("state", services.game_start, game=game, actor=master)
    assert any("(FM-3.4)" in m for m in err.errors["roles"])
    game.refresh_from_db()
    assert game.status == Game.Status.SIGNUP and not any(s.data for s in game.seats.all())
    services.seat_leave(game=game, user=users[-1])
    services.game_start(game=game, actor=master)
    assert Counter(_deal(game)) == Counter(FIXED)


# == The opening game: FM-4.5 and the start effects ==============================================================

#: Public roles in ring order: every FM-8 role with a start effect, then two without.
PUBLIC = ["strongman", "geek", "cardsharp", "engineer", "lucky", "psychic", "gossip", "patrolman", "rich_man",
          "paranoid", "secretary", "guard", "jock", "fortune_teller", "alien", "operator", "undertaker", "jedi",
          "fighter", "addict", "authority", {"custom": "Baker"}]
COMPOSITION = ["mafia_boss", "mafia_advisor", "mafia_killer", "maniac", "joker", "hero", "traitor",
               "sheriff", "commissioner", "doctor", "agent", "judge", "vigilante", "policeman", "detective",
               "sheriff", "doctor", "judge", "agent", "commissioner", "vigilante", "sheriff"]
#: FM-8 roles with a start card in the Sleeve.
START_CARDS = {"gossip": "unlimited_plan", "patrolman": "witness", "rich_man": "dummy", "paranoid": "bunker",
               "secretary": "coffee", "guard": "surveillance_camera", "jock": "last_stand",
               "fortune_teller": "oracle", "alien": "superhero", "operator": "letter", "undertaker": "autopsy",
               "jedi": "breach", "fighter": "martial_art", "addict": "stimulant_shot"}
JOKER_COLOURS = ["recon", "support"]


@pytest.fixture
def table(frozen, master, make_user):
    """22 players in deck building: the joker has chosen his colours; the engineer has submitted a deck and
    picked two of its cards; every player at an even position has submitted a valid deck, the others none."""
    users = [make_user(f"u{i}") for i in range(len(PUBLIC))]
    game = fm_game(master, users, PUBLIC, options={"roles": COMPOSITION}, seed=90210)
    by_secret = seats_by(game, "secret")
    (joker,) = by_secret["joker"]
    setup_services.joker_colours_choose(game=game, user=joker.user, colours=JOKER_COLOURS)
    for seat in game.seats.select_related("user").order_by("position"):
        seat.refresh_from_db()
        if seat.position % 2 == 0 or seat.data["public_role"] == "engineer":
            submit_valid_deck(game, seat, rng_seed=seat.position)
    engineer = seats_by(game, "public")["engineer"]
    engineer.refresh_from_db()
    counts = Counter(e["kind"] for e in engineer.data["deck_list"])
    picks = sorted(counts)[-2:]  # two different kinds of his deck
    setup_services.engineer_picks_set(game=game, user=engineer.user, picks=picks)
    return game


@pytest.fixture
def night(table, master):
    end_deck_building(table, master)
    return table


def test_FM_4_5_opening_hands_of_six_and_night_1_opens_with_its_deadline(night, frozen):
    phase = open_phase(night)
    assert (phase.kind, phase.number, phase.status) == ("night", 1, Phase.Status.OPEN)
    assert phase.deadline == timezone.now() + timedelta(seconds=24 * HOUR)  # the night's duration
    assert night.status == Game.Status.RUNNING
    opened = LogEntry.objects.filter(game=night, kind="core.phase_opened", phase=phase).get()
    assert opened.visibility == "public" and opened.data["deadline"] == phase.deadline.isoformat()
    for public, seat in seats_by(night, "public").items():
        cards = seat.data["cards"]
        if public not in ("geek", "strongman"):
            assert len(cards["hand"]) == 6, public
        # every card of his deck list is dealt once: Hand, deck, and Sleeve cards drawn from the deck
        from_deck = Counter(c["kind"] for c in cards["hand"] + cards["deck"] + cards["sleeve"]
                            if c["provenance"] == "deck")
        if public == "cardsharp":  # his Sleeve card from the deck counts as the role's
            from_deck += Counter(c["kind"] for c in cards["sleeve"] if c["provenance"] == "role") - Counter(
                SECRET_ROLES[seat.data["secret_role"]].start_sleeve)
        assert from_deck == Counter(e["kind"] for e in seat.data["deck_list"]), public
        told = LogEntry.objects.get(game=night, kind="cards.opening_hand", seat=seat)
        assert told.visibility == "seat" and told.data["count"] == (5 if public == "geek" else 6)


def test_FM_8_geek_starts_with_five_cards_strongman_with_seven(night):
    by_public = seats_by(night, "public")
    assert len(by_public["geek"].data["cards"]["hand"]) == 5
    assert len(by_public["strongman"].data["cards"]["hand"]) == 7


def _expected_sleeve(seat: Seat) -> list[tuple[str, str]]:
    """The Sleeve the opening must give ``seat``: secret-role cards, then public-role cards ((kind, provenance);
    ``*`` for a card drawn from the deck)."""
    public = seat.data["public_role"]
    out = [(k, "role") for k in SECRET_ROLES[seat.data["secret_role"]].start_sleeve]
    if isinstance(public, str) and public in PUBLIC_ROLE_BY_SLUG:
        out += [(k, "role") for k in PUBLIC_ROLE_BY_SLUG[public].start_sleeve]
    if public == "cardsharp":
        out.append(("*", "role"))
    if seat.data["secret_role"] == "maniac":
        out.append(("*", "deck"))
    return out


def test_FM_8_FM_3_3_every_sleeve_holds_exactly_the_start_cards(night):
    for seat in night.seats.order_by("position"):
        sleeve = [(c["kind"], c["provenance"]) for c in seat.data["cards"]["sleeve"]]
        expected = _expected_sleeve(seat)
        assert [("*" if e[0] == "*" else s[0], s[1]) for s, e in zip(sleeve, expected, strict=True)] == expected, (
            seat.data["public_role"], seat.data["secret_role"])


def test_FM_8_start_cards_in_the_sleeve_with_provenance_role(night):
    by_public = seats_by(night, "public")
    for public, kind in START_CARDS.items():
        sleeve = [(c["kind"], c["provenance"]) for c in by_public[public].data["cards"]["sleeve"]]
        assert (kind, "role") in sleeve, public
        # the role's card comes from nowhere else: not from his deck list
        assert len(by_public[public].data["cards"]["hand"]) + len(by_public[public].data["cards"]["deck"]) \
            + sum(1 for c in by_public[public].data["cards"]["sleeve"] if c["provenance"] == "deck") \
            == len(by_public[public].data["deck_list"]), public


def test_FM_8_cardsharp_draws_one_deck_card_into_the_sleeve_as_a_role_card(night):
    seat = seats_by(night, "public")["cardsharp"]
    cards = seat.data["cards"]
    role_cards = [c for c in cards["sleeve"] if c["provenance"] == "role"]
    drawn = [c for c in role_cards if c["kind"] not in SECRET_ROLES[seat.data["secret_role"]].start_sleeve]
    assert len(drawn) == 1 and drawn[0]["kind"] in {e["kind"] for e in seat.data["deck_list"]}
    assert len(cards["hand"]) == 6
    assert len(cards["hand"]) + len(cards["deck"]) + 1 + sum(
        1 for c in cards["sleeve"] if c["provenance"] == "deck") == len(seat.data["deck_list"])


def test_FM_3_3_maniac_draws_one_card_into_the_sleeve(night):
    (maniac,) = seats_by(night, "secret")["maniac"]
    from_deck = [c for c in maniac.data["cards"]["sleeve"] if c["provenance"] == "deck"]
    assert len(from_deck) == 1 and from_deck[0]["kind"] in {e["kind"] for e in maniac.data["deck_list"]}
    cards = maniac.data["cards"]
    assert len(cards["deck"]) + len(cards["hand"]) + 1 + (maniac.data["public_role"] == "cardsharp") \
        == len(maniac.data["deck_list"])


def test_FM_3_3_joker_starts_with_an_ace_hero_with_an_oracle(night):
    by_secret = seats_by(night, "secret")
    (joker,), (hero,) = by_secret["joker"], by_secret["hero"]
    assert [(c["kind"], c["provenance"]) for c in joker.data["cards"]["sleeve"]][0] == ("ace", "role")
    assert [(c["kind"], c["provenance"]) for c in hero.data["cards"]["sleeve"]][0] == ("oracle", "role")
    # the joker plays with the colours he chose: his random deck (he submitted none) follows them
    assert joker.data["joker_colours"] == JOKER_COLOURS
    rules = card_services.deck_rules_for(joker)
    assert rules.role_colours == tuple(JOKER_COLOURS)
    assert deckrules.validate_deck(joker.data["deck_list"], collection=card_services.collection_for_game(night),
                                   rules=rules) == []
    assert not LogEntry.objects.filter(game=night, kind="fm.joker_colours_random").exists()
    # his Cards page marks the ace as a role card
    page = client_for(joker.user).get(f"/games/{night.pk}/cards/").content.decode()
    assert re.search(r"<span[^>]*>Ace</span> <small class=\"muted\">\(role card\)</small>", page)


def test_FM_8_engineer_picks_are_among_his_first_six(night):
    seat = seats_by(night, "public")["engineer"]
    picks = seat.data["engineer_picks"]
    assert len(picks) == 2 and Counter(picks) <= Counter(e["kind"] for e in seat.data["deck_list"])
    first_six = Counter(c["kind"] for c in seat.data["cards"]["hand"][:6])
    assert all(first_six[k] >= n for k, n in Counter(picks).items()), (picks, first_six)


def test_FM_8_engineer_picks_among_first_six_for_many_seeds(frozen, master, make_user):
    """The guarantee holds whatever the seed (the other cards are shuffled freely)."""
    users = [make_user(f"u{i}") for i in range(5)]
    for seed in range(6):
        game = fm_game(master, users, ["engineer", "authority", "manager", "monk", "idler"], seed=seed,
                       title=f"E{seed}")
        seat = Seat.objects.get(game=game, user=users[0])
        deck = submit_valid_deck(game, seat, rng_seed=seed)
        counts = Counter(e["kind"] for e in deck)
        doubled = sorted(k for k, n in counts.items() if n == 2)[0]
        setup_services.engineer_picks_set(game=game, user=users[0], picks=[doubled, doubled])
        end_deck_building(game, master)
        assert Counter(hand(seat))[doubled] >= 2, seed


def test_FM_4_5_players_without_a_valid_deck_get_a_random_one_logged_to_them_and_the_master(night, master):
    collection = card_services.collection_for_game(night)
    randomised = []
    for seat in night.seats.select_related("user").order_by("position"):
        assert deckrules.validate_deck(seat.data["deck_list"], collection=collection,
                                       rules=card_services.deck_rules_for(seat)) == []
        if seat.position % 2 == 1 and seat.data["public_role"] != "engineer":
            randomised.append(seat)
    told = LogEntry.objects.filter(game=night, kind="cards.random_deck")
    assert sorted(e.seat_id for e in told) == sorted(s.pk for s in randomised)
    assert all(e.visibility == "seat" and e.data["deck"] == [x["kind"] for x in
                                                               Seat.objects.get(pk=e.seat_id).data["deck_list"]]
               for e in told)
    for_master = LogEntry.objects.filter(game=night, kind="cards.random_deck_master")
    assert all(e.visibility == "master" for e in for_master)
    assert sorted(e.data["name"] for e in for_master) == sorted(s.display_name for s in randomised)
    # each is told only his own; the master everything
    one = randomised[0]
    mine = visibility.log_entries(visibility.viewer_for(one.user, night))
    assert [e.seat_id for e in mine.filter(kind="cards.random_deck")] == [one.pk]
    assert not mine.filter(kind="cards.random_deck_master").exists()
    master_view = visibility.log_entries(visibility.viewer_for(master, night))
    assert master_view.filter(kind__startswith="cards.random_deck").count() == 2 * len(randomised)


def test_FM_3_1_mafiosi_learn_each_other_at_once(table, master):
    mafia = [s for s in table.seats.select_related("user").order_by("position")
             if s.data["secret_role"] in MAFIA_ROLES]
    assert len(mafia) == 3 and open_phase(table).kind == "deckbuilding"
    (entry,) = LogEntry.objects.filter(game=table, kind="fm.mafia_members")
    assert (entry.visibility, entry.group) == ("group", "faction:mafia")
    assert entry.data["members"] == [{"name": s.display_name, "role": s.data["secret_role"]} for s in mafia]
    readers = set(visibility.entry_recipients(entry))
    assert readers == {master, *(s.user for s in mafia)}
    with translation.override("en"):
        assert "Mafia boss" in entry.text() and all(s.display_name in entry.text() for s in mafia)
    # the traitor wins with the Mafia but is not one of them (FM-3.1: the three mafiosi)
    (traitor,) = seats_by(table, "secret")["traitor"]
    assert traitor.user not in readers


def test_FM_3_1_mafiosi_learn_each_others_decks_and_hands_at_the_start_of_night_1(night, master):
    mafia = [s for s in night.seats.select_related("user").order_by("position")
             if s.data["secret_role"] in MAFIA_ROLES]
    (entry,) = LogEntry.objects.filter(game=night, kind="fm.mafia_decks")
    assert (entry.visibility, entry.group) == ("group", "faction:mafia")
    assert entry.phase.kind == "deckbuilding"  # written by the opening, before Night 1's first order
    assert entry.data["members"] == [
        {"name": s.display_name, "hand": [c["kind"] for c in s.data["cards"]["hand"]],
         "deck": [e["kind"] for e in s.data["deck_list"]]} for s in mafia]
    assert set(visibility.entry_recipients(entry)) == {master, *(s.user for s in mafia)}
    # ... but not through another mafioso's private seat data
    boss = next(s for s in mafia if s.data["secret_role"] == "mafia_boss")
    killer = next(s for s in mafia if s.data["secret_role"] == "mafia_killer")
    seats = client_for(killer.user).get(f"/api/games/{night.pk}/seats/").json()
    assert "private" not in next(s for s in seats if s["id"] == boss.pk)


def test_FM_8_psychic_sees_his_top_three_cards_and_nobody_else_does(night, master):
    by_public = seats_by(night, "public")
    psychic, other = by_public["psychic"], by_public["authority"]
    top = [c["kind"] for c in psychic.data["cards"]["deck"][:3]]
    seats = client_for(psychic.user).get(f"/api/games/{night.pk}/seats/").json()
    mine = next(s for s in seats if s["id"] == psychic.pk)
    assert mine["private"]["deck_top"] == top and "deck" not in mine["private"]["cards"]
    html = client_for(psychic.user).get(f"/games/{night.pk}/").content.decode()
    panel = html.split('id="fm-panel"', 1)[1].split("</section>", 1)[0]
    shown = re.search(r'<ol class="deck-top">(.*?)</ol>', panel, re.S)[1]
    assert re.findall(r"<li>(.*?)</li>", shown) == [CARD_NAMES[k][1] for k in top]
    for user in (other.user, master):
        seats = client_for(user).get(f"/api/games/{night.pk}/seats/").json()
        theirs = next(s for s in seats if s["id"] == psychic.pk)
        assert "deck_top" not in theirs.get("private", {})
        assert 'class="deck-top"' not in client_for(user).get(f"/games/{night.pk}/").content.decode()
    # another player's own view has no deck_top
    seats = client_for(other.user).get(f"/api/games/{night.pk}/seats/").json()
    assert "deck_top" not in next(s for s in seats if s["id"] == other.pk)["private"]


# == The lucky's redeals (FM-8) =================================================================================


def test_FM_8_lucky_redeals_twice_reproducibly_and_a_third_is_refused(night):
    seat = seats_by(night, "public")["lucky"]
    assert seat.data["lucky_redeals_left"] == 2
    for k in (0, 1):
        seat.refresh_from_db()
        before = Containers.from_dict(seat.data["cards"])
        expected = before.copy()
        expected.redeal(random.Random(f"{night.rng_seed}:lucky:{seat.pk}:{k}"), len(before.hand))
        version = seat.version
        result = setup_services.lucky_redeal(game=night, user=seat.user)
        seat.refresh_from_db()
        assert seat.data["cards"] == expected.to_dict() == result.data["cards"]
        assert seat.data["lucky_redeals_left"] == 1 - k and seat.version == version + 1
        assert len(seat.data["cards"]["hand"]) == len(before.hand) == 6
        assert Counter(c.kind for c in before.hand + before.deck) == Counter(
            c["kind"] for c in seat.data["cards"]["hand"] + seat.data["cards"]["deck"])
        assert seat.data["cards"]["sleeve"] == before.to_dict()["sleeve"]  # the Sleeve stays
        entry = LogEntry.objects.filter(game=night, kind="fm.lucky_redeal").order_by("pk").last()
        assert (entry.visibility, entry.seat_id, entry.data) == (
            "seat", seat.pk, {"hand": [c.kind for c in expected.hand], "left": 1 - k})
        assert entry.phase == open_phase(night)
    before = snapshot(night)
    err = refused("not_allowed", setup_services.lucky_redeal, game=night, user=seat.user)
    assert "both" in err.errors["__all__"][0]
    assert snapshot(night) == before


def test_FM_8_lucky_redeal_only_during_night_1(table, master, frozen):
    lucky = seats_by(table, "public")["lucky"]
    before = snapshot(table)
    err = refused("state", setup_services.lucky_redeal, game=table, user=lucky.user)
    assert "Night 1" in err.errors["__all__"][0] and "(FM-8)" in err.errors["__all__"][0]
    assert snapshot(table) == before
    end_deck_building(table, master)
    # past Night 1's deadline (not resolved yet): too late
    frozen.shift(24 * HOUR)
    before = snapshot(table)
    refused("late", setup_services.lucky_redeal, game=table, user=lucky.user)
    assert snapshot(table) == before
    frozen.shift(-24 * HOUR)
    services.phase_resolve_now(game=table, actor=master)  # Day 1
    assert (open_phase(table).kind, open_phase(table).number) == ("day", 1)
    before = snapshot(table)
    refused("state", setup_services.lucky_redeal, game=table, user=lucky.user)
    assert snapshot(table) == before


def test_FM_8_lucky_redeal_refused_for_others(night, spectator):
    by_public = seats_by(night, "public")
    before = snapshot(night)
    err = refused("not_allowed", setup_services.lucky_redeal, game=night, user=by_public["gossip"].user)
    assert "lucky" in err.errors["__all__"][0]
    refused("forbidden", setup_services.lucky_redeal, game=night, user=spectator)
    Seat.objects.filter(pk=by_public["lucky"].pk).update(alive=False)
    refused("not_allowed", setup_services.lucky_redeal, game=night, user=by_public["lucky"].user)
    Seat.objects.filter(pk=by_public["lucky"].pk).update(alive=True)
    assert snapshot(night) == before


# == The joker's colours (FM-3.3) ===============================================================================


def test_FM_3_3_joker_chooses_two_colours_and_may_change_them_until_the_deadline(table):
    (joker,) = seats_by(table, "secret")["joker"]
    assert joker.data["joker_colours"] == JOKER_COLOURS
    version = joker.version
    seat = setup_services.joker_colours_choose(game=table, user=joker.user, colours=["control", "damage"])
    assert seat.data["joker_colours"] == ["damage", "control"]  # rulebook order
    joker.refresh_from_db()
    assert joker.data["joker_colours"] == ["damage", "control"] and joker.version == version + 1
    assert card_services.deck_rules_for(joker).role_colours == ("damage", "control")
    entries = LogEntry.objects.filter(game=table, kind="fm.joker_colours").order_by("pk")
    assert [e.data for e in entries] == [{"colours": JOKER_COLOURS}, {"colours": ["damage", "control"]}]
    assert all(e.visibility == "seat" and e.seat_id == joker.pk for e in entries)
    with translation.override("ru"):
        assert "Урон" in entries.last().text() and "Контроль" in entries.last().text()
    with translation.override("en"):
        assert "Damage" in entries.last().text()


@pytest.mark.parametrize("colours", [
    ["damage"], ["damage", "recon", "control"], ["damage", "damage"], ["neutral", "damage"], ["damage", "fire"],
    "damage,recon", None, [1, 2], [],
], ids=["one", "three", "twice", "neutral", "unknown", "string", "none", "numbers", "empty"])
def test_FM_3_3_joker_colours_bad_input(table, colours):
    (joker,) = seats_by(table, "secret")["joker"]
    before = snapshot(table)
    err = refused("invalid", setup_services.joker_colours_choose, game=table, user=joker.user, colours=colours)
    assert list(err.errors) == ["colours"] and err.errors["colours"][0]
    assert snapshot(table) == before


def test_FM_3_3_only_the_joker_chooses_and_only_during_deck_building(table, master, spectator, frozen):
    by_secret = seats_by(table, "secret")
    before = snapshot(table)
    err = refused("not_allowed", setup_services.joker_colours_choose, game=table,
                  user=by_secret["mafia_boss"][0].user, colours=["damage", "recon"])
    assert "joker" in err.errors["__all__"][0]
    refused("forbidden", setup_services.joker_colours_choose, game=table, user=spectator, colours=["damage", "recon"])
    refused("forbidden", setup_services.joker_colours_choose, game=table, user=master, colours=["damage", "recon"])
    assert snapshot(table) == before
    joker = by_secret["joker"][0]
    frozen.shift(48 * HOUR)  # the deck-building deadline passed; not resolved yet
    refused("late", setup_services.joker_colours_choose, game=table, user=joker.user, colours=["damage", "recon"])
    assert snapshot(table) == before
    frozen.shift(-48 * HOUR)
    end_deck_building(table, master)
    before = snapshot(table)
    err = refused("state", setup_services.joker_colours_choose, game=table, user=joker.user,
                  colours=["damage", "recon"])
    assert "(FM-3.3)" in err.errors["__all__"][0]
    assert snapshot(table) == before


def test_FM_3_3_joker_may_choose_while_the_game_is_paused(table, master, frozen):
    (joker,) = seats_by(table, "secret")["joker"]
    services.game_pause(game=table, actor=master)
    frozen.shift(48 * HOUR)
    setup_services.joker_colours_choose(game=table, user=joker.user, colours=["sabotage", "damage"])
    joker.refresh_from_db()
    assert joker.data["joker_colours"] == ["damage", "sabotage"]


# == The engineer's picks (FM-8) ================================================================================


def test_FM_8_engineer_picks_two_cards_of_his_deck(table):
    seat = seats_by(table, "public")["engineer"]
    deck = Counter(e["kind"] for e in seat.data["deck_list"])
    doubled = sorted(k for k, n in deck.items() if n == 2)[0]
    version = seat.version
    setup_services.engineer_picks_set(game=table, user=seat.user, picks=[doubled, doubled])
    seat.refresh_from_db()
    assert seat.data["engineer_picks"] == [doubled, doubled] and seat.version == version + 1
    entry = LogEntry.objects.filter(game=table, kind="fm.engineer_picks").order_by("pk").last()
    assert (entry.visibility, entry.seat_id, entry.data) == ("seat", seat.pk, {"cards": [doubled, doubled]})
    with translation.override("en"):
        assert CARD_NAMES[doubled][1] in entry.text()


def test_FM_8_engineer_picks_bad_input(table, frozen, master):
    seat = seats_by(table, "public")["engineer"]
    deck = Counter(e["kind"] for e in seat.data["deck_list"])
    single = sorted(k for k, n in deck.items() if n == 1)
    absent = sorted(k for k in CARD_NAMES if k not in deck and k not in ("ace", "dummy", "mulligan"))[0]
    present = sorted(deck)[0]
    cases = [[present], [present, present, present], [present, absent], [absent, absent], "pistol", None,
             [present, 3], [present, ""]]
    if single:
        cases.append([single[0], single[0]])  # two of a kind he holds once
    before = snapshot(table)
    for picks in cases:
        err = refused("invalid", setup_services.engineer_picks_set, game=table, user=seat.user, picks=picks)
        assert list(err.errors) == ["picks"], picks
        assert "(FM-8)" in err.errors["picks"][0]
    err = refused("invalid", setup_services.engineer_picks_set, game=table, user=seat.user, picks=[present, absent])
    assert absent in err.errors["picks"][0]
    assert snapshot(table) == before
    # not the engineer
    gossip = seats_by(table, "public")["gossip"]
    refused("not_allowed", setup_services.engineer_picks_set, game=table, user=gossip.user, picks=[present, present])
    # no deck submitted yet
    Seat.objects.filter(pk=seat.pk).update(data={k: v for k, v in seat.data.items() if k != "deck_list"})
    err = refused("invalid", setup_services.engineer_picks_set, game=table, user=seat.user, picks=[present, present])
    assert "Submit your deck first" in err.errors["picks"][0]
    Seat.objects.filter(pk=seat.pk).update(data=seat.data)
    assert snapshot(table) == before
    # after the stage
    end_deck_building(table, master)
    before = snapshot(table)
    refused("state", setup_services.engineer_picks_set, game=table, user=seat.user, picks=[present, present])
    assert snapshot(table) == before


# == Pages: the panel and its forms (no JavaScript) =============================================================


def test_panel_shows_the_owner_his_roles_in_his_language(table):
    (boss,) = seats_by(table, "secret")["mafia_boss"]
    public = boss.data["public_role"]
    for language, role, faction in (("en", "Mafia boss", "Mafia"), ("ru", "Босс мафии", "Мафия")):
        html = client_for(boss.user, language=language).get(f"/games/{table.pk}/").content.decode()
        panel = html.split('id="fm-panel"', 1)[1].split("</section>", 1)[0]
        assert f"{role} ({faction})" in panel, language
        name = PUBLIC_ROLE_BY_SLUG[public].name_en if language == "en" else PUBLIC_ROLE_BY_SLUG[public].name_ru
        assert name in panel


def test_panel_only_for_seated_players(table, master, spectator):
    for user in (master, spectator, None):
        html = client_for(user).get(f"/games/{table.pk}/").content.decode()
        assert 'id="fm-panel"' not in html


def test_FM_3_3_joker_colour_form_without_javascript(table):
    (joker,) = seats_by(table, "secret")["joker"]
    client = client_for(joker.user)
    html = client.get(f"/games/{table.pk}/").content.decode()
    form = re.search(r'<form method="post" action="/games/\d+/fm/joker-colours/">(.*?)</form>', html, re.S)[1]
    for colour in deckrules.ROLE_COLOURS:
        assert f'<label for="fm-colour-{colour}"><input type="checkbox" id="fm-colour-{colour}"' in form
    assert 'value="recon" checked' in form and 'value="support" checked' in form
    assert 'value="damage" checked' not in form and "<legend>" in form
    response = client.post(f"/games/{table.pk}/fm/joker-colours/", {"colours": ["damage", "protection"]})
    assert response.status_code == 302 and response["Location"].endswith(f"/games/{table.pk}/#fm-panel")
    joker.refresh_from_db()
    assert joker.data["joker_colours"] == ["damage", "protection"]
    page = client.get(response["Location"]).content.decode()
    assert "Your colours are saved" in page
    # bad input: the error is shown, nothing changes
    response = client.post(f"/games/{table.pk}/fm/joker-colours/", {"colours": ["damage"]}, follow=True)
    assert response.status_code == 200 and "Choose exactly two different colours" in response.content.decode()
    joker.refresh_from_db()
    assert joker.data["joker_colours"] == ["damage", "protection"]
    # others have no colour form, and posting it is refused
    other = seats_by(table, "public")["gossip"]
    assert "fm/joker-colours" not in client_for(other.user).get(f"/games/{table.pk}/").content.decode()
    response = client_for(other.user).post(f"/games/{table.pk}/fm/joker-colours/", {"colours": ["damage", "recon"]},
                                           follow=True)
    assert "Only the joker" in response.content.decode()


def test_FM_8_engineer_picks_form_without_javascript(table):
    seat = seats_by(table, "public")["engineer"]
    client = client_for(seat.user)
    html = client.get(f"/games/{table.pk}/").content.decode()
    assert '<label for="fm-pick-1">' in html and '<select id="fm-pick-1" name="pick_1">' in html
    assert '<label for="fm-pick-2">' in html and '<select id="fm-pick-2" name="pick_2">' in html
    deck = Counter(e["kind"] for e in seat.data["deck_list"])
    doubled = sorted(k for k, n in deck.items() if n == 2)[0]
    response = client.post(f"/games/{table.pk}/fm/engineer-picks/", {"pick_1": doubled, "pick_2": doubled})
    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.data["engineer_picks"] == [doubled, doubled]
    html = client.get(f"/games/{table.pk}/").content.decode()
    assert html.count(f'<option value="{doubled}" selected>') == 2
    response = client.post(f"/games/{table.pk}/fm/engineer-picks/", {"pick_1": doubled, "pick_2": ""}, follow=True)
    assert "Pick exactly two cards" in response.content.decode()
    seat.refresh_from_db()
    assert seat.data["engineer_picks"] == [doubled, doubled]


def test_FM_8_lucky_redeal_button_without_javascript(night):
    seat = seats_by(night, "public")["lucky"]
    client = client_for(seat.user)
    html = client.get(f"/games/{night.pk}/").content.decode()
    assert "You may redeal your Hand 2 more times during Night 1." in html
    assert f'action="/games/{night.pk}/fm/lucky-redeal/"' in html
    for left in (1, 0):
        response = client.post(f"/games/{night.pk}/fm/lucky-redeal/", follow=True)
        assert response.status_code == 200 and "Your Hand was redealt." in response.content.decode()
        seat.refresh_from_db()
        assert seat.data["lucky_redeals_left"] == left
    html = client.get(f"/games/{night.pk}/").content.decode()
    assert "You have used both of your redeals." in html and "Redeal my Hand" not in html
    response = client.post(f"/games/{night.pk}/fm/lucky-redeal/", follow=True)
    assert "You have used both of your redeals" in response.content.decode()
    ru = client_for(seat.user, language="ru").get(f"/games/{night.pk}/").content.decode()
    assert "Вы использовали обе пересдачи." in ru


def test_start_stretch_actions_need_a_login_and_post(table, master):
    for path in ("joker-colours", "engineer-picks", "lucky-redeal"):
        url = f"/games/{table.pk}/fm/{path}/"
        assert client_for(None).post(url).status_code == 302  # to the login page
        assert client_for(master).get(url).status_code == 405
    other = services.game_create(master=master, module="tally", title="Tally", options={"rounds": 1})
    assert client_for(master).post(f"/games/{other.pk}/fm/lucky-redeal/").status_code == 404


def test_panel_hides_stage_forms_outside_their_stage(night):
    by_public = seats_by(night, "public")
    (joker,) = seats_by(night, "secret")["joker"]
    assert "fm/joker-colours" not in client_for(joker.user).get(f"/games/{night.pk}/").content.decode()
    assert "fm/engineer-picks" not in client_for(by_public["engineer"].user).get(
        f"/games/{night.pk}/").content.decode()


# == Secrets during the start stretch ===========================================================================
# A five-player game: the boss, the advisor, the killer, the maniac and a sheriff. Each submits a deck; the boss's
# and the maniac's decks use card kinds nobody else holds, so any sight of them is a leak.

SECRET_PLAN = ["mafia_boss", "mafia_advisor", "mafia_killer", "maniac", "sheriff"]
SECRET_PUBLIC = ["authority", "manager", "prosecutor", "monk", "idler"]
DECKS = {
    "mafia_boss": ["arrest", "handcuffs", "redirect", "accusation", "interrogation", "wiretap", "hr_department"] * 2
    + ["dossier"],
    "maniac": ["pickpocket", "arson", "hack", "jamming", "breach", "surveillance_camera", "tail"] * 2 + ["oracle"],
    "mafia_killer": ["pistol", "sniper_rifle", "contract", "poison", "ambush", "martial_art", "stash"] * 2
    + ["reserve"],
    "sheriff": ["pistol", "sniper_rifle", "contract", "poison", "ambush", "martial_art", "witness"] * 2 + ["reserve"],
    "mafia_advisor": ["advice", "first_aid", "negotiation", "bunker", "body_armour", "bodyguard", "safe_house"] * 2
    + ["superhero"],
}
TARGETS = ["maniac", "mafia_boss"]
VIEWERS = ["master", "owner", "other", "mafioso", "spectator", "anonymous"]
CHANNELS = {
    "game_page": "/games/{id}/",
    "api_seats": "/api/games/{id}/seats/",
    "api_log": "/api/games/{id}/log/",
    "api_cards": "/api/games/{id}/cards/",
    "cards_page": "/games/{id}/cards/",
    "deck_page": "/games/{id}/deck/",
    "api_deck": "/api/games/{id}/deck/",
    "feed": "/games/{id}/feed/",
    "lobby": "/",
    "api_game": "/api/games/{id}/",
    "api_phases": "/api/games/{id}/phases/",
    "api_orders": "/api/games/{id}/orders/",
    "api_posts": "/api/games/{id}/posts/",
    "api_audit": "/api/games/{id}/audit/",
}
#: (viewer, moment, channel) → what the viewer reads there of the target's secrets: R = the secret role, C = his
#: cards (deck list, Hand). Missing: nothing. The mafioso's rows hold only when the target is the boss (FM-3.1:
#: roles at once, decks and Hands at the start of Night 1, through the Mafia's group log); of the maniac he
#: reads nothing.
SEES = {
    ("master", "build", "game_page"): "RC", ("master", "build", "api_seats"): "RC",
    ("master", "build", "api_log"): "R", ("master", "build", "api_cards"): "C",
    ("master", "night", "game_page"): "RC", ("master", "night", "api_seats"): "RC",
    ("master", "night", "api_log"): "RC", ("master", "night", "api_cards"): "C",
    ("master", "night", "cards_page"): "C", ("master", "build", "cards_page"): "C",
    ("owner", "build", "game_page"): "RC", ("owner", "build", "api_seats"): "RC", ("owner", "build", "api_log"): "R",
    ("owner", "build", "api_cards"): "C", ("owner", "build", "deck_page"): "C", ("owner", "build", "api_deck"): "RC",
    ("owner", "build", "cards_page"): "C",
    ("owner", "night", "game_page"): "RC", ("owner", "night", "api_seats"): "RC", ("owner", "night", "api_log"): "RC",
    ("owner", "night", "api_cards"): "C", ("owner", "night", "cards_page"): "C", ("owner", "night", "deck_page"): "C",
    ("owner", "night", "api_deck"): "RC",
    ("mafioso", "build", "game_page"): "R", ("mafioso", "build", "api_log"): "R",
    ("mafioso", "night", "game_page"): "RC", ("mafioso", "night", "api_log"): "RC",
}


def _role_tokens(slug: str) -> set[str]:
    names = {slug}
    for language in ("ru", "en"):
        with translation.override(language):
            names.add(translation.gettext(SECRET_ROLES[slug].name))
    return names


def _card_tokens(slugs) -> set[str]:
    return {t for s in slugs for t in (s, *CARD_NAMES[s])}


def _shows(text: str, tokens) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", text) for t in tokens)


def _builder_counts(page: str) -> dict[str, int]:
    return {m[0]: int(m[1]) for m in re.findall(r'name="n_(\w+)" type="number"[^>]*value="(\d+)"', page)}


@pytest.fixture
def secret_game(frozen, master, make_user, spectator):
    users = [make_user(f"s{i}") for i in range(5)]
    game = fm_game(master, users, SECRET_PUBLIC, options={"roles": SECRET_PLAN}, seed=31337)
    role_of = {s.user: s.data["secret_role"] for s in game.seats.select_related("user")}
    for user, role in role_of.items():
        card_services.deck_submit(game=game, user=user, entries=DECKS[role])
    by_role = {role: user for user, role in role_of.items()}
    return game, by_role


def _viewer_user(viewer: str, target: str, by_role: dict, master, spectator):
    return {"master": master, "owner": by_role[target], "other": by_role["sheriff"],
            "mafioso": by_role["mafia_killer"], "spectator": spectator, "anonymous": None}[viewer]


def _seen(channel: str, text: str, target: str) -> str:
    # The viewer's own role card summarises the rules (FM-10: "…the traitor and the maniac are dead…"): static
    # text, not anyone's secret, so it is no evidence that a seat's role leaked — what the role does and how it wins.
    text = re.sub(r'<p class="role-text">.*?</p>', "", text, flags=re.S)
    text = re.sub(r'<div class="role-win" id="fm-win">.*?</div>', "", text, flags=re.S)
    if channel == "api_game":
        # The master's fixed composition is shown only to him (test_fixed_composition_is_shown_only_to_the_master).
        game = json.loads(text)
        assert game["options"] in ({"hero": False, "roles": SECRET_PLAN, "stalemate_phases": 6},
                                   {"hero": False, "fixed_composition": True, "stalemate_phases": 6})
        text = json.dumps({k: v for k, v in game.items() if k != "options"}, ensure_ascii=False)
    seen = "R" if _shows(text, _role_tokens(target)) else ""
    if channel == "deck_page":  # the builder lists the whole collection; a deck shows as its counts
        counts = _builder_counts(text)
        if counts and all(counts.get(s) == n for s, n in Counter(DECKS[target]).items()):
            seen += "C"
    elif _shows(text, _card_tokens(DECKS[target])):
        seen += "C"
    return seen


def test_secrets_table_covers_every_viewer_kind():
    assert set(VIEWERS) >= {"master", "owner", "other", "spectator", "anonymous"}
    assert {v for v, _m, _c in SEES} <= set(VIEWERS) and {c for _v, _m, c in SEES} <= set(CHANNELS)


@pytest.mark.parametrize("moment", ["build", "night"])
@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("target", TARGETS)
def test_secret_role_deck_and_hand_only_for_those_allowed(secret_game, master, spectator, target, viewer, moment):
    """FM-1.2, FM-3.1, FM-5.1: a player's secret role, deck and Hand are his and the master's; the mafiosi learn
    each other's roles at once and decks and Hands at the start of Night 1 — through their group log only."""
    game, by_role = secret_game
    if moment == "night":
        end_deck_building(game, master)
    owner = Seat.objects.get(game=game, user=by_role[target])
    user = _viewer_user(viewer, target, by_role, master, spectator)
    expected_kind = {"master": "master", "spectator": "spectator", "anonymous": "anonymous"}.get(viewer, "player")
    assert visibility.viewer_for(user, game).kind == expected_kind
    mafia_sees = viewer == "mafioso" and target == "mafia_boss"
    for language in ("ru", "en"):
        client = client_for(user, language=language)
        for channel, url in CHANNELS.items():
            response = client.get(url.format(id=game.pk))
            assert response.status_code in (200, 302, 403, 404), (channel, response.status_code)
            expected = SEES.get((viewer, moment, channel), "")
            if viewer == "mafioso" and not mafia_sees:
                expected = ""
            assert _seen(channel, response.content.decode(), target) == expected, (language, channel)
    # Structured checks: the seats API's private data and the cards API's Hand are the owner's and the master's.
    client = client_for(user)
    seats = client.get(f"/api/games/{game.pk}/seats/").json()
    theirs = next(s for s in seats if s["id"] == owner.pk)
    assert ("private" in theirs) is (viewer in ("master", "owner"))
    assert theirs["public"] == {"hand_count": 6 if moment == "night" else 0, "public_role": owner.data["public_role"]}
    cards = client.get(f"/api/games/{game.pk}/cards/").json()
    theirs = next(c for c in cards if c["seat"] == owner.pk)
    assert ("hand" in theirs) is (viewer in ("master", "owner"))
    if moment == "night" and viewer in ("master", "owner"):
        owner.refresh_from_db()
        assert [c["kind"] for c in theirs["hand"]] == [c["kind"] for c in owner.data["cards"]["hand"]]
    if user is not None:
        log = client.get(f"/api/games/{game.pk}/log/", {"limit": 500}).json()["results"]
        data = json.dumps([e["data"] for e in log])
        assert (f'"{target}"' in data) is (viewer in ("master", "owner") or mafia_sees)
        if mafia_sees:
            (members,) = [e for e in log if e["kind"] == "fm.mafia_members"]
            assert {"name": owner.display_name, "role": "mafia_boss"} in members["data"]["members"]
            decks = [e for e in log if e["kind"] == "fm.mafia_decks"]
            if moment == "night":
                owner.refresh_from_db()
                boss = next(m for m in decks[0]["data"]["members"] if m["name"] == owner.display_name)
                assert boss["hand"] == [c["kind"] for c in owner.data["cards"]["hand"]]
                assert boss["deck"] == DECKS["mafia_boss"]
            else:
                assert decks == []


def test_FM_3_4_fixed_composition_is_shown_only_to_the_master(master, make_user, spectator, client):
    """FM-3.4: a master may fix the composition; it is his secret (players only learn that it is fixed)."""
    users = [make_user(f"fc{i}") for i in range(5)]
    game = fm_game(master, users, ["authority", "manager", "prosecutor", "monk", "idler"],
                   options={"roles": SECRET_PLAN})
    public = {"hero": False, "fixed_composition": True, "stalemate_phases": 6}
    for user, expected in ((master, {"hero": False, "roles": SECRET_PLAN, "stalemate_phases": 6}),
                           (users[0], public), (spectator, public), (None, public)):
        client.logout()
        if user is not None:
            client.force_login(user)
        for url in (f"/api/games/{game.pk}/", "/api/games/"):
            data = client.get(url).json()
            options = data["options"] if "options" in data else next(
                g for g in data["results"] if g["id"] == game.pk)["options"]
            assert options == expected, (user, url)


def test_FM_3_3_FM_8_start_actions_through_the_api(master, make_user):
    """The joker's colours, the engineer's picks and the lucky's redeal are the same services through the API;
    refusals come back as field errors or 409 with nothing changed."""
    users = [make_user(f"ap{i}") for i in range(5)]
    game = fm_game(master, users, ["engineer", "lucky", "authority", "manager", "monk"],
                   options={"roles": ["joker", "mafia_boss", "mafia_advisor", "mafia_killer", "sheriff"]})
    joker_user = Seat.objects.get(game=game, data__secret_role="joker").user
    other_user = next(u for u in users if u != joker_user)
    joker, other, engineer_client, lucky = (client_for(joker_user), client_for(other_user), client_for(users[0]),
                                            client_for(users[1]))
    url = f"/api/games/{game.pk}/fm/"
    status, data = api(joker, "post", url + "joker-colours/", {"colours": ["damage", "neutral"]})
    assert status == 400 and "colours" in data["errors"]
    assert "joker_colours" not in Seat.objects.get(game=game, user=joker_user).data
    status, data = api(joker, "post", url + "joker-colours/", {"colours": ["damage", "recon"]})
    assert status == 200 and data["private"]["joker_colours"] == ["damage", "recon"]
    assert "deck" not in data["private"]["cards"]  # his own projection: no deck order (FM-4.6)
    status, data = api(other, "post", url + "joker-colours/", {"colours": ["damage", "recon"]})
    assert status == 403 and data["code"] == "not_allowed"
    deck = submit_valid_deck(game, Seat.objects.get(game=game, user=users[0]))
    status, data = api(engineer_client, "post", url + "engineer-picks/", {"picks": [deck[0]["kind"], deck[1]["kind"]]})
    assert status == 200 and data["private"]["engineer_picks"] == [deck[0]["kind"], deck[1]["kind"]]
    status, data = api(lucky, "post", url + "lucky-redeal/")
    assert status == 409 and data["code"] == "state"  # only during Night 1
    end_deck_building(game, master)
    for left in (1, 0):
        status, data = api(lucky, "post", url + "lucky-redeal/")
        assert status == 200 and data["private"]["lucky_redeals_left"] == left
    status, data = api(lucky, "post", url + "lucky-redeal/")
    assert status in (403, 409) and data["code"] in ("not_allowed", "state")
    assert Seat.objects.get(game=game, user=users[1]).data["lucky_redeals_left"] == 0


def test_FM_3_4_new_game_page_takes_hero_fixed_composition_and_durations(master):
    """The master announces a forum Mafia game with the hero option, a composition by the table or fixed (FM-3.4)
    and durations per phase kind in hours; a bad fixed composition is refused on its field and nothing is made."""
    client = client_for(master)
    html = client.get("/games/new/?module=forum_mafia").content.decode()
    assert all(name in html for name in ("duration_deckbuilding", "duration_night", "duration_day", "opt_hero"))
    assert 'name="options"' not in html  # the module's fields replace the JSON box
    bad = client.post("/games/new/", {"module": "forum_mafia", "title": "F", "opt_composition": "fixed",
                                      "opt_roles": "sheriff, laser_knight"})
    assert bad.status_code == 400 and "laser_knight" in bad.content.decode() and 'id="id_opt_roles_error"' in \
        bad.content.decode()
    assert not Game.objects.filter(title="F").exists()
    ok = client.post("/games/new/", {"module": "forum_mafia", "title": "F", "opt_hero": "on",
                                     "opt_composition": "fixed", "opt_roles": "mafia_boss, sheriff,doctor",
                                     "duration_night": "12", "duration_day": "36"})
    assert ok.status_code == 302
    game = Game.objects.get(title="F")
    assert game.options == {"hero": True, "roles": ["mafia_boss", "sheriff", "doctor"], "stalemate_phases": 6}
    assert game.durations == {"night": 12 * 3600, "day": 36 * 3600}


def test_FM_1_4_radio_silence_before_night_1(master, make_user):
    """FM-1.4/FM-4.5: no communication before Night 1 — players can't post in the thread during signup and deck
    building (the master can); from Night 1 they can."""
    users = [make_user(f"rs{i}") for i in range(5)]
    game = fm_game(master, users, ["authority", "manager", "prosecutor", "monk", "idler"])
    with pytest.raises(ServiceError) as err:
        services.post_create(game=game, user=users[0], body="Who is the boss?")
    assert err.value.code == "forbidden"
    assert not game.posts.exists()
    services.post_create(game=game, user=master, body="Deck building is open.")
    end_deck_building(game, master)
    services.post_create(game=game, user=users[0], body="Good evening.")
    assert list(game.posts.values_list("body", flat=True)) == ["Deck building is open.", "Good evening."]
