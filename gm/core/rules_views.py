"""The rules pages: ``/rules/`` (every rules file), ``/rules/<slug>/`` (one, with an anchor per rule ID) and
``/rules/id/<ID>/`` (a redirect to where rule ``ID`` is defined, for links made in the browser)."""
from __future__ import annotations

from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _

from . import rules


def rules_index(request):
    """Every rules file the site serves, by title."""
    return render(request, "gm/rules.html", {"documents": rules.documents(), "doc": None})


def rules_page(request, slug: str):
    """One rules file rendered (``docs/rules/<slug>.md``); 404 for an unknown one."""
    doc = rules.document(slug)
    if doc is None:
        raise Http404(_("No such rules page."))
    return render(request, "gm/rules.html", {"documents": rules.documents(), "doc": doc, "body": rules.render(doc)})


def rule_redirect(request, rule_id: str):
    """Redirect to rule ``rule_id``'s definition (404 when it is not a rule ID)."""
    if not rules.RULE_ID.fullmatch(rule_id):
        raise Http404(_("No such rule."))
    return HttpResponseRedirect(rules.locate(rule_id))
