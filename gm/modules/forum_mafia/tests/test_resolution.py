"""The forum Mafia resolution engine (pure, no DB): every card of §11, the order rules FM-5.2–5.8, the layers
L0–L8 and FM-6.1/6.2 of §6, victory FM-10, and the rendering of every event the engine emitted here.

Tables are built with :mod:`tests.unit.fm_table`; seats ``Z1`` (Law) and ``Z2`` (Mafia) are bystanders added by
:func:`T` so that a test does not end the game by accident (FM-10).
"""
from __future__ import annotations

import copy
import dataclasses

import pytest

from cards.collection_data import CARDS
from cards.domain import CardKind, Collection
from gm.core.engine import PhaseSpec, RuleViolation

from .fm_table import COL as COL_
from .fm_table import EMITTED, STATE, S, check, play, plays, refused, run, table

N1, D1, N2, D2, N3 = ("night", 1, 1), ("day", 1, 2), ("night", 2, 3), ("day", 2, 4), ("night", 3, 5)


def T(*specs: S, bystanders: bool = True):  # noqa: N802
    """A table of ``specs`` plus a Law and a Mafia bystander (they hold three cards and order nothing)."""
    extra = (S("Z1", "judge", hand="tail tail tail"), S("Z2", "mafia_advisor", hand="tail tail tail")) \
        if bystanders else ()
    return table(*specs, *extra)


def reasons(r, who) -> list[str]:
    return [d["reason"] for d in r.told(who, "fm.voided")]


# ====================================================================================================== §11 cards
# ---------------------------------------------------------------------------------------------------- damage


def test_card_pistol_deals_2_damage():
    seats = T(S("A", hand="pistol advice", deck="hack"), S("B", "mafia_killer", hand="coffee bunker tail"))
    r = run(STATE(), seats, {"A": play("pistol", target="B")})
    assert r.hand("B") == ["tail"]  # 2 losses from the front of the Hand (FM-6.1)
    assert r.discard("B") == ["coffee", "bunker"]
    assert r.told("B", "fm.lost") == [{"cards": ["coffee", "bunker"], "losses": 2, "damage": 2, "armour": 0}]
    assert r.hand("A") == ["advice", "hack"]  # the played card is replaced (FM-5.4)
    assert r.trace("damage")[0]["sources"] == [{"player": "A", "card": "pistol", "amount": 2}]


def test_card_sniper_rifle_deals_3_damage_for_price_1():
    seats = T(S("A", hand="sniper_rifle", sleeve="bunker mulligan"),
              S("B", "mafia_killer", hand="coffee tail hack advice"))
    r = run(STATE(), seats, {"A": play("sniper_rifle", target="B")})
    assert r.hand("B") == ["advice"]
    assert r.told("B", "fm.lost")[0]["losses"] == 3
    assert r.sleeve("A") == ["mulligan"]  # the first Sleeve card paid (FM-5.7)
    assert r.told("A", "fm.paid") == [{"card": "sniper_rifle", "cards": ["bunker"]}]
    empty = T(S("A", hand="sniper_rifle"), S("B", "mafia_killer", hand="tail"))
    assert refused(STATE(), empty, "A", play("sniper_rifle", target="B"))[0][0] == "FM-5.7"


def test_card_contract_deals_5_damage_for_price_3():
    seats = T(S("A", hand="contract", sleeve="tail tail tail mulligan"),
              S("B", "mafia_killer", hand="coffee tail hack advice bunker pistol"))
    r = run(STATE(), seats, {"A": play("contract", target="B")})
    assert r.hand("B") == ["pistol"]
    assert r.sleeve("A") == ["mulligan"]
    assert r.told("A", "fm.paid")[0]["cards"] == ["tail", "tail", "tail"]
    short = T(S("A", hand="contract", sleeve="tail tail"), S("B", "mafia_killer", hand="tail"))
    assert refused(STATE(), short, "A", play("contract", target="B"))[0][0] == "FM-5.7"


def test_card_poison_1_now_and_1_at_the_end_of_each_of_the_next_two_phases():
    seats = T(S("A", hand="poison", sleeve="mulligan"), S("B", "mafia_killer", hand="coffee tail hack advice bunker"))
    r1 = run(STATE(), seats, {"A": play("poison", target="B")}, phase=N1)
    assert r1.hand("B") == ["tail", "hack", "advice", "bunker"]  # 1 damage now
    assert r1.trace("poisoned") == [{"layer": "L8", "step": "poisoned", "player": "B", "phases": 2}]
    r2 = run(r1.state, r1.seats, {}, phase=D1)  # end of the target's next phase: 1
    assert r2.hand("B") == ["hack", "advice", "bunker"]
    assert r2.trace("damage")[0]["sources"] == [{"player": "A", "card": "poison", "amount": 1}]
    r3 = run(r2.state, r2.seats, {}, phase=N2)  # and of the one after: 1
    assert r3.hand("B") == ["advice", "bunker"]
    r4 = run(r3.state, r3.seats, {}, phase=D2)  # then it is over
    assert r4.hand("B") == ["advice", "bunker"]
    assert r4.trace("damage") == [] and r4.fm["poison"] == []


def test_card_ambush_deals_3_damage_only_if_the_target_plays_a_targeted_card():
    seats = T(S("A", hand="ambush"), S("B", "mafia_killer", hand="pistol coffee tail hack advice", sleeve="bunker"),
              S("C", "doctor", hand="tail tail tail"))
    hit = run(STATE(), seats, {"A": play("ambush", target="B"), "B": play("pistol", target="C")})
    assert hit.trace("damage")[0] == {"layer": "L5", "step": "damage", "player": "B", "damage": 3, "pierce": 0,
                                      "armour": 0, "losses": 3,
                                      "sources": [{"player": "A", "card": "ambush", "amount": 3}]}
    assert hit.hand("B") == ["hack", "advice"]  # 3 losses, one absorbed by the pistol's replacement draw
    miss = run(STATE(), seats, {"A": play("ambush", target="B"), "B": play("bunker", "sleeve")})
    assert miss.trace("no_trigger") == [{"layer": "L5", "step": "no_trigger", "player": "A", "card": "ambush",
                                         "target": "B"}]
    assert miss.hand("B") == ["pistol", "coffee", "tail", "hack", "advice"]


def test_card_martial_art_deals_2_plus_2_if_the_target_targeted_you():
    seats = T(S("A", hand="martial_art tail tail tail tail tail"),
              S("B", "mafia_killer", hand="pistol coffee tail hack advice bunker"), S("C", "doctor", hand="tail tail"))
    both = run(STATE(), seats, {"A": play("martial_art", target="B"), "B": play("pistol", target="A")})
    assert both.trace("damage")[1]["player"] == "B" and both.trace("damage")[1]["damage"] == 4
    other = run(STATE(), seats, {"A": play("martial_art", target="B"), "B": play("pistol", target="C")})
    assert [d["damage"] for d in other.trace("damage") if d["player"] == "B"] == [2]
    alone = run(STATE(), seats, {"A": play("martial_art", target="B")})
    assert alone.hand("B") == ["tail", "hack", "advice", "bunker"]


# ---------------------------------------------------------------------------------------------------- recon


def test_card_surveillance_camera_learns_the_targets_plays_and_on_whom():
    seats = T(S("A", hand="surveillance_camera"), S("B", "mafia_killer", hand="pistol tail", sleeve="coffee"),
              S("C", "doctor", hand="tail tail tail"))
    r = run(STATE(), seats, {"A": play("surveillance_camera", target="B"),
                             "B": plays({"card": "pistol", "target": "C"}, {"card": "coffee", "from": "sleeve"})})
    assert r.told("A", "fm.recon_played_cards") == [{
        "card": "surveillance_camera", "target": "B", "fact": "played_cards",
        "plays": [{"card": "pistol", "from": "hand", "target": "C"}, {"card": "coffee", "from": "sleeve"}]}]
    # only the player learns it: no other seat and nothing public
    assert all(e.seat == r.id("A") for e in r.of_kind("fm.recon_played_cards"))
    assert not any(e.kind.startswith("fm.recon") for e in r.events if e.visibility == "public")


def test_card_tail_learns_who_played_cards_on_the_target_but_not_which():
    seats = T(S("A", hand="tail"), S("B", "mafia_killer", hand="pistol tail tail"),
              S("C", "doctor", hand="pistol tail"), S("D", "agent", hand="advice tail"))
    r = run(STATE(), seats, {"A": play("tail", target="B"), "B": play("pistol", target="C"),
                             "C": play("pistol", target="B"), "D": play("advice", target="B")})
    told = r.told("A", "fm.recon_players_targeting")
    assert told == [{"card": "tail", "target": "B", "fact": "players_targeting", "players": ["C", "D"]}]
    assert "pistol" not in str(told) and "advice" not in str(told)


def test_card_dossier_learns_the_faction_for_price_2():
    seats = T(S("A", hand="dossier", sleeve="tail tail"), S("B", "mafia_boss", hand="tail"),
              S("C", "maniac", hand="tail"))
    r = run(STATE(), seats, {"A": play("dossier", target="B")})
    assert r.told("A", "fm.recon_faction")[0]["faction"] == "mafia"
    assert r.sleeve("A") == []
    r = run(STATE(), seats, {"A": play("dossier", target="C")})
    assert r.told("A", "fm.recon_faction")[0]["faction"] == "neutral"
    poor = T(S("A", hand="dossier", sleeve="tail"), S("B", "mafia_boss", hand="tail"))
    assert refused(STATE(), poor, "A", play("dossier", target="B"))[0][0] == "FM-5.7"


def test_card_oracle_learns_the_secret_role_for_price_1():
    seats = T(S("A", hand="tail", sleeve="oracle mulligan"), S("B", "mafia_advisor", hand="tail"))
    r = run(STATE(), seats, {"A": play("oracle", "sleeve", target="B")})
    assert r.told("A", "fm.recon_secret_role") == [{"card": "oracle", "target": "B", "fact": "secret_role",
                                                    "role": "mafia_advisor"}]
    assert r.sleeve("A") == [] and r.hand("A") == ["tail"]  # Sleeve plays are not replaced (FM-5.4)


def test_card_witness_learns_who_damaged_the_target():
    seats = T(S("A", hand="witness"), S("B", "doctor", hand="tail tail tail tail tail tail"),
              S("M", "mafia_killer", hand="pistol"), S("K", "mafia_boss", hand="breach"), S("C", hand="body_armour"))
    r = run(STATE(), seats, {"A": play("witness", target="B"), "M": play("pistol", target="B"),
                             "K": play("breach", target="B")})
    assert r.told("A", "fm.recon_damage_sources") == [{"card": "witness", "target": "B", "fact": "damage_sources",
                                                       "players": ["M", "K"], "damaged": True}]
    # armour stops the losses, not the damage (FM-6.1 "takes D damage with A armour")
    r = run(STATE(), seats, {"A": play("witness", target="B"), "M": play("pistol", target="B"),
                             "C": play("body_armour", target="B")})
    assert r.hand("B") == ["tail"] * 6
    assert r.told("A", "fm.recon_damage_sources")[0]["players"] == ["M"]
    r = run(STATE(), seats, {"A": play("witness", target="B")})
    assert r.told("A", "fm.recon_damage_sources")[0]["damaged"] is False
    assert r.told("A", "fm.recon_damage_sources")[0]["players"] == []


def test_card_wiretap_learns_the_targets_hand_at_the_end_of_the_phase_any_phase():
    seats = T(S("A", hand="wiretap"), S("B", "mafia_killer", hand="advice tail", deck="hack"))
    r = run(STATE(), seats, {"A": play("wiretap", target="B"), "B": play("advice", target="A")}, phase=D1)
    # after B's replacement draw: the Hand as it is at the end of the phase
    assert r.told("A", "fm.recon_hand") == [{"card": "wiretap", "target": "B", "fact": "hand",
                                             "hand": ["tail", "hack"]}]
    assert r.hand("B") == ["tail", "hack"]


def test_card_hr_department_learns_two_colours_random_two_reproducibly():
    seats = T(S("A", hand="hr_department", sleeve="tail"), S("B", "mafia_killer", hand="tail"),
              S("C", "maniac", hand="tail"), S("J", "joker", hand="tail", joker_colours=["recon", "support"]))

    def colours(target, seed=1):
        r = run(STATE(), seats, {"A": play("hr_department", target=target)}, seed=seed)
        return r.told("A", "fm.recon_role_colours")[0]["colours"]

    assert colours("B") == ["damage", "sabotage"]
    assert colours("J") == ["recon", "support"]  # the joker's chosen colours
    maniac = {seed: colours("C", seed) for seed in range(1, 9)}
    assert all(len(c) == 2 and len(set(c)) == 2 for c in maniac.values())
    assert all(set(c) <= {"damage", "recon", "protection", "sabotage", "control", "support"} for c in maniac.values())
    assert len({tuple(c) for c in maniac.values()}) > 1  # random two of six
    assert colours("C", 3) == maniac[3]  # reproducible with the seed


def test_card_autopsy_learns_a_dead_characters_role_and_the_last_card_played_on_them():
    seats = T(S("A", hand="pistol tail", deck="tail"), S("D", "mafia_boss", hand="tail"),
              S("C", "doctor", hand="tail", sleeve="autopsy"))
    r1 = run(STATE(), seats, {"A": play("pistol", target="D")}, phase=N1)
    assert not r1.alive("D")
    r2 = run(r1.state, r1.seats, {"C": plays({"card": "autopsy", "from": "sleeve", "target": "D"})}, phase=D1)
    assert r2.told("C", "fm.recon_secret_role_and_last_card") == [{
        "card": "autopsy", "target": "D", "fact": "secret_role_and_last_card", "role": "mafia_boss",
        "last_card": "pistol"}]
    # only the dead; and it is free: a Hand play next to it is allowed
    alive = T(S("C", "doctor", hand="advice", sleeve="autopsy"), S("B", "mafia_killer", hand="tail"))
    assert refused(STATE(), alive, "C", play("autopsy", "sleeve", target="B"), phase=D1)[0][0] == "FM-5.5"
    both = plays({"card": "autopsy", "from": "sleeve", "target": "D"}, {"card": "tail", "target": "A"})
    assert len(check(r1.state, r1.seats, "C", both, phase=N2)["plays"]) == 2


# ---------------------------------------------------------------------------------------------------- protection


def test_card_bunker_gives_2_armour_to_yourself():
    seats = T(S("A", hand="pistol"), S("B", "mafia_killer", hand="tail hack", sleeve="bunker"))
    r = run(STATE(), seats, {"A": play("pistol", target="B"), "B": play("bunker", "sleeve")})
    assert r.hand("B") == ["tail", "hack"]
    assert r.trace("armour") == [{"layer": "L4", "step": "armour", "player": "B", "amount": 2, "card": "bunker",
                                  "source": "B"}]
    assert refused(STATE(), seats, "B", play("bunker", "sleeve", target="A"))[0][:2] == ("FM-5.5", "plays.0.target")


def test_card_body_armour_gives_3_armour_to_the_target():
    seats = T(S("A", hand="pistol"), S("K", hand="pistol"), S("B", "mafia_killer", hand="tail hack advice"),
              S("C", "doctor", hand="body_armour"))
    r = run(STATE(), seats, {"A": play("pistol", target="B"), "K": play("pistol", target="B"),
                             "C": play("body_armour", target="B")})
    assert r.hand("B") == ["hack", "advice"]  # 4 - 3 = 1 loss
    assert r.trace("damage")[0]["armour"] == 3


def test_card_bodyguard_takes_all_damage_of_the_target():
    seats = T(S("A", hand="pistol"), S("K", hand="poison", sleeve="tail"), S("B", "mafia_killer", hand="tail hack"),
              S("C", "doctor", hand="bodyguard tail tail tail tail", sleeve="mulligan"))
    r = run(STATE(), seats, {"A": play("pistol", target="B"), "K": play("poison", target="B"),
                             "C": play("bodyguard", target="B")})
    assert r.hand("B") == ["tail", "hack"]
    assert r.hand("C") == ["tail", "tail"]  # 3 damage to C, one absorbed by the bodyguard's replacement
    assert [t["card"] for t in r.trace("transfer")] == ["pistol", "poison"]
    assert r.trace("bodyguard")[0] == {"layer": "L4", "step": "bodyguard", "player": "B", "guard": "C"}


def test_card_safe_house_immunity_but_breach_pierces():
    seats = T(S("A", hand="pistol"), S("K", hand="breach"), S("B", "mafia_killer", hand="tail hack advice"),
              S("C", "doctor", hand="safe_house", sleeve="tail tail"))
    r = run(STATE(), seats, {"A": play("pistol", target="B"), "C": play("safe_house", target="B")})
    assert r.hand("B") == ["tail", "hack", "advice"]
    assert r.trace("immune_blocked")[0]["amount"] == 2
    assert r.sleeve("C") == []  # price 2
    r = run(STATE(), seats, {"A": play("pistol", target="B"), "K": play("breach", target="B"),
                             "C": play("safe_house", target="B")})
    assert r.hand("B") == ["advice"]


def test_card_last_stand_keeps_the_last_discarded_card():
    seats = T(S("A", hand="pistol"), S("K", hand="pistol"),
              S("B", "mafia_killer", hand="tail hack", sleeve="role:last_stand", public="jock"))
    shots = {"A": play("pistol", target="B"), "K": play("pistol", target="B")}
    dead = run(STATE(), seats, shots)
    assert not dead.alive("B")
    r = run(STATE(), seats, {**shots, "B": play("last_stand", "sleeve")})
    assert r.alive("B") and r.hand("B") == ["hack"]  # the last of the lost cards
    assert r.told("B", "fm.last_stand") == [{"cards": ["hack"]}]
    assert r.discard("B") == ["last_stand", "tail"]
    # free: it uses no Sleeve slot
    assert len(check(STATE(), seats, "B", plays({"card": "last_stand", "from": "sleeve"},
                                                {"card": "tail", "target": "A"}))["plays"]) == 2


def test_card_superhero_gives_4_armour_to_the_target():
    seats = T(S("A", hand="pistol"), S("K", hand="pistol"), S("M", hand="pistol"),
              S("B", "mafia_killer", hand="tail hack advice"), S("C", "doctor", hand="superhero", sleeve="tail"))
    r = run(STATE(), seats, {"A": play("pistol", target="B"), "K": play("pistol", target="B"),
                             "M": play("pistol", target="B"), "C": play("superhero", target="B")})
    assert r.hand("B") == ["advice"]  # 6 damage - 4 armour = 2 losses
    assert r.sleeve("C") == []


# ---------------------------------------------------------------------------------------------------- sabotage


def test_card_pickpocket_takes_a_random_hand_card_reproducibly():
    seats = T(S("A", hand="pickpocket", deck="coffee"),
              S("B", "mafia_killer", hand="advice tail hack bunker", deck="witness"))
    orders = {"A": play("pickpocket", target="B"), "B": play("advice", target="A")}
    stolen = {}
    for seed in range(1, 12):
        r = run(STATE(), seats, orders, seed=seed)
        card = r.told("A", "fm.stole")[0]["cards"][0]
        stolen[seed] = card
        assert r.told("B", "fm.stolen_from") == [{"cards": [card]}]
        assert r.hand("A")[0] == card  # into the thief's Hand, then his replacement draw and advice
        assert len(r.hand("B")) == 3  # 4 - advice - stolen + 1 replacement for advice only
    assert set(stolen.values()) <= {"tail", "hack", "bunker"} and len(set(stolen.values())) > 1
    again = run(STATE(), seats, orders, seed=5)
    assert again.told("A", "fm.stole")[0]["cards"] == [stolen[5]]


def test_card_arson_discards_the_first_2_sleeve_cards():
    seats = T(S("A", hand="arson"), S("B", "mafia_killer", hand="tail", sleeve="bunker role:dummy coffee"))
    r = run(STATE(), seats, {"A": play("arson", target="B")})
    assert r.sleeve("B") == ["coffee"]
    assert r.told("B", "fm.sleeve_lost") == [{"cards": ["bunker", "dummy"]}]


def test_card_hack_discards_the_top_3_deck_cards():
    seats = T(S("A", hand="hack"), S("B", "mafia_killer", hand="tail", deck="pistol coffee bunker advice"))
    r = run(STATE(), seats, {"A": play("hack", target="B")}, phase=D1)  # any phase
    assert r.deck("B") == ["advice"]
    assert r.discard("B") == ["pistol", "coffee", "bunker"]
    assert r.told("B", "fm.milled") == [{"cards": ["pistol", "coffee", "bunker"]}]


def test_card_jamming_blocks_the_targets_messages_and_recon():
    seats = T(S("A", hand="jamming", sleeve="tail"), S("B", "mafia_killer", hand="surveillance_camera"),
              S("C", "doctor", hand="tail", sleeve="letter"))
    r = run(STATE(), seats, {"A": play("jamming", target="B"), "B": play("surveillance_camera", target="C"),
                             "C": play("letter", "sleeve", target="B", text="hello")})
    assert r.told("B", "fm.recon_jammed") == [{"card": "surveillance_camera"}]
    assert r.told("B", "fm.recon_played_cards") == [] and r.told("B", "fm.message") == []
    assert r.trace("recon_blocked")[0]["player"] == "B"
    assert r.trace("message_lost")[0]["target"] == "B"
    assert r.sleeve("A") == []  # price 1


def test_card_breach_deals_2_damage_ignoring_armour():
    seats = T(S("A", hand="breach"), S("B", "mafia_killer", hand="tail hack advice", sleeve="bunker"))
    r = run(STATE(), seats, {"A": play("breach", target="B"), "B": play("bunker", "sleeve")})
    assert r.hand("B") == ["advice"]
    assert r.trace("damage")[0]["pierce"] == 2 and r.trace("damage")[0]["armour"] == 2


def test_card_stimulant_shot_draws_2_now_and_discards_1_at_the_end_of_the_next_phase():
    seats = T(S("A", hand="tail hack", sleeve="role:stimulant_shot", deck="coffee bunker advice", public="addict"))
    r1 = run(STATE(), seats, {"A": plays({"card": "stimulant_shot", "from": "sleeve"})}, phase=N1)
    assert r1.hand("A") == ["tail", "hack", "coffee", "bunker"]
    assert r1.told("A", "fm.drew") == [{"cards": ["coffee", "bunker"]}]
    r2 = run(r1.state, r1.seats, {}, phase=D1)
    assert r2.hand("A") == ["hack", "coffee", "bunker"]  # first in Hand
    assert r2.told("A", "fm.lost_delayed") == [{"cards": ["tail"]}]
    r3 = run(r2.state, r2.seats, {}, phase=N2)
    assert r3.hand("A") == ["hack", "coffee", "bunker"] and r3.fm["stimulant"] == []
    # drawn at L6, so the cards join the Hand's end before damage losses (FM-6 L6 before L8)
    shot = T(S("A", hand="tail hack", sleeve="stimulant_shot", deck="coffee bunker"), S("M", "mafia_boss",
                                                                                      hand="pistol"))
    r = run(STATE(), shot, {"A": play("stimulant_shot", "sleeve"), "M": play("pistol", target="A")})
    assert r.hand("A") == ["coffee", "bunker"]


# ---------------------------------------------------------------------------------------------------- control


def test_card_arrest_cancels_every_card_the_target_plays():
    seats = T(S("A", hand="arrest", sleeve="tail"), S("B", "mafia_killer", hand="pistol", sleeve="coffee",
                                                      deck="hack bunker advice"),
              S("C", "doctor", hand="tail tail"))
    r = run(STATE(), seats, {"A": play("arrest", target="B"),
                             "B": plays({"card": "pistol", "target": "C"}, {"card": "coffee", "from": "sleeve"})})
    assert r.hand("C") == ["tail", "tail"]
    assert r.told("B", "fm.cancelled") == [{"card": "pistol"}, {"card": "coffee"}]
    assert r.hand("B") == ["hack"]  # only the replacement for the cancelled pistol, no coffee draws
    assert r.sleeve("A") == []


def test_card_handcuffs_forbid_targeted_plays_the_next_night():
    seats = T(S("A", hand="handcuffs"), S("B", "mafia_killer", hand="pistol bunker tail tail"),
              S("C", "doctor", hand="tail tail tail"))
    assert refused(STATE(), seats, "A", play("handcuffs", target="B"), phase=N1)[0][0] == "FM-5.2"
    r1 = run(STATE(), seats, {"A": play("handcuffs", target="B")}, phase=D1)
    assert r1.fm["handcuffs"] == {str(r1.id("B")): 2}
    assert r1.trace("handcuffs") == [{"layer": "L8", "step": "handcuffs", "player": "B", "night": 2}]
    shot = play("pistol", target="C")
    assert "handcuffed" in refused(r1.state, r1.seats, "B", shot, phase=N2)[0][2]
    check(r1.state, r1.seats, "B", play("bunker"), phase=N2)  # untargeted cards are fine
    r2 = run(r1.state, r1.seats, {"B": shot}, phase=N2, validate=False)  # voided at L0
    assert reasons(r2, "B") == ["handcuffed"]
    assert r2.trace("void")[0]["reason"] == "handcuffed"
    assert r2.hand("C") == ["tail", "tail", "tail"] and r2.hand("B") == ["pistol", "bunker", "tail", "tail"]
    assert r2.fm["handcuffs"] == {}
    check(r2.state, r2.seats, "B", shot, phase=N3)  # only that night


def test_card_redirect_moves_the_first_targets_targeted_cards_to_the_second():
    seats = T(S("A", hand="redirect", sleeve="tail tail"), S("B", "mafia_killer", hand="pistol", sleeve="bunker"),
              S("C", "doctor", hand="tail tail tail"), S("D", "agent", hand="tail tail tail"))
    r = run(STATE(), seats, {"A": play("redirect", targets=["B", "C"]),
                             "B": plays({"card": "pistol", "target": "D"}, {"card": "bunker", "from": "sleeve"})})
    assert r.hand("D") == ["tail", "tail", "tail"] and r.hand("C") == ["tail"]
    assert r.trace("redirect") == [{"layer": "L3", "step": "redirect", "player": "B", "card": "pistol",
                                    "target": "D", "new_target": "C", "by": "A"}]
    assert r.sleeve("A") == []  # price 2
    assert refused(STATE(), seats, "A", play("redirect", targets=["B", "B"]))[0][0] == "FM-5.5"


def test_card_accusation_is_public_4_damage_if_right_2_to_you_if_wrong():
    seats = T(S("A", hand="accusation accusation accusation tail tail tail"),
              S("B", "mafia_killer", hand="pistol tail tail tail tail tail", sleeve="role:martial_art",
                public="fighter"),
              S("C", "doctor", hand="tail tail tail tail tail"))
    night = run(STATE(), seats, {"B": plays({"card": "pistol", "target": "C"},
                                            {"card": "martial_art", "from": "sleeve", "target": "C"})}, phase=N1)
    assert night.fm["last_night"] == {str(night.id("B")): ["pistol"]}  # role cards don't count
    right = run(night.state, night.seats, {"A": play("accusation", target="B", named_card="pistol")}, phase=D1)
    assert right.public("fm.accusation") == [{"player": "A", "target": "B", "named_card": "pistol", "hit": True,
                                              "amount": 4}]
    assert len(right.hand("B")) == len(night.hand("B")) - 4
    wrong = run(night.state, night.seats, {"A": play("accusation", target="B", named_card="martial_art")}, phase=D1)
    assert wrong.public("fm.accusation")[0]["hit"] is False
    assert len(wrong.hand("B")) == len(night.hand("B"))
    assert wrong.hand("A") == ["accusation", "tail", "tail", "tail"]  # 2 losses: 1 absorbed, 1 from the front
    assert refused(night.state, night.seats, "A", play("accusation", target="B"), phase=D1)[0][0] == "FM-5.5"


def test_card_interrogation_publishes_sleeve_and_deck_counts():
    seats = T(S("A", hand="interrogation"), S("B", "mafia_killer", hand="tail", sleeve="bunker coffee",
                                              deck="tail tail tail"))
    r = run(STATE(), seats, {"A": play("interrogation", target="B")}, phase=D1)
    assert r.public("fm.interrogation") == [{"target": "B", "sleeve_count": 2, "deck_count": 3}]
    assert refused(STATE(), seats, "A", play("interrogation", target="B"), phase=N1)[0][0] == "FM-5.2"


# ---------------------------------------------------------------------------------------------------- support


def test_card_advice_target_draws_1_at_the_end_of_the_phase():
    seats = T(S("A", hand="advice", deck="coffee"), S("B", "mafia_killer", hand="tail", deck="hack bunker"))
    r = run(STATE(), seats, {"A": play("advice", target="B")}, phase=D1)
    assert r.hand("B") == ["tail", "hack"] and r.told("B", "fm.drew") == [{"cards": ["hack"]}]
    assert r.hand("A") == ["coffee"]


def test_card_coffee_draws_2_and_is_free():
    seats = T(S("A", hand="pistol", sleeve="coffee", deck="hack bunker advice"), S("B", "mafia_killer",
                                                                                   hand="tail tail tail"))
    r = run(STATE(), seats, {"A": plays({"card": "coffee", "from": "sleeve"}, {"card": "pistol", "target": "B"})})
    assert r.hand("A") == ["hack", "bunker", "advice"]  # 1 replacement + 2 coffee
    assert r.hand("B") == ["tail"]


def test_card_first_aid_target_draws_2_after_damage():
    seats = T(S("A", hand="pistol"), S("K", hand="pistol"), S("B", "mafia_killer", hand="tail hack",
                                                              deck="coffee bunker"),
              S("C", "doctor", hand="first_aid", sleeve="tail"))
    shots = {"A": play("pistol", target="B"), "K": play("pistol", target="B")}
    assert not run(STATE(), seats, shots).alive("B")
    r = run(STATE(), seats, {**shots, "C": play("first_aid", target="B")})
    assert r.alive("B") and r.hand("B") == ["coffee", "bunker"]


def test_card_letter_is_delivered_anonymously_and_lost_when_the_target_is_jammed():
    seats = T(S("A", hand="pistol", sleeve="role:letter", public="operator"), S("B", "mafia_killer",
                                                                               hand="tail tail tail"),
              S("J", hand="jamming", sleeve="tail"))
    order = plays({"card": "letter", "from": "sleeve", "target": "B", "text": "  I know who you are  "},
                  {"card": "pistol", "target": "B"})  # free: a Hand play next to it
    r = run(STATE(), seats, {"A": order})
    assert r.told("B", "fm.message") == [{"text": "I know who you are", "card": "letter"}]
    assert "A" not in r.told("B", "fm.message")[0].values()
    r = run(STATE(), seats, {"A": order, "J": play("jamming", target="B")})
    assert r.told("B", "fm.message") == []
    assert r.trace("message_lost") == [{"layer": "L8", "step": "message_lost", "player": "A", "target": "B",
                                        "card": "letter", "dead": False}]
    bad = refused(STATE(), seats, "A", play("letter", "sleeve", target="B", text="see t.me/mafia"))
    assert bad[0][:2] == ("FM-9.4", "plays.0.text")


def test_card_unlimited_plan_sends_a_message_and_returns_to_the_sleeve():
    seats = T(S("A", hand="tail", sleeve="role:unlimited_plan", public="gossip"), S("B", "mafia_killer",
                                                                                   hand="tail"))
    r = run(STATE(), seats, {"A": play("unlimited_plan", "sleeve", target="B", text="vote B")}, phase=D1)
    assert r.told("B", "fm.message") == [{"text": "vote B", "card": "unlimited_plan"}]
    assert r.sleeve("A") == ["unlimited_plan"] and r.discard("A") == []
    assert r.trace("returns")[0]["card"] == "unlimited_plan"
    again = run(r.state, r.seats, {"A": play("unlimited_plan", "sleeve", target="B", text="again")}, phase=D2)
    assert again.told("B", "fm.message")[0]["text"] == "again"
    assert refused(STATE(), seats, "A", play("unlimited_plan", "sleeve", target="B", text="x"),
                   phase=N1)[0][0] == "FM-5.2"


def test_card_negotiation_is_a_day_hand_play():
    # Its +1 vote strength belongs to the Veche (FM-7), which this engine does not resolve yet: the play is a
    # day-only Hand play that uses the slot and is replaced.
    seats = T(S("A", hand="negotiation advice", deck="hack"), S("B", "mafia_killer", hand="tail"))
    assert refused(STATE(), seats, "A", play("negotiation"), phase=N1)[0][0] == "FM-5.2"
    two = plays({"card": "negotiation"}, {"card": "advice", "target": "B"})
    assert "only one card from the Hand" in refused(STATE(), seats, "A", two, phase=D1)[0][2]
    r = run(STATE(), seats, {"A": play("negotiation")}, phase=D1)
    assert r.hand("A") == ["advice", "hack"] and r.discard("A") == ["negotiation"]
    assert r.trace("order")[0]["plays"] == [{"card": "negotiation", "from": "hand"}]


# ---------------------------------------------------------------------------------------------------- neutral


def test_card_stash_moves_up_to_2_hand_cards_to_the_sleeve_unreplaced():
    seats = T(S("A", hand="stash pistol coffee tail", sleeve="bunker", deck="hack advice"),
              S("B", "mafia_killer", hand="tail"))
    r = run(STATE(), seats, {"A": play("stash", cards=["coffee", "tail"])})
    assert r.sleeve("A") == ["bunker", "coffee", "tail"]
    assert r.hand("A") == ["pistol", "hack"]  # one replacement, for the stash itself
    one = run(STATE(), seats, {"A": play("stash", cards=["pistol"])})
    assert one.sleeve("A") == ["bunker", "pistol"]
    assert refused(STATE(), seats, "A", play("stash", cards=["pistol", "coffee", "tail"]))[0][0] == "FM-5.2"
    assert refused(STATE(), seats, "A", play("stash"))[0][0] == "FM-5.2"


def test_card_bluff_has_no_effect_but_recon_sees_it():
    seats = T(S("A", hand="pistol", sleeve="bluff"), S("B", "mafia_killer", hand="tail tail tail"),
              S("C", "doctor", hand="surveillance_camera"))
    r = run(STATE(), seats, {"A": plays({"card": "bluff", "from": "sleeve", "target": "B"},
                                        {"card": "pistol", "target": "B"}),  # free: no slot
                             "C": play("surveillance_camera", target="A")})
    assert r.told("C", "fm.recon_played_cards")[0]["plays"] == [
        {"card": "bluff", "from": "sleeve", "target": "B"}, {"card": "pistol", "from": "hand", "target": "B"}]
    assert r.hand("B") == ["tail"]  # the pistol only
    alone = run(STATE(), seats, {"A": play("bluff", "sleeve", target="B")})
    assert alone.hand("B") == ["tail", "tail", "tail"] and alone.told("B") == []


def test_card_reserve_moves_the_top_2_deck_cards_to_the_sleeve():
    seats = T(S("A", hand="reserve", deck="pistol coffee hack"), S("B", "mafia_killer", hand="tail"))
    r = run(STATE(), seats, {"A": play("reserve")})
    assert r.sleeve("A") == ["pistol", "coffee"] and r.hand("A") == ["hack"]
    assert r.told("A", "fm.moved") == [{"card": "reserve", "cards": ["pistol", "coffee"]}]
    short = T(S("A", hand="reserve", deck="pistol"), S("B", "mafia_killer", hand="tail"))
    r = run(STATE(), short, {"A": play("reserve")})  # [house] moves what there is; the replacement is a mulligan
    assert r.sleeve("A") == ["pistol"] and r.hand("A") == ["mulligan"]


def test_card_mulligan_has_no_effect_and_may_pay_a_price():
    seats = T(S("A", hand="sniper_rifle mulligan", sleeve="mulligan"), S("B", "mafia_killer", hand="tail tail tail"))
    r = run(STATE(), seats, {"A": plays({"card": "sniper_rifle", "target": "B"}, {"card": "mulligan"})})
    assert r.told("A", "fm.paid") == [{"card": "sniper_rifle", "cards": ["mulligan"]}]
    assert r.hand("B") == [] and r.hand("A") == ["mulligan", "mulligan"]  # two replacements (empty deck)
    drawn = run(STATE(), T(S("A", hand="tail"), S("B", "mafia_killer", hand="tail")), {"A": play("tail", target="B")})
    assert drawn.hand("A") == ["mulligan"]  # FM-4.7: an empty deck draws mulligans


def test_card_ace_sleeve_only_2_armour_to_yourself():
    seats = T(S("A", hand="ace", sleeve="role:ace"), S("B", "mafia_killer", hand="pistol"))
    assert refused(STATE(), seats, "A", play("ace", "hand"))[0][:2] == ("FM-5.2", "plays.0.from")
    r = run(STATE(), seats, {"A": play("ace", "sleeve"), "B": play("pistol", target="A")})
    assert r.hand("A") == ["ace"] and r.trace("armour")[0]["amount"] == 2


def test_card_dummy_has_no_effect_and_pays_a_price_though_a_role_gave_it():
    seats = T(S("A", hand="sniper_rifle", sleeve="role:bunker role:dummy", public="rich_man"),
              S("B", "mafia_killer", hand="tail tail tail tail"))
    r = run(STATE(), seats, {"A": play("sniper_rifle", target="B")})
    assert r.told("A", "fm.paid")[0]["cards"] == ["dummy"]  # the role's bunker can't pay
    assert r.sleeve("A") == ["bunker"]
    # not free: it uses the Sleeve slot
    two = plays({"card": "dummy", "from": "sleeve"}, {"card": "bunker", "from": "sleeve"})
    assert "only one card from the Sleeve" in refused(STATE(), seats, "A", two)[0][2]
    r = run(STATE(), seats, {"A": play("dummy", "sleeve")}, phase=D1)
    assert r.discard("A") == ["dummy"] and r.hand("B") == ["tail"] * 4


def test_every_card_of_section_11_has_its_test():
    names = {name for name in globals() if name.startswith("test_card_")}
    missing = [c["slug"] for c in CARDS if not any(n.startswith(f"test_card_{c['slug']}_") for n in names)]
    assert missing == [] and len(CARDS) == 43


# ====================================================================================================== §5 orders


def test_FM_5_2_one_hand_and_one_sleeve_play_free_cards_excepted_timing():
    seats = T(S("A", hand="pistol advice coffee", sleeve="bunker ace"), S("B", "mafia_killer", hand="tail"))
    ok = plays({"card": "pistol", "target": "B"}, {"card": "bunker", "from": "sleeve"},
               {"card": "coffee"}, {"card": "ace", "from": "sleeve"})
    assert len(check(STATE(), seats, "A", ok)["plays"]) == 4
    two_hand = plays({"card": "pistol", "target": "B"}, {"card": "advice", "target": "B"})
    assert refused(STATE(), seats, "A", two_hand) == [
        ("FM-5.2", "plays.1.card", "You may play only one card from the Hand per phase (free cards excepted).")]
    assert refused(STATE(), seats, "A", play("pistol", target="B"), phase=D1)[0][:2] == ("FM-5.2", "plays.0.card")
    assert refused(STATE(), seats, "A", play("bunker", "sleeve"), phase=D1)[0][0] == "FM-5.2"
    # at L0 the second Hand play is voided, the first stands
    r = run(STATE(), seats, {"A": two_hand}, validate=False)
    assert reasons(r, "A") == ["hand_slot_used"] and r.hand("B") == [] and r.hand("A") == ["advice", "coffee",
                                                                                           "mulligan"]


def test_FM_5_3_discard_two_instead_of_playing_at_night():
    seats = T(S("A", hand="pistol advice tail hack", sleeve="coffee", deck="bunker witness"),
              S("B", "mafia_killer", hand="tail"))
    r = run(STATE(), seats, {"A": {"discard": ["advice", "hack"]}})
    assert r.hand("A") == ["pistol", "tail", "bunker", "witness"]  # both replaced (FM-5.4)
    assert r.trace("discard_two")[0]["cards"] == ["advice", "hack"]
    # free cards next to it [house]; a non-free play is refused
    check(STATE(), seats, "A", plays({"card": "coffee", "from": "sleeve"}, discard=["advice", "hack"]))
    assert refused(STATE(), seats, "A", plays({"card": "pistol", "target": "B"}, discard=["advice", "hack"])
                   )[0][0] == "FM-5.3"
    assert refused(STATE(), seats, "A", {"discard": ["advice", "hack"]}, phase=D1)[0][0] == "FM-5.3"
    assert refused(STATE(), seats, "A", {"discard": ["advice"]})[0][0] == "FM-5.3"
    assert refused(STATE(), seats, "A", plays({"card": "coffee", "from": "sleeve"}, discard=["advice", "advice"])
                   )[0][0] == "FM-5.3"


def test_FM_5_4_hand_plays_and_discards_are_replaced_sleeve_plays_and_losses_are_not():
    seats = T(S("A", hand="pistol tail", sleeve="bunker", deck="hack advice coffee"),
              S("B", "mafia_killer", hand="tail tail tail", deck="coffee coffee"))
    r = run(STATE(), seats, {"A": plays({"card": "pistol", "target": "B"}, {"card": "bunker", "from": "sleeve"})})
    assert r.hand("A") == ["tail", "hack"]  # one draw, for the Hand card only
    assert r.deck("A") == ["advice", "coffee"]
    assert r.hand("B") == ["tail"] and r.deck("B") == ["coffee", "coffee"]  # losses to damage are not replaced


def test_FM_5_5_targets_any_living_other_character():
    seats = T(S("A", hand="pistol", sleeve="autopsy"), S("B", "mafia_killer", hand="tail"),
              S("D", "doctor", hand="tail", alive=False), S("P", "agent", hand="tail", public="sociopath"))
    assert refused(STATE(), seats, "A", play("pistol", target="A"))[0][:2] == ("FM-5.5", "plays.0.target")
    assert refused(STATE(), seats, "A", play("pistol", target="D"))[0][2].startswith("%(target)s is dead")
    assert refused(STATE(), seats, "A", play("pistol", target=99))[0][0] == "FM-5.5"
    assert refused(STATE(), seats, "A", play("pistol"))[0][0] == "FM-5.5"
    assert refused(STATE(), seats, "A", play("autopsy", "sleeve", target="B"))[0][0] == "FM-5.5"
    check(STATE(), seats, "A", play("autopsy", "sleeve", target="D"))  # the named exception: the dead
    assert refused(STATE(), seats, "A", play("pistol", target="P"))[0][0] == "FM-7.6"  # sociopath, Night 1
    check(STATE(), seats, "A", play("pistol", target="P"), phase=N2)
    check(STATE(), seats, "A", play("pistol", target="B"))


def test_FM_5_6_the_last_order_version_counts():
    seats = T(S("A", hand="pistol bunker"), S("B", "mafia_killer", hand="tail tail"), S("C", "doctor",
                                                                                      hand="tail tail"))
    first = check(STATE(), seats, "A", play("pistol", target="B"))
    last = check(STATE(), seats, "A", play("pistol", target="C"))
    assert first != last
    r = run(STATE(), seats, {"A": last})
    assert r.hand("B") == ["tail", "tail"] and r.hand("C") == []


def test_FM_5_7_price_from_the_sleeve_in_order_or_named_role_cards_cannot_pay():
    seats = T(S("A", hand="sniper_rifle", sleeve="tail role:witness bunker mulligan", public="patrolman"),
              S("B", "mafia_killer", hand="tail tail tail tail"))
    r = run(STATE(), seats, {"A": play("sniper_rifle", target="B")})
    assert r.told("A", "fm.paid")[0]["cards"] == ["tail"] and r.sleeve("A") == ["witness", "bunker", "mulligan"]
    named = run(STATE(), seats, {"A": play("sniper_rifle", target="B", pay=["mulligan"])})
    assert named.told("A", "fm.paid")[0]["cards"] == ["mulligan"]
    assert named.sleeve("A") == ["tail", "witness", "bunker"]
    assert refused(STATE(), seats, "A", play("sniper_rifle", target="B", pay=["witness"]))[0][:2] == (
        "FM-5.7", "plays.0.pay")
    # a card played from the Sleeve in the same order is not taken as the default price
    own = plays({"card": "sniper_rifle", "target": "B"}, {"card": "tail", "from": "sleeve", "target": "B"})
    r = run(STATE(), seats, {"A": own})
    assert r.told("A", "fm.paid")[0]["cards"] == ["bunker"] and r.sleeve("A") == ["witness", "mulligan"]
    # only role cards: can't pay; an unpaid order reaching L0 is void with its reason
    poor = T(S("A", hand="sniper_rifle", sleeve="role:witness"), S("B", "mafia_killer", hand="tail tail tail"))
    assert refused(STATE(), poor, "A", play("sniper_rifle", target="B"))[0][0] == "FM-5.7"
    r = run(STATE(), poor, {"A": play("sniper_rifle", target="B")}, validate=False)
    assert reasons(r, "A") == ["price_unpaid"] and r.hand("B") == ["tail"] * 3 and r.hand("A") == ["sniper_rifle"]
    assert r.told("A", "fm.voided")[0]["reason_params"] == {"card": "sniper_rifle", "price": 1, "have": 0}
    # cultist (FM-8): up to two price cards from the Hand
    cult = T(S("A", hand="dossier tail hack", public="cultist"), S("B", "mafia_killer", hand="tail"))
    r = run(STATE(), cult, {"A": play("dossier", target="B", pay_hand=["tail", "hack"])})
    assert r.told("A", "fm.paid")[0]["cards"] == ["tail", "hack"] and r.hand("A") == ["mulligan"]
    assert refused(STATE(), seats, "A", play("sniper_rifle", target="B", pay_hand=["sniper_rifle"]))[0][0] in (
        "FM-8", "FM-5.7")


def test_FM_5_8_effects_are_simultaneous_whatever_the_ring_order():
    specs = [S("A", hand="pistol tail"), S("B", "mafia_killer", hand="pistol tail"),
             S("C", "doctor", hand="pickpocket"), S("D", "mafia_boss", hand="stash bunker advice")]
    orders = {"A": play("pistol", target="B"), "B": play("pistol", target="A"),
              "C": play("pickpocket", target="D"), "D": play("stash", cards=["bunker", "advice"])}
    r = run(STATE(), T(*specs), orders)
    assert r.died == ["A", "B"]  # each shot lands although its shooter dies
    assert r.told("C", "fm.stole") == [] and r.trace("steal_nothing")  # the stash emptied D's Hand first (L6)
    rev = run(STATE(), T(*reversed(specs)), orders)
    for name in "ABCD":
        assert rev.hand(name) == r.hand(name) and rev.sleeve(name) == r.sleeve(name)
        assert rev.alive(name) == r.alive(name)


# ====================================================================================================== §6 layers


def test_FM_6_L0_voids_illegal_orders_with_the_reason_for_player_and_master():
    seats = T(S("A", hand="pistol tail", sleeve="bunker"), S("B", "mafia_killer", hand="tail tail"),
              S("C", "doctor", hand="tail tail"), S("J", "agent", hand="pistol advice", sleeve="coffee"))
    order = check(STATE(), seats, "A", play("pistol", target="C"))  # legal when given
    died = [dataclasses.replace(s, alive=False) if s.name == "C" else s for s in seats]  # C left the game
    jail = {"jail": {str(seats[3].id): 2}}
    r = run(STATE(jail), died, {"A": order, "J": plays({"card": "pistol", "target": "B"},
                                                       {"card": "coffee", "from": "sleeve"})}, validate=False)
    assert reasons(r, "A") == ["dead_target"] and reasons(r, "J") == ["jailed"]
    voided = r.told("A", "fm.voided")[0]
    assert voided == {"player": "A", "seat": r.id("A"), "card": "pistol", "ability": None, "reason": "dead_target",
                      "reason_params": {"card": "pistol", "target": "C"}, "rule": "FM-5.5"}
    assert [t["reason"] for t in r.trace("void")] == ["dead_target", "jailed"]
    assert all(e.visibility == "master" for e in r.of_kind("fm.t_void"))
    assert r.hand("A") == ["pistol", "tail"]  # a void play is not played: no slot, no draw
    assert r.hand("B") == ["tail", "tail"] and r.hand("J") == ["pistol", "advice", "mulligan", "mulligan"]
    # not even a payload: the whole order is void with a reason
    r = run(STATE(), seats, {"A": {"plays": "pistol"}}, validate=False)
    assert reasons(r, "A") == ["bad_payload"]
    with pytest.raises(RuleViolation):
        check(STATE(), seats, "A", {"plays": [{"card": "pistol", "target": "B", "bogus": 1}]})


def test_FM_6_L1_prices_are_paid_before_control_even_for_a_cancelled_play():
    seats = T(S("A", hand="sniper_rifle", sleeve="bunker"), S("B", "mafia_killer", hand="arrest tail",
                                                              sleeve="mulligan"))
    r = run(STATE(), seats, {"A": play("sniper_rifle", target="B"), "B": play("arrest", target="A")})
    assert r.sleeve("A") == [] and r.told("A", "fm.paid")[0]["cards"] == ["bunker"]
    assert r.hand("B") == ["tail", "mulligan"]  # cancelled, no damage
    steps = [e.kind for e in r.events if e.visibility == "master"]
    assert steps.index("fm.t_price") < steps.index("fm.t_cancel")


def test_FM_6_L2_cancelled_play_uses_its_slot_and_draw_mutual_arrests_cancel_both():
    seats = T(S("A", hand="arrest tail", sleeve="tail", deck="hack"),
              S("B", "mafia_killer", hand="arrest pistol", sleeve="tail", deck="coffee"),
              S("C", "doctor", hand="tail tail"))
    r = run(STATE(), seats, {"A": play("arrest", target="B"), "B": play("arrest", target="A")})
    assert [(t["player"], t["by"]) for t in r.trace("cancel")] == [("B", "A"), ("A", "B")]
    assert r.hand("A") == ["tail", "hack"] and r.hand("B") == ["pistol", "coffee"]  # replaced all the same
    # the cancelled play used the Hand slot: B's pistol next to the arrest is refused and void at L0
    r = run(STATE(), seats, {"A": play("arrest", target="B"),
                             "B": plays({"card": "arrest", "target": "A"}, {"card": "pistol", "target": "C"})},
            validate=False)
    assert reasons(r, "B") == ["hand_slot_used"] and r.hand("C") == ["tail", "tail"]
    # a cancelled redirect does not redirect (L2 before L3)
    red = T(S("A", hand="arrest", sleeve="tail"), S("R", "mafia_boss", hand="redirect", sleeve="tail tail"),
            S("B", "mafia_killer", hand="pistol"), S("C", "doctor", hand="tail tail"), S("D", hand="tail tail"))
    r = run(STATE(), red, {"A": play("arrest", target="R"), "R": play("redirect", targets=["B", "D"]),
                           "B": play("pistol", target="C")})
    assert r.hand("C") == [] and r.hand("D") == ["tail", "tail"] and r.trace("redirect") == []


def test_FM_6_L3_redirect_first_in_ring_order_wins_untargeted_cards_stay():
    seats = T(S("R1", "mafia_boss", hand="redirect", sleeve="tail tail"),
              S("R2", "mafia_advisor", hand="redirect", sleeve="tail tail"),
              S("B", "mafia_killer", hand="pistol", sleeve="bunker"),
              S("C", "doctor", hand="tail tail"), S("D", hand="tail tail"), S("E", "agent", hand="tail tail"))
    r = run(STATE(), seats, {"R1": play("redirect", targets=["B", "D"]), "R2": play("redirect", targets=["B", "E"]),
                             "B": plays({"card": "pistol", "target": "C"}, {"card": "bunker", "from": "sleeve"})})
    assert r.hand("D") == [] and r.hand("C") == ["tail", "tail"] and r.hand("E") == ["tail", "tail"]
    assert r.trace("redirect_ignored") == [{"layer": "L3", "step": "redirect_ignored", "player": "R2",
                                            "target": "B"}]
    assert [t["card"] for t in r.trace("redirect")] == ["pistol"]  # the bunker (no target) stays
    assert r.trace("armour")[0]["player"] == "B"


def test_FM_6_L4_armour_stacks_immunity_and_one_bodyguard():
    seats = T(S("A", hand="contract", sleeve="tail tail tail"), S("B", "mafia_killer", hand="tail tail tail",
                                                                  sleeve="bunker"),
              S("C", "doctor", hand="body_armour"),
              S("G1", "agent", hand="bodyguard tail tail tail", sleeve="tail"),
              S("G2", "judge", hand="bodyguard tail tail tail", sleeve="tail"),
              S("G3", "vigilante", hand="bodyguard tail tail", sleeve="tail"))
    r = run(STATE(), seats, {"A": play("contract", target="B"), "B": play("bunker", "sleeve"),
                             "C": play("body_armour", target="B")})
    assert r.trace("damage")[0]["armour"] == 5 and r.hand("B") == ["tail", "tail", "tail"]
    # two bodyguards of one target: the first in ring order; G3 guarding G1 does not chain
    r = run(STATE(), seats, {"A": play("contract", target="B"), "G1": play("bodyguard", target="B"),
                             "G2": play("bodyguard", target="B"), "G3": play("bodyguard", target="G1")})
    assert r.trace("bodyguard") == [{"layer": "L4", "step": "bodyguard", "player": "B", "guard": "G1"},
                                    {"layer": "L4", "step": "bodyguard", "player": "G1", "guard": "G3"}]
    assert not r.alive("G1") and r.hand("B") == ["tail", "tail", "tail"]
    assert r.hand("G2") == ["tail", "tail", "tail", "mulligan"] and r.hand("G3") == ["tail", "tail", "mulligan"]


def test_FM_6_L5_damage_sums_highlander_cap_armour_never_carries_over():
    seats = T(S("A", hand="contract", sleeve="tail tail tail"), S("K", hand="sniper_rifle", sleeve="tail"),
              S("H", "mafia_killer", hand="tail " * 9, public="highlander"),
              S("B", "mafia_boss", hand="tail tail tail", sleeve="bunker"), S("C", "doctor", hand="pistol pistol"))
    r = run(STATE(), seats, {"A": play("contract", target="H"), "K": play("sniper_rifle", target="H")})
    assert r.trace("highlander_cap")[0] == {"layer": "L5", "step": "highlander_cap", "player": "H", "amount": 8,
                                            "cap": 6}
    assert r.trace("damage")[0]["damage"] == 6
    assert len(r.hand("H")) == 9 - 6
    n1 = run(STATE(), seats, {"B": play("bunker", "sleeve")}, phase=N1)
    d1 = run(n1.state, n1.seats, {}, phase=D1)
    n2 = run(d1.state, d1.seats, {"C": play("pistol", target="B")}, phase=N2)
    assert n2.trace("damage")[0]["armour"] == 0 and n2.hand("B") == ["tail"]


def test_FM_6_L6_card_movement_in_house_order():
    # stash before pickpocket; reserve before arson
    seats = T(S("A", hand="pickpocket"), S("B", "mafia_killer", hand="stash bunker advice tail"),
              S("C", "doctor", hand="arson"), S("D", "mafia_boss", hand="reserve", sleeve="coffee",
                                                deck="pistol hack witness"))
    r = run(STATE(), seats, {"A": play("pickpocket", target="B"), "B": play("stash", cards=["bunker", "advice"]),
                             "C": play("arson", target="D"), "D": play("reserve")})
    assert r.told("A", "fm.stole")[0]["cards"] == ["tail"] and r.sleeve("B") == ["bunker", "advice"]
    assert r.told("D", "fm.sleeve_lost") == [{"cards": ["coffee", "pistol"]}] and r.sleeve("D") == ["hack"]
    l6 = [d["step"] for d in r.trace() if d["layer"] == "L6"]
    assert l6 == ["move", "move", "steal", "sleeve_discard"]


def test_FM_6_L7_information_sees_orders_as_given_cancelled_included_voided_not():
    seats = T(S("A", hand="arrest", sleeve="tail"), S("B", "mafia_killer", hand="pistol advice"),
              S("C", "doctor", hand="surveillance_camera"), S("D", hand="tail tail"), S("E", hand="tail tail"),
              S("W", "agent", hand="tail tail", sleeve="tail"))
    r = run(STATE(), seats, {"A": play("arrest", target="B"),
                             "B": plays({"card": "pistol", "target": "D"}, {"card": "advice", "target": "E"}),
                             "C": play("surveillance_camera", target="B")}, validate=False)
    assert reasons(r, "B") == ["hand_slot_used"]
    assert r.told("C", "fm.recon_played_cards")[0]["plays"] == [{"card": "pistol", "from": "hand", "target": "D"}]
    assert r.hand("D") == ["tail", "tail"]
    steps = [e.kind for e in r.events if e.visibility == "master"]
    assert steps.index("fm.t_recon") > steps.index("fm.t_cancel")


def test_FM_6_L8_end_discards_draws_deaths_counts_messages_win_check_next_phase():
    seats = T(S("A", hand="pistol", sleeve="letter", deck="hack"), S("B", "mafia_killer", hand="tail tail"),
              S("C", "doctor", hand="tail", sleeve="tail"))
    r = run(STATE(), seats, {"A": plays({"card": "pistol", "target": "C"},
                                        {"card": "letter", "from": "sleeve", "target": "C", "text": "hi"}),
                             "B": {}})
    assert r.died == ["C"] and r.public("fm.death") == [{"player": "C"}]
    assert r.told("C", "fm.message") == []  # the dead get no messages (FM-6.2)
    assert r.trace("message_lost")[0]["dead"] is True
    assert r.public("fm.hand_counts") == [{"counts": [{"player": "A", "count": 1}, {"player": "B", "count": 2},
                                                      {"player": "Z1", "count": 3}, {"player": "Z2", "count": 3}]}]
    assert r.trace("victory_check")[0]["winner"] is None
    assert r.res.next_phase == PhaseSpec("day", 1) and r.outcome is None
    assert run(r.state, r.seats, {}, phase=D1).res.next_phase == PhaseSpec("night", 2)
    layers = r.layers()
    assert layers == sorted(layers) and layers[0] == "L0" and layers[-1] == "L8"
    l8 = [d["step"] for d in r.trace() if d["layer"] == "L8"]
    assert l8.index("losses") < l8.index("death") < l8.index("message_lost") < l8.index("hand_counts") \
        < l8.index("victory_check")


def test_FM_6_1_worked_example():
    seats = T(S("Вася", "sheriff", hand="advice pistol surveillance_camera bunker witness", deck="coffee"),
              S("Босс", "mafia_boss", hand="pistol tail"), S("Киллер", "mafia_killer", hand="pistol tail"))
    r = run(STATE(), seats, {"Вася": play("bunker"), "Босс": play("pistol", target="Вася"),
                             "Киллер": play("pistol", target="Вася")})
    assert r.hand("Вася") == ["pistol", "surveillance_camera", "witness"]
    assert r.deck("Вася") == ["coffee"]  # the replacement for the bunker was absorbed, nothing drawn
    assert r.trace("losses")[0] == {"layer": "L8", "step": "losses", "player": "Вася", "losses": 2, "absorbed": 1,
                                    "cards": ["advice"], "drawn": [], "to_sleeve": 0}


def test_FM_6_1_losses_beyond_the_hand_and_draws_left_after_absorption():
    seats = T(S("A", hand="pistol tail", deck="hack coffee"), S("B", "mafia_killer", hand="pistol"),
              S("C", "doctor", hand="tail", deck="hack"))
    r = run(STATE(), seats, {"A": play("pistol", target="C"), "B": play("pistol", target="A")})
    assert r.hand("A") == []  # 2 losses: 1 absorbed, 1 takes the tail
    assert r.hand("C") == [] and r.told("C", "fm.lost")[0]["cards"] == ["tail"]
    r = run(STATE(), seats, {"A": {"discard": ["pistol", "tail"]}, "B": play("pistol", target="A")})
    assert r.hand("A") == [] and r.trace("losses")[0]["absorbed"] == 2


def test_FM_6_2_no_hand_cards_means_death_and_the_dead_take_no_part():
    seats = T(S("A", hand="breach", deck="hack"), S("B", "mafia_killer", hand="tail tail"),
              S("C", "doctor", hand="tail"))
    r1 = run(STATE(), seats, {"A": play("breach", target="B")})
    assert r1.died == ["B"] and not r1.alive("B") and r1.res.alive == {r1.id("B"): False}
    # the dead's order is ignored, they are not targets, their Hand count is no longer published
    assert refused(r1.state, r1.seats, "A", play("hack", target="B"), phase=D1)[0][0] == "FM-5.5"
    r2 = run(r1.state, r1.seats, {"B": play("tail", target="C")}, phase=D1, validate=False)
    assert r2.hand("C") == ["tail"] and r2.told("B") == []
    assert "B" not in [c["player"] for c in r2.public("fm.hand_counts")[0]["counts"]]


# ====================================================================================================== §10 victory


def _last_blow(*specs, target="X", seed=1, phase=N1, state=None):
    """A plays a breach on ``target`` (who holds one card): the phase's victory check."""
    seats = table(S("A", "sheriff", hand="breach tail"), *specs)
    return run(state or STATE(), seats, {"A": play("breach", target=target)}, phase=phase, seed=seed)


def test_FM_10_1_law_wins_when_mafia_traitor_and_maniac_are_dead():
    r = _last_blow(S("X", "mafia_killer", hand="tail"), S("L", "doctor", hand="tail", alive=False),
                   S("M", "mafia_boss", hand="tail", alive=False))
    assert r.winners == ["law"] and r.winning == ["A", "L"] and r.res.next_phase is None
    assert r.public("fm.victory") == [{"winner": "law", "players": ["A", "L"]}]
    traitor = _last_blow(S("X", "mafia_killer", hand="tail"), S("T", "traitor", hand="tail"))
    assert traitor.winners is None  # the Traitor still lives
    maniac = _last_blow(S("X", "mafia_killer", hand="tail"), S("N", "maniac", hand="tail"))
    assert maniac.winners is None


def test_FM_10_2_mafia_and_traitor_win_when_law_and_maniac_are_dead():
    seats = table(S("M", "mafia_killer", hand="breach tail", alive=False), S("T", "traitor", hand="breach tail"),
                  S("X", "sheriff", hand="tail"), S("N", "maniac", hand="tail", alive=False))
    r = run(STATE(), seats, {"T": play("breach", target="X")})
    assert r.winners == ["mafia"] and r.winning == ["M", "T"]
    assert r.public("fm.victory")[0]["winner"] == "mafia"


def test_FM_10_3_maniac_wins_alone():
    seats = table(S("N", "maniac", hand="breach tail"), S("X", "mafia_boss", hand="tail"),
                  S("L", "judge", hand="tail", alive=False))
    r = run(STATE(), seats, {"N": play("breach", target="X")})
    assert r.winners == ["maniac"] and r.winning == ["N"]
    two = table(S("N", "maniac", hand="breach tail"), S("X", "mafia_boss", hand="tail"), S("L", "judge", hand="tail"))
    assert run(STATE(), two, {"N": play("breach", target="X")}).winners is None


def test_FM_10_4_hero_wins_with_law_if_alive_joker_alone_loses():
    r = _last_blow(S("X", "mafia_killer", hand="tail"), S("H", "hero", hand="tail"),
                   S("H2", "hero", hand="tail", alive=False))
    assert r.winners == ["law", "hero"] and r.winning == ["A", "H"]  # the dead hero met no goal here
    joker = table(S("J", "joker", hand="breach tail"), S("X", "mafia_boss", hand="tail"),
                  S("L", "judge", hand="tail", alive=False))
    r = run(STATE(), joker, {"J": play("breach", target="X")})
    assert r.winners == [] and r.public("fm.victory")[0]["winner"] == "none"  # [house] nobody can win any more


def test_FM_10_5_everyone_dead_nobody_wins():
    seats = table(S("A", "sheriff", hand="breach"), S("B", "mafia_killer", hand="breach"))
    r = run(STATE(), seats, {"A": play("breach", target="B"), "B": play("breach", target="A")})
    assert r.died == ["A", "B"] and r.winners == [] and r.winning == []
    assert r.public("fm.victory") == [{"winner": "none", "players": []}]
    assert r.res.next_phase is None


def test_FM_10_6_win_is_checked_at_l8_of_every_phase_day_included():
    seats = table(S("A", "sheriff", hand="accusation tail"), S("X", "mafia_killer", hand="pistol tail tail tail"),
                  S("L", "judge", hand="tail tail"))
    n1 = run(STATE(), seats, {"X": play("pistol", target="L")}, phase=N1)
    assert n1.trace("victory_check")[0]["winner"] is None and n1.res.next_phase == PhaseSpec("day", 1)
    d1 = run(n1.state, n1.seats, {"A": play("accusation", target="X", named_card="pistol")}, phase=D1)
    assert d1.died == ["X"] and d1.winners == ["law"] and d1.res.next_phase is None
    assert d1.kinds()[-2:] == ["fm.t_victory_check", "fm.victory"]


# FM-10.H1 [house] stalemate: a draw after N quiet phases (no death, nothing left that can harm)
PHASES = [("night", 1, 1), ("day", 1, 2), ("night", 2, 3), ("day", 2, 4), ("night", 3, 5), ("day", 3, 6),
          ("night", 4, 7)]


def _quiet_pair(**a):
    """The last two: a Law member and a mafioso with nothing that can harm (no Veche with two alive, FM-7.4)."""
    return table(S("A", "commissioner", **{"hand": "tail bunker tail", **a}),
                 S("B", "mafia_advisor", hand="advice tail tail"), S("C", "doctor", hand="tail", alive=False))


def test_FM_10_H1_a_stalemate_is_a_draw_after_six_quiet_phases():
    state, seats = STATE(), _quiet_pair()
    for number, phase in enumerate(PHASES[:6], start=1):
        r = run(state, seats, {}, phase=phase)
        assert r.fm["quiet_phases"] == number
        assert r.trace("stalemate_count")[-1] == {"layer": "L8", "step": "stalemate_count", "count": number,
                                                  "limit": 6, "death": False, "harm": []}
        if number < 6:
            assert r.outcome is None and r.res.next_phase is not None and r.public("fm.draw") == []
        state, seats = r.state, r.seats
    assert r.outcome.draw and r.winners == [] and r.winning == [] and r.res.next_phase is None
    assert r.public("fm.draw") == [{"phases": 6, "rule": "FM-10.H1"}]  # announced with the reason
    assert {s.name: s.data["result"] for s in r.seats} == {"A": "draw", "B": "draw", "C": "draw"}
    assert r.public("fm.victory") == []  # a draw is not a victory of anyone


def test_FM_10_H1_the_limit_is_the_games_option_and_0_turns_it_off():
    r = run({**STATE({"quiet_phases": 1}), "stalemate_phases": 2}, _quiet_pair(), {})
    assert r.outcome.draw and r.public("fm.draw") == [{"phases": 2, "rule": "FM-10.H1"}]
    off = run({**STATE({"quiet_phases": 50}), "stalemate_phases": 0}, _quiet_pair(), {})
    assert off.outcome is None and off.fm["quiet_phases"] == 0 and off.trace("stalemate_count")[0]["count"] == 0


def test_FM_10_H1_a_death_resets_the_count():
    seats = table(S("A", "sheriff", hand="breach tail"), S("X", "mafia_killer", hand="tail"),
                  S("B", "mafia_advisor", hand="advice tail tail"))
    r = run(STATE({"quiet_phases": 5}), seats, {"A": play("breach", target="X")})
    assert r.died == ["X"] and r.outcome is None and r.fm["quiet_phases"] == 0
    assert r.trace("stalemate_count")[0]["death"] is True
    # nothing can harm now (A's breach went to the discard pile): the count starts again
    again = run(r.state, r.seats, {}, phase=D1)
    assert again.fm["quiet_phases"] == 1 and again.outcome is None


def test_FM_10_H1_a_damage_card_in_a_deck_prevents_the_draw():
    r = run(STATE({"quiet_phases": 5}), _quiet_pair(deck="bluff pistol"), {})
    assert r.outcome is None and r.fm["quiet_phases"] == 0
    assert r.trace("stalemate_count")[0]["harm"] == [{"player": "A", "what": "pistol"}]
    # …while one in the discard pile does not (a rebuild takes a new deck from the collection, FM-4.7)
    # and the count is taken at the end of the phase: a hit that kills nobody and leaves nothing harmful is quiet
    spent = run(STATE({"quiet_phases": 4}), _quiet_pair(hand="pistol tail bunker"), {"A": play("pistol", target="B")})
    assert spent.discard("A") == ["pistol"] and spent.hand("B") == ["tail"]
    assert spent.fm["quiet_phases"] == 5 and spent.outcome is None


def test_FM_10_H1_a_frozen_table_is_a_stalemate_though_its_decks_hold_weapons():
    """The last two each hold one card they can never play, so neither draws again: the pistols in their decks
    harm nobody and the count runs to the draw."""
    seats = table(S("A", "judge", hand="sniper_rifle", deck="pistol pistol"),
                  S("B", "mafia_boss", hand="redirect", deck="pistol"), S("C", "doctor", hand="tail", alive=False))
    r = run(STATE({"quiet_phases": 5}), seats, {})
    assert r.trace("stalemate_count")[0]["harm"] == [] and r.outcome.draw
    assert r.public("fm.draw") == [{"phases": 6, "rule": "FM-10.H1"}]


def test_FM_10_H1_what_can_harm():
    from gm.modules.forum_mafia.engine.victory import harm_sources

    def sources(*specs, fm=None):
        seats = table(*specs)
        return [(next(s.name for s in seats if s.id == sid) if sid else "", what) for sid, what in
                harm_sources(seats, {s.id: s.alive for s in seats}, fm or {}, COL_)]

    quiet = (S("A", "judge", hand="tail"), S("B", "mafia_boss", hand="tail"))
    assert sources(*quiet) == []
    assert sources(*quiet, S("C", "doctor", hand="tail")) == [("", "veche")]  # three alive: the Veche can execute
    assert sources(*quiet, S("C", "doctor", hand="tail", alive=False)) == []
    assert sources(S("A", "judge", sleeve="accusation"), quiet[1]) == [("A", "accusation")]
    assert sources(S("A", "judge", hand="tail", sleeve="bluff", deck="tail poison"), quiet[1]) == [("A", "poison")]
    # FM-5.7: a price nobody can ever pay harms nobody — an empty Sleeve, or one holding only role cards …
    assert sources(S("A", "judge", hand="tail sniper_rifle", deck="contract"), quiet[1]) == []
    assert sources(S("A", "judge", hand="sniper_rifle", sleeve="role:bluff"), quiet[1]) == []
    assert sources(S("A", "judge", sleeve="sniper_rifle"), quiet[1]) == []  # it can't pay for itself
    assert sources(S("A", "judge", hand="contract", sleeve="bluff tail"), quiet[1]) == []  # 3 to pay, 2 in the Sleeve
    # … unless the Sleeve can still fill (stash, reserve, a returning unlimited_plan, wherever he holds them)
    assert sources(S("A", "judge", hand="sniper_rifle", sleeve="role:dummy"), quiet[1]) == [("A", "sniper_rifle")]
    for filler in ("stash", "reserve", "unlimited_plan"):
        assert sources(S("A", "judge", hand="sniper_rifle", deck=filler), quiet[1]) == [("A", "sniper_rifle")]
    # … or the cultist pays from the Hand (FM-8: up to two)
    assert sources(S("A", "judge", hand="tail sniper_rifle", public="cultist"), quiet[1]) == [("A", "sniper_rifle")]
    assert sources(S("A", "judge", hand="tail contract", public="cultist"), quiet[1]) == []
    assert sources(S("A", "doctor", hand="tail pickpocket"), quiet[1]) == [("A", "pickpocket")]  # can take the last
    assert sources(S("H", "hero", hand="pistol breach"), quiet[1]) == []  # FM-3.3: the hero never deals damage
    assert sources(S("H", "hero", hand="pistol pickpocket"), quiet[1]) == [("H", "pickpocket")]
    assert sources(S("N", "maniac", hand="tail"), quiet[1]) == [("N", "maniac")]
    assert sources(S("K", "judge", hand="tail", public="assassin"), quiet[1]) == [("K", "assassin")]
    assert sources(S("K", "judge", hand="tail", public="assassin"), quiet[1], fm={"used": {"1": ["assassin"]}}) == []
    assert sources(*quiet, fm={"poison": [{"target": 2, "source": 1, "amount": 1, "first": 1, "last": 2}]}) == \
        [("", "poison")]
    assert sources(*quiet, fm={"stimulant": [{"seat": 1, "due": 3, "count": 1}]}) == [("", "stimulant")]
    # A frozen table: nobody may play or discard (one Hand card each, its price unpayable, a lone stash with
    # nothing to move, a redirect with one other alive), so nobody draws again and no deck counts (FM-5.4) …
    frozen = (S("A", "judge", hand="sniper_rifle", deck="pistol"), S("B", "mafia_boss", hand="stash", deck="pistol"))
    assert sources(*frozen) == []
    assert sources(S("A", "judge", hand="redirect", deck="pistol"), frozen[1]) == []
    # … but one who may still act thaws it: two Hand cards to discard, a payable card, a monk's own draw
    assert sources(frozen[0], S("B", "mafia_boss", hand="stash tail", deck="pistol")) == \
        [("A", "pistol"), ("B", "pistol")]  # a move at the table may reach anyone (advice, first_aid)
    assert sources(frozen[0], S("B", "mafia_boss", hand="tail")) == [("A", "pistol")]
    assert sources(S("A", "judge", hand="sniper_rifle", deck="pistol", public="monk"), frozen[1]) == \
        [("A", "pistol"), ("B", "pistol")]


# ====================================================================================================== rendering

ENGINE_KINDS_NOT_REACHED = {
    "fm.t_error",  # a guard for an impossible L1 failure
}  # the role abilities' events (FM-3, FM-8) come from test_abilities.py, which _scenarios() runs too


_RAN: list[bool] = []


def _scenarios():
    """Run every card and rule test once more in this process — and the role abilities' tests — so that EMITTED
    holds their events whatever tests were selected (or in which order they ran)."""
    if not _RAN:
        from . import test_abilities, test_rooms, test_veche

        for name, fn in sorted(globals().items()):
            if name.startswith(("test_card_", "test_FM_")) and callable(fn):
                fn()
        test_abilities.run_ability_tests()
        test_veche.run_veche_tests()
        test_rooms.run_room_tests()
        _RAN.append(True)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_emitted_event_renders_without_placeholders(lang):
    from django.utils import translation

    from gm.modules.forum_mafia.module import MODULE
    from gm.modules.forum_mafia.texts import RESOLUTION_MESSAGES

    _scenarios()  # fill EMITTED whatever tests were selected
    assert set(RESOLUTION_MESSAGES) - set(EMITTED) == ENGINE_KINDS_NOT_REACHED
    with translation.override(lang):
        for kind, samples in EMITTED.items():
            for data in samples:
                text = MODULE.render_event(kind, data)
                assert "%(" not in text and text != kind and text.strip(), (kind, data, text)
        # slugs become card names
        assert "pistol" not in MODULE.render_event("fm.t_damage", EMITTED["fm.t_damage"][0])


def test_render_names_cards_and_reasons_in_the_language():
    from django.utils import translation

    from gm.modules.forum_mafia.module import MODULE

    data = {"player": "A", "seat": 1, "card": "pistol", "ability": None, "reason": "dead_target",
            "reason_params": {"card": "pistol", "target": "C"}, "rule": "FM-5.5"}
    with translation.override("en"):
        assert MODULE.render_event("fm.voided", data) == \
            "Your order was void: C is dead: only living characters can be targeted. (FM-5.5)"
        assert "Pistol" in MODULE.render_event("fm.paid", {"card": "pistol", "cards": ["mulligan"]})
    with translation.override("ru"):
        assert "Пистолет" in MODULE.render_event("fm.paid", {"card": "pistol", "cards": ["mulligan"]})


def test_accusation_amounts_come_from_the_card_data():
    cards = copy.deepcopy(CARDS)
    acc = next(c for c in cards if c["slug"] == "accusation")
    acc["effect"] = {**acc["effect"], "damage": 5, "else_self_damage": 1}
    col = Collection.from_kinds(CardKind(**c) for c in cards)
    seats = table(S("A", hand="accusation accusation tail tail tail tail", deck="tail tail"),
                  S("B", "mafia_killer", hand="tail " * 6), S("C", "doctor", hand="tail tail"), collection=col)
    state = STATE({"last_night": {str(seats[1].id): ["pistol"]}}, collection=col)
    right = run(state, seats, {"A": play("accusation", target="B", named_card="pistol")}, phase=D1)
    assert len(right.hand("B")) == 1
    wrong = run(state, seats, {"A": play("accusation", target="B", named_card="hack")}, phase=D1)
    assert wrong.hand("A") == ["accusation", "tail", "tail", "tail", "tail"]  # 1 loss, absorbed: no draw
    assert wrong.deck("A") == ["tail", "tail"]


def test_resolve_is_deterministic_and_leaves_its_input_untouched():
    seats = T(S("A", hand="pickpocket"), S("B", "mafia_killer", hand="tail hack bunker advice"))
    state = STATE()
    before = copy.deepcopy((state, [s.data for s in seats]))
    one = run(state, seats, {"A": play("pickpocket", target="B")}, seed=7)
    two = run(state, seats, {"A": play("pickpocket", target="B")}, seed=7)
    assert one.res.seat_data == two.res.seat_data and [e.data for e in one.events] == [e.data for e in two.events]
    assert copy.deepcopy((state, [s.data for s in seats])) == before
