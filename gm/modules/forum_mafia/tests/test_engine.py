"""The forum Mafia engine's pure start stretch: dealing secret roles by the FM-3.4 table or a fixed composition
from the recorded seed (FM-3.5), the setup events (FM-3.1) and the opening at the end of deck building (FM-4.5)
with every start-of-game role effect (FM-3.3, FM-8). No database."""
from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cards import deckrules
from cards.collection_data import CARDS
from cards.containers import Containers
from cards.domain import CardKind, Collection
from gm.core.engine import PhaseInfo, PhaseSpec, RuleViolation, SeatInfo
from gm.modules.forum_mafia.engine import opening
from gm.modules.forum_mafia.engine.roles import LAW_ROLES, MAFIA_ROLES, PUBLIC_ROLES, SECRET_ROLES

ROOT = Path(__file__).resolve().parents[4]
COLLECTION = Collection.from_kinds(CardKind(**c) for c in CARDS)
STATE = {"hero": False, "collection": COLLECTION.snapshot()}
#: FM-8 roles that start with a card in the Sleeve, and the card.
START_CARDS = {r.slug: r.start_sleeve[0] for r in PUBLIC_ROLES if r.start_sleeve}


def make_seats(n: int, public=None) -> list[SeatInfo]:
    public = public or {}
    return [SeatInfo(id=100 + i, name=f"S{i}", position=i,
                     data={"public_role": public.get(i, "authority" if i == 0 else {"custom": f"Baker {i}"})})
            for i in range(n)]


def tally(roles) -> dict:
    """FM-3.4 counts of a composition."""
    c = Counter(roles)
    return {"mafia": sum(c[r] for r in MAFIA_ROLES), "maniac": c["maniac"], "joker": c["joker"],
            "traitor": c["traitor"], "hero": c["hero"], "law": sum(c[r] for r in LAW_ROLES)}


def expected_row(n: int, hero: bool) -> dict:
    """The FM-3.4 setup table, written out: joker_or_traitor is how many of the two appear."""
    joker_or_traitor = 0 if n < 13 else 1 if n <= 14 else 2
    specials = 3 + (n >= 11) + joker_or_traitor + hero
    return {"mafia": 3, "maniac": int(n >= 11), "joker_or_traitor": joker_or_traitor, "hero": int(hero),
            "law": n - specials}


# == FM-3.4 / FM-3.5 dealing ====================================================================================


@pytest.mark.parametrize("hero", [False, True], ids=["no_hero", "hero"])
@pytest.mark.parametrize("n", range(5, 17))
def test_FM_3_4_setup_table(n, hero):
    """FM-3.4 for N = 5…16: 3 mafiosi (one of each), maniac from 11, joker or traitor at 13–14, both at 15–16,
    the optional hero replacing one Law member, everyone else Law (FM-3.2 roles)."""
    seen_extra = set()
    for seed in range(40):
        roles = opening.composition(n, hero=hero, rng=random.Random(seed))
        counts = tally(roles)
        row = expected_row(n, hero)
        assert len(roles) == n
        assert sorted(r for r in roles if r in MAFIA_ROLES) == sorted(MAFIA_ROLES)
        assert counts["mafia"] == row["mafia"] and counts["maniac"] == row["maniac"]
        assert counts["joker"] + counts["traitor"] == row["joker_or_traitor"]
        assert counts["hero"] == row["hero"] and counts["law"] == row["law"]
        if n >= 15:
            assert counts["joker"] == counts["traitor"] == 1
        seen_extra |= {r for r in roles if r in ("joker", "traitor")}
    if n in (13, 14):  # one of the two, chosen at random: over 40 seeds both come up
        assert seen_extra == {"joker", "traitor"}


def test_FM_3_4_table_numbers():
    """The table itself, row by row (mafia, maniac, joker|traitor, law; +hero takes a Law seat)."""
    rows = {n: (expected_row(n, False)["maniac"], expected_row(n, False)["joker_or_traitor"],
                expected_row(n, False)["law"]) for n in range(5, 17)}
    assert rows == {5: (0, 0, 2), 6: (0, 0, 3), 7: (0, 0, 4), 8: (0, 0, 5), 9: (0, 0, 6), 10: (0, 0, 7),
                    11: (1, 0, 7), 12: (1, 0, 8), 13: (1, 1, 8), 14: (1, 1, 9), 15: (1, 2, 9), 16: (1, 2, 10)}


def test_FM_3_2_law_roles_drawn_independently_with_duplicates():
    law = [r for seed in range(30) for r in opening.composition(10, hero=False, rng=random.Random(seed))
           if r in LAW_ROLES]
    assert set(law) == set(LAW_ROLES)  # every FM-3.2 role comes up
    assert any(max(Counter(r for r in opening.composition(10, hero=False, rng=random.Random(s))
                           if r in LAW_ROLES).values()) > 1 for s in range(30))  # duplicates allowed


def test_FM_1_1_beyond_16_last_row_plus_law_and_fewer_than_5_refused():
    counts = tally(opening.composition(20, hero=True, rng=random.Random(1)))
    assert counts == {"mafia": 3, "maniac": 1, "joker": 1, "traitor": 1, "hero": 1, "law": 13}
    with pytest.raises(ValueError):
        opening.composition(4, hero=False, rng=random.Random(1))
    with pytest.raises(RuleViolation) as err:
        opening.deal(make_seats(4), {}, random.Random(1))
    assert err.value.errors[0].rule == "FM-1.1"


def test_FM_3_5_same_seed_same_deal_different_seed_different_deal():
    seats = make_seats(12)
    first = opening.deal(seats, {"hero": True}, random.Random(2026))
    assert opening.deal(seats, {"hero": True}, random.Random(2026)) == first
    assert set(first) == {s.id for s in seats}
    deals = {tuple(sorted(opening.deal(seats, {"hero": True}, random.Random(seed)).items())) for seed in range(20)}
    assert len(deals) == 20  # practically: every seed deals differently
    assert opening.deal(seats, {"hero": True}, random.Random(2027)) != first
    # the whole setup (seat data, groups, events) is reproducible too
    a = opening.setup(seats, {"hero": True}, random.Random(7))
    b = opening.setup(seats, {"hero": True}, random.Random(7))
    assert (a.seat_data, a.groups, a.events, a.state) == (b.seat_data, b.groups, b.events, b.state)


FIXED = ["mafia_boss", "mafia_advisor", "mafia_killer", "joker", "sheriff", "sheriff", "hero"]


def test_FM_3_4_fixed_composition_is_dealt_exactly():
    seats = make_seats(len(FIXED))
    dealt = opening.deal(seats, {"roles": FIXED}, random.Random(3))
    assert Counter(dealt.values()) == Counter(FIXED)
    assert dealt == opening.deal(seats, {"roles": FIXED}, random.Random(3))  # FM-3.5
    orders = {tuple(opening.deal(seats, {"roles": FIXED}, random.Random(s))[x.id] for x in seats) for s in range(10)}
    assert len(orders) > 1  # shuffled onto the seats by the seed


@pytest.mark.parametrize(("roles", "n", "rules", "fields"), [
    ("sheriff", None, ["FM-3.4"], ["roles"]),
    (["sheriff", 3], None, ["FM-3.4"], ["roles"]),
    (["sheriff", "wizard", "dragon"], None, ["FM-3.4"], ["roles"]),
    (["mafia_boss", "mafia_boss", "sheriff"], None, ["FM-3.1"], ["roles"]),
    (["mafia_boss", "sheriff"], 3, ["FM-3.4"], ["roles"]),
    (["mafia_killer", "mafia_killer", "wizard"], 5, ["FM-3.4", "FM-3.1", "FM-3.4"], ["roles"] * 3),
])
def test_FM_3_4_fixed_composition_validated(roles, n, rules, fields):
    errors = opening.validate_fixed_composition(roles, n)
    assert [e.rule for e in errors] == rules and [e.field for e in errors] == fields
    if n is not None:
        with pytest.raises(RuleViolation):
            opening.deal(make_seats(n), {"roles": roles}, random.Random(1))


def test_FM_3_4_fixed_composition_valid_has_no_errors():
    assert opening.validate_fixed_composition(FIXED, len(FIXED)) == []
    assert opening.validate_fixed_composition(FIXED) == []


def test_FM_3_1_setup_tells_each_his_role_and_the_mafiosi_each_other():
    seats = make_seats(8, {1: "gossip"})
    result = opening.setup(seats, {}, random.Random(11))
    assert result.first_phase == PhaseSpec("deckbuilding", setup=True)
    roles = {sid: d["secret_role"] for sid, d in result.seat_data.items()}
    mafia = [s.id for s in seats if roles[s.id] in MAFIA_ROLES]
    assert result.groups == {"faction:mafia": mafia} and len(mafia) == 3
    assert result.seat_data[101]["public_role"] == "gossip"  # signup data kept
    assert all(d["faction"] == SECRET_ROLES[d["secret_role"]].faction and d["cards"] == {}
               for d in result.seat_data.values())
    own = [e for e in result.events if e.kind == "fm.your_role"]
    assert [(e.visibility, e.seat, e.data["role"]) for e in own] == [("seat", s.id, roles[s.id]) for s in seats]
    (members,) = [e for e in result.events if e.kind == "fm.mafia_members"]
    assert (members.visibility, members.group) == ("group", "faction:mafia")
    assert members.data["members"] == [{"name": f"S{s.id - 100}", "role": roles[s.id]} for s in seats
                                       if s.id in mafia]
    (deal,) = [e for e in result.events if e.kind == "fm.deal"]
    assert deal.visibility == "master" and deal.data["deal"] == {s.name: roles[s.id] for s in seats}


# == FM-4.5 opening and the start effects (FM-3.3, FM-8) ======================================================


def dealt_seats(plan: list[tuple[str, str]], *, decks: bool = True, extra=None) -> list[SeatInfo]:
    """Seats after setup: ``plan`` = [(secret role, public role)], each with a valid submitted deck (a seeded
    random one) unless ``decks`` is false."""
    seats = []
    for i, (secret, public) in enumerate(plan):
        data = {"public_role": public, "secret_role": secret, "faction": SECRET_ROLES[secret].faction, "cards": {}}
        if secret == "joker":
            data["joker_colours"] = ["damage", "support"]
        if decks:
            rules = deckrules.rules_for(secret_role=secret, public_role=public,
                                        joker_colours=data.get("joker_colours"))
            data["deck_list"] = deckrules.random_valid_deck(collection=COLLECTION, rules=rules,
                                                            rng=random.Random(1000 + i))
        data.update((extra or {}).get(i, {}))
        seats.append(SeatInfo(id=200 + i, name=f"P{i}", position=i, data=data))
    return seats


def opened(seats, seed: int = 5):
    seat_data, events = opening.open_game(seats, STATE, random.Random(seed))
    return {sid: Containers.from_dict(d["cards"]) for sid, d in seat_data.items()}, seat_data, events


def test_FM_4_5_opening_hand_of_six_geek_five_strongman_seven():
    seats = dealt_seats([("sheriff", "authority"), ("doctor", "geek"), ("judge", "strongman")])
    cards, data, _events = opened(seats)
    assert [len(cards[s.id].hand) for s in seats] == [6, 5, 7]
    for s in seats:  # every card of the deck list is dealt: Hand + Sleeve + deck
        c = cards[s.id]
        assert Counter(i.kind for i in c.hand + c.sleeve + c.deck) == Counter(e["kind"] for e in s.data["deck_list"])
        assert c.sleeve == [] and data[s.id]["deck_list"] == s.data["deck_list"]


@pytest.mark.parametrize("public", sorted(START_CARDS))
def test_FM_8_start_card_in_the_sleeve_as_a_role_card(public):
    seats = dealt_seats([("sheriff", public), ("doctor", "authority")])
    cards, _data, _events = opened(seats)
    mine = cards[200]
    assert [(i.kind, i.provenance) for i in mine.sleeve] == [(START_CARDS[public], "role")]
    assert len(mine.hand) == 6 and cards[201].sleeve == []


def test_FM_3_3_joker_ace_hero_oracle_maniac_one_deck_card():
    seats = dealt_seats([("joker", "authority"), ("hero", "authority"), ("maniac", "authority"),
                         ("joker", "patrolman")])
    cards, _data, _events = opened(seats)
    assert [(i.kind, i.provenance) for i in cards[200].sleeve] == [("ace", "role")]
    assert [(i.kind, i.provenance) for i in cards[201].sleeve] == [("oracle", "role")]
    (maniac_card,) = cards[202].sleeve
    assert maniac_card.provenance == "deck" and len(cards[202].hand) == 6
    assert maniac_card.kind in [e["kind"] for e in seats[2].data["deck_list"]]
    assert len(cards[202].deck) == len(seats[2].data["deck_list"]) - 7
    # secret-role card first, then the public role's
    assert [(i.kind, i.provenance) for i in cards[203].sleeve] == [("ace", "role"), ("witness", "role")]


def test_FM_8_cardsharp_draws_one_deck_card_into_the_sleeve_as_a_role_card():
    seats = dealt_seats([("sheriff", "cardsharp")])
    cards, _data, _events = opened(seats)
    (card,) = cards[200].sleeve
    assert card.provenance == "role" and card.kind in [e["kind"] for e in seats[0].data["deck_list"]]
    assert len(cards[200].hand) == 6 and len(cards[200].deck) == len(seats[0].data["deck_list"]) - 7


@pytest.mark.parametrize("seed", range(25))
def test_FM_8_engineer_picks_are_among_his_first_six(seed):
    seats = dealt_seats([("sheriff", "engineer")])
    deck = [e["kind"] for e in seats[0].data["deck_list"]]
    doubled = next(k for k, n in Counter(deck).items() if n == 2)
    single = next(k for k in deck if k != doubled)
    for picks in ([doubled, single], [doubled, doubled]):
        seats = dealt_seats([("sheriff", "engineer")], extra={0: {"engineer_picks": picks}})
        cards, _data, _events = opened(seats, seed)
        hand = Counter(i.kind for i in cards[200].hand)
        assert all(hand[k] >= n for k, n in Counter(picks).items()), (picks, hand)


def test_FM_8_engineer_picks_ignored_for_another_role_or_missing_cards():
    seats = dealt_seats([("sheriff", "engineer")], extra={0: {"engineer_picks": ["contract", "contract"]}})
    cards, _data, _events = opened(seats)  # not in his deck: ignored, the opening still works
    assert len(cards[200].hand) == 6
    assert opening._engineer_picks({"public_role": "gossip", "engineer_picks": ["pistol"]}) == ()


def test_FM_8_lucky_gets_two_redeals_psychic_sees_top_three():
    from gm.modules.forum_mafia.module import MODULE

    seats = dealt_seats([("sheriff", "lucky"), ("doctor", "psychic"), ("judge", "authority")])
    cards, data, _events = opened(seats)
    assert data[200]["lucky_redeals_left"] == 2
    assert "lucky_redeals_left" not in data[201] and "lucky_redeals_left" not in data[202]
    own = MODULE.own_seat_data(data[201])
    assert own["deck_top"] == [i.kind for i in cards[201].deck[:3]]
    assert "deck" not in own["cards"] and own["cards"]["deck_count"] == len(cards[201].deck)
    assert "deck_top" not in MODULE.own_seat_data(data[202])
    assert MODULE.public_seat_data(data[201]) == {"hand_count": 6, "public_role": "psychic"}


def test_FM_4_5_random_valid_deck_logged_to_him_and_the_master():
    seats = dealt_seats([("sheriff", "authority"), ("hero", "authority")], decks=False)
    seats[0] = dealt_seats([("sheriff", "authority")])[0]
    cards, data, events = opened(seats)
    rules = deckrules.rules_for(secret_role="hero", public_role="authority")
    assert deckrules.validate_deck(data[201]["deck_list"], collection=COLLECTION, rules=rules) == []
    told = [(e.kind, e.visibility, e.seat) for e in events if e.kind.startswith("cards.random_deck")]
    assert told == [("cards.random_deck", "seat", 201), ("cards.random_deck_master", "master", None)]
    assert len(cards[201].hand) == 6


def test_FM_3_3_joker_without_colours_gets_two_at_random():
    seats = dealt_seats([("joker", "authority")], decks=False, extra={0: {"joker_colours": None}})
    _cards, data, events = opened(seats)
    colours = data[200]["joker_colours"]
    assert len(set(colours)) == 2 and set(colours) <= set(deckrules.ROLE_COLOURS)
    (told,) = [e for e in events if e.kind == "fm.joker_colours_random"]
    assert (told.visibility, told.seat, told.data) == ("seat", 200, {"colours": colours})
    rules = deckrules.rules_for(secret_role="joker", public_role="authority", joker_colours=colours)
    assert deckrules.validate_deck(data[200]["deck_list"], collection=COLLECTION, rules=rules) == []


def test_FM_3_1_mafiosi_learn_each_others_decks_and_hands_at_the_opening():
    plan = [("mafia_boss", "authority"), ("sheriff", "authority"), ("mafia_advisor", "geek"),
            ("mafia_killer", "authority")]
    seats = dealt_seats(plan)
    cards, _data, events = opened(seats)
    (told,) = [e for e in events if e.kind == "fm.mafia_decks"]
    assert (told.visibility, told.group) == ("group", "faction:mafia")
    assert told.data["members"] == [
        {"name": s.name, "hand": [i.kind for i in cards[s.id].hand], "deck": [e["kind"] for e in s.data["deck_list"]]}
        for s in seats if s.data["secret_role"] in MAFIA_ROLES]
    opening = [e for e in events if e.kind == "fm.opening"]
    assert [(e.visibility, e.seat) for e in opening] == [("seat", s.id) for s in seats]


def test_FM_3_5_opening_is_reproducible_and_seed_dependent():
    seats = dealt_seats([("sheriff", "lucky"), ("maniac", "cardsharp"), ("doctor", "engineer")])
    assert opening.open_game(seats, STATE, random.Random(9)) == opening.open_game(seats, STATE, random.Random(9))
    assert opening.open_game(seats, STATE, random.Random(9))[0] != opening.open_game(seats, STATE, random.Random(10))[0]


def test_FM_4_5_module_resolves_deck_building_into_night_1():
    from gm.modules.forum_mafia.module import MODULE

    seats = dealt_seats([("sheriff", "authority"), ("doctor", "geek")])
    result = MODULE.resolve(state=STATE, phase=PhaseInfo("deckbuilding", 1, 1), seats=seats, orders={},
                            rng=random.Random(4))
    assert result.next_phase == PhaseSpec("night", 1)
    assert [len(result.seat_data[s.id]["cards"]["hand"]) for s in seats] == [6, 5]


def test_forum_mafia_engine_and_roles_import_no_django():
    for module in ("gm.modules.forum_mafia.engine.opening", "gm.modules.forum_mafia.engine.roles"):
        code = ("import sys, types\n"
                "gm = types.ModuleType('gm'); gm.__path__ = ['gm']; sys.modules['gm'] = gm\n"
                f"import {module}\n"
                "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))")
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "[]", module
