"""Blood Vengeance's receivers of the core's signals: at the start of a game of a series, the players silenced when
the series' previous game ended start it silenced (BV-15.12; ``gm.core.signals.game_started``)."""
from __future__ import annotations

from django.dispatch import receiver

from gm.core.signals import game_started

from . import services

SLUG = "blood_vengeance"


@receiver(game_started, dispatch_uid="blood_vengeance.carry_series_silence")
def carry_series_silence(sender, *, game, module, **kwargs) -> None:
    """BV-15.12: hand a Blood Vengeance game's start to :func:`.services.carry_series_silence` (others: nothing)."""
    if module.slug == SLUG:
        services.carry_series_silence(game=game)
