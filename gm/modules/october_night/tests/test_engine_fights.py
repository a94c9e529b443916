"""October Night engine: fights between players (OC-5) and week 1 (OC-3.4). Pure."""
from __future__ import annotations

from .engine_helpers import checks, events, game, play, refused

WEEK2 = {"week": 2, "day": 1}  # day 8: the first player is seat 2 (Боря)


def four(**extra):
    players = [{"side": "summoners", "character": "count", "location": "manor"},
               {"side": "keepers", "character": "witch", "location": "manor", "clues": 2},
               {"side": "summoners", "character": "wolfman", "location": "manor"},
               {"side": "keepers", "character": "vicar", "location": "manor"}]
    for i, more in extra.items():
        players[int(i[1:])].update(more)
    return players


def test_OC_3_4_no_fight_in_week_one():
    st = game(four())
    assert refused(st, 1, {"action": {"kind": "fight", "target": 2}}) == ["week_one"]
    assert refused(st, 3, {"action": {"kind": "ally", "with": 1}}) == ["week_one"]


def test_OC_5_1_fight_someone_here_not_self():
    st = game(four(p3={"location": "village"}), start=WEEK2)
    assert refused(st, 1, {"action": {"kind": "fight", "target": 1}}) == ["self"]
    assert refused(st, 1, {"action": {"kind": "fight", "target": 4}}) == ["not_here"]
    assert refused(st, 1, {"action": {"kind": "fight", "target": 2, "take": ["a", "b", "c", "d"]}}) == \
        ["too_many_cards"]


def test_OC_5_3_fight_is_two_dice_plus_fight_values_and_spoils():
    st = game(four(), start=WEEK2)
    res = play(st, {1: {"action": {"kind": "fight", "target": 2}}}, dice=[4, 2, 3, 1])
    a, v = checks(res)
    # The count: strength 3 + sword cane 1 = 4; the witch: magic 3.
    assert (a["player"], a["for"], a["skill"], a["dice"], a["total"]) == ("Аня", "fight", "strength", [4, 2], 10)
    assert (v["player"], v["skill"], v["dice"], v["total"]) == ("Боря", "magic", [3, 1], 7)
    fight = events(res, "fight")[0]
    assert fight["winner"] == "attacker" and fight["values"] == {"attacker": 10, "victim": 7}
    a1, b1 = res.state["players"]["1"], res.state["players"]["2"]
    # OC-5.6: the winner loses 1 and 1, the loser 2 and 2.
    assert (a1["health"], a1["experience"], b1["health"], b1["experience"]) == (5, 4, 4, 3)
    # OC-5.7: the first three cards of her holding and one clue.
    assert a1["ingredients"] == ["graveyard_dirt", "mandrake_root", "bat_wing"] and a1["clues"] == 1
    assert b1["ingredients"] == [] and b1["clues"] == 1
    assert a1["last_action"] == "fight"


def test_OC_5_4_tie_goes_to_the_victim_who_keeps_her_things():
    st = game(four(), start=WEEK2)
    res = play(st, {1: {"action": {"kind": "fight", "target": 2}}}, dice=[1, 1, 1, 2])  # 2 + 4 = 6 vs 3 + 3 = 6
    assert events(res, "fight")[0]["winner"] == "victim"
    assert res.state["players"]["2"]["ingredients"] == ["mandrake_root", "bat_wing"]
    assert res.state["players"]["1"]["health"] == 4


def test_OC_5_1a_take_names_only_what_she_holds():
    st = game(four(), start=WEEK2)
    res = play(st, {1: {"action": {"kind": "fight", "target": 2, "take": ["revolver", "bat_wing"]}}},
               dice=[6, 6, 1, 1])
    assert events(res, "spoils")[0]["cards"] == ["bat_wing"]


def test_OC_5_2_ally_joins_the_first_fight_and_counts_as_fight():
    st = game(four(), start=WEEK2)
    res = play(st, {1: {"action": {"kind": "fight", "target": 2}}, 3: {"action": {"kind": "ally", "with": 1}},
                    4: {"action": {"kind": "ally", "with": 2}}}, dice=[1, 1, 1, 1])
    fight = events(res, "fight")[0]
    assert fight["allies"] == {"attacker": ["Вова"], "victim": ["Гена"]}
    # Аня 4 + Вова (strength 4 + crowbar 1) = 9 + 2; Боря 3 + Гена (magic 2 + crucifix 1) = 6 + 2.
    assert fight["values"] == {"attacker": 11, "victim": 8}
    assert res.state["players"]["3"]["last_action"] == "fight" and res.state["players"]["3"]["health"] == 5
    assert res.state["players"]["4"]["health"] == 4


def test_OC_5_2_ally_without_a_fight_is_void():
    st = game(four(), start=WEEK2)
    res = play(st, {3: {"action": {"kind": "ally", "with": 1}}})
    assert events(res, "void") == [{"player": "Вова", "sid": "3", "line": "ally", "code": "no_fight"}]
    assert res.state["players"]["3"]["last_action"] == "none"


def test_OC_5_8_dead_victims_items_go_to_the_other_side():
    st = game(four(p1={"health": 2}), start=WEEK2)
    res = play(st, {1: {"action": {"kind": "fight", "target": 2}}, 3: {"action": {"kind": "ally", "with": 1}}},
               dice=[6, 6, 1, 1])
    p = res.state["players"]
    assert p["2"]["out"] and res.alive == {2: False}
    # Dealt one at a time round Аня (leader) then Вова; her clues all to Аня.
    assert p["1"]["ingredients"] == ["graveyard_dirt", "mandrake_root"] and p["1"]["clues"] == 2
    assert p["3"]["ingredients"] == ["wolfsbane", "bat_wing"]
    assert not events(res, "spoils")


def test_OC_5_8_both_leaders_die_their_allies_take_their_things():
    st = game(four(p0={"health": 1}, p1={"health": 1}), start=WEEK2)
    res = play(st, {1: {"action": {"kind": "fight", "target": 2}}, 3: {"action": {"kind": "ally", "with": 1}}},
               dice=[6, 6, 1, 1])
    p = res.state["players"]
    assert p["1"]["out"] and p["2"]["out"]
    assert p["3"]["assets"] == ["crowbar", "walking_cane"] and "graveyard_dirt" in p["3"]["ingredients"]
    assert "mandrake_root" not in p["3"]["ingredients"] and "mandrake_root" not in p["4"]["ingredients"]


def test_OC_5_9_warded_victim_and_several_fights():
    st = game(four(p1={"abilities": ["disguise"]}), start=WEEK2)
    res = play(st, {1: {"action": {"kind": "fight", "target": 2}},
                    2: {"abilities": [{"ability": "disguise"}]}})
    assert events(res, "void")[0]["code"] == "warded" and not events(res, "fight")
    res = play(st, {1: {"action": {"kind": "fight", "target": 2}}, 3: {"action": {"kind": "fight", "target": 2}}},
               dice=[6, 6, 1, 1, 6, 6, 1, 1])
    assert len(events(res, "fight")) == 2 and res.state["players"]["2"]["health"] == 2


def test_OC_5_3_hex_adds_to_the_side_value():
    st = game(four(p1={"abilities": ["hex"]}), start=WEEK2)
    res = play(st, {1: {"action": {"kind": "fight", "target": 2}}, 2: {"abilities": [{"ability": "hex"}]}},
               dice=[1, 1, 1, 1])
    assert events(res, "fight")[0]["values"] == {"attacker": 6, "victim": 8}
