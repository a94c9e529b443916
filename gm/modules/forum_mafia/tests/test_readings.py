"""The site's [reading]s of forum Mafia's open points (``docs/rules/forum-mafia.md``, ``FM-….R<n>``; the points are
listed in ``docs/rules/forum-mafia-open-points.md``), each through the pure engine by its rule ID.

Tables are built with :mod:`tests.unit.fm_table`; ``T`` adds a Law and a Mafia bystander so that no test ends the
game by accident (FM-10).
"""
from __future__ import annotations

from cards.collection_data import default_collection
from cards.deckrules import rules_for, validate_deck
from gm.modules.forum_mafia.engine import veche
from gm.modules.forum_mafia.engine.state import can_pay as _can_pay

from .fm_table import COL, STATE, S, check, play, plays, refused, run, table

N1, D1, N2, D2 = ("night", 1, 1), ("day", 1, 2), ("night", 2, 3), ("day", 2, 4)


def T(*specs: S):  # noqa: N802
    return table(*specs, S("Z1", "judge", hand="tail tail tail"), S("Z2", "mafia_advisor", hand="tail tail tail"))


def ids(seats) -> dict[str, int]:
    return {s.name: s.id for s in seats}


def ability(name: str, **kw) -> dict:
    return {"abilities": [{"ability": name, **kw}]}


def vote(target, punishment="execution") -> dict:
    return {"vote": {"for": target, **({"punishment": punishment} if punishment else {})}}


def damage_of(r, name: str) -> int:
    return sum(d["damage"] for d in r.trace("damage") if d["player"] == name)


# ---------------------------------------------------------------------------------------------------- FM-6 (§6, §11)


def test_FM_6_R1_an_arrest_acts_at_L2_and_a_redirect_at_L3_does_not_move_it():
    """Redirect [Boss, Killer] while the Boss arrests the Advisor: the Advisor's plays are cancelled, the Killer's
    are not, and the arrest is not said to have moved."""
    seats = T(S("R", "judge", hand="redirect", sleeve="tail tail"), S("B", "mafia_boss", hand="arrest", sleeve="tail"),
              S("V", "mafia_advisor", hand="pistol tail tail"), S("K", "mafia_killer", hand="pistol tail"),
              S("X", "doctor", hand="tail " * 6))
    r = run(STATE(), seats, {"R": play("redirect", targets=["B", "K"]), "B": play("arrest", target="V"),
                             "V": play("pistol", target="X"), "K": play("pistol", target="X")})
    assert [c["player"] for c in r.trace("cancel")] == ["V"]
    assert r.trace("redirect") == []  # nothing of the Boss's is moved: his arrest has already acted
    assert r.trace("damage") and r.trace("damage")[0]["sources"] == [{"player": "K", "card": "pistol", "amount": 2}]
    assert r.fm["last_played_on"][str(r.id("V"))] == "arrest"  # the arrest stays where it was played


def test_FM_6_R2_a_redirect_is_legal_when_its_own_two_targets_are():
    """"(if legal)": the redirect's second target must be a living, targetable other, checked at submission and
    again at L0; a redirect voided there moves nothing, and the first target's cards keep their targets."""
    def seats(x_alive: bool = True):
        return T(S("R", "judge", hand="redirect", sleeve="tail tail"), S("B", "mafia_boss", hand="pistol tail"),
                 S("X", "doctor", hand="tail " * 4, alive=x_alive), S("D", "sheriff", hand="tail", alive=False),
                 S("P", "agent", hand="tail " * 4, public="sociopath"))

    assert refused(STATE(), seats(), "R", play("redirect", targets=["B", "D"]))[0][:2] == \
        ("FM-5.5", "plays.0.targets")
    assert refused(STATE(), seats(), "R", play("redirect", targets=["B", "P"]))[0][0] == "FM-7.6"  # Night 1
    check(STATE(), seats(), "R", play("redirect", targets=["B", "P"]), phase=N2)  # from Night 2 on he may be chosen
    # the second target died after the order was given (a master's kill): voided at L0, the pistol stays on Z1
    order = check(STATE(), seats(), "R", play("redirect", targets=["B", "X"]))
    r = run(STATE(), seats(x_alive=False), {"R": order, "B": play("pistol", target="Z1")}, validate=False)
    assert [v["reason"] for v in r.told("R", "fm.voided")] == ["dead_target"]
    assert r.trace("redirect") == [] and r.trace("damage")[0]["player"] == "Z1"


def test_FM_6_R3_coffee_and_advice_draw_at_L6_before_the_damage_discards():
    seats = T(S("A", hand="tail", sleeve="coffee", deck="advice hack"), S("B", "mafia_killer", hand="pistol tail"))
    r = run(STATE(), seats, {"A": play("coffee", "sleeve"), "B": play("pistol", target="A")})
    assert r.hand("A") == ["hack"] and r.alive("A")  # [tail, advice, hack] then 2 losses from the front
    steps = [(e.data["layer"], e.data["step"]) for e in r.events if e.visibility == "master"]
    assert steps.index(("L6", "draw")) < steps.index(("L8", "losses"))
    # first_aid alone draws after damage: the same shot with first_aid leaves the drawn cards in the Hand
    aid = T(S("A", hand="tail", deck="advice hack"), S("C", "doctor", hand="first_aid tail", sleeve="tail"),
            S("B", "mafia_killer", hand="pistol tail"))
    r = run(STATE(), aid, {"C": play("first_aid", target="A"), "B": play("pistol", target="A")})
    assert r.hand("A") == ["advice", "hack"]


def test_FM_6_R4_the_bodyguard_takes_the_damage_as_his_own_first_guard_no_chain():
    seats = T(S("G", "doctor", hand="bodyguard tail tail tail", sleeve="tail"),
              S("T", "judge", hand="bunker tail tail"), S("K", "mafia_killer", hand="pistol tail"))
    r = run(STATE(), seats, {"G": play("bodyguard", target="T"), "T": play("bunker"), "K": play("pistol", target="T")})
    assert r.hand("T") == ["tail", "tail", "mulligan"] and damage_of(r, "T") == 0
    g = next(d for d in r.trace("damage") if d["player"] == "G")
    assert (g["damage"], g["armour"], g["losses"]) == (2, 0, 2)  # T's armour does not shield the guard
    # two guards on one target: the first in ring order; a guarded guard passes nothing on
    two = T(S("G", "doctor", hand="bodyguard tail tail", sleeve="tail"),
            S("H", "commissioner", hand="bodyguard tail tail", sleeve="tail"),
            S("T", "judge", hand="tail tail tail"), S("K", "mafia_killer", hand="pistol tail"))
    r = run(STATE(), two, {"G": play("bodyguard", target="T"), "H": play("bodyguard", target="T"),
                           "K": play("pistol", target="T")})
    assert damage_of(r, "G") == 2 and damage_of(r, "H") == 0 and damage_of(r, "T") == 0
    chain = T(S("G", "doctor", hand="bodyguard tail tail", sleeve="tail"),
              S("H", "commissioner", hand="bodyguard tail tail", sleeve="tail"),
              S("T", "judge", hand="tail tail tail"), S("K", "mafia_killer", hand="pistol tail"))
    r = run(STATE(), chain, {"G": play("bodyguard", target="T"), "H": play("bodyguard", target="G"),
                             "K": play("pistol", target="T")})
    assert damage_of(r, "G") == 2 and damage_of(r, "H") == 0


def test_FM_6_R5_cancelled_plays_count_as_played_for_every_condition():
    # martial_art: +2 when the target's card aimed at you was cancelled…
    seats = T(S("A", "sheriff", hand="martial_art tail tail"), S("B", "mafia_killer", hand="pistol " + "tail " * 6),
              S("C", "judge", hand="arrest tail", sleeve="tail"), S("X", "doctor", hand="tail " * 3))
    r = run(STATE(), seats, {"A": play("martial_art", target="B"), "B": play("pistol", target="A"),
                             "C": play("arrest", target="B")})
    assert damage_of(r, "B") == 4 and damage_of(r, "A") == 0
    # …or redirected onto you (the final target counts), and not when redirected away from you
    red = T(S("A", "sheriff", hand="martial_art tail tail"), S("B", "mafia_killer", hand="pistol " + "tail " * 6),
            S("R", "judge", hand="redirect", sleeve="tail tail"), S("X", "doctor", hand="tail " * 3))
    onto = run(STATE(), red, {"A": play("martial_art", target="B"), "B": play("pistol", target="X"),
                              "R": play("redirect", targets=["B", "A"])})
    assert damage_of(onto, "B") == 4
    away = run(STATE(), red, {"A": play("martial_art", target="B"), "B": play("pistol", target="A"),
                              "R": play("redirect", targets=["B", "X"])})
    assert damage_of(away, "B") == 2
    # the idler who played a card that was cancelled did play: no armour
    idle = T(S("I", "judge", hand="tail " * 4, public="idler"), S("C", "agent", hand="arrest tail", sleeve="tail"))
    r = run(STATE(), idle, {"I": play("tail", target="Z2"), "C": play("arrest", target="I")})
    assert not [a for a in r.trace("armour") if a["source"] == "idler"]
    # an accusation is grounded by a card played last night even if it was cancelled
    acc = T(S("A", "sheriff", hand="accusation tail tail"), S("B", "mafia_killer", hand="pistol " + "tail " * 6),
            S("C", "judge", hand="arrest tail", sleeve="tail"))
    n1 = run(STATE(), acc, {"B": play("pistol", target="Z1"), "C": play("arrest", target="B")})
    d1 = run(n1.state, n1.seats, {"A": play("accusation", target="B", named_card="pistol")}, phase=D1)
    assert d1.public("fm.accusation")[0]["hit"] is True


def test_FM_6_R6_a_cancelled_arrest_still_cancels_chains_included():
    seats = T(S("A", "sheriff", hand="arrest tail", sleeve="tail"), S("B", "mafia_boss", hand="arrest tail",
                                                                      sleeve="tail"),
              S("C", "mafia_killer", hand="pistol tail"), S("X", "doctor", hand="tail " * 4))
    r = run(STATE(), seats, {"A": play("arrest", target="B"), "B": play("arrest", target="C"),
                             "C": play("pistol", target="X")})
    assert sorted(c["player"] for c in r.trace("cancel")) == ["B", "C"]
    assert damage_of(r, "X") == 0


# ---------------------------------------------------------------------------------------------------- FM-3.3


def test_FM_3_3_R1_the_hero_may_build_but_never_play_a_card_that_deals_damage():
    seats = T(S("H", "hero", hand="breach accusation pickpocket tail"))
    assert refused(STATE(), seats, "H", play("breach", target="Z2"))[0][:2] == ("FM-3.3", "plays.0.card")
    assert refused(STATE(), seats, "H", play("accusation", target="Z2", named_card="pistol"), phase=D1)[0][0] == \
        "FM-3.3"  # a wrong accusation would damage himself
    check(STATE(), seats, "H", play("pickpocket", target="Z2"))  # no damage: allowed
    deck = ["surveillance_camera"] * 2 + ["tail"] * 2 + ["bunker"] * 2 + ["body_armour"] * 2 + ["breach"] * 2 + \
        ["pickpocket"] * 2 + ["accusation"] * 2 + ["arrest"]
    col = default_collection()
    assert validate_deck(deck, collection=col, rules=rules_for(secret_role="hero", public_role=None)) == []
    assert validate_deck(deck[:-1] + ["pistol"], collection=col,
                         rules=rules_for(secret_role="hero", public_role=None)) != []  # a Damage card: never


def test_FM_3_3_R2_the_maniac_damaged_a_victim_whose_armour_absorbed_his_damage_not_one_behind_safe_house():
    def night(with_safe_house: bool):
        seats = T(S("M", "maniac", hand="tail tail", sleeve="tail"), S("V", "sheriff", hand="bunker", deck=""),
                  S("B", "mafia_killer", hand="breach tail"),
                  S("C", "doctor", hand="safe_house tail" if with_safe_house else "tail", sleeve="tail tail"))
        i = ids(seats)
        orders = {"M": ability("maniac", mode="damage", target=i["V"], pay="tail"), "V": play("bunker"),
                  "B": play("breach", target="V")}
        if with_safe_house:
            orders["C"] = play("safe_house", target="V")
        return run(STATE(), seats, orders)

    absorbed = night(False)
    assert absorbed.died == ["V"] and len(absorbed.sleeve("M")) == 2  # armour 2 took his 2: he still damaged V
    blocked = night(True)
    assert blocked.died == ["V"] and blocked.sleeve("M") == []  # immunity: he dealt no damage


# ---------------------------------------------------------------------------------------------------- FM-5.7, FM-7


def test_FM_5_7_R1_aces_the_joker_gives_are_role_cards():
    seats = T(S("J", "joker", hand="tail tail", joker_colours=["damage", "recon"]),
              S("A", "sheriff", hand="sniper_rifle tail tail tail"), S("Q", "judge", hand="accusation tail tail"))
    r = run(STATE(), seats, {"J": ability("joker", mode="ace", target=ids(seats)["A"])})
    [ace] = r.cards("A").sleeve
    assert ace.kind == "ace" and ace.provenance == "role" and not _can_pay(ace, COL)
    problems = refused(r.state, r.seats, "A", play("sniper_rifle", target="Z2"), phase=N2)
    assert problems[0][0] == "FM-5.7"  # the ace can't pay the price
    n2 = run(r.state, r.seats, {"A": play("ace", "sleeve")}, phase=N2)
    assert n2.trace("armour")[0]["card"] == "ace"
    d2 = run(n2.state, n2.seats, {"Q": play("accusation", target="A", named_card="ace")}, phase=D2)
    assert d2.public("fm.accusation")[0]["hit"] is False  # "role cards don't count"


def test_FM_7_2_R1_the_punishment_is_weighed_over_every_vote_for_a_character():
    seats = table(*[S(n, r, hand="tail " * 7, public=p) for n, r, p in (
        ("A", "sheriff", "authority"), ("B", "mafia_boss", None), ("C", "doctor", None), ("D", "mafia_killer", None),
        ("E", "judge", None))])
    i = ids(seats)
    # C leads 3 : 1; execution 1 (B) + 1 (D, who voted for E) against the authority's jail 2 → tie → jail
    r = run(STATE(), seats, {"A": vote(i["C"], "jail"), "B": vote(i["C"], "execution"),
                             "D": vote(i["E"], "execution")}, phase=D1)
    assert r.public("fm.veche")[0]["leader"] == "C" and r.public("fm.veche")[0]["punishment"] == "jail"
    # without D's vote for E, execution loses 1 : 2
    r = run(STATE(), seats, {"A": vote(i["C"], "jail"), "B": vote(i["C"], "execution")}, phase=D1)
    assert r.public("fm.veche")[0]["punishment"] == "jail"
    # a peace vote's punishment counts for nothing: execution 2 (B, D) against jail 1 (C) and a peaceful "jail"
    r = run(STATE(), seats, {"B": vote(i["A"], "execution"), "D": vote(i["A"], "execution"),
                             "C": vote(i["A"], "jail"), "E": {"vote": {"for": "peace", "punishment": "jail"}}},
            phase=D1)
    assert r.public("fm.veche")[0]["punishment"] == "execution"


def test_FM_7_4_R1_custom_roles_hang_by_role_name_case_blind_latin_before_cyrillic():
    seats = table(S("Яна", "sheriff", hand="tail " * 7, public={"custom": "бондарь"}),
                  S("Аня", "mafia_boss", hand="tail " * 7, public={"custom": "Лесник"}),
                  S("Zed", "doctor", hand="tail " * 7, public={"custom": "Ranger"}),
                  S("V1", "judge", hand="tail " * 7), S("V2", "mafia_killer", hand="tail " * 7))
    i = ids(seats)
    r = run(STATE(), seats, {"V1": vote(i["Аня"]), "V2": vote(i["Яна"])}, phase=D1)
    assert r.public("fm.veche")[0]["leader"] == "Яна"  # by the role "бондарь", not the character "Яна"
    r = run(STATE(), seats, {"V1": vote(i["Zed"]), "V2": vote(i["Яна"])}, phase=D1)
    assert r.public("fm.veche")[0]["leader"] == "Zed"  # Latin before Cyrillic (code points)
    assert veche.hanging_priority(seats[0]) == (veche.hanging_priority(seats[1])[0], "бондарь")


def test_FM_7_4_R2_two_alive_is_counted_when_the_day_resolves_before_its_own_deaths():
    seats = table(S("A", "sheriff", hand="accusation " + "tail " * 7), S("X", "mafia_killer", hand="tail"),
                  S("Y", "mafia_boss", hand="tail tail"), S("D", "doctor", hand="tail", alive=False))
    i = ids(seats)
    state = STATE({"last_night": {str(i["X"]): ["pistol"]}})
    r = run(state, seats, {"A": {"plays": [{"card": "accusation", "target": i["X"], "named_card": "pistol"}],
                                 "vote": {"for": i["Y"], "punishment": "execution"}},
                           "X": vote(i["Y"])}, phase=D1)
    assert r.public("fm.veche")[0]["outcome"] == "leader"  # three alive when the day resolved
    assert sorted(r.died) == ["X", "Y"] and r.winners == ["law"]


def test_FM_7_6_R1_the_sociopath_is_no_target_of_abilities_either_on_night_1_and_day_1():
    seats = T(S("P", "agent", hand="tail " * 4, public="sociopath"), S("M", "maniac", hand="tail", sleeve="tail"),
              S("H", "hero", hand="tail tail"), S("J", "joker", hand="tail", joker_colours=["damage", "recon"]))
    p = ids(seats)["P"]
    assert refused(STATE(), seats, "M", ability("maniac", mode="damage", target=p, pay="tail"))[0][0] == "FM-7.6"
    assert refused(STATE(), seats, "H", ability("hero", mode="armour", target=p))[0][0] == "FM-7.6"
    assert refused(STATE(), seats, "J", ability("joker", mode="ace", target=p), phase=D1)[0][0] == "FM-7.6"
    check(STATE(), seats, "M", ability("maniac", mode="damage", target=p, pay="tail"), phase=N2)


# ---------------------------------------------------------------------------------------------------- FM-8, FM-10.5


def test_FM_8_R1_the_idler_who_discards_two_plays_no_card_and_gets_his_armour():
    seats = T(S("I", "judge", hand="tail tail tail", deck="hack hack", public="idler"),
              S("K", "mafia_killer", hand="pistol tail"), S("L", "mafia_boss", hand="pistol tail"))
    r = run(STATE(), seats, {"I": plays(discard=["tail", "tail"]), "K": play("pistol", target="I"),
                             "L": play("pistol", target="I")})
    assert [a["amount"] for a in r.trace("armour") if a["source"] == "idler"] == [3]
    assert r.hand("I") == ["tail", "hack"]  # 4 − 3 = 1 loss, absorbed by one of the two replacement draws


def test_FM_8_R2_the_assassins_kill_is_no_card_and_no_damage():
    seats = T(S("K", "judge", hand="tail tail", public="assassin"), S("V", "mafia_boss", hand="tail",
                                                                      sleeve="last_stand"),
              S("C", "doctor", hand="arrest tail", sleeve="tail"), S("S", "sheriff", hand="safe_house tail",
                                                                      sleeve="tail tail"))
    i = ids(seats)
    r = run(STATE(), seats, {"K": ability("assassin", target=i["V"]), "C": play("arrest", target="K"),
                             "S": play("safe_house", target="V"), "V": play("last_stand", "sleeve")})
    assert r.died == ["V"]  # neither the arrest on him, nor safe_house, nor last_stand stops it


def test_FM_8_R3_cards_the_warrior_saves_are_his_own_not_role_cards():
    seats = T(S("W", "sheriff", hand="pistol hack sniper_rifle tail", public="warrior"),
              S("K", "mafia_killer", hand="pistol tail"))
    n1 = run(STATE(), seats, {"K": play("pistol", target="W")})
    saved = n1.cards("W").sleeve
    assert [c.kind for c in saved] == ["pistol", "hack"] and all(c.provenance == "deck" for c in saved)
    # a saved card pays a price and grounds an accusation like any card of his deck
    n2 = run(n1.state, n1.seats, {"W": plays({"card": "sniper_rifle", "target": "Z2", "pay": ["hack"]},
                                             {"card": "pistol", "from": "sleeve", "target": "Z2"})}, phase=N2)
    assert n2.told("W", "fm.paid") == [{"card": "sniper_rifle", "cards": ["hack"]}]
    assert n2.fm["last_night"][str(n2.id("W"))] == ["sniper_rifle", "pistol"]


def test_FM_8_R4_the_spendthrift_plays_price_2_cards_without_a_slot_but_pays_the_price():
    seats = T(S("M", "sheriff", hand="contract pistol", sleeve="tail tail tail", public="spendthrift"),
              S("X", "mafia_boss", hand="tail " * 8))
    r = run(STATE(), seats, {"M": plays({"card": "contract", "target": "X"}, {"card": "pistol", "target": "X"})})
    assert r.told("M", "fm.paid") == [{"card": "contract", "cards": ["tail", "tail", "tail"]}]
    assert damage_of(r, "X") == 7 and r.sleeve("M") == []
    poor = T(S("M", "sheriff", hand="contract pistol", sleeve="tail", public="spendthrift"))
    assert refused(STATE(), poor, "M", play("contract", target="Z2"))[0][0] == "FM-5.7"


def test_FM_10_5_R1_the_avenger_wins_over_everyone_dead():
    seats = table(S("V", "doctor", hand="", public="avenger", alive=False), S("A", "sheriff", hand="breach"),
                  S("B", "mafia_killer", hand="breach"), S("C", "mafia_boss", hand="", alive=False))
    r = run(STATE(), seats, {"A": play("breach", target="B"), "B": play("breach", target="A")})
    assert r.died == ["A", "B"] and r.winners == ["avenger", "law"] and sorted(r.winning) == ["A", "V"]
    assert r.public("fm.victory")[0]["winner"] == "avenger"
    none = table(S("V", "doctor", hand="", public={"custom": "x"}, alive=False), S("A", "sheriff", hand="breach"),
                 S("B", "mafia_killer", hand="breach"))
    assert run(STATE(), none, {"A": play("breach", target="B"), "B": play("breach", target="A")}).winners == []


def test_every_reading_has_a_test_here():
    """Each [reading] ID of the rules the site serves is named by a test of this file."""
    import re
    from pathlib import Path

    rules = (Path(__file__).resolve().parents[4] / "docs" / "rules" / "forum-mafia.md").read_text(encoding="utf-8")
    readings = sorted(set(re.findall(r"\b(FM-\d+(?:\.\d+)?\.R\d+)\b", rules)))
    assert len(readings) == 18, readings
    names = " ".join(re.findall(r"^def (test_\w+)", Path(__file__).read_text(encoding="utf-8"), re.M))
    assert [r for r in readings if "test_" + r.replace("-", "_").replace(".", "_") + "_" not in names] == []
