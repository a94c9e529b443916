"""The October Night scenario runner (``gm.modules.october_night.scenario``) through ``manage.py gm_scenario``: every
file of ``scenarios/`` passes; a failed expectation exits 1 naming step, key, expected and actual; an invalid file
exits 2 naming the place before anything is built; the game is rolled back."""
from __future__ import annotations

from pathlib import Path

import pytest

from gm.core.models import Game
from tests.helpers import gm_scenario as run

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*.yaml"))

HEAD = """\
game: october_night
players:
  - {name: Аня, side: summoners, character: count, location: manor}
  - {name: Боря, side: keepers, character: witch, location: manor}
  - {name: Вова, side: summoners, character: wolfman, location: manor}
start: {week: 2, day: 3}
steps:
  - phase: action 10
    dice: [4, 2, 3, 1]
    actions:
      - {player: Аня, action: fight, target: Боря}
"""


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_OC_scenario_file_passes(path):
    code, out, err = run(path)
    assert code == 0, out + err
    assert not Game.objects.filter(module="october_night").exists()


def test_every_rule_topic_has_a_scenario_file():
    topics = {p.name.split("_")[0].split(".")[0] for p in FILES}
    assert {f"OC-{n}" for n in range(1, 19)} <= topics


def test_OC_5_failed_expectation_exits_1_naming_the_key(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(HEAD + "    expect: {fights: [{winner: victim}]}\n", encoding="utf-8")
    code, out, err = run(path)
    assert code == 1 and "fights[1].winner" in out + err


def test_OC_17_invalid_file_exits_2_naming_the_place(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(HEAD.replace("character: witch", "character: dracula"), encoding="utf-8")
    code, out, err = run(path)
    assert code == 2 and "players[2], key character" in out + err
    path.write_text(HEAD.replace("game: october_night", "game: october_night\ndata: {enemies: [{slug: ghoul, "
                                 "location: moon}]}"), encoding="utf-8")
    code, out, err = run(path)
    assert code == 2 and "enemies[ghoul].location" in out + err


def test_OC_11_2_dice_must_all_be_used(tmp_path):
    path = tmp_path / "dice.yaml"
    path.write_text(HEAD.replace("dice: [4, 2, 3, 1]", "dice: [4, 2, 3, 1, 6]"), encoding="utf-8")
    code, out, err = run(path)
    assert code == 1 and "all used" in out + err
