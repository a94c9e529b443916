"""Aborting a game whose result is held for the master's review (``gm.core.review``) discards that result: it is no
longer held (no console box, no auto-publication, nothing to publish), its stored result is dropped, and the
``abort`` audit entry names the phase and says the result was discarded."""
from __future__ import annotations

from datetime import timedelta

import pytest

from gm.core import review, services
from gm.core.models import AuditEntry, Phase
from gm.core.services import ServiceError
from tests.helpers import api, client_for
from tests.integration.console_table import build_table, seat, shoot_boris

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(frozen, master, make_user, card_collection):
    return build_table(master, make_user)


def test_abort_discards_the_held_result_and_says_so_in_the_audit(table, master, frozen):
    game, users = table
    review.game_set_review(game=game, actor=master, enabled=True, auto_minutes=30, reason="disputed rules")
    night = shoot_boris(game, users)
    frozen.shift(timedelta(days=2))
    assert services.phase_resolve_due(phase_id=night.pk) is not None
    night.refresh_from_db()
    assert night.is_held and night.result and night.publish_at is not None
    digest = night.result_digest

    services.game_abort(game=game, actor=master, reason="the players left")

    night.refresh_from_db()
    assert not night.is_held and night.held_at is None and night.publish_at is None
    assert night.result == {} and night.result_digest == "" and night.published_at is None
    assert night.state  # the input snapshot stays: gm_replay can recompute what was discarded
    assert review.held_phase(game) is None
    entry = AuditEntry.objects.get(game=game, action="abort")
    assert entry.reason == "the players left" and entry.phase_id == night.pk
    assert entry.data["discarded_result"] == {"phase": night.pk, "ordinal": night.ordinal,
                                              "held_at": entry.data["discarded_result"]["held_at"],
                                              "result_digest": digest}
    # The master's console says it, in his language; no "waiting for your review" box is left.
    page = client_for(master).get(game.get_absolute_url()).content.decode()
    assert "the held result of Night 1 was discarded, never published" in page
    assert "waiting for your review" not in page
    status, audit = api(client_for(master), "get", f"/api/games/{game.pk}/audit/")
    assert status == 200 and audit["results"][0]["data"]["discarded_result"]["phase"] == night.pk
    # Nothing can publish it any more: not the sweep at its time, not the master.
    frozen.shift(timedelta(hours=1))
    assert services.phases_sweep().published == []
    with pytest.raises(ServiceError) as refused:
        review.phase_publish(game=game, actor=master, reason="after all")
    assert refused.value.code == "state"
    assert seat(game, "Boris").alive and not game.phases.exclude(status=Phase.Status.RESOLVED).exists()


def test_abort_without_a_held_result_discards_nothing(table, master):
    game, _users = table
    services.game_abort(game=game, actor=master, reason="stop")
    entry = AuditEntry.objects.get(game=game, action="abort")
    assert entry.data == {} and entry.phase_id is None
