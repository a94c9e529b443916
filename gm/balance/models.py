"""The balance report's one table: a request of a master for his game's setup and, once the Celery job has played
it, its result (``gm.core.balance.estimate``'s report)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class BalanceReport(models.Model):
    """One "estimate balance" request: the setup (``module``, ``players``, ``options``), ``games`` and ``seed``; its
    ``status`` (queued → running → done or failed), ``progress`` (games played so far), the ``result`` (the JSON of
    ``gm.core.balance.estimate``) or the ``error`` in words."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    game = models.ForeignKey("core.Game", on_delete=models.CASCADE, related_name="balance_reports",
                             verbose_name=_("game"))
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                     related_name="+", verbose_name=_("requested by"))
    module = models.CharField(_("game module"), max_length=40)
    players = models.PositiveIntegerField(_("players"))
    games = models.PositiveIntegerField(_("games"))
    seed = models.BigIntegerField(_("seed"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveIntegerField(_("games played"), default=0)
    result = models.JSONField(_("result"), default=dict, blank=True)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("requested at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("balance report")
        verbose_name_plural = _("balance reports")

    def __str__(self) -> str:
        return f"{self.module} ×{self.players}, {self.games} games ({self.status})"

    @property
    def pending(self) -> bool:
        """Whether the job has yet to finish (the page keeps polling)."""
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)
