"""Bloodwood's bots end their games (BW-22: only a declaration ends one): the declaration chance is flat for the first
steps and grows after, and simulated games on the pure engine end within the playtest's phase cap."""
from __future__ import annotations

import pytest

from gm.core import balance, registry
from gm.modules.bloodwood.bots import BOLDER_AFTER, CHANCES, DECLARE_MAX, BloodwoodPolicy, declare_chance


def test_BW_22_declare_chance_is_flat_then_grows_to_its_ceiling():
    assert declare_chance(1) == declare_chance(BOLDER_AFTER) == CHANCES["declare"]
    assert declare_chance(2 * BOLDER_AFTER) == pytest.approx(2 * CHANCES["declare"])
    assert CHANCES["declare"] < declare_chance(BOLDER_AFTER + 10) < declare_chance(BOLDER_AFTER + 20)
    assert declare_chance(100_000) == DECLARE_MAX


@pytest.mark.parametrize("players", [5, 12])
def test_BW_22_simulated_bot_games_end_by_a_declaration_within_the_playtest_cap(players):
    module = registry.get("bloodwood")
    policy = balance.policy_of(module)
    runs = [balance.play(module, policy, players=players, options={"leaders": True}, seed=balance.game_seed(3, i))
            for i in range(60)]
    assert {run.end for run in runs} == {"declaration"}
    assert max(run.phases for run in runs) < BloodwoodPolicy.phase_cap
