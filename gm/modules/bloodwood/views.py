"""Bloodwood in the shell: the player's panel on the game page (the table as a ring, his hand with the cards he may
play now enabled and the others greyed with the reason, the target pickers, the answer prompt with the attack it
answers, the Leshy/Hunter/keep choices, the refill split, the declaration form; BW-6a, BW-8, BW-24, BW-25) and the
POST actions that hand a line, an answer or a declaration to :mod:`.services`.

Everything the viewer may see is read through ``gm.core.visibility`` (:mod:`.selectors`); a posted line is not
checked by a Django form: the raw values go to the service, so an illegal line is refused with BW-26's reason.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseForbidden, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from gm.core import visibility
from gm.core.models import Game, Phase
from gm.core.services import ServiceError
from gm.core.web import game_or_404

from . import selectors, services
from .forms import DealForm, RematchForm, payload_from_post
from .texts import END_NO_WINNER

MODULE = "bloodwood"


def page_context(*, game: Game, viewer: visibility.Viewer) -> dict:
    """What ``bloodwood/panel.html`` shows ``viewer``: the public table, and for a seated player his hand and what
    the open step asks of him."""
    ctx = {"table": selectors.table_context(viewer), "me": selectors.my_context(game, viewer)}
    phase = selectors.open_phase(game)
    ctx["phase_id"] = phase.pk if phase is not None else None
    # What the live panel polls against (issue 20 item 5): a new step, a step resolving, the game's end.
    ctx["version"] = f"{ctx['phase_id'] or 0}-{phase.status if phase is not None else ''}-{game.status}"
    # The countdown on the prompt of the step's actor (issue 20 item 5): the open step's deadline, while it runs.
    if phase is not None and phase.status == Phase.Status.OPEN and game.paused_at is None:
        ctx["step_deadline"] = phase.deadline
    if game.status == Game.Status.FINISHED:
        ctx["rematch_url"] = reverse("bloodwood:rematch", args=[game.pk])  # BW-23c
    elif game.status == Game.Status.SIGNUP and (game.options or {}).get("dealer"):
        ctx["deal_url"] = reverse("bloodwood:deal", args=[game.pk])
    if viewer.seat is not None and game.status in (Game.Status.RUNNING, Game.Status.FINISHED):
        ctx["learned"] = [e.text() for e in visibility.log_entries(viewer).filter(visibility="seat",
                                                                                  seat=viewer.seat)]
    return ctx


def panel(request, pk: int):
    """The panel alone, polled by the game page (htmx, issue 20 item 5): ``?v=<version>`` the panel the page shows;
    204 while it is still current, else the new panel — a waiting player sees his turn or his answer come without
    reloading. Read through the visibility layer like the page (:func:`page_context`)."""
    game = game_or_404(request.user, pk, module=MODULE)
    viewer = visibility.viewer_for(request.user, game)
    ctx = page_context(game=game, viewer=viewer)
    if request.GET.get("v", "") == ctx["version"]:
        return HttpResponse(status=204)
    return render(request, "bloodwood/panel.html", {"game": game, "viewer": viewer, "module_context": ctx})


def _flash(request, exc: ServiceError) -> None:
    for msgs in exc.errors.values():
        for msg in msgs:
            messages.error(request, msg)


@require_POST
@login_required
def order(request, pk: int):
    """POST a line of the open step (``line``: play, discard, leshy, give, keep, refill) or an answer (``react``)."""
    game = visibility.game_or_404(request.user, pk, module=MODULE)
    try:
        payload = payload_from_post(request.POST)
        if "react" in payload:
            services.react(game=game, user=request.user, answer=payload["react"])
        else:
            services.submit_line(game=game, user=request.user, payload=payload)
        messages.success(request, _("Your line is in."))
    except ServiceError as exc:
        _flash(request, exc)
    return HttpResponseRedirect(game.get_absolute_url())


@require_POST
@login_required
def declare(request, pk: int):
    """POST a declaration of the end (BW-22): the named players (``named``, seat ids)."""
    game = visibility.game_or_404(request.user, pk, module=MODULE)
    try:
        named = [int(v) for v in request.POST.getlist("named") if str(v).isdigit()]
        services.declare(game=game, user=request.user, named=named)
        messages.success(request, _("Your declaration is made."))
    except ServiceError as exc:
        _flash(request, exc)
    return HttpResponseRedirect(game.get_absolute_url())


@require_POST
@login_required
def end_no_winner(request, pk: int):
    """POST the master's end of the game with no winner (BW-22d), with its ``reason`` (the console's button)."""
    game = visibility.game_or_404(request.user, pk, module=MODULE)
    try:
        services.end_no_winner(game=game, actor=request.user, reason=request.POST.get("reason", ""))
        messages.success(request, _("The game is over with no winner."))
    except ServiceError as exc:
        _flash(request, exc)
    return HttpResponseRedirect(game.get_absolute_url())


def console_actions(*, game: Game) -> list[dict]:
    """``GameModule.console_actions``: the master's "end the game with no winner" (BW-22d) while the game runs."""
    if game.status != Game.Status.RUNNING:
        return []
    return [{"key": "bw-end-no-winner", "url": reverse("bloodwood:end_no_winner", args=[game.pk]),
             "label": str(END_NO_WINNER),
             "help": _("Every entity is revealed; nobody wins. Audited with your reason."),
             "confirm": _("End the game for everyone with no winner? It cannot be undone.")}]


@login_required
def rematch(request, pk: int):
    """BW-23c: the rematch page of a finished game — who won and who deals, the rematches made; the master starts
    the rematch with the same seats (picking the dealer among the winners after a failed declaration)."""
    game = visibility.game_or_404(request.user, pk, module=MODULE)
    if game.status != Game.Status.FINISHED:
        raise Http404
    info = selectors.rematch_info(game)
    is_master = request.user.pk == game.master_id or request.user.is_superuser
    form = RematchForm(request.POST if request.method == "POST" else None, candidates=info["candidates"])
    if request.method == "POST":
        if not is_master:
            return HttpResponseForbidden()
        if form.is_valid():
            try:
                new = services.rematch_create(game=game, actor=request.user, dealer=form.cleaned_data.get("dealer"))
            except ServiceError as exc:
                _flash(request, exc)
            else:
                messages.success(request, _("The rematch is made: the winner deals."))
                return HttpResponseRedirect(reverse("bloodwood:deal", args=[new.pk]))
    return render(request, "bloodwood/rematch.html", {"game": game, "info": info, "form": form,
                                                      "is_master": is_master})


@login_required
def deal(request, pk: int):
    """BW-23c: the deal of a rematch — the dealer gives out every entity and names the first player; the game
    starts with it. Everybody else sees whom the game waits for."""
    game = visibility.game_or_404(request.user, pk, module=MODULE)
    seat = selectors.dealer_seat(game)
    if seat is None:
        raise Http404
    seats = list(game.seats.order_by("position"))
    is_dealer = seat.user_id == request.user.pk
    form = DealForm(request.POST if request.method == "POST" else None, seats=seats)
    if request.method == "POST":
        if form.is_valid():
            try:
                services.deal_submit(game=game, user=request.user, deal=form.deal(),
                                     first_player=form.cleaned_data["first_player"])
            except ServiceError as exc:
                _flash(request, exc)
            else:
                messages.success(request, _("Your deal is made: the game has started."))
                return HttpResponseRedirect(game.get_absolute_url())
    return render(request, "bloodwood/deal.html", {"game": game, "dealer": seat, "form": form,
                                                   "is_dealer": is_dealer, "waiting": game.status == "signup"})
