"""The turn, phases, answers and the steps (BW-6, BW-6a, BW-6e, BW-7, BW-7a–d, BW-8, BW-8a–d, BW-24, BW-24b,
BW-25, BW-25a, BW-25b). Pure engine."""
from __future__ import annotations

import json

from gm.modules.bloodwood import engine as E

from .table import Table, code_of

NIGHT = {"phase": "night"}
DECKS = {"day": ["thief", "candle", "keys", "vaccine"] * 3, "night": ["bite", "chains", "voodoo", "leshy"] * 3}


def table(hands, start=None, **kw):
    players = [h if isinstance(h, dict) else {"hand": h} for h in hands]
    return Table(players, start=start or {}, decks=kw.pop("decks", DECKS), **kw)


def discard_round(t, names):
    for name in names:
        t.send(name, {"move": "discard", "cards": [t.hand(name)[0]]})
        if t.step.get("kind") == "refill":
            t.deadline()


def test_BW_6_a_turn_is_one_card_played_or_one_card_discarded():
    t = table([["vaccine", "bite"], ["bite"], ["bite"], ["bite"], ["bite"]])
    assert t.awaiting == ("turn", ["A"])
    assert code_of(t.check, "A", {"move": "discard", "cards": ["vaccine", "bite"]}) == "bad_discard"
    t.send("A", {"move": "discard", "cards": ["bite"]})  # a night card may be discarded by day
    assert t.state["discard"][0] == "bite" and t.awaiting == ("refill", ["A"])


def test_BW_6_with_cards_but_none_playable_he_must_discard_and_with_none_he_goes_to_the_refill():
    t = table([["bite", "mirror"], [], ["bite"], ["bite"], ["bite"]])
    assert all(E.playable(t.state, "1", c) for c in ("bite", "mirror"))  # by day: none playable
    assert t.awaiting == ("turn", ["A"])  # the turn step opens all the same: he must discard
    t.send("A", {"move": "discard", "cards": ["mirror"]})
    t.refill("A", day=3)
    assert t.awaiting == ("refill", ["B"]) and t.step["due"] == 4  # B holds nothing: straight to his refill


def test_BW_6a_cards_he_may_play_now():
    t = table([{"hand": ["vaccine", "bite", "eclipse", "amulet"]}, ["bite"], [], [], []])
    assert E.playable(t.state, "1", "vaccine") is None
    assert E.playable(t.state, "1", "eclipse") is None
    assert E.playable(t.state, "1", "bite") == "wrong_phase"
    assert E.playable(t.state, "1", "amulet") == "reaction_only"
    t = table([["candle", "keys"], [], [], [], []])
    assert E.playable(t.state, "1", "candle") == "bad_target"  # nobody carries a Curse Mark


def test_BW_6e_clockwise_is_the_seat_list_and_wraps_round():
    t = table([["bite"]] * 5, start={"to_move": "E", "starter": "A", "turns_done": 4})
    t.send("E", {"move": "discard", "cards": ["bite"]})
    t.refill("E", day=4)
    assert t.to_move == "A"


def test_BW_7_after_n_counted_turns_the_phase_flips_and_its_starter_begins():
    t = table([["bite"], ["bite"], ["bite"], ["bite"], ["bite"]], start={"to_move": "C", "starter": "C"})
    discard_round(t, "CDEAB")
    assert t.state["phase"] == "night" and t.to_move == "C" and t.state["turns_done"] == 0
    flip = next(e for e in t.lines() if e["kind"] == "bw.phase")
    assert flip["phase"] == "night" and flip["player"] == "C"


def test_BW_7a_every_ended_turn_counts_skipped_and_missed_included():
    t = table([["bite"], {"hand": ["bite"], "tranquilizer": True}, ["bite"], [], ["bite"]])
    t.deadline()  # A misses his turn: counted, no refill
    assert t.hand("A") == ["bite"] and any(e["kind"] == "bw.missed" for e in t.lines())
    # B skipped by the tranquilizer, C to move: two counted turns
    assert t.to_move == "C" and t.state["turns_done"] == 2


def test_BW_7b_eclipse_flips_the_phase_makes_him_starter_and_gives_an_extra_turn():
    t = table([["eclipse", "bite"], ["bite"], ["bite"], ["bite"], ["bite"]],
              start={"to_move": "C", "starter": "A", "turns_done": 2})
    t.state["hands"]["3"] = ["eclipse", "bite"]
    t.play("C", "eclipse")
    assert t.state["phase"] == "night" and t.state["starter"] == "3" and t.state["turns_done"] == 0
    t.refill("C", night=1)
    assert t.awaiting == ("turn", ["C"]) and t.state["extra_turn"]
    t.send("C", {"move": "discard", "cards": ["bite"]})
    t.deadline()
    assert t.state["turns_done"] == 1 and t.to_move == "D" and not t.state["extra_turn"]


def test_BW_7c_time_loop_reverses_the_direction_for_n_more_turns():
    t = table([["time_loop", "bite"], ["bite"], ["bite"], ["bite"], ["bite"]],
              start={"to_move": "A", "starter": "D", "turns_done": 2})
    t.play("A", "time_loop")
    assert t.state["direction"] == -1 and t.state["phase"] == "day" and t.state["starter"] == "1"
    t.refill("A", day=1)
    t.send("A", {"move": "discard", "cards": ["bite"]})
    t.deadline()
    assert t.to_move == "E"  # counterclockwise
    discard_round(t, "EDCB")
    assert t.state["phase"] == "night" and t.to_move == "A"


def test_BW_7d_no_eclipse_or_time_loop_in_the_extra_turn_one_gave():
    t = table([["eclipse", "time_loop", "eclipse"], ["bite"], [], [], []])
    t.play("A", "eclipse")
    t.refill("A", night=1)
    assert code_of(t.check, "A", {"move": "play", "card": "time_loop"}) == "two_in_a_row"
    assert code_of(t.check, "A", {"move": "play", "card": "eclipse"}) == "two_in_a_row"


def test_BW_8_BW_8a_the_targeted_night_cards_open_an_answer_window_for_a_target_holding_a_card():
    for card in E.ATTACKS:
        t = table([[card, "bite"], ["keys"], [], [], []], start=NIGHT)
        t.play("A", card, "B")
        assert t.awaiting == ("reaction", ["B"]), card
    # whether or not he holds a counter card: a window opens on any hand, telling nothing
    t = table([["leshy", "bite"], ["amulet"], [], [], []], start=NIGHT)
    t.play("A", "leshy")
    assert t.awaiting != ("reaction", ["B"])


def test_BW_8b_amulet_discards_itself_and_the_attack_and_ends_the_attackers_turn_with_no_draw():
    t = table([["chains", "bite"], ["amulet", "keys"], [], [], []], start=NIGHT)
    t.play("A", "chains", "B")
    t.send("B", {"react": "amulet"})
    assert t.state["chains"] == [] and t.state["discard"][:2] == ["chains", "amulet"]
    assert t.hand("A") == ["bite"] and t.to_move == "B"
    assert any(e["kind"] == "bw.answer" and e["card"] == "amulet" for e in t.lines())


def test_BW_8c_mirror_turns_the_card_back_on_the_attacker():
    t = table([["bite", "keys"], ["mirror", "keys"], [], [], []], start=NIGHT)
    t.play("A", "bite", "B")
    t.send("B", {"react": "mirror"})
    assert t.dna("A") == "mutated" and t.dna("B") == "purity"
    assert t.state["discard"][:2] == ["bite", "mirror"]
    assert t.to_move == "B" and t.hand("A") == ["keys"]


def test_BW_8c_reflected_voodoo_and_curse_mark():
    t = table([["voodoo", "bite", "chains"], ["mirror", "keys", "keys", "vaccine"], [], [], []], start=NIGHT)
    t.play("A", "voodoo", "B")
    t.send("B", {"react": "mirror"})
    assert t.awaiting == ("keep", ["B"])  # B keeps 4 of his 3 + A's 2
    t.send("B", {"keep": ["keys", "keys", "vaccine", "bite"]})
    assert t.hand("A") == ["chains"] and t.to_move == "B"
    t = table([["curse_mark", "bite"], ["mirror", "keys"], [], [], []], start=NIGHT)
    t.play("A", "curse_mark", "B")
    t.send("B", {"react": "mirror"})
    assert t.curse("A") == 2  # it reached him in his own turn: not counted at its end (BW-10a)


def test_BW_8c_a_reflection_the_attacker_could_not_take_has_no_effect():
    t = table([{"hand": ["curse_mark", "bite"], "curse_mark": 2}, ["mirror", "keys"], [], [], []], start=NIGHT)
    t.play("A", "curse_mark", "B")
    t.send("B", {"react": "mirror"})  # a second Curse Mark can't lie by A
    assert t.state["discard"][:2] == ["curse_mark", "mirror"] and t.curse("B") == 0
    assert any(e["kind"] == "bw.no_effect" for e in t.lines())


def test_BW_8d_who_cant_answer():
    t = table([["bite", "bite"], {"hand": ["amulet"], "tranquilizer": True}, ["amulet"], [], []], start=NIGHT)
    t.play("A", "bite", "B")
    assert t.dna("B") == "mutated"  # no window for a tranquilized target
    assert code_of(t.check, "B", {"react": "amulet"}) == "tranquilized"
    t = table([["bite", "bite"], ["amulet"], ["amulet"], [], []], start=NIGHT)
    t.play("A", "bite", "B")
    assert code_of(t.check, "C", {"react": "amulet"}) == "not_target"
    assert code_of(t.check, "B", {"react": "mirror"}) == "not_in_hand"
    t = table([["vaccine", "bite"], ["amulet"], [], [], []])
    t.play("A", "vaccine", "B")  # a day card: no attack
    assert code_of(t.check, "B", {"react": "amulet"}) in ("no_attack", "not_your_turn")
    assert code_of(E.validate_react, t.state, "2", {"react": "amulet"}) == "no_attack"


def test_BW_24_each_step_has_its_actors_and_its_deadline():
    t = table([["leshy", "bite"], ["bite", "bite", "bite"], ["bite", "bite", "bite"], ["bite"], []], start=NIGHT,
              options={"turn_minutes": 60, "step_minutes": 15})
    spec = E.next_spec(t.state)
    assert (spec.kind, list(spec.actors), spec.duration) == ("turn", [1], 60 * 60)
    t.play("A", "leshy")
    spec = E.next_spec(t.state)
    assert (spec.kind, sorted(spec.actors), spec.duration) == ("discard", [2, 3], 15 * 60)
    assert not E.phase_complete(t.state, {2: {}})
    assert E.phase_complete(t.state, {2: {}, 3: {}})


def test_BW_24b_missed_turn_is_lost_with_no_refill():
    t = table([["vaccine"], ["bite"], [], [], []])
    t.deadline()
    assert t.hand("A") == ["vaccine"] and t.to_move == "B"
    assert next(e for e in t.lines() if e["kind"] == "bw.missed")["player"] == "A"


def test_BW_24b_missed_reaction_passes_and_missed_leshy_discard_is_two_at_random():
    t = table([["bite", "bite"], ["amulet"], [], [], []], start=NIGHT)
    t.play("A", "bite", "B")
    t.deadline()
    assert t.dna("B") == "mutated" and t.hand("B") == ["amulet"]
    t = table([["leshy", "bite"], ["bite", "keys", "vaccine", "chains"], [], [], []], start=NIGHT)
    t.play("A", "leshy")
    t.deadline()
    assert len(t.hand("B")) == 2


def test_BW_24b_missed_give_is_one_card_at_random():
    t = table([["hunter"], ["keys", "vaccine"], [], [], []], start=NIGHT)
    t.play("A", "hunter")
    t.deadline()
    assert len(t.hand("A")) == 1 and len(t.hand("B")) == 1


def test_BW_24b_missed_voodoo_keep_keeps_his_own_cards_first():
    t = table([["voodoo", "bite", "chains"], ["vaccine", "keys", "thief"], [], [], []], start=NIGHT)
    t.play("A", "voodoo", "B")
    t.send("B", {"react": "pass"})
    t.deadline()
    assert t.hand("A") == ["bite", "chains", "vaccine", "keys"] and t.hand("B") == ["thief"]


def test_BW_25_public_view_hides_hands_and_entities_and_shows_the_table():
    t = table([{"hand": ["bite"], "curse_mark": 2, "chains": True}, ["keys"], [], [], []])
    public = E.view(t.state, sees_everything=False)
    for key in ("dna", "curse", "chains", "tranq", "discard", "phase", "direction", "starter", "turns_done",
                "to_move", "confessed"):
        assert key in public
    assert public["hand_counts"] == {"1": 1, "2": 1, "3": 0, "4": 0, "5": 0}
    assert public["deck_counts"] == {"night": 12, "day": 12}
    assert public["step"] == {"kind": "turn", "actors": ["1"]}
    assert "hands" not in public and "entities" not in public and "decks" not in public
    mine = E.view(t.state, sees_everything=False, seat="2")
    assert mine["hand"] == ["keys"]


def test_BW_25a_lines_belong_to_the_step_that_set_them_off():
    t = table([["hunter"], ["keys", "vaccine"], ["bite"], [], []], start=NIGHT)
    t.play("A", "hunter")
    kinds = [e.kind for e in t.events]
    assert "bw.play" in kinds and "bw.discard" in kinds and "bw.hunter" not in kinds
    t.send("B", {"give": "keys"})
    kinds = [e.kind for e in t.events]
    assert "bw.hunter" in kinds and "bw.gave" in kinds and "bw.hunter_got" in kinds


def test_BW_25b_every_line_holds_its_event_and_no_public_line_holds_a_secret():
    t = table([["thief", "bite"], ["keys", "keys"], [], [], []])
    t.play("A", "thief", "B")
    for e in t.events:
        assert e.data["event"] in ("play", "answer", "effect", "discard", "voodoo", "hunter", "thief", "blood_test",
                                   "confession", "eclipse", "time_loop", "refill", "reshuffle", "skip", "missed",
                                   "phase", "setup", "declaration", "end")
        if e.to == "public":
            text = json.dumps(e.data)
            for entity in E.ENTITIES:
                assert f'"{entity}"' not in text
    assert [e.data["card"] for e in t.events if e.kind == "bw.stolen"] == ["keys", "keys"]
    assert all("card" not in e.data for e in t.events if e.kind == "bw.thief")
