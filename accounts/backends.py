"""The session's user in one statement: ``ModelBackend`` whose :meth:`get_user` also brings the profile and the two
facts every page's header shows (may host games, unread notifications). The session store
(:mod:`accounts.sessions`) reads the same columns with the session row, so a request reads its session and its user
in one statement; :meth:`ModelBackend.get_user` then takes the user it loaded (:func:`remember_loaded`)."""
from __future__ import annotations

from contextvars import ContextVar
from functools import cache

from django.contrib.auth import backends, get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.signals import request_started
from django.db import connection

#: The permission that lets a user host games (``core.services.can_host``): codename, app label, model.
HOST_PERMISSION = ("host_game", "core", "game")

#: ``(user id, user or None)`` of the session row the session store read last in this thread or task, until
#: :meth:`ModelBackend.get_user` takes it (once) or the next request starts.
_LOADED: ContextVar[tuple[int, object] | None] = ContextVar("gm_session_user", default=None)


@cache
def user_columns() -> tuple[str, str, list[str], list[str], list]:
    """The user part of the statements: ``(select, joins, user attnames, profile attnames, converters)``.

    ``select`` lists the user's columns, his profile's (LEFT JOIN: a user without one gets ``None``), then
    ``gm_can_host`` and ``gm_unread``, and takes :func:`select_params` (in that order, before any other parameter);
    ``joins`` is the profile's LEFT JOIN, to follow ``FROM`` the user table (``auth_user`` unless swapped).
    ``converters``: ``(column index, field, [converter…])`` for the columns whose value the database backend or
    the field converts (as the ORM's compiler would).

    ``gm_can_host`` says what ``User.objects.with_perm("core.host_game")`` says — superuser, or the permission held
    directly or through a group — with the permission's content type id and codename as parameters (twice), so
    the statement joins no permission or content-type table: PostgreSQL planned the joined form in 0.8 ms on every
    request. ``gm_unread`` counts the unread notifications. The SQL is written once per process: the ORM compiled
    the same query again on every request (about 1 ms of CPU)."""
    from django.contrib.auth.models import Group, Permission

    from gm.inbox.models import Notification

    from .models import Profile

    user = get_user_model()
    q = connection.ops.quote_name
    ut, pt = q(user._meta.db_table), q(Profile._meta.db_table)
    me = f"{ut}.{q(user._meta.pk.column)}"
    user_perms = user._meta.get_field("user_permissions").remote_field.through._meta.db_table
    user_groups = user._meta.get_field("groups").remote_field.through._meta.db_table
    group_perms = Group._meta.get_field("permissions").remote_field.through._meta.db_table
    perm = f"(SELECT p.id FROM {q(Permission._meta.db_table)} p WHERE p.content_type_id = %s AND p.codename = %s)"
    can_host = (
        f"({ut}.{q('is_superuser')}"
        f" OR EXISTS (SELECT 1 FROM {q(user_perms)} up WHERE up.user_id = {me} AND up.permission_id = {perm})"
        f" OR EXISTS (SELECT 1 FROM {q(user_groups)} ug INNER JOIN {q(group_perms)} gp ON gp.group_id = ug.group_id"
        f" WHERE ug.user_id = {me} AND gp.permission_id = {perm}))")
    unread = (f"(SELECT COUNT(*) FROM {q(Notification._meta.db_table)} n"
              f" WHERE n.{q('user_id')} = {me} AND n.{q('read_at')} IS NULL)")
    user_fields, profile_fields = user._meta.concrete_fields, Profile._meta.concrete_fields
    columns = [f"{ut}.{q(f.column)}" for f in user_fields] + [f"{pt}.{q(f.column)}" for f in profile_fields]
    select = f"{', '.join(columns)}, {can_host}, {unread}"
    joins = f"LEFT OUTER JOIN {pt} ON {pt}.{q(Profile._meta.get_field('user').column)} = {me}"
    fields = [*user_fields, *profile_fields]
    # The backend's converters first, then the field's, as the ORM's compiler applies them (SQLite's turn its
    # datetime text into aware datetimes; PostgreSQL's driver returns them ready).
    converters = [(i, f, convs) for i, f in enumerate(fields)
                  if (convs := [*connection.ops.get_db_converters(f.cached_col),
                                *f.cached_col.get_db_converters(connection)])]
    return select, joins, [f.attname for f in user_fields], [f.attname for f in profile_fields], converters


def select_params() -> tuple:
    """The parameters of :func:`user_columns`'s ``select``: the host permission's content type and codename, twice."""
    codename, app_label, model_name = HOST_PERMISSION
    content_type = ContentType.objects.get_by_natural_key(app_label, model_name).pk  # Django's per-process cache
    return (content_type, codename, content_type, codename)


@cache
def _user_sql() -> str:
    """One user by id (the last parameter), in :func:`user_columns`'s columns."""
    user = get_user_model()
    q = connection.ops.quote_name
    select, joins, *_rest = user_columns()
    ut = q(user._meta.db_table)
    return f"SELECT {select} FROM {ut} {joins} WHERE {ut}.{q(user._meta.pk.column)} = %s"


def user_from_row(row) -> object | None:
    """The user of ``row`` (a database row in :func:`user_columns`'s columns), with ``profile``, ``gm_can_host`` and
    ``gm_unread`` set; ``None`` when the row holds no user (its id column is NULL)."""
    from .models import Profile

    model = get_user_model()
    _select, _joins, user_names, profile_names, converters = user_columns()
    if row[0] is None:
        return None
    if converters:
        row = list(row)
        for i, field, convs in converters:
            if row[i] is not None:
                for convert in convs:
                    row[i] = convert(row[i], field.cached_col, connection)
    users, profiles = len(user_names), len(profile_names)
    user = model.from_db(connection.alias, user_names, row[:users])
    profile_row = row[users:users + profiles]
    profile = None if profile_row[0] is None else Profile.from_db(connection.alias, profile_names, profile_row)
    user._state.fields_cache["profile"] = profile  # None: no profile (user.profile raises as after select_related)
    if profile is not None:
        profile._state.fields_cache["user"] = user
    user.gm_can_host, user.gm_unread = bool(row[-2]), row[-1]
    return user


def remember_loaded(user_id: int | None, user) -> None:
    """Called by the session store as it reads a session row: the user it read with it (``None``: the session has no
    user, or he no longer exists), for :meth:`ModelBackend.get_user` to take instead of reading him again."""
    _LOADED.set(None if user_id is None else (user_id, user))


def _forget_loaded(**kwargs) -> None:
    _LOADED.set(None)


request_started.connect(_forget_loaded, dispatch_uid="accounts.backends.forget_loaded")


class ModelBackend(backends.ModelBackend):
    """Django's ``ModelBackend`` (same authentication and permission rules). Loading the session's user, it
    brings the user's ``profile`` (read by ``UserPreferencesMiddleware`` on every request) as ``select_related``
    would, and sets ``gm_can_host`` (``core.services.can_host``'s permission test) and ``gm_unread``
    (``inbox.services.unread_count`` as the request began): three queries fewer per page, and none at all when the
    session store has just read him with the session row (:func:`remember_loaded`)."""

    def get_user(self, user_id):
        """The active user whose primary key is ``user_id`` (from the session), or ``None``."""
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:  # a tampered session id reads as nobody
            return None
        loaded = _LOADED.get()
        if loaded is not None and loaded[0] == pk:
            _LOADED.set(None)  # taken once: a later call reads the row again
            user = loaded[1]
        else:
            with connection.cursor() as cursor:
                cursor.execute(_user_sql(), (*select_params(), pk))
                row = cursor.fetchone()
            user = None if row is None else user_from_row(row)
        if user is None:
            return None
        return user if self.user_can_authenticate(user) else None
