"""``{% load rule_links %}``: ``{{ text|rule_links }}`` escapes ``text`` and links every rule ID in it ("(FM-5.3)")
to its definition on the rules pages (``gm.core.rules``)."""
from __future__ import annotations

from django import template

from gm.core import rules

register = template.Library()


@register.filter(name="rule_links")
def rule_links(text):
    """``text`` escaped, its rule IDs linked to ``/rules/<file>/#<ID>``."""
    if text is None or text == "":
        return ""
    return rules.link_ids(text)
