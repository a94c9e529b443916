"""The card containers (Hand, Sleeve, deck, discard pile): pure, no database, no Django setup needed.

Example tests name the rule they check (FM-4.5, FM-4.6, FM-4.7, FM-5.3, FM-5.7, FM-6.1, FM-8, §11); the property
tests at the end check the conservation law, uid uniqueness, mulligans, seeded shuffles, the JSON round trip and
refused reorders over random operation sequences.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from cards.containers import CONTAINERS, DESTINATIONS, ERROR_CODES, ContainerError, Containers
from cards.domain import MULLIGAN, PROVENANCES, CardInstance, CardKind, Collection

ROOT = Path(__file__).resolve().parents[2]

COLLECTION = Collection.from_kinds([
    CardKind("advice", "support", timing="any"),
    CardKind("pistol", "damage"),
    CardKind("sniper_rifle", "damage", price=1),
    CardKind("surveillance_camera", "recon"),
    CardKind("witness", "recon"),
    CardKind("bunker", "protection", target="none"),
    CardKind("body_armour", "protection"),
    CardKind("hack", "sabotage", timing="any"),
    CardKind("arson", "sabotage"),
    CardKind("autopsy", "recon", free=True, timing="any", target="dead"),
    CardKind("coffee", "support", free=True, timing="any", target="none"),
    CardKind("mulligan", "special", free=True, timing="any", target="none"),
    CardKind("dummy", "special", timing="any", target="none"),
])
#: 15 non-free cards (at most 2 of a kind) + 1 free: a legal FM-4.3 deck list.
DECK15 = ["pistol", "pistol", "sniper_rifle", "sniper_rifle", "surveillance_camera", "surveillance_camera",
          "witness", "witness", "bunker", "bunker", "body_armour", "body_armour", "advice", "advice", "hack"]
DECK16 = [*DECK15, "autopsy"]
SLUGS = sorted(COLLECTION.kinds)


def make(hand=(), sleeve=(), deck=(), discard=()) -> Containers:
    """Containers holding the given slugs (uids 1, 2, … across hand, sleeve, deck, discard in that order)."""
    c = Containers()
    for name, slugs in (("hand", hand), ("sleeve", sleeve), ("deck_bottom", deck), ("discard", discard)):
        for slug in slugs:
            c.add(slug, name, "deck")
    return c


def uids(items) -> list[int]:
    return [i.uid for i in items]


def kinds(items) -> list[str]:
    return [i.kind for i in items]


def refused(code: str, c: Containers, op, *args, **kwargs) -> ContainerError:
    """Assert ``op`` raises ``code`` and leaves ``c`` unchanged."""
    before = c.to_dict()
    with pytest.raises(ContainerError) as info:
        op(*args, **kwargs)
    assert info.value.code == code, info.value
    assert info.value.code in ERROR_CODES
    assert c.to_dict() == before
    return info.value


# ---------------------------------------------------------------------------------------------- purity


# ---------------------------------------------------------------------------------------------- draws


def test_FM_4_6_draw_takes_top_of_deck_to_end_of_hand():
    c = make(hand=["pistol"], deck=["advice", "bunker", "witness"])
    top = c.deck[0]
    drawn = c.draw()
    assert drawn == [top]
    assert c.hand_kinds() == ["pistol", "advice"]
    assert kinds(c.deck) == ["bunker", "witness"]


def test_FM_4_6_draw_several_keeps_deck_order_at_end_of_hand():
    c = make(hand=["pistol"], deck=["advice", "bunker", "witness"])
    assert kinds(c.draw("hand", 2)) == ["advice", "bunker"]
    assert c.hand_kinds() == ["pistol", "advice", "bunker"]


def test_FM_4_6_draw_into_sleeve_goes_to_end_of_sleeve():
    """FM-8 ``cardsharp`` / ``banker`` draw into the Sleeve."""
    c = make(sleeve=["coffee"], deck=["advice", "bunker"])
    c.draw(to="sleeve")
    assert c.sleeve_kinds() == ["coffee", "advice"]
    assert c.hand == []


def test_FM_4_6_draw_zero_and_bad_arguments():
    c = make(deck=["advice"])
    assert c.draw("hand", 0) == []
    refused("bad_container", c, c.draw, "deck")
    refused("bad_container", c, c.draw, "discard")
    refused("bad_count", c, c.draw, "hand", -1)
    refused("bad_count", c, c.draw, "hand", 1.5)
    refused("bad_count", c, c.draw, "hand", True)


def test_FM_4_7_draw_from_empty_deck_gives_new_mulligan():
    c = make(hand=["pistol"])
    next_uid = c.next_uid
    (m,) = c.draw()
    assert m == CardInstance(uid=next_uid, kind=MULLIGAN, provenance="rule", free=True)
    assert c.hand_kinds() == ["pistol", MULLIGAN]
    assert c.deck == []
    assert c.total() == 2


def test_FM_4_7_draw_past_the_end_of_the_deck_gives_mulligans_for_the_rest():
    c = make(deck=["advice", "bunker"])
    drawn = c.draw("hand", 4)
    assert kinds(drawn) == ["advice", "bunker", MULLIGAN, MULLIGAN]
    assert len(set(uids(c.hand))) == 4
    assert c.draw("sleeve")[0].kind == MULLIGAN


def test_FM_4_5_deal_opening_hand_draws_six_and_geek_five():
    c = Containers()
    c.new_deck(DECK15, random.Random(1), COLLECTION)
    top6 = c.deck[:6]
    assert c.deal_opening_hand() == top6
    assert c.counts() == {"hand": 6, "sleeve": 0, "deck": 9, "discard": 0}
    geek = Containers()
    geek.new_deck(DECK15, random.Random(1), COLLECTION)
    geek.deal_opening_hand(5)
    assert geek.counts()["hand"] == 5


# ---------------------------------------------------------------------------------------------- discards


SEED_HAND = ["advice", "pistol", "surveillance_camera", "bunker", "witness"]


def test_FM_6_1_discard_one_from_front_seed_example():
    """Seed: Hand [advice, pistol, surveillance_camera, bunker, witness] losing 1 loses ``advice`` (first)."""
    c = make(hand=SEED_HAND)
    lost = c.discard_front(1)
    assert kinds(lost) == ["advice"]
    assert c.hand_kinds() == ["pistol", "surveillance_camera", "bunker", "witness"]
    assert kinds(c.discard) == ["advice"]


def test_FM_6_1_worked_example_bunker_played_shot_for_four():
    """Вася plays ``bunker`` (+2 armour), takes 4: 2 losses; one absorbs the bunker's replacement draw (FM-5.4),
    one discards the front card → [pistol, surveillance_camera, witness]."""
    c = make(hand=SEED_HAND, deck=["coffee", "hack"])
    bunker = c.hand[3].uid
    c.discard_card(bunker, source="hand")  # played → discard pile (FM-4.6)
    losses, owed_draws = 4 - 2, 1
    absorbed = min(losses, owed_draws)
    c.discard_front(losses - absorbed)
    c.draw("hand", owed_draws - absorbed)
    assert c.hand_kinds() == ["pistol", "surveillance_camera", "witness"]
    assert kinds(c.discard) == ["bunker", "advice"]
    assert len(c.deck) == 2


def test_FM_6_1_discard_front_in_hand_order_respects_reordering():
    c = make(hand=SEED_HAND)
    c.reorder_hand(list(reversed(uids(c.hand))))
    assert kinds(c.discard_front(2)) == ["witness", "bunker"]
    assert c.hand_kinds() == ["surveillance_camera", "pistol", "advice"]


def test_FM_6_1_discard_front_more_than_hand_discards_all():
    c = make(hand=["pistol", "bunker"])
    assert kinds(c.discard_front(5)) == ["pistol", "bunker"]
    assert c.hand == []
    assert c.discard_front(1) == []
    assert c.discard_front(0) == []
    refused("bad_count", c, c.discard_front, -1)


def test_FM_8_warrior_first_damage_discards_go_to_sleeve():
    """``warrior``: his first two damage discards go to the Sleeve instead (the engine tracks how many are left)."""
    c = make(hand=SEED_HAND, sleeve=["coffee"])
    lost = c.discard_front(3, to_sleeve=2)
    assert kinds(lost) == ["advice", "pistol", "surveillance_camera"]
    assert c.sleeve_kinds() == ["coffee", "advice", "pistol"]
    assert kinds(c.discard) == ["surveillance_camera"]
    assert kinds(c.discard_front(1, to_sleeve=5)) == ["bunker"]
    assert c.sleeve_kinds()[-1] == "bunker"


def test_FM_4_6_discard_named_card_from_hand_or_sleeve():
    c = make(hand=["pistol", "bunker"], sleeve=["coffee"], deck=["hack"], discard=["advice"])
    pistol, bunker, coffee, hack, advice = uids(c.hand + c.sleeve + c.deck + c.discard)
    assert c.discard_card(bunker).kind == "bunker"
    assert c.discard_card(coffee).kind == "coffee"
    assert kinds(c.discard) == ["advice", "bunker", "coffee"]
    refused("not_in_hand_or_sleeve", c, c.discard_card, hack)
    refused("not_in_hand_or_sleeve", c, c.discard_card, advice)
    refused("unknown_uid", c, c.discard_card, 999)


def test_FM_5_2_discard_card_with_source_insists_on_that_container():
    c = make(hand=["pistol"], sleeve=["coffee"])
    pistol, coffee = uids(c.hand + c.sleeve)
    refused("not_in_sleeve", c, c.discard_card, pistol, source="sleeve")
    refused("not_in_hand", c, c.discard_card, coffee, source="hand")
    refused("bad_container", c, c.discard_card, coffee, source="deck")
    assert c.discard_card(coffee, source="sleeve").uid == coffee


def test_FM_5_3_discard_many_is_all_or_nothing():
    """Two Hand cards discarded instead of plays: both or neither."""
    c = make(hand=["pistol", "bunker", "witness"], sleeve=["coffee"])
    pistol, bunker, witness, coffee = uids(c.hand + c.sleeve)
    refused("not_in_hand", c, c.discard_many, [pistol, coffee], source="hand")
    refused("duplicate_uid", c, c.discard_many, [pistol, pistol])
    refused("unknown_uid", c, c.discard_many, [pistol, 999])
    assert kinds(c.discard_many([witness, pistol], source="hand")) == ["witness", "pistol"]
    assert c.hand_kinds() == ["bunker"]
    assert kinds(c.discard) == ["witness", "pistol"]


def test_arson_discards_first_two_from_sleeve_in_sleeve_order():
    """§11 ``arson`` (and the FM-5.7 default price cards): the first N in Sleeve order."""
    c = make(sleeve=["coffee", "dummy", "witness"])
    assert kinds(c.discard_first_from_sleeve(2)) == ["coffee", "dummy"]
    assert c.sleeve_kinds() == ["witness"]
    assert kinds(c.discard_first_from_sleeve(2)) == ["witness"]
    assert c.discard_first_from_sleeve(2) == []
    assert kinds(c.discard) == ["coffee", "dummy", "witness"]


def test_hack_mills_top_three_of_deck():
    """§11 ``hack``: the top 3 of the deck are discarded; a short deck loses what it has; no mulligans."""
    c = make(deck=["pistol", "bunker", "witness", "advice"])
    assert kinds(c.mill_deck(3)) == ["pistol", "bunker", "witness"]
    assert kinds(c.deck) == ["advice"]
    assert kinds(c.mill_deck(3)) == ["advice"]
    assert c.mill_deck(3) == []
    assert c.total() == 4
    refused("bad_count", c, c.mill_deck, -3)


# ---------------------------------------------------------------------------------------------- moves


def test_move_between_every_container():
    """§11 ``stash`` (Hand→Sleeve), ``reserve`` (deck→Sleeve), ``last_stand`` (discard→Hand)."""
    c = make(hand=["pistol", "bunker"], deck=["advice", "hack"], discard=["witness"])
    pistol, bunker, advice, hack, witness = uids(c.hand + c.deck + c.discard)
    c.move(pistol, "sleeve")
    c.move(advice, "sleeve", source="deck")
    c.move(witness, "hand", source="discard")
    assert c.hand_kinds() == ["bunker", "witness"]
    assert c.sleeve_kinds() == ["pistol", "advice"]
    c.move(bunker, "deck_bottom")
    c.move(witness, "deck_top")
    assert kinds(c.deck) == ["witness", "hack", "bunker"]
    c.move(hack, "discard")
    assert kinds(c.discard) == ["hack"]
    assert c.total() == 5


def test_move_errors_change_nothing():
    c = make(hand=["pistol"], deck=["advice"])
    pistol, advice = uids(c.hand + c.deck)
    refused("bad_container", c, c.move, pistol, "deck")
    refused("bad_container", c, c.move, pistol, "graveyard")
    refused("unknown_uid", c, c.move, 42, "hand")
    refused("not_in_hand", c, c.move, advice, "sleeve", source="hand")
    refused("not_in_deck", c, c.move, pistol, "sleeve", source="deck")


def test_pickpocket_take_from_gives_fresh_uid_in_receiver():
    """§11 ``pickpocket``: a random Hand card of the target moves to the end of the thief's Hand."""
    thief = make(hand=["pistol", "bunker", "witness"])
    victim = make(hand=["advice", "coffee"])
    victim.add("dummy", "sleeve", "role")
    victim_uid = victim.random_uid(random.Random(3))
    stolen_before = victim.get(victim_uid)
    inst = thief.take_from(victim, victim_uid)
    assert inst.kind == stolen_before.kind
    assert (inst.provenance, inst.free) == (stolen_before.provenance, stolen_before.free)
    assert inst.uid == 4 and thief.next_uid == 5
    assert thief.hand[-1] == inst
    assert victim_uid not in victim
    assert victim.total() + thief.total() == 3 + 3
    assert len(set(thief.uids())) == thief.total()


def test_take_from_errors():
    a = make(hand=["pistol"])
    b = make(hand=["advice"], sleeve=["coffee"])
    advice, coffee = uids(b.hand + b.sleeve)
    before_b = b.to_dict()
    refused("same_owner", a, a.take_from, a, a.hand[0].uid)
    refused("unknown_uid", a, a.take_from, b, 99)
    refused("not_in_hand", a, a.take_from, b, coffee, source="hand")
    refused("bad_container", a, a.take_from, b, advice, to="deck")
    assert b.to_dict() == before_b
    empty = Containers()
    refused("empty", empty, empty.random_uid, random.Random(1))
    refused("bad_container", empty, empty.random_uid, random.Random(1), "pile")


def test_random_uid_is_seeded():
    c = make(hand=DECK15)
    assert [c.random_uid(random.Random(s)) for s in range(20)] == [c.random_uid(random.Random(s)) for s in range(20)]
    assert len({c.random_uid(random.Random(s)) for s in range(50)}) > 5


def test_FM_4_6_reorder_hand():
    c = make(hand=SEED_HAND)
    a, b, s, bu, w = uids(c.hand)
    c.reorder_hand([w, a, bu, b, s])
    assert c.hand_kinds() == ["witness", "advice", "bunker", "pistol", "surveillance_camera"]
    c.reorder_hand((a, b, s, bu, w))
    assert c.hand_kinds() == SEED_HAND


@pytest.mark.parametrize("bad", [
    "missing", "extra", "duplicate", "unknown", "sleeve_uid", "bool", "string", "empty", "none", "str_list",
])
def test_FM_4_6_bad_reorder_is_refused_and_changes_nothing(bad):
    c = make(hand=["pistol", "bunker", "witness"], sleeve=["coffee"])
    p, bu, w, co = uids(c.hand + c.sleeve)
    assert p == 1  # so ``True`` would pass for it if bools were accepted
    order = {
        "missing": [p, bu], "extra": [p, bu, w, 77], "duplicate": [p, p, w], "unknown": [p, bu, 77],
        "sleeve_uid": [p, bu, co], "bool": [True, bu, w], "string": "123",
        "empty": [], "none": None, "str_list": [str(p), str(bu), str(w)],
    }[bad]
    error = refused("bad_order", c, c.reorder_hand, order)
    assert error.params["expected"] == [p, bu, w]


def test_FM_4_5_shuffle_deck_is_seeded():
    a, b = make(deck=DECK15), make(deck=DECK15)
    a.shuffle_deck(random.Random(7))
    b.shuffle_deck(random.Random(7))
    assert uids(a.deck) == uids(b.deck)
    assert sorted(uids(a.deck)) == list(range(1, 16))
    b.shuffle_deck(random.Random(8))
    assert uids(a.deck) != uids(b.deck)


def test_set_free_replaces_flag_in_place():
    c = make(hand=["pistol", "bunker"])
    bunker = c.hand[1].uid
    assert c.set_free(bunker).free is True
    assert c.find(bunker) == ("hand", 1)
    assert c.set_free(bunker, False).free is False
    refused("unknown_uid", c, c.set_free, 50)


# ---------------------------------------------------------------------------------------------- new instances


def test_FM_8_add_role_start_card_to_sleeve():
    """``paranoid`` starts with ``bunker`` in the Sleeve (provenance ``role``); ``geek`` gets any card
    (``ability``); with a collection the kind's free flag carries over."""
    c = make(sleeve=["coffee"])
    bunker = c.add("bunker", "sleeve", "role")
    assert bunker == CardInstance(uid=2, kind="bunker", provenance="role", free=False)
    assert c.sleeve_kinds() == ["coffee", "bunker"]
    autopsy = c.add("autopsy", "sleeve", "ability", collection=COLLECTION)
    assert autopsy.free is True
    assert c.add("dummy", "sleeve", "role", free=True).free is True
    assert c.add("pistol", "deck_top", "rule").uid == c.deck[0].uid
    assert c.add("pistol", "deck_bottom", "deck").uid == c.deck[-1].uid
    assert c.add("pistol", "discard", "deck").uid == c.discard[-1].uid
    assert c.add("pistol", "hand", "deck").uid == c.hand[-1].uid
    assert c.next_uid == 9


def test_add_errors():
    c = Containers()
    refused("bad_provenance", c, c.add, "bunker", "sleeve", "gift")
    refused("bad_container", c, c.add, "bunker", "deck", "role")
    refused("unknown_kind", c, c.add, "laser", "sleeve", "role", collection=COLLECTION)
    refused("unknown_kind", c, c.add, "", "sleeve", "role")
    assert c.next_uid == 1


def test_FM_4_5_new_deck_is_shuffled_with_fresh_uids_and_kind_freeness():
    c = Containers()
    c.add("bunker", "sleeve", "role")
    deck = c.new_deck(DECK16, random.Random(11), COLLECTION)
    assert deck == c.deck
    assert Counter(kinds(deck)) == Counter(DECK16)
    assert kinds(deck) != DECK16
    assert sorted(uids(deck)) == list(range(2, 18))
    assert all(i.provenance == "deck" for i in deck)
    assert [i.kind for i in deck if i.free] == ["autopsy"]
    again = Containers()
    again.add("bunker", "sleeve", "role")
    again.new_deck(DECK16, random.Random(11), COLLECTION)
    assert again == c


def test_new_deck_errors():
    c = make(deck=["pistol"])
    refused("deck_not_empty", c, c.new_deck, DECK15, random.Random(1), COLLECTION)
    e = Containers()
    refused("unknown_kind", e, e.new_deck, [*DECK15, "laser"], random.Random(1), COLLECTION)
    refused("bad_guaranteed", e, e.new_deck, DECK15, random.Random(1), COLLECTION, guaranteed=["arson"])
    refused("bad_guaranteed", e, e.new_deck, DECK15, random.Random(1), COLLECTION, guaranteed=["hack", "hack"])
    refused("bad_guaranteed", e, e.new_deck, DECK15, random.Random(1), COLLECTION, guaranteed=["pistol", "bunker"],
            within=1)
    refused("bad_count", e, e.new_deck, DECK15, random.Random(1), COLLECTION, within=-1)


@pytest.mark.parametrize("seed", range(30))
def test_FM_8_engineer_two_guaranteed_cards_are_among_first_six(seed):
    c = Containers()
    c.new_deck(DECK15, random.Random(seed), COLLECTION, guaranteed=["hack", "advice"])
    hand = c.deal_opening_hand()
    assert {"hack", "advice"} <= set(kinds(hand))
    assert Counter(kinds(c.hand + c.deck)) == Counter(DECK15)


def test_FM_8_engineer_guaranteed_positions_vary():
    positions = set()
    for seed in range(40):
        c = Containers()
        c.new_deck(DECK15, random.Random(seed), COLLECTION, guaranteed=["hack"])
        positions.add(kinds(c.deck).index("hack"))
    assert positions == set(range(6))


def test_FM_4_7_rebuild_only_with_empty_deck_and_keeps_discard():
    c = Containers()
    c.new_deck(DECK15, random.Random(2), COLLECTION)
    c.deal_opening_hand()
    refused("deck_not_empty", c, c.rebuild, DECK15, random.Random(3), COLLECTION)
    c.mill_deck(9)
    c.discard_front(2)
    hand, discard = list(c.hand), list(c.discard)
    old_uids = set(c.uids())
    new = c.rebuild(DECK16, random.Random(3), COLLECTION)
    assert c.hand == hand and c.discard == discard
    assert Counter(kinds(new)) == Counter(DECK16)
    assert not old_uids & set(uids(new))
    assert len(set(c.uids())) == c.total() == 15 + 16
    assert [i.kind for i in new if i.free] == ["autopsy"]


def test_FM_8_magician_rebuild_makes_bottom_two_free():
    c = Containers()
    new = c.rebuild(DECK15, random.Random(5), COLLECTION, free_bottom=2)
    assert [i.free for i in new] == [False] * 13 + [True, True]
    assert c.deck == new
    refused("bad_count", c, c.rebuild, DECK15, random.Random(5), COLLECTION, free_bottom=-1)


def test_FM_8_lucky_redeal_returns_hand_and_draws_again():
    c = Containers()
    c.new_deck(DECK15, random.Random(1), COLLECTION)
    first = c.deal_opening_hand()
    again = c.redeal(random.Random(99))
    assert len(again) == 6 and c.counts() == {"hand": 6, "sleeve": 0, "deck": 9, "discard": 0}
    assert sorted(c.uids()) == list(range(1, 16))
    assert uids(first) != uids(again)


# ---------------------------------------------------------------------------------------------- queries, storage


def test_queries_counts_find_get_peek():
    """FM-5.1 counts; FM-8 ``psychic`` sees the top 3 of his deck (``peek``)."""
    c = make(hand=["pistol", "bunker"], sleeve=["coffee"], deck=["advice", "hack", "witness", "arson"],
             discard=["autopsy"])
    assert c.counts() == {"hand": 2, "sleeve": 1, "deck": 4, "discard": 1}
    assert c.hand_kinds() == ["pistol", "bunker"]
    assert c.find(2) == ("hand", 1)
    assert c.find(5) == ("deck", 1)
    assert c.get(8).kind == "autopsy"
    assert 8 in c and 9 not in c
    refused("unknown_uid", c, c.find, 9)
    assert kinds(c.peek()) == ["advice", "hack", "witness"]
    assert kinds(c.peek(10)) == ["advice", "hack", "witness", "arson"]
    assert c.counts()["deck"] == 4


def test_to_dict_from_dict_round_trip_through_json():
    c = make(hand=["pistol"], sleeve=["coffee"], deck=["advice"], discard=["bunker"])
    c.add("dummy", "sleeve", "role", free=True)
    c.draw("hand", 3)
    data = c.to_dict()
    assert set(data) == {*CONTAINERS, "next_uid"}
    assert Containers.from_dict(json.loads(json.dumps(data))) == c
    assert Containers.from_dict(None) == Containers() == Containers.from_dict({})


def test_from_dict_refuses_bad_data_and_repairs_next_uid():
    one = {"uid": 1, "kind": "pistol", "provenance": "deck", "free": False}
    with pytest.raises(ContainerError) as info:
        Containers.from_dict({"hand": [one], "deck": [one]})
    assert info.value.code == "bad_data"
    for bad in ({"hand": [{"kind": "pistol"}]}, {"hand": [{**one, "provenance": "gift"}]},
                {"hand": [one], "next_uid": "x"}, {"hand": "oops"}):
        with pytest.raises(ContainerError) as info:
            Containers.from_dict(bad)
        assert info.value.code == "bad_data"
    assert Containers.from_dict({"hand": [{**one, "uid": 9}], "next_uid": 3}).next_uid == 10
    with pytest.raises(ContainerError):
        Containers(hand=["pistol"])


def test_copy_is_independent():
    c = make(hand=["pistol", "bunker"], deck=["advice"])
    d = c.copy()
    d.draw()
    d.discard_front(1)
    assert c.hand_kinds() == ["pistol", "bunker"] and len(c.deck) == 1
    assert d != c


def test_container_error_renders_params():
    error = ContainerError("not_in_hand", "card %(uid)s is not in the %(source)s", uid=5, source="hand")
    assert str(error) == "card 5 is not in the hand"
    assert error.params == {"uid": 5, "source": "hand"}
    assert "not_in_hand" in repr(error)


# ---------------------------------------------------------------------------------------------- properties

instance_lists = st.lists(st.tuples(st.sampled_from(SLUGS), st.sampled_from(PROVENANCES), st.booleans()),
                          max_size=8)


@st.composite
def containers(draw) -> Containers:
    c = Containers(next_uid=draw(st.integers(min_value=1, max_value=50)))
    for name in ("hand", "sleeve", "deck_bottom", "discard"):
        for kind, provenance, free in draw(instance_lists):
            c.add(kind, name, provenance, free=free)
    c.next_uid += draw(st.integers(min_value=0, max_value=5))
    return c


@settings(max_examples=200, deadline=None)
@given(containers())
def test_property_to_dict_from_dict_round_trip_is_lossless(c):
    data = c.to_dict()
    back = Containers.from_dict(json.loads(json.dumps(data)))
    assert back == c
    assert back.to_dict() == data


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63), other=st.integers(min_value=0, max_value=2**63))
def test_property_FM_4_5_same_seed_same_shuffle_different_seed_different(seed, other):
    """A 15-card deck: the same seed gives the same order; different seeds practically never do (15! orders).
    (Seeds are non-negative: ``random.Random`` treats ``n`` and ``-n`` alike.)"""
    decks = []
    for s in (seed, seed, other):
        c = Containers()
        c.new_deck(DECK15, random.Random(s), COLLECTION)
        decks.append(uids(c.deck))
    assert decks[0] == decks[1]
    assert sorted(decks[0]) == list(range(1, 16))
    if seed != other:
        assert decks[0] != decks[2]


@settings(max_examples=200, deadline=None)
@given(c=containers(), n=st.integers(min_value=0, max_value=12))
def test_property_FM_4_7_draws_past_the_deck_are_mulligans(c, n):
    deck_before = list(c.deck)
    drawn = c.draw("hand", n)
    assert len(drawn) == n
    assert drawn[: len(deck_before)] == deck_before[:n]
    extra = drawn[len(deck_before):]
    assert all((i.kind, i.provenance, i.free) == (MULLIGAN, "rule", True) for i in extra)
    assert c.hand[len(c.hand) - n:] == drawn
    assert len(set(c.uids())) == c.total()


@settings(max_examples=200, deadline=None)
@given(c=containers(), data=st.data())
def test_property_FM_4_6_bad_reorder_refused_and_changes_nothing(c, data):
    hand = uids(c.hand)
    good = data.draw(st.permutations(hand))
    other = [u for u in c.uids() if u not in hand] + [c.next_uid + 100]
    kind = data.draw(st.sampled_from(["drop", "dup", "foreign", "add"]))
    if kind == "drop":
        assume(good)
        bad = good[:-1]
    elif kind == "dup":
        assume(len(good) >= 2)
        bad = [good[0], *good[:-1]]
    elif kind == "foreign":
        assume(good)
        bad = [*good[:-1], data.draw(st.sampled_from(other))]
    else:
        bad = [*good, data.draw(st.sampled_from(other))]
    refused("bad_order", c, c.reorder_hand, bad)
    c.reorder_hand(good)
    assert uids(c.hand) == list(good)


#: Decks in the state machine are short (validated elsewhere anyway), so they often run out and get rebuilt.
SMALL_DECK = ["pistol", "bunker", "witness", "advice", "hack", "pistol", "autopsy"]


class ContainersMachine(RuleBasedStateMachine):
    """Random sequences of every operation on two owners (``a`` and ``b``, for ``take_from``), checked against a
    model of which uids each owner must hold: instances appear only through mulligans, ``add``, ``take_from``,
    ``new_deck``/``rebuild`` — each counted exactly — and never disappear except by ``take_from``."""

    @initialize(seed_a=st.integers(min_value=0), seed_b=st.integers(min_value=0),
                deal=st.integers(min_value=0, max_value=6))
    def setup(self, seed_a, seed_b, deal):
        self.owners = {"a": Containers(), "b": Containers()}
        self.expected = {"a": set(), "b": set()}
        self.mulligans = 0  # mulligans made by draws from an empty deck (plus any added by hand), both owners
        for name, seed in (("a", seed_a), ("b", seed_b)):
            c = self.owners[name]
            self.expected[name] |= set(uids(c.new_deck(SMALL_DECK, random.Random(seed), COLLECTION)))
            c.deal_opening_hand(deal)

    def check_refused(self, owner, code, op, *args, **kwargs):
        before = {n: c.to_dict() for n, c in self.owners.items()}
        with pytest.raises(ContainerError) as info:
            op(*args, **kwargs)
        assert info.value.code == code
        assert {n: c.to_dict() for n, c in self.owners.items()} == before

    owner = st.sampled_from(["a", "b"])

    @rule(owner=owner, to=st.sampled_from(["hand", "sleeve"]), n=st.integers(min_value=0, max_value=4))
    def draw(self, owner, to, n):
        c = self.owners[owner]
        deck = list(c.deck)
        old_next = c.next_uid
        drawn = c.draw(to, n)
        assert drawn[: len(deck)] == deck[:n]
        made = drawn[len(deck):]
        assert len(made) == max(0, n - len(deck))
        assert all(i == CardInstance(i.uid, MULLIGAN, "rule", True) and i.uid >= old_next for i in made)
        assert getattr(c, to)[len(getattr(c, to)) - n:] == drawn
        self.expected[owner] |= set(uids(made))
        self.mulligans += len(made)

    @rule(owner=owner, n=st.integers(min_value=0, max_value=4), to_sleeve=st.integers(min_value=0, max_value=2))
    def discard_front(self, owner, n, to_sleeve):
        c = self.owners[owner]
        front = c.hand[:n]
        assert c.discard_front(n, to_sleeve=to_sleeve) == front
        diverted, discarded = front[:to_sleeve], front[to_sleeve:]
        assert c.sleeve[len(c.sleeve) - len(diverted):] == diverted
        assert c.discard[len(c.discard) - len(discarded):] == discarded

    @rule(owner=owner, data=st.data())
    def discard_card(self, owner, data):
        c = self.owners[owner]
        uid = data.draw(st.sampled_from([*c.uids(), c.next_uid + 7]))
        where = c.find(uid)[0] if uid in c else None
        if where in ("hand", "sleeve"):
            assert c.discard_card(uid).uid == uid
            assert c.discard[-1].uid == uid
        else:
            self.check_refused(owner, "unknown_uid" if where is None else "not_in_hand_or_sleeve",
                               c.discard_card, uid)

    @rule(owner=owner, n=st.integers(min_value=0, max_value=3))
    def discard_first_from_sleeve(self, owner, n):
        c = self.owners[owner]
        first = c.sleeve[:n]
        assert c.discard_first_from_sleeve(n) == first

    @rule(owner=owner, n=st.integers(min_value=0, max_value=16))
    def mill_deck(self, owner, n):
        c = self.owners[owner]
        top = c.deck[:n]
        assert c.mill_deck(n) == top

    @rule(owner=owner, to=st.sampled_from(DESTINATIONS), data=st.data())
    def move(self, owner, to, data):
        c = self.owners[owner]
        uid = data.draw(st.sampled_from([*c.uids(), c.next_uid + 7]))
        if uid not in c:
            self.check_refused(owner, "unknown_uid", c.move, uid, to)
            return
        c.move(uid, to)
        assert c.find(uid) == {"hand": ("hand", len(c.hand) - 1), "sleeve": ("sleeve", len(c.sleeve) - 1),
                               "deck_top": ("deck", 0), "deck_bottom": ("deck", len(c.deck) - 1),
                               "discard": ("discard", len(c.discard) - 1)}[to]

    @rule(owner=owner, data=st.data())
    def reorder_hand(self, owner, data):
        c = self.owners[owner]
        order = data.draw(st.permutations(uids(c.hand)))
        c.reorder_hand(order)
        assert uids(c.hand) == list(order)

    @rule(owner=owner, data=st.data())
    def bad_reorder(self, owner, data):
        c = self.owners[owner]
        hand = uids(c.hand)
        bad = data.draw(st.lists(st.sampled_from([*c.uids(), c.next_uid + 3]), max_size=len(hand) + 1))
        if sorted(bad) != sorted(hand):
            self.check_refused(owner, "bad_order", c.reorder_hand, bad)

    @rule(owner=owner, seed=st.integers(min_value=0))
    def shuffle_deck(self, owner, seed):
        c = self.owners[owner]
        before = Counter(uids(c.deck))
        c.shuffle_deck(random.Random(seed))
        assert Counter(uids(c.deck)) == before

    @rule(owner=owner, kind=st.sampled_from(SLUGS), to=st.sampled_from(DESTINATIONS),
          provenance=st.sampled_from(PROVENANCES))
    def add(self, owner, kind, to, provenance):
        inst = self.owners[owner].add(kind, to, provenance, collection=COLLECTION)
        assert inst.uid not in self.expected[owner]
        self.expected[owner].add(inst.uid)
        self.mulligans += (kind, provenance) == (MULLIGAN, "rule")

    @rule(thief=owner, seed=st.integers(min_value=0))
    def pickpocket(self, thief, seed):
        victim = "b" if thief == "a" else "a"
        t, v = self.owners[thief], self.owners[victim]
        if not v.hand:
            self.check_refused(victim, "empty", v.random_uid, random.Random(seed))
            return
        uid = v.random_uid(random.Random(seed))
        old = v.get(uid)
        new = t.take_from(v, uid)
        assert (new.kind, new.provenance, new.free) == (old.kind, old.provenance, old.free)
        self.expected[victim].discard(uid)
        assert new.uid not in self.expected[thief]
        self.expected[thief].add(new.uid)

    @rule(owner=owner, seed=st.integers(min_value=0), free_bottom=st.integers(min_value=0, max_value=2))
    def rebuild(self, owner, seed, free_bottom):
        c = self.owners[owner]
        if c.deck:
            self.check_refused(owner, "deck_not_empty", c.rebuild, SMALL_DECK, random.Random(seed), COLLECTION)
            return
        discard = list(c.discard)
        new = c.rebuild(SMALL_DECK, random.Random(seed), COLLECTION, free_bottom=free_bottom)
        assert c.discard == discard and Counter(kinds(new)) == Counter(SMALL_DECK)
        assert all(i.free for i in new[len(new) - free_bottom:])  # magician
        self.expected[owner] |= set(uids(new))

    @rule(owner=owner)
    def round_trip(self, owner):
        c = self.owners[owner]
        self.owners[owner] = Containers.from_dict(json.loads(json.dumps(c.to_dict())))
        assert self.owners[owner] == c

    @invariant()
    def conserved_and_unique(self):
        for name, c in self.owners.items():
            all_uids = c.uids()
            assert len(all_uids) == len(set(all_uids)), "uids must stay unique"
            assert set(all_uids) == self.expected[name], "instances appear/disappear only where allowed"
            assert c.next_uid > max(all_uids, default=0)
            assert c.total() == len(self.expected[name])

    @invariant()
    def mulligans_counted_exactly(self):
        made = sum(i.kind == MULLIGAN and i.provenance == "rule"
                   for c in self.owners.values() for _, i in c.instances())
        assert made == self.mulligans


ContainersMachine.TestCase.settings = settings(max_examples=200, deadline=None, stateful_step_count=30)
test_property_containers_state_machine = ContainersMachine.TestCase
