"""Celery tasks of the accounts: beat's purge of expired sessions."""
from __future__ import annotations

from celery import shared_task


@shared_task(name="accounts.tasks.sessions_purge_task", ignore_result=True)
def sessions_purge_task() -> int:
    """Delete the expired rows of the session store (``manage.py clearsessions`` on a schedule: every
    ``GM_SESSION_PURGE_INTERVAL`` s); returns how many went."""
    from django.utils import timezone

    from .models import Session

    deleted, _by_model = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted
