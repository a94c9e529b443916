"""Web helpers for the views of the core and of every game module: find the game of a URL, and the common "POST →
call one service → message and redirect, or show the refusal" step.

A view parses its input, calls one service and shows the answer; these helpers keep that last part the same on
every page: a refused request (:class:`~gm.core.services.ServiceError`) shows each of its messages, changes
nothing and answers with the same redirect, so a player never loses the page he was on.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponseRedirect

from . import visibility
from .models import Game
from .services import ServiceError


def game_or_404(user, pk, *, module: str | None = None, uses_cards: bool = False) -> Game:
    """The game ``pk`` (its id, an int or the URL's digits) if ``user`` (a Django user, or ``None``/an anonymous
    user) may see it; with ``module`` (a registry slug, e.g. ``"forum_mafia"``) only a game of that module, with
    ``uses_cards`` only a game whose module plays with cards. Raises ``Http404`` ("No such game.") otherwise, so a
    draft is not even revealed to exist. The game comes with its master's profile (pages name him)."""
    return visibility.game_or_404(user, pk, module=module, uses_cards=uses_cards)


def error_messages(exc: ServiceError, form=None) -> list[str]:
    """Every message of ``exc`` as one list, in its field order. With ``form`` (a Django form), a message about one
    of the form's fields is prefixed with that field's label ("Minutes: …"), and one about another field with the
    field's key; whole-request messages (``"__all__"``) as they are."""
    out: list[str] = []
    for field, msgs in exc.errors.items():
        label = form.fields[field].label if form is not None and field in form.fields else ""
        if label:
            out += [f"{label}: {m}" for m in msgs]
        elif form is not None and field != "__all__":
            out += [f"{field}: {m}" for m in msgs]
        else:
            out += list(msgs)
    return out


def flash_errors(request: HttpRequest, exc: ServiceError) -> None:
    """Show every message of ``exc`` (a refused service call) on the next page (Django's messages, level error),
    without field names: the form it came from is gone after the redirect."""
    for msgs in exc.errors.values():
        for msg in msgs:
            messages.error(request, msg)


def form_errors(form, exc: ServiceError, *, aliases: Mapping[str, str] | None = None) -> None:
    """Put the field errors of ``exc`` on ``form`` (a bound Django form) to render it again: each error goes to
    the form field of the same name, or of its first dotted part (``options.rounds`` → ``options``), or to the
    field that ``aliases`` (service key → form field name) names; every other one is a form-wide error."""
    for field, msgs in exc.errors.items():
        root = field.split(".", 1)[0]
        target = (aliases or {}).get(field) or (root if root in form.fields else None)
        for msg in msgs:
            form.add_error(target, msg)


def post_action(request: HttpRequest, action: Callable[[], Any], *, redirect_to: str, success: str = "",
                form=None) -> HttpResponseRedirect:
    """The common end of a POST view: with ``form`` (a bound Django form), refuse it first if it is invalid (each
    error shown as "Label: message"); then call ``action()`` (one service call, which raises
    :class:`~gm.core.services.ServiceError` when it refuses); show ``success`` (if given) when it went through, or
    every message of the refusal (:func:`flash_errors`) when not; and redirect to ``redirect_to`` (a URL, e.g. the
    game page with an anchor) either way. Any other exception propagates."""
    if form is not None and not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            for error in errors:
                messages.error(request, f"{label}: {error}" if label else error)
        return HttpResponseRedirect(redirect_to)
    try:
        action()
    except ServiceError as exc:
        flash_errors(request, exc)
    else:
        if success:
            messages.success(request, success)
    return HttpResponseRedirect(redirect_to)
