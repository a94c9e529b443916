"""Pages of the forum life features (issue 23 items 1–4): a player's role confirmation and replacement request on
the game page, the public standby board, a user's away dates and emergency pause, and the master's console actions
(activity options, flags, acknowledging requests, approving volunteers). Each view parses its form, calls one
service and redirects (or, in the console with htmx, returns the console section).

Pages and POST endpoints of the long-game features (issue 23, items 5–10), under ``/games/<id>/``: the master's
options (deadline grid, early ends, anonymity, graveyard), the players' "done" button, ISO pages, the vote history
and the graveyard room. Views parse, call one service or selector, and render; a refused request changes nothing.
"""
from __future__ import annotations

import re

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from . import visibility, web
from .console_views import _intervene
from .life_forms import (
    ActivityOptionsForm,
    AnonymityForm,
    AwayForm,
    EarlyEndsForm,
    EmergencyPauseForm,
    GraveyardOptionsForm,
    GraveyardPostForm,
    GridForm,
    ReadyForm,
    ReplacementRequestForm,
    RequestAckForm,
    SeatFlagForm,
    VolunteerApproveForm,
)
from .models import Game, ReadyMark, life_of
from .services import (
    ServiceError,
    activity,
    anonymity,
    early_ends,
    graveyard,
    grids,
    iso,
    phase_named,
    replacements,
    vacations,
)


def _back(game, anchor: str = "life") -> str:
    return game.get_absolute_url() + f"#{anchor}"


@require_POST
@login_required
def role_read(request, pk: int):
    """"I have read my role"."""
    game = web.game_or_404(request.user, pk)
    return web.post_action(request, lambda: activity.role_confirm(game=game, user=request.user),
                           redirect_to=_back(game), success=_("Thank you: the master sees that you have read your "
                                                              "role."))


@require_POST
@login_required
def replacement_request(request, pk: int):
    """A player asks privately to be replaced."""
    game = web.game_or_404(request.user, pk)
    form = ReplacementRequestForm(request.POST)
    return web.post_action(request, lambda: replacements.replacement_request(
        game=game, user=request.user, reason=form.cleaned_data["reason"]), redirect_to=_back(game), form=form,
        success=_("Your request went to the master. You may take it back until he acknowledges it."))


@require_POST
@login_required
def replacement_withdraw(request, pk: int):
    game = web.game_or_404(request.user, pk)
    return web.post_action(request, lambda: replacements.replacement_withdraw(game=game, user=request.user),
                           redirect_to=_back(game), success=_("Your request to be replaced is withdrawn."))


@require_GET
def standby(request):
    """The public standby board: seats of running games that need a new player."""
    return render(request, "gm/standby.html", {"board": replacements.standby_board(user=request.user)})


def _standby_back() -> str:
    from django.urls import reverse

    return reverse("gm:standby")


@require_POST
@login_required
def volunteer(request, pk: int, seat_id: int):
    game = web.game_or_404(request.user, pk)
    return web.post_action(request, lambda: replacements.volunteer(game=game, user=request.user, seat_id=seat_id),
                           redirect_to=_standby_back(), success=_("Thank you: the master will decide."))


@require_POST
@login_required
def volunteer_withdraw(request, pk: int, seat_id: int):
    game = web.game_or_404(request.user, pk)
    return web.post_action(request, lambda: replacements.volunteer_withdraw(game=game, user=request.user,
                                                                            seat_id=seat_id),
                           redirect_to=_standby_back(), success=_("Your offer is withdrawn."))


@login_required
def away(request):
    """A user's away dates and emergency pause: the page, and its three forms (``action``: ``away``, ``clear``,
    ``pause``)."""
    from django.http import HttpResponseRedirect
    from django.urls import reverse

    here = reverse("gm:away")
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "away":
            form = AwayForm(request.POST)
            return web.post_action(request, lambda: vacations.away_set(
                user=request.user, starts_on=form.cleaned_data["starts_on"], ends_on=form.cleaned_data["ends_on"]),
                redirect_to=here, form=form, success=_("Your away dates are saved."))
        if action == "clear":
            return web.post_action(request, lambda: vacations.away_clear(user=request.user), redirect_to=here,
                                   success=_("Your away dates are withdrawn."))
        if action == "pause":
            form = EmergencyPauseForm(request.POST)
            return web.post_action(request, lambda: vacations.emergency_pause_start(
                user=request.user, hours=form.cleaned_data["hours"]), redirect_to=here, form=form,
                success=_("Your games are paused."))
        web.flash_errors(request, ServiceError(_("Unknown action.")))
        return HttpResponseRedirect(here)
    games, last = vacations.emergency_pause_allowed(user=request.user)
    current = vacations.away_of(request.user)
    return render(request, "gm/away.html", {
        "away": current, "away_form": AwayForm(initial={"starts_on": current.starts_on, "ends_on": current.ends_on}
                                               if current else None, auto_id="away-%s"),
        "pause_form": EmergencyPauseForm(auto_id="pause-%s"), "pause_games": games, "last_pause": last,
        "now": timezone.now()})


# -- the master's console ------------------------------------------------------------------------------------


@require_POST
@login_required
def console_activity(request, pk: int):
    def call(game, d):
        changes = {k: v for k, v in d.items() if k != "reason"}
        activity.activity_options_set(game=game, actor=request.user, changes=changes, reason=d["reason"])

    return _intervene(request, pk, ActivityOptionsForm, call, _("The activity options are saved."))


@require_POST
@login_required
def console_flag(request, pk: int):
    def call(game, d):
        replacements.seat_flag(game=game, actor=request.user, seat_id=d["seat"], flagged=d["flagged"],
                               reason=d["reason"])

    return _intervene(request, pk, SeatFlagForm, call, _("The seat's replacement flag is changed."))


@require_POST
@login_required
def console_ack(request, pk: int):
    def call(game, d):
        replacements.replacement_acknowledge(game=game, actor=request.user, request_id=d["request"],
                                             reason=d["reason"])

    return _intervene(request, pk, RequestAckForm, call, _("Acknowledged: the seat is on the standby board."))


@require_POST
@login_required
def console_approve(request, pk: int):
    def call(game, d):
        replacements.volunteer_approve(game=game, actor=request.user, volunteer_id=d["volunteer"])

    return _intervene(request, pk, VolunteerApproveForm, call, _("The volunteer has the seat now."))


def _kinds(game: Game) -> list[tuple[str, str]]:
    module = game.game_module
    return [(k, re.sub(r"\s*\d+$", "", str(module.phase_label(k, 1)))) for k in module.default_durations]


def grid_form(game: Game, data=None) -> GridForm:
    """The grid form, filled from the game's current grid."""
    life = life_of(game)
    initial = {"grid_time": life.grid_time, "zone": life.grid_zone, "kinds": life.grid_kinds,
               "quiet_start": life.quiet_start, "quiet_end": life.quiet_end,
               "blocked_dates": " ".join(life.blocked_dates or []), "reminder_table": life.reminder_table}
    return GridForm(data, initial=initial, kinds=_kinds(game), auto_id="grid-%s")


def page_context(*, game: Game, viewer: visibility.Viewer, phase) -> dict:
    """What the game page shows of the long-game features for ``viewer``: the deadline grid (everyone, also before
    the game starts)."""
    life = life_of(game)
    ready = None
    if life.all_ready and phase is not None and phase.status == "open" and not game.is_over:
        pressed, waited = early_ends.ready_count(phase)
        mine = (viewer.seat is not None and viewer.seat.alive
                and (phase.actors is None or viewer.seat.pk in phase.actors))
        ready = {"pressed": pressed, "waited": waited, "can_press": mine, "phase": phase,
                 "done": mine and ReadyMark.objects.filter(phase=phase, seat=viewer.seat).exists()}
    return {"grid": grids.grid_summary(game), "ready": ready, "hammer": life.hammer and not game.is_over,
            "aliases": anonymity.reveal(game, viewer), "anonymous": life.anonymous,
            "secret_ballot": life.secret_ballot and not game.is_over,
            "graveyard": graveyard.may_read(viewer) and life.graveyard,
            # The index has a page of its own: built here it would read every phase, its log lines and its posts on
            # every load of the game page.
            "index_url": reverse("gm:phase_index", args=[game.pk]) if game.status != Game.Status.DRAFT else ""}


def console_forms(game: Game) -> dict:
    """The master's forms of the long-game options, filled from the game's current options."""
    life = life_of(game)
    return {"grid_form": grid_form(game),
            "early_form": EarlyEndsForm(initial={"hammer": life.hammer, "all_ready": life.all_ready},
                                        auto_id="early-%s"),
            "has_hammer": game.game_module.has_hammer,
            "anonymity_form": AnonymityForm(initial={"anonymous": life.anonymous,
                                                     "alias_list": life.alias_list or anonymity.DEFAULT_LIST,
                                                     "secret_ballot": life.secret_ballot}, auto_id="anon-%s"),
            "graveyard_form": GraveyardOptionsForm(initial={
                "graveyard": life.graveyard, "dead_see_everything": life.dead_see_everything,
                "spectators_read_graveyard": life.spectators_read_graveyard}, auto_id="grave-%s")}


def _master_post(request, pk: int, form, call, success: str):
    game = web.game_or_404(request.user, pk)
    if not visibility.viewer_for(request.user, game).is_master:
        raise PermissionDenied(_("Only the game's master may do this."))
    bound = form(game, request.POST)
    return web.post_action(request, lambda: call(game, bound.cleaned_data), form=bound,
                           redirect_to=game.get_absolute_url() + "#console", success=success)


@require_POST
@login_required
def grid_set(request, pk: int):
    """The master sets the deadline grid (``services.grids.grid_set``)."""
    return _master_post(request, pk, grid_form, lambda g, d: grids.grid_set(
        game=g, actor=request.user, grid_time=d["grid_time"], zone=d["zone"].strip(), kinds=d["kinds"],
        quiet_start=d["quiet_start"], quiet_end=d["quiet_end"], blocked_dates=d["blocked_dates"],
        reminder_table=d["reminder_table"], reason=d["reason"]), _("The deadline grid was saved."))


@require_POST
@login_required
def early_ends_set(request, pk: int):
    """The master turns the hammer and "done" options on or off (``services.early_ends``)."""
    return _master_post(request, pk, lambda g, data: EarlyEndsForm(data), lambda g, d: early_ends.early_end_options_set(
        game=g, actor=request.user, hammer=d["hammer"], all_ready=d["all_ready"], reason=d["reason"]),
        _("The early-end options were saved."))


@require_POST
@login_required
def anonymity_set(request, pk: int):
    """The master sets anonymity and the secret ballot (``services.anonymity.anonymity_set``)."""
    return _master_post(request, pk, lambda g, data: AnonymityForm(data), lambda g, d: anonymity.anonymity_set(
        game=g, actor=request.user, anonymous=d["anonymous"], alias_list=d["alias_list"],
        secret_ballot=d["secret_ballot"], reason=d["reason"]), _("The anonymity options were saved."))


@require_POST
@login_required
def ready(request, pk: int):
    """A player presses "done" or takes it back (``services.early_ends.ready_set``) for the phase the form names."""
    game = web.game_or_404(request.user, pk)
    form = ReadyForm(request.POST)

    def act():
        phase = phase_named(game=game, phase_id=form.cleaned_data["phase"])
        closed = early_ends.ready_set(phase=phase, user=request.user, done=form.cleaned_data["done"])
        return closed

    done = request.POST.get("done") == "1"
    return web.post_action(request, act, form=form, redirect_to=game.get_absolute_url() + "#ready",
                           success=_("You are done with this phase.") if done else _("You took back your “done”."))


@require_POST
@login_required
def graveyard_options(request, pk: int):
    """The master sets the graveyard options (``services.graveyard.graveyard_options_set``)."""
    return _master_post(request, pk, lambda g, data: GraveyardOptionsForm(data),
                        lambda g, d: graveyard.graveyard_options_set(
                            game=g, actor=request.user, graveyard=d["graveyard"],
                            dead_see_everything=d["dead_see_everything"],
                            spectators_read_graveyard=d["spectators_read_graveyard"], reason=d["reason"]),
                        _("The graveyard options were saved."))


def graveyard_view(request, pk: int):
    """The graveyard room: GET reads it (404 for who may not), POST writes in it (the dead and the master)."""
    game = web.game_or_404(request.user, pk)
    viewer = visibility.viewer_for(request.user, game)
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise PermissionDenied(_("Log in first."))
        form = GraveyardPostForm(request.POST)
        return web.post_action(request, lambda: graveyard.graveyard_post(game=game, user=request.user,
                                                                         body=form.cleaned_data["body"]),
                               form=form, redirect_to=reverse("gm:graveyard", args=[game.pk]),
                               success=_("Your words are in the graveyard."))
    if not graveyard.may_read(viewer):
        raise Http404("no graveyard for this viewer")
    return render(request, "gm/graveyard.html", {
        "game": game, "viewer": viewer, "posts": graveyard.posts(viewer),
        "form": GraveyardPostForm(auto_id="grave-post-%s") if graveyard.may_write(viewer) else None})


def iso_view(request, pk: int, author: str):
    """One author's posts in this game ("ISO"; ``author``: a seat id or ``master``), ``?phase=<ordinal>`` to keep
    one phase, ``?page=N``; only what the viewer may read."""
    game = web.game_or_404(request.user, pk)
    viewer = visibility.viewer_for(request.user, game)
    page = iso.iso_page(viewer, author=author, phase=request.GET.get("phase"), page=request.GET.get("page"))
    return render(request, "gm/iso.html", {"game": game, "viewer": viewer, "iso": page, "author_key": author})


@login_required
def console_life(request, pk: int):
    """The master's activity part of the console (each seat's activity, replacement requests, volunteers, tenures,
    outages): the console loads it after the page (htmx), and without JS it is a page of its own. Master only."""
    from .console import console_life_context

    game = web.game_or_404(request.user, pk)
    viewer = visibility.viewer_for(request.user, game)
    if not viewer.is_master:
        raise PermissionDenied
    context = {"game": game, "viewer": viewer, "console": console_life_context(game=game, viewer=viewer)}
    return render(request, "gm/_console_life_part.html" if request.htmx else "gm/console_life.html", context)


def phase_index_view(request, pk: int):
    """The thread's phase index: each phase with links to its start and results in the log, its hammer, its first
    post and its vote history — only what the viewer may see (``iso.phase_index``)."""
    from .views import THREAD_PAGE_SIZE

    game = web.game_or_404(request.user, pk)
    viewer = visibility.viewer_for(request.user, game)
    index = iso.phase_index(viewer, page_size=THREAD_PAGE_SIZE) if game.status != Game.Status.DRAFT else []
    return render(request, "gm/phase_index.html", {"game": game, "viewer": viewer, "index": index})


def votes_view(request, pk: int):
    """The vote history of one phase (``?phase=<ordinal>``): every vote change with its time."""
    game = web.game_or_404(request.user, pk)
    viewer = visibility.viewer_for(request.user, game)
    history = iso.vote_history(viewer, phase=request.GET.get("phase"))
    return render(request, "gm/votes.html", {"game": game, "viewer": viewer, "history": history})


urlpatterns = [
    path("grid/", grid_set, name="grid_set"),
    path("early-ends/", early_ends_set, name="early_ends_set"),
    path("ready/", ready, name="ready"),
    path("anonymity/", anonymity_set, name="anonymity_set"),
    path("graveyard/", graveyard_view, name="graveyard"),
    path("graveyard/options/", graveyard_options, name="graveyard_options"),
    path("iso/<str:author>/", iso_view, name="iso"),
    path("votes/", votes_view, name="votes"),
    path("phases/", phase_index_view, name="phase_index"),
]
