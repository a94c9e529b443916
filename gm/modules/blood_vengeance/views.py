"""Mafia: Blood Vengeance in the shell: the player's panel on the game page (his card, his results, the form of his
open phase offering only legal choices, BV-5/BV-13/BV-14), the roles in play and the series (BV-2.7, BV-12.3), and
the POST action that hands an order to :mod:`.services` (light actions action by action, BV-14.4a).

Everything secret is read through ``gm.core.visibility`` (:mod:`.selectors`); a posted order is checked by the
engine, so an illegal choice is refused with its BV-16 reason and rule ID, and nothing is saved.
"""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import BooleanField
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from gm.core import visibility, web
from gm.core.models import Game
from gm.core.services import ServiceError

from . import selectors, services
from .forms import OrderForm, options_fields, options_from_fields, payload_from_post
from .texts import render_event, role_name, side_name, win_text


def page_context(*, game: Game, viewer: visibility.Viewer) -> dict:
    """What ``blood_vengeance/panel.html`` shows ``viewer``: the roles in play (public), the set-up summary, his own
    card and side and his results (his seat's log lines, through the visibility layer), the form of his open phase,
    the series."""
    phase = selectors.open_phase(game)
    ctx: dict[str, Any] = {
        "roles": selectors.roles_in_play(game, viewer) if game.status != Game.Status.SIGNUP else [],
        "summary": selectors.setup_summary(game) if game.status == Game.Status.SIGNUP else "",
        "warnings": selectors.setup_warnings(game) if game.status == Game.Status.SIGNUP and viewer.is_master
        else [],
        "series": selectors.series_context(game),
        "hunters_room": selectors.hunters_room(viewer) if game.status != Game.Status.SIGNUP else None,
    }
    if viewer.seat is not None and game.status in (Game.Status.RUNNING, Game.Status.FINISHED):
        own = game.game_module.own_seat_data(viewer.seat.data)
        if own.get("card"):
            ctx["my_card"] = role_name(own["card"])
            ctx["my_side"] = side_name(own.get("side", ""))
            ctx["my_win"] = win_text(own.get("side", ""))
        ctx["learned"] = [e.text() for e in visibility.log_entries(viewer).filter(
            visibility="seat", seat=viewer.seat).exclude(kind="bv.your_card")]
        grouped = selectors.viewer_choices(game, viewer, phase)
        if grouped:
            names = dict(selectors.seat_order(game))
            labels = {g: [selectors.choice_label(g, {"actions": [p]} if phase.kind == "light" else p, names)
                          for p in ps] for g, ps in grouped.items()}
            current = selectors.current_order(viewer, phase)
            ctx["form"] = OrderForm(grouped=grouped, labels=labels)
            ctx["phase_id"] = phase.pk
            ctx["version"] = current.version if current else 0
            if current is not None and current.payload:
                ctx["current_lines"] = game.game_module.order_lines(
                    payload=current.payload, seat_data=viewer.seat.data,
                    seat_names={int(sid): n for sid, n in names.items()})
        if game.status == Game.Status.FINISHED and "won" in own:
            ctx["my_result"] = {"won": own["won"], "points": own.get("points", 0)}
    if viewer.may_act and game.status == Game.Status.RUNNING:  # BV-10.1, BV-15.12: the master's actions
        ctx["master"] = {"enchant": selectors.enchantable_seats(game)}
    if game.status == Game.Status.FINISHED:
        entry = visibility.log_entries(viewer).filter(kind="bv.victory").first()
        ctx["victory"] = render_event(entry.kind, entry.data) if entry else ""
    return ctx


@require_POST
@login_required
def order(request, pk: int):
    """POST the viewer's order for the phase the form names (hidden ``phase``): the chosen legal choices become a
    payload; a light order goes action by action (BV-14.4a), each refusal shown with its reason; withdraw with
    ``withdraw``."""
    game = visibility.game_or_404(request.user, pk, module="blood_vengeance")
    viewer = visibility.viewer_for(request.user, game)
    phase = selectors.open_phase(game)
    phase_id = request.POST.get("phase")
    try:
        if request.POST.get("withdraw"):
            services.withdraw_order(game=game, user=request.user, phase_id=phase_id)
            messages.success(request, _("Your order was withdrawn."))
        elif phase is not None and str(phase.pk) == str(phase_id):
            grouped = selectors.viewer_choices(game, viewer, phase)
            payload = payload_from_post(request.POST, grouped, phase.kind)
            if phase.kind == "light":
                result = services.submit_actions(game=game, user=request.user, phase_id=phase_id,
                                                 actions=payload["actions"])
                for refusal in result.refused:
                    messages.error(request, refusal["message"])
                if result.order is not None:
                    messages.success(request, _("Your order is saved. You can change it until the deadline."))
            else:
                services.submit_order(game=game, user=request.user, phase_id=phase_id, payload=payload)
                messages.success(request, _("Your order is saved. You can change it until the deadline."))
        else:
            services.submit_order(game=game, user=request.user, phase_id=phase_id, payload={})
    except ServiceError as exc:
        for msgs in exc.errors.values():
            for msg in msgs:
                messages.error(request, msg)
    return HttpResponseRedirect(game.get_absolute_url())


@require_POST
@login_required
def enchant(request, pk: int):
    """POST the master's spell of silence (BV-15.12): ``seat`` and ``reason``; refusals shown, nothing saved."""
    game = visibility.game_or_404(request.user, pk, module="blood_vengeance")
    return web.post_action(request, lambda: services.enchant(game=game, actor=request.user,
                                                             seat_id=request.POST.get("seat"),
                                                             reason=request.POST.get("reason")),
                           redirect_to=game.get_absolute_url(), success=_("The spell of silence is cast."))


@require_POST
@login_required
def hunters_win(request, pk: int):
    """POST the master's declaration of the hunters' win (BV-10.1) with its ``reason``."""
    game = visibility.game_or_404(request.user, pk, module="blood_vengeance")
    return web.post_action(request, lambda: services.declare_hunters_win(game=game, actor=request.user,
                                                                         reason=request.POST.get("reason")),
                           redirect_to=game.get_absolute_url(), success=_("The hunters are declared the winners."))


#: The "new game" page names the module's option fields ``opt_<name>`` (``gm.core.forms``).
OPTION_PREFIX = "opt_"


@login_required
def setup_check(request):
    """GET: BV-2's live check of the set-up the master is building on the "new game" page (its option fields,
    ``opt_<name>``, sent by htmx as he types): the summary players will read, the hard limits broken (errors, each
    with its rule ID) and the departures from the recommended table (warnings) — an HTML fragment for the roles
    field's check box (:class:`.forms.RolesInput`). Writes nothing."""
    fields = options_fields()
    values: dict[str, Any] = {}
    for name, field in fields.items():
        raw = request.GET.get(OPTION_PREFIX + name)
        if raw is None:
            continue
        values[name] = raw not in ("", "off", "false", "0") if isinstance(field, BooleanField) else raw
    check = selectors.setup_check(options_from_fields(values))
    return render(request, "blood_vengeance/_setup_check.html", {"check": check})


@require_POST
@login_required
def hunters_post(request, pk: int):
    """POST a message (``body``) in the hunters' room (BV-14.2; :func:`.services.hunters_post`); refusals shown with
    their reason, nothing saved."""
    game = visibility.game_or_404(request.user, pk, module="blood_vengeance")
    return web.post_action(request, lambda: services.hunters_post(game=game, user=request.user,
                                                                  body=request.POST.get("body")),
                           redirect_to=f"{game.get_absolute_url()}#bv-hunters",
                           success=_("Your message is in the hunters' room."))
