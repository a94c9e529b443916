"""The Veche (FM-7) on the game page: the vote panel and its page.

* :func:`veche_panel` is what ``forum_mafia/_veche.html`` shows: the count to everyone (master, players, the dead,
  spectators, anonymous visitors; :func:`..selectors.veche.public_votes`), and to a living character in an open day
  his vote form (a living character or peace, FM-7.1; the punishment, FM-7.2; the prosecutor's one-time +2, FM-7.3;
  the maniac's card to keep, FM-7.5; the sociopath is not offered on Day 1, FM-7.6) with his current vote.
* Views: ``GET /games/<id>/fm/veche/`` (the panel; ``?part=count`` only the count, which htmx polls every 30 s;
  ``?at=<ISO time>`` the count at that moment; ``?day=N`` an earlier day), ``POST`` the same URL (vote, or
  ``action=withdraw``; no JavaScript: back to the game page, PRG). The API is :mod:`..api.veche`; votes are stored
  by ``services.vote_submit`` (a part of the day's order).
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template import engines
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from cards.containers import Containers
from cards.services import card_namer, collection_for_game
from gm.core import page_memo, visibility
from gm.core.forms import posted_version
from gm.core.models import Game, Phase, Seat
from gm.core.services import ServiceError
from gm.core.web import error_messages, game_or_404

from ..engine import abilities, veche
from ..engine.state import ROLE_PROVENANCES
from ..selectors.veche import int_or_none, parse_at, public_votes, secret_ballot, veche_phase, voting_phase
from ..services import signup as services
from ..texts import describe_vote, punishment_name

MODULE = "forum_mafia"
#: How often the live count refreshes itself (htmx polling), in seconds.
POLL_SECONDS = 30
_PAGE = engines["django"].from_string(
    '{% extends "base.html" %}{% block content %}{% include "forum_mafia/_veche.html" %}{% endblock %}')


def _vote_form(game: Game, phase: Phase, seat: Seat, vote: Mapping[str, Any] | None) -> dict:
    """The vote form's choices for ``seat`` (a living character) with his current ``vote`` selected."""
    vote = vote or {}
    seats = page_memo.seats(game)
    chosen = vote.get("for")
    targets = [{"id": s.pk, "name": s.display_name + (" " + _("(you)") if s.pk == seat.pk else ""),
                "selected": chosen == s.pk}
               for s in seats if s.alive and not (phase.number == 1 and (s.data or {}).get("public_role")
                                                  == "sociopath")]  # FM-7.6
    hidden = [s.display_name for s in seats if s.alive and phase.number == 1
              and (s.data or {}).get("public_role") == "sociopath"]
    form: dict[str, Any] = {
        "targets": targets, "peace": chosen == veche.PEACE, "none": chosen is None, "sociopaths": hidden,
        "punishments": [{"value": p, "name": punishment_name(p),
                         "checked": (vote.get("punishment") or veche.EXECUTION) == p} for p in veche.PUNISHMENTS],
    }
    data = seat.data or {}
    if data.get("public_role") == "prosecutor":  # FM-7.3: once per game, declared with the vote
        spent = "prosecutor" in abilities.used(game.state.get("fm") or {}, seat.pk)
        form["prosecutor"] = {"available": not spent, "checked": bool(vote.get("prosecutor_bonus"))}
    if data.get("secret_role") == "maniac":  # FM-7.5: the maniac keeps one more Sleeve card of his choice in jail
        name = card_namer(collection_for_game(game))
        box = Containers.from_dict(data.get("cards"))
        keep = vote.get("keep")
        form["keep"] = [{"uid": c.uid, "name": name(c.kind), "selected": keep in (c.uid, c.kind)}
                        for c in box.sleeve if c.kind != "ace" and c.provenance not in ROLE_PROVENANCES]
    return form


def veche_panel(*, game: Game, viewer: visibility.Viewer, at: datetime | None = None, day: int | None = None,
                notice: str = "", errors: list[str] | None = None, full_page: bool = False) -> dict:
    """Everything ``forum_mafia/_veche.html`` shows ``viewer``: the public count and history of the day
    (:func:`public_votes`, the same for every viewer), and for a living character in the open day his vote form
    and current vote. ``{}`` before Day 1."""
    phase = veche_phase(game, day)
    if phase is None:
        return {}
    count = secret_ballot(public_votes(phase, at), game=game, phase=phase, viewer=viewer)
    seat = viewer.seat
    names = page_memo.seat_names(game)
    panel: dict[str, Any] = {
        "game": game, "phase": phase, "count": count, "at": at, "notice": notice, "errors": errors or [],
        "full_page": full_page, "poll": count["open"] and at is None, "poll_seconds": POLL_SECONDS,
        "day": day, "times": [{"iso": t.isoformat(), "at": t, "selected": at is not None and t == at}
                              for t in count["times"]],
    }
    now = timezone.now()
    accepting = (count["open"] and phase.status == Phase.Status.OPEN and not game.is_over
                 and (phase.deadline > now or game.paused_at is not None))
    if seat is not None and seat.alive and count["open"] and not game.is_over and day is None:
        versions = visibility.own_orders(viewer, phase)  # FM-5.6: the latest version counts
        latest = versions[-1].payload if versions else None
        own = (latest if isinstance(latest, Mapping) else {}).get("vote")
        panel["current"] = describe_vote(own, names) if own else None
        if accepting and not abilities.has_left(game.state.get("fm") or {}, seat.pk):
            panel["form"] = _vote_form(game, phase, seat, own)
            panel["form"]["version"] = versions[-1].version if versions else 0
        else:
            panel["closed"] = _("The deadline has passed: the count is final.")
    elif seat is not None and not seat.alive and count["open"]:
        panel["closed"] = _("Dead characters do not vote in the Veche (FM-6.2).")
    return panel


# == pages ==========================================================================================================



def _render(request, panel: dict, *, status: int = 200, oob_orders: bool = False) -> HttpResponse:
    game = panel.get("game")
    if request.htmx:
        html = render_to_string("forum_mafia/_veche.html", {"v": panel, "game": game}, request=request)
        if oob_orders:  # the order changed: its panel (versions, description) is swapped out of band
            from .orders import order_panel

            orders = order_panel(game=game, viewer=visibility.viewer_for(request.user, game))
            html += render_to_string("forum_mafia/_orders.html", {"o": orders, "game": game, "oob": True},
                                     request=request)
        return HttpResponse(html, status=status)
    return HttpResponse(_PAGE.render({"v": {**panel, "full_page": True}, "game": game}, request), status=status)


def _back(game: Game) -> HttpResponseRedirect:
    return HttpResponseRedirect(game.get_absolute_url() + "#fm-veche")


@require_http_methods(["GET", "POST"])
def panel(request, pk: int):
    """The Veche panel (FM-7). GET, for anyone who may see the game: the panel (the htmx partial, else a page of its
    own); ``?part=count`` only the public count (what htmx polls); ``?at=<ISO time>`` the count and history at that
    moment; ``?day=N`` another day. POST (a living character, logged in): ``for`` (a seat id or ``peace``),
    ``punishment``, ``prosecutor_bonus``, ``keep`` through ``services.vote_submit``, or ``action=withdraw``
    (``services.vote_withdraw``); without htmx back to the game page (PRG), a refused vote shows the panel with the
    reasons (status 400)."""
    game = game_or_404(request.user, pk, module=MODULE)
    viewer = visibility.viewer_for(request.user, game)
    if request.method == "GET":
        errors: list[str] = []
        try:
            at = parse_at(request.GET.get("at"))
        except ServiceError as exc:
            at, errors = None, error_messages(exc)
        v = veche_panel(game=game, viewer=viewer, at=at, day=int_or_none(request.GET.get("day")), errors=errors)
        if request.GET.get("part") == "count" and request.htmx:
            if not v:
                return HttpResponse("")
            return render(request, "forum_mafia/_veche_count.html", {"v": v, "game": game})
        return _render(request, {**v, "game": game})
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    post = request.POST
    try:
        phase = voting_phase(game, post.get("phase"))
        base_version = posted_version(post)
        if post.get("action") == "withdraw":
            services.vote_withdraw(phase=phase, user=request.user, base_version=base_version)
            notice = _("Your vote is taken back.")
        else:
            target = post.get("for", "")
            if target != veche.PEACE and int_or_none(target) is None:
                raise ServiceError({"vote.for": [_("Choose a living character or peace.")]})
            services.vote_submit(
                phase=phase, user=request.user, target=None if target == veche.PEACE else int_or_none(target),
                punishment=post.get("punishment") or veche.EXECUTION,
                prosecutor_bonus=bool(post.get("prosecutor_bonus")), keep=int_or_none(post.get("keep")),
                base_version=base_version)
            notice = _("Your vote is counted. You can change it until the deadline.")
    except ServiceError as exc:
        problems = error_messages(exc)
        # Before Day 1 there is no panel to show, but the refusal still says why (FM-7.1).
        v = veche_panel(game=game, viewer=viewer, errors=problems) or {"errors": problems}
        return _render(request, {**v, "game": game}, status=200 if request.htmx else 400)
    if request.htmx:
        return _render(request, {**veche_panel(game=game, viewer=viewer, notice=notice), "game": game},
                       oob_orders=True)
    messages.success(request, notice)
    return _back(game)
