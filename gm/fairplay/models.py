"""Fair-play rows (issue 24 item 6). Nothing here is readable back into an IP address or a cookie: both are kept as
an HMAC-SHA256 under the site's ``GM_FAIRPLAY_SECRET`` (see :mod:`gm.fairplay.services`)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LoginSignal(models.Model):
    """One login of ``user``: the keyed hashes of the IP address it came from and of the browser's device cookie.
    Purged after ``GM_FAIRPLAY_RETENTION_DAYS`` days and when the account is deleted."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    ip_hash = models.CharField(max_length=64, db_index=True, blank=True)
    device_hash = models.CharField(max_length=64, db_index=True, blank=True)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("login signal")
        verbose_name_plural = _("login signals")

    def __str__(self):
        return f"login of {self.user_id} at {self.created_at:%Y-%m-%d %H:%M}"


class Spectator(models.Model):
    """A logged-in user who read a game's page without a seat, last at ``seen_at`` (one row per game and user)."""

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    game = models.ForeignKey("core.Game", on_delete=models.CASCADE, related_name="+", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="fairplay_one_spectator_row")]

    def __str__(self):
        return f"{self.user_id} watched {self.game_id}"
