"""Models of co-mastering (issue 24 item 5, BV-15.14): a game's co-masters, the site's setup review and the offers
to take over from an inactive master.

They live in their own file (imported at the end of :mod:`gm.core.models`, so their app is ``core``). Who may act
as a game's master is decided in one place, :mod:`gm.core.services.comasters`; the visibility layer reads it.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .models import Game


class CoMaster(models.Model):
    """A user who masters ``game`` beside its master. A full co-master has the master's console rights; a
    ``read_only`` one sees everything the master sees and can't act (BV-15.14's temporary master). ``public``: the
    players may know he is a co-master (listed on the game page); otherwise only the masters do. ``source``:
    ``master`` (added on the console) or ``module`` (made by the game's rules, e.g. BV-15.14)."""

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="co_masters", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="co_mastered",
                             verbose_name=_("user"))
    read_only = models.BooleanField(_("read-only"), default=False)
    public = models.BooleanField(_("shown to the players"), default=True)
    source = models.CharField(max_length=10, default="master")
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "created_at", "id"]
        verbose_name = _("co-master")
        verbose_name_plural = _("co-masters")
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_comaster_row_per_user")]
        permissions = [
            ("standby_master", _("Can take over games whose master is inactive")),
            ("review_setup", _("Can review game setups")),
        ]

    def __str__(self):
        return f"{self.user_id} co-masters {self.game_id}"


class SetupReview(models.Model):
    """The site's review of a game's setup before its signups open (``GM_SETUP_REVIEW``): one row per game,
    ``pending`` until a reviewer approves (signups open) or rejects it with a comment (the master may change the
    setup and ask again)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="setup_review")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING,
                              db_index=True)
    requested_at = models.DateTimeField()
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")
    comment = models.TextField(_("comment"), blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("setup review")
        verbose_name_plural = _("setup reviews")

    def __str__(self):
        return f"review of {self.game_id}: {self.status}"


class TakeoverOffer(models.Model):
    """The master of a running game did nothing for ``GM_MASTER_INACTIVE_DAYS``: his full co-masters (or, if he has
    none, the standby masters) were told and one of them may take the game over. ``candidates``: the user ids told;
    open while ``closed_at`` is empty (closed when taken, or when the master came back)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="takeover_offers")
    master = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    candidates = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["game"], condition=models.Q(closed_at__isnull=True),
                                               name="one_open_takeover_offer")]

    def __str__(self):
        return f"takeover of {self.game_id} ({'closed' if self.closed_at else 'open'})"
