"""Page stamps: has anything a game's page shows changed since a given moment? (issue 25)

A game's page is worth keeping rendered (:mod:`gm.core.page_cache`) only if one cheap read can tell that nothing it
shows has changed. That read is the game's **stamp**: ``(max(id), count(*))`` of its rows in
:class:`~gm.core.stamp_models.PageStamp`. PostgreSQL triggers append a row for every write statement that touches
a table a game's page draws on, whichever code path wrote it (a service, ``bulk_create``, ``QuerySet.update``, a
cascade, the admin, raw SQL):

* the game row itself, and every table with a foreign key to the game (seats, phases, posts, log entries, rooms,
  co-masters, every module's tables…);
* every table with a foreign key to one of those (orders and ready marks through their phase, private parts and
  revisions through their post, aliases and tenures through their seat, room proposals…);
* the user-wide facts a page shows of other people — the user row (the name), his profile, his away dates — for
  every unfinished game he sits in, masters or co-masters.

The paths are found from the models at ``migrate`` time (:func:`install`, on ``post_migrate``), so a new module's
tables are covered without a line here. Triggers are statement-level with transition tables: one ``INSERT`` of a
stamp row per game per write statement, not per row (a resolution's hundred log rows add one).

Why append rows instead of counting up one row per game: an ``UPDATE`` of a per-game counter would lock that row
until the writer commits, so every write to a game would wait for every other (and could deadlock with the row
locks services take). Inserts never wait for each other. The count is in the stamp because transactions commit in
any order: a reader may see stamp 11 while the transaction holding 10 has not committed; when it does, ``max`` stays
11 but the count grows.

Only PostgreSQL gets triggers (:func:`active`); on SQLite (the demo) no page is kept.
"""
from __future__ import annotations

import hashlib
from datetime import timedelta

from django.apps import apps
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.utils import timezone

#: The models whose rows are shown under their user's name in other people's games: a write re-stamps every
#: unfinished game the user sits in, masters or co-masters. (Other user-wide rows — notification settings, push
#: channels, fair-play logins — are not shown in a game's page, or only to its master within the page cache's
#: time bucket, ``GM_PAGE_CACHE_SECONDS``.)
USER_SCOPED = ("accounts.Profile", "core.Away")

#: Statuses of the games whose stamps a user-wide write renews.
_FINISHED = ("finished", "aborted")

_PREFIX = "gm_page_stamp"
_installed: dict[str, bool] = {}


def _game_model():
    return apps.get_model("core", "Game")


def _direct_game_columns(model) -> list[str]:
    game = _game_model()
    if model is game:
        return [model._meta.pk.column]
    return [f.column for f in model._meta.concrete_fields if f.is_relation and (f.many_to_one or f.one_to_one)
            and f.related_model is game]


def _user_column(model) -> str | None:
    user = apps.get_model(settings.AUTH_USER_MODEL)
    if model is user:
        return model._meta.pk.column
    if model._meta.label not in USER_SCOPED:
        return None
    return next(f.column for f in model._meta.concrete_fields if f.is_relation and f.related_model is user)


def game_ids_sql(model, rows: str) -> str | None:
    """A ``SELECT`` of the ids of the games whose pages a write to ``model``'s rows ``rows`` (a table name: the
    trigger's transition table) touches, or ``None`` when no game page shows that model."""
    q = connections[DEFAULT_DB_ALIAS].ops.quote_name
    direct = _direct_game_columns(model)
    if direct:
        return " UNION ".join(f"SELECT r.{q(c)} FROM {rows} r" for c in direct)
    for field in model._meta.concrete_fields:
        if field.is_relation and (field.many_to_one or field.one_to_one):
            parent_columns = _direct_game_columns(field.related_model)
            if parent_columns and field.related_model is not _game_model():
                parent = field.related_model._meta
                return (f"SELECT x.{q(parent_columns[0])} FROM {rows} r JOIN {q(parent.db_table)} x"
                        f" ON x.{q(parent.pk.column)} = r.{q(field.column)}")
    user_column = _user_column(model)
    if user_column is None:
        return None
    game, seat, comaster = _game_model(), apps.get_model("core", "Seat"), apps.get_model("core", "CoMaster")
    unfinished = ", ".join(f"'{status}'" for status in _FINISHED)
    gt, st, who = q(game._meta.db_table), q(seat._meta.db_table), q(user_column)
    return (f"SELECT s.{q('game_id')} FROM {rows} r JOIN {st} s ON s.{q('user_id')} = r.{who}"
            f" JOIN {gt} g ON g.{q('id')} = s.{q('game_id')} AND g.{q('status')} NOT IN ({unfinished})"
            f" UNION SELECT g.{q('id')} FROM {rows} r JOIN {gt} g ON g.{q('master_id')} = r.{who}"
            f" AND g.{q('status')} NOT IN ({unfinished})"
            f" UNION SELECT c.{q('game_id')} FROM {rows} r JOIN {q(comaster._meta.db_table)} c"
            f" ON c.{q('user_id')} = r.{who}")


def stamped_models() -> list:
    """Every concrete model a game's page draws on (see the module docstring), in a stable order."""
    stamp = apps.get_model("core", "PageStamp")
    found = []
    for model in apps.get_models():
        meta = model._meta
        if meta.proxy or not meta.managed or model is stamp:
            continue
        if game_ids_sql(model, "gm_rows") is not None:
            found.append(model)
    return sorted(found, key=lambda m: m._meta.db_table)


def _function_name(table: str) -> str:
    """The trigger function's name for ``table`` (PostgreSQL identifiers: at most 63 bytes)."""
    name = f"{_PREFIX}_{table}"
    if len(name) > 63:
        name = f"{name[:50]}_{hashlib.sha1(table.encode()).hexdigest()[:12]}"
    return name


def _statements(models: list) -> list[str]:
    q = connections[DEFAULT_DB_ALIAS].ops.quote_name
    stamp_table = q(apps.get_model("core", "PageStamp")._meta.db_table)
    out = []
    for model in models:
        table = model._meta.db_table
        function = _function_name(table)

        def insert(source: str) -> str:
            return (f"INSERT INTO {stamp_table} ({q('game_id')}) SELECT DISTINCT g FROM ({source}) s(g)"
                    f" WHERE g IS NOT NULL;")

        new, old = game_ids_sql(model, "gm_new"), game_ids_sql(model, "gm_old")
        out.append(
            f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $gm$\n"
            f"BEGIN\n"
            f"  IF TG_OP = 'INSERT' THEN {insert(new)}\n"
            f"  ELSIF TG_OP = 'UPDATE' THEN {insert(f'{new} UNION {old}')}\n"
            f"  ELSE {insert(old)}\n"
            f"  END IF;\n"
            f"  RETURN NULL;\n"
            f"END $gm$")
        for suffix, event, referencing in (("i", "INSERT", "NEW TABLE AS gm_new"),
                                           ("u", "UPDATE", "OLD TABLE AS gm_old NEW TABLE AS gm_new"),
                                           ("d", "DELETE", "OLD TABLE AS gm_old")):
            out.append(f"CREATE OR REPLACE TRIGGER {_PREFIX}_{suffix} AFTER {event} ON {q(table)}"
                       f" REFERENCING {referencing} FOR EACH STATEMENT EXECUTE FUNCTION {function}()")
    return out


def _version(statements: list[str]) -> str:
    return hashlib.sha256("\n".join(statements).encode()).hexdigest()[:32]


def _installed_version(connection) -> str | None:
    """The digest of the trigger set last installed on ``connection``'s database (the stamp table's comment)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT obj_description(%s::regclass, 'pg_class')",
                       [apps.get_model("core", "PageStamp")._meta.db_table])
        return cursor.fetchone()[0]


def install(*, using: str = DEFAULT_DB_ALIAS) -> int:
    """Create or replace the stamp triggers on every table of :func:`stamped_models` (PostgreSQL only; a no-op
    elsewhere). Idempotent, and cheap when nothing changed: the set's digest is kept as the comment of the stamp
    table, so a ``flush`` (which sends ``post_migrate`` again) costs one query. Returns the number of tables given
    triggers (0 when they were already current or the database is not PostgreSQL)."""
    connection = connections[using]
    _installed.pop(using, None)
    if connection.vendor != "postgresql":
        return 0
    models = stamped_models()
    statements = _statements(models)
    version = _version(statements)
    if _installed_version(connection) == version:
        return 0
    table = apps.get_model("core", "PageStamp")._meta.db_table
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
        cursor.execute(f"COMMENT ON TABLE {connection.ops.quote_name(table)} IS %s", [version])
    return len(models)


def install_on_migrate(sender, using: str = DEFAULT_DB_ALIAS, **kwargs) -> None:
    """``post_migrate`` receiver (sent once per ``migrate`` for the core app): :func:`install`."""
    install(using=using)


def active(*, using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether stamps are kept on this database: PostgreSQL with the current triggers (checked once per process and
    database alias; :func:`install` checks again)."""
    if using not in _installed:
        connection = connections[using]
        if connection.vendor != "postgresql":
            _installed[using] = False
        else:
            _installed[using] = _installed_version(connection) == _version(_statements(stamped_models()))
    return _installed[using]


def stamp_subqueries() -> dict[str, models.Subquery]:
    """Annotations for a ``Game`` queryset: ``gm_stamp_max`` and ``gm_stamp_count``, the game's stamp (``None`` and
    ``0`` for a game no write has stamped yet)."""
    from django.db.models import Count, OuterRef, Subquery

    stamp = apps.get_model("core", "PageStamp")
    rows = stamp.objects.filter(game_id=OuterRef("pk"))
    return {"gm_stamp_max": Subquery(rows.order_by("-id").values("id")[:1]),
            "gm_stamp_count": Subquery(rows.order_by().values("game_id").annotate(n=Count("id")).values("n")[:1])}


def stamp_of(game) -> tuple[int | None, int] | None:
    """``game``'s stamp as loaded with it (:func:`stamp_subqueries`), or ``None`` when it was loaded without."""
    if not hasattr(game, "gm_stamp_max"):
        return None
    return game.gm_stamp_max, game.gm_stamp_count or 0


def prune(*, keep_seconds: float | None = None, now=None) -> int:
    """Delete the stamp rows older than ``keep_seconds`` (default ``GM_PAGE_STAMP_KEEP``) except each game's newest,
    and every row of a game that no longer exists; returns how many rows went. A pruned game's stamp changes (its
    count drops), so its kept pages are rendered again once: harmless. Old rows only, so a transaction still in
    flight, whose row may be below the newest, is never caught between its insert and its commit."""
    stamp, game = apps.get_model("core", "PageStamp"), _game_model()
    keep = float(settings.GM_PAGE_STAMP_KEEP if keep_seconds is None else keep_seconds)
    cutoff = (now or timezone.now()) - timedelta(seconds=keep)
    newest = stamp.objects.filter(game_id=models.OuterRef("game_id")).order_by("-id").values("id")[:1]
    old, _ = stamp.objects.filter(created_at__lt=cutoff).exclude(id=models.Subquery(newest)).delete()
    gone, _ = stamp.objects.exclude(game_id__in=game.objects.values("pk")).delete()
    return old + gone
