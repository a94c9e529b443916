"""The pure engine interface and the test module's engine: no database, no Django setup needed."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from gm.core.engine import (
    Event,
    GameModule,
    PhaseInfo,
    PhaseSpec,
    RuleError,
    RuleViolation,
    SeatInfo,
    ViewerInfo,
    phase_rng,
)

ROOT = Path(__file__).resolve().parents[2]


def test_phase_rng_is_deterministic_and_distinct_per_phase():
    assert phase_rng(7, 1) == phase_rng(7, 1)
    assert len({phase_rng(7, n) for n in range(1, 200)}) == 199
    assert phase_rng(7, 1) != phase_rng(8, 1)
    assert 0 <= phase_rng(7, 1) < 2**63


@pytest.mark.parametrize(
    "kwargs",
    [
        {"visibility": "seat"},
        {"visibility": "public", "seat": 3},
        {"visibility": "group"},
        {"visibility": "public", "group": "room:1"},
        {"visibility": "everyone"},
    ],
)
def test_event_audience_must_be_consistent(kwargs):
    with pytest.raises(ValueError):
        Event("x", **kwargs)


def test_rule_violation_renders_every_error_with_params():
    exc = RuleViolation([RuleError("non-free cards: %(n)s of %(need)s", field="deck", rule="FM-4.3",
                                   params={"n": 14, "need": 15}), RuleError("second")])
    assert str(exc) == "non-free cards: 14 of 15; second"
    assert [e.field for e in exc.errors] == ["deck", ""]


def test_base_module_defaults_hide_state_from_players_and_refuse_options():
    module = GameModule()
    with pytest.raises(RuleViolation):
        module.validate_options({"x": 1})
    assert module.validate_options({}) == {}
    assert module.view(state={"secret": 1}, seats=[], viewer=ViewerInfo("player", seat=1)) == {}
    assert module.view(state={"secret": 1}, seats=[], viewer=ViewerInfo("master")) == {"secret": 1}
    assert module.view(state={"secret": 1}, seats=[], viewer=ViewerInfo("anonymous", revealed=True)) == {"secret": 1}
    assert module.phase_label("night", 2) == "night 2"
    assert module.render_event("unknown.kind", {}) == "unknown.kind"


class TestTallyEngine:
    """The test-only module, driven as a pure engine."""

    @pytest.fixture
    def module(self):
        from tests.fake_games.tally.module import MODULE

        return MODULE

    def seats(self):
        return [SeatInfo(id=10 + i, name=f"S{i}", position=i) for i in range(4)]

    def test_setup_is_reproducible_from_the_seed(self, module):
        """FM-3.5: dealing uses the recorded seed, so the master can reproduce it."""
        a = module.setup(seats=self.seats(), options={"rounds": 2}, rng=random.Random(5))
        b = module.setup(seats=self.seats(), options={"rounds": 2}, rng=random.Random(5))
        assert a.seat_data == b.seat_data and a.first_phase == PhaseSpec("round", 1)
        assert a.groups == {"team:odd": [11, 13]}

    def test_resolve_is_pure_and_reproducible(self, module):
        setup = module.setup(seats=self.seats(), options={"rounds": 2}, rng=random.Random(5))
        seats = [SeatInfo(id=s.id, name=s.name, position=s.position, data=setup.seat_data[s.id]) for s in self.seats()]
        orders = {10: {"number": 3}, 11: {"number": 0}}
        phase = PhaseInfo("round", 1, 1)
        r1 = module.resolve(state=setup.state, phase=phase, seats=seats, orders=orders, rng=random.Random(9))
        r2 = module.resolve(state=setup.state, phase=phase, seats=seats, orders=orders, rng=random.Random(9))
        assert r1 == r2
        assert r1.alive == {11: False}
        assert r1.next_phase == PhaseSpec("round", 2)
        assert setup.state["round"] == 1  # input not mutated
        audiences = {(e.kind, e.visibility) for e in r1.events}
        assert ("tally.trace", "master") in audiences and ("tally.your_number", "seat") in audiences

    def test_invalid_order_lists_every_broken_field(self, module):
        with pytest.raises(RuleViolation) as err:
            module.validate_order(state={}, phase=PhaseInfo("round", 1, 1), seat=self.seats()[0],
                                  payload={"number": True, "extra": 1})
        assert {e.field for e in err.value.errors} == {"number", "extra"}
