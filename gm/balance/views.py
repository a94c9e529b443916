"""The master's balance page of a game (``/games/<id>/balance/``): the "estimate balance" form and his reports, a
report still being played polled by htmx (``/games/<id>/balance/<report id>/``) until it is done. Only the game's
master (or a superuser) sees them: a report names the options, which may hold a fixed composition."""
from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gm.core import registry, web
from gm.core.balance import policy_of
from gm.core.services import ServiceError

from . import services
from .forms import BalanceForm
from .models import BalanceReport

#: The end kinds of the shipped modules' balance bots (``SimPolicy.end_kind``), in words; a kind that is a side's
#: slug is that side's victory; any other kind shows as it stands.
END_NAMES = {
    "draw": gettext_lazy("draw"), "nobody": gettext_lazy("nobody won"), "victory": gettext_lazy("victory"),
    "phase_cap": gettext_lazy("stopped at the phase cap"), "stalemate": gettext_lazy("stalemate (a draw)"),
    "declaration": gettext_lazy("a declaration"), "deadlock": gettext_lazy("deadlock (no winner)"),
    "ritual": gettext_lazy("the ritual"), "mysteries": gettext_lazy("the mysteries ran out"),
    "everyone_out": gettext_lazy("everyone out of the game"), "nobody_admitted": gettext_lazy("nobody admitted"),
}

def _master_game(request, pk: int):
    game = web.game_or_404(request.user, pk)
    if not (request.user.pk == game.master_id or request.user.is_superuser):
        raise PermissionDenied(_("Only the game's master may do this."))
    return game


def _end_name(kind: str, name, sides: list[str]) -> str:
    if kind in END_NAMES:
        return str(END_NAMES[kind])
    return _("victory: %(side)s") % {"side": name(kind)} if kind in sides else kind


def _percent(value: float) -> str:
    return f"{100 * value:.1f} %"


def report_view(report: BalanceReport) -> dict:
    """A report as the page shows it: ``rows`` (side name, wins, win rate, 95 % interval), the draw row, the mean
    length and the end kinds in words (in the active language)."""
    result = report.result or {}
    try:
        module = registry.get(report.module)
        name, policy = module.winner_label, policy_of(module)
    except registry.UnknownModule:
        name, policy = str, None
    known = list(policy.sides) if policy else []
    sides = result.get("sides") or {}
    # The module's order of sides, then shared wins (a JSON column keeps no key order).
    order = sorted(sides, key=lambda slug: (known.index(slug) if slug in known else len(known), slug))
    rows = [{"side": " + ".join(name(s) for s in slug.split("+")), "wins": sides[slug]["wins"],
             "rate": _percent(sides[slug]["win_rate"]), "low": _percent(sides[slug]["ci_low"]),
             "high": _percent(sides[slug]["ci_high"])} for slug in order]
    games = result.get("games") or 0
    draws = round(result.get("draw_rate", 0) * games)
    return {
        "report": report, "rows": rows, "draws": draws, "draw_rate": _percent(result.get("draw_rate", 0)),
        "draw_low": _percent(result.get("draw_ci_low", 0)), "draw_high": _percent(result.get("draw_ci_high", 0)),
        "mean_phases": f"{result.get('mean_phases', 0):.1f}",
        "ends": [(_end_name(k, name, known), v) for k, v in (result.get("ends") or {}).items()],
        "options": json.dumps(report.options, ensure_ascii=False, sort_keys=True),
    }


@login_required
def page(request, pk: int):
    """GET: the form (the module's bot table size and the game's options filled in) and the reports, newest first.
    POST: start a report (the service refuses bad input with the field's reason; nothing is started then)."""
    game = _master_game(request, pk)
    module = game.game_module
    policy = policy_of(module)
    initial = {"players": (policy.default_players if policy and policy.default_players else module.min_seats),
               "games": 1000, "seed": game.rng_seed or 1,
               "options": json.dumps(game.options or {}, ensure_ascii=False, sort_keys=True)}
    form = BalanceForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.report_request(game=game, user=request.user, players=d["players"], games=d["games"],
                                    seed=d["seed"], options=d["options"] or {})
        except ServiceError as exc:
            web.form_errors(form, exc)
        else:
            return redirect(reverse("balance:page", args=[game.pk]))
    reports = [report_view(r) for r in game.balance_reports.all()[:10]]
    return render(request, "balance/page.html", {"game": game, "form": form, "reports": reports,
                                                 "has_bots": policy is not None,
                                                 "open": game.status in services.OPEN_STATUSES})


@login_required
def report(request, pk: int, report_id: int):
    """One report's card (the htmx poll of a report being played, every two seconds until it is done)."""
    game = _master_game(request, pk)
    found = get_object_or_404(BalanceReport, pk=report_id, game=game)
    return render(request, "balance/_report.html", {"game": game, "r": report_view(found)})
