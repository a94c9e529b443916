"""Forum Mafia abilities used at once, in the shell: the panel's forms for the instant abilities (FM-3.3 the maniac's
swap and the joker's mapping, FM-8 the looter and the geek) and the rebuild of an exhausted deck (FM-4.7, FM-4.8,
on the deck builder page of :mod:`cards.views`), their POST actions, and the REST API
(``POST /api/games/<id>/abilities/``, ``POST /api/games/<id>/deck/rebuild/``).

Views parse input, call one service of :mod:`..services.abilities` and render. Plain HTML forms work without
JavaScript (a POST redirects back to the game page with a message); under htmx a use re-renders the panel (and the
order form, whose cards may have changed, out of band), and the whole page reloads when the player left the game
or the game ended.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from cards import views as card_views
from cards.containers import Containers
from cards.services import card_namer, collection_for_game
from gm.core import page_memo, services, visibility
from gm.core.engine import PhaseInfo
from gm.core.models import Game, LogEntry, Phase
from gm.core.services import ServiceError
from gm.core.web import error_messages, flash_errors, game_or_404

from ..engine import abilities
from ..engine.roles import SECRET_ROLES
from ..engine.state import DAY, NIGHT
from ..services import abilities as ability_services
from ..texts import ability_name, secret_role_name
from ..texts.orders import ability_message, uses_text

MODULE = "forum_mafia"


def _open_phase(game: Game) -> Phase | None:
    phase = page_memo.unresolved_phase(game)
    ok = (phase is not None and phase.status == Phase.Status.OPEN and phase.kind in (NIGHT, DAY)
          and game.status == Game.Status.RUNNING)
    return phase if ok else None


# == selectors ======================================================================================================


def abilities_panel(*, game: Game, viewer: visibility.Viewer, notice: str = "", errors: list[str] | None = None,
                    oob_orders: bool = False) -> dict:
    """What ``forum_mafia/_abilities.html`` shows to ``viewer``: his instant abilities (each with whether he may use
    it now, else why not, and the choices its form needs: his own Hand and Sleeve, the dead, the other players and
    the secret roles, the collection) and the rebuild of his deck when it is empty. ``{}`` for anyone who can't use
    them now (no seat, dead or left, no open night or day, a game that is over)."""
    seat = viewer.seat
    phase = _open_phase(game) if seat is not None and seat.alive else None
    if phase is None or abilities.has_left(game.state.get("fm") or {}, seat.pk):
        return {}

    seats = page_memo.seats(game)
    infos = [services.seat_info(s) for s in seats]
    own = next(s for s in infos if s.id == seat.pk)
    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
    options = [o for o in abilities.ability_options(state=game.state, phase=info, seat=own, seats=infos)
               if o["instant"]]
    collection = collection_for_game(game)
    name = card_namer(collection)
    box = Containers.from_dict(own.data.get("cards"))
    names = {s.pk: s.display_name for s in seats}
    forms = []
    for opt in options:
        form = {"key": opt["key"], "ability": opt["ability"], "mode": opt["mode"], "label": _(opt["label"]),
                "role": ability_name(opt["ability"]), "available": opt["available"],
                "reason": _reason(opt, name), "uses": _uses(opt),
                "kind": "swap" if opt["needs_swap"] else "looter" if opt["needs_dead_target"]
                else "geek" if opt["needs_card"] else "guess"}
        if opt["needs_swap"]:
            form["hand"] = [(c.uid, name(c.kind)) for c in box.hand]
            form["sleeve"] = [(c.uid, name(c.kind)) for c in box.sleeve]
        if opt["needs_dead_target"]:
            form["targets"] = [(t, names[t]) for t in opt["targets"]]
        if opt["needs_card"]:
            form["cards"] = sorted(((k.slug, name(k.slug)) for k in collection.buildable()), key=lambda c: c[1])
        if opt["needs_mapping"]:
            form["others"] = [(t, names[t]) for t in opt["others"]]
            form["roles"] = sorted(((slug, secret_role_name(slug)) for slug in SECRET_ROLES), key=lambda r: r[1])
        forms.append(form)
    deck_left = len(box.deck)
    return {
        "game": game, "phase": phase, "forms": forms, "notice": notice, "errors": errors or [],
        "deck_empty": deck_left == 0, "rebuild_url": reverse("forum_mafia:rebuild", args=[game.pk]),
        "oob_orders": oob_orders,
    }


def _reason(option: Mapping[str, Any], name) -> str:
    return ability_message(option.get("reason"), option.get("reason_params"), name)


def _uses(option: Mapping[str, Any]) -> str:
    return uses_text(option)


def _payload(post) -> dict:
    """The instant payload from the panel's POST: ``ability``, ``mode``, ``hand_card``/``sleeve_card`` (uids),
    ``target`` (a seat id), ``card`` (a slug), ``map_<seat id>`` (secret role slugs). What can't be read is left out,
    so the engine names what is missing."""
    payload: dict[str, Any] = {"ability": post.get("ability", "")}
    if post.get("mode"):
        payload["mode"] = post["mode"]
    for key in ("hand_card", "sleeve_card", "target"):
        raw = post.get(key, "")
        if raw.isascii() and raw.isdigit() and len(raw) < 19:
            payload[key] = int(raw)
    if post.get("card"):
        payload["card"] = post["card"]
    mapping = {k[4:]: v for k, v in post.items() if k.startswith("map_") and v}
    if mapping or payload.get("ability") == "joker":
        payload["mapping"] = mapping
    return payload


# == pages ==========================================================================================================



def _panel_response(request, game: Game, *, notice: str = "", errors: list[str] | None = None) -> HttpResponse:
    viewer = visibility.viewer_for(request.user, game)
    panel = abilities_panel(game=game, viewer=viewer, notice=notice, errors=errors, oob_orders=True)
    html = render_to_string("forum_mafia/_abilities.html", {"a": panel, "game": game}, request=request)
    from .orders import order_panel

    orders = order_panel(game=game, viewer=viewer)
    html += render_to_string("forum_mafia/_orders.html", {"o": orders, "game": game, "oob": True}, request=request)
    return HttpResponse(html)


@require_POST
@login_required
def use(request, pk: int):
    """Use an instant ability now (``ability``, ``mode`` and the inputs of :func:`_payload`) through
    ``ability_services.ability_use``. Without JavaScript: back to the game page with a message. Under htmx: the
    panel again (with the refusal's reasons, or the result), or a full reload when the player left or the game
    ended."""
    game = game_or_404(request.user, pk, module=MODULE)
    try:
        result = ability_services.ability_use(game=game, user=request.user, payload=_payload(request.POST),
                                              phase_id=services.phase_named(
                                                  game=game, phase_id=request.POST.get("phase"), current=False).pk)
    except ServiceError as exc:
        if request.htmx:
            return _panel_response(request, game, errors=error_messages(exc))
        flash_errors(request, exc)
        return HttpResponseRedirect(game.get_absolute_url() + "#fm-abilities")
    seat = result.seat
    own = [e.text() for e in result.entries if e.visibility == LogEntry.Visibility.SEAT and e.seat_id == seat.pk]
    public = [e.text() for e in result.entries if e.visibility == LogEntry.Visibility.PUBLIC]
    notice = " ".join(own + public) or _("Done.")
    game.refresh_from_db()
    if request.htmx and (result.finished or not seat.alive):
        messages.success(request, notice)
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    if request.htmx:
        return _panel_response(request, game, notice=notice)
    messages.success(request, notice)
    return HttpResponseRedirect(game.get_absolute_url() + "#fm-abilities")


@require_http_methods(["GET", "POST"])
@login_required
def rebuild(request, pk: int):
    """FM-4.7: rebuild an exhausted deck on the deck builder (the cards app's page and its live FM-4.3 check), the
    submit going to ``ability_services.deck_rebuild``. The builder starts from the player's last deck list."""
    game = game_or_404(request.user, pk, module=MODULE)
    seat = card_views.own_seat(request, game)
    collection = collection_for_game(game)
    entries, problems = card_views.builder_entries(request, seat, collection)
    rules = card_views.builder_rules(seat, problems)
    deck_left = len(Containers.from_dict(seat.data.get("cards")).deck)
    can = (_open_phase(game) is not None and seat.alive and deck_left == 0
           and not abilities.has_left(game.state.get("fm") or {}, seat.pk))
    status = 200
    if request.method == "POST" and request.POST.get("action") == "submit" and not problems:
        try:
            ability_services.deck_rebuild(game=game, user=request.user, deck=entries)
        except ServiceError as exc:
            problems += error_messages(exc)
            status = 400
        else:
            messages.success(request, _("Your new deck is shuffled; your draws come from it again (FM-4.7)."))
            if request.htmx:
                response = HttpResponse(status=204)
                response["HX-Redirect"] = game.get_absolute_url()
                return response
            return HttpResponseRedirect(game.get_absolute_url() + "#fm-abilities")
    if deck_left:
        closed = _("Your deck still holds %(count)s cards: you can rebuild it once it is empty (FM-4.7).") % {
            "count": deck_left}
    else:
        closed = _("A deck is rebuilt during a night or a day, by a living character (FM-4.7).")
    context = card_views.builder_context(
        request, game=game, seat=seat, collection=collection, entries=entries, problems=problems, rules=rules,
        can_submit=can, form_action=reverse("forum_mafia:rebuild", args=[game.pk]),
        submit_label=_("Rebuild my deck"), closed_text=closed, title=_("Rebuild your deck"),
        intro=_("Your deck is empty: build a new one from the collection under the deck rules (FM-4.3, FM-4.7). "
                "It is shuffled at once; rebuilding recharges the abilities that say so (FM-4.8)."))
    return card_views.render_builder(request, context, status=status)
