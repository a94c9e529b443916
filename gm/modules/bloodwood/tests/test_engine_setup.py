"""Set-up, teams, options and the deal (BW-1, BW-1c, BW-1d, BW-2, BW-3, BW-3a–c, BW-4, BW-5, BW-5a, BW-22g,
BW-23c, BW-24a, BW-24d, BW-27). Pure engine, no database."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from gm.core.engine import RuleViolation
from gm.modules.bloodwood import engine as E

from .table import DATA, seats


def new_game(n: int, seed: int = 1, **options):
    opts = E.validate_options(options, players=n)
    return E.setup(seats=seats(n), options=opts, data=DATA, rng=random.Random(seed))


def test_BW_1_two_decks_of_68_each_shuffled_on_its_own_and_only_their_own_kind():
    counts = Counter()
    for spec in DATA["cards"].values():
        counts[spec["deck"]] += spec["copies"]
    assert counts == {"night": 64, "day": 64, "special": 8}  # 64 + 2×2 special = 68 per deck
    res = new_game(6)
    state = res.state
    in_play = Counter(c for h in state["hands"].values() for c in h)
    for deck in ("night", "day"):
        for card in state["decks"][deck]:
            assert DATA["cards"][card]["deck"] in (deck, "special")
    total = sum(len(d) for d in state["decks"].values()) + sum(in_play.values())
    assert total == 136


def test_BW_1c_161_components_and_entities_from_an_unlimited_supply():
    # 136 cards + 12 DNA + 12 entities + 1 phase card; an 11-player game needs 6 ordinary entities of one team
    assert 136 + 12 + 12 + 1 == 161
    sizes = E.team_sizes(11, larger="werewolves")
    assert sizes["werewolves"] == ["werewolf"] * 6


def test_BW_1d_special_cards_dealt_two_into_each_deck():
    res = new_game(5, seed=3)
    state = res.state
    everywhere = state["decks"]["night"] + state["decks"]["day"] + [c for h in state["hands"].values() for c in h]
    assert Counter(everywhere)["eclipse"] == 4 and Counter(everywhere)["time_loop"] == 4


def test_BW_2_every_dna_starts_on_purity_and_is_public():
    res = new_game(7)
    assert set(res.state["dna"].values()) == {"purity"}
    public = E.view(res.state, sees_everything=False, seat=None)
    assert public["dna"] == res.state["dna"]
    assert "entities" not in public and "hands" not in public


@pytest.mark.parametrize("n,larger,smaller", [
    (5, ["vampire"] * 3, ["the_alpha", "werewolf"]),
    (6, ["dracula", "vampire", "vampire"], ["the_alpha", "werewolf", "werewolf"]),
    (7, ["vampire"] * 4, ["the_alpha", "werewolf", "werewolf"]),
    (8, ["dracula"] + ["vampire"] * 3, ["the_alpha"] + ["werewolf"] * 3),
    (9, ["vampire"] * 5, ["the_alpha"] + ["werewolf"] * 3),
    (10, ["dracula"] + ["vampire"] * 4, ["the_alpha"] + ["werewolf"] * 4),
    (11, ["vampire"] * 6, ["the_alpha"] + ["werewolf"] * 4),
    (12, ["dracula"] + ["vampire"] * 5, ["the_alpha"] + ["werewolf"] * 5),
])
def test_BW_3a_team_sizes_for_5_to_12(n, larger, smaller):
    sizes = E.team_sizes(n, larger="vampires")
    assert sizes["vampires"] == larger and sizes["werewolves"] == smaller


def test_BW_3_two_teams_dealt_secretly_one_entity_each():
    res = new_game(9, seed=5)
    ents = res.state["entities"]
    assert len(ents) == 9
    teams = Counter(E.TEAM_OF[e] for e in ents.values())
    assert sorted(teams.values()) == [4, 5]
    # each seat's entity lives in its own (secret) seat data
    assert {str(k): v["entity"] for k, v in res.seat_data.items()} == ents


def test_BW_3a_larger_team_option_and_drawn_otherwise():
    res = new_game(7, larger_team="werewolves")
    teams = Counter(E.TEAM_OF[e] for e in res.state["entities"].values())
    assert teams == {"werewolves": 4, "vampires": 3}
    assert "the_alpha" not in res.state["entities"].values()
    drawn = {max(Counter(E.TEAM_OF[e] for e in new_game(5, seed=s).state["entities"].values()).items(),
                 key=lambda kv: kv[1])[0] for s in range(30)}
    assert drawn == {"vampires", "werewolves"}
    with pytest.raises(RuleViolation):
        E.validate_options({"larger_team": "vampires"}, players=6)


def test_BW_3b_no_leader_variant_only_with_an_even_number():
    res = new_game(8, leaders=False)
    assert not set(res.state["entities"].values()) & {"dracula", "the_alpha"}
    assert not [e for e in res.events if e.kind == "bw.leader"]
    with pytest.raises(RuleViolation) as exc:
        E.validate_options({"leaders": False}, players=7)
    assert exc.value.errors[0].rule == "BW-3b"


def test_BW_3c_entity_only_in_private_lines_at_setup():
    res = new_game(6, seed=2)
    for ev in res.events:
        if ev.visibility == "public":
            for entity in E.ENTITIES:
                assert f'"{entity}"' not in repr(dict(ev.data)).replace("'", '"')
    own = [e for e in res.events if e.kind == "bw.entity"]
    assert len(own) == 6 and all(e.visibility == "seat" for e in own)
    assert all(e.data["entity"] == res.state["entities"][str(e.seat)] for e in own)


def test_BW_4_each_leader_learns_every_other_entity_privately():
    res = new_game(6, seed=4)
    ents = res.state["entities"]
    leaders = [e for e in res.events if e.kind == "bw.leader"]
    assert sorted(ents[str(e.seat)] for e in leaders) == ["dracula", "the_alpha"]
    for ev in leaders:
        seen = {x["player"]: x["entity"] for x in ev.data["entities"]}
        assert len(seen) == 5
        assert ev.visibility == "seat"
        assert res.seat_data[ev.seat]["learned"][0]["kind"] == "bw.leader"  # kept on his panel


def test_BW_5_two_night_and_two_day_cards_each_and_the_game_starts_by_day():
    res = new_game(12, seed=8)
    st = res.state
    for hand in st["hands"].values():
        assert len(hand) == 4
        assert all(DATA["cards"][c]["deck"] in ("night", "special") for c in hand[:2])
        assert all(DATA["cards"][c]["deck"] in ("day", "special") for c in hand[2:])
    assert st["phase"] == "day"
    assert st["starter"] == st["to_move"] and st["turns_done"] == 0
    assert res.first_phase.kind == "turn" and list(res.first_phase.actors) == [int(st["to_move"])]


def test_BW_5a_first_player_option_else_drawn_and_announced():
    res = new_game(6, first_player=4)
    assert res.state["to_move"] == "4"
    assert [e.data["player"] for e in res.events if e.kind == "bw.setup"] == ["D"]
    firsts = {new_game(6, seed=s).state["to_move"] for s in range(40)}
    assert len(firsts) > 3


def test_BW_24d_same_seed_same_game_different_seed_differs():
    a, b, c = new_game(8, seed=11), new_game(8, seed=11), new_game(8, seed=12)
    assert a.state == b.state
    assert a.state != c.state


def test_BW_24a_deadlines_are_data_snapshotted_and_bounded():
    res = new_game(5)
    assert res.state["data"]["deadlines"] == {"turn": 720, "step": 240}
    assert res.first_phase.duration is None  # the game's duration, whose default is the data's (module.py)
    with pytest.raises(RuleViolation) as exc:
        E.validate_options({"turn_minutes": 5}, players=5)
    assert exc.value.errors[0].rule == "BW-24a"
    with pytest.raises(RuleViolation):
        E.validate_options({"step_minutes": 24 * 60 + 1}, players=5)
    ok = E.validate_options({"turn_minutes": 10, "step_minutes": 5}, players=5)
    res = E.setup(seats=seats(5), options=ok, data=DATA, rng=random.Random(1))
    assert res.first_phase.duration == 600


def test_BW_27_options_and_defaults():
    opts = E.validate_options({}, players=6)
    assert opts == {"leaders": True, "inattention": False, "winner_deals": False}
    with pytest.raises(RuleViolation) as exc:
        E.validate_options({"colour": 1, "inattention": "yes"}, players=6)
    assert {e.field for e in exc.value.errors} == {"colour", "inattention"}
    with pytest.raises(RuleViolation):
        E.validate_options({"first_player": 9}, players=6)


def test_BW_23c_winner_deals_a_fixed_deal_checked_against_BW_3a():
    deal = ["the_alpha", "vampire", "werewolf", "dracula", "vampire", "werewolf"]
    res = new_game(6, winner_deals=True, deal=deal, first_player=2)
    assert [res.state["entities"][str(i)] for i in range(1, 7)] == deal
    assert res.state["to_move"] == "2"
    with pytest.raises(RuleViolation):
        E.validate_options({"deal": ["vampire"] * 6}, players=6)


def test_BW_22g_a_position_put_on_the_table_is_not_checked_for_an_end():
    from .table import Table

    t = Table([{"dna": "permanent", "hand": ["bite"]}] * 5)
    assert not t.state["over"]
    assert t.awaiting == ("turn", ["A"])


def test_BW_23c_the_winners_deal_and_first_player_and_the_dealer_knows_every_entity():
    """BW-23c: with ``winner_deals`` the ``deal`` (one entity per seat, BW-3a enforced) and ``first_player`` set the
    game; the ``dealer`` (a seat number) is told every other entity privately, like a leader, and keeps it."""
    deal = ["werewolf", "dracula", "vampire", "the_alpha", "vampire", "werewolf"]
    res = new_game(6, winner_deals=True, dealer=2, deal=deal, first_player=3)
    assert [res.state["entities"][str(i)] for i in range(1, 7)] == deal and res.state["to_move"] == "3"
    told = [e for e in res.events if e.kind == "bw.dealer"]
    assert len(told) == 1 and told[0].seat == 2 and told[0].visibility == "seat"
    assert len(told[0].data["entities"]) == 5
    assert any(x["kind"] == "bw.dealer" for x in res.seat_data[2]["learned"])
    with pytest.raises(RuleViolation) as exc:
        E.validate_options({"dealer": 2}, players=6)  # a dealer without the option
    assert exc.value.errors[0].rule == "BW-23c"
    with pytest.raises(RuleViolation):
        E.validate_options({"winner_deals": True, "dealer": 7}, players=6)
    with pytest.raises(RuleViolation) as exc:
        E.validate_options({"winner_deals": True, "dealer": 2}, players=6)  # the start waits for the deal
    assert exc.value.errors[0].field == "deal"
    assert E.validate_options({"winner_deals": True, "dealer": 2}) == {
        "leaders": True, "inattention": False, "winner_deals": True, "dealer": 2}  # at creation: no count yet
    with pytest.raises(RuleViolation):
        E.validate_options({"winner_deals": True, "deal": ["vampire"] * 6}, players=6)
