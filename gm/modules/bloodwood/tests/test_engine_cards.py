"""Every card and its effect (BW-9–BW-21b, BW-2a, BW-10a–d, BW-13a, BW-14a, BW-15a, BW-15b, BW-18a, BW-25a).
Pure engine. Night positions start with ``phase: night``."""
from __future__ import annotations

from .table import Table, code_of

NIGHT = {"phase": "night"}
DECKS = {"day": ["thief", "candle", "keys", "vaccine"] * 2, "night": ["bite", "chains", "voodoo", "leshy"] * 2}


def table(hands, start=NIGHT, **kw):
    players = [h if isinstance(h, dict) else {"hand": h} for h in hands]
    return Table(players, start=start, decks=kw.pop("decks", DECKS), **kw)


def test_BW_9_bite_flips_dna_both_ways_and_the_player_refills():
    t = table([["bite", "bite", "vaccine", "keys"], [], [], [], []])
    t.play("A", "bite", "B")  # B holds no card: no window
    assert t.dna("B") == "mutated"
    assert t.awaiting == ("refill", ["A"])
    t.refill("A", night=1)
    t2 = table([["bite", "bite"], {"hand": [], "dna": "mutated"}, [], [], []])
    t2.play("A", "bite", "B")
    assert t2.dna("B") == "purity"


def test_BW_9a_a_carrier_who_bites_passes_the_mark_and_a_bitten_carrier_passes_it_to_the_biter():
    t = table([{"hand": ["bite", "bite"], "curse_mark": 1}, [], [], [], []])
    t.play("A", "bite", "B")
    assert t.curse("A") == 0 and t.curse("B") == 2
    t = table([["bite", "bite"], {"hand": [], "curse_mark": 1}, [], [], []])
    t.play("A", "bite", "B")
    assert t.curse("B") == 0 and t.curse("A") == 2
    assert any(e["kind"] == "bw.mark_passed" and e["from"] == "B" for e in t.lines())


def test_BW_9a_a_mark_never_passes_to_a_permanently_mutated_player():
    t = table([{"hand": ["bite", "bite"], "dna": "permanent"}, {"hand": [], "curse_mark": 2}, [], [], []])
    t.play("A", "bite", "B")  # a permanent biter bites a carrier: the mark stays with B
    assert t.curse("B") == 2 and t.curse("A") == 0 and t.dna("B") == "mutated"
    t = table([["bite"], {"hand": ["bite"], "curse_mark": 2}, {"hand": [], "dna": "permanent"}, [], []],
              start={"phase": "night", "to_move": "B"})
    assert code_of(t.check, "B", {"move": "play", "card": "bite", "target": "C"}) == "permanent"


def test_BW_9b_two_carriers_exchange_their_marks_with_fresh_counts():
    t = table([{"hand": ["bite", "bite"], "curse_mark": 1}, {"hand": [], "curse_mark": 1}, [], [], []])
    t.play("A", "bite", "B")
    assert t.curse("A") == 2 and t.curse("B") == 2


def test_BW_10_curse_mark_lies_by_the_target_one_per_player_and_the_player_refills():
    t = table([["curse_mark", "curse_mark"], [], {"hand": [], "curse_mark": 2}, [], []])
    assert code_of(t.check, "A", {"move": "play", "card": "curse_mark", "target": "C"}) == "already_marked"
    t.play("A", "curse_mark", "B")
    assert t.curse("B") == 2 and "curse_mark" not in t.state["discard"]
    assert t.awaiting == ("refill", ["A"])


def test_BW_10a_the_count_drops_at_the_end_of_each_own_turn_and_reaches_permanent():
    t = table([["vaccine", "bite"], {"hand": ["bite", "bite"], "curse_mark": 2}, ["bite"], ["bite"], ["bite"]])
    t.send("A", {"move": "discard", "cards": ["vaccine"]})
    t.refill("A", day=3)
    assert t.to_move == "B"
    t.send("B", {"move": "discard", "cards": ["bite"]})
    t.refill("B", night=3)
    assert t.curse("B") == 1
    for name in "CDEA":
        t.send(name, {"move": "discard", "cards": [t.hand(name)[0]]})
        t.deadline()
    t.send("B", {"move": "discard", "cards": ["bite"]})
    t.deadline()
    assert t.dna("B") == "permanent" and t.curse("B") == 0
    assert any(e["kind"] == "bw.permanent" for e in t.lines())


def test_BW_10a_a_mark_that_reaches_him_in_his_own_turn_is_counted_only_at_his_next():
    t = table([["bite", "bite"], {"hand": [], "curse_mark": 1}, [], [], []])
    t.play("A", "bite", "B")
    t.refill("A", night=3)
    assert t.curse("A") == 2  # not counted at the end of this turn


def test_BW_10b_permanent_mutation_blocks_bite_curse_and_vaccine_but_not_other_cards():
    t = table([["bite", "curse_mark", "chains", "voodoo"], {"hand": ["amulet"], "dna": "permanent"}, [], [], []])
    for card in ("bite", "curse_mark"):
        assert code_of(t.check, "A", {"move": "play", "card": card, "target": "B"}) == "permanent"
    assert code_of(t.check, "A", {"move": "play", "card": "chains", "target": "B"}) == "accepted"
    d = table([["vaccine"], {"hand": [], "dna": "permanent"}, [], [], []], start={})
    assert code_of(d.check, "A", {"move": "play", "card": "vaccine", "target": "B"}) == "permanent"


def test_BW_10c_the_expired_mark_goes_to_the_discard_pile():
    t = table([{"hand": ["bite"], "curse_mark": 1}, ["bite"], [], [], []])
    t.send("A", {"move": "discard", "cards": ["bite"]})
    t.refill("A", night=4)
    assert t.dna("A") == "permanent"
    assert t.state["discard"][0] == "curse_mark"


def test_BW_10d_eclipse_turn_counted_after_its_one_card_and_the_extra_turn_still_taken():
    t = table([{"hand": ["eclipse", "bite"], "curse_mark": 1}, ["bite"], [], [], []])
    t.play("A", "eclipse")
    t.refill("A", day=1)
    assert t.dna("A") == "permanent"
    assert t.awaiting == ("turn", ["A"]) and t.state["extra_turn"]
    assert t.state["turns_done"] == 0 and t.state["phase"] == "day"


def test_BW_11_chains_forbid_night_cards_until_keys():
    t = table([{"hand": ["bite", "vaccine", "eclipse"], "chains": True}, ["bite"], [], [], []])
    assert code_of(t.check, "A", {"move": "play", "card": "bite", "target": "B"}) == "chained"
    assert code_of(t.check, "A", {"move": "play", "card": "eclipse"}) == "accepted"
    assert code_of(t.check, "A", {"move": "discard", "cards": ["bite"]}) == "accepted"
    t = table([["chains"], [], {"hand": [], "chains": True}, [], []])
    assert code_of(t.check, "A", {"move": "play", "card": "chains", "target": "C"}) == "already_marked"
    t.play("A", "chains", "B")
    assert "2" in t.state["chains"]


def test_BW_11a_chained_target_may_answer_with_amulet_not_mirror():
    t = table([["bite", "bite"], {"hand": ["mirror", "amulet"], "chains": True}, [], [], []])
    t.play("A", "bite", "B")
    assert t.awaiting == ("reaction", ["B"])
    assert code_of(t.check, "B", {"react": "mirror"}) == "chained"
    assert code_of(t.check, "B", {"react": "amulet"}) == "accepted"


def test_BW_12_tranquilizer_lies_by_the_target():
    t = table([["tranquilizer"], [], {"hand": [], "tranquilizer": True}, [], []])
    assert code_of(t.check, "A", {"move": "play", "card": "tranquilizer", "target": "C"}) == "already_marked"
    t.play("A", "tranquilizer", "B")
    assert "2" in t.state["tranq"]


def test_BW_12a_the_tranquilized_player_skips_his_turn_draws_nothing_and_it_counts():
    t = table([["bite", "bite"], {"hand": ["bite"], "tranquilizer": True, "curse_mark": 2}, ["bite"], [], []])
    t.send("A", {"move": "discard", "cards": ["bite"]})
    t.refill("A", night=3)
    assert t.to_move == "C" and t.awaiting == ("turn", ["C"])
    assert t.hand("B") == ["bite"] and "2" not in t.state["tranq"]
    assert t.state["turns_done"] == 2 and t.curse("B") == 1
    assert t.state["discard"][0] == "tranquilizer"
    skip = next(e for e in t.lines() if e["kind"] == "bw.skip")
    assert skip["player"] == "B" and skip["marker"] == "tranquilizer"


def test_BW_13_voodoo_the_target_hands_everything_nobody_draws():
    t = table([["voodoo", "bite"], ["vaccine", "keys"], [], [], []])
    t.play("A", "voodoo", "B")
    t.send("B", {"react": "pass"})
    assert sorted(t.hand("A")) == ["bite", "keys", "vaccine"] and t.hand("B") == []
    assert t.to_move == "B" and t.awaiting == ("refill", ["B"])  # his hand is gone: straight to his refill
    pub = next(e for e in t.lines() if e["kind"] == "bw.voodoo")
    assert (pub["handed"], pub["back"]) == (2, 0)


def test_BW_13a_keep_exactly_min_4_of_the_pool_the_rest_goes_back():
    t = table([["voodoo", "bite", "chains"], ["vaccine", "keys", "thief", "amulet"], [], [], []])
    t.play("A", "voodoo", "B")
    t.send("B", {"react": "pass"})
    assert t.awaiting == ("keep", ["A"])
    assert sorted(t.step["pool"]) == sorted(["bite", "chains", "vaccine", "keys", "thief", "amulet"])
    assert code_of(t.check, "A", {"keep": ["bite", "chains", "vaccine"]}) == "bad_keep"
    assert code_of(t.check, "A", {"keep": ["bite", "bite", "vaccine", "keys"]}) == "not_in_hand"
    t.send("A", {"keep": ["amulet", "thief", "keys", "chains"]})
    assert sorted(t.hand("A")) == ["amulet", "chains", "keys", "thief"]
    assert sorted(t.hand("B")) == ["bite", "vaccine"]
    back = [e for e in t.lines("private") if e["kind"] == "bw.voodoo_back"]
    assert back and sorted(back[0]["cards"]) == ["bite", "vaccine"]


def test_BW_14_leshy_every_other_player_discards_two_and_the_player_refills():
    t = table([["leshy", "bite"], ["bite", "chains", "keys"], ["vaccine"], ["thief", "keys"],
               ["bite", "bite", "bite", "bite"]])
    t.play("A", "leshy")
    assert t.awaiting == ("discard", ["B", "E"])
    t.send("B", {"discard": ["chains", "keys"]})
    t.send("E", {"discard": ["bite", "bite"]})
    assert t.hand("B") == ["bite"] and t.hand("C") == [] and t.hand("D") == [] and len(t.hand("E")) == 2
    assert t.awaiting == ("refill", ["A"])
    per_player = [e["player"] for e in t.lines() if e["kind"] == "bw.discard"]
    assert per_player == ["B", "C", "D", "E"]


def test_BW_14a_unasked_discards_at_once_when_nobody_holds_three():
    t = table([["leshy", "bite"], ["bite", "keys"], ["vaccine"], [], []])
    t.play("A", "leshy")
    assert t.hand("B") == [] and t.hand("C") == []
    assert t.state["discard"][:4] == ["vaccine", "keys", "bite", "leshy"]
    assert t.awaiting == ("refill", ["A"])


def test_BW_15_hunter_discards_his_hand_each_other_gives_one_no_refill():
    t = table([["hunter", "bite", "chains"], ["bite", "keys"], ["vaccine"], [], ["thief", "candle", "keys"]])
    t.play("A", "hunter")
    assert t.state["discard"][:3] == ["chains", "bite", "hunter"]
    assert t.awaiting == ("give", ["B", "E"])
    t.send("B", {"give": "keys"})
    t.send("E", {"give": "thief"})
    assert t.hand("A") == ["keys", "vaccine", "thief"]
    assert t.to_move == "B"  # his turn is over, no refill


def test_BW_15a_more_than_four_received_keep_step_and_the_rest_discarded():
    hands = [["hunter"]] + [["bite", "keys"]] * 5
    t = Table([{"hand": h} for h in hands], start=NIGHT, decks=DECKS)
    t.play("A", "hunter")
    for name in "BCDEF":
        t.send(name, {"give": "keys" if name != "F" else "bite"})
    assert t.awaiting == ("keep", ["A"])
    t.deadline()  # missed: the first cards received
    assert t.hand("A") == ["keys", "keys", "keys", "keys"]
    assert t.state["discard"][0] == "bite"
    assert next(e for e in t.lines() if e["kind"] == "bw.discard")["cards"] == ["bite"]


def test_BW_15b_unasked_gives_in_turn_order_and_the_hunter_learns_who_gave_which():
    t = table([["hunter"], ["bite"], [], ["vaccine"], ["keys"]])
    t.play("A", "hunter")
    assert t.hand("A") == ["bite", "vaccine", "keys"]
    got = next(e for e in t.lines("private") if e["kind"] == "bw.hunter_got")
    assert got["gives"] == [{"player": "B", "card": "bite"}, {"player": "D", "card": "vaccine"},
                            {"player": "E", "card": "keys"}]
    counts = next(e for e in t.lines() if e["kind"] == "bw.hunter")["counts"]
    assert counts == {"B": 1, "C": 0, "D": 1, "E": 1}
    assert "vaccine" not in repr(next(e for e in t.lines() if e["kind"] == "bw.hunter"))


def test_BW_16_vaccine_any_player_even_himself_or_already_pure():
    t = table([["vaccine", "bite"], {"hand": [], "dna": "mutated"}, [], [], []], start={})
    t.play("A", "vaccine", "B")
    assert t.dna("B") == "purity"
    t = table([["vaccine"], [], [], [], []], start={})
    assert code_of(t.check, "A", {"move": "play", "card": "vaccine", "target": "A"}) == "accepted"


def test_BW_17_candle_and_keys_need_a_carrier_and_both_cards_go_to_the_pile():
    t = table([["candle", "keys"], [], [], [], []], start={})
    assert code_of(t.check, "A", {"move": "play", "card": "candle", "target": "B"}) == "no_curse_mark"
    assert code_of(t.check, "A", {"move": "play", "card": "keys", "target": "B"}) == "no_chains"
    t = table([{"hand": ["keys", "bite"], "chains": True}, [], [], [], []], start={})
    t.play("A", "keys", "A")
    assert t.state["chains"] == [] and t.state["discard"][:2] == ["chains", "keys"]


def test_BW_18_pandoras_box_on_himself_discards_all_and_draws_four():
    t = table([["pandoras_box", "bite", "vaccine"], [], [], [], []], start={})
    t.play("A", "pandoras_box", "A")
    assert t.state["discard"][:3] == ["vaccine", "bite", "pandoras_box"]
    assert t.awaiting == ("refill", ["A"]) and t.step["due"] == 4
    t.refill("A", day=2, night=2)
    assert len(t.hand("A")) == 4 and t.to_move == "B"


def test_BW_18_BW_18a_pandoras_box_on_another_even_with_an_empty_hand_he_chooses_his_four():
    t = table([["pandoras_box", "bite", "vaccine"], [], [], [], []], start={})
    t.play("A", "pandoras_box", "B")
    assert t.awaiting == ("refill", ["B"]) and t.step["due"] == 4
    t.refill("B", day=4)
    assert len(t.hand("B")) == 4
    assert t.awaiting == ("refill", ["A"]) and t.step["due"] == 2


def test_BW_19_thief_takes_one_card_blindly_both_learn_it_and_refills_below_four():
    t = table([["thief", "bite"], ["keys", "keys"], [], [], []], start={})
    assert code_of(t.check, "A", {"move": "play", "card": "thief", "target": "C"}) == "no_cards"
    t.play("A", "thief", "B")
    assert t.hand("A") == ["bite", "keys"] and t.hand("B") == ["keys"]
    private = [e for e in t.lines("private") if e["kind"] == "bw.stolen"]
    assert len(private) == 2 and all(e["card"] == "keys" for e in private)
    assert "keys" not in repr([e for e in t.lines() if e["kind"] == "bw.thief"])
    assert t.awaiting == ("refill", ["A"]) and t.step["due"] == 2


def test_BW_20_blood_test_shows_the_target_entity_to_the_player_only():
    t = table([["blood_test", "bite"], [], [], [], []], start={})
    t.play("A", "blood_test", "D")
    seen = [e for e in t.events if e.kind == "bw.seen"]
    assert len(seen) == 1 and seen[0].to == "1" and seen[0].data["entity"] == t.state["entities"]["4"]
    assert not any(e.kind == "bw.seen" for e in t.events if e.to == "public")


def test_BW_20a_confession_shows_his_own_entity_never_twice_to_the_same_player():
    t = table([{"hand": ["confession", "confession"], "confessed_to": ["C"]}, [], [], [], []], start={})
    assert code_of(t.check, "A", {"move": "play", "card": "confession", "target": "C"}) == "already_confessed"
    assert code_of(t.check, "A", {"move": "play", "card": "confession", "target": "A"}) == "self_target"
    t.play("A", "confession", "B")
    seen = [e for e in t.events if e.kind == "bw.seen"]
    assert seen[0].to == "2" and seen[0].data["entity"] == t.state["entities"]["1"]
    assert t.state["confessed"]["1"] == ["3", "2"]
    assert any(e["kind"] == "bw.confession" for e in t.lines())


def test_BW_21_the_player_refills_unless_the_card_or_an_answer_says_otherwise():
    for card, refills in (("bite", True), ("chains", True), ("voodoo", False), ("hunter", False)):
        target = "C" if card in ("bite", "chains", "voodoo") else None
        t = table([[card, "bite"], ["bite"], [], [], []])
        t.play("A", card, target)
        assert (t.awaiting == ("refill", ["A"])) is refills, card


def test_BW_21a_cards_without_a_target_refuse_one_and_targeted_cards_need_one():
    t = table([["leshy", "bite"], [], [], [], []])
    assert code_of(t.check, "A", {"move": "play", "card": "leshy", "target": "B"}) == "bad_target"
    assert code_of(t.check, "A", {"move": "play", "card": "bite"}) == "bad_target"
    assert code_of(t.check, "A", {"move": "play", "card": "bite", "target": 99}) == "bad_target"


def test_BW_21b_self_targets():
    t = table([["bite", "curse_mark", "chains", "tranquilizer"], [], [], [], []])
    for card in ("bite", "curse_mark", "chains", "tranquilizer"):
        assert code_of(t.check, "A", {"move": "play", "card": card, "target": "A"}) == "self_target"
    d = table([["thief", "blood_test", "pandoras_box", "vaccine"], [], [], [], []], start={})
    for card, code in (("thief", "self_target"), ("blood_test", "self_target"), ("pandoras_box", "accepted"),
                       ("vaccine", "accepted")):
        assert code_of(d.check, "A", {"move": "play", "card": card, "target": "A"}) == code
