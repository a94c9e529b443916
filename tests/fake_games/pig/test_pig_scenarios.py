"""The core scenario runner's move steps and fixed dice, on the turn-based fake game ``pig``: a step is one move of
one player; ``dice:`` fixes the next die rolls through the phase's seeded RNG (the master's fixed-dice service, kept
in the phase's stored input so a replay rolls the same); dice left over fail the step."""
from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from gm.core import interventions, services
from gm.core.engine import FixedDice, phase_random
from gm.core.models import AuditEntry, Game
from gm.core.replay import replay_phase
from gm.core.scenario import ScenarioError, load_file, run_file
from gm.core.services import ServiceError
from tests.fake_games.pig.scenario import run

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
HEAD = "game: pig\nseed: 5\noptions: {target: 10}\nplayers: [Ann, Bob]\nsteps:\n"


def steps(text: str) -> dict:
    import yaml

    return yaml.safe_load(HEAD + textwrap.indent(textwrap.dedent(text), "  "))


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_pig_scenario_passes(path):
    result = run_file(path)
    assert result.passed, [str(f) for f in result.failures] or result.error


def test_fixed_dice_are_stored_with_the_phase_and_replay_the_same():
    outcome = run(load_file(SCENARIOS / "fixed_dice_race.yaml"), name="race")
    assert outcome.failures == []
    game = outcome.game
    phases = list(game.phases.order_by("ordinal"))
    # Each step's dice went into the stored input of the phase its move resolved; a move without dice rolls from
    # the seed.
    assert [p.state.get("dice") for p in phases] == [[4], [1], [6], None, None, [5], None]
    for phase in phases:
        assert replay_phase(phase.pk).identical, phase
    fixed = AuditEntry.objects.filter(game=game, action="dice_fix")
    assert [e.data["dice"] for e in fixed.order_by("pk")] == [[4], [1], [6], [5]]


def test_dice_left_over_fail_the_step():
    outcome = run(steps("""\
        - {player: Ann, move: roll, dice: [4, 5]}
        - {player: Ann, move: hold, dice: [3], expect: {scores: {Ann: 4}}}
    """), name="left")
    assert [(f.step, f.key, f.expected, f.actual) for f in outcome.failures] == [
        (1, "dice", "all used", [5]), (2, "dice", "all used", [3])]


def test_a_refused_move_is_a_failure_unless_expected_and_the_turn_stays():
    outcome = run(steps("""\
        - {player: Bob, move: roll}
        - {player: Bob, move: jump, expect: {rejected: [Bob], to_move: Ann}}
        - {deadline: true, expect: {to_move: Bob, next_phase: turn 2}}
    """), name="refused")
    assert [(f.step, f.key) for f in outcome.failures] == [(1, "orders of Bob")]


def test_an_invalid_file_names_the_place():
    with pytest.raises(ScenarioError, match="step 1, key dice"):
        run(steps("- {player: Ann, move: roll, dice: [7]}\n"), name="bad")
    with pytest.raises(ScenarioError, match="unknown player"):
        run(steps("- {player: Cid, move: roll}\n"), name="bad")


def test_fixed_dice_rng_takes_queued_dice_first_then_the_seed():
    plain, fixed = random.Random(9), FixedDice(9, [6, 6])
    assert [fixed.randint(1, 6), fixed.randint(1, 6)] == [6, 6]
    assert [fixed.randint(1, 6) for _ in range(5)] == [plain.randint(1, 6) for _ in range(5)]
    assert (fixed.fixed, fixed.seeded, fixed.queued) == (2, 5, [])
    other, same = FixedDice(3, [2]), random.Random(3)
    items, copy = list(range(10)), list(range(10))
    other.shuffle(items)
    same.shuffle(copy)
    assert items == copy  # fixing dice changes no other draw
    with pytest.raises(ValueError):
        FixedDice(1, [7]).randint(1, 6)
    assert type(phase_random(4)) is random.Random and isinstance(phase_random(4, [1]), FixedDice)


def test_only_the_master_fixes_dice_of_an_open_phase(master, players):
    game = services.game_create(master=master, module="pig", title="Pig", options={"target": 5}, rng_seed=1)
    services.game_open_signup(game=game, actor=master)
    for user in players[:2]:
        services.seat_join(game=game, user=user, display_name=user.username)
    with pytest.raises(ServiceError):
        interventions.phase_dice_fix(game=game, actor=master, dice=[3], reason="test")  # nothing open yet
    services.game_start(game=game, actor=master)
    game = Game.objects.get(pk=game.pk)
    with pytest.raises(ServiceError) as refused:
        interventions.phase_dice_fix(game=game, actor=players[0], dice=[3], reason="cheat")
    assert refused.value.code == "forbidden"
    for bad in ([0], "6", [True], [2] * 201):
        with pytest.raises(ServiceError):
            interventions.phase_dice_fix(game=game, actor=master, dice=bad, reason="test")
    phase = interventions.phase_dice_fix(game=game, actor=master, dice=[3, 4], reason="test")
    assert phase.state == {"dice": [3, 4]}
