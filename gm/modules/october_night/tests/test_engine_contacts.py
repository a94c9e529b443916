"""October Night engine: contacts (OC-6), checks (OC-7), clues and mysteries (OC-13) and enemy tokens (OC-16). Pure."""
from __future__ import annotations

from .engine_helpers import checks, events, game, play, refused

CONTACT = {"week": 2, "day": 1, "phase": "contact"}  # day 8: the turn order is Боря, Вова, Аня


def trio(**extra):
    players = [{"side": "summoners", "character": "count"}, {"side": "keepers", "character": "witch"},
               {"side": "keepers", "character": "vicar"}]
    for i, more in extra.items():
        players[int(i[1:])].update(more)
    return players


def test_OC_6_2_rotation_search_combat_personal_from_the_first_player():
    st = game(trio(), start=CONTACT, decks={"search": ["abbey_archive"], "combat": ["night_patrol"],
                                            "personal": ["forbidden_book"]})
    res = play(st)
    draws = {e["player"]: (e["deck"], e["card"]) for e in events(res, "draw")}
    assert draws == {"Боря": ("search", "abbey_archive"), "Вова": ("combat", "night_patrol"),
                     "Аня": ("personal", "forbidden_book")}
    assert res.state["players"]["1"]["personal_drawn"]
    assert events(res, "phase_open")[0]["first"] == "Вова"


def test_OC_6_2_personal_drawn_draws_search():
    st = game(trio(p0={"personal_drawn": True}), start=CONTACT, decks={"search": ["abbey_archive", "oak_and_ash"]})
    res = play(st)
    assert {e["player"]: e["deck"] for e in events(res, "draw")}["Аня"] == "search"


def test_OC_6_4_search_section_success_gives_outcome_and_a_clue():
    st2 = game(trio(p0={"location": "abbey", "contact": {"card": "abbey_archive"}},
                    p1={"location": "mill"}, p2={"location": "mill"}), start=CONTACT, decks={"search": [],
                                                                                              "combat": []})
    res = play(st2, {1: {"contact": {"kind": "section", "section": 1}}}, dice=[5, 1])
    p = res.state["players"]["1"]
    assert p["ingredients"][-1] == "ancient_relic" and p["clues"] == 1 and p["contact"]["done"] == [1]
    assert checks(res)[0]["for"] == "section" and checks(res)[0]["skill"] == "magic"


def test_OC_6_4_failure_gives_the_failure_and_the_section_stays():
    st = game(trio(p0={"location": "abbey", "contact": {"card": "abbey_archive"}},
                   p1={"location": "mill"}, p2={"location": "mill"}), start=CONTACT,
              decks={"search": [], "combat": []})
    res = play(st, {1: {"contact": {"kind": "section", "section": 1}}}, dice=[4, 4])
    p = res.state["players"]["1"]
    assert p["health"] == 5 and p["clues"] == 0 and p["contact"]["done"] == []


def test_OC_6_6_personal_card_completed_gives_three_experience_no_clue():
    st = game(trio(p0={"location": "cemetery", "contact": {"card": "forbidden_book", "done": [1, 2]}},
                   p1={"location": "mill"}, p2={"location": "mill"}), start=CONTACT,
              decks={"search": [], "combat": []})
    res = play(st, dice=[6, 1])
    p = res.state["players"]["1"]
    assert p["experience"] == 5 + 1 + 3 and p["clues"] == 0 and p["contact"] is None
    assert res.state["discards"]["personal"] == ["forbidden_book"]


def test_OC_6_5_combat_card_places_enemies_and_engaging_one():
    st = game(trio(p0={"location": "cemetery"}, p1={"location": "mill"}, p2={"location": "mill"}),
              start={"week": 2, "day": 3, "phase": "contact"},  # day 10: Аня is first, then Боря, Вова
              decks={"search": [], "combat": ["night_patrol"]}, enemy_pool=["ghoul", "werewolf"])
    res = play(st)  # Аня draws search (empty), Боря combat
    assert [e["deck"] for e in events(res, "no_card")] == ["search"]
    assert res.state["enemies"] == [{"token": "ghoul", "location": "cemetery", "owner": "2", "health": 2,
                                     "revealed": False}]


def test_OC_7_4_enemy_check_both_results():
    st = game(trio(p0={"location": "cemetery", "contact": {"card": "night_patrol"}},
                   p1={"location": "mill"}, p2={"location": "mill"}), start=CONTACT,
              enemies=[{"token": "ghoul", "owner": "Аня"}], decks={"search": [], "combat": []})
    # Strength 3 + sword cane 1 = 4; dice 6+2 = 12 ≥ 9: no damage; one success: the ghoul 2 → 1.
    res = play(st, dice=[6, 2])
    c = checks(res)[0]
    assert (c["for"], c["skill"], c["total"], c["successes"], c["target"]) == ("enemy", "strength", 12, 1, 9)
    assert res.state["enemies"][0]["health"] == 1 and res.state["enemies"][0]["revealed"]
    assert res.state["players"]["1"]["health"] == 6
    # Dice 1+1 = 6 < 9: −1 health, the ghoul unhurt.
    res = play(st, dice=[1, 1])
    assert res.state["players"]["1"]["health"] == 5 and res.state["enemies"][0]["health"] == 2


def test_OC_6_5_defeated_enemy_back_to_the_bag_clue_and_card_done():
    st = game(trio(p0={"location": "cemetery", "contact": {"card": "night_patrol"}},
                   p1={"location": "mill"}, p2={"location": "mill"}), start=CONTACT,
              enemies=[{"token": "ghoul", "owner": "Аня"}], enemy_pool=["werewolf"],
              decks={"search": [], "combat": []})
    res = play(st, {1: {"contact": {"kind": "enemy", "enemy": "ghoul"}}}, dice=[5, 6])
    assert res.state["enemies"] == [] and res.state["bag"] == ["werewolf", "ghoul"]
    assert res.state["players"]["1"]["clues"] == 1 and res.state["players"]["1"]["contact"] is None
    assert res.state["discards"]["combat"] == ["night_patrol"]


def test_OC_6_8_contact_line_refusals():
    st = game(trio(p0={"location": "mill", "contact": {"card": "abbey_archive", "done": [1]}}), start=CONTACT,
              enemies=[{"token": "ghoul", "owner": None}])
    assert refused(st, 1, {"contact": {"kind": "section", "section": 1}}) == ["section_done"]
    assert refused(st, 1, {"contact": {"kind": "section", "section": 2}}) == ["not_at_location"]
    assert refused(st, 1, {"contact": {"kind": "enemy", "enemy": "ghoul"}}) == ["no_contact"]
    assert refused(st, 1, {"contact": {"kind": "mystery"}}) == ["no_mystery"]
    assert refused(st, 2, {"contact": {"kind": "abandon"}}) == ["no_contact"]


def test_OC_6_8_abandon_returns_enemies():
    st = game(trio(p0={"location": "mill", "contact": {"card": "siege"}}), start=CONTACT,
              enemies=[{"token": "ghoul", "owner": "Аня"}, {"token": "ghost", "owner": "Аня"}], enemy_pool=[],
              decks={"search": [], "combat": []})
    res = play(st, {1: {"contact": {"kind": "abandon"}}})
    assert res.state["enemies"] == [] and res.state["bag"] == ["ghoul", "ghost"]
    assert res.state["discards"]["combat"] == ["siege"]


def test_OC_6_8a_mystery_solved_earlier_falls_back_to_auto():
    st = game(trio(p0={"location": "abbey", "personal_drawn": True}, p1={"location": "abbey"},
                   p2={"location": "mill"}), start=CONTACT,
              mysteries={"open": "moon_phases"}, decks={"search": ["abbey_archive"], "combat": []})
    # Боря (first, magic 3) solves it; Аня's mystery line falls back to auto: she draws and works at once.
    res = play(st, {2: {"contact": {"kind": "mystery"}}, 1: {"contact": {"kind": "mystery"}}}, dice=[6, 1, 1, 1])
    assert res.state["mysteries"]["solved"] == ["moon_phases"]
    assert {e["player"] for e in events(res, "draw")} == {"Аня"}
    assert [c["for"] for c in checks(res)] == ["mystery", "section"]


def test_OC_13_2_four_clues_open_a_mystery():
    st = game(trio(p0={"clues": 4}, p1={"clues": 5}), start={"week": 2, "day": 1},
              decks={"mysteries": ["blood_trail", "old_maps"]})
    res = play(st)
    # Day 8: Боря is first in turn order.
    assert res.state["mysteries"]["open"] == "blood_trail"
    assert res.state["players"]["2"]["clues"] == 1 and res.state["players"]["1"]["clues"] == 4


def test_OC_13_4_fourth_mystery_sets_the_ritual_place():
    st = game(trio(p0={"location": "harbour"}, p1={"location": "mill"}, p2={"location": "mill"}),
              start={"week": 2, "day": 3, "phase": "contact"},
              mysteries={"solved": ["moon_phases", "old_maps", "blood_trail"], "open": "drowned_names"},
              enemy_pool=["vampire", "ghoul"], decks={"search": [], "combat": [], "mysteries": ["bell_tower"]})
    res = play(st, {1: {"contact": {"kind": "mystery"}}}, dice=[6, 1])
    assert res.state["ritual_place"] == "manor" and res.state["bag"] == ["ghoul", "vampire"]
    assert res.state["mysteries"]["open"] is None and res.state["players"]["1"]["experience"] == 6
    assert events(res, "ritual_place") == [{"token": "vampire", "location": "manor"}]


def test_OC_14_4a_deduction_and_frenzy_add_a_success():
    st = game([{"side": "keepers", "character": "detective", "location": "abbey",
                "contact": {"card": "abbey_archive"}, "abilities": ["deduction"]},
               {"side": "summoners", "character": "wolfman", "location": "cemetery", "abilities": ["frenzy"],
                "contact": {"card": "night_patrol"}},
               {"side": "keepers", "character": "vicar", "location": "mill"}], start=CONTACT,
              enemies=[{"token": "ghoul", "owner": "Боря"}], decks={"search": [], "combat": []})
    res = play(st, {1: {"abilities": [{"ability": "deduction"}]}, 2: {"abilities": [{"ability": "frenzy"}]}},
               dice=[1, 1, 1, 1])
    wolf, detective = checks(res)
    assert wolf["successes"] == 1 and res.state["enemies"][0]["health"] == 1
    assert detective["successes"] == 1 and detective["success"]


def test_OC_16_3_stray_enemy_forbids_rest_but_nobody_engages_it():
    st = game(trio(p0={"location": "cemetery"}), enemies=[{"token": "ghoul", "owner": None}],
              start={"week": 2, "day": 3, "phase": "contact"}, decks={"search": [], "combat": []})
    res = play(st)
    assert res.state["enemies"][0]["owner"] is None and res.state["enemies"][0]["health"] == 2
    assert not [c for c in checks(res) if c["for"] == "enemy" or c["player"] == "Аня"]
    assert refused(st, 1, {"contact": {"kind": "enemy", "enemy": "ghoul"}}) == ["no_contact"]
