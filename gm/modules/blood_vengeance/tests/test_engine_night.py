"""The pure engine: the night vote, its tie rounds, executions and the night variants (BV-5, BV-7.1, BV-15). No
database."""
from __future__ import annotations

from gm.core.engine import FixedDice

from .. import engine
from .engine_kit import Game

#: Seats 1–8: count, lamia, monk, hunter, werewolf, vampire ×3.
EIGHT = ["count", "lamia", "monk", "hunter", "werewolf", "vampire", "vampire", "vampire"]


def test_BV_5_1_the_most_votes_is_executed_at_once_card_opened():
    g = Game(EIGHT)
    g.votes({1: 3, 2: 3, 4: 6, 6: 3})
    assert g.dead() == [3]
    executed = g.last_events("bv.executed")[0]
    assert executed.visibility == "public" and executed.data["cards"] == {"3": "monk"}
    tally = g.last_events("bv.tally")[0]
    assert tally.data["totals"] == {"3": 3, "6": 1} and ["1", "3"] in tally.data["votes"]
    assert (g.kind, g.number) == ("light", 1)


def test_BV_5_2_a_tie_opens_the_defence_revote_only_for_the_tied():
    g = Game(EIGHT)
    g.votes({1: 3, 2: 3, 3: 6, 4: 6})
    assert (g.kind, g.number) == ("defence", 1) and g.state["tied"] == ["3", "6"]
    assert g.refusal(1, {"vote": 7}) == "not_candidate"
    g.votes({1: 6, 2: 6, 3: 6})
    assert g.dead() == [6] and g.kind == "light"


def test_BV_5_3_still_tied_a_verdict_executes_all_the_tied():
    g = Game(EIGHT)
    g.votes({1: 3, 2: 3, 3: 6, 4: 6})
    g.votes({1: 3, 3: 6})
    assert (g.kind, g.number) == ("verdict", 1)
    assert g.refusal(1, {"vote": 3}) == "wrong_phase"
    g.play({i: {"verdict": "yes"} for i in (1, 2, 4, 5, 7)})  # 5 of 8 > half
    assert sorted(g.dead()) == [3, 6] and g.last_events("bv.executed")[0].data["round"] == "verdict"


def test_BV_5_4_no_majority_nobody_is_executed():
    g = Game(EIGHT)
    g.votes({1: 3, 2: 3, 3: 6, 4: 6})
    g.votes({1: 3, 3: 6})
    g.play({i: {"verdict": "yes"} for i in (1, 2, 4, 5)})  # 4 of 8 is not more than half
    assert g.dead() == [] and g.last_events("bv.nobody_executed")
    assert g.kind == "light"


def test_BV_5_5_no_votes_nobody_and_self_votes_refused():
    g = Game(EIGHT)
    assert g.refusal(1, {"vote": 1}) == "self_vote"
    assert g.refusal(1, {"vote": 99}) == "unknown_target"
    g.votes({})
    assert g.dead() == [] and g.kind == "light"


def test_BV_5_6_rounds_defence_then_verdict_silence_is_no():
    g = Game(EIGHT)
    g.votes({1: 3, 3: 6})
    assert g.kind == "defence"
    g.votes({})  # nobody revotes: still tied
    assert g.kind == "verdict"
    g.play({})
    assert g.dead() == [] and g.kind == "light"


def test_BV_5_6a_the_verdict_is_weighted_against_the_nights_total_weight():
    g = Game(EIGHT, hunter_of_hunters=True, hoh_seat=0)  # P1 holds the title: 1.5
    assert engine.total_weight(g.state) == 8.5
    g.votes({2: 3, 3: 6})
    g.votes({2: 3, 3: 6})
    g.play({i: {"verdict": "yes"} for i in (1, 2, 4)})  # 3.5 of 8.5 is not more than half
    assert g.dead() == []
    g = Game(EIGHT, hunter_of_hunters=True, hoh_seat=0)
    g.votes({2: 3, 3: 6})
    g.votes({2: 3, 3: 6})
    g.play({i: {"verdict": "yes"} for i in (1, 2, 4, 5)})  # 4.5 of 8.5 is
    assert sorted(g.dead()) == [3, 6]


def test_BV_5_8_after_the_night_the_light_time_unless_won():
    g = Game(["king", "vampire", "vampire", "vampire", "vampire", "hunter"])
    g.votes({1: 6, 2: 6})
    assert g.kind == "over" and g.outcome.winners == ["vampires"]


def test_BV_7_1_execution_kills_at_once_and_no_protection_stops_it():
    g = Game(EIGHT + ["queen"])
    g.votes({})
    g.light({9: {"role": "queen", "target": 4}, 2: {"role": "lamia", "mode": "invite", "target": 4},
             3: {"role": "monk", "target": 5}, 1: {"role": "count", "target": 2}})
    g.votes({1: 4, 2: 4})
    assert g.dead() == [4]


def test_BV_15_1_visiting_hunters_meet_at_light_1():
    g = Game(EIGHT, visiting_hunters=True)
    assert not g.events("bv.hunters_met") and "faction:hunters" not in g.groups
    g.votes({})
    assert g.groups["faction:hunters"] == [3, 4]
    assert {e.seat for e in g.last_events("bv.hunters_met")} == {3, 4}


def test_BV_15_2_lone_hunters_need_more_than_half_of_the_hunters():
    cards = ["count", "monk", "hunter", "leader", *["vampire"] * 5]
    g = Game(cards, lone_hunters=True)
    assert "faction:hunters" not in g.groups
    g.votes({})
    g.light({2: [{"role": "hunters", "target": 5}, {"role": "monk", "target": 1}], 3: {"role": "hunters", "target": 5},
             4: {"role": "hunters", "target": 6}, 1: {"role": "count", "target": 2}})
    assert g.dead() == [5]  # 2 of the 3 living hunters: more than half
    g2 = Game(cards, lone_hunters=True)
    g2.votes({})
    g2.light({2: [{"role": "hunters", "target": 5}, {"role": "monk", "target": 1}],
              3: {"role": "hunters", "target": 6}, 1: {"role": "count", "target": 2}})
    assert g2.dead() == []  # 1 of 3: nobody; the leader's tie-break does not apply


def test_BV_15_3_masquerade_shows_only_totals():
    g = Game(EIGHT, vampire_masquerade=True)
    g.votes({1: 3, 2: 3, 4: 6})
    tally = g.last_events("bv.tally")[0]
    assert tally.data["votes"] == [] and tally.data["totals"] == {"3": 2, "6": 1}


def test_BV_15_4_vampire_rage_no_card_opened_until_the_end():
    g = Game(EIGHT, vampire_rage=True)
    g.votes({1: 3, 2: 3})
    assert g.last_events("bv.executed")[0].data["cards"] == {}
    assert "revealed" not in g.seat_data[3]
    g.light({4: {"role": "hunters", "target": 5}, 2: {"role": "lamia", "mode": "visit", "target": 4},
             1: {"role": "count", "target": 2}})
    assert g.kind == "over" and g.outcome.winners == ["vampires"]  # checked on the real cards
    assert g.seat_data[3]["revealed"] == "monk"


def test_BV_15_5_flowers_black_minus_red_highest_executed():
    g = Game(EIGHT, flowers=True)
    assert g.refusal(1, {"vote": 3}) == "wrong_phase"
    assert g.refusal(1, {"black": 3, "red": 3}) == "not_candidate"
    g.play({1: {"black": 3, "red": 6}, 2: {"black": 3}, 4: {"black": 6, "red": 3}, 5: {"black": 7}})
    assert g.dead() == [7] or g.dead() == []  # scores: 3 → 1, 6 → 0, 7 → 1: a tie goes to the defence
    assert g.kind == "defence" and g.state["tied"] == ["3", "7"]
    g.votes({1: 7, 2: 7})
    assert g.dead() == [7]


def test_BV_15_5_flowers_no_roses_nobody():
    g = Game(EIGHT, flowers=True)
    g.play({})
    assert g.dead() == [] and g.kind == "light"


def test_BV_15_6_blood_vengeance_next_vote_only_for_those_who_voted_for():
    g = Game(EIGHT, blood_vengeance=True)
    g.votes({1: 6, 2: 6, 3: 6, 4: 7})  # 6 is a vampire
    g.light({2: {"role": "lamia", "mode": "invite", "target": 1}, 1: {"role": "count", "target": 2},
             3: {"role": "monk", "target": 5}})
    assert g.state["vengeance"] == ["1", "2", "3"]
    assert g.refusal(4, {"vote": 7}) == "not_candidate"
    assert g.refusal(4, {"vote": 3}) == ""
    g.votes({4: 3, 5: 3})
    assert 3 in g.dead()


def test_BV_15_6_not_applied_when_a_hunter_was_executed():
    g = Game(EIGHT, blood_vengeance=True)
    g.votes({1: 4, 2: 4})
    g.light({2: {"role": "lamia", "mode": "invite", "target": 1}, 1: {"role": "count", "target": 2},
             3: {"role": "monk", "target": 5}})
    assert g.state["vengeance"] is None


def test_BV_15_6a_a_multiple_execution_with_a_vampire_restricts():
    g = Game(EIGHT, blood_vengeance=True)
    g.votes({1: 4, 2: 4, 3: 6, 5: 6})
    g.votes({1: 4, 3: 6})
    g.play({i: {"verdict": "yes"} for i in (1, 2, 3, 7, 8)})
    assert sorted(g.dead()) == [4, 6]
    g.light({2: {"role": "lamia", "mode": "invite", "target": 1}, 1: {"role": "count", "target": 2},
             3: {"role": "monk", "target": 5}})
    assert g.state["vengeance"] == ["1", "2", "3", "7", "8"]


def test_BV_15_7_hunter_of_hunters_elected_weighs_1_5_and_passes_the_title():
    g = Game(EIGHT, hunter_of_hunters=True)
    assert g.refusal(2, {"heir": 3}) == "no_ability"
    g.play({1: {"vote": 4, "elect": 2}, 2: {"vote": 3, "elect": 2}, 3: {"vote": 4, "elect": 1},
            6: {"vote": 3}})
    assert g.state["hoh"] == "2"
    assert g.last_events("bv.tally")[0].data["totals"] == {"3": 2.5, "4": 2}  # elected before the tally
    assert g.dead() == [3]


def test_BV_15_7_the_title_passes_to_a_vampires_heir_else_a_new_election():
    g = Game(EIGHT, hunter_of_hunters=True, hoh_seat=5)  # P6, a vampire
    g.play({6: {"heir": 7}, 1: {"vote": 6}, 2: {"vote": 6}})
    assert g.state["hoh"] == "7" and g.last_events("bv.hoh_passed")
    g = Game(EIGHT, hunter_of_hunters=True, hoh_seat=3)  # P4, a hunter
    g.play({4: {"heir": 7}, 1: {"vote": 4}, 2: {"vote": 4}})
    assert g.state["hoh"] is None and g.state["elect"] is True


def test_BV_15_8_arbiter_of_fates_names_the_victim_not_twice_in_a_row():
    g = Game(EIGHT, arbiter_of_fates=True)
    g.votes({1: 2, 3: 2, 4: 2})
    assert (g.kind, g.number) == ("arbiter", 1) and g.state["arbiter"] == "2"
    assert g.refusal(1, {"vote": 5}) == "not_arbiter"
    assert g.refusal(2, {"vote": 2}) == "self_target"
    g.play({2: {"vote": 5}})
    assert g.dead() == [5]
    g.light({2: {"role": "lamia", "mode": "invite", "target": 1}, 1: {"role": "count", "target": 2},
             3: {"role": "monk", "target": 6}})
    assert g.refusal(1, {"vote": 2}) == "not_candidate"


def test_BV_15_8_only_last_nights_arbiter_is_barred():
    g = Game(EIGHT, arbiter_of_fates=True)
    g.votes({1: 2, 3: 2})
    g.play({2: {"vote": 5}})
    g.light({2: {"role": "lamia", "mode": "invite", "target": 1}, 1: {"role": "count", "target": 2},
             3: {"role": "monk", "target": 6}})
    g.votes({1: 3, 2: 4})  # night 2: a tie, then still tied: no arbiter
    g.votes({1: 3, 2: 4})
    g.light({2: {"role": "lamia", "mode": "invite", "target": 1}, 1: {"role": "count", "target": 2},
             3: {"role": "monk", "target": 6}})
    assert g.refusal(1, {"vote": 2}) == ""  # night 3: P2 was the arbiter two nights ago


def test_BV_15_8_arbiter_tie_still_tied_no_arbiter_no_execution():
    g = Game(EIGHT, arbiter_of_fates=True)
    g.votes({1: 2, 3: 4})
    g.votes({1: 2, 3: 4})
    assert g.dead() == [] and g.kind == "light"


def test_BV_15_8_an_arbiter_who_names_nobody_executes_nobody():
    g = Game(EIGHT, arbiter_of_fates=True)
    g.votes({1: 2})
    g.play({})
    assert g.dead() == [] and g.kind == "light"


def test_BV_15_9_festival_panic_everyone_over_half_of_the_players():
    g = Game(EIGHT, festival_panic=True)
    marks = {1: [3, 4], 2: [3, 4], 3: [4], 4: [3], 6: [3, 4], 7: [3, 5], 8: [4]}
    g.play({v: {"vote": t} for v, t in marks.items()})
    assert sorted(g.dead()) == [3, 4]  # 3: 5 marks, 4: 5 marks, 5: 1; more than 4 needed


def test_BV_15_9a_players_not_weights():
    g = Game(EIGHT, festival_panic=True, hunter_of_hunters=True, hoh_seat=0)
    g.play({v: {"vote": [3]} for v in (1, 2, 4, 5)})  # 4 marks of 8 players, the 1.5 counts 1
    assert g.dead() == []


def test_BV_15_10_vampire_secrets_a_12_hour_night():
    g = Game(EIGHT, vampire_secrets=True)
    assert g.spec.duration == 12 * 3600
    assert Game(EIGHT).spec.duration is None


def test_BV_15_11_grimaces_of_fate_the_die_picks_the_nights_variant():
    import random

    from gm.core.engine import SeatInfo

    from .engine_kit import TABLE
    seats = [SeatInfo(i + 1, f"P{i + 1}", i) for i in range(8)]
    opts = engine.validate_options({"deal": EIGHT, "grimaces_of_fate": True}, table=TABLE)
    result = engine.setup(seats=seats, options=opts, rng=FixedDice(1, [3]), table=TABLE)
    assert result.state["die"] == 3 and result.state["variant"] == "arbiter_of_fates"
    opened = [e for e in result.events if e.kind == "bv.night_opened"][0]
    assert opened.visibility == "public" and opened.data["die"] == 3
    opts = engine.validate_options({"deal": EIGHT, "grimaces_of_fate": True, "grimaces": {"3": "standard"}},
                                   table=TABLE)
    result = engine.setup(seats=seats, options=opts, rng=FixedDice(1, [3]), table=TABLE)
    assert result.state["variant"] == "standard"
    assert engine.setup(seats=seats, options=opts, rng=random.Random(4), table=TABLE).state["die"] in range(1, 7)


def test_BV_15_12_the_silenced_lose_the_vote_and_pass_it():
    g = Game(EIGHT, enchanted=True, silenced_seats=[5])  # P6 silenced
    assert g.refusal(6, {"vote": 3}) == "no_vote"
    assert g.refusal(1, {"delegate": 3}) == "no_ability"
    g.play({6: {"delegate": 1}, 1: {"vote": 3}, 2: {"vote": 4}})
    assert g.dead() == [3]  # P1 counts 2


def test_BV_15_12_a_delegate_counts_in_the_verdict_too():
    for delegate, dead in ((False, []), (True, [3, 6])):
        g = Game(EIGHT, enchanted=True, silenced_seats=[7])  # P8 silenced: the night's total weight stays 8
        g.votes({1: 3, 2: 6})
        g.votes({1: 3, 2: 6})
        assert g.kind == "verdict" and engine.total_weight(g.state) == 8
        assert g.refusal(1, {"delegate": 2}) == "no_ability"
        orders = {i: {"verdict": "yes"} for i in (1, 2, 4, 5)}
        if delegate:
            orders[8] = {"delegate": 1}
        g.play(orders)  # 4 of 8 is not more than half; with P8's vote passed to P1, 5 is
        assert sorted(g.dead()) == dead


def test_BV_15_13_guards_at_the_gate():
    g = Game(["hunter", "vampire", "vampire"], guards_at_the_gate=True)
    g.votes({2: 1, 3: 1})
    assert g.outcome.winners == ["vampires"]
    g = Game(["hunter", "vampire", "vampire"], guards_at_the_gate=True)
    g.votes({2: 3, 3: 2, 1: 2})
    assert g.outcome.winners == ["hunters"]


def test_BV_15_14_temporary_master_night_1_must_execute():
    g = Game(EIGHT, temporary_master=True)
    g.votes({})
    assert len(g.dead()) == 1 and g.state["co_masters"] == [str(g.dead()[0])]
    g = Game(EIGHT, temporary_master=True)
    g.votes({1: 3, 3: 6})
    g.votes({1: 3, 3: 6})  # still tied: all the tied are executed, no verdict
    assert sorted(g.dead()) == [3, 6] and g.state["co_masters"] == ["3"]


def test_BV_15_16_every_variant_is_off_by_default_and_options_checked():
    opts = engine.validate_options({}, table=Game(EIGHT).table)
    assert all(opts[v] is False for v in engine.VARIANTS)
    assert opts["missed_action"] == "none" and opts["doomed_info"] == "give"
    try:
        engine.validate_options({"missed_action": "maybe", "flowers": "yes", "nonsense": 1}, table=Game(EIGHT).table)
    except engine.BvError as exc:
        assert {f for f, _m, _p in exc.errors} == {"missed_action", "flowers", "nonsense"}
    else:
        raise AssertionError("bad options accepted")
