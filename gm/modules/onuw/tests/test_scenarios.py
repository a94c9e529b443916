"""The ONUW scenario runner (``gm.modules.onuw.scenario``) through ``manage.py gm_scenario``: a passing file exits 0
and leaves nothing behind, a failed expectation exits 1 naming step, key, expected and actual, an invalid file exits 2
naming the place — before anything is built; and every file of ``scenarios/`` beside this test passes."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from gm.core.models import Game
from tests.helpers import gm_scenario as run

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parent / "scenarios"

HEAD = """\
game: onuw
seed: 4
players: [{name: A, card: seer}, {name: B, card: werewolf}, {name: C, card: robber}]
center: [villager, werewolf, troublemaker]
steps:
"""
NIGHT = """\
  - phase: night
    actions:
      - {player: A, role: seer, look: [B]}
      - {player: C, role: robber, swap_with: B}
    expect: {private_log: {A: ["You saw: B: Werewolf."]}, final_cards: {B: robber, C: werewolf}, next_phase: day 1}
"""




@pytest.fixture
def write(tmp_path):
    def write(text: str):
        path = tmp_path / "onuw.yaml"
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
    day = """\
  - phase: day
    votes: [{player: A, for: B}, {player: B, for: A}, {player: C, for: B}]
    expect: {dead: [C], winners: [A], private_log: {B: ["You saw"]}}
"""
    code, out, _err = run(write(HEAD + NIGHT + day))
    assert code == 1
    assert 'step 2 (day), dead: expected ["C"], actual ["B"]' in out
    assert 'step 2 (day), winners: expected ["A"], actual ["C"]' in out
    assert 'private_log.B: expected "You saw"' in out


@pytest.mark.parametrize(("steps", "place", "message"), [
    ("  - phase: night\n    actions: [{player: A, role: robber, swap_with: B}]\n", "step 1, action 1, key role",
     "A was dealt seer, not robber"),
    ("  - phase: night\n    actions: [{player: Z, look: [B]}]\n", "step 1, action 1, key player", "unknown player"),
    ("  - phase: dusk\n", "step 1, key phase", "unknown phase kind"),
    ("  - phase: night\n    expect: {winer: [A]}\n", "step 1, key expect", "did you mean 'winners'"),
])
def test_invalid_file_exits_2_naming_the_place(write, steps, place, message):
    games = Game.objects.count()
    code, out, err = run(write(HEAD + steps))
    assert code == 2
    assert place in out + err and message in out + err, out + err
    assert Game.objects.count() == games


def test_wrong_phase_is_reported(write):
    code, out, err = run(write(HEAD + "  - phase: day\n"))
    assert code == 2 and "the open phase is night 1, not day" in out + err
