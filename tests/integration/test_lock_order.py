"""Row locks are taken one table at a time, phase first, so two writers never wait on each other in a circle.

A ``SELECT … FOR UPDATE`` that joins the game to the phase (``select_related("game")``) locks the rows of both tables
in whatever order PostgreSQL's plan reads them; a resolution locks the phase and then the game. Under load the two
orders met and PostgreSQL killed one as a deadlock (HTTP 500s in order and vote submissions during the nightly
playtest). Every locking read that joins another table must therefore lock only its own rows
(``select_for_update(of=("self",))``). PostgreSQL only: SQLite has no row locks.
"""
from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gm.core import services
from gm.core.services import ServiceError
from gm.modules.forum_mafia.services import signup as fm_services
from tests.integration.test_stale_orders import FILLER, fm_game, open_phase, users  # noqa: F401

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only"),
]

FOR_UPDATE = re.compile(r"\bFOR (?:NO KEY )?UPDATE\b(?P<of> OF [^;]*)?", re.I)


def locking_joins(queries) -> list[str]:
    """The locking statements that join tables but don't name the rows they lock (``FOR UPDATE`` without ``OF``)."""
    bad = []
    for q in queries:
        sql = q["sql"]
        found = FOR_UPDATE.search(sql)
        if found and " JOIN " in sql.upper() and not found.group("of"):
            bad.append(sql)
    return bad


def test_order_submit_and_vote_lock_only_the_phase_row(frozen, master, users):  # noqa: F811
    night = fm_game(master, users, kind="night")
    phase = open_phase(night)
    with CaptureQueriesContext(connection) as night_queries:
        try:  # an empty order may be refused; the lock is taken before the module looks at it
            services.order_submit(phase=phase, user=users["Clara"], payload={})
        except ServiceError:
            pass
    assert any(FOR_UPDATE.search(q["sql"]) for q in night_queries.captured_queries)
    assert locking_joins(night_queries.captured_queries) == []

    day = fm_game(master, users, kind="day")
    with CaptureQueriesContext(connection) as day_queries:
        fm_services.vote_submit(phase=open_phase(day), user=users["Clara"], target=None)
    assert any(FOR_UPDATE.search(q["sql"]) for q in day_queries.captured_queries)
    assert locking_joins(day_queries.captured_queries) == []
