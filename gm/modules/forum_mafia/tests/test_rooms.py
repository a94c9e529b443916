"""Chat rooms (FM-9.3, FM-8 manager/conspirator/avenger) through the pure engine: proposals are part of the day's
orders, rooms open at the end of the day for their members and close after the next night."""
from __future__ import annotations

from gm.modules.forum_mafia.engine import rooms

from .fm_table import STATE, S, refused, run, table

D1, N2, D2 = ("day", 1, 2), ("night", 2, 3), ("day", 2, 4)


def room(*members, conspiracy=False) -> dict:
    return {"rooms": [{"members": list(members), "conspiracy": conspiracy}]}


def six(*publics):
    names = "ABCDEF"
    return table(*[S(n, "sheriff", hand="tail tail tail", public=publics[i] if i < len(publics) else None)
                   for i, n in enumerate(names)])


def test_FM_9_3_three_who_all_agree_get_a_room_for_the_day_and_the_next_night():
    seats = six()
    r = run(STATE(), seats, {"A": room(1, 2, 3), "B": room(1, 2, 3), "C": room(1, 2, 3), "D": room(4, 5, 6),
                             "E": room(4, 5, 6)}, phase=D1)  # F never agreed: no second room
    assert r.res.groups == {"room:1-1": [1, 2, 3]}
    assert r.fm["rooms"] == {"room:1-1": {"members": [1, 2, 3], "until": 3}}
    assert [e.data["players"] for e in r.find("fm.room_created", visibility="seat")] == [["A", "B", "C"]] * 3
    assert rooms.room_open(r.state, "room:1-1", 3) and not rooms.room_open(r.state, "room:1-1", 4)


def test_FM_9_3_one_room_per_character_a_day_and_rooms_only_by_day_of_three():
    seats = six()
    r = run(STATE(), seats, {"A": {"rooms": [{"members": [1, 2, 3]}, {"members": [1, 4, 5]}]}, "B": room(1, 2, 3),
                             "C": room(1, 2, 3), "D": room(1, 4, 5), "E": room(1, 4, 5)}, phase=D1)
    assert list(r.res.groups.values()) == [[1, 2, 3]]  # A is already placed: the second set is skipped [house]
    assert refused(STATE(), seats, "A", room(1, 2, 3), phase=N2)[0][0] == "FM-9.3"
    assert refused(STATE(), seats, "A", room(1, 2), phase=D1)[0][0] == "FM-9.3"
    assert refused(STATE(), seats, "A", room(2, 3, 4), phase=D1)[0][0] == "FM-9.3"  # not among the members


def test_FM_8_manager_rooms_of_two_or_four_conspirator_once_any_size_for_the_whole_game():
    seats = six("manager", None, None, "conspirator")
    r = run(STATE(), seats, {"A": room(1, 2), "B": room(1, 2), "D": room(4, 5, 6, 3, conspiracy=True)}, phase=D1)
    assert r.res.groups == {"room:1-1": [3, 4, 5, 6], "room:1-2": [1, 2]}
    assert r.fm["rooms"]["room:1-1"]["until"] is None
    assert refused(r.state, r.seats, "D", room(4, 5, conspiracy=True), phase=D2)[0][0] == "FM-8"  # once
    assert refused(STATE(), seats, "B", room(2, 3, conspiracy=True), phase=D1)[0][0] == "FM-8"  # not his


def test_FM_8_a_dead_avenger_can_be_in_a_room():
    seats = table(S("A", hand="tail tail"), S("B", hand="tail tail"), S("V", hand="", public="avenger", alive=False),
                  S("D", hand="tail tail"))
    r = run(STATE(), seats, {"A": room(1, 2, 3), "B": room(1, 2, 3)}, phase=D1)
    assert r.res.groups == {"room:1-1": [1, 2, 3]}  # he gives no orders: the living members' agreement is enough
    r = run(STATE(), seats, {"A": room(1, 2, 3)}, phase=D1)
    assert r.res.groups == {}  # B did not agree
    assert rooms.can_be_member(seats[2]) and not rooms.can_be_member(table(S("X", alive=False))[0])


def run_room_tests() -> None:
    """Run every test once (the rendering check of test_resolution counts their events)."""
    for name, fn in sorted(globals().items()):
        if name.startswith("test_FM_") and callable(fn):
            fn()
