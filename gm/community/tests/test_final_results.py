"""The modules' ``final_results`` hook (pure, no database): sides, roles, results and setups of finished games."""
from __future__ import annotations

from gm.core.engine import GameModule, SeatInfo
from gm.modules.forum_mafia.engine import stats as fm_stats
from gm.modules.onuw.engine import stats as onuw_stats


def test_default_hook_reads_winning_seats_only():
    seats = [SeatInfo(id=1, name="A", position=0), SeatInfo(id=2, name="B", position=1)]
    result = GameModule().final_results(state={}, seats=seats, outcome={"winners": ["x"], "winning_seats": [2]},
                                        options={})
    assert result.setup == ()
    assert [(r.seat_id, r.side, r.role, r.won) for r in result.seats] == [(1, "", "", False), (2, "", "", True)]


def test_onuw_side_is_the_team_of_the_final_card_and_role_the_dealt_card():
    """ON-5: a robbed werewolf plays for the village at the end; his role in the statistics stays "werewolf"."""
    state = {"dealt": {"1": "werewolf", "2": "robber", "3": "seer"},
             "cards": {"1": "robber", "2": "werewolf", "3": "seer"},
             "center": ["villager", "minion", "tanner"]}
    seats = [SeatInfo(id=1, name="A", position=0, data={"team": "village", "final_as": "robber"}),
             SeatInfo(id=2, name="B", position=1, data={"team": "werewolf", "final_as": "werewolf"}),
             SeatInfo(id=3, name="C", position=2, data={})]
    result = onuw_stats.final_results(state, seats, {"winners": ["werewolf"], "winning_seats": [2]})
    assert result.setup == ("minion", "robber", "seer", "tanner", "villager", "werewolf")
    rows = {r.seat_id: (r.side, r.role, r.won) for r in result.seats}
    assert rows == {1: ("village", "werewolf", False), 2: ("werewolf", "robber", True), 3: ("village", "seer", False)}


def test_forum_mafia_sides_follow_fm10():
    """FM-10: the traitor wins with the Mafia, the hero with the Law; maniac and joker play for themselves."""
    roles = ["mafia_boss", "sheriff", "traitor", "hero", "maniac", "joker"]
    seats = [SeatInfo(id=i + 1, name=str(i), position=i, data={"secret_role": r}) for i, r in enumerate(roles)]
    result = fm_stats.final_results({}, seats, {"winners": ["mafia"], "winning_seats": [1, 3]})
    assert result.setup == tuple(sorted(roles))
    assert [(r.side, r.won) for r in result.seats] == [
        ("mafia", True), ("law", False), ("mafia", True), ("law", False), ("maniac", False), ("joker", False)]
