"""Template tags of the community app: a user's reliability record (the profile page)."""
from django import template

from .. import selectors

register = template.Library()


@register.inclusion_tag("community/_reliability.html")
def reliability_record(user):
    """``user``'s reliability record as a definition list."""
    return {"record": selectors.record_of(user)}
