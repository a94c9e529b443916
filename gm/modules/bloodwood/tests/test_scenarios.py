"""The scenario runner (``game: bloodwood``, scenario-format § bloodwood) and every file of ``scenarios/``, each
named after the rule it shows; plus invalid files (exit status 2)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gm.core.scenario import ScenarioError, run_file

from ..scenario import run

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bloodwood_scenario_passes(path):
    result = run_file(path)
    assert result.passed, [str(f) for f in result.failures] or result.error


def base(**changes) -> dict:
    data = yaml.safe_load((SCENARIOS / "BW-9a_bitten_carrier_passes_the_mark.yaml").read_text(encoding="utf-8"))
    data.update(changes)
    return data


@pytest.mark.parametrize("change,place", [
    ({"players": base()["players"][:4]}, "players"),
    ({"decks": {"night": ["vaccine"]}}, "players"),
    ({"start": {"to_move": "Боря", "starter": "Аня", "turns_done": 0}}, "players"),
    ({"steps": [{"player": "Аня", "play": "bite", "discard": "bite"}]}, "step 1"),
    ({"steps": [{"play": "bite"}]}, "step 1"),
    ({"steps": [{"player": "Кто", "play": "bite"}]}, "step 1, key player"),
    ({"colour": 1}, ""),
])
def test_BW_22g_invalid_files_are_refused_before_anything_is_built(change, place):
    with pytest.raises(ScenarioError) as exc:
        run(base(**change), name="bad")
    assert exc.value.place == place


def test_a_failed_expectation_is_reported_with_expected_and_actual():
    data = base(steps=[{"expect": {"phase": "day"}}])
    outcome = run(data, name="fail")
    assert [(f.key, f.expected, f.actual) for f in outcome.failures] == [("phase", "day", "night")]


def test_BW_24d_the_same_file_gives_the_same_game():
    data = base()
    a = run(data, name="a").game
    b = run(data, name="b").game

    def table(state):
        names = state["names"]
        return (state["decks"], state["discard"], state["phase"], state["turns_done"], state["shuffle_seed"],
                {names[s]: h for s, h in state["hands"].items()}, {names[s]: d for s, d in state["dna"].items()},
                {names[s]: c for s, c in state["curse"].items()}, names[state["to_move"]])

    assert table(a.state) == table(b.state)
