"""Template tags of co-mastering (issue 24 item 5): the game page's co-master panel and the console's part, so the
game page's and the console's views need not know them."""
from __future__ import annotations

from django import template

register = template.Library()


@register.inclusion_tag("gm/_comasters.html", takes_context=True)
def comaster_panel(context, game, viewer):
    """The co-masters ``viewer`` may know of, his takeover offer and (for the master of a draft) the setup review."""
    from ..comaster_views import page_context

    return {"game": game, "viewer": viewer, "request": context.get("request"), "csrf_token": context.get("csrf_token"),
            **page_context(game=game, viewer=viewer)}


@register.inclusion_tag("gm/_console_comasters.html", takes_context=True)
def comaster_console(context, game, viewer):
    """The console's co-master list and forms (empty for anyone who does not master ``game``)."""
    from ..comaster_views import console_part

    return {"game": game, "viewer": viewer, "csrf_token": context.get("csrf_token"),
            "cm": console_part(game=game, viewer=viewer)}
