"""Forum life models (issue 23 items 1–4): a seat's activity and replacement status, replacement requests and
standby volunteers, each player's tenure of a seat, players' away dates and emergency pauses.

Written only by ``gm.core.services.activity``, ``replacements``, ``extensions`` and ``vacations``; read for a viewer
only through ``gm.core.visibility`` and those services' selectors (a replacement request's reason is the player's
and the master's only)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .models import Game, Seat


class SeatStatus(models.Model):
    """What the core keeps about one seat's player beyond the game: whether he confirmed reading his role, when he
    was last prodded for being quiet, whether the seat needs a replacement (and why), and how many automatic
    extensions the seat has spent. One row per seat, made when first needed."""

    class Flag(models.TextChoices):
        IDLE = "idle", _("quiet past the prod's grace")
        MASTER = "master", _("flagged by the master")
        REQUEST = "request", _("the player asked to be replaced")

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="status")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    role_read_at = models.DateTimeField(null=True, blank=True)
    #: the last prod (cleared once the player is active again).
    prodded_at = models.DateTimeField(null=True, blank=True)
    prods = models.PositiveIntegerField(default=0)
    #: the seat needs a replacement since (shown on the public standby board); ``None``: it does not.
    flagged_at = models.DateTimeField(null=True, blank=True)
    flag = models.CharField(max_length=10, choices=Flag.choices, blank=True)
    extensions_used = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"status of seat {self.seat_id}"


class ReplacementRequest(models.Model):
    """A player's private request to be replaced (his ``reason`` is for the master only). He may withdraw it until
    the master acknowledges it; then it is irrevocable and the seat is flagged for the standby board."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField()
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["seat", "user"], condition=Q(withdrawn_at__isnull=True),
                                               name="one_live_replacement_request")]

    def __str__(self):
        return f"replacement request of seat {self.seat_id}"


class Volunteer(models.Model):
    """A user who offered to take a flagged seat from the standby board; the master approves one."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField()
    approved_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["seat", "user"], condition=Q(withdrawn_at__isnull=True),
                                               name="one_live_volunteer")]

    def __str__(self):
        return f"volunteer {self.user_id} for seat {self.seat_id}"


class Tenure(models.Model):
    """One player's time on a seat (``ended_at`` ``None``: still his). Written when a seat changes hands; a seat
    never handed over has none (its one tenure runs from the game's start: ``replacements.tenure_records``)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="tenures")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seat", "started_at", "id"]

    def __str__(self):
        return f"tenure of {self.user_id} on seat {self.seat_id}"


class Away(models.Model):
    """A player's declared away dates (inclusive, in UTC days): a badge in threads and player lists, no prods."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="away")
    starts_on = models.DateField(_("away from"))
    ends_on = models.DateField(_("away until"))
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(starts_on__lte=models.F("ends_on")),
                                              name="away_starts_before_end")]

    def __str__(self):
        return f"{self.user_id} away {self.starts_on}–{self.ends_on}"


class EmergencyPause(models.Model):
    """A player's emergency pause: ``games`` (ids) were paused at ``started_at`` and resume by themselves at
    ``ends_at`` (``ended_at`` once done)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField(db_index=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    games = models.JSONField(default=list)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self):
        return f"emergency pause of {self.user_id}"
