"""Decks, the discard pile and refills (BW-1a, BW-1b, BW-6b, BW-6c, BW-6d, BW-6f, BW-24b, BW-24c). Pure engine."""
from __future__ import annotations

from .table import Table, code_of


def five(hands, **kw):
    return Table([{"hand": h} for h in hands], **kw)


def test_BW_1a_a_deck_is_rebuilt_only_from_its_own_kind_and_special_cards_under_what_is_left():
    t = five([["vaccine", "keys", "bite", "bite"], [], [], [], []],
             decks={"day": ["candle"], "night": ["chains"]},
             discard=["bite", "thief", "eclipse", "mirror", "amulet"])
    t.send("A", {"move": "discard", "cards": ["bite"]})
    assert t.awaiting == ("refill", ["A"])
    t.refill("A", day=1)  # only one card due (hand of 3)
    assert t.hand("A")[-1] == "candle"
    assert t.state["decks"]["day"] == []  # emptied exactly: stays empty until the next draw
    # B has no card: his turn goes straight to his refill, 4 due; day deck rebuilt from thief, eclipse, amulet
    assert t.awaiting == ("refill", ["B"])
    t.refill("B", day=3, night=1)
    assert sorted(t.hand("B")) == sorted(["thief", "eclipse", "amulet", "chains"])
    assert t.state["discard"] == ["bite", "bite", "mirror"]  # night cards stay in the pile, in their order
    assert any(e["kind"] == "bw.reshuffle" and e["deck"] == "day" and e["count"] == 3 for e in t.lines())


def test_BW_1a_special_card_taken_by_the_day_rebuild_is_gone_for_the_night_part():
    t = five([[], ["bite"], ["bite"], ["bite"], ["bite"]], decks={"day": [], "night": []},
             discard=["eclipse", "vaccine", "chains"])
    assert t.step["due"] == 3
    # a day draw rebuilds the day deck with vaccine and eclipse: only chains is left for the night part
    assert code_of(t.check, "A", {"refill": {"day": 1, "night": 2}}) == "bad_refill"
    # the night deck alone takes chains and eclipse: two, not three
    assert code_of(t.check, "A", {"refill": {"day": 0, "night": 3}}) == "bad_refill"
    assert code_of(t.check, "A", {"refill": {"day": 0, "night": 2}}) == "bad_refill"  # total must be the number due
    t.refill("A", day=2, night=1)
    assert sorted(t.hand("A")) == ["chains", "eclipse", "vaccine"]


def test_BW_1b_pile_order_top_is_the_last_discarded_candle_then_the_mark():
    t = five([["candle", "bite", "bite", "bite"], [], [], [], []], discard=["thief"])
    t.state["curse"]["2"] = 2
    t.play("A", "candle", "B")
    assert t.state["discard"][:3] == ["curse_mark", "candle", "thief"]


def test_BW_6b_refill_is_exact_and_the_player_chooses_the_decks():
    t = five([["vaccine", "bite", "bite", "bite"], ["bite"], [], [], []],
             decks={"day": ["thief", "candle"], "night": ["chains", "voodoo"]})
    t.play("A", "vaccine", "B")
    assert t.awaiting == ("refill", ["A"]) and t.step["due"] == 1
    assert code_of(t.check, "A", {"refill": {"day": 2}}) == "bad_refill"
    assert code_of(t.check, "A", {"refill": {}}) == "bad_refill"
    t.refill("A", night=1)
    assert len(t.hand("A")) == 4 and t.hand("A")[-1] == "chains"
    pub = t.lines()
    assert {"night": 1, "day": 0}.items() <= next(e for e in pub if e["kind"] == "bw.refill").items()
    private = t.lines("private")
    assert any(e["kind"] == "bw.drawn" and e["cards"] == ["chains"] for e in private)
    assert "chains" not in repr([e for e in pub if e["kind"] == "bw.refill"])


def test_BW_6c_no_hand_above_four_after_a_full_refill():
    t = five([["vaccine"], ["bite"], [], [], []], decks={"day": ["thief"] * 4, "night": ["bite"] * 4})
    t.play("A", "vaccine", "A")
    assert t.step["due"] == 4
    t.refill("A", day=2, night=2)
    assert len(t.hand("A")) == 4


def test_BW_6f_number_due_is_what_the_decks_and_pile_can_give():
    t = five([["vaccine", "keys"], ["bite"], [], [], []], decks={"day": ["thief"], "night": []}, discard=[])
    t.play("A", "vaccine", "B")
    # wants 3 (hand of 1 after the play) but vaccine went to the pile: day deck 1 + pile 1 = 2
    assert t.step["due"] == 2
    t.refill("A", day=2)
    assert sorted(t.hand("A")) == ["keys", "thief", "vaccine"]


def test_BW_6f_nothing_due_no_refill_step():
    t = five([["vaccine", "keys"], ["bite"], [], [], []], decks={"day": [], "night": []}, discard=[])
    t.send("A", {"move": "discard", "cards": ["keys"]})
    # keys went to the pile: one card can come back
    assert t.awaiting == ("refill", ["A"]) and t.step["due"] == 1


def test_BW_24b_missed_refill_default_split_from_the_kind_he_holds_fewer_of():
    t = five([["vaccine", "bite", "chains", "bite"], ["bite"], [], [], []],
             decks={"day": ["thief", "candle"], "night": ["voodoo", "leshy"]})
    t.send("A", {"move": "discard", "cards": ["vaccine"]})  # now 0 day / 3 night cards, 1 due
    t.deadline()
    assert t.hand("A")[-1] == "thief"


def test_BW_24b_default_split_tie_goes_to_the_phase_deck_then_the_other_when_empty():
    t = five([["vaccine", "bite", "bite", "bite"], ["bite"], [], [], []],
             decks={"day": ["thief"], "night": ["voodoo", "leshy", "chains"]})
    t.send("A", {"move": "discard", "cards": ["bite"]})
    # hand: vaccine, bite, bite -> 1 day, 2 night: the day deck
    t.deadline()
    assert t.hand("A")[-1] == "thief"
    t.send("B", {"move": "discard", "cards": ["bite"]})
    t.deadline()
    # B: 0 day / 0 night after his discard: a tie goes to the day deck (Day), which is empty: night
    assert t.hand("B") == ["voodoo", "leshy", "chains", "bite"]


def test_BW_24c_hand_order_drawn_and_received_cards_go_to_the_end():
    t = five([["thief", "bite", "vaccine", "bite"], ["mirror"], [], [], []], decks={"day": ["keys"]})
    t.play("A", "thief", "B")
    assert t.hand("A") == ["bite", "vaccine", "bite", "mirror"]


def test_BW_6d_eclipse_draws_exactly_one_card_not_a_refill():
    t = five([["eclipse", "bite"], ["bite"], [], [], []], decks={"day": ["thief", "keys"], "night": ["bite", "bite"]})
    t.play("A", "eclipse")
    assert t.awaiting == ("refill", ["A"]) and t.step["due"] == 1
    t.refill("A", night=1)
    assert len(t.hand("A")) == 2
    assert t.awaiting == ("turn", ["A"]) and t.state["extra_turn"]
