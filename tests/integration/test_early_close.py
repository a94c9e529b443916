"""A phase closes before its deadline once everyone it waits for has answered (``GameModule.phase_complete``, the
core side of BW-24), and still resolves exactly once through the deadline machinery — on frozen time, with the
turn-based fake game ``pig`` (option ``close_early``)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from gm.core import services
from gm.core.messages import render_entry
from gm.core.models import LogEntry, Phase
from gm.core.tasks import phase_deadline_task

pytestmark = pytest.mark.django_db


def pig_game(master, players, *, close_early: bool):
    game = services.game_create(master=master, module="pig", title="Pig", rng_seed=3,
                                options={"close_early": close_early, "target": 100})
    services.game_open_signup(game=game, actor=master)
    for user in players[:2]:
        services.seat_join(game=game, user=user, display_name=user.username)
    services.game_start(game=game, actor=master)
    return game


def open_phase(game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def test_BW_24_the_last_answer_brings_the_deadline_to_now_and_the_sweep_resolves_it_once(frozen, master, players):
    game = pig_game(master, players, close_early=True)
    phase = open_phase(game)
    assert phase.deadline == timezone.now() + timedelta(seconds=3600)
    frozen.shift(60)
    services.order_submit(phase=phase, user=players[0], payload={"move": "hold"})
    phase.refresh_from_db()
    assert phase.status == Phase.Status.OPEN and phase.deadline == timezone.now()
    entry = LogEntry.objects.get(phase=phase, kind="core.closed_early")
    assert entry.visibility == "public"
    with translation.override("en"):
        assert render_entry(entry) == "Everyone this phase waited for has answered: it closes before its deadline."
    assert services.phases_sweep().resolved == [phase.pk]
    phase.refresh_from_db()
    assert phase.status == Phase.Status.RESOLVED and phase.claims == 1
    # The ETA task and another sweep arriving at the same moment find nothing left to do.
    assert phase_deadline_task.run(phase.pk) is False
    assert services.phases_sweep().resolved == []
    assert LogEntry.objects.filter(phase=phase, kind="core.phase_resolved").count() == 1
    assert open_phase(game).ordinal == 2


def test_BW_24_early_close_and_the_real_deadline_at_the_same_moment_resolve_once(frozen, master, players):
    game = pig_game(master, players, close_early=True)
    phase = open_phase(game)
    frozen.shift(3599)
    services.order_submit(phase=phase, user=players[0], payload={"move": "roll"})
    frozen.shift(1)  # the original deadline passes too
    assert phase_deadline_task.run(phase.pk) is True
    assert services.phases_sweep().resolved == []
    phase.refresh_from_db()
    assert phase.claims == 1 and LogEntry.objects.filter(phase=phase, kind="core.phase_resolved").count() == 1


def test_without_the_hook_a_phase_runs_to_its_deadline(frozen, master, players):
    game = pig_game(master, players, close_early=False)
    phase = open_phase(game)
    deadline = phase.deadline
    services.order_submit(phase=phase, user=players[0], payload={"move": "hold"})
    phase.refresh_from_db()
    assert phase.deadline == deadline and phase.status == Phase.Status.OPEN
    assert not LogEntry.objects.filter(kind="core.closed_early").exists()
    assert services.phases_sweep().resolved == []


def test_a_refused_order_closes_nothing(frozen, master, players):
    game = pig_game(master, players, close_early=True)
    phase = open_phase(game)
    deadline = phase.deadline
    with pytest.raises(services.ServiceError):
        services.order_submit(phase=phase, user=players[1], payload={"move": "hold"})  # not his turn
    with pytest.raises(services.ServiceError):
        services.order_submit(phase=phase, user=players[0], payload={"move": "fly"})
    phase.refresh_from_db()
    assert phase.deadline == deadline and not LogEntry.objects.filter(kind="core.closed_early").exists()


def test_a_paused_game_does_not_close_early(frozen, master, players):
    game = pig_game(master, players, close_early=True)
    phase = open_phase(game)
    services.game_pause(game=game, actor=master, reason="away")
    deadline = Phase.objects.get(pk=phase.pk).deadline
    services.order_submit(phase=phase, user=players[0], payload={"move": "hold"})  # orders stay open when paused
    phase.refresh_from_db()
    assert phase.deadline == deadline and not LogEntry.objects.filter(kind="core.closed_early").exists()
