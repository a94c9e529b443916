"""Django's database sessions (``SESSION_ENGINE = "accounts.sessions"``) in :class:`accounts.models.Session`, whose
row also holds the logged-in user's id: every request of a logged-in user reads his session and his user (with the
columns ``accounts.backends.ModelBackend`` loads) in one hand-written statement.

The ORM compiled ``Session.objects.get(session_key=…, expire_date__gt=now)`` again on every request, about 1 ms of
CPU for a 0.1 ms query, and the user was a second round trip to the database. Writing, expiry, cycling the key and
``clearsessions`` are Django's own; what the session's data says still decides who is logged in
(``django.contrib.auth.get_user`` checks it and the password hash as before): the user read with the row is only
taken when his id is the one the data names.
"""
from __future__ import annotations

from functools import cache

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

from . import backends


class SessionStore(db.SessionStore):
    """:class:`django.contrib.sessions.backends.db.SessionStore` on :class:`accounts.models.Session`: its load reads
    the row and its user with :func:`_load_sql`; each save writes the user's id beside the data."""

    @classmethod
    def get_model_class(cls):
        from .models import Session

        return Session

    def create_model_instance(self, data):
        """Django's row for ``data``, with ``user_id`` the id of the user it logs in (``None``: nobody)."""
        obj = super().create_model_instance(data)
        obj.user_id = _user_id(data)
        return obj

    def _get_session_from_db(self):
        """The live session row of ``self.session_key`` (with only ``session_data`` set), or ``None`` — and then the
        key is forgotten, as Django's store does, so a new session gets a new key. The user read with the row is
        handed to the authentication backend (``backends.remember_loaded``)."""
        model = self.model
        alias = router.db_for_read(model)
        with connections[alias].cursor() as cursor:
            cursor.execute(_load_sql(model, alias), (*backends.select_params(), self.session_key, timezone.now()))
            row = cursor.fetchone()
        if row is None:
            backends.remember_loaded(None, None)
            self._session_key = None
            return None
        user_id = row[1]
        backends.remember_loaded(user_id, backends.user_from_row(row[2:]) if user_id is not None else None)
        return model(session_key=self.session_key, session_data=row[0])


def _user_id(data: dict) -> int | None:
    try:
        return int(data[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None


@cache
def _load_sql(model, alias: str) -> str:
    """``SELECT session_data, user_id, <the user's columns> … WHERE session_key = %s AND expire_date > %s`` for
    ``model``'s table, the user LEFT JOINed (``backends.user_columns``; its parameters come first)."""
    from django.contrib.auth import get_user_model

    q = connections[alias].ops.quote_name
    meta = model._meta
    column = lambda name: f"s.{q(meta.get_field(name).column)}"  # noqa: E731
    user = get_user_model()
    ut = q(user._meta.db_table)
    select, joins, *_rest = backends.user_columns()
    return (f"SELECT {column('session_data')}, {column('user')}, {select} FROM {q(meta.db_table)} s"
            f" LEFT OUTER JOIN {ut} ON {ut}.{q(user._meta.pk.column)} = {column('user')} {joins}"
            f" WHERE {column('session_key')} = %s AND {column('expire_date')} > %s")
