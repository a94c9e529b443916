"""The Blood Vengeance scenario runner (``gm.modules.blood_vengeance.scenario``) through ``manage.py gm_scenario``: a
passing file exits 0 and leaves nothing behind, a failed expectation exits 1 naming step, key, expected and actual,
an invalid file exits 2 naming the place before anything is built; and every file of ``scenarios/`` passes (one or
more per rule ID, named after it)."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from gm.core.models import Game
from tests.helpers import gm_scenario as run

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
HEAD = """\
game: blood_vengeance
players:
  - {name: Ann, role: count}
  - {name: Bob, role: lamia}
  - {name: Cid, role: monk}
  - {name: Dan, role: hunter}
  - {name: Eve, role: vampire}
  - {name: Fay, role: vampire}
steps:
"""
NIGHT = """\
  - phase: night 1
    votes: [{player: Ann, for: Dan}, {player: Bob, for: Dan}]
    expect: {executed: [Dan], revealed: {Dan: hunter}, next_phase: light 1}
"""


@pytest.fixture
def write(tmp_path):
    def write(text: str):
        path = tmp_path / "bv.yaml"
        path.write_text(text, encoding="utf-8")
        return path

    return write


def test_passing_file_exits_0_and_is_rolled_back(write):
    games, users = Game.objects.count(), get_user_model().objects.count()
    code, out, err = run(write(HEAD + NIGHT))
    assert (code, err) == (0, ""), out
    assert out.startswith("PASS ")
    assert (Game.objects.count(), get_user_model().objects.count()) == (games, users)


def test_failed_expectations_exit_1_with_expected_and_actual(write):
    code, out, _err = run(write(HEAD + NIGHT.replace("executed: [Dan]", "executed: [Eve]")
                                .replace("next_phase: light 1", "next_phase: defence 1")))
    assert code == 1
    assert 'step 1 (night 1), executed: expected ["Eve"], actual ["Dan"]' in out
    assert 'next_phase: expected "defence 1", actual "light 1"' in out


def test_an_unexpected_refusal_is_a_failure(write):
    code, out, _err = run(write(HEAD + "  - phase: night 1\n    votes: [{player: Ann, for: Ann}]\n"))
    assert code == 1 and "orders of Ann" in out and "self_vote" in out


@pytest.mark.parametrize(("steps", "place", "message"), [
    ("  - phase: night 1\n    votes: [{player: Zed, for: Ann}]\n", "step 1, votes 1, key player", "unknown player"),
    ("  - phase: dusk 1\n", "step 1, key phase", "unknown phase kind"),
    ("  - phase: night 1\n    actions: [{player: Ann, role: count, target: Bob}]\n", "step 1, key actions",
     "no light actions"),
    ("  - phase: light 1\n    votes: []\n", "step 1", "no night lines"),
    ("  - phase: night 1\n    expect: {winer: vampires}\n", "step 1, key expect", "winner"),
])
def test_invalid_file_exits_2_naming_the_place(write, steps, place, message):
    games = Game.objects.count()
    code, out, err = run(write(HEAD + steps))
    assert code == 2
    assert place in out + err and message in out + err, out + err
    assert Game.objects.count() == games


def test_BV_2_4_two_lords_make_the_file_invalid(write):
    code, out, err = run(write(HEAD.replace("role: lamia", "role: king") + NIGHT))
    assert code == 2 and "lord" in out + err


def test_wrong_phase_is_reported(write):
    code, out, err = run(write(HEAD + "  - phase: light 1\n"))
    assert code == 2 and "the open phase is night 1, not light 1" in out + err


def test_a_round_the_engine_did_not_open_is_a_failure(write):
    code, out, _err = run(write(HEAD + NIGHT.replace("    expect:", "    revote: []\n    expect:")))
    assert code == 1 and "revote: expected \"a defence round\"" in out


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_scenario_file_passes(path):
    code, out, err = run(path)
    assert code == 0, out + err
