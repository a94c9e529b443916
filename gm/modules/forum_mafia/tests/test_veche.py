"""The Veche, forum Mafia's day vote (FM-7), through the pure engine: votes are part of the day's orders."""
from __future__ import annotations

import pytest

from gm.modules.forum_mafia.engine import veche

from .fm_table import STATE, S, refused, run, table

D1, D2, N2 = ("day", 1, 2), ("day", 2, 4), ("night", 2, 3)


def vote(target, punishment="execution", **kw) -> dict:
    """An order holding only a vote: ``target`` is a seat id or ``"peace"``."""
    v = {"for": target, **kw}
    if target != "peace" and punishment:
        v["punishment"] = punishment
    return {"vote": v}


def five(*publics, hands=None):
    """Five characters A–E (ids 1–5), two cards each; public roles as given (custom by default)."""
    names = "ABCDE"
    secrets = ["sheriff", "mafia_boss", "doctor", "mafia_killer", "judge"]
    return table(*[S(n, secrets[i], hand=(hands or {}).get(n, "tail tail tail tail tail tail tail"),
                     public=publics[i] if i < len(publics) else None) for i, n in enumerate(names)])


def test_FM_7_1_votes_by_day_for_a_living_character_or_peace_and_the_tally_is_public():
    seats = five()
    assert refused(STATE(), seats, "A", vote(2), phase=("night", 1, 1))[0][0] == "FM-7.1"
    dead = table(S("A", hand="tail"), S("B", "mafia_boss", hand="tail", alive=False), S("C", hand="tail"))
    assert refused(STATE(), dead, "A", vote(2), phase=D1)[0][0] == "FM-7.1"
    r = run(STATE(), seats, {"A": vote(2), "C": vote(2), "B": vote("peace"), "D": vote(1)}, phase=D1)
    [public] = r.public("fm.veche")
    assert public["candidates"][0] == {"player": "B", "strength": 2.0, "voters": ["A", "C"]}
    assert public["peace"] == 1.0 and public["cast"] == 4.0 and public["leader"] == "B"


def test_FM_7_2_punishment_by_strength_tie_goes_to_jail_and_it_is_required():
    seats = five()
    assert refused(STATE(), seats, "A", vote(2, punishment=None), phase=D1)[0][0] == "FM-7.2"
    r = run(STATE(), seats, {"A": vote(2, "execution"), "C": vote(2, "jail")}, phase=D1)
    assert r.public("fm.veche")[0]["punishment"] == "jail"  # 1 : 1 → jail
    r = run(STATE(), seats, {"A": vote(2, "execution"), "C": vote(2, "execution"), "D": vote(2, "jail")}, phase=D1)
    assert r.public("fm.veche")[0]["punishment"] == "execution"


def test_FM_7_3_strengths_authority_politician_prosecutor_once_negotiation():
    seats = five("authority", "politician", "prosecutor")
    r = run(STATE(), seats, {"A": vote(4), "B": vote(5), "C": vote(5, prosecutor_bonus=True)}, phase=D1)
    [public] = r.public("fm.veche")
    assert [(c["player"], c["strength"]) for c in public["candidates"]] == [("E", 4.5), ("D", 2.0)]  # 1.5 + 1 + 2
    assert public["leader"] == "E"
    assert refused(r.state, r.seats, "C", vote(5, prosecutor_bonus=True), phase=D2)[0][0] == "FM-7.3"  # once
    assert refused(STATE(), seats, "A", vote(5, prosecutor_bonus=True), phase=D1)[0][0] == "FM-7.3"  # not his
    # negotiation (§11): +1 today, counted in the result though the live count can't show a secret card
    neg = five(hands={"A": "negotiation tail tail"})
    r = run(STATE(), neg, {"A": {"vote": {"for": 4, "punishment": "execution"},
                                 "plays": [{"card": "negotiation"}]}, "B": vote(5), "C": vote(5, "jail")}, phase=D1)
    # D: 1 + 1 (negotiation) = 2, E: 1 + 1 = 2 → a tie, broken by hanging priority (custom "D" before "E")
    assert r.public("fm.veche")[0]["leader"] == "D"
    plain = run(STATE(), neg, {"A": vote(4), "B": vote(5), "C": vote(5, "jail")}, phase=D1)
    assert plain.public("fm.veche")[0]["leader"] == "E"  # without the card: E 2 against D 1


def test_FM_7_4_peace_needs_a_strict_majority_and_two_alive_means_nothing():
    seats = five()
    r = run(STATE(), seats, {"A": vote("peace"), "B": vote("peace"), "C": vote("peace"), "D": vote(1)}, phase=D1)
    assert r.public("fm.veche")[0]["outcome"] == "peace" and r.hand("A") == ["tail"] * 7
    r = run(STATE(), seats, {"A": vote("peace"), "B": vote("peace"), "C": vote(1), "D": vote(1)}, phase=D1)
    assert r.public("fm.veche")[0]["outcome"] == "leader"  # 2 of 4 is no strict majority
    two = table(S("A", hand="tail " * 7), S("B", "mafia_boss", hand="tail " * 7), S("C", hand="tail", alive=False))
    r = run(STATE(), two, {"A": vote(2), "B": vote(1)}, phase=D1)
    assert r.public("fm.veche")[0]["outcome"] == "two_alive" and r.alive("A") and r.alive("B")


def test_FM_7_4_ties_by_hanging_priority_fm8_order_then_custom_alphabetically():
    seats = five("prosecutor", "strongman", {"custom": "Лесник"}, {"custom": "Бондарь"}, "avenger")
    r = run(STATE(), seats, {"A": vote(3), "C": vote(2)}, phase=D1)  # B strongman (1st in FM-8) vs C custom
    assert r.public("fm.veche")[0]["leader"] == "B"
    r = run(STATE(), seats, {"A": vote(3), "B": vote(4)}, phase=D1)  # two custom roles: Бондарь before Лесник
    assert r.public("fm.veche")[0]["leader"] == "D"
    r = run(STATE(), seats, {"A": vote(5), "B": vote(3)}, phase=D1)  # avenger (FM-8) before any custom role
    assert r.public("fm.veche")[0]["leader"] == "E"
    assert veche.hanging_priority(seats[1]) < veche.hanging_priority(seats[4]) < veche.hanging_priority(seats[3])


def test_FM_7_5_execution_is_6_damage_at_L5_combined_with_armour_and_other_damage():
    seats = table(S("A", hand="tail " * 3), S("B", "mafia_boss", hand="tail " * 9, sleeve="ace"),
                  S("C", hand="tail " * 3), S("D", hand="tail " * 3))
    r = run(STATE(), seats, {"A": vote(2), "C": vote(2), "B": {"plays": [{"card": "ace", "from": "sleeve"}]}},
            phase=D1)
    assert len(r.hand("B")) == 9 - (6 - 2)  # ace +2 armour: 4 losses
    [damage] = [dict(e.data) for e in r.events if e.kind == "fm.t_damage" and e.data["player"] == "B"]
    assert damage["damage"] == 6 and damage["armour"] == 2
    dies = table(S("A", hand="tail " * 3), S("B", "mafia_boss", hand="tail " * 6), S("C", hand="tail"),
                 S("D", hand="tail"))
    r = run(STATE(), dies, {"A": vote(2), "C": vote(2)}, phase=D1)
    assert not r.alive("B") and r.public("fm.death") == [{"player": "B"}]


def test_FM_7_5_jail_empties_the_sleeve_but_aces_and_role_cards_and_forbids_targeted_cards_for_4_phases():
    seats = table(S("A", hand="tail " * 3), S("B", "mafia_boss", hand="pistol tail tail tail tail",
                                             sleeve="bunker ace role:witness coffee"),
                  S("C", hand="tail " * 3), S("D", hand="tail " * 3))
    r = run(STATE(), seats, {"A": vote(2, "jail"), "C": vote(2, "jail")}, phase=D1)
    assert r.sleeve("B") == ["ace", "witness"] and r.public("fm.jailed") == [{"player": "B", "phases": 4}]
    state, after = r.state, r.seats
    for number, phase in enumerate([("night", 2, 3), ("day", 2, 4), ("night", 3, 5), ("day", 3, 6)]):
        if phase[0] == "night":
            assert refused(state, after, "B", {"plays": [{"card": "pistol", "target": 1}]}, phase=phase)[0][0] \
                == "FM-7.5", number
        nxt = run(state, after, {}, phase=phase)
        state, after = nxt.state, nxt.seats
    assert run(state, after, {"B": {"plays": [{"card": "pistol", "target": 1}]}}, phase=("night", 4, 7)).hand("A") \
        == ["tail"]  # the fifth phase: free again


def test_FM_7_5_a_jailed_maniac_keeps_one_more_sleeve_card_of_his_choice():
    seats = table(S("A", hand="tail " * 3), S("M", "maniac", hand="tail " * 5, sleeve="bunker coffee ace"),
                  S("C", hand="tail " * 3), S("D", hand="tail " * 3))
    r = run(STATE(), seats, {"A": vote(2, "jail"), "C": vote(2, "jail"), "M": {"vote": {"for": 1, "punishment":
                                                                                         "jail", "keep": "coffee"}}},
            phase=D1)
    assert r.sleeve("M") == ["coffee", "ace"]


def test_FM_7_6_politicians_first_lead_is_jail_and_the_sociopath_is_unvotable_on_day_1():
    seats = five(None, "politician", None, "sociopath")
    r = run(STATE(), seats, {"A": vote(2), "C": vote(2)}, phase=D1)
    assert r.public("fm.veche")[0]["punishment"] == "jail" and r.alive("B")
    again = run(r.state, r.seats, {"A": vote(2), "C": vote(2)}, phase=D2)
    assert again.public("fm.veche")[0]["punishment"] == "execution"
    assert refused(STATE(), seats, "A", vote(4), phase=D1)[0][0] == "FM-7.6"
    assert run(STATE(), seats, {"A": vote(4)}, phase=D2).public("fm.veche")[0]["leader"] == "D"


@pytest.mark.parametrize("votes, leader", [({"A": 2, "B": 3, "C": 2}, 2), ({"A": "peace", "B": "peace"}, None)])
def test_tally_is_what_the_vote_panel_shows(votes, leader):
    seats = five()
    result = veche.tally(seats=seats, votes={seats["ABCDE".index(k)].id: ({"for": v, "punishment": "jail"}
                                                                          if v != "peace" else {"for": v})
                                             for k, v in votes.items()})
    assert result["leader"] == leader


def run_veche_tests() -> None:
    """Run every FM-7 test once (the rendering check of test_resolution counts their events)."""
    for name, fn in sorted(globals().items()):
        if name.startswith("test_FM_") and callable(fn):
            fn()


def test_FM_10_4_avenger_team_wins_when_the_whole_town_dies():
    """FM-8: every non-avenger dead → the avenger's team (his secret role's) wins; the avenger who died last."""
    from .fm_table import play as card

    seats = table(S("V", "sheriff", hand="", public="avenger", alive=False), S("A", "doctor", hand="breach"),
                  S("B", "mafia_boss", hand="breach"))
    r = run(STATE(), seats, {"A": card("breach", target="B"), "B": card("breach", target="A")})
    assert r.died == ["A", "B"] and r.winners == ["avenger", "law"] and set(r.winning) == {"V", "A"}
    two = table(S("V", "mafia_killer", hand="", public="avenger", alive=False),
                S("W", "sheriff", hand="", public={"custom": "x"}, alive=False), S("A", "doctor", hand="breach"),
                S("B", "judge", hand="breach"))
    r = run(STATE(), two, {"A": card("breach", target="B"), "B": card("breach", target="A")})
    assert r.winners == ["avenger", "mafia"] and r.winning == ["V"]  # his secret role's team: the Mafia
    alive_town = table(S("V", "sheriff", hand="", public="avenger", alive=False), S("A", "doctor", hand="tail " * 4),
                       S("B", "mafia_boss", hand="breach"))
    assert run(STATE(), alive_town, {"B": card("breach", target="A")}).winners is None  # A lives: the game goes on
