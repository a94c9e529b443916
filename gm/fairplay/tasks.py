"""Celery tasks of fair play: beat's purge of old signals."""
from __future__ import annotations

from celery import shared_task


@shared_task(name="gm.fairplay.tasks.fairplay_purge_task", ignore_result=True)
def fairplay_purge_task() -> int:
    """Delete login signals older than ``GM_FAIRPLAY_RETENTION_DAYS`` (every ``GM_FAIRPLAY_PURGE_INTERVAL`` s)."""
    from .services import purge

    return purge()
