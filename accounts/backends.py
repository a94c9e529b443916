"""The session's user in one query: ``ModelBackend`` whose :meth:`get_user` also brings the profile and the two
facts every page's header shows (may host games, unread notifications)."""
from __future__ import annotations

from django.contrib.auth import backends, get_user_model
from django.db.models import Count, Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce


class ModelBackend(backends.ModelBackend):
    """Django's ``ModelBackend`` (same authentication and permission rules). Loading the session's user, it
    joins the user's ``profile`` (read by ``UserPreferencesMiddleware`` on every request) and annotates
    ``gm_can_host`` (``core.services.can_host``'s permission test) and ``gm_unread`` (``inbox.services.unread_count``
    as the request began): three queries fewer per page."""

    def get_user(self, user_id):
        from gm.inbox.models import Notification

        model = get_user_model()
        may_host = model.objects.with_perm("core.host_game", backend="django.contrib.auth.backends.ModelBackend")
        unread = (Notification.objects.filter(user=OuterRef("pk"), read_at__isnull=True).order_by()
                  .values("user").annotate(n=Count("pk")).values("n"))
        try:
            user = (model._default_manager.select_related("profile")
                    .annotate(gm_can_host=Exists(may_host.filter(pk=OuterRef("pk"))),
                              gm_unread=Coalesce(Subquery(unread), 0))
                    .get(pk=user_id))
        except model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
