"""The project's own tables carry no index another one makes redundant, and every foreign key stays indexed.

A single-column index on a foreign key beside a composite index or unique constraint that leads with the same
column doubles every insert's index work and, worse, gives PostgreSQL's planner a second path: with statistics
that do not know a new game yet (its id lies past the histogram), the thread's newest page (``WHERE game_id = …
ORDER BY created_at DESC, id DESC LIMIT 20``) was planned on ``core_post(game_id)`` as a scan of all the game's
posts and a sort — 7.2 ms against 1.1 ms by the ``(game_id, created_at, id)`` index on the big bench game
(issue 25 goal 2). So such a foreign key is declared ``db_index=False``, and this test keeps it that way: it fails
on a redundant index and on a foreign key column that no index leads with (its joins and its ``ON DELETE``
cascades would scan the table).
"""
from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="reads PostgreSQL's catalogue")

#: The apps whose tables are this project's (the others' are Django's, allauth's, DRF's, django-celery-beat's).
OWN = ("gm.", "accounts", "cards")

_INDEXES = """
SELECT t.relname, i.relname, ix.indisunique, ix.indpred IS NOT NULL,
       array(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n)
             JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n)
FROM pg_index ix
JOIN pg_class i ON i.oid = ix.indexrelid
JOIN pg_class t ON t.oid = ix.indrelid
JOIN pg_am am ON am.oid = i.relam
WHERE am.amname = 'btree' AND t.relname = ANY(%s)
"""


def _own_models():
    return [m for m in apps.get_models() if m.__module__.startswith(OWN) and not m._meta.proxy
            and m._meta.managed]


def _indexes(tables: list[str]) -> dict[str, list[tuple[str, bool, bool, list[str]]]]:
    """Table → its btree indexes as ``(name, unique, partial, columns)``."""
    out: dict[str, list] = {t: [] for t in tables}
    with connection.cursor() as cursor:
        cursor.execute(_INDEXES, [tables])
        for table, name, unique, partial, columns in cursor.fetchall():
            out[table].append((name, unique, partial, list(columns)))
    return out


@pytest.mark.django_db
def test_no_index_of_ours_is_a_prefix_of_another():
    """No plain index of the project's tables has columns that begin another full (not partial) btree index."""
    tables = sorted({m._meta.db_table for m in _own_models()})
    found = _indexes(tables)
    assert sum(map(len, found.values())) > len(tables), "the catalogue query found no indexes"
    redundant = [
        f"{table}.{name} {cols} (covered by {other} {other_cols})"
        for table, idx in found.items()
        for name, unique, partial, cols in idx if not unique and not partial
        for other, _u, other_partial, other_cols in idx
        if other != name and not other_partial and len(other_cols) > len(cols) and other_cols[:len(cols)] == cols
    ]
    assert not redundant, "declare these foreign keys db_index=False: " + "; ".join(redundant)


@pytest.mark.django_db
def test_every_foreign_key_of_ours_leads_some_index():
    """Every foreign key column of the project's tables is the first column of a full btree index (its own, or a
    composite index or unique constraint of the model's Meta)."""
    models = _own_models()
    found = _indexes(sorted({m._meta.db_table for m in models}))
    unindexed = []
    checked = 0
    for model in models:
        leading = {cols[0] for _name, _unique, partial, cols in found[model._meta.db_table] if cols and not partial}
        for field in model._meta.concrete_fields:
            if field.is_relation and (field.many_to_one or field.one_to_one):
                checked += 1
                if field.column not in leading:
                    unindexed.append(f"{model._meta.db_table}.{field.column}")
    assert checked > 50, checked  # the walk reached the models' foreign keys
    assert not unindexed, "no index leads with: " + ", ".join(unindexed)
