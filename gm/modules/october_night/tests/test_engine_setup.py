"""October Night engine: sides, characters, time, the data set, secrecy and refusal codes (OC-1, OC-2, OC-3, OC-11,
OC-17, OC-18). Pure: no database."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from gm.core.engine import RuleViolation
from gm.modules.october_night import engine

from .engine_helpers import default_data, events, game, play, refused, seats


@pytest.mark.parametrize("n,deck", [(3, {"summoners": 1, "keepers": 1, "chosen": 1}),
                                    (4, {"summoners": 2, "keepers": 2}),
                                    (5, {"summoners": 2, "keepers": 2, "chosen": 1})])
def test_OC_1_1_role_deck_by_number_of_players(n, deck):
    res = engine.setup(seats=seats(n), options={}, rng=random.Random(3), base=default_data())
    assert Counter(res.state["sides"].values()) == Counter(deck)
    assert {d["side"] for d in res.seat_data.values()} <= set(deck)


def test_OC_1_1_refuses_two_or_six_players():
    with pytest.raises(RuleViolation):
        engine.setup(seats=seats(2), options={}, rng=random.Random(1), base=default_data())


def test_OC_1_2_sides_are_secret_until_the_ritual():
    res = engine.setup(seats=seats(3), options={}, rng=random.Random(3), base=default_data())
    st = res.state
    public = engine.view(st, sees_everything=False)
    assert "sides" not in public and public["revealed"] == {}
    mine = engine.view(st, sees_everything=False, seat="1")
    assert mine["my_side"] == st["sides"]["1"]
    private = [e for e in res.events if e.kind == "oc.your_side"]
    assert {e.seat for e in private} == {1, 2, 3} and all(e.visibility == "seat" for e in private)
    # The deal depends on the seed only.
    again = engine.setup(seats=seats(3), options={}, rng=random.Random(3), base=default_data())
    assert again.state["sides"] == st["sides"]


def test_OC_1_3_chosen_declares_secretly_and_is_revealed_at_week_5():
    st = game([{"side": "chosen", "character": "vicar"}, {"side": "summoners", "character": "count"},
               {"side": "keepers", "character": "witch"}], start={"week": 4, "day": 7, "phase": "action"})
    assert refused(st, 2, {"side": "keepers"}) == ["not_chosen"]
    res = play(st, {1: {"side": "keepers"}})
    assert res.state["declared"] == {"1": "keepers"} and res.state["joined"] == {}
    assert all(e.visibility == "seat" for e in res.events if e.kind == "oc.declared")
    res = play(res.state)  # contact 28 ends week 4
    assert res.state["joined"] == {"1": "keepers"}
    assert events(res, "chosen") == [{"player": "Аня", "sid": "1", "side": "keepers", "random": False}]
    assert engine.revealed(res.state) == {"1": "keepers"}
    assert refused(res.state, 1, {"side": "summoners"}) == ["too_late"]


def test_OC_1_4_several_chosen_join_different_sides():
    st = game([{"side": "chosen", "character": "vicar", "declared": "keepers"},
               {"side": "chosen", "character": "count", "declared": "keepers"},
               {"side": "keepers", "character": "witch"}], start={"week": 4, "day": 7, "phase": "contact"})
    res = play(st)
    assert res.state["joined"] == {"1": "keepers", "2": "summoners"}


def test_OC_1_4_role_deck_option_checked():
    with pytest.raises(RuleViolation):
        engine.validate_options({"role_deck": {"summoners": 0, "keepers": 2, "chosen": 1}}, default_data())
    opts = engine.validate_options({"role_deck": {"summoners": 1, "keepers": 1, "chosen": 1}}, default_data())
    assert opts["role_deck"] == {"summoners": 1, "keepers": 1, "chosen": 1}


def test_OC_2_characters_start_from_their_sheet():
    res = engine.setup(seats=seats(3), options={"characters": ["vicar", "count", "witch"],
                                                 "sides": ["keepers", "summoners", "chosen"]},
                       rng=random.Random(1), base=default_data())
    vicar = res.state["players"]["1"]
    assert vicar["location"] == "village" and vicar["health"] == 6
    assert vicar["skills"] == {"strength": 1, "magic": 2, "communication": 3}
    assert vicar["assets"] == ["crucifix"] and vicar["ingredients"] == ["holy_water"]
    assert vicar["abilities"] == ["blessing"]
    chars = engine.setup(seats=seats(5), options={}, rng=random.Random(2), base=default_data()).state["players"]
    assert len({p["character"] for p in chars.values()}) == 5
    # The master assigns some sheets; the other seats get random free ones.
    part = engine.setup(seats=seats(4), options={"characters": ["witch", None]}, rng=random.Random(2),
                        base=default_data()).state["players"]
    assert part["1"]["character"] == "witch" and len({p["character"] for p in part.values()}) == 4


def test_OC_2_3a_experience_never_below_zero_and_out_at_zero():
    st = game([{"side": "keepers", "character": "vicar", "experience": 1,
                "contact": {"card": "crossroads_bargain"}, "location": "crossroads"},
               {"side": "summoners", "character": "count"}, {"side": "keepers", "character": "witch"}],
              start={"week": 2, "day": 1, "phase": "contact"})
    res = play(st, dice=[1, 2])  # communication check fails: experience −1
    p = res.state["players"]["1"]
    assert p["experience"] == 0 and p["out"] and p["location"] is None
    assert res.alive == {1: False}
    assert events(res, "out")[0]["player"] == "Аня"


def test_OC_2_6_out_player_gives_no_orders_and_drops_his_card():
    st = game([{"side": "keepers", "character": "vicar", "out": True}, {"side": "summoners", "character": "count"},
               {"side": "keepers", "character": "witch"}])
    assert refused(st, 1, {"action": {"kind": "rest"}}) == ["out_of_game"]
    assert engine.turn_order(st) == ["2", "3"]


def test_OC_3_3_first_week_bonus_and_week_start():
    on = engine.setup(seats=seats(3), options={}, rng=random.Random(1), base=default_data()).state
    off = engine.setup(seats=seats(3), options={"first_week_bonus": False}, rng=random.Random(1),
                       base=default_data()).state
    assert {p["experience"] for p in on["players"].values()} == {5}
    assert {p["experience"] for p in off["players"].values()} == {1}
    st = game([{"side": "keepers", "character": "vicar", "used": ["blessing"]},
               {"side": "summoners", "character": "count"}, {"side": "keepers", "character": "witch"}],
              start={"week": 1, "day": 7, "phase": "contact"})
    res = play(st)
    assert res.state["day"] == 8 and res.next_phase.kind == "action" and res.next_phase.number == 8
    assert res.state["players"]["1"]["used"] == []
    assert res.state["players"]["1"]["experience"] >= 9
    assert events(res, "week") == [{"week": 2, "experience": 4}]


def test_OC_3_1_days_are_action_then_contact():
    st = game([{"side": "keepers", "character": "vicar"}, {"side": "summoners", "character": "count"},
               {"side": "keepers", "character": "witch"}])
    res = play(st)
    assert (res.next_phase.kind, res.next_phase.number) == ("contact", 1)


def test_OC_3_5_first_player_moves_round_the_ring():
    st = game([{"side": "keepers", "character": "vicar"}, {"side": "summoners", "character": "count"},
               {"side": "keepers", "character": "witch"}], start={"week": 1, "day": 2})
    assert engine.turn_order(st) == ["2", "3", "1"]
    st["players"]["2"]["out"] = True
    assert engine.turn_order(st) == ["3", "1"]
    assert engine.opening_events(st)[0].data["first"] == "Вова"


def test_OC_3_6_mystery_deadline_everybody_loses():
    st = game([{"side": "keepers", "character": "vicar"}, {"side": "summoners", "character": "count"},
               {"side": "keepers", "character": "witch"}], start={"week": 5, "day": 7, "phase": "contact"},
              mysteries={"solved": ["moon_phases"]})
    res = play(st)
    assert res.outcome is not None and list(res.outcome.winners) == [] and res.state["winner"] == "nobody"


def test_OC_11_3_view_hides_face_down_tokens_and_deck_order():
    st = game([{"side": "keepers", "character": "vicar", "contact": {"card": "night_patrol"}},
               {"side": "summoners", "character": "count"}, {"side": "keepers", "character": "witch"}],
              enemies=[{"token": "ghoul", "owner": "Аня"}])
    public = engine.view(st, sees_everything=False)
    assert public["enemies"] == [{"location": "cemetery", "owner": "1", "revealed": False}]
    assert "decks" not in public and public["deck_sizes"]["search"] == 8
    assert engine.view(st, sees_everything=True)["sides"] == st["sides"]


def test_OC_17_default_data_is_valid():
    assert engine.validate_data(default_data()) == []


def test_OC_17_validator_names_the_wrong_entry():
    data = default_data()
    data["enemies"][0]["location"] = "moon"
    data["characters"][0]["abilities"] = ["blessing", "flying"]
    data["locations"] = [loc for loc in data["locations"]]
    data["locations"].append({"slug": "island", "ru": "Остров", "en": "Island", "kind": "forest", "adjacent": []})
    data["mysteries"] = data["mysteries"][:3]
    fields = {e.field for e in engine.validate_data(data)}
    assert "enemies[ghoul].location" in fields
    assert "characters[vicar].abilities" in fields
    assert "locations[island]" in fields
    assert "mysteries" in fields


def test_OC_17_mystery_without_its_skill_and_asymmetric_road():
    data = default_data()
    del data["mysteries"][0]["skill"]
    data["locations"][0]["adjacent"].append("manor")
    fields = {e.field for e in engine.validate_data(data)}
    assert "mysteries[moon_phases].skill" in fields and "locations[town_square].adjacent" in fields


def test_OC_17_overrides_merge_and_are_snapshotted():
    opts = {"data": {"settings": {"reserve_size": 3},
                     "enemies": [{"slug": "ghoul", "modifier": 12},
                                 {"slug": "test_imp", "ru": "Бесёнок", "en": "Imp", "skill": "magic",
                                  "modifier": 6, "health": 1, "location": "mill"}]}}
    res = engine.setup(seats=seats(3), options=opts, rng=random.Random(1), base=default_data())
    data = res.state["data"]
    assert len(res.state["reserve"]) == 3
    assert engine.by_slug(data, "enemies")["ghoul"]["modifier"] == 12 and "test_imp" in engine.by_slug(data, "enemies")
    plain = engine.setup(seats=seats(3), options={}, rng=random.Random(1), base=default_data()).state
    assert plain["data_digest"] == engine.digest(default_data()) != res.state["data_digest"] == engine.digest(data)
    with pytest.raises(RuleViolation) as exc:
        engine.validate_options({"data": {"enemies": [{"slug": "ghoul", "location": "moon"}]}}, default_data())
    assert exc.value.errors[0].field == "data.enemies[ghoul].location"


def test_OC_18_every_code_has_a_rule_and_a_message():
    assert set(engine.CODES) == set(engine.CODE_MESSAGES)
    assert all(rule.startswith("OC-") for rule in engine.CODES.values())
    err = engine.refusal("week_one", "action")
    assert err.rule == "OC-3.4" and err.params["code"] == "week_one" and err.field == "action"


def test_OC_18_all_errors_at_once():
    st = game([{"side": "keepers", "character": "vicar"}, {"side": "summoners", "character": "count"},
               {"side": "keepers", "character": "witch"}])
    codes = refused(st, 1, {"action": {"kind": "fight", "target": 1, "take": ["a", "b", "c", "d"]},
                            "learn": "nonsense", "side": "keepers"})
    assert set(codes) >= {"week_one", "self", "too_many_cards", "not_on_sheet", "not_chosen"}


def test_OC_18_lines_of_another_phase_or_unknown_keys_are_refused():
    st = game([{"side": "keepers", "character": "vicar"}, {"side": "summoners", "character": "count"},
               {"side": "keepers", "character": "witch"}], start={"week": 2, "day": 1, "phase": "contact"})
    assert refused(st, 1, {"action": {"kind": "rest"}}) == ["wrong_stage"]
    assert refused(st, 1, {"contact": {"kind": "auto"}, "extra": 1}) == ["wrong_stage"]
    assert refused(st, 1, {"contact": {"kind": "auto"}}) == []


def test_OC_11_1_phase_hours_set_every_phase_deadline():
    """OC-11.1: the ``phase_hours`` option sets the length of every phase opened (set-up's first one included);
    without it the phases take the game's own durations (``duration`` None)."""
    res = engine.setup(seats=seats(3), options={"phase_hours": {"action": 6, "contact": 2}},
                       rng=random.Random(3), base=default_data())
    assert res.first_phase.kind == "action" and res.first_phase.duration == 6 * 3600
    nxt = play(res.state).next_phase
    assert (nxt.kind, nxt.duration) == ("contact", 2 * 3600)
    plain = engine.setup(seats=seats(3), options={}, rng=random.Random(3), base=default_data())
    assert plain.first_phase.duration is None and "phase_hours" not in plain.state
    with pytest.raises(RuleViolation):
        engine.validate_options({"phase_hours": {"action": -1}}, default_data())


def test_OC_2_1_claims_at_signup_then_random_free_sheets_each_once():
    """OC-2.1 [house]: the master's assignment first, then each seat's claim (``SeatInfo.data["claim"]``) when still
    free, then random free sheets; a sheet is played at most once. ``sheet_holder`` names who holds a sheet."""
    from gm.core.engine import SeatInfo

    claimed = [SeatInfo(id=i + 1, name=n, position=i, data={"claim": c})
               for i, (n, c) in enumerate(zip(["Аня", "Боря", "Вова", "Гена"], ["witch", "doctor", "witch", None],
                                              strict=True))]
    for seed in range(5):
        res = engine.setup(seats=claimed, options={"characters": [None, "doctor"]}, rng=random.Random(seed),
                           base=default_data())
        chars = [res.state["players"][str(i)]["character"] for i in range(1, 5)]
        assert chars[0] == "witch" and chars[1] == "doctor"  # Аня's claim, the master's assignment
        assert chars[2] not in ("witch", "doctor") and len(set(chars)) == 4  # Вова's claim was taken: random
    data = default_data()
    assert engine.sheet_holder(data, {}, ["witch", None], 1, "witch") == 0
    assert engine.sheet_holder(data, {"characters": [None, "count"]}, [None, None], 0, "count") == 1
    assert engine.sheet_holder(data, {}, ["witch", None], 0, "witch") is None
    with pytest.raises(RuleViolation) as exc:
        engine.sheet_holder(data, {}, [], 0, "ghost")
    assert exc.value.errors[0].code == "unknown_sheet" and exc.value.errors[0].rule == "OC-2.1"


def test_OC_17_a_mystery_without_its_clues_is_refused():
    """OC-17 with OC-13: a data set whose mysteries can't get their clues is refused — ``clues_per_mystery`` below 1,
    fewer clue sources (search sections and enemy tokens) than the mysteries need, fewer mysteries than needed."""
    data = default_data()
    data["settings"]["clues_per_mystery"] = 0
    assert "settings.clues_per_mystery" in {e.field for e in engine.validate_data(data)}
    data = default_data()
    data["settings"]["clues_per_mystery"] = 40
    errs = [e for e in engine.validate_data(data) if e.field == "mysteries"]
    assert errs and errs[0].params["clues"] == 160 and errs[0].rule == "OC-17"
    data = default_data()
    data["settings"]["mysteries_needed"] = 7
    assert any(e.field == "mysteries" and e.params.get("n") == 6 for e in engine.validate_data(data))
    assert engine.validate_data(default_data()) == []


def test_OC_11_6_master_edits_enemies_decks_bag_reserve_and_the_open_contact():
    """OC-11.6: the master's board edit (enemy tokens, bag, decks, reserve) and the seat edit of the open contact;
    every bad entry named at once, nothing changed."""
    st = game([{"side": "keepers", "character": "vicar"}, {"side": "summoners", "character": "count"},
               {"side": "keepers", "character": "witch"}])
    fields = engine.board_fields(st)
    assert set(fields) == {"enemies", "bag", "decks", "reserve"}
    new = engine.board_edit(st, {"enemies": [{"token": "ghoul", "location": "mill", "owner": 2, "health": 1}],
                                 "bag": ["werewolf"], "decks": {"search": [st["decks"]["search"][-1]]}})
    assert new["enemies"] == [{"token": "ghoul", "location": "mill", "owner": "2", "health": 1,
                               "revealed": False}]
    assert new["bag"] == ["werewolf"] and len(new["decks"]["search"]) == 1 and st["bag"] != ["werewolf"]
    with pytest.raises(RuleViolation) as exc:
        engine.board_edit(st, {"enemies": [{"token": "ghoul", "location": "moon", "owner": 9, "health": 7},
                                           {"token": "dragon"}],
                               "decks": {"search": ["nope"], "tarot": []}, "reserve": ["x"], "weather": 1})
    fields = {e.field for e in exc.value.errors}
    assert fields == {"enemies[0].location", "enemies[0].owner", "enemies[0].health", "enemies[1].token",
                      "decks.search", "decks.tarot", "reserve", "weather"}
    card = default_data()["search_contacts"][0]["slug"]
    edited = engine.seat_edit(st, "1", {"contact": card})
    assert edited["players"]["1"]["contact"] == {"card": card, "type": "search", "done": []}
    assert engine.seat_edit(edited, "1", {"contact": None})["players"]["1"]["contact"] is None
    with pytest.raises(RuleViolation):
        engine.seat_edit(st, "1", {"contact": "nope"})
