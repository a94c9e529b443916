"""October Night's site-wide data set (OC-17): the catalogue the site keeps and staff edit in the admin. A game
starts from the active set (merged with its master's overrides) and stores a snapshot of it with its digest in its
state, so an edit here never touches a running game. With no active row the module's ``data/default.yaml`` is the
set."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DataSet(models.Model):
    """One version of the site's data set (OC-17): ``text`` the whole set as YAML (the shape of
    ``data/default.yaml``), ``digest`` the SHA-256 of the parsed set (as a game's state stores it), ``active`` whether
    new games start from it (at most one row is), who saved it and when."""

    name = models.CharField(_("name"), max_length=80, default="October Night")
    text = models.TextField(_("data set (YAML)"))
    digest = models.CharField(_("digest"), max_length=64, editable=False)
    active = models.BooleanField(_("active"), default=True,
                                 help_text=_("New games start from the active data set; running games keep theirs."))
    updated_at = models.DateTimeField(_("saved"), auto_now=True)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   editable=False, related_name="+", verbose_name=_("saved by"))

    class Meta:
        ordering = ["-active", "-updated_at"]
        verbose_name = _("October Night data set")
        verbose_name_plural = _("October Night data sets")
        constraints = [models.UniqueConstraint(fields=["active"], condition=models.Q(active=True),
                                               name="oc_one_active_data_set")]

    def __str__(self) -> str:
        return f"{self.name} ({self.digest[:12]})"
