"""The pure engine: refusals and their check order (BV-14.4, BV-14.4a, BV-16, BV-16a). No database."""
from __future__ import annotations

import pytest

from .. import engine
from .engine_kit import Game

CARDS = ["king", "lamia", "queen", "revenant", "bride", "monk", "hunter", "beauty", *["vampire"] * 4]


@pytest.fixture
def light():
    g = Game(CARDS)
    g.votes({1: 12, 2: 12, 3: 12})  # P12 executed
    assert g.kind == "light"
    return g


def code(g, seat, *actions):
    return g.refusal(seat, {"actions": list(actions)})


def test_BV_16_every_code(light):
    g = light
    assert code(g, 12, {"role": "vampire"}) == "dead"
    assert g.refusal(1, {"vote": 2}) == "wrong_phase"
    assert code(g, 9, {"role": "king", "target": 1}) == "no_ability"
    assert code(g, 3, {"role": "queen", "abstain": True}) == "must_act"
    assert code(g, 1, {"role": "king"}) == "no_target"
    assert code(g, 1, {"role": "king", "target": 77}) == "unknown_target"
    assert code(g, 1, {"role": "king", "target": 12}) == "dead_target"
    assert code(g, 1, {"role": "king", "target": 1}) == "self_target"
    assert code(g, 4, {"role": "revenant", "targets": [1, 2]}) == "targets_count"
    assert code(g, 2, {"role": "lamia", "mode": "ambush", "target": 1}) == "bad_mode"
    g.state["self_used"] = ["3"]
    assert code(g, 3, {"role": "queen", "target": 3}) == "self_used"
    g.state["grooms"] = {"5": "9"}
    assert code(g, 5, {"role": "bride", "target": 10}) == "groom_chosen"
    night = Game(CARDS)
    assert night.refusal(1, {"vote": 1}) == "self_vote"
    night.state["no_vote"] = ["1"]
    assert night.refusal(1, {"vote": 2}) == "no_vote"
    night.votes({2: 3, 3: 4})
    assert night.refusal(2, {"vote": 5}) == "not_candidate"
    arbiter = Game(CARDS, arbiter_of_fates=True)
    arbiter.votes({1: 2, 3: 2})
    assert arbiter.refusal(3, {"vote": 4}) == "not_arbiter"


def test_BV_16_every_code_has_a_reason():
    assert set(engine.CODES) <= set(engine.REFUSALS)
    exc = engine.refuse("dead", "BV-7.6")
    violation = engine.violation(exc)
    assert violation.errors[0].rule == "BV-7.6" and violation.errors[0].params["code"] == "dead"
    assert "dead" in violation.errors[0].render()


def test_BV_16a_the_first_fault_in_check_order(light):
    g = light
    assert code(g, 12, {"role": "king", "target": 12}) == "dead"  # dead before dead_target
    assert code(g, 9, {"role": "king", "target": 9}) == "no_ability"  # before self_target
    assert code(g, 9, {"role": "king", "abstain": True}) == "no_ability"  # an abstention from a lacking ability
    for card in ("vampire", "hunter", "leader", "sly_warg"):
        assert code(g, 9, {"role": card}) == "no_ability"
    assert code(g, 4, {"role": "revenant", "targets": [1, 12]}) == "targets_count"  # before dead_target
    assert code(g, 4, {"role": "revenant", "targets": [1, 2, 12]}) == "dead_target"
    assert code(g, 3, {"role": "queen", "target": 12}) == "dead_target"


def test_BV_14_4_a_refused_order_changes_nothing(light):
    g = light
    with pytest.raises(engine.BvError):
        g.check(1, {"actions": [{"role": "king", "target": 1}]})
    assert g.state["last_targets"] == {}


def test_BV_14_4a_a_light_order_is_checked_action_by_action(light):
    g = light
    good = engine.validate_action(g.state, sid="6", action={"role": "monk", "target": 1})
    assert good == {"role": "monk", "targets": [1]}
    with pytest.raises(engine.BvError) as exc:
        engine.validate_action(g.state, sid="6", action={"role": "monk", "target": 6})
    assert exc.value.code == "self_target"
    gathering = engine.validate_action(g.state, sid="6", action={"role": "hunters", "target": 2})
    assert gathering == {"role": "hunters", "targets": [2]}
