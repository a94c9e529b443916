"""Forum Mafia pages of the start stretch: the player's panel on the game page (his secret and public role, the
joker's colours, the engineer's picks, the lucky's redeals, the psychic's top cards) and the POST actions behind
its forms. Plain HTML forms: everything works without JavaScript. Views parse input, call one service and redirect
back to the game page with a message.
"""
from __future__ import annotations

from collections import Counter

from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cards.deckrules import COLOUR_NAMES, ROLE_COLOURS, SECRET_ROLE_COLOURS
from cards.services import card_namer, collection_for_game
from gm.core import page_memo, visibility
from gm.core.models import Game, Phase
from gm.core.web import game_or_404, post_action

from ..engine.roles import FACTION_NAMES, MAFIA
from ..engine.state import DAY, DECKBUILDING, MAFIA_GROUP, NIGHT
from ..services import setup as setup_services
from ..services.setup import LUCKY_REDEALS
from ..texts import YOUR_RESULT, ability_name, public_role_name, secret_role_name
from ..texts.roles import (
    AVENGER_WIN,
    CUSTOM_ROLE_TEXT,
    NOBODY_WINS,
    PUBLIC_ROLE_TEXTS,
    SECRET_ROLE_TEXTS,
    SECRET_ROLE_WINS,
)


def _stalemate(game: Game) -> dict:
    """FM-10.H1 for the master of a running game: the quiet-phase count, the limit and whether he may reset it."""
    from ..engine.victory import stalemate_count, stalemate_limit

    if game.status != Game.Status.RUNNING or game.is_over or not game.started_at:
        return {}
    state = game.state or {}
    limit = stalemate_limit(state)
    if not limit:
        return {}
    count = stalemate_count(state)
    return {"count": count, "limit": limit, "can_reset": count > 0}


def _your_result(game: Game, seat) -> str:
    """Once the game is over, the player's own result line: won, lost or a draw (FM-10, FM-10.H1)."""
    from ..engine.victory import seat_result

    if not game.is_over or not isinstance(game.outcome, dict):
        return ""
    return str(YOUR_RESULT[(seat.data or {}).get("result") or seat_result(game.outcome, seat.pk)])


def panel_context(*, game: Game, viewer: visibility.Viewer) -> dict:
    """What ``forum_mafia/panel.html`` shows to ``viewer``: only his own seat's secrets, his order form in an open
    night or day (a living player) and his private results; his chat rooms (FM-9.3; the master: every room); the
    resolution trace to whoever may read master entries (the master; everyone once the game is over). Spectators and
    anonymous visitors get nothing while it runs."""
    from ..services.rooms import room_list
    from .orders import order_panel, private_results, resolution_trace
    from .veche import veche_panel

    trace = resolution_trace(viewer) if game.started_at else []
    rooms = room_list(viewer) if game.started_at else []  # FM-9.3: the viewer's chat rooms (the master: all)
    veche = veche_panel(game=game, viewer=viewer) if game.started_at else {}  # FM-7: public, to every viewer
    seat = viewer.seat
    if seat is None or not (seat.data or {}).get("secret_role"):
        stalemate = _stalemate(game) if viewer.is_master else {}
        return {k: v for k, v in (("trace", trace), ("rooms", rooms), ("veche", veche), ("stalemate", stalemate))
                if v}
    data = game.game_module.own_seat_data(seat.data)  # the owner's view: no deck order (FM-4.6)
    role = data["secret_role"]
    phase = page_memo.unresolved_phase(game)
    is_open = phase is not None and phase.status == Phase.Status.OPEN and seat.alive and not game.is_over
    building = is_open and phase.kind == DECKBUILDING
    night_1 = is_open and phase.kind == NIGHT and phase.number == 1
    name = card_namer(collection_for_game(game))
    colours = data.get("joker_colours") if role == "joker" else SECRET_ROLE_COLOURS.get(role, ())
    public = data.get("public_role")
    context: dict = {
        "seat": seat,
        "secret_role": secret_role_name(role),
        "secret_text": _(SECRET_ROLE_TEXTS[role]) if role in SECRET_ROLE_TEXTS else "",
        "faction": _(FACTION_NAMES.get(data.get("faction"), "")) if data.get("faction") else "",
        "public_role": public_role_name(public),
        "public_text": _(CUSTOM_ROLE_TEXT) if isinstance(public, dict)
        else _(PUBLIC_ROLE_TEXTS[public]) if public in PUBLIC_ROLE_TEXTS else "",
        "colours": [_(COLOUR_NAMES[c]) for c in colours or ()],
        "win": win_condition(role, public),
        "teammates": mafia_teammates(viewer, data) if data.get("faction") == MAFIA else [],
        "role_abilities": role_abilities(game=game, seat=seat, phase=phase),
        "alive": seat.alive,
        "my_result": _your_result(game, seat),
    }
    if game.game_module.uses_cards and (data.get("cards") or data.get("deck_list")):
        from cards.selectors import seat_cards

        context["cards"] = [seat_cards(viewer, seat, collection_for_game(game))]  # the hand panel takes a list
    if building:  # FM-4.5: the call to build (or change) the deck, with its deadline
        context["deck_due"] = {"deadline": phase.deadline, "saved": bool(data.get("deck_list"))}
    if role == "joker" and building:
        chosen = set(data.get("joker_colours") or ())
        context["joker"] = {"choices": [{"slug": c, "name": _(COLOUR_NAMES[c]), "checked": c in chosen}
                                        for c in ROLE_COLOURS]}
    if data.get("public_role") == "engineer" and building:
        deck = Counter(e.get("kind") for e in data.get("deck_list") or [] if isinstance(e, dict))
        picks = list(data.get("engineer_picks") or [])
        context["engineer"] = {
            "options": sorted(((slug, name(slug)) for slug in deck), key=lambda o: o[1]),
            "picks": picks + [""] * (setup_services.ENGINEER_PICKS - len(picks)),
            "missing": [name(p) for p, n in Counter(picks).items() if deck[p] < n],
        }
    left = data.get("lucky_redeals_left")
    if data.get("public_role") == "lucky" and night_1 and isinstance(left, int):
        context["lucky"] = {"left": left, "used": LUCKY_REDEALS - left,
                            "hand": [name(c["kind"]) for c in (data.get("cards") or {}).get("hand", [])]}
    if data.get("public_role") == "psychic" and data.get("deck_top"):
        context["deck_top"] = [name(slug) for slug in data["deck_top"]]
    if is_open and phase.kind in (NIGHT, DAY):
        from .abilities import abilities_panel

        context["abilities"] = abilities_panel(game=game, viewer=viewer)
        context["orders"] = order_panel(game=game, viewer=viewer)
    context["results"] = private_results(viewer)
    if not seat.alive:
        context["death"] = death_notice(context["results"])
    context["trace"] = trace
    context["rooms"] = rooms
    context["veche"] = veche
    return context


def win_condition(secret_role: str, public_role) -> list[str]:
    """How a seat wins, in sentences of the active language, for its role card: its secret role's condition
    (FM-10.1–FM-10.4, FM-3.3), the avenger's extra way (FM-8) when that is its public role, and that nobody wins
    when everyone dies (FM-10.5)."""
    lines = [_(SECRET_ROLE_WINS[secret_role])] if secret_role in SECRET_ROLE_WINS else []
    if public_role == "avenger":
        lines.append(_(AVENGER_WIN))
    return [*lines, _(NOBODY_WINS)]


def mafia_teammates(viewer: visibility.Viewer, own_data: dict) -> list[dict]:
    """The other mafiosi a mafioso knows from the deal (FM-3.1), ``{"name", "alive"}`` in ring order: the seat ids
    his own seat data holds (``mafia_seats``, written at the deal; ``own_data`` is what the visibility layer lets
    him read of his seat), named from the public seat list — no query. A seat dealt before that key existed asks
    the visibility layer's group membership instead (one query), which answers only a member of the Mafia."""
    own = viewer.seat.pk if viewer.seat is not None else None
    if "mafia_seats" in own_data:
        ids = set(own_data["mafia_seats"])
        members = [s for s in page_memo.seats(viewer.game) if s.pk in ids]
    else:
        members = visibility.group_members(viewer, MAFIA_GROUP)
    return [{"name": s.display_name, "alive": s.alive} for s in members if s.pk != own]


def death_notice(results: list[dict]) -> str:
    """What a dead player is told on his game page (his seat only): the newest ``fm.you_died`` line of his private
    ``results`` (:func:`.orders.private_results`: when, why, and what he may still see), or a general sentence
    for a death recorded before that line existed."""
    for phase in results:
        for entry in phase["entries"]:
            if entry.get("kind") == "fm.you_died":
                return entry["text"]
    return _("You are dead. You can still read the thread, the public log and your own results; you give no more "
             "orders, votes or abilities, and your secret role stays secret until the game ends.")


def role_abilities(*, game: Game, seat, phase: Phase | None) -> list[dict]:
    """The abilities of ``seat``'s roles for his role card (FM-3, FM-8), each ``{"role", "label", "uses",
    "instant"}``: the role that gives it, what it does (translated), how many uses are left in its period
    (translated text; "any number of times" when unlimited). Counted against the open phase, else the last one.
    Empty for a seat without abilities (most public roles act through cards or passively)."""
    from gm.core.engine import PhaseInfo
    from gm.core.services import seat_info

    from ..engine import abilities
    from ..texts.orders import uses_text

    phase = phase or page_memo.last_phase(game)
    if phase is None:
        return []
    seats = [seat_info(s) for s in page_memo.seats(game)]
    own = next((s for s in seats if s.id == seat.pk), None)
    if own is None:
        return []
    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
    options = abilities.ability_options(state=game.state, phase=info, seat=own, seats=seats)
    return [{"role": ability_name(o["ability"]), "label": _(o["label"]), "uses": uses_text(o),
             "instant": o["instant"]} for o in options]



def _act(request, pk: int, action, success: str):
    """A start-stretch form's POST: ``action(game)`` (one service call), then back to the panel with ``success`` or
    the refusal's reasons."""
    game = game_or_404(request.user, pk, module="forum_mafia")
    return post_action(request, lambda: action(game), redirect_to=game.get_absolute_url() + "#fm-panel",
                       success=success)


@require_POST
@login_required
def joker_colours(request, pk: int):
    """FM-3.3: the joker's two colours (checkboxes ``colours``)."""
    colours = request.POST.getlist("colours")
    return _act(request, pk,
                lambda g: setup_services.joker_colours_choose(game=g, user=request.user, colours=colours),
                _("Your colours are saved. You can change them until the deck-building deadline."))


@require_POST
@login_required
def engineer_picks(request, pk: int):
    """FM-8 engineer: two cards of his deck guaranteed among his first six (selects ``pick_1``, ``pick_2``)."""
    picks = [request.POST.get("pick_1", ""), request.POST.get("pick_2", "")]
    return _act(request, pk, lambda g: setup_services.engineer_picks_set(game=g, user=request.user, picks=picks),
                _("Your two guaranteed cards are saved. You can change them until the deck-building deadline."))


@require_POST
@login_required
def lucky_redeal(request, pk: int):
    """FM-8 lucky: redeal the Hand during Night 1 (at most twice)."""
    return _act(request, pk, lambda g: setup_services.lucky_redeal(game=g, user=request.user),
                _("Your Hand was redealt."))
