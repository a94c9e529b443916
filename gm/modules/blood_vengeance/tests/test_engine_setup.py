"""The pure engine: sides, the role table as data, role counts, presets, the deal and the introduction day (BV-1–BV-4,
BV-13.1). No database."""
from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from gm.core.engine import SeatInfo

from .. import engine
from .engine_kit import TABLE, Game

TEN = ["count", "lamia", "queen", "monk", "hunter", "scout", "werewolf", "vampire", "vampire", "vampire"]


def full_table():
    return engine.normalise_table(TABLE)


def test_BV_1_every_card_belongs_to_one_side():
    table = full_table()
    sides = Counter(r["side"] for r in table.values())
    assert set(table) == set(engine.ROLES)
    assert sides == {"vampires": 14, "hunters": 5, "werewolf": 7}
    assert [s for s in engine.LORDS if table[s]["lord"]] == ["king", "prince", "count"]


def test_BV_1_1_a_card_is_shown_only_by_the_engine_at_death():
    g = Game(TEN)
    assert engine.public_seat_data(g.seat_data[1]) == {}
    assert "cards" not in engine.view(g.state, sees_everything=False)
    g.votes({2: 1, 3: 1, 4: 1})
    assert engine.public_seat_data(g.seat_data[1]) == {"revealed": "count"}


def test_BV_1_2_nobody_knows_more_than_his_card_but_the_hunters():
    g = Game(TEN)
    cards = {e.seat: e.data["card"] for e in g.events("bv.your_card")}
    assert cards == {i + 1: c for i, c in enumerate(TEN)}
    met = {e.seat for e in g.events("bv.hunters_met")}
    assert met == {4, 5, 6}
    seat_lines = Counter(e.seat for e in g.log if e.visibility == "seat")
    assert all(seat_lines[s] == 1 for s in (1, 2, 3, 7, 8, 9, 10))


def test_BV_1_3_type_cards():
    table = full_table()
    assert {table[c]["type"] for c in ("king", "prince", "count", "lamia", "ghoul")} == {"special_vampire"}
    assert table["vampire"]["type"] == "vampire" and table["hunter"]["type"] == "hunter"
    assert {table[c]["type"] for c in ("monk", "leader", "scout", "beauty")} == {"special_hunter"}
    assert table["werewolf"]["type"] == table["kitsune"]["type"] == table["warg_leader"]["type"] == "werewolf"
    assert table["sly_warg"]["type"] == "vampire"


def test_BV_1_4_killing_roles():
    table = full_table()
    assert {c for c, r in table.items() if r["killer"]} == {"king", "nosferatu", "werewolf", "kitsune", "lamia",
                                                            "neophyte", "warg_leader"}


@pytest.mark.parametrize("n", range(6, 21))
def test_BV_2_1_recommended_set_for_each_row(n):
    table = full_table()
    cards = engine.recommended(n)
    (vlo, vhi), lords, _sv, (hlo, hhi), _sh = engine.COUNTS[n]
    s = engine.summary(cards, table)
    assert s["players"] == n and vlo <= s["vampires"] <= vhi and hlo <= s["hunters"] <= hhi
    assert s["lords"] == lords
    # BV-2.8's first-game set has no special vampire: rows that ask for one warn about that and nothing else
    warnings = engine.check_counts(cards, table, options={})
    assert all(w.startswith(("special vampires 0", "special hunters 0")) for w in warnings)
    assert bool(warnings) == (engine.COUNTS[n][2][0] > 0 or engine.COUNTS[n][4][0] > 0)


def test_BV_2_1_the_six_player_row_has_no_lord():
    assert engine.COUNTS[6][1] == 0 and "count" not in engine.recommended(6)


def test_BV_2_2_never_more_than_one_lord():
    with pytest.raises(engine.BvError) as exc:
        engine.check_counts(["king", "count", *["vampire"] * 5, "hunter", "hunter"], full_table(), options={})
    assert exc.value.rule == "BV-2.4"
    with pytest.raises(engine.BvError):
        Game(["king", "prince", "vampire", "vampire", "hunter", "hunter"])


def test_BV_2_3_the_werewolf_replaces_an_ordinary_vampire():
    table = full_table()
    ten = engine.summary(engine.recommended(10, werewolf=True), table)
    assert (ten["vampires"], ten["hunters"], ten["werewolves"]) == (7, 2, 1)
    fifteen = engine.summary(engine.recommended(15, werewolf=True), table)
    assert (fifteen["vampires"], fifteen["hunters"], fifteen["werewolves"]) == (10, 4, 1)
    assert "count" in engine.recommended(15, werewolf=True)


def test_BV_2_4_site_limits_refused_and_departures_warned():
    table = full_table()
    with pytest.raises(engine.BvError):
        engine.check_counts(["vampire"] * 4 + ["hunter"], table, options={})
    with pytest.raises(engine.BvError):
        engine.check_counts(["lamia", "lamia", *["vampire"] * 4, "hunter"], table, options={})
    with pytest.raises(engine.BvError):  # wargs need 20 seats and a werewolf
        engine.check_counts(["warg_leader", *["vampire"] * 6, "hunter", "hunter", "werewolf"], table, options={})
    warnings = engine.check_counts(["vampire"] * 3 + ["hunter"] * 3, table, options={})
    assert any("hunters 3" in w for w in warnings)
    assert engine.check_counts(["vampire"] * 12 + ["hunter"] * 5, table, options={})  # ordinary cards may exceed box


def test_BV_2_5_selection_by_fate_counts_off_each_pile_with_the_seed():
    table = full_table()
    piles = {"lords": 1, "special_vampires": 2, "special_hunters": 1, "werewolves": 1}
    a = engine.build_cards({"selection": "fate", "piles": piles}, 12, table, random.Random(5))
    b = engine.build_cards({"selection": "fate", "piles": piles}, 12, table, random.Random(5))
    assert a == b and len(a) == 12
    s = engine.summary(a, table)
    assert (s["lords"], s["special_vampires"], s["special_hunters"], s["werewolves"]) == (1, 2, 1, 1)
    opts = engine.validate_options({"selection": "fate", "piles": piles}, table=TABLE)
    assert opts["roles_public"] == "counts"
    assert "counts" in engine.roles_in_play(a, table, opts)


def test_BV_2_6_a_secret_lord_is_drawn_unseen_and_shown_as_lord():
    cards = ["count", *["vampire"] * 6, "hunter", "hunter"]
    opts = engine.validate_options({"roles": cards, "secret_lord": True}, table=TABLE)
    drawn = {tuple(sorted(engine.build_cards(opts, 9, full_table(), random.Random(seed)))) for seed in range(20)}
    assert len({next(c for c in d if c in engine.LORDS) for d in drawn}) > 1
    assert "lord" in engine.roles_in_play(cards, full_table(), opts)["roles"]
    assert "count" not in engine.roles_in_play(cards, full_table(), opts)["roles"]


def test_BV_2_7_the_deal_is_seeded_and_the_roles_in_play_public():
    cards = ["king", "lamia", *["vampire"] * 5, "hunter", "hunter"]
    seats = [SeatInfo(i + 1, f"P{i + 1}", i) for i in range(9)]
    opts = engine.validate_options({"roles": cards}, table=TABLE)
    deals = [engine.setup(seats=seats, options=opts, rng=random.Random(seed), table=TABLE).state["cards"]
             for seed in (3, 3, 4)]
    assert deals[0] == deals[1] and sorted(deals[0].values()) == sorted(cards)
    result = engine.setup(seats=seats, options=opts, rng=random.Random(3), table=TABLE)
    public = [e for e in result.events if e.kind == "bv.roles_in_play"]
    assert public[0].visibility == "public" and sorted(public[0].data["roles"]) == sorted(cards)


def test_BV_2_8_first_game_set_count_and_ordinary_cards():
    opts = engine.validate_options({"preset": "first_game"}, table=TABLE)
    cards = engine.build_cards(opts, 12, full_table(), random.Random(1))
    assert set(cards) == {"count", "vampire", "hunter"}
    opts = engine.validate_options({"preset": "first_game", "werewolf": True}, table=TABLE)
    assert "werewolf" in engine.build_cards(opts, 12, full_table(), random.Random(1))


@pytest.mark.parametrize("slug", [p for p in engine.PRESETS if p not in ("first_game",)])
def test_BV_3_1_every_preset_builds_its_set(slug):
    size, spec = engine.PRESETS[slug]
    opts = engine.validate_options({"preset": slug}, table=TABLE)
    cards = engine.build_cards(opts, size, full_table(), random.Random(2))
    assert len(cards) == size == len(spec)
    engine.check_counts(cards, full_table(), options=opts)


def test_BV_3_2_a_or_b_picked_or_drawn_and_extra_seats_filled():
    table = full_table()
    opts = engine.validate_options({"preset": "classic_10", "picks": ["king"]}, table=TABLE)
    assert "king" in engine.build_cards(opts, 10, table, random.Random(1))
    opts = engine.validate_options({"preset": "classic_10"}, table=TABLE)
    drawn = {next(c for c in engine.build_cards(opts, 10, table, random.Random(s)) if c in ("king", "count"))
             for s in range(20)}
    assert drawn == {"king", "count"}
    bigger = engine.summary(engine.build_cards(opts, 13, table, random.Random(1)), table)
    assert bigger["players"] == 13 and bigger["hunters"] == 3  # 13 players: hunters up to the table's 3
    with pytest.raises(engine.BvError):
        engine.build_cards(opts, 9, table, random.Random(1))


def test_BV_3_3_werewolf_invasion_the_werewolves_know_each_other():
    g = Game(["prince", "lamia", "queen", *["vampire"] * 4, "scout", "hunter", "werewolf", "kitsune"],
             werewolf_invasion=True)
    pack = {e.seat: e.data["seats"] for e in g.events("bv.pack_met")}
    assert pack == {10: ["10", "11"], 11: ["10", "11"]}
    assert not Game(["king", *["vampire"] * 6, "hunter", "werewolf", "kitsune"]).events("bv.pack_met")
    assert engine.validate_options({"preset": "werewolf_invasion"}, table=TABLE)["werewolf_invasion"] is True


def test_BV_3_5_the_undercover_hunter_is_not_at_the_meeting():
    g = Game(["king", "queen", *["vampire"] * 5, "scout", "hunter", "hunter"], undercover="scout")
    assert {e.seat for e in g.events("bv.hunters_met")} == {9, 10}
    assert g.groups["faction:hunters"] == [9, 10]
    assert engine.validate_options({"preset": "undercover_hunter"}, table=TABLE)["undercover"] == "scout"


def test_BV_4_1_the_hunters_meet_faces_only():
    g = Game(TEN)
    assert g.groups == {"faction:hunters": [4, 5, 6]}
    line = g.events("bv.hunters_met", seat=5)[0]
    assert line.data["seats"] == ["4", "5", "6"] and "cards" not in line.data


def test_BV_4_2_introduction_in_tomorrows_call_order():
    cards = ["ghoul", "count", "neophyte", "queen", "monk", "lamia", "beauty", "undine", "hunter", "vampire"]
    g = Game(cards)
    intro = g.events("bv.introduction")[0]
    assert intro.visibility == "master"
    order = [cards[int(s) - 1] for s in intro.data["seats"]]
    assert order == ["monk", "lamia", "undine", "queen", "neophyte", "count", "ghoul", "beauty"]


def test_BV_4_3_a_secret_lord_knows_his_card():
    cards = ["count", *["vampire"] * 6, "hunter", "hunter"]
    seats = [SeatInfo(i + 1, f"P{i + 1}", i) for i in range(9)]
    opts = engine.validate_options({"roles": cards, "secret_lord": True}, table=TABLE)
    result = engine.setup(seats=seats, options=opts, rng=random.Random(9), table=TABLE)
    lord = next(s for s, c in result.state["cards"].items() if c in engine.LORDS)
    line = next(e for e in result.events if e.kind == "bv.your_card" and e.seat == int(lord))
    assert line.data["card"] == result.state["cards"][lord]


def test_BV_4_4_the_game_opens_with_night_1():
    g = Game(TEN)
    assert (g.kind, g.number) == ("night", 1)
    assert g.events("bv.night_opened")[0].data["night"] == 1


def test_BV_13_1_the_role_table_is_data_a_master_changes_per_game():
    cards = ["count", "lamia", *["vampire"] * 4, "hunter", "hunter"]
    g = Game(cards, base=TABLE, **{"table": {"count": {"effect": "vampire_check"}}})
    assert g.state["table"]["count"]["effect"] == "vampire_check"
    g.votes({})
    g.light({1: {"role": "count", "target": 7}, 2: {"role": "lamia", "mode": "invite", "target": 3}})
    assert g.last_events("bv.learned_vampire", seat=1)[0].data["answer"] == "no"
    with pytest.raises(engine.BvError) as exc:
        engine.validate_options({"table": {"count": {"targets": 9, "side": "hunters", "colour": 1}}}, table=TABLE)
    fields = {f for f, _m, _p in exc.value.errors}
    assert fields == {"table.count.targets", "table.count.side", "table.count.colour"}


def test_BV_13_1_the_table_is_snapshotted_at_the_start():
    table = copy.deepcopy(TABLE)
    g = Game(["count", *["vampire"] * 5, "hunter", "hunter"], base=table)
    table["count"]["effect"] = "none"
    g.votes({})
    g.light({1: {"role": "count", "target": 7}})
    assert g.last_events("bv.learned_type", seat=1)[0].data["type"] == "hunter"


def test_BV_13_1_an_incomplete_table_is_refused():
    broken = {k: v for k, v in TABLE.items() if k != "ghoul"}
    with pytest.raises(engine.BvError) as exc:
        engine.normalise_table(broken)
    assert exc.value.rule == "BV-13.1"
