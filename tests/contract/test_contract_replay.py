"""Replay determinism of every game module: games built by running a spread of the module's scenario files, then
every resolved phase re-run from its stored snapshot, the last orders and its seed (``gm.core.replay``, what
``manage.py gm_replay`` does) gives the same result and the same digest (``services.canonical_digest``)."""
from __future__ import annotations

import pytest

from tests.contract.conftest import finishing_file, run_scenario, scenario_files

pytestmark = pytest.mark.django_db

#: How many scenario files of each module are replayed (spread over the sorted list, the finishing one first).
SAMPLE = 4


def sample_files(gm_module) -> list:
    files = scenario_files(gm_module)
    step = max(1, len(files) // SAMPLE)
    return files[::step][:SAMPLE]


def replay_all(games) -> tuple[int, list[str]]:
    """Replay every resolved phase of ``games``; returns (how many, the differing ones described)."""
    from gm.core.models import Phase
    from gm.core.replay import json_path, replay_phase

    count, differing = 0, []
    for phase in Phase.objects.filter(game__in=games, status=Phase.Status.RESOLVED).order_by("pk"):
        report = replay_phase(phase.pk)
        count += 1
        if not report.identical:
            differing.append(f"game {phase.game_id} {phase.kind} {phase.number}: digests {report.stored_digest[:12]}"
                             f" / {report.replayed_digest[:12]}, "
                             f"{[(json_path(p), a, b) for p, a, b in report.differences[:3]]}")
    return count, differing


def test_contract_every_resolved_phase_replays_to_the_same_digest(gm_module, card_collection):
    _path, finished = finishing_file(gm_module)
    games = [finished] + [run_scenario(path) for path in sample_files(gm_module)]
    count, differing = replay_all(games)
    assert count >= 2, f"{gm_module}: only {count} resolved phases to replay"
    assert not differing, f"{gm_module}: replays differ: {differing}"


def test_contract_replay_finds_a_changed_result(gm_module, card_collection):
    """Self-test: a phase whose stored result was changed after the fact no longer replays identically."""
    from gm.core.models import Phase

    _path, game = finishing_file(gm_module)
    phase = Phase.objects.filter(game=game, status=Phase.Status.RESOLVED).order_by("pk").first()
    Phase.objects.filter(pk=phase.pk).update(result={**phase.result, "contract": "changed"})
    count, differing = replay_all([game])
    assert len(differing) == 1 and f"{phase.kind} {phase.number}" in differing[0], differing
