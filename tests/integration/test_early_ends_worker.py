"""Early ends with real Celery processes (issue 23, item 5): in an ONUW game with ``all_ready``, the last "done"
brings the night's deadline to now and a real worker (with beat sweeping every second) resolves it at once, exactly
once. Needs PostgreSQL + Redis (skipped otherwise), like ``test_worker.py``."""
from __future__ import annotations

import pytest

from gm.core import services
from gm.core.models import LogEntry, Phase
from gm.core.services import early_ends
from tests.helpers import api, client_for

from .test_worker import (  # noqa: F401 - the real-worker fixtures
    _forget_session_queue,
    _needs_postgres_and_redis,
    assert_clean_log,
    celery_procs,
    open_phase,
    session_queue,
)
from .worker_utils import purge_queue, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_last_done_ends_the_night_and_a_real_worker_resolves_it_once(
        master, make_user, celery_procs, session_queue):  # noqa: F811 - the fixtures imported above
    names = ["Alice", "Boris", "Clara", "Dmitri"]
    users = {n: make_user(n.lower()) for n in names}
    game = services.game_create(master=master, module="onuw", title="Quick", rng_seed=9, options={
        "deal": ["seer", "werewolf", "robber", "troublemaker", "villager", "villager", "drunk"]})
    services.game_open_signup(game=game, actor=master)
    for n in names:
        services.seat_join(game=game, user=users[n], display_name=n)
    early_ends.early_end_options_set(game=game, actor=master, hammer=False, all_ready=True, reason="quick")
    services.game_start(game=game, actor=master)
    purge_queue(session_queue)  # the night's own ETA task (a day away)
    worker = celery_procs.worker()
    beat = celery_procs.beat()
    night = open_phase(game)
    for n in names:
        status, body = api(client_for(users[n]), "post", f"/api/games/{game.pk}/ready/", {"phase": night.pk})
        assert status == 200
    assert body["closed"] is True

    def resolved():
        night.refresh_from_db()
        return night.status == Phase.Status.RESOLVED

    wait_until(resolved, timeout=30, interval=0.1,
               message=lambda: f"night still {night.status}:\n{worker.tail()}\n{beat.tail()}")
    assert night.claims == 1
    assert LogEntry.objects.filter(phase=night, kind="core.all_ready").count() == 1
    assert LogEntry.objects.filter(phase=night, kind="core.phase_resolved").count() == 1
    assert open_phase(game).kind == "day"
    assert_clean_log(worker, beat)
