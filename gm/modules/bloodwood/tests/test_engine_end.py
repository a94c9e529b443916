"""Declarations and the end of the game (BW-2, BW-2a, BW-22, BW-22a–g), optional rules (BW-23, BW-23a, BW-23b) and
refusals with their codes and check order (BW-26, BW-26a, BW-26b). Pure engine."""
from __future__ import annotations

import copy

import pytest

from gm.modules.bloodwood import engine as E

from .table import Table, code_of, sid

# A, B, C vampires (3, no leader); D the_alpha, E werewolf (BW-3a, 5 players)
ENEMIES_OF_A = ["D", "E"]


def table(dna=None, hands=None, **kw):
    dna = dna or {}
    hands = hands or {}
    return Table([{"hand": hands.get(n, ["bite"]), "dna": dna.get(n, "purity")} for n in "ABCDE"], **kw)


def declare(t, who, named):
    return E.declare(t.state, sid(who), [int(sid(n)) for n in named])


def test_BW_22_right_declaration_wins_for_his_team():
    t = table(dna={"D": "mutated", "E": "permanent"})
    lines = declare(t, "B", ENEMIES_OF_A)
    assert t.state["over"] and t.state["winner"] == "vampires"
    assert sorted(t.state["winners"]) == [sid("A"), sid("B"), sid("C")]
    assert lines[0].data["right"] is True and lines[1].data["winner"] == "vampires"
    out = E.outcome(t.state)
    assert out.winners == ["vampires"] and sorted(out.winning_seats) == [1, 2, 3]


@pytest.mark.parametrize("named,dna", [
    (["D"], {"D": "mutated", "E": "mutated"}),            # an enemy left out
    (["D", "E", "C"], {"D": "mutated", "E": "mutated"}),  # a teammate named
    (["D", "E"], {"D": "mutated"}),                       # a named enemy still pure
])
def test_BW_22_wrong_declaration_loses_for_his_whole_team(named, dna):
    t = table(dna=dna)
    declare(t, "A", named)
    assert t.state["winner"] == "werewolves" and sorted(t.state["winners"]) == [sid("D"), sid("E")]


def test_BW_2_BW_2a_only_a_pure_player_may_declare_permanent_counts_as_mutated():
    t = table(dna={"A": "mutated", "B": "permanent"})
    assert code_of(declare, t, "A", ENEMIES_OF_A) == "mutated"
    assert code_of(declare, t, "B", ENEMIES_OF_A) == "mutated"
    t = table(dna={"A": "mutated", "D": "permanent", "E": "permanent"})
    declare(t, "C", ENEMIES_OF_A)
    assert t.state["winner"] == "vampires"


def test_BW_22a_the_only_pure_player_may_still_lose_by_naming_wrong():
    t = table(dna={n: "mutated" for n in "ABCE"})
    declare(t, "D", ["A", "B"])
    assert t.state["winner"] == "vampires"


def test_BW_22b_a_declaration_at_any_moment_judged_against_the_state_then():
    t = table(dna={"D": "mutated"}, hands={"A": ["bite", "bite"], "E": ["amulet"]}, start={"phase": "night"})
    t.play("A", "bite", "E")  # waits for E's answer: the bite has not happened
    assert t.awaiting == ("reaction", ["E"])
    declare(t, "C", ENEMIES_OF_A)
    assert t.state["winner"] == "werewolves" and t.state["step"] is None


def test_BW_22b_a_pending_declaration_is_judged_first_when_the_step_closes():
    t = table(dna={"D": "mutated", "E": "mutated"}, hands={"A": ["bite", "bite"], "E": ["amulet"]},
              start={"phase": "night"})
    t.play("A", "bite", "E")
    E.pend_declaration(t.state, sid("C"), [int(sid("D")), int(sid("E"))])
    assert code_of(E.pend_declaration, t.state, sid("B"), [int(sid("D"))]) == "game_over"
    assert code_of(t.check, "E", {"react": "pass"}) == "game_over"
    t.resolve()  # the step closes at once: the declaration first, the bite never happens
    assert t.state["winner"] == "vampires" and t.dna("E") == "mutated" and "declaration" not in t.state
    assert [e.kind for e in t.events] == ["bw.declaration", "bw.result"]
    assert t.result.outcome.winners == ["vampires"] and t.result.next_phase is None


def test_BW_22c_no_automatic_end_when_a_team_is_fully_mutated():
    t = table(dna={"D": "mutated", "E": "mutated"}, hands={"A": ["vaccine", "bite"]}, decks={"day": ["thief"] * 4})
    t.send("A", {"move": "discard", "cards": ["bite"]})
    t.refill("A", day=3)
    assert not t.state["over"] and t.awaiting == ("turn", ["B"])


def test_BW_22d_every_player_permanent_ends_with_no_winner():
    players = [{"hand": ["bite"], "dna": "permanent"} for _ in range(4)] + [{"hand": ["bite"], "curse_mark": 1}]
    t = Table(players, start={"to_move": "E", "starter": "A", "turns_done": 4})
    t.send("E", {"move": "discard", "cards": ["bite"]})
    t.deadline()
    assert t.state["over"] and t.state["winner"] == "none"
    out = E.outcome(t.state)
    assert out.draw and out.winners == ["none"]
    t = table()
    E.master_end(t.state)
    assert t.state["winner"] == "none"


def test_BW_22e_the_end_closes_every_step_and_everything_becomes_visible():
    t = table(dna={"D": "mutated", "E": "mutated"})
    declare(t, "A", ENEMIES_OF_A)
    assert t.state["step"] is None and t.state["to_move"] is None and E.next_spec(t.state) is None
    assert E.view(t.state, sees_everything=True)["entities"] == t.state["entities"]


def test_BW_22f_an_empty_declaration_the_declarer_or_a_player_twice_is_refused():
    t = table()
    for named in ([], ["A", "D"], ["D", "D"]):
        assert code_of(declare, t, "A", named) == "bad_declaration"
    assert code_of(E.declare, t.state, sid("A"), [99]) == "bad_declaration"
    assert not t.state["over"]
    declare(t, "A", ENEMIES_OF_A)
    assert code_of(declare, t, "B", ENEMIES_OF_A) == "game_over"


def test_BW_23_BW_23b_options_set_at_creation_and_slowness_is_the_turn_deadline():
    t = table()
    assert E.next_spec(t.state).kind == "turn" and E.next_spec(t.state).duration is None  # BW-23b: the game's
    t = table(options={"turn_minutes": 30})
    assert E.next_spec(t.state).duration == 30 * 60


def test_BW_23a_inattention_a_refused_play_costs_the_card_and_the_turn():
    t = table(hands={"A": ["bite", "vaccine"]}, options={"inattention": True})
    assert code_of(t.check, "A", {"move": "play", "card": "bite", "target": "B"}) == "wrong_phase"
    t.send("A", {"move": "penalty", "card": "bite", "target": "B"})
    assert t.hand("A") == ["vaccine"] and t.state["discard"][0] == "bite"
    assert t.to_move == "B" and t.state["turns_done"] == 1  # no refill, counted
    # a refusal that costs nothing is not a penalty, and without the option there is none
    t = table(hands={"B": ["vaccine"], "A": ["vaccine"]}, options={"inattention": True})
    assert code_of(t.check, "A", {"move": "penalty", "card": "thief", "target": "B"}) == "not_in_hand"
    t = table(hands={"A": ["bite", "vaccine"]})
    assert code_of(t.check, "A", {"move": "penalty", "card": "bite", "target": "B"}) == "bad_order"


def test_BW_23a_inattention_a_refused_answer_costs_the_card_only():
    t = table(hands={"B": ["amulet", "keys"]}, options={"inattention": True})
    lines = E.penalty_card(t.state, sid("B"), "amulet")
    assert t.hand("B") == ["keys"] and lines[0].data["cards"] == ["amulet"]


def test_BW_26_play_checks_run_in_order_and_the_first_failure_is_reported():
    t = table(hands={"A": ["mirror", "bite", "eclipse"], "B": []})
    assert code_of(t.check, "B", {"move": "play", "card": "bite", "target": "A"}) == "not_your_turn"
    assert code_of(t.check, "A", {"move": "play", "card": "thief", "target": "B"}) == "not_in_hand"
    assert code_of(t.check, "A", {"move": "play", "card": "mirror", "target": "B"}) == "reaction_only"
    assert code_of(t.check, "A", {"move": "play", "card": "bite", "target": "A"}) == "wrong_phase"
    night = table(hands={"A": ["bite"]}, start={"phase": "night"})
    night.state["chains"].append(sid("A"))
    assert code_of(night.check, "A", {"move": "play", "card": "bite"}) == "chained"  # before bad_target
    night = table(hands={"A": ["bite"]}, start={"phase": "night"})
    assert code_of(night.check, "A", {"move": "play", "card": "bite"}) == "bad_target"
    assert code_of(night.check, "A", {"move": "play", "card": "bite", "target": "A"}) == "self_target"
    over = table()
    declare(over, "A", ENEMIES_OF_A)
    assert code_of(over.check, "A", {"move": "play", "card": "bite", "target": "B"}) == "game_over"


def test_BW_26_answer_checks_in_order():
    t = table(hands={"A": ["bite", "bite"], "B": ["keys"]}, start={"phase": "night"})
    t.state["tranq"].append(sid("C"))
    assert code_of(t.check, "C", {"react": "amulet"}) == "tranquilized"  # checked first, even with no attack
    assert code_of(t.check, "B", {"react": "amulet"}) == "no_attack"
    t.play("A", "bite", "B")
    assert code_of(t.check, "D", {"react": "pass"}) == "not_target"
    assert code_of(t.check, "B", {"react": "amulet"}) == "not_in_hand"


def test_BW_26a_leshy_give_keep_and_refill_check_order():
    t = table(hands={"A": ["leshy", "hunter"], "B": ["bite", "keys", "vaccine"], "C": ["bite"] * 3},
              start={"phase": "night"})
    t.play("A", "leshy")
    assert code_of(t.check, "D", {"discard": ["bite", "bite"]}) == "not_your_turn"
    assert code_of(t.check, "B", {"discard": ["bite"]}) == "bad_discard"
    assert code_of(t.check, "B", {"discard": ["bite", "bite"]}) == "not_in_hand"
    assert code_of(t.check, "B", {"give": "bite"}) == "not_your_turn"
    assert code_of(t.check, "B", {"refill": {"day": 1}}) == "not_your_turn"


def test_BW_26b_a_refusal_changes_nothing_and_writes_no_line():
    t = table(hands={"A": ["vaccine"]})
    before = copy.deepcopy(t.state)
    for payload in ({"move": "play", "card": "bite", "target": "B"}, {"react": "amulet"}, {"keep": ["x"]}):
        with pytest.raises(E.BwError) as exc:
            t.check("A", payload)
        assert exc.value.rule and exc.value.code in E.REFUSALS
    assert t.state == before


def test_BW_22d_master_end_writes_its_own_line():
    """BW-22d: the master's end with no winner is a public ``bw.master_end`` line and an outcome with nobody."""
    t = table()
    lines = E.master_end(t.state)
    assert [e.kind for e in lines] == ["bw.master_end"] and lines[0].to == "public"
    assert E.outcome(t.state).winners == ["none"] and t.state["step"] is None


def test_BW_22g_master_seat_edit_changes_hand_dna_and_markers():
    """BW-22g: the master's console edit of one seat — hand, DNA, Curse Mark count, Chains, Tranquilizer — with no
    end check on the edited position; bad values are refused all at once and change nothing."""
    t = table()
    a = sid("A")
    fields = E.seat_fields(t.state, a)
    assert fields == {"hand": ["bite"], "dna": "purity", "curse_mark": None, "chains": None, "tranquilizer": None}
    new = E.seat_edit(t.state, a, {"hand": ["amulet", "thief"], "dna": "mutated", "curse_mark": 1, "chains": True})
    assert new["hands"][a] == ["amulet", "thief"] and new["dna"][a] == "mutated"
    assert new["curse"][a] == 1 and a in new["chains"] and not new.get("over")
    back = E.seat_edit(new, a, {"curse_mark": None, "chains": None})
    assert a not in back["curse"] and a not in back["chains"]
    before = copy.deepcopy(t.state)
    with pytest.raises(E.RuleViolation if hasattr(E, "RuleViolation") else Exception) as exc:
        E.seat_edit(t.state, a, {"hand": ["bazooka"], "dna": "zombie", "curse_mark": 5, "chains": "x", "foo": 1})
    assert len(exc.value.errors) == 5 and t.state == before
    with pytest.raises(Exception) as exc:
        E.seat_edit(t.state, a, {"dna": "permanent", "curse_mark": 2})
    assert exc.value.errors[0].rule == "BW-10b"
    t.state["over"] = True
    assert E.seat_fields(t.state, a) == {}
