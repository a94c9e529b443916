"""Automatic extensions (issue 23 item 3), for forum Mafia and ONUW: at a deadline where a living player who has a
legal action submitted nothing and still has a token, the deadline moves by ``extension_length`` (never past the
master's ``extension_cap``), his tokens drop by one, everyone reads the new deadline and why (without his name); a
player with nothing to do never spends a token. On frozen time, and once with a real worker and beat."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from gm.core import services
from gm.core.messages import render_entry
from gm.core.models import Game, LogEntry, Phase
from gm.core.models_life import SeatStatus
from gm.core.services import activity
from gm.core.tasks import phase_deadline_task
from tests.helpers import api, client_for, page_part
from tests.integration import fm_table
from tests.integration.worker_utils import wait_until

pytestmark = pytest.mark.django_db


@pytest.fixture
def life_worker(settings, tmp_path):
    """``celery worker`` and ``celery beat`` subprocesses on the test database (beat sweeps every second), routed to
    this session's own queue; stopped at teardown (see ``test_worker.py``). Skipped without PostgreSQL and Redis."""
    import os

    from tests.integration.worker_utils import (
        SESSION_QUEUE,
        CeleryProcesses,
        purge_queue,
        routed_to,
        skip_reason,
        worker_database_url,
    )

    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    with routed_to(SESSION_QUEUE, settings) as queue:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": worker_database_url(),
               "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "CELERY_TASK_DEFAULT_QUEUE": queue,
               "GM_SWEEP_INTERVAL": "1", "GM_ACTIVITY_INTERVAL": "1", "GM_OVERDUE_AFTER": "3600",
               "PYTHONUNBUFFERED": "1"}
        procs = CeleryProcesses(log_dir=tmp_path, queue=queue, env=env)
        try:
            yield procs
        finally:
            procs.stop_all()
            print(procs.report())
    purge_queue(SESSION_QUEUE)


def onuw(master, make_user, deal, **options):
    game = services.game_create(master=master, module="onuw", title="ONUW tokens", rng_seed=9,
                                options={"deal": deal, **options})
    services.game_open_signup(game=game, actor=master)
    users = [make_user(f"t{i}") for i in range(4)]
    for i, user in enumerate(users):
        services.seat_join(game=game, user=user, display_name=f"T{i}")
    services.game_start(game=game, actor=master)
    return game, users


def test_forum_mafia_tokens_move_the_deadline_until_the_cap(frozen, master, make_user):
    game, users = fm_table.build(master, make_user)
    client_for(master).post(f"/games/{game.pk}/life/activity/", {
        "prod_after": 48, "prod_grace": 24, "replacement_min_time": 24, "extensions_per_player": 1,
        "extension_length": 24, "extension_cap": 48, "reason": "tokens"})
    night = fm_table.open_phase(game)
    seats = fm_table.ids(game)
    fm_table.night_orders(game, users)  # Alice and Harry have ordered: they never spend a token here
    assert "You have 1 automatic extension left." in page_part(
        client_for(users["Boris"]).get(f"/games/{game.pk}/").content.decode(), "life")
    base = night.deadline
    frozen.move_to(base + timedelta(seconds=1))
    assert services.phase_resolve_due(phase_id=night.pk) is None  # extended instead of resolved
    night.refresh_from_db()
    assert night.status == Phase.Status.OPEN and night.deadline == base + timedelta(hours=24)
    spent = {s.seat_id: s.extensions_used for s in SeatStatus.objects.filter(extensions_used__gt=0)}
    assert spent == {seats["Boris"]: 1}  # the first in ring order without an order
    public = LogEntry.objects.get(phase=night, kind="core.auto_extended")
    assert public.visibility == "public" and "Boris" not in str(public.data)
    with translation.override("en"):
        assert "used an automatic extension: the deadline moves by 24 h" in render_entry(public)
    mine = LogEntry.objects.get(phase=night, kind="core.auto_extended_you")
    assert mine.seat_id == seats["Boris"]
    # Everyone sees the new deadline and why; only Boris reads that it was his token.
    anon = client_for(None).get(f"/games/{game.pk}/").content.decode()
    assert "used an automatic extension" in anon and "Extensions left" not in anon
    boris = client_for(users["Boris"]).get(f"/games/{game.pk}/").content.decode()
    assert "Extensions left: 0." in boris and "You have 0 automatic extensions left." in boris
    # The next deadline: Harry ordered; Jo is next in ring order.
    frozen.move_to(night.deadline + timedelta(seconds=1))
    assert phase_deadline_task.run(night.pk) is False
    night.refresh_from_db()
    assert night.deadline == base + timedelta(hours=48)
    assert SeatStatus.objects.get(seat_id=seats["Jo"]).extensions_used == 1
    # The cap (48 h in all) is reached: the next deadline resolves the night, whoever still has tokens.
    frozen.move_to(night.deadline + timedelta(seconds=1))
    assert services.phases_sweep().resolved == [night.pk]
    night.refresh_from_db()
    assert night.status == Phase.Status.RESOLVED and night.claims == 1
    assert LogEntry.objects.filter(phase=night, kind="core.auto_extended").count() == 2


def test_without_tokens_nothing_changes(frozen, master, make_user):
    game, _users = fm_table.build(master, make_user)
    night = fm_table.open_phase(game)
    frozen.move_to(night.deadline + timedelta(seconds=1))
    assert services.phase_resolve_due(phase_id=night.pk) is not None
    assert not LogEntry.objects.filter(kind="core.auto_extended").exists()
    assert not SeatStatus.objects.exists()


def test_ONUW_a_player_with_nothing_to_do_never_spends_a_token(frozen, master, make_user):
    # T0 villager, T1 the only werewolf among players, T2 seer, T3 villager; lone_wolf off: only the seer chooses.
    deal = ["villager", "werewolf", "seer", "villager", "werewolf", "robber", "drunk"]
    game, users = onuw(master, make_user, deal, lone_wolf=False)
    activity.activity_options_set(game=game, actor=master, changes={"extensions_per_player": 2})
    night = game.phases.get(status="open")
    status, _order = api(client_for(users[2]), "post", f"/api/games/{game.pk}/orders/",
                         {"phase": night.pk, "payload": {"look": ["center1", "center2"]}})
    assert status in (200, 201)
    frozen.move_to(night.deadline + timedelta(seconds=1))
    assert services.phase_resolve_due(phase_id=night.pk) is not None  # nobody owed anything: it resolves
    assert not SeatStatus.objects.filter(extensions_used__gt=0).exists()
    # The day vote: everyone has an action; T0 votes, T1 does not and spends a token.
    day = game.phases.get(status="open")
    assert day.kind == "day"
    seats = {s.display_name: s.pk for s in game.seats.all()}
    for i in (0, 2, 3):
        status, _order = api(client_for(users[i]), "post", f"/api/games/{game.pk}/orders/",
                             {"phase": day.pk, "payload": {"vote": seats["T1"]}})
        assert status in (200, 201)
    frozen.move_to(day.deadline + timedelta(seconds=1))
    assert services.phases_sweep().resolved == []
    assert SeatStatus.objects.get(seat_id=seats["T1"]).extensions_used == 1
    day.refresh_from_db()
    assert day.status == "open"


def test_ONUW_a_lone_werewolf_at_night_spends_a_token_and_the_notice_names_nobody(frozen, master, make_user):
    deal = ["villager", "werewolf", "seer", "villager", "werewolf", "robber", "drunk"]
    game, users = onuw(master, make_user, deal)  # lone_wolf on: T1 may look at a center card
    activity.activity_options_set(game=game, actor=master, changes={"extensions_per_player": 1,
                                                                     "extension_length": 2})
    night = game.phases.get(status="open")
    api(client_for(users[2]), "post", f"/api/games/{game.pk}/orders/",
        {"phase": night.pk, "payload": {"look": ["center1", "center2"]}})
    frozen.move_to(night.deadline + timedelta(seconds=1))
    assert services.phase_resolve_due(phase_id=night.pk) is None
    spent = list(SeatStatus.objects.filter(extensions_used__gt=0).values_list("seat__display_name", flat=True))
    assert spent == ["T1"]
    public = LogEntry.objects.get(phase=night, kind="core.auto_extended")
    with translation.override("en"):
        assert "T1" not in render_entry(public)
    # Out of tokens: the next deadline resolves the night.
    frozen.move_to(night.deadline + timedelta(hours=2, seconds=1))
    assert services.phase_resolve_due(phase_id=night.pk) is not None


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_and_beat_spend_the_token_at_the_deadline_then_resolve(master, make_user, life_worker):
    """The worker's ETA task and beat's sweep reach the deadline: the first spends the token (the phase stays open,
    a new deadline a few seconds later), the next resolves it once."""
    game, users = fm_table.build(master, make_user)
    Game.objects.filter(pk=game.pk).update(activity_options={"extensions_per_player": 1, "extension_length": 1,
                                                             "extension_cap": 1})
    night = fm_table.open_phase(game)
    soon = timezone.now() + timedelta(seconds=2)
    # A short night: the extension (an hour) is then moved to a few seconds by hand below.
    Phase.objects.filter(pk=night.pk).update(deadline=soon, base_deadline=soon)
    night.refresh_from_db()
    worker = life_worker.worker()
    beat = life_worker.beat()
    services.schedule_deadline(night, now=timezone.now())

    def extended():
        return LogEntry.objects.filter(phase=night, kind="core.auto_extended").exists()

    wait_until(extended, timeout=30, interval=0.2, message=lambda: f"{worker.tail()}\n{beat.tail()}")
    night.refresh_from_db()
    assert night.status == Phase.Status.OPEN and night.deadline == soon + timedelta(hours=1)
    assert SeatStatus.objects.filter(extensions_used=1).count() == 1
    # Bring the extended deadline near: beat's sweep resolves the night exactly once (the cap is reached).
    near = timezone.now() + timedelta(seconds=1)
    Phase.objects.filter(pk=night.pk).update(deadline=near)

    def resolved():
        night.refresh_from_db()
        return night.status == Phase.Status.RESOLVED

    wait_until(resolved, timeout=30, interval=0.2, message=lambda: f"{worker.tail()}\n{beat.tail()}")
    assert night.claims == 1
    assert LogEntry.objects.filter(phase=night, kind="core.phase_resolved").count() == 1
    assert LogEntry.objects.filter(phase=night, kind="core.auto_extended").count() == 1

