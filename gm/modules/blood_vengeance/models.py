"""Blood Vengeance's own table: the hunters' room (BV-4.1, BV-14.2) — the hunters' private chat, open only in the
light time, where they agree whom the gathering kills (BV-6.3). Who reads it is decided by the core's group of the
hunters (``faction:hunters``, ``gm.core.visibility.group_members``): its members, the master, and everyone after the
game."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from gm.core.models import Game, Phase, Seat


class HuntersPost(models.Model):
    """One message of the hunters' room: its ``game``, the hunter's ``seat`` (and the ``author`` who played it), the
    light ``phase`` it was written in, plain-text ``body`` (at most :attr:`MAX_BODY` characters) and ``created_at``."""

    MAX_BODY = 2000

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="bv_hunters_posts", verbose_name=_("game"), db_index=False,
    )
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    phase = models.ForeignKey(Phase, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    body = models.TextField(_("message"), max_length=MAX_BODY)
    created_at = models.DateTimeField(_("written"))

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["game", "created_at"], name="bv_hunters_game_created")]
        verbose_name = _("message of the hunters' room")
        verbose_name_plural = _("messages of the hunters' room")

    def __str__(self) -> str:
        return f"{self.game_id}: {self.body[:40]}"
