"""Pages of co-mastering (issue 24 item 5): the console's co-master forms, the takeover page of an inactive
master's game and the setup reviewers' page. Views parse the form, call one service and render or redirect; every
form works without JavaScript, and the console's forms answer htmx with the console section."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import visibility, web
from .comaster_forms import CoMasterAddForm, CoMasterRemoveForm, ReviewDecisionForm, TakeoverForm
from .console_views import _intervene
from .models import Game
from .services import ServiceError, comasters
from .services import comaster_review as review
from .services import comaster_takeover as takeover


def page_context(*, game: Game, viewer: visibility.Viewer) -> dict:
    """What the game page shows of co-mastering to ``viewer``: the co-masters he may know of (hidden ones only for
    those who master the game), whether he is a read-only co-master, whether he may take the game over, and the
    setup review's state for the master."""
    user = viewer.user
    context = {
        "comasters": comasters.public_comasters(game, viewer.is_master),
        "read_only": viewer.read_only,
        "may_take_over": (user is not None and game.status in takeover.LIVE and takeover.may_take_over(game, user)),
        "review": None,
    }
    if viewer.is_master and game.status == Game.Status.DRAFT and review.review_required():
        context["review"] = review.review_of(game) or {"status": "none"}
    return context


def console_part(*, game: Game, viewer: visibility.Viewer) -> dict:
    """The console's co-master part: the co-masters (all of them) and, for a master who may act, the forms."""
    if not viewer.is_master:
        return {}
    rows = list(comasters.comasters_of(game).values())
    return {
        "rows": [{"row": r, "form": CoMasterRemoveForm(initial={"username": r.user.get_username()},
                                                       auto_id=f"comaster-rm-{r.pk}-%s")} for r in rows],
        "add_form": CoMasterAddForm(auto_id="comaster-add-%s") if viewer.may_act and not game.is_over else None,
        "read_only": viewer.read_only,
    }


@require_POST
@login_required
def comaster_add(request, pk: int):
    """Make a user a co-master (``services.comasters.comaster_add``)."""
    return _intervene(request, pk, CoMasterAddForm, lambda g, d: comasters.comaster_add(
        game=g, actor=request.user, username=d["username"], read_only=d["read_only"], public=d["public"],
        reason=d["reason"]), _("The co-master was added."))


@require_POST
@login_required
def comaster_remove(request, pk: int):
    """Remove a co-master (``services.comasters.comaster_remove``)."""
    return _intervene(request, pk, CoMasterRemoveForm, lambda g, d: comasters.comaster_remove(
        game=g, actor=request.user, username=d["username"], reason=d["reason"]), _("The co-master was removed."))


@login_required
def take_over(request, pk: int):
    """GET: the offer to take over an inactive master's game (for its candidates); POST: take it
    (``services.comaster_takeover.game_take_over``)."""
    game = web.game_or_404(request.user, pk)
    if not takeover.may_take_over(game, request.user):
        raise PermissionDenied(_("Nobody offered you this game."))
    form = TakeoverForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                takeover.game_take_over(game=game, actor=request.user, reason=form.cleaned_data["reason"])
            except ServiceError as exc:
                web.form_errors(form, exc)
            else:
                return HttpResponseRedirect(game.get_absolute_url() + "#console")
        return render(request, "gm/comaster_takeover.html", {"game": game, "form": form,
                                                             "last": takeover.master_last_active(game)}, status=400)
    return render(request, "gm/comaster_takeover.html", {"game": game, "form": form,
                                                         "last": takeover.master_last_active(game)})


@require_POST
@login_required
def review_request(request, pk: int):
    """The master sends his draft's setup for review (``services.comaster_review.review_request``)."""
    game = web.game_or_404(request.user, pk)
    return web.post_action(request, lambda: review.review_request(game=game, actor=request.user),
                           redirect_to=game.get_absolute_url() + "#console",
                           success=_("The setup was sent for review."))


@login_required
def reviews(request):
    """The reviewers' page: every setup waiting for review, each with its options and the decision form."""
    try:
        pending = review.pending_reviews(request.user)
    except ServiceError as exc:
        raise PermissionDenied(str(exc)) from None
    rows = [{"review": r, "game": r.game, "options": r.game.options, "durations": r.game.durations,
             "form": ReviewDecisionForm(auto_id=f"review-{r.game_id}-%s")} for r in pending]
    return render(request, "gm/comaster_reviews.html", {"rows": rows})


@require_POST
@login_required
def review_decide(request, pk: int):
    """A reviewer approves or rejects one setup (``services.comaster_review.review_decide``)."""
    if not review.is_reviewer(request.user):
        raise PermissionDenied(_("Only setup reviewers may do this."))
    game = get_object_or_404(Game, pk=pk)
    form = ReviewDecisionForm(request.POST)
    return web.post_action(request, lambda: review.review_decide(
        game=game, actor=request.user, approve=form.cleaned_data["decision"] == "approve",
        comment=form.cleaned_data["comment"]), redirect_to=reverse("gm:comaster_reviews"),
        success=_("The decision was saved and the master told."), form=form)


urlpatterns = [
    path("games/<int:pk>/console/comasters/add/", comaster_add, name="console_comaster_add"),
    path("games/<int:pk>/console/comasters/remove/", comaster_remove, name="console_comaster_remove"),
    path("games/<int:pk>/takeover/", take_over, name="comaster_takeover"),
    path("games/<int:pk>/review/request/", review_request, name="comaster_review_request"),
    path("reviews/", reviews, name="comaster_reviews"),
    path("reviews/<int:pk>/", review_decide, name="comaster_review_decide"),
]
