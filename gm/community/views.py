"""Community pages: the statistics (with charts), a player's page (his reliability record and history), the
published sanction table, the staff's warning points, and a game's signup requirements (its master). Each view
parses input, calls one service or selectors, and renders."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from gm.core import web
from gm.core.models import Game

from . import selectors, services
from .forms import RequirementForm, StatsFilterForm, WarningForm


def _players_setup(value: str) -> tuple[int | None, str | None]:
    """``"<players>:<setup>"`` (the setup filter's value) → ``(players, setup)``; ``(None, None)`` for all."""
    if not value:
        return None, None
    head, sep, setup = value.partition(":")
    return (int(head), setup) if sep and head.isdigit() else (None, None)


@require_GET
def stats(request):
    """The statistics of finished games: per module, setup, side and role — games, wins, win %, mean length — with
    charts. ``?module=<slug>&setup=<players>:<roles>`` filter; an unknown value is a 400 with the reason."""
    modules = selectors.modules_with_stats()
    module = request.GET.get("module", "")
    if module and module not in dict(modules):
        return HttpResponseBadRequest(_("No statistics for this game."))
    setups = selectors.setups_of(module) if module else []
    choices = [(f"{s['players']}:{s['setup']}", _("%(players)s players: %(setup)s")
                % {"players": s["players"], "setup": s["label"]}) for s in setups]
    chosen = request.GET.get("setup", "") if module else ""
    if chosen and chosen not in {value for value, _label in choices}:
        return HttpResponseBadRequest(_("Unknown setup."))
    players, setup = _players_setup(chosen)
    form = StatsFilterForm(request.GET or None, modules=modules, setups=choices)
    rows = selectors.stats_rows(module=module, players=players, setup=setup)
    return render(request, "community/stats.html", {
        "form": form, "module": module, "rows": rows,
        "game_rows": [r for r in rows if r["kind"] == "game"],
        "side_rows": [r for r in rows if r["kind"] == "side"],
        "role_rows": [r for r in rows if r["kind"] == "role"],
        "chart": selectors.chart_data(rows),
        "export_query": request.GET.urlencode(),
    })


@require_GET
def player(request, username: str):
    """A player's page: his reliability record and his history of finished games (revealed facts only); his own
    warnings and sanctions for himself and staff."""
    User = get_user_model()
    user = get_object_or_404(User.objects.select_related("profile"), **{User.USERNAME_FIELD: username})
    now = timezone.now()
    own = request.user.is_authenticated and (request.user.pk == user.pk or request.user.is_staff)
    return render(request, "community/player.html", {
        "person": user, "record": selectors.record_of(user), "history": selectors.history_of(user),
        "summary": selectors.history_summary(user), "own": own,
        "warnings": selectors.warnings_of(user, now) if own else [],
        "sanctions": selectors.active_sanctions(user, now) if own else [],
        "points": selectors.active_points(user, now) if own else 0, "now": now,
    })


@require_GET
def sanctions(request):
    """The published sanction table: how many active warning points bring which sanction for how long."""
    from django.conf import settings

    return render(request, "community/sanctions.html", {"levels": selectors.sanction_table(),
                                                         "days": settings.GM_WARNING_DAYS})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def warnings(request):
    """The staff's page: give warning points (POST), see the latest ones and revoke one."""
    if not request.user.is_staff:
        raise PermissionDenied
    here = reverse("community:warnings")
    if request.method == "POST":
        form = WarningForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            return web.post_action(request, lambda: services.warning_give(
                actor=request.user, user=data["username"], points=data["points"], reason=data["reason"],
                days=data["days"]), redirect_to=here, success=_("The warning is given."))
    else:
        form = WarningForm()
    now = timezone.now()
    return render(request, "community/warnings.html", {"form": form, "recent": selectors.recent_warnings(now),
                                                       "levels": selectors.sanction_table(), "now": now})


@login_required
@require_POST
def warning_revoke(request, warning_id: int):
    """Staff revoke a warning."""
    if not request.user.is_staff:
        raise PermissionDenied
    return web.post_action(request, lambda: services.warning_revoke(actor=request.user, warning_id=warning_id),
                           redirect_to=reverse("community:warnings"), success=_("The warning is revoked."))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def requirements(request, pk: int):
    """A game's signup requirements: its master sets them before the game starts; others read them."""
    game = web.game_or_404(request.user, pk)
    is_master = request.user.pk == game.master_id
    req = selectors.requirement_of(game)
    if request.method == "POST":
        if not is_master:
            raise PermissionDenied
        form = RequirementForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            return web.post_action(request, lambda: services.requirement_set(
                game=game, actor=request.user, min_finished=data["min_finished"],
                max_missed_percent=data["max_missed_percent"], max_modkilled=data["max_modkilled"],
                no_sanction=data["no_sanction"], reason=data["reason"]),
                redirect_to=reverse("community:requirements", args=[game.pk]),
                success=_("The signup requirements are saved."))
    else:
        form = RequirementForm(initial={"min_finished": req.min_finished, "max_missed_percent": req.max_missed_percent,
                                        "max_modkilled": req.max_modkilled, "no_sanction": req.no_sanction}
                               if req else None)
    refusals = (selectors.signup_refusals(game=game, user=request.user, now=timezone.now())
                if not is_master and game.status in (Game.Status.SIGNUP, Game.Status.DRAFT) else [])
    return render(request, "community/requirements.html", {
        "game": game, "form": form, "is_master": is_master, "lines": selectors.requirement_lines(req),
        "editable": is_master and game.status in (Game.Status.DRAFT, Game.Status.SIGNUP), "refusals": refusals,
    })


