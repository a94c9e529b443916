"""The page stamp's table (:mod:`gm.core.page_stamps`): one row per write statement that touched what a game's page
shows, appended by database triggers.

It lives in its own file (imported at the end of :mod:`gm.core.models`, so its app is ``core``).
"""
from __future__ import annotations

from django.db import models


class PageStamp(models.Model):
    """A write to game ``game_id``'s pages: appended by the triggers :mod:`gm.core.page_stamps` installs, never
    updated. A game's stamp is ``(max(id), count(*))`` of its rows; rows older than ``GM_PAGE_STAMP_KEEP`` seconds
    but the newest are pruned. ``game_id`` is a plain integer, not a foreign key: a key would make every write lock
    the game row's key share, and the rows of a deleted game are pruned."""

    id = models.BigAutoField(primary_key=True)
    game_id = models.BigIntegerField()
    created_at = models.DateTimeField(db_default=models.functions.Now())

    class Meta:
        indexes = [models.Index(fields=["game_id", "id"], name="core_pagestamp_game_id_idx")]

    def __str__(self):
        return f"stamp {self.pk} of game {self.game_id}"
