"""October Night engine: week 5 and admission (OC-8), the ritual (OC-9) and every end (OC-10). Pure."""
from __future__ import annotations

from .engine_helpers import checks, events, game, play, refused

LAST = {"week": 5, "day": 7, "phase": "contact"}
SOLVED = {"solved": ["moon_phases", "old_maps", "blood_trail", "drowned_names"]}
EMPTY = {"search": [], "combat": [], "personal": []}


def last_night(**extra):
    players = [{"side": "summoners", "character": "count", "location": "manor", "experience": 10,
                "ingredients": ["graveyard_dirt"]},
               {"side": "keepers", "character": "witch", "location": "old_oak", "experience": 9},
               {"side": "keepers", "character": "vicar", "location": "town_square", "experience": 12}]
    for i, more in extra.items():
        players[int(i[1:])].update(more)
    return game(players, start=LAST, mysteries=SOLVED, ritual_place="manor", decks=EMPTY)


def test_OC_8_admission_by_experience_and_distance():
    res = play(last_night(p1={"location": "old_oak"}))
    r = res.state["ritual"]
    assert r["admitted"] == {"1": "full", "2": "half"} and r["dropped"] == ["3"]
    assert res.state["players"]["3"]["out"] and res.alive == {3: False}
    assert (res.next_phase.kind, res.state["stage"]) == ("ritual", "ritual")
    # OC-9.0: every side public, and the sums.
    opening = events(res, "ritual_open")[0]
    assert opening["sides"] == {"Аня": "summoners", "Боря": "keepers", "Вова": "keepers"}
    assert opening["sums"] == {"summoners": 12, "keepers": 6}


def test_OC_8_2_below_eight_experience_drops_out():
    res = play(last_night(p0={"experience": 7}))
    assert res.state["ritual"]["dropped"] == ["1", "3"]


def test_OC_8_4_nobody_admitted_everybody_loses():
    res = play(last_night(p0={"experience": 7}, p1={"experience": 7}))
    assert res.outcome is not None and res.state["winner"] == "nobody" and list(res.outcome.winning_seats) == []


def test_OC_9_1_sum_decides_without_a_deadly_fight():
    res = play(last_night())
    res = play(res.state)
    assert res.state["winner"] == "summoners" and res.state["winners"] == ["1"]
    assert list(res.outcome.winners) == ["summoners"] and list(res.outcome.winning_seats) == [1]


def test_OC_9_2_tie_of_sums_goes_to_the_keepers():
    res = play(last_night(p0={"experience": 10, "ingredients": []}, p1={"location": "manor", "experience": 9,
                                                                         "ingredients": ["bat_wing"]}))
    assert res.state["ritual"]["sums"] == {"summoners": 10, "keepers": 10}
    res = play(res.state)
    assert res.state["winner"] == "keepers" and res.state["winners"] == ["2"]


def test_OC_9_3_only_admitted_at_the_place_break_the_ritual():
    res = play(last_night())
    assert refused(res.state, 2, {"deadly_fight": True}) == ["not_admitted"]
    assert refused(res.state, 1, {"deadly_fight": True}) == []


def test_OC_9_4_deadly_fight_tie_goes_to_the_summoners():
    res = play(last_night(p1={"location": "manor"}))
    assert res.state["ritual"]["sums"]["keepers"] > res.state["ritual"]["sums"]["summoners"]
    res = play(res.state, {1: {"deadly_fight": True}}, dice=[1, 1, 1, 2])
    c = checks(res)
    assert [x["side"] for x in c] == ["summoners", "keepers"] and [x["total"] for x in c] == [6, 6]
    assert res.state["ritual"]["mode"] == "deadly_fight" and res.state["winner"] == "summoners"


def test_OC_10_2_everyone_out_ends_the_game():
    st = game([{"side": "summoners", "character": "count", "location": "cemetery", "health": 1,
                "contact": {"card": "night_patrol"}},
               {"side": "keepers", "character": "witch", "out": True},
               {"side": "keepers", "character": "vicar", "out": True}], start={"week": 2, "day": 3, "phase": "contact"},
              enemies=[{"token": "ghoul", "owner": "Аня"}])
    res = play(st, dice=[1, 1])
    assert res.outcome is not None and res.state["winner"] == "nobody"
    assert events(res, "end")[0]["why"] == "everyone_out"


def test_OC_10_5_out_players_never_win_and_OC_10_7_everything_revealed():
    res = play(last_night())
    res = play(res.state)
    from gm.modules.october_night import engine

    assert engine.revealed(res.state) == {"1": "summoners", "2": "keepers", "3": "keepers"}
    assert "3" not in res.state["winners"]


def test_OC_10_1_chosen_who_never_joined_shows_chosen():
    st = game([{"side": "chosen", "character": "count"}, {"side": "keepers", "character": "witch"},
               {"side": "summoners", "character": "vicar"}], start={"week": 3, "day": 7, "phase": "contact"},
              decks=EMPTY)
    st["players"]["2"]["out"] = st["players"]["3"]["out"] = True
    st["players"]["1"]["health"] = 1
    st["players"]["1"]["location"] = "cemetery"
    st["players"]["1"]["contact"] = {"card": "night_patrol", "type": "combat", "done": []}
    st["enemies"] = [{"token": "ghoul", "location": "cemetery", "owner": "1", "health": 2, "revealed": False}]
    res = play(st, dice=[1, 1])
    from gm.modules.october_night import engine

    assert res.state["stage"] == "over" and engine.revealed(res.state)["1"] == "chosen"
