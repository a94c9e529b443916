"""The pure engine: the light time in call order, kills, deaths and protection, every role of BV-13, wolf pits
(BV-3.4), and the play-by-post rules of the light phase (BV-14). No database."""
from __future__ import annotations

import random

from .. import engine
from .engine_kit import Game

#: 12 seats: 1 king, 2 lamia, 3 queen, 4 nosferatu, 5 monk, 6 hunter, 7 leader, 8 werewolf, 9–12 vampire.
TWELVE = ["king", "lamia", "queen", "nosferatu", "monk", "hunter", "leader", "werewolf", "vampire", "vampire",
          "vampire", "vampire"]


def at_light(cards, **options) -> Game:
    g = Game(cards, **options)
    g.votes({})
    assert g.kind == "light"
    return g


def lamia_in(target: int = 9) -> dict:
    return {"role": "lamia", "mode": "invite", "target": target}


def test_BV_6_1_call_order_dawn_day_dusk():
    cards = ["monk", "lamia", "undine", "queen", "neophyte", "king", "nosferatu", "werewolf", "dhampir", "hunter",
             "vampire", "vampire"]
    g = at_light(cards)
    # everyone chooses P11; the dhampir (dusk 6th) sees them in call order, and the hunters' choice
    g.light({7: {"role": "nosferatu", "target": 11}, 1: [{"role": "monk", "target": 11},
                                                          {"role": "hunters", "target": 11}],
             6: {"role": "king", "target": 11}, 2: {"role": "lamia", "mode": "visit", "target": 11},
             5: {"role": "neophyte", "target": 11}, 3: {"role": "undine", "target": 11},
             4: {"role": "queen", "target": 12}, 8: {"role": "werewolf", "target": 11},
             9: {"role": "dhampir", "target": 11}})
    watch = g.last_events("bv.learned_watch", seat=9)[0].data
    assert watch["seats"] == ["1", "2", "3", "5", "6", "7", "8"] and watch["hunters"] is True
    assert g.dead() == [11]


def test_BV_6_2_every_special_role_must_act_killers_may_abstain():
    g = at_light(TWELVE)
    assert g.refusal(3, {"actions": [{"role": "queen", "abstain": True}]}) == "must_act"
    assert g.refusal(1, {"actions": [{"role": "king", "abstain": True}]}) == ""
    assert g.refusal(4, {"actions": [{"role": "nosferatu", "abstain": True}]}) == ""
    assert g.refusal(6, {"actions": [{"role": "hunters", "abstain": True}]}) == ""


def test_BV_6_2a_the_lamia_may_not_abstain_she_invites():
    g = at_light(TWELVE)
    assert g.refusal(2, {"actions": [{"role": "lamia", "abstain": True}]}) == "must_act"
    assert g.refusal(2, {"actions": [{"role": "lamia", "mode": "invite", "target": 9}]}) == ""


def test_BV_6_3_the_gathering_plurality_leader_breaks_a_tie_blow_always_announced():
    g = at_light(TWELVE)
    g.light({5: [{"role": "hunters", "target": 9}, {"role": "monk", "target": 10}],
             6: {"role": "hunters", "target": 10}, 7: {"role": "hunters", "target": 9}, 2: lamia_in(11)})
    assert g.dead() == [9]
    assert g.last_events("bv.hunters_struck")[0].visibility == "public"
    result = g.last_events("bv.gathering_result")[0]
    assert result.visibility == "group" and result.group == "faction:hunters" and result.data["victim"] == "9"


def test_BV_6_3_an_even_split_without_a_leader_kills_nobody():
    g = at_light(["king", "lamia", "monk", "hunter", *["vampire"] * 5])
    g.light({3: [{"role": "hunters", "target": 5}, {"role": "monk", "target": 1}],
             4: {"role": "hunters", "target": 6}, 2: lamia_in(7)})
    assert g.dead() == [] and g.last_events("bv.hunters_struck")
    assert g.last_events("bv.gathering_result")[0].data["victim"] is None


def test_BV_6_4_a_killed_player_still_acts_in_the_same_light_time():
    g = at_light(TWELVE)
    g.light({5: [{"role": "hunters", "target": 4}, {"role": "monk", "target": 10}],
             6: {"role": "hunters", "target": 4}, 4: {"role": "nosferatu", "target": 6}, 2: lamia_in(11)})
    assert sorted(g.dead()) == [4, 6]


def test_BV_6_5_the_dead_are_not_called():
    g = Game(TWELVE)
    g.votes({1: 3, 2: 3, 4: 3})
    assert g.refusal(3, {"actions": [{"role": "queen", "target": 9}]}) == "dead"


def test_BV_6_6_doomed_information_roles_give_or_withhold():
    cards = ["count", "lamia", "monk", "hunter", "hunter", *["vampire"] * 4]
    for option, told in (("give", True), ("withhold", False)):
        g = at_light(cards, doomed_info=option)
        g.light({1: {"role": "count", "target": 4}, 3: [{"role": "hunters", "target": 1},
                                                         {"role": "monk", "target": 6}],
                 4: {"role": "hunters", "target": 1}, 2: lamia_in(7)})
        assert 1 in g.dead()
        assert bool(g.last_events("bv.learned_type", seat=1)) is told


def test_BV_6_7_a_block_stops_what_comes_after_it():
    g = at_light(TWELVE)
    g.light({5: {"role": "monk", "target": 8}, 8: {"role": "werewolf", "target": 10}, 2: lamia_in(11)})
    assert g.dead() == []
    assert g.last_events("bv.blocked", seat=8)[0].visibility == "seat"


def test_BV_7_2_and_7_3_a_kill_lands_only_at_nightfall():
    g = at_light(TWELVE)
    g.light({1: {"role": "king", "target": 6}, 2: lamia_in(11)})
    assert g.dead() == [6] and (g.kind, g.number) == ("night", 2)
    assert g.last_events("bv.nightfall")[0].data["seats"] == ["6"]


def test_BV_7_4_killed_several_times_one_death():
    g = at_light(TWELVE)
    g.light({1: {"role": "king", "target": 9}, 4: {"role": "nosferatu", "target": 9},
             8: {"role": "werewolf", "target": 9}, 2: {"role": "lamia", "mode": "visit", "target": 9}})
    assert g.dead() == [9] and g.last_events("bv.nightfall")[0].data["seats"] == ["9"]


def test_BV_7_5_nightfall_names_the_dead_in_ring_order_with_cards_no_cause():
    g = at_light(TWELVE)
    g.light({1: {"role": "king", "target": 10}, 8: {"role": "werewolf", "target": 6}, 2: lamia_in(11)})
    line = g.last_events("bv.nightfall")[0]
    assert line.data["seats"] == ["6", "10"] and line.data["cards"] == {"6": "hunter", "10": "vampire"}
    assert set(line.data) == {"seats", "cards", "names"}


def test_BV_7_6_the_dead_neither_vote_nor_act():
    g = at_light(TWELVE)
    g.light({1: {"role": "king", "target": 10}, 2: lamia_in(11)})
    assert g.refusal(10, {"vote": 1}) == "dead"


def test_BV_7_7_grief_and_vengeance_are_not_stopped_by_protection():
    cards = ["king", "lamia", "bride", "queen", "monk", "hunter", *["vampire"] * 4, "werewolf"]
    g = at_light(cards)
    g.light({3: {"role": "bride", "target": 7}, 4: {"role": "queen", "target": 7}, 2: lamia_in(8)})
    assert g.state["grooms"] == {"3": "7"}
    assert g.last_events("bv.groom_told", seat=7)[0].data["bride"] == "3"
    g.votes({1: 3, 2: 3})
    assert sorted(g.dead()) == [3, 7]


def test_BV_8_1_and_8_2_protectors_lamia_queen_prince():
    for protector, action in (("lamia", {"role": "lamia", "mode": "invite", "target": 9}),
                              ("queen", {"role": "queen", "target": 9}),
                              ("prince", {"role": "prince", "target": 9})):
        cards = [protector, "nosferatu", "werewolf", "monk", "hunter", *["vampire"] * 5]
        g = at_light(cards)
        g.light({1: action, 2: {"role": "nosferatu", "target": 9}, 3: {"role": "werewolf", "target": 9},
                 4: {"role": "monk", "target": 6}})
        assert g.dead() == [], protector


def test_BV_8_3_the_killer_is_not_told_of_the_failure():
    g = at_light(TWELVE)
    g.light({3: {"role": "queen", "target": 9}, 1: {"role": "king", "target": 9}, 2: lamia_in(11)})
    assert not [e for e in g.last.events if e.visibility == "seat" and e.seat == 1]
    assert g.last_events("bv.trace_protected")[0].visibility == "master"


def test_BV_8_4_no_protection_from_execution():
    g = at_light(TWELVE)
    g.light({3: {"role": "queen", "target": 9}, 2: lamia_in(9)})
    g.votes({1: 9, 2: 9})
    assert g.dead() == [9]


def test_BV_8_5_protection_covers_kills_earlier_in_the_call_order_and_not_the_next_light():
    cards = ["prince", "lamia", "neophyte", "monk", "hunter", *["vampire"] * 5]
    g = at_light(cards)
    g.light({3: {"role": "neophyte", "target": 9}, 1: {"role": "prince", "target": 9}, 2: lamia_in(10),
             4: {"role": "monk", "target": 6}})
    assert g.dead() == []
    g.votes({})
    g.light({3: {"role": "neophyte", "target": 9}, 2: lamia_in(10), 1: {"role": "prince", "target": 8},
             4: {"role": "monk", "target": 6}})
    assert g.dead() == [9]


def test_BV_8_6_a_blocked_protector_protects_nobody():
    g = at_light(TWELVE)
    g.light({5: {"role": "monk", "target": 3}, 3: {"role": "queen", "target": 9}, 1: {"role": "king", "target": 9},
             2: lamia_in(11)})
    assert g.dead() == [9]


def test_BV_3_4_wolf_pits_the_ambush_kills_the_killer():
    cards = ["king", "queen", *["vampire"] * 5, "scout", "hunter", "werewolf"]
    g = at_light(cards, wolf_pits=True)
    assert g.refusal(10, {"actions": [{"role": "werewolf", "mode": "ambush"}]}) == ""
    g.light({10: {"role": "werewolf", "mode": "ambush"}, 1: {"role": "king", "target": 10},
             2: {"role": "queen", "target": 3}})
    assert g.dead() == [1]


def test_BV_3_4_wolf_pits_hunters_coming_kill_the_nearest_clockwise():
    cards = ["king", "queen", *["vampire"] * 5, "scout", "hunter", "werewolf"]
    g = at_light(cards, wolf_pits=True)
    g.light({10: {"role": "werewolf", "mode": "ambush"}, 8: [{"role": "hunters", "target": 10},
                                                            {"role": "scout", "target": 1}],
             9: {"role": "hunters", "target": 10}, 2: {"role": "queen", "target": 3}})
    assert g.dead() == [1]  # the ring wraps: after P10 comes P1


def test_BV_3_4_ambush_only_in_wolf_pits_and_a_blocked_werewolf_lays_none():
    cards = ["king", "queen", *["vampire"] * 5, "monk", "hunter", "werewolf"]
    assert at_light(cards).refusal(10, {"actions": [{"role": "werewolf", "mode": "ambush"}]}) == "bad_mode"
    g = at_light(cards, wolf_pits=True)
    g.light({8: {"role": "monk", "target": 10}, 10: {"role": "werewolf", "mode": "ambush"},
             1: {"role": "king", "target": 10}, 2: {"role": "queen", "target": 3}})
    assert g.dead() == [10]


def test_BV_3_4a_the_ambush_catches_only_the_first_comer():
    cards = ["king", "queen", "nosferatu", *["vampire"] * 4, "scout", "hunter", "werewolf"]
    g = at_light(cards, wolf_pits=True)
    g.light({10: {"role": "werewolf", "mode": "ambush"}, 1: {"role": "king", "target": 10},
             3: {"role": "nosferatu", "target": 10}, 2: {"role": "queen", "target": 4}})
    assert g.dead() == [1, 10]
    g = at_light(cards, wolf_pits=True)
    g.light({10: {"role": "werewolf", "mode": "ambush"}, 8: [{"role": "hunters", "target": 10},
                                                            {"role": "scout", "target": 1}],
             1: {"role": "king", "target": 10}, 2: {"role": "queen", "target": 4}})
    assert g.dead() == [1, 10]  # the hunters sprang it (P1, nearest clockwise, dies); the king kills him


def test_BV_3_5_the_undercover_hunter_takes_no_part_in_the_gathering():
    g = at_light(["king", "queen", *["vampire"] * 5, "scout", "hunter", "hunter"], undercover="scout")
    assert g.refusal(8, {"actions": [{"role": "hunters", "target": 1}]}) == "no_ability"
    g.light({8: {"role": "scout", "target": 1}, 2: {"role": "queen", "target": 3}})
    assert g.last_events("bv.learned_type", seat=8)[0].data["type"] == "special_vampire"


def test_BV_13_2_the_ordinary_vampire_has_no_ability():
    g = at_light(TWELVE)
    assert g.refusal(9, {"actions": [{"role": "vampire", "target": 1}]}) == "no_ability"


def test_BV_13_3_one_lord_called_first_at_dusk():
    g = at_light(TWELVE)
    t = g.state["table"]
    assert t["king"]["order"] == t["prince"]["order"] == t["count"]["order"] < t["nosferatu"]["order"]
    assert t["king"]["slot"] == "dusk"


def test_BV_13_4_the_king_kills_not_himself():
    g = at_light(TWELVE)
    assert g.refusal(1, {"actions": [{"role": "king", "target": 1}]}) == "self_target"
    g.light({1: {"role": "king", "target": 7}, 2: lamia_in(11)})
    assert g.dead() == [7]


def test_BV_13_5_the_prince_protects_himself_once():
    cards = ["prince", "lamia", "nosferatu", "monk", "hunter", *["vampire"] * 4]
    g = at_light(cards)
    g.light({1: {"role": "prince", "target": 1}, 3: {"role": "nosferatu", "target": 1}, 2: lamia_in(6)})
    assert g.dead() == []
    g.votes({})
    assert g.refusal(1, {"actions": [{"role": "prince", "target": 1}]}) == "self_used"


def test_BV_13_6_the_count_learns_a_type_card():
    g = at_light(["count", "lamia", "monk", "hunter", *["vampire"] * 5])
    g.light({1: {"role": "count", "target": 3}, 2: lamia_in(5)})
    assert g.last_events("bv.learned_type", seat=1)[0].data["type"] == "special_hunter"


def test_BV_13_7_the_lamia_invites_to_protect_or_visits_to_kill():
    g = at_light(TWELVE)
    assert g.refusal(2, {"actions": [{"role": "lamia", "target": 9}]}) == "bad_mode"
    assert g.refusal(2, {"actions": [{"role": "lamia", "mode": "bite", "target": 9}]}) == "bad_mode"
    g.light({2: {"role": "lamia", "mode": "visit", "target": 6}})
    assert g.dead() == [6]


def test_BV_13_8_the_undine_drowns_a_hunters_gathering_vote():
    cards = ["king", "undine", "queen", "monk", "hunter", "leader", *["vampire"] * 4]
    g = at_light(cards)
    g.light({2: {"role": "undine", "target": 6}, 3: {"role": "queen", "target": 1},
             4: [{"role": "hunters", "target": 7}, {"role": "monk", "target": 1}],
             5: {"role": "hunters", "target": 8}, 6: {"role": "hunters", "target": 7}})
    assert g.dead() == []  # the leader drowned: 1–1, and a drowned leader breaks no tie
    assert g.last_events("bv.gathering_result")[0].data["drowned"] == ["6"]


def test_BV_13_9_the_queen_protects_once_herself():
    g = at_light(TWELVE)
    g.light({3: {"role": "queen", "target": 3}, 1: {"role": "king", "target": 3}, 2: lamia_in(11)})
    assert g.dead() == []
    g.votes({})
    assert g.refusal(3, {"actions": [{"role": "queen", "target": 3}]}) == "self_used"


def test_BV_13_10_the_neophyte_kills_by_day_after_the_gathering():
    cards = ["count", "lamia", "neophyte", "monk", "hunter", *["vampire"] * 4]
    g = at_light(cards)
    assert g.state["table"]["neophyte"]["slot"] == "day"
    g.light({3: {"role": "neophyte", "target": 5}, 2: lamia_in(6)})
    assert g.dead() == [5]


def test_BV_13_11_the_nosferatu_kills_at_dusk():
    g = at_light(TWELVE)
    g.light({4: {"role": "nosferatu", "target": 5}, 2: lamia_in(11)})
    assert g.dead() == [5]


def test_BV_13_12_the_bride_binds_once_and_chooses_later_if_blocked():
    cards = ["king", "lamia", "bride", "monk", "hunter", *["vampire"] * 5]
    g = at_light(cards)
    g.light({4: {"role": "monk", "target": 3}, 3: {"role": "bride", "target": 7}, 2: lamia_in(8)})
    assert g.state["grooms"] == {}
    g.votes({})
    g.light({3: {"role": "bride", "target": 7}, 2: lamia_in(8), 4: {"role": "monk", "target": 1}})
    assert g.state["grooms"] == {"3": "7"}
    g.votes({})
    assert g.refusal(3, {"actions": [{"role": "bride", "target": 8}]}) == "groom_chosen"


def test_BV_13_13_the_banshee_learns_whether_a_player_kills():
    cards = ["count", "lamia", "banshee", "monk", "hunter", *["vampire"] * 4, "werewolf"]
    answers = {}
    for target in (2, 4, 6, 10):
        g = at_light(cards)
        g.light({3: {"role": "banshee", "target": target}, 2: lamia_in(7)})
        answers[target] = g.last_events("bv.learned_killer", seat=3)[0].data["answer"]
    assert answers == {2: "yes", 4: "yes", 6: "no", 10: "yes"}


def test_BV_13_14_the_dhampir_sees_who_chose_his_target_before_him():
    cards = ["king", "lamia", "dhampir", "monk", "hunter", "scout", *["vampire"] * 4]
    g = at_light(cards)
    g.light({1: {"role": "king", "target": 7}, 2: lamia_in(7), 3: {"role": "dhampir", "target": 7},
             6: {"role": "scout", "target": 7}})
    data = g.last_events("bv.learned_watch", seat=3)[0].data
    assert data["seats"] == ["2", "1"] and data["hunters"] is False  # call order: the lamia (dawn), the king (dusk)


def test_BV_13_15_the_revenant_counts_hunters_among_three():
    cards = ["count", "lamia", "revenant", "monk", "hunter", "neophyte", *["vampire"] * 4]
    g = at_light(cards)
    assert g.refusal(3, {"actions": [{"role": "revenant", "targets": [4, 5]}]}) == "targets_count"
    g.light({3: {"role": "revenant", "targets": [4, 5, 6]}, 2: lamia_in(7)})
    assert g.last_events("bv.learned_count", seat=3)[0].data["count"] == 2


def test_BV_13_16_the_ghoul_learns_whether_a_player_is_a_vampire():
    cards = ["count", "lamia", "ghoul", "monk", "hunter", *["vampire"] * 4, "werewolf"]
    answers = {}
    for target in (1, 4, 10):
        g = at_light(cards)
        g.light({3: {"role": "ghoul", "target": target}, 2: lamia_in(7)})
        answers[target] = g.last_events("bv.learned_vampire", seat=3)[0].data["answer"]
    assert answers == {1: "yes", 4: "no", 10: "no"}


def test_BV_13_17_the_werewolf_kills_at_dusk_or_abstains():
    g = at_light(TWELVE)
    assert g.refusal(8, {"actions": [{"role": "werewolf", "abstain": True}]}) == ""
    g.light({8: {"role": "werewolf", "target": 1}, 2: lamia_in(11)})
    assert g.dead() == [1]


def test_BV_13_18_the_kitsune_has_one_spare_life():
    cards = ["king", "lamia", "monk", "hunter", *["vampire"] * 5, "kitsune"]
    g = at_light(cards)
    g.light({1: {"role": "king", "target": 10}, 2: lamia_in(5)})
    assert g.dead() == [] and g.last_events("bv.lost_tail", seat=10)
    g.votes({})
    g.light({1: {"role": "king", "target": 10}, 2: lamia_in(5)})
    assert g.dead() == [10]


def test_BV_13_19_every_hunter_votes_in_the_gathering():
    g = at_light(TWELVE)
    assert engine.gathering_members(g.state) == ["5", "6", "7"]
    assert g.refusal(9, {"actions": [{"role": "hunters", "target": 1}]}) == "no_ability"


def test_BV_13_20_the_monk_blocks_one_players_ability():
    g = at_light(TWELVE)
    g.light({5: {"role": "monk", "target": 1}, 1: {"role": "king", "target": 6}, 2: lamia_in(11)})
    assert g.dead() == [] and g.last_events("bv.blocked", seat=1)


def test_BV_13_20_the_monk_does_not_block_the_gathering_vote():
    g = at_light(TWELVE)
    g.light({5: {"role": "monk", "target": 6}, 6: {"role": "hunters", "target": 9},
             7: {"role": "hunters", "target": 9}, 2: lamia_in(11)})
    assert g.dead() == [9]


def test_BV_13_21_the_leader_decides_a_tied_gathering():
    g = at_light(TWELVE)
    assert g.refusal(7, {"actions": [{"role": "leader", "target": 1}]}) == "no_ability"
    g.light({5: [{"role": "hunters", "target": 9}, {"role": "monk", "target": 10}],
             7: {"role": "hunters", "target": 10}, 2: lamia_in(11)})
    assert g.dead() == [10]


def test_BV_13_22_the_scout_learns_a_type_card():
    g = at_light(["king", "lamia", "scout", "hunter", *["vampire"] * 5])
    g.light({3: {"role": "scout", "target": 1}, 2: lamia_in(5)})
    assert g.last_events("bv.learned_type", seat=3)[0].data["type"] == "special_vampire"


def test_BV_13_23_the_beauty_takes_a_vote_for_the_coming_night():
    g = at_light(["king", "lamia", "beauty", "hunter", *["vampire"] * 5])
    g.light({3: {"role": "beauty", "target": 1}, 2: lamia_in(5)})
    assert g.refusal(1, {"vote": 3}) == "no_vote"
    assert g.last_events("bv.night_opened")[0].data["no_vote"] == ["1"]
    g.votes({})
    g.light({3: {"role": "beauty", "target": 5}, 2: lamia_in(6)})
    assert g.refusal(1, {"vote": 3}) == ""


def test_BV_13_24_wargs():
    cards = ["king", "lamia", "monk", "hunter", "hunter", "hunter", "hunter", "werewolf", "warg_leader", "sly_warg",
             "vengeful_warg", "paralysing_warg", "tricky_warg", *["vampire"] * 7]
    g = Game(cards, wargs=["warg_leader"])
    pack = g.events("bv.pack_met", seat=9)[0].data["seats"]
    assert pack == ["8", "9", "10", "11", "12", "13"]
    g.votes({})
    assert g.refusal(10, {"actions": [{"role": "sly_warg", "target": 1}]}) == "no_ability"
    g.light({11: {"role": "vengeful_warg", "target": 14}, 12: {"role": "paralysing_warg", "target": 1},
             13: {"role": "tricky_warg", "target": 2}, 9: {"role": "warg_leader", "target": 15},
             2: lamia_in(16), 3: {"role": "monk", "target": 4}})
    assert g.dead() == [15]
    assert g.refusal(2, {"vote": 1}) == "no_vote" and engine.weight(g.state, "13") == 2
    g.votes({1: 11, 3: 11, 13: 11})  # the vengeful warg executed: his named player dies with him
    assert sorted(g.dead()) == [11, 14, 15]
    g.light({1: {"role": "king", "target": 4}, 2: lamia_in(16), 3: {"role": "monk", "target": 5}})
    assert 4 not in g.dead()  # the king was paralysed for this light time


def test_BV_13_24_the_sly_warg_shows_vampire():
    cards = ["count", "lamia", "ghoul", "hunter", "hunter", "hunter", "hunter", "werewolf", "sly_warg",
             *["vampire"] * 11]
    g = at_light(cards, wargs=["sly_warg"])
    g.light({1: {"role": "count", "target": 9}, 3: {"role": "ghoul", "target": 9}, 2: lamia_in(10)})
    assert g.last_events("bv.learned_type", seat=1)[0].data["type"] == "vampire"
    assert g.last_events("bv.learned_vampire", seat=3)[0].data["answer"] == "yes"


def test_BV_14_1_phase_kinds_and_default_durations():
    assert engine.DURATIONS == {"night": 48 * 3600, "defence": 12 * 3600, "verdict": 12 * 3600,
                                "arbiter": 12 * 3600, "light": 24 * 3600}
    g = Game(TWELVE)
    kinds = [g.kind]
    g.votes({1: 5, 2: 6})
    kinds.append(g.kind)
    g.votes({1: 5, 2: 6})
    kinds.append(g.kind)
    g.play({})
    kinds.append(g.kind)
    assert kinds == ["night", "defence", "verdict", "light"]


def test_BV_14_2_one_light_phase_open_to_every_living_seat():
    g = at_light(TWELVE)
    assert g.spec.actors is None
    assert g.refusal(9, {"actions": []}) == ""  # an ordinary vampire may send an empty order


def test_BV_14_3_missed_action_none_tells_the_player():
    g = at_light(TWELVE)
    g.light({2: lamia_in(11)})
    assert g.last_events("bv.no_action", seat=3) and g.last_events("bv.no_action", seat=5)
    assert not g.last_events("bv.no_action", seat=1)  # a killer's silence is an abstention


def test_BV_14_3_missed_action_random_draws_a_legal_target():
    g = at_light(TWELVE, missed_action="random")
    g.light({}, rng=random.Random(3))
    drawn = {e.data["seat"]: e.data for e in g.last_events("bv.trace_random_action")}
    assert set(drawn) == {"2", "3", "5"}  # lamia, queen, monk; not the killers
    assert all(t != s for s, d in drawn.items() for t in d["targets"] if d["role"] != "queen")
    assert g.dead() == []  # the lamia invites


def test_BV_14_5_the_light_phase_writes_one_public_line_and_the_dead_at_nightfall():
    g = at_light(TWELVE)
    g.light({1: {"role": "king", "target": 6}, 2: lamia_in(11)})
    public = [e.kind for e in g.last.events if e.visibility == "public"]
    assert public == ["bv.hunters_struck", "bv.nightfall", "bv.night_opened"]


def test_BV_14_6_results_only_to_their_holder_nobody_told_who_killed():
    g = at_light(TWELVE)
    g.light({1: {"role": "king", "target": 6}, 5: {"role": "monk", "target": 4}, 4: {"role": "nosferatu",
                                                                                   "target": 6},
             2: lamia_in(11), 3: {"role": "queen", "target": 12}})
    seat_lines = [(e.seat, e.kind) for e in g.last.events if e.visibility == "seat"]
    assert seat_lines == [(4, "bv.blocked")]
    assert all("attacker" not in e.data for e in g.last.events if e.visibility != "master")


def test_BV_14_6a_the_named_exceptions_dhampir_and_kitsune():
    cards = ["king", "lamia", "dhampir", "monk", "hunter", *["vampire"] * 4, "kitsune"]
    g = at_light(cards)
    g.light({1: {"role": "king", "target": 10}, 3: {"role": "dhampir", "target": 10}, 2: lamia_in(6)})
    assert g.last_events("bv.learned_watch", seat=3)[0].data["seats"] == ["1"]
    assert g.last_events("bv.lost_tail", seat=10)


def test_BV_14_7_the_master_trace_has_every_action_and_fate():
    g = at_light(TWELVE)
    g.light({3: {"role": "queen", "target": 9}, 1: {"role": "king", "target": 9}, 2: lamia_in(11),
             5: {"role": "monk", "target": 8}, 8: {"role": "werewolf", "target": 6}})
    kinds = [e.kind for e in g.last.events if e.visibility == "master"]
    assert {"bv.trace_action", "bv.trace_protected", "bv.trace_blocked", "bv.trace_gathering"} <= set(kinds)


def test_BV_14_10_same_seed_same_orders_same_game():
    def run(seed):
        g = Game(TWELVE, seed=seed, missed_action="random", grimaces_of_fate=True)
        g.votes({})
        if g.kind == "light":
            g.light({})
        return g.state, [(e.kind, dict(e.data)) for e in g.log]
    assert run(5) == run(5)
