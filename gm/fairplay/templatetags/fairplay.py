"""``{% fairplay_flags game viewer %}``: the fair-play part of the master's console (empty for anyone else)."""
from __future__ import annotations

from django import template

register = template.Library()


@register.inclusion_tag("fairplay/_console_flags.html")
def fairplay_flags(game, viewer):
    """The shared-login flags of ``game`` when ``viewer`` masters it (see :func:`gm.fairplay.services.game_flags`)."""
    from ..services import game_flags

    return {"game": game, "shown": viewer.is_master, "flags": game_flags(viewer) if viewer.is_master else []}
