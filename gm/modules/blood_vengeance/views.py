"""ONUW in the shell: the player's panel on the game page (his card, what he learned, the form of his phase offering
only legal choices, ON-4/ON-6/ON-14), the public day votes (ON-15), the tournament series standings (ON-16), and the
POST action that hands an order to :mod:`.services`.

Everything secret is read through ``gm.core.visibility`` (:mod:`.selectors`); a posted order is not checked by a
Django form: the raw values go to the service, so an illegal choice is refused with the engine's reason and its rule
ID, and nothing is saved.
"""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from gm.core import visibility
from gm.core.forms import posted_version
from gm.core.models import Game
from gm.core.services import ServiceError

from . import engine, selectors, services
from .forms import ChoiceForm, payload_from_post
from .texts import TEAM_NAMES, card_text, result_word, role_name, win_text


def page_context(*, game: Game, viewer: visibility.Viewer) -> dict:
    """What ``onuw/panel.html`` shows ``viewer``: the roles in play (public), his own card and what he learned (his
    seat's log lines, through the visibility layer), the form of his open phase, the day's votes, the series."""
    phase = selectors.open_phase(game)
    state = visibility.game_state(viewer)
    ctx: dict[str, Any] = {
        "roles": [role_name(r) for r in state.get("roles", [])],
        "votes": selectors.public_votes(viewer, phase),
        "series": selectors.series_context(game),
    }
    if viewer.seat is not None and game.status in (Game.Status.RUNNING, Game.Status.FINISHED):
        own = game.game_module.own_seat_data(viewer.seat.data)
        ctx["my_card"] = role_name(own["card"]) if own.get("card") else ""
        ctx["my_copy"] = role_name(own["copy"]) if own.get("copy") else ""
        if own.get("card"):  # the role he acts as: the copied one for the doppelganger (ON-4.1)
            ctx["my_win"] = win_text(own.get("copy") or own["card"])
        # The deal's "Your card" line is the panel's own line (and, once the game is over, the result's).
        ctx["learned"] = [e.text() for e in visibility.log_entries(viewer).filter(
            visibility="seat", seat=viewer.seat).exclude(kind="onuw.your_card")]
        choice = selectors.order_choice(game, viewer, phase)
        if choice:
            current = (visibility.orders(viewer, phase).filter(seat=viewer.seat).order_by("-version").first())
            ctx["choice"] = choice
            ctx["phase_id"] = phase.pk
            ctx["version"] = current.version if current else 0
            ctx["form"] = ChoiceForm(choice=choice, seats=selectors.seat_order(game), own=str(viewer.seat.pk),
                                     initial_payload=current.payload if current else None)
            ctx["current_order"] = current.payload if current and current.payload else None
            if ctx["current_order"]:
                ctx["current_lines"] = game.game_module.order_lines(
                    payload=current.payload, seat_data=viewer.seat.data,
                    seat_names={int(sid): name for sid, name in selectors.seat_order(game)})
    if state.get("cards"):  # only in the full state: the master's, and everyone's after the game
        names = dict(selectors.seat_order(game))
        over = state.get("stage") == "over"
        winners = set(state.get("winners") or [])
        ctx["final"] = []
        for sid, card in state["cards"].items():
            final_as = engine.effective(card, state)
            dealt = state["dealt"][sid]
            ctx["final"].append({
                "name": names.get(sid, sid),
                "dealt": card_text(dealt, state.get("copy")),
                "final": card_text(card, final_as),
                "team": str(TEAM_NAMES[engine.team(final_as)]),
                "result": result_word(sid in winners) if over else "",
            })
        ctx["final_center"] = [role_name(c) for c in state["center"]]
        ctx["winning_teams"] = [str(TEAM_NAMES.get(t, t)) for t in state.get("winning_teams", [])]
        if over and viewer.seat is not None and str(viewer.seat.pk) in state["cards"]:
            ctx["my_result"] = selectors.end_result(state, str(viewer.seat.pk))
    return ctx


@require_POST
@login_required
def order(request, pk: int):
    """POST the viewer's order for the phase the form names (hidden ``phase``, and ``version``: the order version it
    edits) — doppelganger copy, night action or day vote: the raw values go to :func:`.services.submit_order`; a refused
    order shows the engine's reasons (or, for a phase that has ended, the core's ``stale`` message naming both
    phases) and nothing is saved."""
    game = visibility.game_or_404(request.user, pk, module="onuw")
    try:
        # The phase the form was made for (hidden ``phase``): a night form posted once the day is open saves nothing.
        phase_id = request.POST.get("phase")
        base_version = posted_version(request.POST)
        if request.POST.get("withdraw"):
            services.withdraw_order(game=game, user=request.user, phase_id=phase_id, base_version=base_version)
            messages.success(request, _("Your order was withdrawn."))
        else:
            services.submit_order(game=game, user=request.user, phase_id=phase_id,
                                  payload=payload_from_post(request.POST), base_version=base_version)
            messages.success(request, _("Your order is saved. You can change it until the deadline."))
    except ServiceError as exc:
        for msgs in exc.errors.values():
            for msg in msgs:
                messages.error(request, msg)
    return HttpResponseRedirect(game.get_absolute_url())
