"""Template tags of the community app: a user's reliability record (the profile page)."""
from django import template

from .. import selectors

register = template.Library()


@register.inclusion_tag("community/_reliability.html")
def reliability_record(user):
    """``user``'s reliability record as a definition list."""
    return {"record": selectors.record_of(user)}


@register.inclusion_tag("community/_requirements_note.html")
def signup_requirements(game, viewer):
    """The game page's note on ``game``'s signup requirements (before the start): what it asks, and for its master
    the link to change it."""
    req = selectors.requirement_of(game)
    return {"game": game, "lines": selectors.requirement_lines(req), "is_master": getattr(viewer, "is_master", False)}
