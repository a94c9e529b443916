"""Forum Mafia role abilities in play (FM-3.1, FM-3.3, FM-8, FM-4.7/4.8), pure: the phase abilities of an order as
they go through the layers L0–L8 (:mod:`gm.modules.forum_mafia.resolution`), the instant ones
(:func:`abilities.apply_instant`), the rebuild (:func:`abilities.apply_rebuild`), victory with the hero, joker and
traitor (:func:`victory.check_victory`), and the rendering of every event an ability emits.

Tables come from :mod:`tests.unit.fm_table` (seat ids are 1, 2, … in ring order). In this file an ability's
``target`` and the joker's ``mapping`` may name seats by display name (:func:`_named`). Events of instant abilities
and rebuilds are recorded in ``fm_table.EMITTED`` with the resolution's, so the rendering checks (here and in
``test_resolution``) see them all. **[house]** readings followed are those of ``abilities.py``'s docstring.
"""
from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

import pytest

from cards.containers import Containers
from gm.core.engine import PhaseInfo, RuleViolation, SeatInfo
from gm.modules.forum_mafia.engine import abilities, victory
from gm.modules.forum_mafia.engine.orders import _checker, order_options

from .fm_table import COL, EMITTED, STATE, S, _resolve_names, check, play, plays, refused, run, table

N1, D1, N2, D2, N3 = ("night", 1, 1), ("day", 1, 2), ("night", 2, 3), ("day", 2, 4), ("night", 3, 5)
DECK15 = "pistol advice bunker tail hack sniper_rifle witness arson stash reserve wiretap jamming dossier oracle arrest"


def T(*specs: S, bystanders: bool = True):  # noqa: N802
    """A table of ``specs`` plus a Law and a Mafia bystander (three cards each, no orders) so that a test does not
    end the game by accident (FM-10)."""
    extra = (S("Z1", "judge", hand="tail tail tail"), S("Z2", "mafia_advisor", hand="tail tail tail")) \
        if bystanders else ()
    return table(*specs, *extra)


def ab(ability: str, mode: str = "", **kw) -> dict:
    """One ability entry of an order: ``ab("maniac", "damage", pay="coffee", target="B")``."""
    return {"ability": ability, "mode": mode, **kw}


def order(*uses: Mapping[str, Any], plays_: list | None = None, discard: list | None = None) -> dict:
    """An order with abilities (and plays, each ``{"card": …}``, from the Hand unless said)."""
    out: dict[str, Any] = {"abilities": list(uses)}
    if plays_:
        out["plays"] = [{"from": "hand", **p} for p in plays_]
    if discard is not None:
        out["discard"] = discard
    return out


def _ids(seats) -> dict[str, int]:
    return {s.name: s.id for s in seats}


def _named(payload: Mapping[str, Any], seats) -> dict:
    """Ability targets and mapping keys given as display names become seat ids."""
    ids = _ids(seats)
    out = dict(payload)
    if isinstance(out.get("abilities"), list):
        out["abilities"] = [{**a, "target": ids.get(a["target"], a["target"])}
                            if isinstance(a, Mapping) and isinstance(a.get("target"), str) else a
                            for a in out["abilities"]]
    if isinstance(out.get("target"), str):
        out["target"] = ids.get(out["target"], out["target"])
    if isinstance(out.get("mapping"), Mapping):
        out["mapping"] = {ids.get(k, k): v for k, v in out["mapping"].items()}
    return out


def go(state, seats, orders, **kw):
    """:func:`fm_table.run` with ability targets by name."""
    return run(state, seats, {who: _named(o, seats) for who, o in orders.items()}, **kw)


def no(state, seats, who, payload, phase=N1) -> list[tuple[str, str, str]]:
    """The refusals of an order (rule, field, text), ability targets by name."""
    return refused(state, seats, who, _named(payload, seats), phase)


def ok(state, seats, who, payload, phase=N1) -> dict:
    return check(state, seats, who, _named(payload, seats), phase)


def codes(state, seats, who, payload, phase=N1) -> list[str]:
    """The reason codes (keys of ``REASONS``) of every problem the order check finds — the same check
    as ``validate_order`` (submission) and L0 (intake)."""
    checker = _checker(state, PhaseInfo(*phase), seat(seats, who), seats)
    return [p.code for p in checker.check(_resolve_names(_named(payload, seats), _ids(seats))).problems]


def said(state, seats, who, payload, phase=N1) -> list[tuple[str, str, str]]:
    """The refusals as the player reads them (rule, field, rendered text)."""
    try:
        ok(state, seats, who, payload, phase)
    except RuleViolation as exc:
        return [(e.rule, e.field, e.render()) for e in exc.errors]
    raise AssertionError("accepted")


def seat(seats, name: str) -> SeatInfo:
    return next(s for s in seats if s.name == name)


def cards(s: SeatInfo) -> Containers:
    return Containers.from_dict(s.data["cards"])


def _record(events) -> None:
    for event in events:
        EMITTED.setdefault(event.kind, []).append(dict(event.data))


def after(seats, result) -> list[SeatInfo]:
    """The seats once an :class:`abilities.InstantResult` is applied."""
    return [SeatInfo(id=s.id, name=s.name, position=s.position, alive=result.alive.get(s.id, s.alive),
                     data=result.seat_data.get(s.id, s.data)) for s in seats]


def instant(state, seats, who: str, phase=N1, seed: int = 1, **payload) -> abilities.InstantResult:
    """Use an instant ability of ``who`` now (names allowed in ``target`` and ``mapping``)."""
    result = abilities.apply_instant(state=state, phase=PhaseInfo(*phase), seat=seat(seats, who), seats=seats,
                                     payload=_named(payload, seats), collection=COL, rng=random.Random(seed))
    _record(result.events)
    return result


def rebuild(state, seats, who: str, deck: str = DECK15, seed: int = 1) -> abilities.InstantResult:
    result = abilities.apply_rebuild(state=state, seat=seat(seats, who), deck_list=deck.split(), collection=COL,
                                     rng=random.Random(seed))
    _record(result.events)
    return result


def problem_codes(result: abilities.InstantResult) -> list[str]:
    return [code for code, _field, _params in result.problems]


def reasons(r, who) -> list[str]:
    return [d["reason"] for d in r.told(who, "fm.voided")]


# ==================================================================================================== FM-3.1 Mafia


def test_FM_3_1_mafia_message_to_another_living_mafioso_delivered_at_l8_without_the_senders_name():
    seats = T(S("B", "mafia_boss", hand="tail tail"), S("K", "mafia_killer", hand="tail tail"),
              S("L", "sheriff", hand="tail tail"), S("D", "mafia_killer", hand="tail", alive=False))
    msg = ab("mafia_boss", "message", target="K", text="  бей шерифа  ")
    assert ok(STATE(), seats, "B", order(msg))["abilities"] == [
        {"ability": "mafia_boss", "mode": "message", "target": 2, "text": "бей шерифа"}]
    r = go(STATE(), seats, {"B": order(msg)})
    assert r.told("K", "fm.mafia_message") == [{"text": "бей шерифа"}]  # no sender in the data (FM-9.4)
    assert [e.visibility for e in r.of_kind("fm.mafia_message")] == ["seat"]
    assert r.told("L") == [] and r.told("Z2") == []
    assert r.trace("message") == [{"layer": "L8", "step": "message", "player": "B", "target": "K", "card": None,
                                   "text": "бей шерифа"}]
    assert r.fm["used"] == {"1": ["mafia_message"]}
    layers = r.layers()
    assert layers == sorted(layers)  # the message goes through L0 … L8 like a card
    # by day too (FM-9.6: it is no card, its timing is any phase)
    assert go(STATE(), seats, {"K": order(ab("mafia_killer", "message", target="B", text="ok"))},
              phase=D1).told("B", "fm.mafia_message") == [{"text": "ok"}]


def test_FM_3_1_mafia_message_only_to_a_living_other_mafioso_only_by_a_mafioso_and_without_links():
    seats = T(S("B", "mafia_boss", hand="tail tail"), S("K", "mafia_killer", hand="tail tail"),
              S("L", "sheriff", hand="tail tail"), S("D", "mafia_killer", hand="tail", alive=False))
    assert codes(STATE(), seats, "B", order(ab("mafia_boss", "message", target="L", text="hi"))) == ["mafia_target"]
    assert codes(STATE(), seats, "B", order(ab("mafia_boss", "message", target="B", text="hi"))) == ["self_target"]
    assert codes(STATE(), seats, "B", order(ab("mafia_boss", "message", target="D", text="hi"))) == ["dead_target"]
    assert codes(STATE(), seats, "B", order(ab("mafia_boss", "message", target="K", text=" "))) == ["needs_text"]
    for link in ("см. https://example.com", "www.mafia.ru", "смотри стр. 12", "пиши на a@b.cd"):
        assert codes(STATE(), seats, "B", order(ab("mafia_boss", "message", target="K", text=link))) == \
            ["text_link"], link
    # only the sender's own Mafia role, and only a mafioso
    assert codes(STATE(), seats, "B", order(ab("mafia_killer", "message", target="K", text="x"))) == \
        ["not_your_ability"]
    assert codes(STATE(), seats, "L", order(ab("mafia_boss", "message", target="K", text="x"))) == \
        ["not_your_ability"]
    # one message per phase
    two = order(ab("mafia_boss", "message", target="K", text="a"), ab("mafia_boss", "message", target="Z2", text="b"))
    assert codes(STATE(), seats, "B", two) == ["ability_twice"]


def test_FM_3_1_mafia_message_once_then_recharged_by_a_rebuild():
    seats = T(S("B", "mafia_boss", hand="tail tail"), S("K", "mafia_killer", hand="tail tail"))
    n1 = go(STATE(), seats, {"B": order(ab("mafia_boss", "message", target="K", text="раз"))})
    again = order(ab("mafia_boss", "message", target="K", text="два"))
    assert codes(n1.state, n1.seats, "B", again, D1) == ["ability_spent"]
    assert codes(n1.state, n1.seats, "B", order(ab("mafia_boss", "message", target="Z2", text="x")), D1) == \
        ["ability_spent"]
    # the other mafiosi keep theirs
    assert ok(n1.state, n1.seats, "K", order(ab("mafia_killer", "message", target="B", text="x")), D1)
    # FM-4.8: a rebuild of the (empty) deck recharges it
    rb = rebuild(n1.state, n1.seats, "B")
    assert rb.problems == [] and rb.state["fm"]["used"] == {"1": []}
    assert n1.fm["used"] == {"1": ["mafia_message"]}  # the input state is untouched
    d1 = go(rb.state, after(n1.seats, rb), {"B": again}, phase=D1)
    assert d1.told("K", "fm.mafia_message") == [{"text": "два"}]


def test_FM_3_1_mafia_message_is_lost_if_the_target_is_jammed_or_dies():
    seats = T(S("B", "mafia_boss", hand="tail tail"), S("K", "mafia_killer", hand="tail"),
              S("L", "sheriff", hand="jamming breach", sleeve="mulligan"))
    msg = order(ab("mafia_boss", "message", target="K", text="тихо"))
    jammed = go(STATE(), seats, {"B": msg, "L": play("jamming", target="K")})
    assert jammed.told("K", "fm.mafia_message") == [] and jammed.alive("K")
    assert jammed.trace("message_lost") == [{"layer": "L8", "step": "message_lost", "player": "B", "target": "K",
                                             "card": None, "dead": False}]
    assert jammed.fm["used"] == {"1": ["mafia_message"]}  # spent all the same
    dead = go(STATE(), seats, {"B": msg, "L": play("breach", target="K")})
    assert dead.died == ["K"] and dead.told("K", "fm.mafia_message") == []
    assert dead.trace("message_lost")[0]["dead"] is True


# =================================================================================================== FM-3.3 maniac


def test_FM_3_3_maniac_discards_a_sleeve_card_for_2_damage_at_night_only():
    seats = T(S("N", "maniac", hand="tail tail", sleeve="coffee bunker"),
              S("L", "sheriff", hand="advice hack tail"))
    use = ab("maniac", "damage", pay="bunker", target="L")
    assert ok(STATE(), seats, "N", order(use))["abilities"][0]["pay"] == cards(seat(seats, "N")).sleeve[1].uid
    r = go(STATE(), seats, {"N": order(use)})
    assert r.hand("L") == ["tail"] and r.sleeve("N") == ["coffee"] and r.discard("N") == ["bunker"]
    assert r.hand("N") == ["tail", "tail"]  # a Sleeve card: no replacement draw (FM-5.4)
    assert r.trace("price") == [{"layer": "L1", "step": "price", "player": "N", "card": None, "cards": ["bunker"]}]
    assert r.trace("damage")[0]["sources"] == [{"player": "N", "card": "maniac", "amount": 2}]
    assert codes(STATE(), seats, "N", order(use), D1) == ["ability_night_only"]
    assert codes(STATE(), seats, "N", order(ab("maniac", "damage", pay="pistol", target="L"))) == ["ability_pay"]
    assert codes(STATE(), seats, "N", order(ab("maniac", "damage", target="L"))) == ["ability_pay"]
    assert codes(STATE(), seats, "N", order(ab("maniac", "damage", pay="coffee"))) == ["needs_target"]
    assert codes(STATE(), seats, "L", order(use)) == ["not_your_ability"]


def test_FM_3_3_maniac_discards_a_sleeve_card_for_3_armour():
    seats = T(S("N", "maniac", hand="advice hack tail witness", sleeve="coffee"),
              S("K", "mafia_killer", hand="pistol tail"), S("K2", "mafia_boss", hand="sniper_rifle", sleeve="tail"))
    r = go(STATE(), seats, {"N": order(ab("maniac", "armour", pay="coffee")), "K": play("pistol", target="N"),
                            "K2": play("sniper_rifle", target="N")})
    assert r.trace("armour") == [{"layer": "L4", "step": "armour", "player": "N", "amount": 3, "card": None,
                                  "source": "maniac"}]
    assert r.trace("damage")[0]["armour"] == 3 and r.trace("damage")[0]["losses"] == 5 - 3
    assert r.hand("N") == ["tail", "witness"]


def test_FM_3_3_maniac_discard_uses_the_sleeve_slot_refused_next_to_a_sleeve_play():
    seats = T(S("N", "maniac", hand="pistol tail", sleeve="coffee bunker ace tail"),
              S("L", "sheriff", hand="tail tail tail"))
    bunker = {"card": "bunker", "from": "sleeve"}
    assert codes(STATE(), seats, "N", order(ab("maniac", "armour", pay="coffee"), plays_=[bunker])) == \
        ["ability_sleeve_slot"]
    # damage and armour in one night: the second has no slot left
    assert codes(STATE(), seats, "N", order(ab("maniac", "armour", pay="coffee"),
                                            ab("maniac", "damage", pay="tail", target="L"))) == ["ability_sleeve_slot"]
    # the Hand slot stays his, and a free Sleeve card uses no slot (FM-4.4)
    both = order(ab("maniac", "damage", pay="coffee", target="L"),
                 plays_=[{"card": "pistol", "target": "L"}, {"card": "ace", "from": "sleeve"}])
    assert len(ok(STATE(), seats, "N", both)["plays"]) == 2
    r = go(STATE(), seats, {"N": both})
    assert r.hand("L") == [] and r.died == ["L"] and r.trace("armour")[0]["card"] == "ace"
    # the card he discards can't also be played
    assert codes(STATE(), seats, "N", order(ab("maniac", "armour", pay="bunker"), plays_=[bunker])) == \
        ["ability_sleeve_slot"]


def test_FM_3_3_maniac_draws_2_into_the_sleeve_when_a_character_he_damaged_that_night_dies():
    seats = T(S("N", "maniac", hand="pistol tail", sleeve="coffee", deck="hack witness arson"),
              S("X", "sheriff", hand="tail"), S("Y", "doctor", hand="tail tail tail"),
              S("K", "mafia_killer", hand="breach accusation tail"))
    r = go(STATE(), seats, {"N": order(ab("maniac", "damage", pay="coffee", target="X"))})
    assert r.died == ["X"]
    assert r.told("N", "fm.drew_sleeve") == [{"cards": ["hack", "witness"]}]
    assert r.sleeve("N") == ["hack", "witness"] and r.deck("N") == ["arson"]
    assert r.trace("draw")[-1] == {"layer": "L8", "step": "draw", "player": "N", "card": None,
                                   "cards": ["hack", "witness"], "source": "maniac"}
    # his cards count too; a victim who survives gives nothing
    r = go(STATE(), seats, {"N": play("pistol", target="X")})
    assert r.died == ["X"] and r.sleeve("N") == ["coffee", "witness", "arson"]  # the pistol's replacement: hack
    r = go(STATE(), seats, {"N": order(ab("maniac", "damage", pay="coffee", target="Y"))})
    assert r.alive("Y") and r.told("N", "fm.drew_sleeve") == []
    # someone else's kill gives nothing
    r = go(STATE(), seats, {"K": play("breach", target="X")})
    assert r.died == ["X"] and r.told("N", "fm.drew_sleeve") == []


def test_FM_3_3_maniac_draws_nothing_for_a_day_kill():
    seats = T(S("N", "maniac", hand="pistol accusation tail", sleeve="coffee", deck="hack witness arson"),
              S("X", "sheriff", hand="tail bunker bunker bunker", deck="tail"))
    n1 = go(STATE(), seats, {"X": play("bunker")})
    d1 = go(n1.state, n1.seats, {"N": play("accusation", target="X", named_card="bunker")}, phase=D1)
    assert d1.died == ["X"] and d1.told("N", "fm.drew_sleeve") == [] and d1.sleeve("N") == ["coffee"]


def test_FM_3_3_maniac_swaps_a_hand_and_a_sleeve_card_instantly_at_any_time():
    seats = T(S("N", "maniac", hand="advice pistol tail", sleeve="bunker coffee"))
    res = instant(STATE(), seats, "N", phase=D1, ability="maniac", mode="swap", hand_card="pistol",
                  sleeve_card="coffee")
    assert res.problems == [] and res.alive == {}
    c = cards(after(seats, res)[0])
    assert c.hand_kinds() == ["advice", "coffee", "tail"] and c.sleeve_kinds() == ["bunker", "pistol"]
    assert [(e.kind, e.visibility, e.seat) for e in res.events] == [("fm.swapped", "seat", 1),
                                                                   ("fm.t_swapped", "master", None)]
    assert res.events[0].data == {"cards": ["pistol", "coffee"]}
    # not a play, not once: again at once, by uid, and by night
    uid = c.hand[1].uid
    again = instant(res.state, after(seats, res), "N", phase=N2, ability="maniac", mode="swap", hand_card=uid,
                    sleeve_card="bunker")
    assert again.problems == [] and cards(after(seats, again)[0]).hand_kinds() == ["advice", "bunker", "tail"]
    assert problem_codes(instant(STATE(), seats, "N", ability="maniac", mode="swap", hand_card="hack",
                                 sleeve_card="bunker")) == ["swap_cards"]
    assert problem_codes(instant(STATE(), seats, "Z1", ability="maniac", mode="swap", hand_card="tail",
                                 sleeve_card="tail")) == ["not_your_ability"]
    assert problem_codes(instant(STATE(), seats, "N", phase=("build", 0, 0), ability="maniac", mode="swap",
                                 hand_card="pistol", sleeve_card="coffee")) == ["no_instant_now"]
    # an instant ability is not ordered
    assert codes(STATE(), seats, "N", order(ab("maniac", "swap"))) == ["unknown_mode"]


# ==================================================================================================== FM-3.3 joker


def test_FM_3_3_joker_hr_effect_each_night_outside_the_slots():
    seats = T(S("J", "joker", hand="pistol tail", sleeve="bunker", joker_colours=["damage", "recon"]),
              S("K", "mafia_killer", hand="tail tail tail"), S("L", "sheriff", hand="jamming tail", sleeve="tail"))
    full = order(ab("joker", "hr", target="K"),
                 plays_=[{"card": "pistol", "target": "K"}, {"card": "bunker", "from": "sleeve"}])
    r = go(STATE(), seats, {"J": full})
    assert r.told("J", "fm.recon_role_colours") == [{"card": "hr_department", "target": "K", "fact": "role_colours",
                                                     "colours": ["damage", "sabotage"]}]
    assert r.hand("K") == ["tail"] and r.sleeve("J") == []  # both plays went ahead
    assert r.trace("recon")[0]["layer"] == "L7"
    assert codes(STATE(), seats, "J", order(ab("joker", "hr", target="K")), D1) == ["ability_night_only"]
    jammed = go(STATE(), seats, {"J": order(ab("joker", "hr", target="K")), "L": play("jamming", target="J")})
    assert jammed.told("J", "fm.recon_jammed") == [{"card": "hr_department"}]
    # another joker's colours are his chosen ones
    jj = T(S("J", "joker", hand="tail"), S("J2", "joker", hand="tail", joker_colours=["support", "control"]))
    assert go(STATE(), jj, {"J": order(ab("joker", "hr", target="J2"))}).told(
        "J", "fm.recon_role_colours")[0]["colours"] == ["support", "control"]


def test_FM_3_3_joker_one_ace_per_phase_into_a_targets_sleeve():
    seats = T(S("J", "joker", hand="tail tail", sleeve="role:ace"), S("L", "sheriff", hand="sniper_rifle tail"))
    r = go(STATE(), seats, {"J": order(ab("joker", "ace", target="L"))})
    assert r.sleeve("L") == ["ace"] and r.cards("L").sleeve[0].provenance == "role"
    assert r.told("L", "fm.ace_received") == [{"cards": ["ace"]}]
    assert r.trace("ace") == [{"layer": "L6", "step": "ace", "player": "J", "target": "L"}]
    assert r.sleeve("J") == ["ace"]  # his own ace stays
    # by day too, once per phase, never to himself [house]
    assert go(r.state, r.seats, {"J": order(ab("joker", "ace", target="Z1"))}, phase=D1).sleeve("Z1") == ["ace"]
    assert codes(STATE(), seats, "J", order(ab("joker", "ace", target="L"), ab("joker", "ace", target="Z1"))) == \
        ["ability_twice"]
    assert codes(STATE(), seats, "J", order(ab("joker", "ace", target="J"))) == ["self_target"]
    # the ace a role gave can't pay a price (FM-5.7), but it is a free +2 armour from the Sleeve
    assert codes(r.state, r.seats, "L", play("sniper_rifle", target="J"), N2) == ["price_unpaid"]
    assert ok(r.state, r.seats, "L", plays({"card": "ace", "from": "sleeve"}, {"card": "tail", "target": "J"}), N2)


def test_FM_3_3_joker_learns_the_secret_roles_of_the_dead_only_he_is_told():
    seats = T(S("J", "joker", hand="tail tail"), S("X", "mafia_killer", hand="tail"), S("Y", "doctor", hand="tail"),
              S("L", "sheriff", hand="breach tail"), S("J2", "joker", hand="tail"), S("V", "vigilante", hand="breach"))
    r = go(STATE(), seats, {"L": play("breach", target="X")})
    assert r.died == ["X"]
    assert r.told("J", "fm.joker_knows") == [{"player": "X", "role": "mafia_killer"}]
    assert r.told("J2", "fm.joker_knows") == [{"player": "X", "role": "mafia_killer"}]
    assert {(e.visibility, e.seat) for e in r.of_kind("fm.joker_knows")} == {("seat", r.id("J")), ("seat", r.id("J2"))}
    assert all("fm.joker_knows" not in r.told_kinds(n) for n in ("X", "Y", "L", "V", "Z1", "Z2"))
    # a joker who dies that phase learns nothing more
    r = go(STATE(), seats, {"L": play("breach", target="Y"), "V": play("breach", target="J2")})
    assert sorted(r.died) == ["J2", "Y"] and r.told("J2", "fm.joker_knows") == []
    assert r.told("J", "fm.joker_knows") == [{"player": "Y", "role": "doctor"}, {"player": "J2", "role": "joker"}]


def test_FM_3_3_joker_right_mapping_wins_and_leaves_the_game_goes_on():
    seats = table(S("J", "joker", hand="tail", sleeve="role:ace"), S("K", "mafia_killer", hand="tail"),
                  S("L", "sheriff", hand="breach tail", sleeve="role:ace"), S("D", "doctor", hand="tail", alive=False),
                  S("Z1", "judge", hand="tail"))
    mapping = {"K": "mafia_killer", "L": "sheriff", "D": "doctor", "Z1": "judge"}
    res = instant(STATE(), seats, "J", phase=D1, ability="joker", mode="guess", mapping=mapping)
    assert res.problems == [] and res.alive == {1: False} and res.finished is None
    assert res.state["fm"]["left"] == {"1": "won"} and abilities.is_left(res.state, 1) == "won"
    assert [(e.kind, e.visibility) for e in res.events] == [("fm.t_joker_guess", "master"),
                                                           ("fm.joker_left", "public")]
    assert res.events[1].data == {"player": "J", "right": True}
    assert res.seat_data == {}  # every ace stays
    seats2 = after(seats, res)
    # out of the game like the dead: no abilities, no target
    assert problem_codes(instant(res.state, seats2, "J", ability="joker", mode="guess", mapping=mapping)) == \
        ["ability_left"]
    assert codes(res.state, seats2, "L", play("breach", target="J"), N2) == ["dead_target"]
    # the game goes on; when the Law wins, he is among the winners
    end = go(res.state, seats2, {"L": play("breach", target="K")}, phase=N2)
    assert end.winners == ["law", "joker"] and end.winning == ["J", "L", "D", "Z1"]


def test_FM_3_3_joker_wrong_mapping_leaves_and_every_ace_in_the_game_vanishes():
    seats = T(S("J", "joker", hand="tail ace", sleeve="role:ace tail"),
              S("K", "mafia_killer", hand="tail", sleeve="role:ace role:ace bunker"),
              S("L", "sheriff", hand="tail"), S("D", "doctor", hand="tail", sleeve="role:ace", alive=False))
    mapping = {"K": "mafia_killer", "L": "doctor", "D": "doctor", "Z1": "judge", "Z2": "mafia_advisor"}
    res = instant(STATE(), seats, "J", phase=N1, ability="joker", mode="guess", mapping=mapping)
    assert res.problems == [] and res.alive == {1: False} and res.state["fm"]["left"] == {"1": "lost"}
    seats2 = after(seats, res)
    aces = {s.name: [i.kind for i in cards(s).hand + cards(s).sleeve if i.kind == "ace"] for s in seats2}
    assert aces == {n: [] for n in ("J", "K", "L", "D", "Z1", "Z2")}
    assert cards(seat(seats2, "K")).sleeve_kinds() == ["bunker"] and cards(seat(seats2, "J")).hand_kinds() == ["tail"]
    vanish = [e.data for e in res.events if e.kind == "fm.t_aces_vanish"]
    assert vanish == [{"layer": "instant", "step": "aces_vanish", "player": "J", "count": 2},
                      {"layer": "instant", "step": "aces_vanish", "player": "K", "count": 2},
                      {"layer": "instant", "step": "aces_vanish", "player": "D", "count": 1}]
    assert [e.data for e in res.events if e.kind == "fm.joker_left"] == [{"player": "J", "right": False}]
    # he lost: when the Law wins later he is no winner
    state = res.state
    assert victory.check_victory(seats2, {s.id: s.name in ("L", "Z1") for s in seats2}, state["fm"])[1].winners \
        == ["law"]


def test_FM_3_3_joker_mapping_must_be_complete_and_name_secret_roles():
    seats = T(S("J", "joker", hand="tail"), S("K", "mafia_killer", hand="tail"))
    res = instant(STATE(), seats, "J", ability="joker", mode="guess", mapping={"K": "mafia_killer"})
    assert res.problems == [("mapping_incomplete", "mapping", {"missing": "Z1, Z2"})] and res.alive == {}
    res = instant(STATE(), seats, "J", ability="joker", mode="guess",
                  mapping={"K": "mafia_killer", "Z1": "judge", "Z2": "godfather"})
    assert problem_codes(res) == ["mapping_role"] and res.state["fm"] == {}
    assert problem_codes(instant(STATE(), seats, "K", ability="joker", mode="guess", mapping={})) == \
        ["not_your_ability"]


def test_FM_3_3_joker_guess_is_checked_for_victory_at_once():
    # FM-10.6: his leaving leaves the maniac alone
    seats = table(S("J", "joker", hand="tail"), S("N", "maniac", hand="tail"), S("L", "judge", hand="tail",
                                                                                  alive=False))
    res = instant(STATE(), seats, "J", ability="joker", mode="guess", mapping={"N": "maniac", "L": "judge"})
    assert res.finished is not None and res.finished.winners == ["maniac", "joker"]
    assert set(res.finished.winning_seats) == {1, 2}
    # the shell finishes the game with that outcome; a wrong guess that leaves nobody able to win ends it too
    res = instant(STATE(), seats, "J", ability="joker", mode="guess", mapping={"N": "joker", "L": "judge"})
    assert res.finished is not None and res.finished.winners == ["maniac"]
    alive = table(S("J", "joker", hand="tail"), S("N", "maniac", hand="tail"), S("L", "judge", hand="tail"))
    assert instant(STATE(), alive, "J", ability="joker", mode="guess",
                   mapping={"N": "maniac", "L": "judge"}).finished is None


def test_FM_3_3_joker_sole_survivor_loses():
    seats = table(S("J", "joker", hand="breach tail"), S("X", "mafia_boss", hand="tail"),
                  S("L", "judge", hand="tail", alive=False))
    r = run(STATE(), seats, {"J": play("breach", target="X")})
    assert r.alive("J") and r.winners == [] and r.winning == []
    assert r.public("fm.victory") == [{"winner": "none", "players": []}]


# ===================================================================================================== FM-3.3 hero


def test_FM_3_3_hero_never_deals_damage_damage_cards_and_accusation_refused():
    seats = T(S("H", "hero", hand="pistol breach martial_art ambush accusation tail", sleeve="poison sniper_rifle",
                deck="tail"), S("K", "mafia_killer", hand="tail tail"))
    for card in ("pistol", "breach", "martial_art", "ambush"):
        assert codes(STATE(), seats, "H", play(card, target="K")) == ["hero_no_damage"], card
    assert codes(STATE(), seats, "H", play("poison", "sleeve", target="K")) == ["hero_no_damage"]
    assert codes(STATE(), seats, "H", play("accusation", target="K", named_card="pistol"), D1) == ["hero_no_damage"]
    assert no(STATE(), seats, "H", play("pistol", target="K"))[0][:2] == ("FM-3.3", "plays.0.card")
    # at L0 too (an order that skipped the check is voided, the target takes nothing)
    r = go(STATE(), seats, {"H": play("pistol", target="K")}, validate=False)
    assert reasons(r, "H") == ["hero_no_damage"] and r.hand("K") == ["tail", "tail"]


def test_FM_3_3_hero_night_ability_only_without_a_sleeve_play_one_of_armour_or_mark():
    seats = T(S("H", "hero", hand="tail tail", sleeve="role:oracle ace"), S("K", "mafia_killer", hand="tail tail"),
              S("L", "judge", hand="tail"))
    armour = ab("hero", "armour", target="L")
    assert codes(STATE(), seats, "H", order(armour, plays_=[{"card": "oracle", "from": "sleeve", "target": "K"}])) \
        == ["hero_sleeve_play"]
    assert codes(STATE(), seats, "H", order(armour, plays_=[{"card": "ace", "from": "sleeve"}])) == \
        ["hero_sleeve_play"]  # any Sleeve card, free ones too ("if he plays no Sleeve card")
    assert ok(STATE(), seats, "H", order(armour, plays_=[{"card": "tail", "target": "K"}]))  # a Hand play is fine
    assert codes(STATE(), seats, "H", order(armour, ab("hero", "mark", target="K", guess="mafia_killer"))) == \
        ["ability_twice"]
    assert codes(STATE(), seats, "H", order(ab("hero", "armour", target="H"))) == ["self_target"]
    assert codes(STATE(), seats, "H", order(armour), D1) == ["ability_night_only"]
    assert codes(STATE(), seats, "H", order(ab("hero", "mark", target="K", guess="sheriff"))) == ["hero_guess"]
    assert codes(STATE(), seats, "H", order(ab("hero", "mark", target="K"))) == ["hero_guess"]
    r = go(STATE(), seats, {"H": order(armour)})
    assert r.trace("armour") == [{"layer": "L4", "step": "armour", "player": "L", "amount": 3, "card": None,
                                  "source": "H"}]


def test_FM_3_3_hero_mark_is_placed_on_a_right_guess_and_he_is_not_told_whether_it_was():
    seats = T(S("H", "hero", hand="tail tail"), S("K", "mafia_killer", hand="tail tail"),
              S("B", "mafia_boss", hand="tail tail"))
    r = go(STATE(), seats, {"H": order(ab("hero", "mark", target="K", guess="mafia_killer"))})
    assert r.fm["hero_marks"] == {"2": 1}
    assert r.told("H") == [{"target": "K", "guess": "mafia_killer"}]  # fm.hero_named, no "right"
    assert r.trace("hero_mark") == [{"layer": "L7", "step": "hero_mark", "player": "H", "target": "K",
                                     "guess": "mafia_killer", "right": True}]
    assert r.told("K") == []
    wrong = go(STATE(), seats, {"H": order(ab("hero", "mark", target="B", guess="mafia_killer"))})
    assert "hero_marks" not in wrong.fm and wrong.told("H") == [{"target": "B", "guess": "mafia_killer"}]


def _hero_table(*extra: S):
    return table(S("H", "hero", hand="tail tail tail"), S("L", "judge", hand="tail tail"),
                 S("K", "mafia_killer", hand="pistol pistol tail tail"), S("B", "mafia_boss", hand="tail tail tail"),
                 S("L2", "doctor", hand="tail tail tail accusation", deck="tail tail"),
                 S("L3", "sheriff", hand="tail tail tail"), *extra)


def test_FM_3_3_hero_goal_a_his_armour_saved_a_law_members_life():
    seats = _hero_table()
    r = go(STATE(), seats, {"H": order(ab("hero", "armour", target="L")), "K": play("pistol", target="L")})
    assert r.alive("L") and r.hand("L") == ["tail", "tail"]
    assert r.fm["hero_goals"] == {"1": ["armour"]}
    assert r.told("H", "fm.hero_goal") == [{"goal": "armour"}]
    assert [(e.visibility, e.seat) for e in r.of_kind("fm.hero_goal")] == [("seat", 1)]
    assert r.trace("hero_goal") == [{"layer": "L8", "step": "hero_goal", "player": "H", "goal": "armour"}]
    # not saved: he would have lived anyway, or died anyway (breach ignores armour), or is no Law member
    fat = go(STATE(), seats, {"H": order(ab("hero", "armour", target="L3")), "K": play("pistol", target="L3")})
    assert "hero_goals" not in fat.fm and fat.told("H", "fm.hero_goal") == []
    pierce = table(S("H", "hero", hand="tail"), S("L", "judge", hand="tail tail"), S("K", "mafia_killer",
                   hand="breach tail"), S("L2", "doctor", hand="tail"), S("L3", "doctor", hand="tail"))
    gone = go(STATE(), pierce, {"H": order(ab("hero", "armour", target="L")), "K": play("breach", target="L")})
    assert gone.died == ["L"] and "hero_goals" not in gone.fm
    maf = table(S("H", "hero", hand="tail"), S("B", "mafia_boss", hand="tail tail"),
                S("K", "mafia_killer", hand="pistol tail"), S("L", "judge", hand="tail"),
                S("L2", "doctor", hand="tail"))
    maf = go(STATE(), maf, {"H": order(ab("hero", "armour", target="B")), "K": play("pistol", target="B")})
    assert maf.alive("B") and "hero_goals" not in maf.fm


def test_FM_3_3_hero_goal_b_a_marked_mafioso_dies_as_a_result_of_a_day():
    seats = _hero_table()
    n1 = go(STATE(), seats, {"H": order(ab("hero", "mark", target="K", guess="mafia_killer")),
                             "K": play("pistol", target="L3")})
    assert "hero_goals" not in n1.fm
    # Day 1: the accusation is right (K played a pistol last night): 4 damage, K has 4 cards → dies
    d1 = go(n1.state, n1.seats, {"L2": play("accusation", target="K", named_card="pistol")}, phase=D1)
    assert d1.died == ["K"]
    assert d1.fm["hero_goals"] == {"1": ["mark"]} and d1.told("H", "fm.hero_goal") == [{"goal": "mark"}]
    # an unmarked mafioso's death by day is no goal
    d1b = go(n1.state, n1.seats, {"L2": play("accusation", target="B", named_card="pistol")}, phase=D1)
    assert "hero_goals" not in d1b.fm


def test_FM_3_3_hero_goal_b_not_for_a_marked_mafioso_dying_at_night():
    seats = _hero_table(S("V", "vigilante", hand="breach breach"))
    marked = go(STATE(), seats, {"H": order(ab("hero", "mark", target="B", guess="mafia_boss"))})
    n2 = go(marked.state, marked.seats, {"V": play("breach", target="B")}, phase=N2, validate=False)
    assert n2.hand("B") == ["tail"]
    n3 = go(n2.state, n2.seats, {"V": play("breach", target="B")}, phase=N3)
    assert n3.died == ["B"] and "hero_goals" not in n3.fm


def test_FM_3_3_hero_goals_not_counted_while_living_mafia_and_traitor_are_at_least_the_rest():
    # after the phase: K, B, T (3) against H, L (2)
    seats = table(S("H", "hero", hand="tail tail tail"), S("L", "judge", hand="tail tail"),
                  S("K", "mafia_killer", hand="pistol tail"), S("B", "mafia_boss", hand="tail"),
                  S("T", "traitor", hand="tail"))
    r = go(STATE(), seats, {"H": order(ab("hero", "armour", target="L")), "K": play("pistol", target="L")})
    assert r.alive("L") and "hero_goals" not in r.fm and r.told("H", "fm.hero_goal") == []
    assert r.trace("hero_goal_not_counted") == [{"layer": "L8", "step": "hero_goal_not_counted",
                                                 "goals": ["armour"]}]
    # one Law member more: 3 against 3 is still "at least"
    r = go(STATE(), table(*[S(s.name, s.data["secret_role"], hand=cards(s).hand_kinds()) for s in seats],
                          S("L4", "doctor", hand="tail")),
           {"H": order(ab("hero", "armour", target="L")), "K": play("pistol", target="L")})
    assert "hero_goals" not in r.fm
    # two more: 3 against 4 counts
    r = go(STATE(), table(*[S(s.name, s.data["secret_role"], hand=cards(s).hand_kinds()) for s in seats],
                          S("L4", "doctor", hand="tail"), S("L5", "doctor", hand="tail")),
           {"H": order(ab("hero", "armour", target="L")), "K": play("pistol", target="L")})
    assert r.fm["hero_goals"] == {"1": ["armour"]}


def test_FM_3_3_hero_both_goals_wins_at_once_and_leaves_the_game_goes_on():
    seats = _hero_table()
    state = STATE({"hero_goals": {"1": ["mark"]}})
    r = go(state, seats, {"H": order(ab("hero", "armour", target="L")), "K": play("pistol", target="L")})
    assert r.fm["hero_goals"] == {"1": ["mark", "armour"]} and r.fm["left"] == {"1": "won"}
    assert not r.alive("H") and r.died == ["H"] and r.res.alive[1] is False
    assert r.public("fm.hero_left") == [{"player": "H"}] and r.public("fm.death") == []
    assert r.outcome is None and r.res.next_phase is not None  # the game goes on
    assert state["fm"] == {"hero_goals": {"1": ["mark"]}}  # the input state is untouched
    # and he wins whoever wins at the end
    winner, outcome = victory.check_victory(r.seats, {s.id: s.name in ("K",) for s in r.seats}, r.fm)
    assert winner == "mafia" and outcome.winners == ["mafia", "hero"] and 1 in outcome.winning_seats


def test_FM_3_3_hero_both_goals_met_after_his_death_still_win():
    seats = table(S("H", "hero", hand="tail", alive=False), S("L", "judge", hand="tail"),
                  S("K", "mafia_killer", hand="tail tail tail tail"), S("B", "mafia_boss", hand="tail tail"),
                  S("L2", "doctor", hand="accusation tail"), S("L3", "sheriff", hand="tail"),
                  S("L4", "sheriff", hand="tail"))
    state = STATE({"hero_goals": {"1": ["armour"]}, "hero_marks": {"3": 1}, "last_night": {"3": ["pistol"]}})
    d1 = go(state, seats, {"L2": play("accusation", target="K", named_card="pistol")}, phase=D1)
    assert d1.died == ["K"] and d1.fm["hero_goals"] == {"1": ["armour", "mark"]} and d1.fm["left"] == {"1": "won"}
    assert d1.public("fm.hero_left") == []  # a dead hero does not leave again
    winner, outcome = victory.check_victory(d1.seats, {s.id: s.name == "B" for s in d1.seats}, d1.fm)
    assert outcome.winners == ["mafia", "hero"]


def test_FM_3_3_hero_wins_with_law_if_alive_or_with_a_goal_met():
    seats = table(S("H", "hero", hand="tail"), S("L", "judge", hand="tail"), S("K", "mafia_killer", hand="tail"))
    law_alive = {1: True, 2: True, 3: False}
    assert victory.check_victory(seats, law_alive, {})[1].winners == ["law", "hero"]
    dead_hero = {1: False, 2: True, 3: False}
    assert victory.check_victory(seats, dead_hero, {})[1].winners == ["law"]
    assert victory.check_victory(seats, dead_hero, {"hero_goals": {"1": ["mark"]}})[1].winners == ["law", "hero"]
    assert victory.check_victory(seats, dead_hero, {"hero_goals": {"1": ["mark"]}})[1].winning_seats == [2, 1]
    mafia_won = {1: True, 2: False, 3: True}  # alive and with a goal, he loses with the Law
    assert victory.check_victory(seats, mafia_won, {"hero_goals": {"1": ["mark"]}})[1].winners == ["mafia"]


# =================================================================================================== FM-3.3 traitor


def test_FM_3_3_traitor_wins_with_the_mafia():
    seats = table(S("M", "mafia_killer", hand="tail", alive=False), S("T", "traitor", hand="breach tail"),
                  S("X", "sheriff", hand="tail"), S("H", "hero", hand="tail tail"))
    r = run(STATE(), seats, {"T": play("breach", target="X")})
    assert r.winners == ["mafia"] and r.winning == ["M", "T"]  # the living hero loses with the Law
    # while the traitor lives, the Law has not won
    seats = table(S("L", "sheriff", hand="breach tail"), S("K", "mafia_killer", hand="tail"),
                  S("T", "traitor", hand="tail"))
    assert run(STATE(), seats, {"L": play("breach", target="K")}).winners is None
    # and he counts with the Mafia against the hero's goals
    assert abilities.mafia_plus_traitor_at_least_rest(seats, {1: True, 2: False, 3: True})


# ======================================================================================================== FM-8 roles


def test_FM_8_cultist_pays_up_to_two_price_cards_per_phase_from_the_hand():
    seats = T(S("C", hand="contract advice hack tail", sleeve="bunker coffee", deck="witness arson",
                public="cultist"), S("K", "mafia_killer", hand="tail " * 6))
    contract = {"card": "contract", "target": "K", "pay_hand": ["advice", "hack"]}
    clean = ok(STATE(), seats, "C", plays(contract))
    assert clean["plays"][0]["pay_hand"] == [cards(seat(seats, "C")).hand[1].uid, cards(seat(seats, "C")).hand[2].uid]
    r = go(STATE(), seats, {"C": plays(contract)})
    assert r.told("C", "fm.paid") == [{"card": "contract", "cards": ["bunker", "advice", "hack"]}]
    assert r.sleeve("C") == ["coffee"] and len(r.hand("K")) == 1
    assert r.hand("C") == ["tail", "witness"]  # the played card is replaced, price cards are not (FM-5.4)
    # three from the Hand: too many
    three = {"card": "contract", "target": "K", "pay_hand": ["advice", "hack", "tail"]}
    assert codes(STATE(), seats, "C", plays(three)) == ["bad_pay_hand"]
    # two per phase in all
    two_plays = T(S("C", hand="sniper_rifle advice hack tail", sleeve="dossier", public="cultist"),
                  S("K", "mafia_killer", hand="tail"))
    both = plays({"card": "sniper_rifle", "target": "K", "pay_hand": ["advice"]},
                 {"card": "dossier", "from": "sleeve", "target": "K", "pay_hand": ["hack", "tail"]})
    assert codes(STATE(), two_plays, "C", both) == ["bad_pay_hand"]
    fine = plays({"card": "sniper_rifle", "target": "K", "pay_hand": ["advice"]},
                 {"card": "dossier", "from": "sleeve", "target": "K", "pay_hand": ["hack"]})
    assert codes(STATE(), two_plays, "C", fine) == ["price_unpaid"]  # dossier's second card: nothing left
    # nobody else pays from the Hand
    other = T(S("C", hand="contract advice hack", sleeve="bunker", public="spendthrift"), S("K", "mafia_killer"))
    assert codes(STATE(), other, "C", plays(contract)) == ["bad_pay_hand"]


def test_FM_8_looter_copies_a_dead_characters_sleeve_once_per_game_the_copies_cant_pay():
    seats = T(S("M", hand="sniper_rifle tail", public="looter"),
              S("D", "sheriff", hand="tail", sleeve="coffee role:witness", alive=False),
              S("E", "doctor", hand="tail", sleeve="bunker", alive=False), S("K", "mafia_killer", hand="tail"))
    assert problem_codes(instant(STATE(), seats, "M", ability="looter", target="K")) == ["looter_dead"]
    assert problem_codes(instant(STATE(), seats, "M", ability="looter")) == ["looter_dead"]
    res = instant(STATE(), seats, "M", phase=D1, ability="looter", target="D")
    assert res.problems == [] and res.state["fm"]["used"] == {"1": ["looter"]}
    mine = cards(after(seats, res)[0])
    assert [(i.kind, i.provenance) for i in mine.sleeve] == [("coffee", "ability"), ("witness", "ability")]
    assert list(res.seat_data) == [1]  # the dead keep theirs: copies
    assert res.events[0].data == {"target": "D", "cards": ["coffee", "witness"]} and \
        res.events[0].visibility == "seat" and res.events[0].seat == 1
    seats2 = after(seats, res)
    assert problem_codes(instant(res.state, seats2, "M", ability="looter", target="E")) == ["ability_spent"]
    assert codes(res.state, seats2, "M", play("sniper_rifle", target="K"), N2) == ["price_unpaid"]
    assert ok(res.state, seats2, "M", play("coffee", "sleeve"), N2)  # they play as usual


def test_FM_8_highlander_cap_of_6_counts_only_other_characters_cards_at_night():
    seats = T(S("A", hand="contract", sleeve="tail tail tail"), S("K", hand="sniper_rifle", sleeve="tail"),
              S("N", "maniac", hand="tail", sleeve="coffee"),
              S("H", "mafia_killer", hand="tail " * 12, public="highlander"))
    r = go(STATE(), seats, {"A": play("contract", target="H"), "K": play("sniper_rifle", target="H"),
                            "N": order(ab("maniac", "damage", pay="coffee", target="H"))})
    assert r.trace("highlander_cap") == [{"layer": "L5", "step": "highlander_cap", "player": "H", "amount": 8,
                                          "cap": 6}]
    assert r.trace("damage")[0]["damage"] == 6 + 2  # the maniac's discard is no card: not capped [house]
    assert len(r.hand("H")) == 12 - 8
    # at most 6 and no more: 6 from cards is not cut
    r = go(STATE(), seats, {"A": play("contract", target="H")})
    assert r.trace("highlander_cap") == [] and len(r.hand("H")) == 12 - 5


def test_FM_8_highlander_cap_cuts_the_capped_cards_not_the_other_damage():
    # 8 armour-piercing card damage (capped to 6) and the maniac's 2 (not capped, armour applies): 6 + 0 losses
    seats = T(S("A", hand="breach"), S("B", hand="breach"), S("C", hand="breach"), S("D", hand="breach"),
              S("N", "maniac", hand="tail", sleeve="coffee"),
              S("H", "mafia_killer", hand="bunker " + "tail " * 10, public="highlander"))
    r = go(STATE(), seats, {**{x: play("breach", target="H") for x in "ABCD"}, "H": play("bunker"),
                            "N": order(ab("maniac", "damage", pay="coffee", target="H"))})
    damage = r.trace("damage")[0]
    assert (damage["damage"], damage["pierce"], damage["armour"], damage["losses"]) == (8, 6, 2, 6)


def test_FM_8_highlander_no_cap_by_day_own_accusation_backfire_included():
    seats = T(S("A", hand="accusation"), S("B", hand="accusation"),
              S("H", "mafia_killer", hand="accusation " + "tail " * 11, public="highlander"),
              S("X", "doctor", hand="tail tail"))
    state = STATE({"last_night": {"3": ["pistol"]}})
    r = go(state, seats, {"A": play("accusation", target="H", named_card="pistol"),
                          "B": play("accusation", target="H", named_card="pistol"),
                          "H": play("accusation", target="X", named_card="pistol")}, phase=D1)
    assert r.trace("highlander_cap") == []
    assert r.trace("damage")[0]["player"] == "H" and r.trace("damage")[0]["damage"] == 4 + 4 + 2


def test_FM_8_spendthrift_cards_with_price_2_or_more_are_free_to_play():
    seats = T(S("P", hand="dossier pistol sniper_rifle tail", sleeve="tail tail bunker", deck="hack coffee",
                public="spendthrift"), S("K", "mafia_killer", hand="tail tail tail"))
    both = plays({"card": "dossier", "target": "K"}, {"card": "pistol", "target": "K"})
    assert len(ok(STATE(), seats, "P", both)["plays"]) == 2
    r = go(STATE(), seats, {"P": both})
    assert r.told("P", "fm.paid") == [{"card": "dossier", "cards": ["tail", "tail"]}]  # the price is still paid
    assert r.told("P", "fm.recon_faction")[0]["faction"] == "mafia" and r.hand("K") == ["tail"]
    assert r.hand("P") == ["sniper_rifle", "tail", "hack", "coffee"]  # both Hand plays are replaced
    # free next to the discard of two (FM-4.4) — and a price-1 card is not free
    assert ok(STATE(), seats, "P", plays({"card": "dossier", "target": "K"}, discard=["pistol", "tail"]))
    assert codes(STATE(), seats, "P", plays({"card": "sniper_rifle", "target": "K"},
                                            {"card": "pistol", "target": "K"})) == ["hand_slot_used"]
    other = T(S("P", hand="dossier pistol", sleeve="tail tail"), S("K", "mafia_killer", hand="tail"))
    assert codes(STATE(), other, "P", both) == ["hand_slot_used"]
    # only his deck's cards: a card a role gave him is not free
    given = T(S("P", sleeve="role:dossier bunker tail tail", public="spendthrift"),
              S("K", "mafia_killer", hand="tail"))
    two = plays({"card": "dossier", "from": "sleeve", "target": "K"}, {"card": "bunker", "from": "sleeve"})
    assert codes(STATE(), given, "P", two) == ["sleeve_slot_used"]
    deck_dossier = T(S("P", sleeve="dossier bunker tail tail", public="spendthrift"), S("K", "mafia_killer"))
    assert len(ok(STATE(), deck_dossier, "P", two)["plays"]) == 2


def test_FM_8_warrior_only_the_first_two_damage_discards_go_to_the_sleeve():
    seats = T(S("W", hand="advice pistol bunker coffee tail hack witness", public="warrior"),
              S("K", "mafia_killer", hand="sniper_rifle pistol pistol", sleeve="tail"))
    n1 = go(STATE(), seats, {"K": play("sniper_rifle", target="W")})
    assert n1.sleeve("W") == ["advice", "pistol"] and n1.discard("W") == ["bunker"]
    assert n1.hand("W") == ["coffee", "tail", "hack", "witness"]
    assert n1.fm["warrior_diverted"] == {"1": 2}
    assert n1.trace("losses")[0]["to_sleeve"] == 2
    n2 = go(n1.state, n1.seats, {"K": play("pistol", target="W")}, phase=N2)
    assert n2.sleeve("W") == ["advice", "pistol"] and n2.discard("W") == ["bunker", "coffee", "tail"]
    assert n2.trace("losses")[0]["to_sleeve"] == 0
    # one at a time: the first two of the game, whenever they come
    one = go(STATE(), seats, {"K": play("pistol", target="W")}, validate=False)
    assert one.sleeve("W") == ["advice", "pistol"]
    other = go(STATE(), table(S("W", hand="advice pistol bunker"), S("K", "mafia_killer", hand="pistol")),
               {"K": play("pistol", target="W")})
    assert other.sleeve("W") == [] and other.discard("W") == ["advice", "pistol"]


def test_FM_8_magician_first_rebuild_makes_the_bottom_two_cards_free():
    seats = T(S("F", hand="tail", public="magician"), S("O", hand="tail"))
    first = rebuild(STATE(), seats, "F")
    deck = cards(after(seats, first)[0]).deck
    assert len(deck) == 15 and [i.free for i in deck] == [False] * 13 + [True, True]
    assert first.state["fm"]["rebuilds"] == {"1": 1}
    # the second rebuild (the deck is empty again) makes nothing free
    seats2 = after(seats, first)
    emptied = seats2[0].data | {"cards": {**seats2[0].data["cards"], "deck": []}}
    seats3 = [SeatInfo(1, "F", 0, True, emptied), *seats2[1:]]
    second = rebuild(first.state, seats3, "F")
    assert not any(i.free for i in cards(after(seats3, second)[0]).deck)
    assert second.state["fm"]["rebuilds"] == {"1": 2}
    # nobody else's
    assert not any(i.free for i in cards(after(seats, rebuild(STATE(), seats, "O"))[1]).deck)


def test_FM_8_magician_free_bottom_cards_play_without_a_slot():
    seats = T(S("F", hand="tail", public="magician"), S("K", "mafia_killer", hand="tail tail tail"))
    rb = rebuild(STATE(), seats, "F", deck="bunker " * 15)
    c = cards(after(seats, rb)[0])
    c.hand, c.deck = c.deck, []  # as if he had drawn the whole deck
    s = [SeatInfo(1, "F", 0, True, {**seats[0].data, "cards": c.to_dict()}), *seats[1:]]
    free, paid = c.hand[-1], c.hand[0]
    two = plays({"card": "bunker", "uid": free.uid}, {"card": "bunker", "uid": paid.uid})
    assert [p["uid"] for p in ok(rb.state, s, "F", two)["plays"]] == [free.uid, paid.uid]
    three = plays({"card": "bunker", "uid": free.uid}, {"card": "bunker", "uid": paid.uid},
                  {"card": "bunker", "uid": c.hand[1].uid})
    assert codes(rb.state, s, "F", three) == ["hand_slot_used"]


def test_FM_8_idler_gets_3_armour_if_he_plays_no_card_at_night():
    seats = T(S("I", hand="tail tail bunker", public="idler"), S("K", "mafia_killer", hand="pistol pistol poison",
                                                                  sleeve="tail"))
    r = go(STATE(), seats, {"K": play("pistol", target="I")})
    assert r.hand("I") == ["tail", "tail", "bunker"]
    assert r.trace("armour") == [{"layer": "L4", "step": "armour", "player": "I", "amount": 3, "card": None,
                                  "source": "idler"}]
    layers = r.layers()
    assert layers == sorted(layers)
    r = go(STATE(), seats, {"K": play("pistol", target="I"), "I": play("bunker")})
    assert r.trace("damage")[0]["armour"] == 2  # his bunker only
    # the discard of two is no play: armour
    r = go(STATE(), seats, {"K": play("pistol", target="I"), "I": {"discard": ["tail", "tail"]}})
    assert r.trace("damage")[0]["armour"] == 3
    # not by day: the poison's tick hits
    n1 = go(STATE(), seats, {"K": play("poison", target="I")})
    assert n1.hand("I") == ["tail", "tail", "bunker"]
    d1 = go(n1.state, n1.seats, {}, phase=D1)
    assert d1.trace("armour") == [] and d1.hand("I") == ["tail", "bunker"]


def test_FM_8_scientist_discards_two_and_draws_replacements_once_per_game_at_night_even_while_playing():
    seats = T(S("S", hand="pistol advice tail hack", sleeve="bunker", deck="coffee witness arson stash",
                public="scientist"), S("K", "mafia_killer", hand="tail tail tail"))
    use = ab("scientist", discard=["advice", "tail"])
    full = order(use, plays_=[{"card": "pistol", "target": "K"}, {"card": "bunker", "from": "sleeve"}])
    r = go(STATE(), seats, {"S": full})
    assert r.hand("S") == ["hack", "coffee", "witness", "arson"]  # 3 replacements: pistol, advice, tail
    assert r.trace("discard_two") == [{"layer": "L1", "step": "discard_two", "player": "S",
                                       "cards": ["advice", "tail"]}]
    assert r.fm["used"] == {"1": ["scientist"]} and r.hand("K") == ["tail"]
    assert codes(r.state, r.seats, "S", order(ab("scientist", discard=["hack", "coffee"])), N2) == ["ability_spent"]
    assert codes(STATE(), seats, "S", order(use), D1) == ["ability_night_only"]
    assert codes(STATE(), seats, "S", order(ab("scientist", discard=["pistol", "advice"]),
                                            plays_=[{"card": "pistol", "target": "K"}])) == ["scientist_discard"]
    assert codes(STATE(), seats, "S", order(ab("scientist", discard=["advice"]))) == ["scientist_discard"]
    # next to the discard of two (FM-5.3) as well
    assert ok(STATE(), seats, "S", order(use, discard=["pistol", "hack"]))
    assert codes(STATE(), seats, "K", order(use)) == ["not_your_ability"]


def test_FM_8_banker_draws_one_card_of_each_rebuilt_deck_into_the_sleeve():
    seats = T(S("G", hand="sniper_rifle tail", sleeve="", public="banker"), S("K", "mafia_killer", hand="tail"))
    rb = rebuild(STATE(), seats, "G")
    s = after(seats, rb)
    c = cards(s[0])
    assert len(c.deck) == 14 and len(c.sleeve) == 1 and c.sleeve[0].provenance == "role"
    assert [e.data for e in rb.events if e.kind == "fm.drew_sleeve"] == [{"cards": c.sleeve_kinds()}]
    assert c.sleeve_kinds()[0] in DECK15.split()
    # a card the role put into the Sleeve can't pay a price (FM-8)
    assert codes(rb.state, s, "G", play("sniper_rifle", target="K"), N2) == ["price_unpaid"]
    # each rebuild
    empty = [SeatInfo(1, "G", 0, True, {**s[0].data, "cards": {**s[0].data["cards"], "deck": []}}), *s[1:]]
    assert len(cards(after(empty, rebuild(rb.state, empty, "G"))[0]).sleeve) == 2


def test_FM_8_psychic_sees_the_current_top_3_of_his_deck():
    from gm.modules.forum_mafia.module import MODULE

    seats = T(S("P", hand="pistol advice", deck="coffee witness arson stash hack", public="psychic"),
              S("K", "mafia_killer", hand="tail tail tail hack"))
    own = MODULE.own_seat_data(seat(seats, "P").data)
    assert own["deck_top"] == ["coffee", "witness", "arson"] and "deck" not in own["cards"]
    assert own["cards"]["deck_count"] == 5
    r = go(STATE(), seats, {"P": play("pistol", target="K")})  # he draws one
    assert MODULE.own_seat_data(seat(r.seats, "P").data)["deck_top"] == ["witness", "arson", "stash"]
    d1 = go(r.state, r.seats, {"K": play("hack", target="P")}, phase=D1)  # his deck is milled by 3
    assert MODULE.own_seat_data(seat(d1.seats, "P").data)["deck_top"] == ["hack"]
    assert "deck_top" not in MODULE.own_seat_data(seat(seats, "K").data)
    # after a rebuild it shows the new deck
    empty = [SeatInfo(1, "P", 0, True, {**seats[0].data, "cards": {**seats[0].data["cards"], "deck": []}}),
             *seats[1:]]
    assert MODULE.own_seat_data(empty[0].data)["deck_top"] == []
    rb = rebuild(STATE(), empty, "P")
    assert MODULE.own_seat_data(rb.seat_data[1])["deck_top"] == [i.kind for i in cards(after(empty, rb)[0]).deck[:3]]


def test_FM_8_monk_draws_1_when_he_ends_a_phase_with_1_or_2_hand_cards():
    def monk(hand: str, **orders):
        seats = T(S("M", hand=hand, deck="coffee witness", public="monk"),
                  S("K", "mafia_killer", hand="pistol breach tail", sleeve="tail"))
        return go(STATE(), seats, orders)

    assert monk("tail tail").hand("M") == ["tail", "tail", "coffee"]
    assert monk("tail").hand("M") == ["tail", "coffee"]
    assert monk("tail tail tail").hand("M") == ["tail", "tail", "tail"]
    hurt = monk("advice hack tail", K=play("pistol", target="M"))  # 3 - 2 = 1 → draws
    assert hurt.hand("M") == ["tail", "coffee"]
    assert hurt.trace("draw")[-1] == {"layer": "L8", "step": "draw", "player": "M", "card": None,
                                      "cards": ["coffee"], "source": "monk"}
    dead = monk("tail tail", K=play("breach", target="M"))  # 0 cards: no draw, he dies
    assert dead.died == ["M"] and dead.hand("M") == []


def test_FM_8_assassin_kills_a_character_with_exactly_one_hand_card_once_per_game():
    seats = T(S("A", hand="tail tail", public="assassin"), S("X", "mafia_killer", hand="coffee"),
              S("Y", "mafia_boss", hand="tail tail"), S("V", "doctor", hand="tail"))
    assert said(STATE(), seats, "A", order(ab("assassin", target="Y"))) == [
        ("FM-8", "abilities.0.target", "The assassin kills only a character with exactly 1 Hand card; Y has 2.")]
    # X plays coffee (draws 2 at the end of the phase): killed all the same, at the end of the phase
    r = go(STATE(), seats, {"A": order(ab("assassin", target="X")), "X": play("coffee")})
    assert r.died == ["X"] and r.public("fm.death") == [{"player": "X"}]
    assert r.trace("assassin") == [{"layer": "L5", "step": "assassin", "player": "A", "target": "X"}]
    steps = [d["step"] for d in r.trace()]
    assert steps.index("assassin") < steps.index("draw") < steps.index("death")
    assert r.fm["used"] == {"1": ["assassin"]}
    assert codes(r.state, r.seats, "A", order(ab("assassin", target="V")), D1) == ["ability_spent"]
    # by day too; at L0 a target who no longer holds exactly one card voids it (and it is not spent)
    assert go(STATE(), seats, {"A": order(ab("assassin", target="V"))}, phase=D1).died == ["V"]
    late = go(STATE(), seats, {"A": order(ab("assassin", target="Y"))}, validate=False)
    assert reasons(late, "A") == ["assassin_one_card"] and late.died == [] and "used" not in late.fm
    spent = go(r.state, r.seats, {"A": order(ab("assassin", target="V"))}, phase=D1, validate=False)
    assert reasons(spent, "A") == ["ability_spent"] and spent.died == []
    assert codes(STATE(), seats, "Y", order(ab("assassin", target="V"))) == ["not_your_ability"]


def test_FM_8_sociopath_untargetable_on_night_1_and_day_1_targetable_from_night_2():
    seats = T(S("So", "sheriff", hand="tail tail tail", public="sociopath"),
              S("K", "mafia_killer", hand="pistol accusation redirect tail", sleeve="tail tail tail"),
              S("N", "maniac", hand="tail", sleeve="coffee"), S("L", "judge", hand="tail tail"))
    assert said(STATE(), seats, "K", play("pistol", target="So")) == [
        ("FM-7.6", "plays.0.target", "So (sociopath) cannot be targeted during Night 1 and Day 1.")]
    assert codes(STATE(), seats, "K", play("accusation", target="So", named_card="pistol"), D1) == ["untargetable"]
    assert codes(STATE(), seats, "K", play("redirect", targets=["L", "So"])) == ["untargetable"]
    assert codes(STATE(), seats, "N", order(ab("maniac", "damage", pay="coffee", target="So"))) == ["untargetable"]
    assert codes(STATE(), seats, "N", order(ab("maniac", "damage", pay="coffee", target="So")), D1) == \
        ["ability_night_only"]
    opts = order_options(state=STATE(), phase=PhaseInfo(*N1), seat=seat(seats, "K"), seats=seats)
    assert "So" not in [t["name"] for t in opts["targets"]]
    # from Night 2 he is a target like anyone
    assert ok(STATE(), seats, "K", play("pistol", target="So"), N2)
    r = go(STATE(), seats, {"N": order(ab("maniac", "damage", pay="coffee", target="So"))}, phase=N2)
    assert r.hand("So") == ["tail"]
    opts = order_options(state=STATE(), phase=PhaseInfo(*N2), seat=seat(seats, "K"), seats=seats)
    assert "So" in [t["name"] for t in opts["targets"]]


def test_FM_8_geek_gets_any_collection_card_into_the_sleeve_once_per_game():
    seats = T(S("G", hand="tail tail", sleeve="tail", public="geek"), S("K", "mafia_killer", hand="tail tail"),
              S("L", "doctor", hand="accusation tail tail"))
    for special in ("ace", "mulligan", "dummy", "godfather", None):
        assert problem_codes(instant(STATE(), seats, "G", ability="geek", card=special)) == ["geek_card"], special
    res = instant(STATE(), seats, "G", phase=D1, ability="geek", card="bunker")
    assert res.problems == [] and res.state["fm"]["used"] == {"1": ["geek"]}
    s = after(seats, res)
    assert [(i.kind, i.provenance) for i in cards(s[0]).sleeve] == [("tail", "deck"), ("bunker", "ability")]
    assert [(e.kind, e.data) for e in res.events] == [
        ("fm.geek_card", {"cards": ["bunker"]}),
        ("fm.t_geek_card", {"layer": "instant", "step": "geek_card", "player": "G", "cards": ["bunker"]})]
    assert problem_codes(instant(res.state, s, "G", ability="geek", card="pistol")) == ["ability_spent"]
    assert problem_codes(instant(STATE(), seats, "K", ability="geek", card="pistol")) == ["not_your_ability"]
    # it plays like any card but is no ground for an accusation (FM-8)
    n2 = go(res.state, s, {"G": play("bunker", "sleeve")}, phase=N2)
    assert n2.fm["last_night"] == {}
    d2 = go(n2.state, n2.seats, {"L": play("accusation", target="G", named_card="bunker")}, phase=D2)
    assert d2.public("fm.accusation")[0]["hit"] is False


# ============================================================================================ FM-4.7/4.8 rebuilding


def test_FM_4_7_rebuild_only_with_an_empty_deck_until_then_draws_give_mulligans():
    seats = T(S("R", "mafia_boss", hand="pistol", deck="hack"), S("K", "sheriff", hand="tail tail tail"))
    res = rebuild(STATE(), seats, "R")
    assert res.problems == [("deck_not_empty", "deck", {"count": 1})] and res.seat_data == {} and res.events == []
    r = go(STATE(), seats, {"R": play("pistol", target="K")})  # draws the last card
    assert r.hand("R") == ["hack"] and r.deck("R") == []
    n2 = go(r.state, r.seats, {"R": play("hack", target="K")}, phase=D1)
    assert n2.hand("R") == ["mulligan"]  # FM-4.7: an empty deck gives mulligans
    rb = rebuild(n2.state, n2.seats, "R", seed=7)
    s = after(n2.seats, rb)
    c = cards(seat(s, "R"))
    assert sorted(i.kind for i in c.deck) == sorted(DECK15.split()) and c.hand_kinds() == ["mulligan"]
    assert [i.kind for i in c.deck] == [i.kind for i in cards(seat(after(n2.seats, rebuild(
        n2.state, n2.seats, "R", seed=7)), "R")).deck]  # shuffled with the injected rng
    assert seat(s, "R").data["deck_list"] == [{"kind": k} for k in DECK15.split()]
    assert [(e.kind, e.visibility) for e in rb.events] == [("fm.rebuilt", "seat"), ("fm.t_rebuilt", "master")]
    assert rb.events[0].data == {"count": 15} and rb.state["fm"]["rebuilds"] == {"1": 1}
    assert rebuild(rb.state, s, "R").problems == [("deck_not_empty", "deck", {"count": 15})]
    n3 = go(rb.state, s, {"R": play("mulligan")}, phase=N2)
    assert n3.hand("R") == [c.deck[0].kind]


# =========================================================================================== FM-6 layers and purity


def test_FM_6_abilities_go_through_the_layers_and_appear_in_the_trace():
    seats = table(S("N", "maniac", hand="advice pistol", sleeve="coffee bunker", deck="tail " * 5),
                  S("B", "mafia_boss", hand="pistol coffee", public="assassin"),
                  S("K", "mafia_killer", hand="pistol advice tail", public="scientist"),
                  S("H", "hero", hand="advice coffee"), S("J", "joker", hand="tail", joker_colours=["damage", "recon"]),
                  S("L", "sheriff", hand="tail"), S("L2", "judge", hand="tail tail"))
    orders = {"N": order(ab("maniac", "damage", pay="coffee", target="L")),
              "B": order(ab("assassin", target="J"), ab("mafia_boss", "message", target="K", text="бей шерифа")),
              "K": order(ab("scientist", discard=["advice", "tail"]), plays_=[{"card": "pistol", "target": "L"}]),
              "H": order(ab("hero", "armour", target="L")),
              "J": order(ab("joker", "ace", target="H"), ab("joker", "hr", target="B"))}
    r = go(STATE(), seats, orders)
    layers = r.layers()
    assert layers == sorted(layers)
    at = {(d["step"], d.get("player")): d["layer"] for d in r.trace()}
    assert at[("order", "N")] == "L0" and r.trace("order")[1]["abilities"] == [
        {"ability": "assassin", "mode": "", "target": "J"},
        {"ability": "mafia_boss", "mode": "message", "target": "K"}]
    assert at[("price", "N")] == "L1" and at[("discard_two", "K")] == "L1" and at[("armour", "L")] == "L4"
    assert at[("assassin", "B")] == "L5" and at[("ace", "J")] == "L6" and at[("recon", "J")] == "L7"
    assert at[("message", "B")] == "L8"
    assert r.trace("damage")[0]["sources"] == [{"player": "K", "card": "pistol", "amount": 2},
                                               {"player": "N", "card": "maniac", "amount": 2}]
    assert sorted(r.died) == ["J", "L"] and r.told("N", "fm.drew_sleeve") == [{"cards": ["tail", "tail"]}]
    assert r.fm["used"] == {"2": ["assassin", "mafia_message"], "3": ["scientist"]}


def test_FM_6_abilities_are_not_cards_arrest_does_not_cancel_them_redirect_does_not_move_them():
    seats = T(S("N", "maniac", hand="tail", sleeve="coffee"), S("A", "judge", hand="arrest redirect",
                                                                 sleeve="tail tail tail"),
              S("L", "doctor", hand="tail tail tail"), S("M", "sheriff", hand="tail tail tail"))
    use = order(ab("maniac", "damage", pay="coffee", target="L"))
    arrested = go(STATE(), seats, {"N": use, "A": play("arrest", target="N")})
    assert arrested.hand("L") == ["tail"]  # [house]
    redirected = go(STATE(), seats, {"N": use, "A": play("redirect", targets=["N", "M"])})
    assert redirected.hand("L") == ["tail"] and redirected.hand("M") == ["tail", "tail", "tail"]


def test_FM_6_abilities_never_change_the_state_they_are_given():
    seats = T(S("A", hand="tail tail", public="assassin"), S("X", "mafia_killer", hand="tail"),
              S("H", "hero", hand="tail tail"), S("L", "judge", hand="tail tail"),
              S("K", "mafia_boss", hand="pistol tail tail"))
    fm = {"used": {"1": ["geek"]}, "hero_goals": {"3": ["mark"]}, "hero_marks": {"5": 3}, "left": {}, "rebuilds": {}}
    state = STATE(copy.deepcopy(fm))
    r = go(state, seats, {"A": order(ab("assassin", target="X")), "H": order(ab("hero", "armour", target="L")),
                          "K": play("pistol", target="L")})
    assert r.fm["used"]["1"] == ["geek", "assassin"] and r.fm["hero_goals"]["3"] == ["mark", "armour"]
    assert state["fm"] == fm
    geek = T(S("G", hand="tail", public="geek"))
    state = STATE({"used": {"1": ["scientist"]}})
    res = instant(state, geek, "G", ability="geek", card="pistol")
    assert res.state["fm"]["used"] == {"1": ["scientist", "geek"]} and state["fm"] == {"used": {"1": ["scientist"]}}
    mafia = T(S("B", "mafia_boss", hand="tail"))
    state = STATE({"used": {"1": ["mafia_message"]}})
    rebuild(state, mafia, "B")
    assert state["fm"] == {"used": {"1": ["mafia_message"]}}


# ==================================================================================================== rendering

#: Every event kind the abilities emit (FM-3, FM-8, FM-4.7/4.8).
ABILITY_KINDS = {
    "fm.mafia_message", "fm.drew_sleeve", "fm.ace_received", "fm.hero_named", "fm.hero_goal", "fm.joker_knows",
    "fm.swapped", "fm.looted", "fm.geek_card", "fm.rebuilt", "fm.hero_left", "fm.joker_left", "fm.victory",
    "fm.voided", "fm.t_ace", "fm.t_hero_mark", "fm.t_assassin", "fm.t_hero_goal", "fm.t_hero_goal_not_counted",
    "fm.t_swapped", "fm.t_looted", "fm.t_geek_card", "fm.t_joker_guess", "fm.t_aces_vanish", "fm.t_rebuilt",
    "fm.t_order", "fm.t_price", "fm.t_armour", "fm.t_damage", "fm.t_discard_two", "fm.t_recon", "fm.t_message",
    "fm.t_message_lost", "fm.t_draw", "fm.t_highlander_cap", "fm.recon_role_colours", "fm.recon_jammed",
}
_RAN: list[bool] = []


def run_ability_tests() -> None:
    """Run every ``test_FM_`` test of this file once in this process, so that ``EMITTED`` holds their events
    whatever was selected (``test_resolution``'s rendering check calls it too)."""
    if not _RAN:
        for name, fn in sorted(globals().items()):
            if name.startswith("test_FM_") and callable(fn):
                fn()
        _RAN.append(True)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_ability_event_renders_without_placeholders(lang):
    from django.utils import translation

    from gm.modules.forum_mafia.module import MODULE

    run_ability_tests()
    assert ABILITY_KINDS <= set(EMITTED), ABILITY_KINDS - set(EMITTED)
    assert {d["reason"] for d in EMITTED["fm.voided"] if d.get("ability")} >= {"assassin_one_card", "ability_spent"}
    with translation.override(lang):
        for kind in sorted(ABILITY_KINDS):
            for data in EMITTED[kind]:
                text = MODULE.render_event(kind, data)
                assert "%(" not in text and text != kind and text.strip(), (kind, data, text)
        # every reason an ability can be refused with, as the player sees it
        for code in abilities.REASONS:
            params = {"ability": "maniac", "mode": "damage", "card": "pistol", "target": "K", "count": 2,
                      "missing": "A, B", "role": "godfather"}
            data = {"player": "A", "seat": 1, "card": None, "ability": "maniac", "reason": code,
                    "reason_params": params, "rule": abilities.REASONS[code][0]}
            text = MODULE.render_event("fm.voided", data)
            assert "%(" not in text and abilities.REASONS[code][0] in text, (code, text)
