"""ONUW in the shell: the player's panel on the game page (his card, what he learned, the form of his phase offering
only legal choices, ON-4/ON-6/ON-14), the public day votes (ON-15), the tournament series standings (ON-16), and the
POST action that hands an order to ``gm.core.services.order_submit``.

Everything secret is read through ``gm.core.visibility`` (his own seat's data and log lines); the form's choices
come from the pure engine (``engine.night_choice``). A posted order is not checked by a Django form: the raw values
go to the service, so an illegal choice is refused with the engine's reason and its rule ID, and nothing is saved.
"""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from gm.core import services, visibility
from gm.core.forms import posted_version
from gm.core.models import Game, Phase
from gm.core.services import ServiceError

from . import engine
from .module import CENTER_NAMES, TEAM_NAMES, card_text, dealt_and_final, result_word, role_name, win_text

#: The seer's center-card pairs as one choice each (ON-4.5), so the form can only offer legal looks.
CENTER_PAIRS = (("center1", "center2"), ("center1", "center3"), ("center2", "center3"))
CHOICE_LABELS = {
    "copy": gettext_lazy("Look at this player's card and become that role (doppelganger)"),
    "seer": gettext_lazy("Look at one other player's card or at two center cards (seer)"),
    "robber": gettext_lazy("Swap your card with this player's and look at your new card (robber)"),
    "troublemaker": gettext_lazy("Swap the cards of exactly two other players, without looking (troublemaker)"),
    "drunk": gettext_lazy("Swap your card with a center card, without looking (drunk)"),
    "lone_wolf": gettext_lazy("You are the only werewolf: look at one center card"),
    "vote": gettext_lazy("Vote for another player"),
}


def _open_phase(game: Game) -> Phase | None:
    return game.phases.exclude(status=Phase.Status.RESOLVED).first()


def _seat_order(game: Game) -> list[tuple[str, str]]:
    return [(str(s.pk), s.display_name) for s in game.seats.order_by("position")]


def order_choice(game: Game, viewer: visibility.Viewer, phase: Phase | None) -> str | None:
    """What the viewer chooses in the open phase: ``copy`` (doppelganger step), the night choice (``seer``,
    ``robber``, ``troublemaker``, ``drunk``, ``lone_wolf``), ``vote`` (day), or ``None``."""
    if phase is None or phase.status != Phase.Status.OPEN or viewer.seat is None or not viewer.seat.alive:
        return None
    sid = str(viewer.seat.pk)
    state = game.state
    if phase.kind == "doppelganger":
        return "copy" if state["dealt"].get(sid) == "doppelganger" else None
    if phase.kind == "night":
        return engine.night_choice(state, sid, [s for s, _n in _seat_order(game)])
    return "vote" if phase.kind == "day" else None


class ChoiceForm(forms.Form):
    """The form for one choice, offering only legal values: other players, center cards or center pairs."""

    def __init__(self, *args, choice: str, seats: list[tuple[str, str]], own: str, initial_payload=None, **kw):
        super().__init__(*args, **kw)
        others = [(sid, name) for sid, name in seats if sid != own]
        centers = [(c, str(CENTER_NAMES[c])) for c in engine.CENTER]
        label = CHOICE_LABELS[choice]
        if choice in ("copy", "robber", "vote"):
            key = {"copy": "copy", "robber": "swap_with", "vote": "vote"}[choice]
            self.fields[key] = forms.ChoiceField(label=label, choices=others, widget=forms.RadioSelect)
        elif choice == "seer":
            pairs = [("+".join(p), f"{CENTER_NAMES[p[0]]} + {CENTER_NAMES[p[1]]}") for p in CENTER_PAIRS]
            self.fields["look"] = forms.ChoiceField(label=label, choices=others + pairs, widget=forms.RadioSelect)
        elif choice == "troublemaker":
            self.fields["swap"] = forms.MultipleChoiceField(label=label, choices=others,
                                                            widget=forms.CheckboxSelectMultiple)
        elif choice == "drunk":
            self.fields["take"] = forms.ChoiceField(label=label, choices=centers, widget=forms.RadioSelect)
        elif choice == "lone_wolf":
            self.fields["look"] = forms.ChoiceField(label=label, choices=centers, widget=forms.RadioSelect)
        if initial_payload:
            for key, value in initial_payload.items():
                if key in self.fields:
                    if key == "look" and isinstance(value, list):
                        value = "+".join(str(v) for v in value)
                    self.fields[key].initial = [str(v) for v in value] if isinstance(value, list) else str(value)


def _ref(value: str) -> Any:
    """A posted player or center reference: seat ids become ints (as the engine takes them)."""
    value = value.strip()
    return int(value) if value.isdigit() else value


def payload_from_post(data) -> dict:
    """The order payload from a POST (any keys the forms use), unchecked: the engine checks it (ON-4, ON-6)."""
    payload: dict[str, Any] = {}
    for key in ("copy", "swap_with", "take", "vote"):
        if data.get(key):
            payload[key] = _ref(data[key])
    if data.get("look"):
        payload["look"] = [_ref(v) for v in data["look"].split("+")]
    if "swap" in data:
        payload["swap"] = [_ref(v) for v in data.getlist("swap")]
    return payload


def public_votes(viewer: visibility.Viewer, phase: Phase | None) -> list[tuple[str, str]]:
    """The current day votes, public by the rules (ON-15: votes are public and changeable until the deadline; the
    module declares day orders public, so the visibility layer hands them to every viewer): ``(voter name, voted
    name)`` for each seat's latest vote."""
    if phase is None or phase.kind != "day":
        return []
    names = dict(_seat_order(viewer.game))
    latest: dict[int, Any] = {}
    for seat_id, payload in visibility.orders(viewer, phase).order_by("seat_id", "version").values_list(
            "seat_id", "payload"):
        latest[seat_id] = payload
    return [(names[str(s)], names.get(str(p["vote"]), "?")) for s, p in latest.items() if p and p.get("vote")]


def series_context(game: Game) -> dict | None:
    """ON-16: tokens of every player of the game's series (finished games with the same ``series`` option, a token
    per winning seat's user) and the champion, the first to 5 tokens."""
    series = game.options.get("series")
    if not series:
        return None
    games = (Game.objects.filter(module="onuw", status=Game.Status.FINISHED, options__series=series)
             .order_by("finished_at", "pk").prefetch_related("seats__user__profile"))
    rows = []
    names: dict[int, str] = {}
    for g in games:
        winning = set((g.outcome or {}).get("winning_seats", []))
        users = []
        for seat in g.seats.all():
            if seat.pk in winning and seat.user_id is not None:
                users.append(seat.user_id)
                names[seat.user_id] = seat.display_name
        rows.append(users)
    tokens, champion = engine.series_standings(rows)
    standings = sorted(((names[u], n) for u, n in tokens.items()), key=lambda r: (-r[1], r[0]))
    return {"name": series, "games": len(rows), "standings": standings, "goal": engine.SERIES_TOKENS,
            "champion": names.get(champion) if champion is not None else None}


def page_context(*, game: Game, viewer: visibility.Viewer) -> dict:
    """What ``onuw/game.html`` shows ``viewer``: the roles in play (public), his own card and what he learned (his
    seat's log lines, through the visibility layer), the form of his open phase, the day's votes, the series."""
    phase = _open_phase(game)
    state = visibility.game_state(viewer)
    ctx: dict[str, Any] = {
        "roles": [role_name(r) for r in state.get("roles", [])],
        "votes": public_votes(viewer, phase),
        "series": series_context(game),
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
        choice = order_choice(game, viewer, phase)
        if choice:
            current = (visibility.orders(viewer, phase).filter(seat=viewer.seat).order_by("-version").first())
            ctx["choice"] = choice
            ctx["phase_id"] = phase.pk
            ctx["version"] = current.version if current else 0
            ctx["form"] = ChoiceForm(choice=choice, seats=_seat_order(game), own=str(viewer.seat.pk),
                                     initial_payload=current.payload if current else None)
            ctx["current_order"] = current.payload if current and current.payload else None
            if ctx["current_order"]:
                ctx["current_lines"] = game.game_module.order_lines(
                    payload=current.payload, seat_data=viewer.seat.data,
                    seat_names={int(sid): name for sid, name in _seat_order(game)})
    if state.get("cards"):  # only in the full state: the master's, and everyone's after the game
        names = dict(_seat_order(game))
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
            ctx["my_result"] = end_result(state, str(viewer.seat.pk))
    return ctx


def end_result(state: dict, sid: str) -> dict:
    """A seat's end of the game in words, by the card in front of it at the end of the night (ON-5): ``won``
    (ON-9–ON-12), ``cards`` ("dealt Werewolf → ended Robber") and ``team`` (of the final card). ``state`` is the
    full state of a finished game; ``sid`` a seat id string."""
    card = state["cards"][sid]
    final_as = engine.effective(card, state)
    return {"won": sid in set(state.get("winners") or []),
            "cards": dealt_and_final(state["dealt"][sid], state.get("copy"), card, final_as),
            "team": str(TEAM_NAMES[engine.team(final_as)])}


@require_POST
@login_required
def order(request, pk: int):
    """POST the viewer's order for the phase the form names (hidden ``phase``, and ``version``: the order version it
    edits) — doppelganger copy, night action or day vote: the raw values go to ``services.order_submit``; a refused
    order shows the engine's reasons (or, for a phase that has ended, the core's ``stale`` message naming both
    phases) and nothing is saved."""
    game = visibility.game_or_404(request.user, pk, module="onuw")
    try:
        # The phase the form was made for (hidden ``phase``): a night form posted once the day is open saves nothing.
        phase = services.phase_named(game=game, phase_id=request.POST.get("phase"))
        base_version = posted_version(request.POST)
        if request.POST.get("withdraw"):
            services.order_withdraw(phase=phase, user=request.user, base_version=base_version)
            messages.success(request, _("Your order was withdrawn."))
        else:
            services.order_submit(phase=phase, user=request.user, payload=payload_from_post(request.POST),
                                  base_version=base_version)
            messages.success(request, _("Your order is saved. You can change it until the deadline."))
    except ServiceError as exc:
        for msgs in exc.errors.values():
            for msg in msgs:
                messages.error(request, msg)
    return HttpResponseRedirect(game.get_absolute_url())
