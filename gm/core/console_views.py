"""The master's console pages (``/games/<id>/console/…``): each intervention is a POST form that works with htmx (the
console section comes back, with the notice or every reason of a refusal) and without JavaScript (a redirect to the
console on the game page with the notice or the reasons as messages). Views parse the form, call one service and
render; a refused request changes nothing (the services are atomic and validate first)."""
from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from . import interventions, review, services, visibility, web
from .console import console_context, event_rows, seat_edit_form
from .forms import (
    AbortForm,
    ExtendForm,
    PublishAtForm,
    ReasonForm,
    ReviewModeForm,
    SeatAliveForm,
    SeatReplaceForm,
)
from .models import Game, Phase, Seat
from .services import ServiceError


def _game(request, pk: int) -> Game:
    return web.game_or_404(request.user, pk)


def _open_phase(game: Game) -> Phase | None:
    return game.phases.exclude(status=Phase.Status.RESOLVED).first()


def _console(request, game: Game, *, notice: str = "", errors: list[str] | None = None, status: int = 200):
    viewer = visibility.viewer_for(request.user, game)
    phase = _open_phase(game)
    context = {"game": game, "viewer": viewer, "phase": phase,
               "console": console_context(game=game, viewer=viewer, phase=phase, notice=notice, errors=errors)}
    return render(request, "gm/_console.html", context, status=status)


def _back(game: Game) -> HttpResponseRedirect:
    return HttpResponseRedirect(game.get_absolute_url() + "#console")


def _messages_of(form, exc: ServiceError | None = None) -> list[str]:
    if exc is not None:
        return web.error_messages(exc, form)
    out = []
    for field, msgs in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        out += [f"{label}: {m}" if label else m for m in msgs]
    return out


def _intervene(request, pk: int, form_class, call: Callable[[Game, dict], object], success: str):
    """Parse ``form_class``, call ``call(game, cleaned_data)`` (one service), answer with the console (htmx) or a
    redirect with messages. Only the master gets this far with a form; anyone else is refused by the service."""
    game = _game(request, pk)
    form = form_class(request.POST)
    errors: list[str] = []
    if form.is_valid():
        try:
            call(game, form.cleaned_data)
        except ServiceError as exc:
            errors = _messages_of(form, exc)
            if exc.code == "forbidden":
                raise PermissionDenied(" ".join(errors)) from None
    else:
        errors = _messages_of(form)
    game.refresh_from_db()
    if request.htmx:
        return _console(request, game, notice="" if errors else success, errors=errors)
    for error in errors:
        messages.error(request, error)
    if not errors:
        messages.success(request, success)
    return _back(game)


def _master_only(request, game: Game) -> visibility.Viewer:
    viewer = visibility.viewer_for(request.user, game)
    if not viewer.is_master:
        raise PermissionDenied(_("Only the game's master may do this."))
    return viewer


@login_required
def console(request, pk: int):
    """The console section alone (htmx refresh); without htmx, the game page at the console."""
    game = _game(request, pk)
    _master_only(request, game)
    return _console(request, game) if request.htmx else _back(game)


@login_required
def preview(request, pk: int):
    """The what-if preview (``interventions.phase_preview``; read-only, so a GET): the open phase resolved on the
    current orders, nothing committed — the htmx partial, or a page of its own without JavaScript."""
    game = _game(request, pk)
    viewer = _master_only(request, game)
    context = {"game": game, "viewer": viewer, "full_page": not request.htmx}
    try:
        result = interventions.phase_preview(game=game, actor=request.user)
    except ServiceError as exc:
        context["errors"] = [m for msgs in exc.errors.values() for m in msgs]
    else:
        names = {s.pk: s.display_name for s in game.seats.all()}
        outcome = result.result.outcome
        context.update({
            "preview": result, "rows": event_rows(game, result.result.events, names),
            "deaths": [names.get(k, k) for k, alive in result.result.alive.items() if not alive],
            "next_phase": (game.game_module.phase_label(result.result.next_phase.kind, result.result.next_phase.number)
                           if result.result.next_phase else ""),
            "winners": [game.game_module.winner_label(w) for w in outcome.winners] if outcome else None,
        })
    template = "gm/_console_preview.html" if request.htmx else "gm/console_preview.html"
    return render(request, template, context)


def _seat(data: dict) -> int:
    return data["seat"]


def _edit_page(request, game: Game, seat: Seat, form, *, status: int = 200):
    """The seat edit form: the htmx partial (swapped into the seat's console entry) or a page of its own."""
    context = {"game": game, "seat": seat, "form": form, "full_page": not request.htmx}
    template = "gm/_console_seat_edit.html" if request.htmx else "gm/console_seat_edit.html"
    return render(request, template, context, status=200 if request.htmx else status)


@require_GET
@login_required
def seat_edit_form_view(request, pk: int, seat_id: int):
    """The form that edits one seat's cards and flags (pickers of card names, the flags as fields), drawn from the
    seat as it is now; its POST goes to :func:`seat_edit`."""
    game = _game(request, pk)
    _master_only(request, game)
    seat = game.seats.filter(pk=seat_id).first()
    if seat is None:
        raise Http404
    return _edit_page(request, game, seat, seat_edit_form(game, seat, _open_phase(game)))


def _seat_of(game: Game, raw) -> Seat | None:
    try:
        return game.seats.filter(pk=int(raw)).first()
    except (TypeError, ValueError):
        return None


@require_POST
@login_required
def seat_edit(request, pk: int):
    """Save the seat edit form: a bad value (a card not in the game, a jail out of range) is a field error of its
    picker and nothing is written; a seat changed since the form was drawn is refused with the form redrawn from
    the seat as it is now. Success: the console (htmx) or the game page at the console."""
    game = _game(request, pk)
    _master_only(request, game)
    seat = _seat_of(game, request.POST.get("seat"))
    if seat is None:
        raise Http404
    phase = _open_phase(game)
    form = seat_edit_form(game, seat, phase, data=request.POST)
    if form.is_valid():
        d = form.cleaned_data
        try:
            interventions.seat_edit(game=game, actor=request.user, seat_id=seat.pk, changes=d["changes"],
                                    reason=d["reason"], version=d["version"])
        except ServiceError as exc:
            if exc.code == "forbidden":
                raise PermissionDenied(" ".join(_messages_of(form, exc))) from None
            if exc.code == "conflict":  # redraw from the seat as it is now; the reason is kept
                game.refresh_from_db()
                seat.refresh_from_db()
                form = seat_edit_form(game, seat, _open_phase(game))
                form.initial["reason"] = d["reason"]
                form.conflict = [m for msgs in exc.errors.values() for m in msgs]
            else:
                _form_errors(form, exc)
            return _edit_page(request, game, seat, form, status=409 if exc.code == "conflict" else 400)
    else:
        return _edit_page(request, game, seat, form, status=400)
    game.refresh_from_db()
    notice = _("%(player)s's seat was changed.") % {"player": seat.display_name}
    if request.htmx:
        response = _console(request, game, notice=notice)
        return reswap(retarget(response, "#console"), "outerHTML")
    messages.success(request, notice)
    return _back(game)


def _form_errors(form, exc: ServiceError) -> None:
    """A service's refusal on the form: ``changes.<key>`` on the key's first field, the rest on the form."""
    by_key = {g["key"]: g["names"][0] for g in form.groups}
    for field, msgs in exc.errors.items():
        key = field.split(".", 1)[1] if field.startswith("changes.") else field
        target = by_key.get(key) or (field if field in form.fields else None)
        for message in msgs:
            form.add_error(target, message)


@require_POST
@login_required
def seat_alive(request, pk: int):
    """Kill or revive a seat (``interventions.seat_set_alive``)."""
    return _intervene(request, pk, SeatAliveForm, lambda g, d: interventions.seat_set_alive(
        game=g, actor=request.user, seat_id=_seat(d), alive=d["alive"], reason=d["reason"]),
        _("Done: the seat's life was changed."))


@require_POST
@login_required
def seat_replace(request, pk: int):
    """Give a seat to another player (``interventions.seat_replace_player``)."""
    return _intervene(request, pk, SeatReplaceForm, lambda g, d: interventions.seat_replace_player(
        game=g, actor=request.user, seat_id=_seat(d), user=d["user"], reason=d["reason"]),
        _("The seat has a new player."))


@require_POST
@login_required
def extend(request, pk: int):
    """Move the open phase's deadline later (``services.phase_extend``)."""
    return _intervene(request, pk, ExtendForm, lambda g, d: services.phase_extend(game=g, actor=request.user, **d),
                      _("The deadline was extended."))


@require_POST
@login_required
def pause(request, pk: int):
    """Pause the game (``services.game_pause``)."""
    return _intervene(request, pk, ReasonForm, lambda g, d: services.game_pause(game=g, actor=request.user, **d),
                      _("The game is paused."))


@require_POST
@login_required
def resume(request, pk: int):
    """Resume a paused game (``services.game_resume``)."""
    return _intervene(request, pk, ReasonForm, lambda g, d: services.game_resume(game=g, actor=request.user, **d),
                      _("The game is resumed."))


@require_POST
@login_required
def resolve_now(request, pk: int):
    """Resolve the open phase at once (``services.phase_resolve_now``)."""
    return _intervene(request, pk, ReasonForm,
                      lambda g, d: services.phase_resolve_now(game=g, actor=request.user, **d),
                      _("The phase was resolved."))


@require_POST
@login_required
def review_mode(request, pk: int):
    """Turn review before publishing on or off, with its auto-publish delay (``review.game_set_review``)."""
    return _intervene(request, pk, ReviewModeForm, lambda g, d: review.game_set_review(
        game=g, actor=request.user, enabled=d["enabled"], auto_minutes=d["auto_minutes"], reason=d["reason"]),
        _("The review setting was saved."))


@require_POST
@login_required
def publish(request, pk: int):
    """Publish the held result (``review.phase_publish``)."""
    return _intervene(request, pk, ReasonForm, lambda g, d: review.phase_publish(
        game=g, actor=request.user, reason=d["reason"]), _("The result is published."))


@require_POST
@login_required
def publish_at(request, pk: int):
    """Set or clear the held result's auto-publish time (``review.phase_set_publish_at``)."""
    return _intervene(request, pk, PublishAtForm, lambda g, d: review.phase_set_publish_at(
        game=g, actor=request.user, publish_at=d["publish_at"], reason=d["reason"]),
        _("The publication time was saved."))


@require_POST
@login_required
def abort(request, pk: int):
    """Abort the game (``services.game_abort``): a reason and the ticked confirmation box (:class:`AbortForm`)."""
    return _intervene(request, pk, AbortForm, lambda g, d: services.game_abort(game=g, actor=request.user,
                                                                             reason=d["reason"]),
                      _("The game was aborted."))


urlpatterns = [
    path("", console, name="console"),
    path("preview/", preview, name="console_preview"),
    path("seat/edit/", seat_edit, name="console_seat_edit"),
    path("seat/<int:seat_id>/edit/", seat_edit_form_view, name="console_seat_edit_form"),
    path("seat/alive/", seat_alive, name="console_seat_alive"),
    path("seat/replace/", seat_replace, name="console_seat_replace"),
    path("extend/", extend, name="console_extend"),
    path("pause/", pause, name="console_pause"),
    path("resume/", resume, name="console_resume"),
    path("resolve-now/", resolve_now, name="console_resolve_now"),
    path("review/", review_mode, name="console_review"),
    path("publish/", publish, name="console_publish"),
    path("publish-at/", publish_at, name="console_publish_at"),
    path("abort/", abort, name="console_abort"),
]
