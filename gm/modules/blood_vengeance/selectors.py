"""The reads of One Night Ultimate Werewolf: the open phase and what the viewer chooses in it (ON-4, ON-6, ON-14),
the public day votes (ON-15), the tournament series standings (ON-16), a seat's end of the game (ON-5) and what the
dashboard asks of a player, and the caller's order options for bots and clients
(``GET /api/games/<id>/order-options/``: every legal order of his seat in the open phase as a whole payload, in the
core's shape ``phase``, ``kind``, ``can_order``, ``why_not``, ``targets``, ``choices``).

Everything secret is read through ``gm.core.visibility`` (the viewer's own seat and log lines, the orders he may
see); the choices come from the pure engine.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from django.utils.translation import gettext as _

from gm.core import visibility
from gm.core.dashboard import ACT, DONE, IDLE, Need
from gm.core.models import Game, Phase
from gm.core.services import ServiceError

from . import engine
from .texts import NEED_NOTHING, NEED_VOTE, NEED_VOTED, TEAM_NAMES, dealt_and_final


def open_phase(game: Game) -> Phase | None:
    """The game's phase not yet resolved (open or scheduled), or ``None``."""
    return game.phases.exclude(status=Phase.Status.RESOLVED).first()


def seat_order(game: Game) -> list[tuple[str, str]]:
    """``(seat id string, display name)`` of every seat in ring order."""
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
        return engine.night_choice(state, sid, [s for s, _n in seat_order(game)])
    return "vote" if phase.kind == "day" else None


def public_votes(viewer: visibility.Viewer, phase: Phase | None) -> list[tuple[str, str]]:
    """The current day votes, public by the rules (ON-15: votes are public and changeable until the deadline; the
    module declares day orders public, so the visibility layer hands them to every viewer): ``(voter name, voted
    name)`` for each seat's latest vote."""
    if phase is None or phase.kind != "day":
        return []
    names = dict(seat_order(viewer.game))
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


def end_result(state: dict, sid: str) -> dict:
    """A seat's end of the game in words, by the card in front of it at the end of the night (ON-5): ``won``
    (ON-9–ON-12), ``cards`` ("dealt Werewolf → ended Robber") and ``team`` (of the final card). ``state`` is the
    full state of a finished game; ``sid`` a seat id string."""
    card = state["cards"][sid]
    final_as = engine.effective(card, state)
    return {"won": sid in set(state.get("winners") or []),
            "cards": dealt_and_final(state["dealt"][sid], state.get("copy"), card, final_as),
            "team": str(TEAM_NAMES[engine.team(final_as)])}


def player_needs(*, game: Game, phase: Phase, seat, payload) -> list[Need] | None:
    """ON-4: a night asks an order only of a seat whose card chooses something (the others just wake or sleep);
    the day (ON-6) asks everyone's vote. ``None``: the core's default."""
    label = phase.label
    if phase.kind == "day":
        if payload is None:
            return [Need(NEED_VOTE % {"phase": label}, ACT, phase.deadline)]
        return [Need(NEED_VOTED % {"phase": label}, DONE, phase.deadline)]
    if phase.kind == "night" and engine.night_choice(game.state or {}, str(seat.pk),
                                                     list((game.state or {}).get("dealt") or [])) is None:
        return [Need(NEED_NOTHING % {"phase": label}, IDLE, phase.deadline)]
    return None


def _center(ref: str) -> str:
    return ref.removeprefix("center")


def order_options(*, game: Game, viewer) -> dict:
    """The caller's legal orders now. Raises :class:`ServiceError` ``forbidden`` (no seat), ``not_allowed`` (a
    dead seat) or ``state`` (no phase open for orders)."""
    if viewer.seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    if not viewer.seat.alive:
        raise ServiceError(_("Dead players give no orders."), code="not_allowed")
    phase = game.phases.filter(status=Phase.Status.OPEN).first() if not game.is_over else None
    if phase is None:
        raise ServiceError(_("No phase is open for orders now."), code="state")
    seats = list(game.seats.order_by("position"))
    order = [str(s.pk) for s in seats]
    sid = str(viewer.seat.pk)
    names = {str(s.pk): s.display_name for s in seats}
    others = [s for s in seats if str(s.pk) != sid]
    state = game.state
    choices: list[dict] = []

    def add(key: str, label: str, payload: dict) -> None:
        choices.append({"key": key, "label": label, "payload": payload})

    if phase.kind == "doppelganger" and state["dealt"].get(sid) == "doppelganger":
        for s in others:
            add(f"copy:{s.pk}", _("Copy %(name)s") % {"name": s.display_name}, {"copy": s.pk})
    elif phase.kind == "night":
        choice = engine.night_choice(state, sid, order)
        if choice == "lone_wolf":
            for c in engine.CENTER:
                add(f"look:{c}", _("Look at center card %(n)s") % {"n": _center(c)}, {"look": [c]})
        elif choice == "seer":
            for s in others:
                add(f"look:{s.pk}", _("Look at the card of %(name)s") % {"name": s.display_name}, {"look": [s.pk]})
            for a, b in combinations(engine.CENTER, 2):
                add(f"look:{a}+{b}", _("Look at center cards %(a)s and %(b)s") % {"a": _center(a), "b": _center(b)},
                    {"look": [a, b]})
        elif choice == "robber":
            for s in others:
                add(f"swap_with:{s.pk}", _("Swap your card with %(name)s") % {"name": s.display_name},
                    {"swap_with": s.pk})
        elif choice == "troublemaker":
            for a, b in combinations(others, 2):
                add(f"swap:{a.pk}+{b.pk}", _("Swap %(a)s and %(b)s") % {"a": a.display_name, "b": b.display_name},
                    {"swap": [a.pk, b.pk]})
        elif choice == "drunk":
            for c in engine.CENTER:
                add(f"take:{c}", _("Take center card %(n)s") % {"n": _center(c)}, {"take": c})
    elif phase.kind == "day":
        for s in others:
            add(f"vote:{s.pk}", _("Vote for %(name)s") % {"name": s.display_name}, {"vote": s.pk})
    return {
        "phase": phase.pk,
        "kind": phase.kind,
        "can_order": bool(choices),
        "why_not": "" if choices else _("Nothing to choose in this phase."),
        "targets": [{"id": s.pk, "name": names[str(s.pk)]} for s in others],
        "choices": choices,
    }
