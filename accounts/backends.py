"""The session's user in one query: ``ModelBackend`` whose :meth:`get_user` also brings the profile and the two
facts every page's header shows (may host games, unread notifications)."""
from __future__ import annotations

from functools import cache

from django.contrib.auth import backends, get_user_model
from django.db import connection
from django.db.models import BooleanField, IntegerField
from django.db.models.expressions import RawSQL

#: The permission that lets a user host games (``core.services.can_host``): codename, app label.
HOST_PERMISSION = ("host_game", "core")


@cache
def _annotations_sql() -> tuple[str, str]:
    """``(can_host, unread)``: SQL expressions over the user row, ``can_host`` taking :data:`HOST_PERMISSION` twice.

    They say what ``User.objects.with_perm("core.host_game")`` and a ``Count`` subquery of unread notifications
    say, written once: the ORM compiled those two subqueries again on every request, about 7 ms of CPU each time
    (the whole request's query, 1 ms, is cheap beside it)."""
    from django.contrib.auth.models import Group, Permission
    from django.contrib.contenttypes.models import ContentType

    from gm.inbox.models import Notification

    user = get_user_model()
    q = connection.ops.quote_name
    me = f"{q(user._meta.db_table)}.{q(user._meta.pk.column)}"
    perm, ctype = q(Permission._meta.db_table), q(ContentType._meta.db_table)
    user_perms = user._meta.get_field("user_permissions").remote_field.through._meta.db_table
    user_groups = user._meta.get_field("groups").remote_field.through._meta.db_table
    group_perms = Group._meta.get_field("permissions").remote_field.through._meta.db_table
    wanted = "p.codename = %s AND ct.app_label = %s"
    can_host = (
        f"({q(user._meta.db_table)}.{q('is_superuser')}"
        f" OR EXISTS (SELECT 1 FROM {q(user_perms)} up INNER JOIN {perm} p ON p.id = up.permission_id"
        f" INNER JOIN {ctype} ct ON ct.id = p.content_type_id WHERE up.user_id = {me} AND {wanted})"
        f" OR EXISTS (SELECT 1 FROM {q(user_groups)} ug INNER JOIN {q(group_perms)} gp ON gp.group_id = ug.group_id"
        f" INNER JOIN {perm} p ON p.id = gp.permission_id INNER JOIN {ctype} ct ON ct.id = p.content_type_id"
        f" WHERE ug.user_id = {me} AND {wanted}))")
    unread = (f"(SELECT COUNT(*) FROM {q(Notification._meta.db_table)} n"
              f" WHERE n.{q('user_id')} = {me} AND n.{q('read_at')} IS NULL)")
    return can_host, unread


class ModelBackend(backends.ModelBackend):
    """Django's ``ModelBackend`` (same authentication and permission rules). Loading the session's user, it
    joins the user's ``profile`` (read by ``UserPreferencesMiddleware`` on every request) and annotates
    ``gm_can_host`` (``core.services.can_host``'s permission test: superuser, or ``core.host_game`` held directly
    or through a group) and ``gm_unread`` (``inbox.services.unread_count`` as the request began): three queries
    fewer per page, in one statement whose SQL is written once per process (:func:`_annotations_sql`)."""

    def get_user(self, user_id):
        model = get_user_model()
        can_host, unread = _annotations_sql()
        try:
            user = (model._default_manager.select_related("profile")
                    .annotate(gm_can_host=RawSQL(can_host, HOST_PERMISSION * 2, output_field=BooleanField()),
                              gm_unread=RawSQL(unread, (), output_field=IntegerField()))
                    .get(pk=user_id))
        except model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
