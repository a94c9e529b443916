"""October Night engine: the action phase (OC-4), foil plans (OC-12), abilities (OC-14) and items (OC-15). Pure."""
from __future__ import annotations

from .engine_helpers import checks, events, game, play, refused

THREE = [{"side": "keepers", "character": "vicar"}, {"side": "summoners", "character": "count"},
         {"side": "keepers", "character": "witch"}]


def trio(**where):
    players = [dict(p) for p in THREE]
    for i, extra in where.items():
        players[int(i[1:])].update(extra)
    return players


def test_OC_4_1_one_action_and_no_order_means_nothing():
    st = game(trio(p0={"health": 5}), start={"week": 2, "day": 1})
    res = play(st, {1: {"action": {"kind": "rest"}}})
    assert res.state["players"]["1"]["health"] == 6
    assert [e["player"] for e in events(res, "no_action")] == ["Боря", "Вова"]
    assert res.state["players"]["2"]["last_action"] == "none"


def test_OC_4_2_never_the_same_action_two_days_running():
    st = game(trio(p0={"last_action": "rest"}), start={"week": 2, "day": 1})
    assert refused(st, 1, {"action": {"kind": "rest"}}) == ["repeated_action"]
    assert refused(st, 1, {"action": {"kind": "travel", "to": "abbey"}}) == []
    # Days run on across weeks, and a day without an action breaks the chain.
    res = play(st, {1: {"action": {"kind": "travel", "to": "abbey"}}})
    assert res.state["players"]["1"]["last_action"] == "travel"
    res = play(res.state)  # contact 8
    assert refused(res.state, 1, {"action": {"kind": "travel", "to": "village"}}) == ["repeated_action"]
    res = play(play(res.state).state)  # day 9 without an action
    assert refused(res.state, 1, {"action": {"kind": "travel", "to": "village"}}) == []


def test_OC_4_2_night_flight_lifts_the_ban_for_travel():
    st = game(trio(p1={"last_action": "travel", "abilities": ["night_flight"]}), start={"week": 2, "day": 1})
    assert refused(st, 2, {"action": {"kind": "travel", "to": "old_oak"}}) == ["repeated_action"]
    assert refused(st, 2, {"action": {"kind": "travel", "to": "old_oak"},
                           "abilities": [{"ability": "night_flight"}]}) == []


def test_OC_4_3_rest_heals_one_never_above_ten_and_enemy_forbids_it():
    st = game(trio(p0={"health": 10}), start={"week": 2, "day": 1})
    res = play(st, {1: {"action": {"kind": "rest"}}})
    assert res.state["players"]["1"]["health"] == 10 and res.state["players"]["1"]["last_action"] == "rest"
    st = game(trio(p0={"location": "cemetery"}), enemies=[{"token": "ghoul"}])
    assert refused(st, 1, {"action": {"kind": "rest"}}) == ["enemy_present"]


def test_OC_4_4_heal_another_here_not_self_not_with_an_enemy():
    st = game(trio(p0={"location": "manor"}, p1={"health": 3}))
    assert refused(st, 1, {"action": {"kind": "heal", "target": 1}}) == ["self"]
    assert refused(st, 1, {"action": {"kind": "heal", "target": 3}}) == ["not_here"]
    res = play(st, {1: {"action": {"kind": "heal", "target": 2}}})
    assert res.state["players"]["2"]["health"] == 4
    st = game(trio(p0={"location": "cemetery"}, p1={"location": "cemetery"}), enemies=[{"token": "ghoul"}])
    assert refused(st, 1, {"action": {"kind": "heal", "target": 2}}) == ["enemy_present"]


def test_OC_4_5_trade_needs_a_matching_acceptance():
    st = game(trio(p1={"location": "bald_hill"}))  # the witch starts on bald_hill
    line = {"action": {"kind": "trade", "with": 3, "give": ["graveyard_dirt"], "get": ["bat_wing"]}}
    assert refused(st, 2, {"action": {"kind": "trade", "with": 3, "give": [], "get": []}}) == ["empty_lists"]
    assert refused(st, 2, {"action": {"kind": "trade", "with": 3, "give": ["revolver"]}}) == ["not_held"]
    res = play(st, {2: line})
    assert events(res, "void")[0]["code"] == "no_trade"
    res = play(st, {2: line, 3: {"accept_trades": [{"from": 2, "give": ["bat_wing"], "get": ["graveyard_dirt"]}]}})
    assert "bat_wing" in res.state["players"]["2"]["ingredients"]
    assert "graveyard_dirt" in res.state["players"]["3"]["ingredients"]
    assert res.state["players"]["2"]["last_action"] == "trade" and res.state["players"]["3"]["last_action"] == "none"


def test_OC_4_6_buy_is_a_communication_check_with_a_budget():
    st = game(trio(p0={"location": "town_square"}), reserve=["revolver", "crowbar", "grimoire", "first_aid_kit"],
              decks={"assets": ["silver_dagger", "crucifix"]}, start={"week": 2, "day": 1})
    assert refused(st, 2, {"action": {"kind": "buy", "cards": ["revolver"]}}) == ["not_town"]
    assert refused(st, 1, {"action": {"kind": "buy", "cards": ["walking_cane"]}}) == ["not_in_reserve"]
    assert refused(st, 1, {"action": {"kind": "buy", "cards": []}}) == ["empty_lists"]
    # Communication 3: dice 5+1 → 9 budget: revolver 8, then crowbar 4 no longer fits.
    res = play(st, {1: {"action": {"kind": "buy", "cards": ["revolver", "crowbar", "first_aid_kit"]}}}, dice=[5, 1])
    assert checks(res)[0]["total"] == 9 and checks(res)[0]["success"]
    assert res.state["players"]["1"]["assets"] == ["crucifix", "revolver"]
    assert sorted(c for c in res.state["reserve"] if c) == ["crowbar", "first_aid_kit", "grimoire", "silver_dagger"]
    # A failed check buys nothing but counts as performed.
    res = play(st, {1: {"action": {"kind": "buy", "cards": ["crowbar"]}}}, dice=[1, 2])
    assert res.state["players"]["1"]["assets"] == ["crucifix"] and res.state["players"]["1"]["last_action"] == "buy"


def test_OC_4_6_enemy_forbids_buying():
    st = game(trio(p0={"location": "harbour"}), enemies=[{"token": "smugglers"}])
    assert refused(st, 1, {"action": {"kind": "buy", "cards": [st["reserve"][0]]}}) == ["enemy_present"]


def test_OC_4_7_travel_to_an_adjacent_location_at_the_end():
    st = game(trio())
    assert refused(st, 1, {"action": {"kind": "travel", "to": "town_square"}}) == ["not_adjacent"]
    res = play(st, {1: {"action": {"kind": "travel", "to": "abbey"}}})
    assert res.state["players"]["1"]["location"] == "abbey"
    assert events(res, "travel") == [{"player": "Аня", "sid": "1", "frm": "village", "to": "abbey"}]


def test_OC_4_7_tracker_allows_two_steps():
    st = game(trio(p2={"character": "wolfman", "abilities": ["frenzy", "tracker"]}))
    assert refused(st, 3, {"action": {"kind": "travel", "to": "town_square"}}) == ["not_adjacent"]
    assert refused(st, 3, {"action": {"kind": "travel", "to": "town_square"},
                           "abilities": [{"ability": "tracker"}]}) == []


def test_OC_4_12_void_lines_are_public_and_not_performed():
    st = game(trio(p0={"location": "manor", "health": 1, "experience": 1}, p1={"location": "manor"},
                   p2={"location": "manor", "health": 3}), start={"week": 2, "day": 1})
    # Боря kills Аня in a fight; Аня's heal of Вова is then void.
    res = play(st, {2: {"action": {"kind": "fight", "target": 1}}, 1: {"action": {"kind": "heal", "target": 3}}},
               dice=[6, 6, 1, 1])
    voids = events(res, "void")
    assert voids == [{"player": "Аня", "sid": "1", "line": "heal", "code": "out_of_game"}]
    assert res.state["players"]["3"]["health"] == 3


def test_OC_12_foil_replaces_the_higher_die_with_the_lowest_foil_die():
    st = game(trio(p0={"location": "town_square"}, p1={"location": "station"}),
              reserve=["revolver", "crowbar", "grimoire", "first_aid_kit"], start={"week": 2, "day": 1})
    assert refused(st, 2, {"action": {"kind": "foil", "target": 1, "discard": "revolver"}}) == ["not_held"]
    assert refused(st, 2, {"action": {"kind": "foil", "target": 2, "discard": "walking_cane"}}) == ["self"]
    res = play(st, {2: {"action": {"kind": "foil", "target": 1, "discard": "walking_cane"}},
                    1: {"action": {"kind": "buy", "cards": ["crowbar"]}}}, dice=[6, 2, 1])
    c = checks(res)[0]
    assert c["rolled"] == [6, 2, 1] and c["dice"] == [1, 2] and c["foil"] == [1] and not c["success"]
    assert res.state["players"]["2"]["assets"] == [] and res.state["players"]["2"]["last_action"] == "foil"
    assert res.state["discards"]["assets"] == ["walking_cane"]


def test_OC_12_1_foil_range_is_three_steps():
    st = game(trio(p0={"location": "manor"}, p1={"location": "marsh"}))
    assert refused(st, 2, {"action": {"kind": "foil", "target": 1, "discard": "walking_cane"}}) == ["out_of_range"]


def test_OC_12_2_foil_lapses_at_the_end_of_the_day():
    st = game(trio(p1={"location": "abbey"}), start={"week": 2, "day": 1})
    res = play(st, {2: {"action": {"kind": "foil", "target": 1, "discard": "walking_cane"}}})
    assert res.state["foils"] == {"1": ["2"]}
    res = play(res.state, dice=None)
    assert res.state["foils"] == {}


def test_OC_14_1_learn_for_four_experience_usable_next_phase():
    st = game(trio(p0={"experience": 5}))
    assert refused(st, 1, {"learn": "deduction"}) == ["not_on_sheet"]
    assert refused(st, 1, {"learn": "blessing"}) == ["not_on_sheet"]
    assert refused(st, 1, {"learn": "insight", "abilities": [{"ability": "insight", "target": 2}]}) == \
        ["not_your_ability"]
    res = play(st, {1: {"learn": "insight"}})
    assert res.state["players"]["1"]["abilities"] == ["blessing", "insight"]
    assert res.state["players"]["1"]["experience"] == 1
    st = game(trio(p0={"experience": 4}))
    assert refused(st, 1, {"learn": "insight"}) == ["low_experience"]


def test_OC_14_2_once_a_week():
    st = game(trio(p0={"used": ["blessing"]}))
    assert refused(st, 1, {"abilities": [{"ability": "blessing", "target": 2}]}) == ["ability_used"]


def test_OC_14_3_phase_target_and_payment():
    st = game(trio(p0={"location": "manor"}, p1={"health": 2}))
    assert refused(st, 1, {"abilities": [{"ability": "blessing"}]}) == ["missing_field"]
    assert refused(st, 1, {"abilities": [{"ability": "blessing", "target": 1}]}) == ["self"]
    assert refused(st, 1, {"abilities": [{"ability": "blessing", "target": 3}]}) == ["not_here"]
    assert refused(st, 3, {"abilities": [{"ability": "herbal_remedy"}]}) == ["missing_field"]
    assert refused(st, 3, {"abilities": [{"ability": "herbal_remedy", "pay": "holy_water"}]}) == ["not_held"]
    st2 = game(trio(p1={"abilities": ["night_flight"]}), start={"week": 1, "day": 1, "phase": "contact"})
    assert refused(st2, 2, {"abilities": [{"ability": "night_flight"}]}) == ["wrong_phase"]
    res = play(st, {1: {"abilities": [{"ability": "blessing", "target": 2}]},
                    3: {"abilities": [{"ability": "herbal_remedy", "pay": "bat_wing"}]}})
    assert res.state["players"]["2"]["health"] == 4
    assert res.state["players"]["3"]["ingredients"] == ["mandrake_root"] and res.state["players"]["3"]["health"] == 9
    assert res.state["players"]["1"]["used"] == ["blessing"] and res.state["players"]["1"]["last_action"] == "none"


def test_OC_14_4_insight_tells_the_side_privately():
    st = game([{"side": "keepers", "character": "vicar", "abilities": ["insight"], "location": "manor"},
               {"side": "summoners", "character": "count"}, {"side": "keepers", "character": "witch"}])
    res = play(st, {1: {"abilities": [{"ability": "insight", "target": 2}]}})
    lines = [e for e in res.events if e.kind == "oc.insight"]
    assert len(lines) == 1 and lines[0].visibility == "seat" and lines[0].seat == 1
    assert lines[0].data["side"] == "summoners"
    assert all("summoners" not in str(e.data) for e in res.events if e.visibility == "public")


def test_OC_14_4_check_bonus_and_reroll():
    st = game([{"side": "keepers", "character": "count", "location": "town_square", "abilities": ["mesmerise"]},
               {"side": "summoners", "character": "doctor", "location": "station", "abilities": ["galvanism"]},
               {"side": "keepers", "character": "witch"}], reserve=["revolver", "crowbar", "grimoire", "crowbar"],
              start={"week": 2, "day": 1})
    res = play(st, {1: {"action": {"kind": "buy", "cards": ["crowbar"]}, "abilities": [{"ability": "mesmerise"}]},
                    2: {"action": {"kind": "buy", "cards": ["crowbar"]}, "abilities": [{"ability": "galvanism"}]}},
               dice=[1, 5, 2, 1, 6])
    doctor, count = checks(res)  # day 8: Боря is first
    assert doctor["rolled"] == [1, 5, 2] and doctor["dice"] == [2, 5] and doctor["total"] == 9
    assert count["total"] == 1 + 6 + 1 + 3 and count["bonus"] == 3


def test_OC_15_3_use_an_item_to_heal():
    st = game(trio(p0={"health": 4}))
    assert refused(st, 1, {"use": ["crucifix"]}) == ["no_use"]
    assert refused(st, 1, {"use": ["first_aid_kit"]}) == ["not_held"]
    res = play(st, {1: {"use": ["holy_water"]}})
    assert res.state["players"]["1"]["health"] == 5 and res.state["players"]["1"]["ingredients"] == []


def test_OC_15_4_reserve_refills_from_deck_then_from_discard():
    st = game(trio(p0={"location": "town_square"}), reserve=["crowbar", "crowbar", "crowbar", "crowbar"],
              decks={"assets": []}, start={"week": 2, "day": 1})
    st["discards"]["assets"] = ["revolver"]
    res = play(st, {1: {"action": {"kind": "buy", "cards": ["crowbar", "crowbar"]}}}, dice=[6, 6])
    assert res.state["players"]["1"]["assets"] == ["crucifix", "crowbar", "crowbar"]
    assert sorted(c for c in res.state["reserve"] if c) == ["crowbar", "crowbar", "revolver"]
    assert None in res.state["reserve"]
