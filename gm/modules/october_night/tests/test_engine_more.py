"""October Night engine: the rules not shown elsewhere — the set-up line (OC-1.2), caps (OC-2.2, OC-2.4), no
exchange during a fight (OC-5.5), refilled decks (OC-6.3), nothing else ends the game early (OC-10.6), no end
check on a set-up position (OC-10.8), the bag (OC-16.2, OC-16.4) and the default data set's shape (OC-17.2–OC-17.8).
Pure."""
from __future__ import annotations

import random

from gm.modules.october_night import engine

from .engine_helpers import default_data, events, game, play, seats


def test_OC_1_2_setup_line_publishes_the_cards_in_play_not_who_holds_them():
    res = engine.setup(seats=seats(5), options={}, rng=random.Random(8), base=default_data())
    line = next(e for e in res.events if e.kind == "oc.setup")
    assert line.visibility == "public" and line.data["deck"] == {"summoners": 2, "keepers": 2, "chosen": 1}
    assert "side" not in str(line.data["players"])


def test_OC_2_2_health_cap_and_OC_2_4_skill_max():
    st = game([{"side": "keepers", "character": "vicar", "location": "old_oak", "health": 10,
                "skills": {"magic": 5}, "contact": {"card": "family_heirloom"}},
               {"side": "summoners", "character": "count", "location": "mill"},
               {"side": "keepers", "character": "witch", "location": "mill"}],
              start={"week": 2, "day": 3, "phase": "contact"}, decks={"search": [], "combat": [], "personal": []})
    res = play(st, {1: {"contact": {"kind": "section", "section": 2}, "use": ["holy_water"]}}, dice=[6, 6])
    p = res.state["players"]["1"]
    assert p["skills"]["magic"] == 5 and p["health"] == 10 and p["contact"]["done"] == [2]


def test_OC_5_5_trades_come_after_fights():
    st = game([{"side": "summoners", "character": "count", "location": "manor"},
               {"side": "keepers", "character": "witch", "location": "manor"},
               {"side": "keepers", "character": "vicar", "location": "manor"}], start={"week": 2, "day": 1})
    res = play(st, {1: {"action": {"kind": "fight", "target": 2, "take": ["bat_wing"]}},
                    2: {"accept_trades": [{"from": 3, "give": ["bat_wing"], "get": ["holy_water"]}]},
                    3: {"action": {"kind": "trade", "with": 2, "give": ["holy_water"], "get": ["bat_wing"]}}},
               dice=[6, 6, 1, 1])
    assert events(res, "void")[0]["code"] == "card_gone"
    assert "bat_wing" in res.state["players"]["1"]["ingredients"]


def test_OC_6_3_an_empty_deck_is_refilled_from_its_discard_pile():
    st = game([{"side": "summoners", "character": "count", "location": "mill"},
               {"side": "keepers", "character": "witch", "location": "mill"},
               {"side": "keepers", "character": "vicar", "location": "mill"}],
              start={"week": 2, "day": 1, "phase": "contact"}, decks={"search": [], "combat": [], "personal": []})
    st["discards"]["search"] = ["oak_and_ash"]
    res = play(st)
    assert res.state["players"]["2"]["contact"]["card"] == "oak_and_ash" and res.state["discards"]["search"] == []


def test_OC_10_6_one_side_gone_does_not_end_the_game():
    st = game([{"side": "summoners", "character": "count", "out": True},
               {"side": "keepers", "character": "witch"}, {"side": "keepers", "character": "vicar"}])
    res = play(st)
    assert res.outcome is None and res.next_phase.kind == "contact"


def test_OC_10_8_no_end_check_on_a_set_up_position():
    st = game([{"side": "summoners", "character": "count", "out": True},
               {"side": "keepers", "character": "witch", "out": True},
               {"side": "keepers", "character": "vicar", "out": True}])
    assert st["stage"] == "action" and st["winner"] is None
    res = play(st)
    assert res.outcome is not None and events(res, "end")[0]["why"] == "everyone_out"


def test_OC_16_2_bag_shuffled_at_setup_and_OC_16_4_owner_out_returns_tokens():
    a = engine.setup(seats=seats(3), options={}, rng=random.Random(1), base=default_data()).state["bag"]
    b = engine.setup(seats=seats(3), options={}, rng=random.Random(2), base=default_data()).state["bag"]
    assert sorted(a) == sorted(b) and a != b and len(a) == 18
    st = game([{"side": "summoners", "character": "count", "location": "cemetery", "health": 1,
                "contact": {"card": "siege"}},
               {"side": "keepers", "character": "witch", "location": "mill", "contact": {"card": "sunken_bell"}},
               {"side": "keepers", "character": "vicar", "location": "mill", "contact": {"card": "oak_and_ash"}}],
              start={"week": 2, "day": 3, "phase": "contact"}, decks={"search": [], "combat": [], "personal": []},
              enemies=[{"token": "ghoul", "owner": "Аня"}, {"token": "ghost", "owner": "Аня"}], enemy_pool=[])
    res = play(st, dice=[1, 1])
    assert res.state["players"]["1"]["out"] and res.state["enemies"] == []
    assert res.state["bag"] == ["ghoul", "ghost"] and res.state["discards"]["combat"] == ["siege"]


def test_OC_17_2_to_17_8_the_default_data_set():
    data = default_data()
    locs = data["locations"]
    roads = {tuple(sorted((loc["slug"], o))) for loc in locs for o in loc["adjacent"]}
    assert len(locs) == 14 and len(roads) == 21
    assert max(max(engine.distances(data, loc["slug"]).values()) for loc in locs) == 4
    assert {loc["slug"] for loc in locs if loc["kind"] == "town"} == {"town_square", "harbour", "station", "village"}
    assert [c["slug"] for c in data["characters"]] == ["vicar", "detective", "witch", "doctor", "count", "wolfman"]
    assert len(data["abilities"]) == 12 and all(len(c["abilities"]) == 2 for c in data["characters"])
    enemies = data["enemies"]
    assert len(enemies) == 18 and len({e["location"] for e in enemies}) == 12
    assert not {e["location"] for e in enemies} & {"town_square", "station"}
    assert (len(data["search_contacts"]), len(data["combat_contacts"]), len(data["personal_contacts"])) == (8, 8, 6)
    assert len(data["assets"]) == 8 and sum(data["asset_deck"].values()) == 22 and len(data["ingredients"]) == 10
    assert len(data["mysteries"]) == 6
    assert data["settings"]["health_start"] == 6 and data["settings"]["experience_start"] == 1


def test_OC_11_6_master_seat_edit_checks_slugs_and_ranges():
    import pytest

    from gm.core.engine import RuleViolation

    st = game([{"side": "summoners", "character": "count"}, {"side": "keepers", "character": "witch"},
               {"side": "keepers", "character": "vicar"}])
    fields = engine.seat_fields(st, "1")
    assert fields["location"] == "manor" and fields["strength"] == 3 and fields["assets"] == ["walking_cane"]
    new = engine.seat_edit(st, "1", {"health": 9, "location": "mill", "assets": ["revolver"], "magic": 5})
    p = new["players"]["1"]
    assert (p["health"], p["location"], p["assets"], p["skills"]["magic"]) == (9, "mill", ["revolver"], 5)
    assert st["players"]["1"]["health"] == 6  # the input state is untouched
    with pytest.raises(RuleViolation) as exc:
        engine.seat_edit(st, "1", {"health": 11, "location": "moon", "assets": ["bazooka"], "side": "keepers"})
    assert {e.field for e in exc.value.errors} == {"health", "location", "assets", "side"}


def test_OC_2_7_no_component_limits():
    st = game([{"side": "summoners", "character": "count", "location": "cemetery", "clues": 12,
                "contact": {"card": "night_patrol"}},
               {"side": "keepers", "character": "witch", "location": "mill", "contact": {"card": "sunken_bell"}},
               {"side": "keepers", "character": "vicar", "location": "mill", "contact": {"card": "oak_and_ash"}}],
              start={"week": 2, "day": 3, "phase": "contact"}, enemies=[{"token": "ghoul", "owner": "Аня"}],
              mysteries={"solved": ["moon_phases", "old_maps", "blood_trail", "drowned_names"]})
    res = play(st, dice=[6, 6])
    assert res.state["players"]["1"]["clues"] == 13


def test_OC_11_2a_shuffles_come_from_the_games_rng_not_the_dice():
    st = game([{"side": "summoners", "character": "count", "location": "mill"},
               {"side": "keepers", "character": "witch", "location": "mill"},
               {"side": "keepers", "character": "vicar", "location": "mill"}],
              start={"week": 2, "day": 1, "phase": "contact"}, decks={"search": [], "combat": [], "personal": []})
    st["discards"]["search"] = ["oak_and_ash", "sunken_bell", "hill_fires", "abbey_archive", "millers_debt"]
    drawn = {play(st, seed=seed).state["players"]["2"]["contact"]["card"] for seed in (1, 7, 99, 1234)}
    assert len(drawn) == 1  # whatever the phase's dice stream, the game's RNG shuffles the same
    assert play(st).state["draws"] == st["draws"] + 1
