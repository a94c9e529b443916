"""The site's session store (``accounts.sessions``): a logged-in request reads its session and its user in one
statement, the row's user id follows the session's data, and the data — not that column — decides who is logged in.
"""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Session
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

PAGE = "/accounts/profile/"


def _logged_in_as(response) -> str | None:
    """The name the page's header shows for the logged-in user (his profile link), ``None`` for nobody."""
    found = re.search(r'<a href="/accounts/profile/">([^<]*)</a>', response.content.decode())
    return found.group(1) if found else None


def test_a_logged_in_request_reads_session_and_user_in_one_statement(make_user):
    olga = make_user("olga")
    client = client_for(olga)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(PAGE)
    assert response.status_code == 200 and _logged_in_as(response) == "olga"
    sessions = [q["sql"] for q in ctx.captured_queries if '"accounts_session"' in q["sql"]]
    users = [q["sql"] for q in ctx.captured_queries
             if q["sql"].lstrip().startswith('SELECT "auth_user"."id"') and '"accounts_session"' not in q["sql"]]
    assert len(sessions) == 1 and '"auth_user"' in sessions[0], sessions
    assert users == [], "the user was read again after the session"


def test_the_rows_user_follows_login_logout_and_another_login(make_user):
    olga, lev = make_user("olga"), make_user("lev")
    client = client_for(None)
    assert client.login(username="olga", password="pw-olga-123")
    key = client.cookies["sessionid"].value
    assert Session.objects.get(session_key=key).user_id == olga.pk
    client.post(reverse("account_logout"))
    assert not Session.objects.filter(session_key=key).exists()
    assert client.login(username="lev", password="pw-lev-123")
    assert Session.objects.get(session_key=client.cookies["sessionid"].value).user_id == lev.pk
    assert _logged_in_as(client.get(PAGE)) == "lev"


def test_deleting_a_user_ends_his_sessions(make_user):
    olga = make_user("olga")
    client = client_for(olga)
    assert Session.objects.filter(user=olga).count() == 1
    olga.delete()
    assert Session.objects.count() == 0
    assert client.get(PAGE).status_code == 302  # to the login page


def test_the_sessions_data_decides_who_is_logged_in_not_the_column(make_user):
    """A row whose user column names someone else (it cannot happen through the store; here written by hand) logs in
    the user the signed data names: the user read with the row is only taken when the ids agree."""
    olga, lev = make_user("olga"), make_user("lev")
    client = client_for(olga)
    Session.objects.filter(user=olga).update(user=lev)
    assert _logged_in_as(client.get(PAGE)) == "olga"


def test_a_password_change_elsewhere_logs_the_old_session_out(make_user):
    """Django's session hash check still sees the user as he is now, read in the same statement as the session."""
    olga = make_user("olga")
    client = client_for(olga)
    assert client.get(PAGE).status_code == 200
    olga.set_password("a-new-secret-456")
    olga.save()
    assert client.get(PAGE).status_code == 302
    assert not Session.objects.filter(user=olga).exists()  # flushed by the hash check


def test_an_anonymous_request_after_a_logged_in_one_is_anonymous(make_user):
    olga = make_user("olga")
    assert client_for(olga).get(PAGE).status_code == 200
    response = client_for(None).get(PAGE)
    assert response.status_code == 302


def test_the_migration_carries_live_sessions_over_with_their_user(make_user):
    """``accounts.0002_session`` copies ``django_session``'s live rows with the user their data logs in (and leaves
    the rows of users who are gone)."""
    from importlib import import_module

    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    olga, gone = make_user("olga"), make_user("gone")
    keys = {}
    for user in (olga, gone, None):
        old = DjangoStore()
        if user is not None:
            old[SESSION_KEY], old[BACKEND_SESSION_KEY] = str(user.pk), "accounts.backends.ModelBackend"
            old[HASH_SESSION_KEY] = user.get_session_auth_hash()
        else:
            old["cart"] = "anonymous"
        old.create()
        keys[user.username if user else "anonymous"] = old.session_key
    gone.delete()

    import_module("accounts.migrations.0002_session").copy_live_sessions(apps, SimpleNamespace(connection=connection))
    moved = {s.session_key: s for s in Session.objects.all()}
    assert moved[keys["olga"]].user_id == olga.pk
    assert moved[keys["anonymous"]].user_id is None
    assert keys["gone"] not in moved
    client = client_for(None)
    client.cookies["sessionid"] = keys["olga"]
    assert _logged_in_as(client.get(PAGE)) == "olga"


def test_a_user_read_with_a_session_is_taken_once_and_forgotten_when_a_request_starts(make_user):
    """The user the session store read is handed to the backend once; a new request starts without it, so a row read
    in an earlier request is never taken for a later one."""
    from django.core.signals import request_started
    from django.db import close_old_connections

    from accounts import backends

    olga = make_user("olga")
    stale = type(olga)(pk=olga.pk, username="stale-copy", is_active=True)
    backend = backends.ModelBackend()
    backends.remember_loaded(olga.pk, stale)
    assert backend.get_user(olga.pk) is stale
    assert backend.get_user(olga.pk).username == "olga"  # taken once: read again
    backends.remember_loaded(olga.pk, stale)
    request_started.disconnect(close_old_connections)  # as Django's test client does: keep the test's transaction
    try:
        request_started.send(sender=None)
    finally:
        request_started.connect(close_old_connections)
    assert backend.get_user(olga.pk).username == "olga"


def test_beat_purges_expired_sessions_daily(make_user, settings):
    """Expired sessions are deleted on beat's schedule (``accounts.tasks.sessions_purge_task``, once a day by
    default); live ones stay."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.tasks import sessions_purge_task

    olga = make_user("olga")
    client_for(olga)
    Session.objects.create(session_key="x" * 32, session_data="", expire_date=timezone.now() - timedelta(days=1))
    assert sessions_purge_task() == 1
    assert list(Session.objects.values_list("user_id", flat=True)) == [olga.pk]
    entry = settings.CELERY_BEAT_SCHEDULE["gm-sessions-purge"]
    assert entry == {"task": "accounts.tasks.sessions_purge_task", "schedule": 86400.0}
    from gm.celery import app

    app.loader.import_default_modules()
    assert "accounts.tasks.sessions_purge_task" in app.tasks
