"""What a resolution writes, now that ``services.phase_resolve`` writes it in fewer statements: the game row keeps
the module's constant state (the card collection) without resending it, the log gets every entry in one insert
in the order they were made (the events, ``core.phase_resolved``, the next phase's ``core.phase_opened``, then
``core.trace``), and the query count does not depend on the number of players."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gm.core import services
from gm.core.models import Game, LogEntry, Phase
from gm.modules.forum_mafia.bench import figures, table


def _resolve(people, players: int):
    with figures.no_publish():
        game, phase = table.db_night(people.master, people.users(players), title=f"writes {players}")
        table.submit_orders(game, phase)
        before = Game.objects.get(pk=game.pk).state
        clock = lambda: phase.deadline  # noqa: E731
        token = services.phase_claim(phase_id=phase.pk, clock=clock)
        with CaptureQueriesContext(connection) as ctx:
            assert services.phase_resolve(phase_id=phase.pk, token=token, clock=clock) is not None
    return game, phase, before, len(ctx.captured_queries)


@pytest.mark.django_db
def test_resolution_keeps_the_collection_and_writes_the_log_in_order(card_collection):
    people = figures.People()
    game, phase, before, _count = _resolve(people, 6)
    phase.refresh_from_db()
    game.refresh_from_db()
    assert game.state["collection"] == before["collection"]  # the constant key, kept in the row
    assert game.state["collection_version"] == before["collection_version"]
    assert {k: v for k, v in game.state.items() if k != "collection"} == phase.result["state"]
    kinds = list(LogEntry.objects.filter(game=game, created_at=phase.deadline).order_by("id")
                 .values_list("kind", flat=True))
    opened = Phase.objects.get(game=game, ordinal=phase.ordinal + 1)
    assert kinds[-3:] == ["core.phase_resolved", "core.phase_opened", "core.trace"]
    assert len(kinds) == len(phase.result["events"]) + 3
    trace = LogEntry.objects.get(phase=phase, kind="core.trace")
    assert trace.data["orders"] == 6 and trace.data["duration_ms"] > 0
    assert LogEntry.objects.filter(phase=opened, kind="core.phase_opened").count() == 1


@pytest.mark.django_db
def test_resolution_query_count_does_not_depend_on_players(card_collection):
    people = figures.People()
    assert _resolve(people, 6)[3] == _resolve(people, 16)[3]
