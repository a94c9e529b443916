"""The pure ONUW engine (``gm.modules.onuw.engine``), rule by rule (``ON-…``, /work/shared/rules/onuw.md)."""
from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path

import pytest

from gm.modules.onuw import engine as e

ORDER = ["1", "2", "3", "4", "5"]


def make(dealt: list[str], center: list[str], *, lone_wolf: bool = True, copy=None, copied_from=None) -> dict:
    """A state with seats "1".."n" dealt ``dealt`` and the given center; ``copy`` as if the doppelganger step ran."""
    state = e.initial_state({str(i + 1): r for i, r in enumerate(dealt)}, center, lone_wolf=lone_wolf)
    if copy is not None:
        state.update(copy=copy, copied_from=copied_from, stage="night")
    return state


def order_of(state) -> list[str]:
    return list(state["dealt"])


def night(state, orders=None, seed=1):
    return e.resolve_night(state, orders or {}, order_of(state), random.Random(seed))


def seat_events(events, sid):
    return [ev for ev in events if ev.to == int(sid)]


def test_engine_imports_no_django_and_no_global_random():
    """Functional core: no file of the engine package imports Django or anything doing I/O; besides the standard
    library it imports only its own files and the core's pure engine interface."""
    imported: set[str] = set()
    for path in Path(e.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and not n.level}
    assert not {m for m in imported if m.split(".")[0] == "django"}
    assert {m.split(".")[0] for m in imported - {"gm.core.engine"}} <= {"__future__", "random", "collections",
                                                                          "dataclasses", "typing"}


# -- ON-1, ON-2, ON-3 -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 11))
def test_ON_1_always_players_plus_three_cards(players):
    roles = e.recommended_roles(players)
    assert len(roles) == players + 3
    cards, center = e.deal(list(range(1, players + 1)), roles, random.Random(players))
    assert len(cards) == players and len(center) == 3
    assert Counter([*cards.values(), *center]) == Counter(roles)


@pytest.mark.parametrize("players", [2, 11])
def test_ON_1_three_to_ten_players(players):
    with pytest.raises(e.OnuwError) as err:
        e.recommended_roles(players)
    assert err.value.rule == "ON-1"


def test_ON_1_master_set_must_have_players_plus_three_cards():
    with pytest.raises(e.OnuwError, match="exactly 7 cards"):
        e.check_roles(["werewolf", "seer", "villager"], 4)


def test_ON_2_recommended_sets():
    assert e.recommended_roles(3) == sorted(["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager"])
    assert Counter(e.recommended_roles(4))["villager"] == 2
    assert Counter(e.recommended_roles(5))["villager"] == 3
    for n in range(3, 11):  # [house] 6–10 players stay within the box
        counts = Counter(e.recommended_roles(n))
        assert all(counts[r] <= e.BOX[r] for r in counts)


def test_ON_2_any_multiset_with_warnings():
    roles = ["villager"] * 4 + ["werewolf"] * 3 + ["tanner"] * 2 + ["mason"]
    warnings = e.check_roles(roles, 7)
    texts = [m % p if p else m for m, p in warnings]
    assert any("pair" in t for t in texts)
    assert any("4 × villager" in t for t in texts) and any("3 × werewolf" in t for t in texts)
    assert any("2 × tanner" in t for t in texts)


def test_ON_2_insomniac_warning_without_robber_or_troublemaker():
    warnings = e.check_roles(["insomniac", "werewolf", "werewolf", "seer", "villager", "villager"], 3)
    assert any("insomniac" in m for m, _p in warnings)
    assert not e.check_roles(["insomniac", "robber", "werewolf", "seer", "villager", "villager"], 3)


def test_ON_2_unknown_role_and_second_doppelganger_refused():
    with pytest.raises(e.OnuwError, match="Unknown role"):
        e.check_roles(["vampire"])
    with pytest.raises(e.OnuwError, match="one doppelganger"):
        e.check_roles(["doppelganger", "doppelganger"])


def test_ON_3_deal_is_seeded_and_random():
    roles = e.recommended_roles(5)
    a = e.deal([1, 2, 3, 4, 5], roles, random.Random(7))
    assert a == e.deal([1, 2, 3, 4, 5], roles, random.Random(7))
    deals = {tuple(e.deal([1, 2, 3, 4, 5], roles, random.Random(s))[0].values()) for s in range(30)}
    assert len(deals) > 5


def test_ON_3_roles_in_play_public_and_doppelganger_step_only_with_doppelganger():
    state = make(["seer", "werewolf", "robber"], ["villager", "werewolf", "troublemaker"])
    assert state["roles"] == sorted(["seer", "werewolf", "robber", "villager", "werewolf", "troublemaker"])
    assert state["stage"] == "night"
    # ON-14: the step opens whenever the doppelganger is in play, even in the center (its existence tells nothing)
    assert make(["seer", "werewolf", "robber"], ["doppelganger", "werewolf", "villager"])["stage"] == "doppelganger"


# -- ON-4 the night ----------------------------------------------------------------------------------------------------


def test_ON_4_2_werewolves_see_each_other():
    state = make(["werewolf", "werewolf", "seer"], ["villager", "robber", "troublemaker"])
    evs = e.knowledge(state, order_of(state))
    assert [(ev.kind, ev.to, ev.data) for ev in evs] == [
        ("onuw.werewolves", 1, {"seats": [2]}), ("onuw.werewolves", 2, {"seats": [1]})]


def test_ON_4_2_lone_wolf_may_look_at_one_center_card():
    state = make(["werewolf", "seer", "robber"], ["villager", "werewolf", "troublemaker"])
    assert [ev.kind for ev in e.knowledge(state, order_of(state))] == ["onuw.lone_wolf"]
    assert e.validate_night(state, "1", {"look": ["center2"]}, order_of(state)) == {"look": ["center2"]}
    _s, evs = night(state, {"1": {"look": ["center2"]}})
    assert [ev.data for ev in seat_events(evs, 1)] == [{"center": "center2", "card": "werewolf"}]
    with pytest.raises(e.OnuwError, match="exactly one center card"):
        e.validate_night(state, "1", {"look": ["center1", "center2"]}, order_of(state))


def test_ON_4_2_lone_wolf_option_off_and_pair_may_not_peek():
    off = make(["werewolf", "seer", "robber"], ["villager", "werewolf", "troublemaker"], lone_wolf=False)
    with pytest.raises(e.OnuwError) as err:
        e.validate_night(off, "1", {"look": ["center2"]}, order_of(off))
    assert err.value.rule == "ON-4.2"
    pair = make(["werewolf", "werewolf", "robber"], ["villager", "seer", "troublemaker"])
    with pytest.raises(e.OnuwError, match="not the only werewolf"):
        e.validate_night(pair, "1", {"look": ["center2"]}, order_of(pair))


def test_ON_4_3_minion_sees_werewolves_they_do_not_see_him():
    state = make(["werewolf", "minion", "werewolf", "seer"], ["villager", "robber", "troublemaker"])
    evs = e.knowledge(state, order_of(state))
    assert [(ev.kind, ev.to, ev.data) for ev in evs if ev.to == 2] == [("onuw.minion_sees", 2, {"seats": [1, 3]})]
    assert all(2 not in ev.data.get("seats", []) for ev in evs if ev.to in (1, 3))
    alone = make(["minion", "seer", "robber"], ["werewolf", "werewolf", "troublemaker"])
    assert [ev.kind for ev in e.knowledge(alone, order_of(alone))] == ["onuw.minion_no_wolves"]


def test_ON_4_4_masons_see_each_other_lone_mason_knows():
    state = make(["mason", "mason", "werewolf", "seer"], ["villager", "robber", "troublemaker"])
    evs = [ev for ev in e.knowledge(state, order_of(state)) if ev.kind == "onuw.masons"]
    assert [(ev.to, ev.data["seats"]) for ev in evs] == [(1, [2]), (2, [1])]
    lone = make(["mason", "werewolf", "seer"], ["mason", "robber", "troublemaker"])
    assert "onuw.lone_mason" in [ev.kind for ev in e.knowledge(lone, order_of(lone))]


def test_ON_4_5_seer_one_player_or_two_center_cards():
    state = make(["seer", "werewolf", "robber"], ["villager", "tanner", "troublemaker"])
    _s, evs = night(state, {"1": {"look": [2]}})
    assert seat_events(evs, 1)[0].data == {"seen": [{"seat": 2, "card": "werewolf"}]}
    _s, evs = night(state, {"1": {"look": ["center1", "center3"]}})
    assert seat_events(evs, 1)[0].data == {"seen": [{"center": "center1", "card": "villager"},
                                                    {"center": "center3", "card": "troublemaker"}]}
    for bad, msg in [({"look": [1]}, "not yourself"), ({"look": ["center1"]}, "two center cards"),
                     ({"look": ["center1", "center1"]}, "different"), ({"look": [2, 3]}, "Choose a center"),
                     ({"look": [9]}, "one of the players"), ({}, "required")]:
        with pytest.raises(e.OnuwError, match=msg):
            e.validate_night(state, "1", bad, order_of(state))


def test_ON_4_6_robber_swaps_looks_and_takes_the_team_of_the_stolen_card():
    state = make(["robber", "werewolf", "villager"], ["seer", "tanner", "troublemaker"])
    new, evs = night(state, {"1": {"swap_with": 2}})
    assert new["cards"] == {"1": "werewolf", "2": "robber", "3": "villager"}
    assert seat_events(evs, 1)[0].data == {"seat": 2, "card": "werewolf", "as": "werewolf"}
    # robber's team follows the stolen card; the robbed werewolf is now village
    teams, winners = e.victory({"1": "werewolf", "2": "robber", "3": "villager"}, ["2"])
    assert teams == ["werewolf"] and winners == ["1"]
    with pytest.raises(e.OnuwError, match="not yourself"):
        e.validate_night(state, "1", {"swap_with": 1}, order_of(state))


def test_ON_4_7_troublemaker_swaps_two_other_players_without_looking():
    state = make(["troublemaker", "werewolf", "villager"], ["seer", "tanner", "robber"])
    new, evs = night(state, {"1": {"swap": [2, 3]}})
    assert new["cards"] == {"1": "troublemaker", "2": "villager", "3": "werewolf"}
    assert seat_events(evs, 1)[0].data == {"seats": [2, 3]}  # no card named
    for bad, msg in [({"swap": [1, 2]}, "not yourself"), ({"swap": [2, 2]}, "different"),
                     ({"swap": [2]}, "exactly two")]:
        with pytest.raises(e.OnuwError, match=msg):
            e.validate_night(state, "1", bad, order_of(state))


def test_ON_4_8_drunk_swaps_with_center_without_looking_and_at_random_if_silent():
    state = make(["drunk", "werewolf", "villager"], ["seer", "tanner", "robber"])
    new, evs = night(state, {"1": {"take": "center2"}})
    assert new["cards"]["1"] == "tanner" and new["center"] == ["seer", "drunk", "robber"]
    assert seat_events(evs, 1)[0].data == {"center": "center2"}
    new, evs = night(state, {}, seed=3)
    assert new["cards"]["1"] in ("seer", "tanner", "robber") and "drunk" in new["center"]
    assert [ev.kind for ev in evs if ev.to == "master"] == ["onuw.trace_drunk_random"]
    with pytest.raises(e.OnuwError, match="center card"):
        e.validate_night(state, "1", {"take": 2}, order_of(state))


def test_ON_4_9_insomniac_sees_her_final_card():
    state = make(["insomniac", "robber", "villager"], ["seer", "tanner", "werewolf"])
    new, evs = night(state, {"2": {"swap_with": 1}})
    assert seat_events(evs, 1)[0].data == {"card": "robber", "as": "robber"}
    _n, evs = night(state, {})
    assert seat_events(evs, 1)[0].data == {"card": "insomniac", "as": "insomniac"}


def test_ON_4_10_villager_tanner_hunter_never_wake():
    state = make(["villager", "tanner", "hunter"], ["seer", "werewolf", "werewolf"])
    for sid in "123":
        assert e.night_choice(state, sid, order_of(state)) is None
        with pytest.raises(e.OnuwError) as err:
            e.validate_night(state, sid, {"look": [1]}, order_of(state))
        assert err.value.rule == "ON-4.10"
    _n, evs = night(state, {})
    assert [ev.kind for ev in evs] == ["onuw.night_over"]


def test_ON_4_acts_by_the_dealt_card_in_wake_order():
    """Seer, robber, troublemaker wake in that order against the real positions; the troublemaker still acts as
    troublemaker after the robber took her card (each acts by the card he was dealt)."""
    state = make(["seer", "robber", "troublemaker", "werewolf"], ["villager", "villager", "drunk"])
    new, evs = night(state, {"1": {"look": [4]}, "2": {"swap_with": 3}, "3": {"swap": [1, 4]}})
    # seer saw the werewolf before any swap; robber took troublemaker card; troublemaker (now robber card) still acts
    assert seat_events(evs, 1)[0].data["seen"] == [{"seat": 4, "card": "werewolf"}]
    assert seat_events(evs, 2)[0].data["card"] == "troublemaker"
    assert new["cards"] == {"1": "werewolf", "2": "troublemaker", "3": "robber", "4": "seer"}


def test_ON_5_roles_are_the_final_cards():
    state = make(["troublemaker", "werewolf", "villager"], ["seer", "tanner", "robber"])
    new, _evs = night(state, {"1": {"swap": [2, 3]}})
    new, _evs, teams, winners = e.resolve_day(new, {"1": {"vote": 3}, "2": {"vote": 3}, "3": {"vote": 1}},
                                              order_of(state))
    assert new["dead"] == ["3"] and teams == ["village"]  # seat 3 holds the werewolf card now
    assert winners == ["1", "2"]


SWAPS = {  # swap kind → (dealt, center, doppelganger copy, night orders, votes, the seat whose card moved)
    "robber": (["robber", "werewolf", "villager", "seer"], ["villager", "troublemaker", "drunk"], None,
               {"1": {"swap_with": 2}}, {"1": 3, "2": 3, "3": 1, "4": 3}, "2"),
    "troublemaker": (["troublemaker", "werewolf", "villager", "seer"], ["villager", "robber", "drunk"], None,
                     {"1": {"swap": [2, 3]}}, {"1": 4, "2": 4, "3": 4, "4": 1}, "2"),
    "drunk": (["drunk", "seer", "villager", "villager"], ["werewolf", "robber", "troublemaker"], None,
              {"1": {"take": "center1"}}, {"1": 2, "2": 1, "3": 2, "4": 2}, "1"),
    "doppelganger-robber": (["doppelganger", "werewolf", "robber", "villager"], ["villager", "seer", "troublemaker"],
                            "robber", {"1": {"swap_with": 2}}, {"1": 4, "2": 4, "3": 4, "4": 1}, "2"),
}


@pytest.mark.parametrize("kind", SWAPS)
def test_ON_5_victory_counts_each_seat_by_its_final_card_for_every_swap_kind(kind):
    """ON-5 with ON-9/ON-10: after a robber, troublemaker, drunk or doppelganger-robber swap, each seat's team and
    result follow the card in front of it at the end of the night, not the card it was dealt; the final reveal
    carries both cards, the team and the result of each seat."""
    dealt, center, copy, orders, votes, moved = SWAPS[kind]
    state = make(dealt, center, copy=copy, copied_from="3" if copy else None)
    new, _evs = night(state, orders)
    final = {s: e.effective(c, new) for s, c in new["cards"].items()}
    assert new["cards"][moved] != dealt[int(moved) - 1]  # the card really moved
    over, evs, teams, winners = e.resolve_day(new, {v: {"vote": t} for v, t in votes.items()}, order_of(new))
    assert (teams, winners) == e.victory(final, over["dead"])
    by_dealt = e.victory({s: e.effective(c, state) for s, c in state["dealt"].items()}, over["dead"])
    assert (moved in winners) != (moved in by_dealt[1])  # the dealt card would have given the other result
    reveal = next(ev for ev in evs if ev.kind == "onuw.final_cards").data["seats"]
    row = next(r for r in reveal if str(r["seat"]) == moved)
    assert row == {"seat": int(moved), "dealt": dealt[int(moved) - 1], "card": new["cards"][moved],
                   "as": final[moved], "team": e.team(final[moved]), "won": moved in winners}


# -- ON-4.1 / ON-14 the doppelganger copying each role kind -----------------------------------------------------------


def dop_state(target_card: str, others=("villager", "werewolf"), center=("seer", "villager", "troublemaker")):
    state = make(["doppelganger", target_card, *others], list(center))
    assert state["stage"] == "doppelganger"
    new, evs = e.resolve_doppelganger(state, {"1": {"copy": 2}}, order_of(state))
    assert new["copy"] == target_card and new["stage"] == "night"
    assert seat_events(evs, 1)[0].data == {"seat": 2, "role": target_card}
    return new, evs


@pytest.mark.parametrize("role", ["villager", "tanner", "hunter"])
def test_ON_4_1_doppelganger_copies_a_role_that_does_nothing(role):
    new, _evs = dop_state(role)
    assert e.night_choice(new, "1", order_of(new)) is None
    with pytest.raises(e.OnuwError, match="does not wake"):
        e.validate_night(new, "1", {"look": [2]}, order_of(new))
    assert e.effective("doppelganger", new) == role


def test_ON_4_1_doppelganger_tanner_and_hunter_count_as_copied():
    new, _evs = dop_state("hunter", others=("werewolf", "villager"))
    dead, shots = e.deaths({"1": "3", "2": "1", "3": "1", "4": "1"},
                           {s: e.effective(c, new) for s, c in new["cards"].items()})
    assert dead == ["1", "3"] and shots == [("1", "3")]
    tanner, _evs = dop_state("tanner")
    assert e.victory({s: e.effective(c, tanner) for s, c in tanner["cards"].items()}, ["1"])[0] == ["tanner"]


def test_ON_4_1_doppelganger_werewolf_wakes_with_the_werewolves():
    new, evs = dop_state("werewolf", others=("villager", "seer"))
    wolves = {ev.to: ev.data["seats"] for ev in evs if ev.kind == "onuw.werewolves"}
    assert wolves == {2: [1], 1: [2]}
    assert e.night_choice(new, "2", order_of(new)) is None  # not lone any more
    assert e.team(e.effective("doppelganger", new)) == "werewolf"


def test_ON_4_1_doppelganger_mason_wakes_with_the_masons():
    _new, evs = dop_state("mason", others=("mason", "werewolf"))
    masons = {ev.to: ev.data["seats"] for ev in evs if ev.kind == "onuw.masons"}
    assert masons == {2: [3, 1], 3: [2, 1], 1: [2, 3]}


def test_ON_4_1_doppelganger_minion_sees_the_werewolves():
    _new, evs = dop_state("minion", others=("werewolf", "villager"))
    assert [(ev.kind, ev.to, ev.data) for ev in evs if ev.to == 1 and ev.kind.startswith("onuw.minion")] == [
        ("onuw.minion_sees", 1, {"seats": [3]})]


def test_ON_4_1_doppelganger_seer_acts_at_once_and_not_again():
    new, _evs = dop_state("seer", others=("werewolf", "villager"))
    assert e.validate_night(new, "1", {"look": [3]}, order_of(new)) == {"look": [3]}
    _n, evs = night(new, {"1": {"look": [3]}, "2": {"look": ["center1", "center2"]}})
    assert [ev.data for ev in seat_events(evs, 1)] == [{"seen": [{"seat": 3, "card": "werewolf"}]}]


def test_ON_4_1_doppelganger_robber_acts_before_the_robber():
    new, _evs = dop_state("robber", others=("werewolf", "villager"))
    result, evs = night(new, {"1": {"swap_with": 3}, "2": {"swap_with": 1}})
    # dop took the werewolf first; then the robber (seat 2) took it from him
    assert seat_events(evs, 1)[0].data["card"] == "werewolf"
    assert seat_events(evs, 2)[0].data["card"] == "werewolf"
    assert result["cards"] == {"1": "robber", "2": "werewolf", "3": "doppelganger", "4": "villager"}
    assert e.team(e.effective("doppelganger", result)) == "village"  # the copied robber card: village


def test_ON_4_1_doppelganger_troublemaker_and_drunk():
    tm, _evs = dop_state("troublemaker", others=("werewolf", "villager"))
    result, _evs = night(tm, {"1": {"swap": [3, 4]}})
    assert result["cards"]["3"] == "villager" and result["cards"]["4"] == "werewolf"
    dr, _evs = dop_state("drunk", others=("werewolf", "villager"))
    result, _evs = night(dr, {"1": {"take": "center1"}, "2": {"take": "center1"}})
    # the doppelganger-drunk swaps first; the drunk then takes the doppelganger card from the center
    assert result["cards"]["1"] == "seer" and result["cards"]["2"] == "doppelganger"


def test_ON_4_1_doppelganger_insomniac_wakes_after_the_insomniac():
    new, _evs = dop_state("insomniac", others=("robber", "werewolf"))
    _n, evs = night(new, {"3": {"swap_with": 1}})
    insomniac_events = [ev for ev in evs if ev.kind == "onuw.insomniac_saw"]
    assert [ev.to for ev in insomniac_events] == [2, 1]
    assert insomniac_events[1].data == {"card": "robber", "as": "robber"}


def test_ON_4_1_card_robbed_from_the_doppelganger_is_the_copied_role():
    new, _evs = dop_state("werewolf", others=("robber", "villager"))
    result, evs = night(new, {"3": {"swap_with": 1}})
    assert seat_events(evs, 3)[0].data == {"seat": 1, "card": "doppelganger", "as": "werewolf"}
    final = {s: e.effective(c, result) for s, c in result["cards"].items()}
    assert final["3"] == "werewolf" and final["1"] == "robber"


def test_ON_14_doppelganger_step_refuses_others_and_self_copy():
    state = make(["doppelganger", "seer", "werewolf"], ["villager", "robber", "troublemaker"])
    with pytest.raises(e.OnuwError) as err:
        e.validate_copy(state, "2", {"copy": 1}, order_of(state))
    assert err.value.rule == "ON-14"
    with pytest.raises(e.OnuwError, match="not yourself"):
        e.validate_copy(state, "1", {"copy": 1}, order_of(state))
    new, evs = e.resolve_doppelganger(state, {}, order_of(state))
    assert new["copy"] is None and e.team(e.effective("doppelganger", new)) == "village"
    assert "onuw.copied_nothing" in [ev.kind for ev in evs]
    with pytest.raises(e.OnuwError, match="copied nobody"):
        e.validate_night(new, "1", {"look": [2]}, order_of(new))


@pytest.mark.parametrize(("role", "rule"), [("minion", "ON-4.3"), ("mason", "ON-4.4"), ("insomniac", "ON-4.9")])
def test_ON_4_looking_roles_have_nothing_to_choose(role, rule):
    state = make([role, "werewolf", "robber"], ["villager", "seer", "troublemaker"])
    with pytest.raises(e.OnuwError, match="only looks") as err:
        e.validate_night(state, "1", {"look": [2]}, order_of(state))
    assert err.value.rule == rule


# -- ON-6, ON-7, ON-8 the day ------------------------------------------------------------------------------------------

ROLES5 = {"1": "villager", "2": "werewolf", "3": "seer", "4": "hunter", "5": "villager"}


def test_ON_6_vote_for_another_player():
    assert e.validate_vote("1", {"vote": 2}, ORDER) == {"vote": 2}
    with pytest.raises(e.OnuwError, match="not yourself"):
        e.validate_vote("1", {"vote": 1}, ORDER)
    with pytest.raises(e.OnuwError, match="Unknown field"):
        e.validate_vote("1", {"vote": 2, "extra": 1}, ORDER)


def test_ON_7_most_votes_dies():
    assert e.deaths({"1": "2", "2": "1", "3": "2", "4": "2", "5": "1"}, ROLES5) == (["2"], [])


def test_ON_7_tie_kills_all_tied():
    assert e.deaths({"1": "2", "2": "1", "3": "2", "4": "5", "5": "1"}, ROLES5)[0] == ["1", "2"]


def test_ON_7_a_single_vote_each_kills_nobody():
    assert e.deaths({"1": "2", "2": "3", "3": "4", "4": "5", "5": "1"}, ROLES5) == ([], [])
    assert e.deaths({}, ROLES5) == ([], [])


def test_ON_8_hunter_takes_his_target_regardless_of_votes():
    dead, shots = e.deaths({"1": "4", "2": "4", "3": "1", "4": "5", "5": "2"}, ROLES5)
    assert dead == ["4", "5"] and shots == [("4", "5")]


def test_ON_8_hunter_chains():
    roles = {"1": "hunter", "2": "hunter", "3": "werewolf", "4": "villager", "5": "villager"}
    dead, shots = e.deaths({"1": "2", "2": "3", "3": "1", "4": "1", "5": "4"}, roles)
    assert dead == ["1", "2", "3"] and shots == [("1", "2"), ("2", "3")]


# -- ON-9 – ON-12 victory ----------------------------------------------------------------------------------------------


def test_ON_9_village_wins_when_a_werewolf_dies_even_with_villagers():
    teams, seats = e.victory(ROLES5, ["1", "2"])
    assert teams == ["village"] and seats == ["1", "3", "4", "5"]


def test_ON_9_village_wins_when_no_werewolf_and_nobody_dies():
    roles = {"1": "villager", "2": "seer", "3": "robber"}
    assert e.victory(roles, []) == (["village"], ["1", "2", "3"])
    assert e.victory(roles, ["1"]) == ([], [])  # someone died with no werewolf among the players: village loses


def test_ON_10_werewolf_team_wins_if_no_werewolf_dies():
    roles = {**ROLES5, "5": "minion"}
    assert e.victory(roles, ["1"]) == (["werewolf"], ["2", "5"])
    assert e.victory(roles, []) == (["werewolf"], ["2", "5"])


def test_ON_11_tanner_wins_only_if_he_dies_and_blocks_the_werewolves():
    roles = {"1": "tanner", "2": "werewolf", "3": "seer", "4": "villager"}
    assert e.victory(roles, ["1"]) == (["tanner"], ["1"])
    assert e.victory(roles, ["3"]) == (["werewolf"], ["2"])
    # tanner dies with a werewolf: the village wins too
    assert e.victory(roles, ["1", "2"]) == (["village", "tanner"], ["1", "3", "4"])
    # tanner dies with all werewolves in the center: the village loses
    no_wolf = {"1": "tanner", "2": "seer", "3": "villager"}
    assert e.victory(no_wolf, ["1"]) == (["tanner"], ["1"])


def test_ON_12_minion_dies_and_no_werewolf_dies_werewolves_win():
    roles = {"1": "minion", "2": "werewolf", "3": "seer", "4": "villager"}
    assert e.victory(roles, ["1"]) == (["werewolf"], ["1", "2"])


def test_ON_12_minion_without_werewolves_wins_if_someone_else_dies():
    roles = {"1": "minion", "2": "seer", "3": "villager"}
    assert e.victory(roles, ["3"]) == (["werewolf"], ["1"])
    assert e.victory(roles, ["1"]) == ([], [])
    assert e.victory(roles, []) == (["village"], ["2", "3"])


def test_ON_7_to_ON_12_resolve_day_reveals_and_ends():
    state = make(["seer", "werewolf", "robber"], ["villager", "werewolf", "troublemaker"])
    state["stage"] = "day"
    new, evs, teams, winners = e.resolve_day(state, {"1": {"vote": 2}, "2": {"vote": 1}, "3": {"vote": 2}},
                                             order_of(state))
    assert new["dead"] == ["2"] and teams == ["village"] and winners == ["1", "3"]
    kinds = [ev.kind for ev in evs]
    assert kinds == ["onuw.votes", "onuw.died", "onuw.final_cards", "onuw.winners"]
    assert all(ev.to == "public" for ev in evs)
    assert evs[1].data == {"seat": 2, "card": "werewolf", "as": "werewolf", "dealt": "werewolf", "count": 2}


# -- ON-13 night is reproducible ---------------------------------------------------------------------------------------


def test_ON_13_night_resolution_is_reproducible_from_the_seed():
    state = make(["drunk", "werewolf", "robber"], ["villager", "werewolf", "troublemaker"])
    runs = {repr(night(state, {}, seed=11)) for _ in range(3)}
    assert len(runs) == 1


# -- ON-16 -------------------------------------------------------------------------------------------------------------


def test_ON_16_first_to_five_tokens_wins_the_series():
    games = [["a", "b"], ["a"], ["b", "c"], ["a"], ["a", "c"], ["b"], ["b"], ["a"]]
    tokens, champion = e.series_standings(games)
    assert tokens == {"a": 5, "b": 4, "c": 2} and champion == "a"
    assert e.series_standings(games[:4])[1] is None
