"""What the site's management commands share: the check that the database is migrated, and counted phrases in the
language the commands write in."""
from __future__ import annotations

import functools
import os

from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.utils import translation

#: The exit status of a command refused because of its setup (unmigrated database), as for an invalid input file.
SETUP_ERROR = 2


def require_migrated(database: str = DEFAULT_DB_ALIAS) -> None:
    """Refuse to go on (``CommandError``, exit status 2, no traceback) when ``database`` lacks any migration of the
    installed apps, naming the cure: "run manage.py migrate first". A database that cannot be reached is refused
    the same way, with the driver's message.

    Each call reads the applied migrations (one query). Django's full plan, which loads every migration file into a
    graph (about 20 ms), is computed only when that set differs from the last one this process found complete for
    this database: the files on disk do not change under a running process."""
    from django.db.migrations.executor import MigrationExecutor
    from django.db.migrations.recorder import MigrationRecorder

    connection = connections[database]
    key = (database, connection.settings_dict.get("NAME"))
    try:
        applied = frozenset(MigrationRecorder(connection).applied_migrations())
        if applied and _COMPLETE.get(key) == applied:
            return
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as exc:
        raise CommandError(f"Cannot read the database's migrations ({exc}).".strip(), returncode=SETUP_ERROR) from None
    if plan:
        _COMPLETE.pop(key, None)
        first = ", ".join(f"{m.app_label}.{m.name}" for m, _backwards in plan[:3])
        more = f" and {len(plan) - 3} more" if len(plan) > 3 else ""
        raise CommandError(
            f"The database is not migrated (not applied: {first}{more}): run manage.py migrate first.",
            returncode=SETUP_ERROR,
        )
    _COMPLETE[key] = applied


#: (alias, database name) → the applied migrations :func:`require_migrated` last found complete.
_COMPLETE: dict[tuple[str, str | None], frozenset] = {}


def command_language() -> str:
    """The language the commands write their counted phrases in: ``GM_COMMAND_LANGUAGE`` (``en`` or ``ru``),
    English when unset or unknown (their other output is English)."""
    from django.conf import settings

    wanted = os.environ.get("GM_COMMAND_LANGUAGE", "en").strip().lower()
    return wanted if wanted in dict(settings.LANGUAGES) else "en"


def in_command_language(handle):
    """Decorate a command's ``handle`` so that it runs in :func:`command_language`: its ``ngettext`` phrases then
    read "1 game", "2 games" in English and "1 игра", "2 игры", "5 игр" in Russian."""

    @functools.wraps(handle)
    def wrapper(*args, **kwargs):
        with translation.override(command_language()):
            return handle(*args, **kwargs)

    return wrapper
