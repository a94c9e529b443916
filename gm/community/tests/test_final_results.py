"""The modules' ``final_results`` hook (pure, no database; modules reached through the registry): sides, roles,
results and setups of finished games."""
from __future__ import annotations

from gm.core.engine import GameModule, SeatInfo
from gm.core.registry import get


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
    result = get("onuw").final_results(state=state, seats=seats, outcome={"winners": ["werewolf"],
                                                                          "winning_seats": [2]}, options={})
    assert result.setup == ("minion", "robber", "seer", "tanner", "villager", "werewolf")
    rows = {r.seat_id: (r.side, r.role, r.won) for r in result.seats}
    assert rows == {1: ("village", "werewolf", False), 2: ("werewolf", "robber", True), 3: ("village", "seer", False)}


def test_forum_mafia_sides_follow_fm10():
    """FM-10: the traitor wins with the Mafia, the hero with the Law; maniac and joker play for themselves."""
    roles = ["mafia_boss", "sheriff", "traitor", "hero", "maniac", "joker"]
    seats = [SeatInfo(id=i + 1, name=str(i), position=i, data={"secret_role": r}) for i, r in enumerate(roles)]
    result = get("forum_mafia").final_results(state={}, seats=seats, outcome={"winners": ["mafia"],
                                                                               "winning_seats": [1, 3]}, options={})
    assert result.setup == tuple(sorted(roles))
    assert [(r.side, r.won) for r in result.seats] == [
        ("mafia", True), ("law", False), ("mafia", True), ("law", False), ("maniac", False), ("joker", False)]


def test_modules_keeping_side_and_role_in_seat_data():
    """Bloodwood (team, entity), Blood Vengeance (side, card) and October Night (side, character) read their final
    seat data through ``results_from_seat_data``."""
    cases = {"bloodwood": ("team", "entity"), "blood_vengeance": ("side", "card"),
             "october_night": ("side", "character")}
    for slug, (side_key, role_key) in cases.items():
        seats = [SeatInfo(id=1, name="A", position=0, data={side_key: "red", role_key: "b_role"}),
                 SeatInfo(id=2, name="B", position=1, data={side_key: "blue", role_key: "a_role"})]
        result = get(slug).final_results(state={}, seats=seats, outcome={"winners": ["red"], "winning_seats": [1]},
                                         options={})
        assert result.setup == ("a_role", "b_role"), slug
        assert [(r.side, r.role, r.won) for r in result.seats] == [("red", "b_role", True), ("blue", "a_role", False)]
