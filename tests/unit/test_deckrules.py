"""Deck-building rules (FM-4.3 and its role variants of §3 and §8), the random valid deck (FM-4.5) and the default
collection data (FM-4.2, §11). Pure Python: no database, no Django setup needed."""
from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from cards.collection_data import CARDS, default_collection
from cards.deckrules import (
    COLOUR_NAMES,
    DECK_RULE_PUBLIC_ROLES,
    SECRET_ROLE_COLOURS,
    DeckError,
    DeckRules,
    normalise_deck,
    random_valid_deck,
    rules_for,
    validate_deck,
)
from cards.domain import COLOURS, SPECIAL, TARGETS, TIMINGS, CardKind, Collection

COLLECTION = default_collection()
RULES_DOC = Path("/work/shared/rules/forum-mafia.md")


def plain(colour: str) -> list[str]:
    """Kinds of ``colour`` that are non-free for everyone (not free, price < 2), by slug."""
    return [k.slug for k in COLLECTION.buildable() if k.colour == colour and not k.free and k.price < 2]


def free_kinds(colour: str) -> list[str]:
    return [k.slug for k in COLLECTION.buildable() if k.colour == colour and k.free]


def take(colour: str, n: int, *, free: bool = False, per_kind: int = 2) -> list[str]:
    """``n`` cards of ``colour`` (non-free for everyone, or free), ``per_kind`` copies of each kind in slug order."""
    kinds = free_kinds(colour) if free else plain(colour)
    cards = [slug for slug in kinds for _ in range(per_kind)][:n]
    assert len(cards) == n, f"the collection has fewer than {n} such {colour} cards"
    return cards


def check(deck, *, secret_role="sheriff", public_role=None, joker_colours=None) -> list[DeckError]:
    rules = rules_for(secret_role=secret_role, public_role=public_role, joker_colours=joker_colours)
    return validate_deck(deck, collection=COLLECTION, rules=rules)


def codes(errors: list[DeckError]) -> list[str]:
    return [e.code for e in errors]


def only(errors: list[DeckError], code: str) -> DeckError:
    assert codes(errors) == [code], [e.render() for e in errors]
    return errors[0]


#: A sheriff's (damage, recon) 15 non-free cards, 2 copies per kind.
SHERIFF_15 = take("damage", 8) + take("recon", 7)
#: Free cards a sheriff can take without going off-colour: autopsy (recon) and bluff (neutral).
SHERIFF_FREE_ON = take("recon", 2, free=True) + take("neutral", 2, free=True)
#: Still 15 non-free, but 3 pistols.
PISTOL_X3 = SHERIFF_15[:-1] + ["pistol"]


# --- FM-3: secret role colours, FM-8: the public roles that matter ------------------------------------------------

@pytest.mark.parametrize(("role", "colours"), [
    ("mafia_boss", {"control", "recon"}),
    ("mafia_advisor", {"support", "protection"}),
    ("mafia_killer", {"damage", "sabotage"}),
    ("sheriff", {"damage", "recon"}),
    ("commissioner", {"recon", "protection"}),
    ("doctor", {"protection", "sabotage"}),
    ("agent", {"sabotage", "control"}),
    ("judge", {"control", "support"}),
    ("vigilante", {"support", "damage"}),
    ("policeman", {"damage", "protection", "control"}),
    ("detective", {"recon", "sabotage", "support"}),
    ("maniac", {"damage", "recon", "protection", "sabotage", "control", "support"}),
    ("joker", set()),
    ("traitor", {"damage", "recon", "protection", "sabotage", "control", "support"}),
    ("hero", {"recon", "protection", "sabotage", "control", "support"}),
])
def test_FM_3_1_to_3_3_secret_role_colours(role, colours):
    assert set(SECRET_ROLE_COLOURS[role]) == colours
    assert len(SECRET_ROLE_COLOURS[role]) == len(colours)


def test_FM_3_secret_roles_are_exactly_those_of_section_3():
    assert len(SECRET_ROLE_COLOURS) == 15
    assert all(c in COLOURS and c != "neutral" for cs in SECRET_ROLE_COLOURS.values() for c in cs)


def test_FM_8_public_roles_that_change_deck_rules():
    assert DECK_RULE_PUBLIC_ROLES == {"croupier", "genius", "spendthrift"}


def test_FM_3_unknown_secret_role_is_refused():
    with pytest.raises(ValueError):
        rules_for(secret_role="werewolf", public_role=None)


@pytest.mark.parametrize(("secret", "public", "expected"), [
    ("sheriff", None, dict(non_free_required=15, free_max=3, copies_max=2, off_colour_max=2, per_colour_max=None,
                           forbidden_colours=frozenset(), spendthrift=False)),
    ("sheriff", "custom name", dict(non_free_required=15, free_max=3, off_colour_max=2, per_colour_max=None)),
    ("sheriff", "magician", dict(non_free_required=15, free_max=3, off_colour_max=2, spendthrift=False)),
    ("policeman", None, dict(off_colour_max=0)),
    ("detective", None, dict(off_colour_max=0)),
    ("traitor", None, dict(per_colour_max=3, off_colour_max=2)),
    ("hero", None, dict(per_colour_max=4, forbidden_colours=frozenset({"damage"}))),
    ("sheriff", "croupier", dict(off_colour_max=4, per_colour_max=None)),
    ("traitor", "croupier", dict(off_colour_max=4, per_colour_max=4)),
    ("policeman", "croupier", dict(off_colour_max=0)),
    ("detective", "croupier", dict(off_colour_max=0)),
    ("hero", "croupier", dict(off_colour_max=4, per_colour_max=4, forbidden_colours=frozenset({"damage"}))),
    ("maniac", "genius", dict(non_free_required=12, free_max=5, off_colour_max=2)),
    ("traitor", "genius", dict(non_free_required=12, free_max=5, per_colour_max=3)),
    ("doctor", "spendthrift", dict(non_free_required=15, free_max=3, spendthrift=True)),
])
def test_FM_4_3_rules_for_role_combinations(secret, public, expected):
    rules = rules_for(secret_role=secret, public_role=public)
    assert {k: getattr(rules, k) for k in expected} == expected
    assert rules.role_colours == SECRET_ROLE_COLOURS[secret]
    assert rules.to_dict()["secret_role"] == secret


# --- FM-4.3 base rules, each at its boundary ---------------------------------------------------------------------

def test_FM_4_3_non_free_exactly_15_accepted():
    assert len(SHERIFF_15) == 15
    assert check(SHERIFF_15) == []


def test_FM_4_3_non_free_16_refused():
    error = only(check(SHERIFF_15 + ["tail"]), "non_free_count")
    assert (error.rule, error.params) == ("FM-4.3", {"count": 16, "required": 15})
    assert error.render() == "Non-free cards: 16 of 15."


def test_FM_4_3_non_free_14_refused():
    error = only(check(SHERIFF_15[:-1]), "non_free_count")
    assert error.params == {"count": 14, "required": 15}
    assert error.render() == "Non-free cards: 14 of 15."


def test_FM_4_3_free_cards_do_not_count_as_non_free():
    assert codes(check(SHERIFF_15[:-1] + SHERIFF_FREE_ON[:1])) == ["non_free_count"]


def test_FM_4_3_free_3_accepted():
    assert check(SHERIFF_15 + SHERIFF_FREE_ON[:3]) == []


def test_FM_4_3_free_4_refused():
    error = only(check(SHERIFF_15 + SHERIFF_FREE_ON), "free_count")
    assert error.params == {"count": 4, "max": 3}
    assert error.render() == "Free cards: 4 of at most 3."


def test_FM_4_3_two_copies_accepted():
    assert SHERIFF_15.count("pistol") == 2
    assert check(SHERIFF_15) == []


def test_FM_4_3_three_copies_refused():
    error = only(check(PISTOL_X3), "copies")
    assert (error.card, error.params) == ("pistol", {"card": "pistol", "count": 3, "max": 2})
    assert error.render() == "At most 2 copies of “pistol”; the deck has 3."


def test_FM_4_3_copies_of_free_cards_are_limited_too():
    error = only(check(SHERIFF_15 + ["autopsy"] * 3), "copies")
    assert error.params["count"] == 3


def test_FM_4_3_two_off_colour_accepted():
    assert check(SHERIFF_15[:13] + ["bunker", "arrest"]) == []


def test_FM_4_3_three_off_colour_refused():
    error = only(check(SHERIFF_15[:12] + ["bunker", "arrest", "advice"]), "off_colour")
    assert error.params == {"count": 3, "max": 2}
    assert error.render() == "Off-colour cards (neither your role's colours nor neutral): 3 of at most 2."


def test_FM_4_3_free_off_colour_cards_count_towards_the_limit():
    assert check(SHERIFF_15[:13] + ["bunker", "arrest"] + ["bluff"]) == []
    error = only(check(SHERIFF_15[:13] + ["bunker", "arrest"] + ["coffee"]), "off_colour")
    assert error.params == {"count": 3, "max": 2}


def test_FM_4_3_neutral_cards_are_never_off_colour():
    deck = SHERIFF_15[:9] + take("neutral", 4) + take("neutral", 2, free=True) + ["bunker", "arrest"]
    assert check(deck) == []


# --- FM-3.2 policeman / detective: no other colours except neutral -------------------------------------------------

def test_FM_3_2_policeman_zero_off_colour_accepted():
    deck = take("damage", 6) + take("protection", 5) + take("control", 2) + take("neutral", 2) + ["bluff"]
    assert check(deck, secret_role="policeman") == []


def test_FM_3_2_policeman_one_off_colour_refused():
    deck = take("damage", 6) + take("protection", 5) + take("control", 3) + ["tail"]
    error = only(check(deck, secret_role="policeman"), "off_colour")
    assert error.params == {"count": 1, "max": 0}
    assert error.render() == "Your role may take no cards of other colours except neutral; the deck has 1."


def test_FM_3_2_policeman_free_off_colour_card_refused():
    deck = take("damage", 6) + take("protection", 5) + take("control", 4) + ["coffee"]
    assert only(check(deck, secret_role="policeman"), "off_colour").params == {"count": 1, "max": 0}


def test_FM_3_2_detective_zero_off_colour_accepted():
    deck = take("recon", 6) + take("sabotage", 5) + take("support", 4) + ["coffee", "autopsy"]
    assert check(deck, secret_role="detective") == []


def test_FM_3_2_detective_one_off_colour_refused():
    deck = take("recon", 6) + take("sabotage", 5) + take("support", 3) + ["pistol"]
    assert only(check(deck, secret_role="detective"), "off_colour").params == {"count": 1, "max": 0}


# --- FM-3.3 traitor and hero ---------------------------------------------------------------------------------------

TRAITOR_15 = [c for colour in ("damage", "recon", "protection", "sabotage", "control") for c in take(colour, 3)]


def test_FM_3_3_traitor_three_of_one_colour_accepted():
    assert check(TRAITOR_15, secret_role="traitor") == []


def test_FM_3_3_traitor_four_of_one_colour_refused():
    deck = take("damage", 4) + take("recon", 3) + take("protection", 3) + take("sabotage", 3) + take("control", 2)
    error = only(check(deck, secret_role="traitor"), "per_colour")
    assert error.params == {"colour": "damage", "count": 4, "max": 3}
    assert error.render() == "At most 3 cards of one colour: Damage has 4."


def test_FM_3_3_traitor_limit_counts_free_cards():
    error = only(check(TRAITOR_15 + ["autopsy"], secret_role="traitor"), "per_colour")
    assert error.params == {"colour": "recon", "count": 4, "max": 3}


def test_FM_3_3_traitor_limit_counts_neutral_as_a_colour():
    deck = take("neutral", 4) + TRAITOR_15[:11]
    assert only(check(deck, secret_role="traitor"), "per_colour").params["colour"] == "neutral"
    assert check(take("neutral", 3) + TRAITOR_15[:12], secret_role="traitor") == []


HERO_15 = take("recon", 4) + take("protection", 4) + take("sabotage", 4) + take("control", 3)


def test_FM_3_3_hero_four_of_one_colour_accepted():
    assert check(HERO_15, secret_role="hero") == []


def test_FM_3_3_hero_five_of_one_colour_refused():
    deck = take("recon", 5) + take("protection", 4) + take("sabotage", 4) + take("control", 2)
    error = only(check(deck, secret_role="hero"), "per_colour")
    assert error.params == {"colour": "recon", "count": 5, "max": 4}


def test_FM_3_3_hero_zero_damage_accepted_one_refused():
    assert check(HERO_15, secret_role="hero") == []
    error = only(check(HERO_15[:-1] + ["pistol"], secret_role="hero"), "forbidden_colour")
    assert (error.rule, error.params) == ("FM-4.3", {"colour": "damage", "count": 1})
    assert error.render() == "Your role may take no Damage cards; the deck has 1."


def test_FM_3_3_hero_damage_is_reported_once_not_as_off_colour_nor_per_colour():
    deck = HERO_15[:10] + take("damage", 5)
    error = only(check(deck, secret_role="hero"), "forbidden_colour")
    assert error.params["count"] == 5


def test_FM_3_3_hero_may_take_neutral_cards():
    deck = take("support", 4) + take("recon", 4) + take("protection", 4) + take("neutral", 3)
    assert check(deck, secret_role="hero") == []


# --- FM-8 croupier -------------------------------------------------------------------------------------------------

def test_FM_8_croupier_four_off_colour_accepted():
    deck = SHERIFF_15[:11] + ["bunker", "bunker", "arrest", "arrest"]
    assert check(deck, public_role="croupier") == []


def test_FM_8_croupier_five_off_colour_refused():
    deck = SHERIFF_15[:10] + ["bunker", "bunker", "arrest", "arrest", "advice"]
    error = only(check(deck, public_role="croupier"), "off_colour")
    assert error.params == {"count": 5, "max": 4}


def test_FM_8_croupier_traitor_four_of_each_colour_accepted():
    deck = take("damage", 4) + take("recon", 4) + take("protection", 4) + take("sabotage", 3) + ["stimulant_shot"]
    assert check(deck, secret_role="traitor", public_role="croupier") == []


def test_FM_8_croupier_traitor_five_of_each_colour_refused():
    deck = take("damage", 5) + take("recon", 5) + take("protection", 4) + take("sabotage", 1)
    errors = check(deck, secret_role="traitor", public_role="croupier")
    assert codes(errors) == ["per_colour", "per_colour"]
    assert [e.params for e in errors] == [{"colour": "damage", "count": 5, "max": 4},
                                          {"colour": "recon", "count": 5, "max": 4}]


def test_FM_8_croupier_policeman_keeps_zero_off_colour():
    deck = take("damage", 6) + take("protection", 5) + take("control", 3) + ["tail"]
    assert only(check(deck, secret_role="policeman", public_role="croupier"), "off_colour").params == {
        "count": 1, "max": 0}


def test_FM_8_croupier_detective_keeps_zero_off_colour():
    deck = take("recon", 6) + take("sabotage", 5) + take("support", 3) + ["pistol"]
    assert codes(check(deck, secret_role="detective", public_role="croupier")) == ["off_colour"]


def test_FM_8_croupier_hero_still_no_damage_and_four_per_colour():
    assert codes(check(HERO_15[:-1] + ["pistol"], secret_role="hero", public_role="croupier")) == [
        "forbidden_colour"]
    deck = take("recon", 5) + take("protection", 4) + take("sabotage", 4) + take("control", 2)
    assert codes(check(deck, secret_role="hero", public_role="croupier")) == ["per_colour"]


# --- FM-8 genius -------------------------------------------------------------------------------------------------

JUDGE_12 = take("control", 6) + take("support", 6)
JUDGE_FREE = take("support", 6, free=True)


def test_FM_8_genius_non_free_12_accepted():
    assert check(JUDGE_12, secret_role="judge", public_role="genius") == []


def test_FM_8_genius_non_free_13_refused():
    error = only(check(JUDGE_12 + ["interrogation"], secret_role="judge", public_role="genius"), "non_free_count")
    assert error.params == {"count": 13, "required": 12}


def test_FM_8_genius_non_free_11_and_15_refused():
    assert only(check(JUDGE_12[:-1], secret_role="judge", public_role="genius"),
                "non_free_count").params == {"count": 11, "required": 12}
    deck = JUDGE_12 + take("neutral", 3)
    assert only(check(deck, secret_role="judge", public_role="genius"), "non_free_count").params["count"] == 15


def test_FM_8_genius_free_5_accepted():
    assert check(JUDGE_12 + JUDGE_FREE[:5], secret_role="judge", public_role="genius") == []


def test_FM_8_genius_free_6_refused():
    error = only(check(JUDGE_12 + JUDGE_FREE, secret_role="judge", public_role="genius"), "free_count")
    assert error.params == {"count": 6, "max": 5}


# --- FM-8 spendthrift --------------------------------------------------------------------------------------------

def test_FM_8_spendthrift_price_2_card_is_free_by_default():
    assert check(SHERIFF_15 + ["contract"], public_role="spendthrift") == []
    error = only(check(SHERIFF_15[:-1] + ["contract"], public_role="spendthrift"), "non_free_count")
    assert error.params == {"count": 14, "required": 15}


def test_FM_8_spendthrift_price_2_card_counted_as_non_free_when_marked():
    deck = SHERIFF_15[:-1] + [{"kind": "dossier", "count_as": "non_free"}]
    assert check(deck, public_role="spendthrift") == []
    deck = SHERIFF_15 + [{"kind": "dossier", "count_as": "non_free"}]
    assert only(check(deck, public_role="spendthrift"), "non_free_count").params["count"] == 16


def test_FM_8_spendthrift_free_limit_applies_to_his_price_2_cards():
    assert check(SHERIFF_15 + ["contract", "contract", "dossier"], public_role="spendthrift") == []
    error = only(check(SHERIFF_15 + ["contract", "contract", "dossier", "dossier"], public_role="spendthrift"),
                 "free_count")
    assert error.params == {"count": 4, "max": 3}
    marked = SHERIFF_15[:-1] + [{"kind": "dossier", "count_as": "non_free"}, "contract", "contract", "dossier"]
    assert check(marked, public_role="spendthrift") == []


def test_FM_8_spendthrift_copies_count_marked_and_unmarked_alike():
    deck = SHERIFF_15[:-2] + [{"kind": "contract", "count_as": "non_free"}] * 2 + ["contract"]
    assert only(check(deck, public_role="spendthrift"), "copies").params == {"card": "contract", "count": 3, "max": 2}


def test_FM_8_spendthrift_count_as_refused_for_other_players():
    deck = SHERIFF_15[:-1] + [{"kind": "contract", "count_as": "non_free"}]
    error = only(check(deck), "bad_count_as")
    assert (error.card, error.params["count"]) == ("contract", 1)
    assert error.render() == ("“contract” can't be counted as non-free: only the spendthrift's cards with price 2 "
                              "or more can.")


@pytest.mark.parametrize("slug", ["sniper_rifle", "autopsy"])
def test_FM_8_spendthrift_count_as_refused_for_cheap_or_free_kinds(slug):
    kind = COLLECTION[slug]
    base = SHERIFF_15 if kind.free else SHERIFF_15[:-1]
    errors = check(base + [{"kind": slug, "count_as": "non_free"}], public_role="spendthrift")
    assert codes(errors) == ["bad_count_as"]  # and the card still counts as it would unmarked


def test_FM_8_spendthrift_plays_price_2_cards_free_even_if_counted_non_free():
    rules = rules_for(secret_role="sheriff", public_role="spendthrift")
    contract, pistol = COLLECTION["contract"], COLLECTION["pistol"]
    assert rules.plays_free(contract) and not rules.counts_as_free(contract, "non_free")
    assert rules.counts_as_free(contract) and not rules.plays_free(pistol)
    assert not rules_for(secret_role="sheriff", public_role=None).plays_free(contract)


# --- FM-3.3 joker ------------------------------------------------------------------------------------------------

def test_FM_3_3_joker_uses_his_two_chosen_colours():
    rules = rules_for(secret_role="joker", public_role=None, joker_colours=["support", "recon"])
    assert rules.role_colours == ("recon", "support")
    deck = take("recon", 9) + take("support", 4) + ["pistol", "bunker"] + ["coffee"]
    assert check(deck, secret_role="joker", joker_colours=("support", "recon")) == []
    deck = take("recon", 9) + take("support", 3) + ["pistol", "bunker", "arrest"]
    error = only(check(deck, secret_role="joker", joker_colours=("support", "recon")), "off_colour")
    assert error.params == {"count": 3, "max": 2}


def test_FM_3_3_joker_croupier_four_off_colour():
    deck = take("recon", 9) + take("support", 2) + ["pistol", "bunker", "arrest", "arson"]
    assert check(deck, secret_role="joker", public_role="croupier", joker_colours=("support", "recon")) == []


@pytest.mark.parametrize("colours", [
    None, [], ["recon"], ["recon", "recon"], ["recon", "neutral"], ["recon", "purple"],
    ["recon", "support", "damage"], "rs", ("special", "recon"),
])
def test_FM_3_3_joker_needs_exactly_two_distinct_non_neutral_colours(colours):
    with pytest.raises(ValueError):
        rules_for(secret_role="joker", public_role=None, joker_colours=colours)


def test_FM_3_3_only_the_joker_chooses_colours():
    with pytest.raises(ValueError):
        rules_for(secret_role="sheriff", public_role=None, joker_colours=["recon", "support"])


# --- FM-4.2 cards outside the collection; malformed entries -----------------------------------------------------

def test_FM_4_2_unknown_card_refused_and_left_out_of_the_counts():
    error = only(check(SHERIFF_15 + ["laser", "laser"]), "unknown_card")
    assert (error.rule, error.card, error.params) == ("FM-4.2", "laser", {"card": "laser", "count": 2})
    assert error.render(card_name=lambda slug: COLLECTION[slug].name_en) == (
        "There is no card “laser” in the collection (2 in the deck).")


@pytest.mark.parametrize("slug", ["mulligan", "ace", "dummy"])
def test_FM_4_2_special_cards_refused(slug):
    error = only(check(SHERIFF_15 + [slug]), "special_card")
    assert (error.rule, error.card) == ("FM-4.2", slug)
    assert COLLECTION[slug].colour == SPECIAL


def test_FM_4_2_special_cards_do_not_stop_the_other_checks():
    errors = check(SHERIFF_15[:-1] + ["mulligan", "ace", "dummy", "dummy"])
    assert codes(errors) == ["special_card", "special_card", "special_card", "non_free_count"]
    assert errors[2].params["count"] == 2
    assert errors[3].params == {"count": 14, "required": 15}


@pytest.mark.parametrize("entry", [
    42, None, 1.5, ["pistol"], {}, {"kind": ""}, {"kind": "  "}, {"kind": 5}, {"count_as": "non_free"},
    {"kind": "pistol", "count_as": "free"}, {"kind": "pistol", "count_as": None}, {"kind": "pistol", "colour": "x"},
])
def test_FM_4_3_malformed_entry_is_a_bad_entry(entry):
    error = only(check(SHERIFF_15 + [entry]), "bad_entry")
    assert error.params["position"] == 16
    assert error.render().startswith("Deck entry 16")


@pytest.mark.parametrize("deck", [None, "pistol", {"kind": "pistol"}, 7])
def test_FM_4_3_deck_that_is_not_a_list_is_a_bad_entry(deck):
    assert codes(check(deck)) == ["bad_entry"]


def test_FM_4_3_slug_string_is_shorthand_for_kind_dict():
    as_dicts = [{"kind": slug} for slug in SHERIFF_15]
    assert check(as_dicts) == [] and check(tuple(SHERIFF_15)) == []
    assert normalise_deck(SHERIFF_15[:2] + [{"kind": "contract", "count_as": "non_free"}]) == [
        {"kind": "ambush"}, {"kind": "ambush"}, {"kind": "contract", "count_as": "non_free"}]
    assert check(as_dicts[:-1] + ["pistol"] * 3) == check(SHERIFF_15[:-1] + [{"kind": "pistol"}] * 3)


# --- FM-4.3 every broken rule at once, rendering -----------------------------------------------------------------

def test_FM_4_3_all_broken_rules_are_reported_at_once_with_their_numbers():
    deck = (
        SHERIFF_15[:9] + ["pistol"]                      # 9 on-colour incl. pistol ×2, then a 3rd pistol
        + ["bunker", "arrest", "advice"]                 # 3 off-colour (non-free)
        + ["autopsy", "autopsy", "bluff", "bluff"]       # 4 free
        + ["laser", "ace", 42, {"kind": "tail", "count_as": "non_free"}]  # tail still counts (non-free)
    )
    errors = check(deck)
    assert codes(errors) == ["bad_entry", "unknown_card", "special_card", "bad_count_as", "non_free_count",
                             "free_count", "copies", "off_colour"]
    assert [e.params for e in errors] == [
        {"position": deck.index(42) + 1},
        {"card": "laser", "count": 1},
        {"card": "ace", "count": 1},
        {"card": "tail", "count": 1, "price": 2},
        {"count": 14, "required": 15},
        {"count": 4, "max": 3},
        {"card": "pistol", "count": 3, "max": 2},
        {"count": 3, "max": 2},
    ]
    assert all("%(" not in e.render() for e in errors)


def test_FM_4_3_render_translates_message_colour_and_card_name():
    catalogue = {
        "At most %(max)s copies of “%(card)s”; the deck has %(count)s.":
            "Не больше %(max)s копий карты «%(card)s»; в колоде %(count)s.",
        "At most %(max)s cards of one colour: %(colour)s has %(count)s.":
            "Не больше %(max)s карт одного цвета: цвета «%(colour)s» — %(count)s.",
        COLOUR_NAMES["damage"]: "Урон",
    }

    def translate(msgid):
        return catalogue.get(msgid, msgid)

    def name_ru(slug):
        return COLLECTION[slug].name("ru")

    copies = only(check(PISTOL_X3), "copies")
    assert copies.render(translate, card_name=name_ru) == "Не больше 2 копий карты «Пистолет»; в колоде 3."
    deck = take("damage", 4) + take("recon", 3) + take("protection", 3) + take("sabotage", 3) + take("control", 2)
    per_colour = only(check(deck, secret_role="traitor"), "per_colour")
    assert per_colour.render(translate) == "Не больше 3 карт одного цвета: цвета «Урон» — 4."
    assert copies.to_dict() == {"rule": "FM-4.3", "code": "copies", "message": copies.message,
                                "params": {"card": "pistol", "count": 3, "max": 2}, "card": "pistol"}


# --- FM-4.5 random valid deck ------------------------------------------------------------------------------------

PUBLIC_ROLES = [None, "croupier", "genius", "spendthrift", "magician", "my own role"]


def all_rules() -> list[DeckRules]:
    rules = []
    for secret, public in itertools.product(SECRET_ROLE_COLOURS, PUBLIC_ROLES):
        if secret == "joker":
            rules += [rules_for(secret_role=secret, public_role=public, joker_colours=pair)
                      for pair in itertools.combinations(("damage", "recon", "protection", "sabotage", "control",
                                                          "support"), 2)]
        else:
            rules.append(rules_for(secret_role=secret, public_role=public))
    return rules


def test_FM_4_5_random_deck_is_valid_for_every_role_combination_and_seed():
    combos = all_rules()
    assert len(combos) == (14 + 15) * len(PUBLIC_ROLES)
    for rules in combos:
        for seed in range(6):
            deck = random_valid_deck(collection=COLLECTION, rules=rules, rng=random.Random(seed))
            assert validate_deck(deck, collection=COLLECTION, rules=rules) == [], (rules, seed, deck)


def test_FM_4_5_random_deck_is_reproducible_from_the_seed_and_varies_with_it():
    rules = rules_for(secret_role="mafia_killer", public_role=None)
    decks = [random_valid_deck(collection=COLLECTION, rules=rules, rng=random.Random(seed)) for seed in range(5)]
    again = [random_valid_deck(collection=COLLECTION, rules=rules, rng=random.Random(seed)) for seed in range(5)]
    assert decks == again
    assert len({str(d) for d in decks}) > 1


def test_FM_4_5_random_deck_for_spendthrift_uses_count_as_and_free_price_2_cards():
    rules = rules_for(secret_role="maniac", public_role="spendthrift")
    decks = [random_valid_deck(collection=COLLECTION, rules=rules, rng=random.Random(seed)) for seed in range(30)]
    entries = [e for d in decks for e in d]
    assert any(e.get("count_as") == "non_free" for e in entries)
    assert any(COLLECTION[e["kind"]].price >= 2 and "count_as" not in e for e in entries)


def test_FM_4_5_random_deck_raises_when_the_collection_cannot_make_one():
    tiny = Collection.from_kinds([CardKind("pistol", "damage"), CardKind("bunker", "protection")])
    with pytest.raises(ValueError):
        random_valid_deck(collection=tiny, rules=rules_for(secret_role="sheriff", public_role=None),
                          rng=random.Random(1))


# --- FM-4.2 / §11 the default collection -------------------------------------------------------------------------

EFFECT_KEYS = {
    "damage", "pierce", "delayed_damage", "bonus_damage", "if", "else_self_damage", "armour", "immune",
    "transfer_damage", "keep_last_card", "self", "learn", "count", "draw", "after", "when", "delayed_discard",
    "steal", "discard", "move", "up_to", "from", "to", "pick", "replaced", "block", "cancel", "forbid", "during",
    "redirect", "public", "publish", "message", "returns_to_sleeve", "vote_bonus", "pays_price", "sleeve_only",
    "kept_in_jail", "vanishes_with_joker", "seen_as_played",
}


def test_FM_4_2_collection_data_is_well_formed():
    assert len(CARDS) == len(COLLECTION.kinds) == 43
    for card in CARDS:
        kind = COLLECTION[card["slug"]]
        assert kind.colour in COLOURS or kind.colour == SPECIAL, card
        assert 0 <= kind.price <= 3 and kind.timing in TIMINGS and kind.target in TARGETS, card
        assert kind.name_ru and kind.name_en and kind.text_ru and kind.text_en, card
        assert set(kind.effect) <= EFFECT_KEYS, card
    assert {k.slug for k in COLLECTION.kinds.values() if k.special} == {"mulligan", "ace", "dummy"}
    assert default_collection().version == COLLECTION.version
    assert default_collection()["poison"].effect is not CARDS[3]["effect"]


@pytest.mark.skipif(not RULES_DOC.exists(), reason="the shared rules reference is not available")
def test_FM_4_2_collection_data_matches_the_section_11_table():
    text = RULES_DOC.read_text(encoding="utf-8").split("## 11. Collection", 1)[1]
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| slug")]
    timing = {"N": "night", "D": "day", "A": "any"}
    target = {"—": "none", "1": "one", "2": "two", "dead": "dead", "1 + card slug": "one_card",
              "1 + text": "one_text"}
    table = {}
    for line in rows:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        slug, name_ru, colour, price, free, t, tgt, effect = cells
        table[slug] = dict(slug=slug, name_ru=name_ru, colour=colour, price=int(price), free=free == "yes",
                           timing=timing[t], target=target[tgt], text_en=effect)
    assert len(table) == 43
    for card in CARDS:
        assert {k: card[k] for k in table[card["slug"]]} == table[card["slug"]]
    assert re.search(r"\bmulligan\b", text)
