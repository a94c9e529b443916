"""Fixtures of the community app's tests."""
from __future__ import annotations

import importlib

import pytest


@pytest.fixture
def sanction_table(db):
    """The published sanction table as its data migration writes it. A transactional test elsewhere in the run
    flushes the tables it used, data migrations' rows included, so a test that needs the table asks for it."""
    from gm.community.models import SanctionLevel

    migration = importlib.import_module("gm.community.migrations.0002_community_sanction_table")
    for points, kind, days in migration.LEVELS:
        SanctionLevel.objects.get_or_create(points=points, defaults={"kind": kind, "days": days})
