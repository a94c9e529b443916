"""Master actions while the broker is unreachable: the action commits, so the request succeeds (the failed enqueue
is logged; the beat sweep is the safety net), and a retried resolve-now of the same phase is refused as already
resolved, so the master acts once. Real commits (``transactional_db``): the enqueue runs in ``on_commit``."""
from __future__ import annotations

import logging
import time

import pytest

from gm.celery import app
from gm.core.models import AuditEntry, LogEntry, Phase
from gm.core.processes import free_port
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_down():
    """Point the Celery app at a closed local port for the test, then restore its broker and pools."""
    conf = app.conf
    saved = (conf.broker_url, conf.broker_write_url, conf.broker_read_url, conf.broker_transport_options, app._pool,
             app.amqp._producer_pool)
    conf.broker_url = conf.broker_write_url = conf.broker_read_url = f"redis://127.0.0.1:{free_port()}/0"
    app.conf.broker_transport_options = {}
    app._pool = None
    app.amqp._producer_pool = None
    yield
    if app._pool is not None:
        app._pool.force_close_all()
    (conf.broker_url, conf.broker_write_url, conf.broker_read_url, conf.broker_transport_options, app._pool,
     app.amqp._producer_pool) = saved


def test_resolve_now_with_the_broker_down_answers_200_and_resolves_once(running_game, master, broker_down, caplog):
    client = client_for(master)
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    url = f"/api/games/{running_game.pk}/resolve-now/"
    started = time.monotonic()
    with caplog.at_level(logging.ERROR, logger="gm.queueing"):
        status, body = api(client, "post", url, {"reason": "everyone has played", "phase": phase.pk})
    elapsed = time.monotonic() - started
    assert status == 200, body
    assert body["status"] == "resolved"
    assert any(r.message == "enqueue after commit failed" for r in caplog.records)
    assert elapsed < 10
    # the master, who may not know it worked, retries: refused, nothing done twice
    status, body = api(client, "post", url, {"reason": "everyone has played", "phase": phase.pk})
    assert status == 409 and "already resolved" in body["errors"]["__all__"][0]
    assert running_game.phases.filter(status=Phase.Status.RESOLVED).count() == 1
    assert LogEntry.objects.filter(game=running_game, kind="core.resolved_now").count() == 1
    assert AuditEntry.objects.filter(game=running_game, action="resolve_now").count() == 1
    # a phase id of another game is a field error, not "resolved"
    status, body = api(client, "post", url, {"reason": "x", "phase": 10**9})
    assert status == 400 and set(body["errors"]) == {"phase"}


def test_extend_with_the_broker_down_answers_200(running_game, master, broker_down):
    client = client_for(master)
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    status, body = api(client, "post", f"/api/games/{running_game.pk}/extend/",
                       {"reason": "weekend", "minutes": 30, "phase": phase.pk})
    assert status == 200, body
    phase.refresh_from_db()
    assert phase.deadline > phase.base_deadline
    # aimed at a phase that has resolved since: refused
    status, body = api(client, "post", f"/api/games/{running_game.pk}/resolve-now/", {"reason": "go"})
    assert status == 200
    status, body = api(client, "post", f"/api/games/{running_game.pk}/extend/",
                       {"reason": "weekend", "minutes": 30, "phase": phase.pk})
    assert status == 409 and "already resolved" in body["errors"]["__all__"][0]
