"""The pure engine: victory of each side, the result and series points (BV-9–BV-12, BV-14.9). No database."""
from __future__ import annotations

from .. import engine
from .engine_kit import Game


def lamia(target: int) -> dict:
    return {"role": "lamia", "mode": "invite", "target": target}


def test_BV_9_vampires_win_when_hunters_and_werewolf_are_dead():
    g = Game(["count", "lamia", "hunter", "werewolf", "vampire", "vampire"])
    g.votes({1: 3, 2: 3, 5: 3})
    assert g.kind == "light"
    g.light({1: {"role": "count", "target": 2}, 2: {"role": "lamia", "mode": "visit", "target": 4}})
    assert g.outcome.winners == ["vampires"]


def test_BV_9_1_a_side_wins_with_all_its_players_dead():
    state = Game(["count", "lamia", "hunter", "werewolf", "vampire", "vampire"]).state
    state["dead"] = list(state["ring"])
    assert engine.winner(state, nightfall=True) == "vampires"


def test_BV_9_2_the_conditions_are_exclusive_no_draws():
    g = Game(["count", "lamia", "hunter", "werewolf", "vampire", "vampire"])
    s = g.state
    s["dead"] = ["1", "2", "5", "6"]  # werewolf and one hunter: the werewolf's
    assert engine.winner(s, nightfall=True) == "werewolf"
    s["dead"] = ["1", "2", "4", "5", "6"]  # a hunter alone at nightfall
    assert engine.winner(s, nightfall=True) == "hunters"
    s["dead"] = ["3", "4"]
    assert engine.winner(s, nightfall=True) == "vampires"


def test_BV_9_3_no_victory_check_on_a_set_up_position():
    g = Game(["count", "lamia", "hunter", "werewolf", "vampire", "vampire"])
    g.state["dead"] = ["3", "4"]  # a position the master set up: the game goes on until the next check
    assert g.kind == "night" and g.state["winner"] is None
    g.votes({})
    assert g.outcome.winners == ["vampires"]


def test_BV_10_hunters_win_at_nightfall_when_as_many_as_the_vampires_and_no_killer():
    g = Game(["count", "monk", "hunter", "hunter", "vampire", "vampire", "vampire"])
    g.votes({3: 5, 4: 5, 2: 5})
    assert g.kind == "light"  # 3 hunters v 3 vampires: not after an execution (BV-10.2)
    g.light({2: [{"role": "monk", "target": 1}, {"role": "hunters", "target": 6}],
             3: {"role": "hunters", "target": 6}, 1: {"role": "count", "target": 2}})
    assert g.outcome.winners == ["hunters"]


def test_BV_10_1_a_living_killing_vampire_keeps_the_game_going():
    g = Game(["king", "monk", "hunter", "hunter", "vampire", "vampire", "vampire"])
    g.votes({3: 5, 4: 5, 2: 5})
    g.light({2: [{"role": "monk", "target": 1}, {"role": "hunters", "target": 6}],
             3: {"role": "hunters", "target": 6}})
    assert g.kind == "night" and g.outcome is None


def test_BV_10_2_the_hunters_check_is_made_only_at_nightfall():
    state = Game(["count", "monk", "hunter", "hunter", "vampire", "vampire"]).state
    state["dead"] = ["5"]
    assert engine.winner(state, nightfall=False) is None
    assert engine.winner(state, nightfall=True) == "hunters"


def test_BV_11_the_werewolf_wins_alone_or_with_one_hunter():
    g = Game(["count", "lamia", "hunter", "werewolf", "vampire", "vampire"])
    g.state["dead"] = ["2", "5", "6"]
    g.votes({3: 1, 4: 1})
    assert g.outcome.winners == ["werewolf"]


def test_BV_11_1_checked_after_every_execution_round():
    g = Game(["count", "lamia", "hunter", "werewolf", "vampire", "vampire"])
    g.state["dead"] = ["2", "5", "6"]
    g.votes({1: 3, 3: 1})
    assert g.kind == "defence"
    g.votes({3: 1, 4: 1})
    assert g.outcome.winners == ["werewolf"]


def test_BV_11_2_werewolf_invasion_win_together_the_dead_one_included():
    g = Game(["prince", "lamia", "queen", "scout", "hunter", "werewolf", "kitsune", "vampire"],
             werewolf_invasion=True)
    g.state["dead"] = ["2", "3", "4", "7", "8"]
    g.votes({5: 1, 6: 1})
    assert g.outcome.winners == ["werewolf"]
    assert sorted(g.outcome.winning_seats) == [6, 7]


def test_BV_11_3_with_wargs_every_living_player_of_the_pack():
    state = Game(["king", "lamia", "monk", "hunter", "hunter", "hunter", "hunter", "werewolf", "warg_leader",
                  *["vampire"] * 11], wargs=["warg_leader"]).state
    state["dead"] = [s for s in state["ring"] if s not in ("9", "4")]
    assert engine.winner(state, nightfall=False) == "werewolf"


def test_BV_12_points_vampire_1_hunter_2_werewolf_3():
    g = Game(["count", "lamia", "monk", "hunter", "vampire", "vampire"])
    g.votes({1: 3, 2: 3, 5: 3})
    g.light({4: {"role": "hunters", "target": 5}, 2: {"role": "lamia", "mode": "visit", "target": 4},
             1: {"role": "count", "target": 2}})
    assert g.outcome.winners == ["vampires"]
    assert g.state["points"] == {"1": 1, "2": 1, "3": 0, "4": 0, "5": 1, "6": 1}
    assert engine.points(g.state, "hunters")["3"] == 2 and engine.points(g.state, "werewolf")["3"] == 0


def test_BV_12_1_wargs_score_as_the_werewolf():
    state = Game(["king", "lamia", "monk", "hunter", "hunter", "hunter", "hunter", "werewolf", "sly_warg",
                  *["vampire"] * 11], wargs=["sly_warg"]).state
    assert engine.points(state, "werewolf")["9"] == 3


def test_BV_12_2_dead_winners_score_and_are_winners():
    g = Game(["count", "lamia", "monk", "hunter", "vampire", "vampire"])
    g.votes({3: 5, 4: 5, 1: 5})  # P5, a vampire, dies first
    g.light({4: {"role": "hunters", "target": 6}, 3: [{"role": "hunters", "target": 6},
                                                       {"role": "monk", "target": 1}],
             2: {"role": "lamia", "mode": "visit", "target": 4}, 1: {"role": "count", "target": 3}})
    g.votes({1: 3, 2: 3})
    assert g.outcome.winners == ["vampires"] and 5 in g.outcome.winning_seats
    assert g.seat_data[5]["won"] is True and g.seat_data[5]["points"] == 1


def test_BV_12_3_series_totals():
    assert engine.series_table([{"a": 1, "b": 0}, {"a": 2, "b": 3}]) == {"a": 3, "b": 3}


def test_BV_14_9_and_14_9a_the_end_writes_the_result_lines_and_reveals_every_card():
    g = Game(["count", "lamia", "hunter", "werewolf", "vampire", "vampire"])
    g.votes({1: 3, 2: 3, 5: 3})
    g.light({1: {"role": "count", "target": 2}, 2: {"role": "lamia", "mode": "visit", "target": 4}})
    line = g.last_events("bv.victory")[0]
    assert line.visibility == "public" and line.data["side"] == "vampires"
    assert all(g.seat_data[s]["revealed"] for s in range(1, 7))
    assert engine.view(g.state, sees_everything=True)["cards"]
