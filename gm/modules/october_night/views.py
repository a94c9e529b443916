"""October Night in the shell: the panel on the game page (the board as an SVG map readable on a phone, every
location with what is there, the viewer's character sheet and side, the legal lines with the reason others are
unavailable, OC-11.3, OC-11.5), the order POST and the master's per-game data edit (OC-17).

Everything secret is read through ``gm.core.visibility`` (:mod:`.selectors`); a posted order is checked by the
engine, not by the form, so a refusal names its reason and rule ID and nothing is saved.
"""
from __future__ import annotations

from typing import Any

import yaml
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
from .forms import BoardForm, ClaimForm, DataForm, OrderForm, payload_from_post
from .texts import SKILL_NAMES, name, names, side_name


def _sheet(state: dict, sid: str) -> dict:
    p = state["players"][sid]
    return {
        "name": state["names"].get(sid, sid), "character": name(p["character"]),
        "location": name(p.get("location")), "health": p["health"], "experience": p["experience"],
        "skills": [(str(SKILL_NAMES[k]), v) for k, v in p["skills"].items()],
        "assets": names(p["assets"]), "ingredients": names(p["ingredients"]), "clues": p["clues"],
        "abilities": names(p["abilities"]), "used": names(p["used"]), "out": p.get("out"),
        "contact": (name(p["contact"]["card"]) + (f" ({', '.join(str(d) for d in p['contact']['done'])})"
                                                  if p["contact"].get("done") else "")) if p.get("contact") else "",
    }


def page_context(*, game: Game, viewer: visibility.Viewer) -> dict:
    """What ``october_night/panel.html`` shows ``viewer``: the board (public), every player's sheet (public), his
    side card and what his insight told him (his own), the legal lines of the open phase with the reasons the others
    are unavailable, and for the master before the start the data edit form."""
    state = selectors.viewer_state(viewer)
    ctx: dict[str, Any] = {}
    if game.status in (Game.Status.DRAFT, Game.Status.SIGNUP):
        if viewer.may_act:  # the master or a full co-master (a read-only co-master edits nothing)
            data = game.options.get("data") if game.options else None
            ctx["data_form"] = DataForm(initial={"data": yaml.safe_dump(data, allow_unicode=True) if data else ""})
        if game.status == Game.Status.SIGNUP:
            # OC-2.1: the sheets and who holds them; a seated player claims a free one.
            ctx["sheets_claimed"] = selectors.sheet_claims(game)
            if viewer.seat is not None:
                mine = (viewer.seat.data or {}).get("claim") or ""
                ctx["claim_form"] = ClaimForm(sheets=ctx["sheets_claimed"], me=viewer.seat.display_name,
                                              initial={"character": mine})
        return ctx
    if not state.get("players"):
        return ctx
    ctx["board"] = selectors.board(state)
    if viewer.kind == "master" and game.status == Game.Status.RUNNING:
        # OC-11.6: the board's tokens, bag, decks and reserve as YAML the master may edit (with a reason).
        ctx["board_form"] = BoardForm(initial={"board": yaml.safe_dump(engine.board_fields(game.state),
                                                                        allow_unicode=True, sort_keys=False)})
    ctx["day"], ctx["stage"] = state.get("day"), state.get("stage")
    ctx["reserve"] = names([c for c in state.get("reserve") or [] if c])
    ms = state.get("mysteries") or {}
    ctx["mysteries"] = {"solved": names(ms.get("solved")), "open": name(ms.get("open")) if ms.get("open") else ""}
    ctx["ritual_place"] = name(state["ritual_place"]) if state.get("ritual_place") else ""
    ctx["sheets"] = [_sheet(state, sid) for sid in state["seats"]]
    ctx["revealed"] = [(state["names"][s], side_name(v)) for s, v in (state.get("revealed") or {}).items()]
    if state.get("sides"):  # the full state: the master, and everyone after the game
        ctx["revealed"] = [(state["names"][s], side_name(v)) for s, v in state["sides"].items()]
    if viewer.seat is not None:
        sid = str(viewer.seat.pk)
        ctx["my_side"] = side_name(state.get("my_side") or (state.get("sides") or {}).get(sid, ""))
        if state.get("my_declared"):
            ctx["my_declared"] = side_name(state["my_declared"])
        ctx["my_insight"] = [f"{i['name']}: {side_name(i['side'])}" for i in state.get("my_insight") or []]
        phase = selectors.open_phase(game)
        if phase is not None and phase.status == "open" and viewer.seat.alive and not game.is_over:
            lines = selectors.legal_lines(game.state, sid, phase.kind)
            ctx["phase_id"] = phase.pk
            current = visibility.orders(viewer, phase).filter(seat=viewer.seat).order_by("-version").first()
            ctx["version"] = current.version if current else 0
            legal = [line for line in lines if not line["why"]]
            ctx["form"] = OrderForm(lines=legal, trade=selectors.trade_cards(game.state, sid)
                                    if phase.kind == "action" else None)
            # Tapping a location on the map shows what the viewer may do there (OC-11.5).
            here = (state["players"].get(sid) or {}).get("location")
            for loc in ctx["board"]["locations"]:
                loc["actions"] = [line["label"] for line in legal
                                  if line["key"] == f"travel:{loc['slug']}"
                                  or (loc["slug"] == here and line["key"].split(":")[0] in (
                                      "rest", "heal", "buy", "fight", "ally", "trade", "section", "enemy",
                                      "mystery"))]
                loc["here"] = loc["slug"] == here
            ctx["unavailable"] = [(line["label"], line["why"]) for line in lines if line["why"]]
            if current and current.payload:
                ctx["current_lines"] = game.game_module.order_lines(
                    payload=current.payload, seat_data=viewer.seat.data,
                    seat_names={int(s): n for s, n in state["names"].items()})
    return ctx


@require_POST
@login_required
def order(request, pk: int):
    """POST the viewer's order for the phase the form names (hidden ``phase`` and ``version``): the chosen lines
    become a payload for :func:`.services.submit_order`; a refusal shows the engine's reasons and saves nothing."""
    game = visibility.game_or_404(request.user, pk, module="october_night")
    viewer = visibility.viewer_for(request.user, game)
    try:
        phase_id = request.POST.get("phase")
        base_version = posted_version(request.POST)
        if request.POST.get("withdraw"):
            services.withdraw_order(game=game, user=request.user, phase_id=phase_id, base_version=base_version)
            messages.success(request, _("Your order was withdrawn."))
        else:
            phase = selectors.open_phase(game)
            sid = str(viewer.seat.pk) if viewer.seat is not None else ""
            lines = selectors.legal_lines(game.state, sid, phase.kind) if phase is not None and sid else []
            services.submit_order(game=game, user=request.user, phase_id=phase_id,
                                  payload=payload_from_post(request.POST, lines), base_version=base_version)
            messages.success(request, _("Your order is saved. You can change it until the deadline."))
    except ServiceError as exc:
        for msgs in exc.errors.values():
            for msg in msgs:
                messages.error(request, msg)
    return HttpResponseRedirect(game.get_absolute_url())


@require_POST
@login_required
def data_edit(request, pk: int):
    """POST the master's data overrides (YAML) for a game not yet started (OC-17); every error names its entry."""
    game = visibility.game_or_404(request.user, pk, module="october_night")
    form = DataForm(request.POST)
    try:
        if not form.is_valid():
            raise ServiceError(_("Invalid form."))
        overrides = services.parse_data(form.cleaned_data["data"])
        services.data_edit(game=game, actor=request.user, overrides=overrides, reason=form.cleaned_data["reason"],
                           text=form.cleaned_data["data"])
        messages.success(request, _("The game's data is saved."))
    except ServiceError as exc:
        for field, msgs in exc.errors.items():
            for msg in msgs:
                messages.error(request, f"{field}: {msg}" if field not in ("__all__", "data") else msg)
    return HttpResponseRedirect(game.get_absolute_url())


@require_POST
@login_required
def claim(request, pk: int):
    """POST the viewer's claim of a character sheet at sign-up (OC-2.1; ``character``: a slug, empty to drop it);
    a sheet someone else holds is refused naming him, and nothing changes."""
    game = visibility.game_or_404(request.user, pk, module="october_night")
    try:
        services.sheet_claim(game=game, user=request.user, character=request.POST.get("character", ""))
        messages.success(request, _("Your character sheet is claimed.") if request.POST.get("character")
                         else _("You will get a random free character sheet."))
    except ServiceError as exc:
        for msgs in exc.errors.values():
            for msg in msgs:
                messages.error(request, msg)
    return HttpResponseRedirect(game.get_absolute_url())


@require_POST
@login_required
def board_edit(request, pk: int):
    """POST the master's board edit of a running game (OC-11.6): YAML of the enemy tokens, bag, decks and reserve,
    with a reason; every error names its entry and line, and nothing changes then."""
    game = visibility.game_or_404(request.user, pk, module="october_night")
    form = BoardForm(request.POST)
    try:
        if not form.is_valid():
            raise ServiceError(_("Invalid form."))
        services.board_edit(game=game, actor=request.user, text=form.cleaned_data["board"],
                            reason=form.cleaned_data["reason"])
        messages.success(request, _("The board is saved."))
    except ServiceError as exc:
        for msgs in exc.errors.values():
            for msg in msgs:
                messages.error(request, msg)
    return HttpResponseRedirect(game.get_absolute_url())
