"""The reads of Mafia: Blood Vengeance: the default role table (``data/roles.yaml``, BV-13.1), the open phase and
what the viewer may order in it — only legal choices, each checked by the pure engine (BV-5, BV-13, BV-16) —, the
set-up summary players read at signup (BV-2), the series table (BV-12.3), what the dashboard asks of a player, and
the caller's order options for bots and clients (``GET /api/games/<id>/order-options/``).

Everything secret is read through ``gm.core.visibility`` (the viewer's own seat, his orders, the state he may see).
"""
from __future__ import annotations

import random
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import yaml
from django.utils.translation import gettext as _

from gm.core import visibility
from gm.core.dashboard import ACT, DONE, IDLE, Need
from gm.core.engine import PhaseInfo
from gm.core.models import Game, Phase
from gm.core.services import ServiceError, violation_errors

from . import engine
from .models import HuntersPost
from .texts import (
    NEED_ACT,
    NEED_ACTED,
    NEED_NOTHING,
    NEED_VOTE,
    NEED_VOTED,
    departure_text,
    role_name,
    summary_text,
    thread_closed_text,
)

SLUG = "blood_vengeance"
#: The hunters' group (BV-4.1), whose members share the hunters' room (BV-14.2).
HUNTERS = "faction:hunters"
DATA = Path(__file__).resolve().parent / "data"


@cache
def default_table() -> dict:
    """The default role table (slug → row) as ``data/roles.yaml`` holds it; the engine checks and snapshots it
    into each game at the start (BV-13.1)."""
    return yaml.safe_load((DATA / "roles.yaml").read_text(encoding="utf-8"))


def open_phase(game: Game) -> Phase | None:
    """The game's phase not yet resolved (open or scheduled), or ``None``."""
    return game.phases.exclude(status=Phase.Status.RESOLVED).first()


def seat_order(game: Game) -> list[tuple[str, str]]:
    """``(seat id string, display name)`` of every seat in ring order."""
    return [(str(s.pk), s.display_name) for s in game.seats.order_by("position")]


def _accepted(state: dict, kind: str, sid: str, payload: dict) -> bool:
    try:
        engine.validate_order(state, kind=kind, sid=sid, payload=payload)
    except engine.BvError:
        return False
    return True


def legal_choices(state: dict, kind: str, sid: str) -> dict[str, list[dict]]:
    """Every legal order of seat ``sid`` in a phase of ``kind``, grouped: ``vote`` (night, defence, arbiter; a
    single payload each), ``verdict``, ``elect``, ``heir``, ``delegate``, ``black``/``red`` (flowers), and for
    the light one group per ability (its card slug, and ``hunters``), each a list of action payloads. Every
    choice is one the engine accepts (BV-16); the revenant's triples are limited to 30."""
    out: dict[str, list[dict]] = {}
    if not engine.is_alive(state, sid):
        return out
    others = [s for s in engine.living(state) if s != sid]
    if kind == "light":
        card = state["cards"][sid]
        roles = ([card] if engine.acts(state["table"][card]) else []) + (
            [engine.GATHERING] if sid in engine.gathering_members(state) else [])
        for role in roles:
            actions: list[dict] = []
            row = state["table"].get(role, {})
            count = int(row.get("targets", 1)) if role != engine.GATHERING else 1
            pool = engine.living(state)
            groups = [list(c) for c in combinations(pool, min(count, len(others)))][:30] if count > 1 \
                else [[t] for t in pool]
            for targets in groups:
                action: dict[str, Any] = {"role": role, "targets": [int(t) for t in targets]}
                for mode in (row.get("modes") or [None]) if row.get("effect") == "lamia" else [None]:
                    a = dict(action, mode=mode) if mode else dict(action)
                    if _accepted(state, kind, sid, {"actions": [a]}):
                        actions.append(a)
            for extra in ({"role": role, "abstain": True}, {"role": role, "mode": "ambush"}):
                if _accepted(state, kind, sid, {"actions": [extra]}):
                    actions.append(extra)
            if actions:
                out[role] = actions
        return out
    if kind == "verdict":
        if _accepted(state, kind, sid, {"verdict": "yes"}):
            out["verdict"] = [{"verdict": "yes"}, {"verdict": "no"}]
        return out
    festival = kind == "night" and engine.variant_on(state, "festival_panic")
    for key in ("vote", "black", "red", "elect", "heir", "delegate"):
        found = []
        for t in others + ([sid] if key == "elect" else []):
            payload = {key: [int(t)] if festival and key == "vote" else int(t)}
            if _accepted(state, kind, sid, payload):
                found.append(payload)
        if found:
            out[key] = found
    return out


def _state(game: Game) -> dict:
    """The full game state, for the engine's legality checks only: what the seat may choose is computed from it, and
    only the choices (names of living players) reach the viewer."""
    return game.state or {}


def viewer_choices(game: Game, viewer: visibility.Viewer, phase: Phase | None) -> dict[str, list[dict]]:
    """The viewer's legal orders in the open ``phase`` (see :func:`legal_choices`); empty without a living seat."""
    if phase is None or phase.status != Phase.Status.OPEN or viewer.seat is None or not viewer.seat.alive:
        return {}
    return legal_choices(_state(game), phase.kind, str(viewer.seat.pk))


def current_order(viewer: visibility.Viewer, phase: Phase | None):
    """The viewer's latest order version in ``phase`` (through the visibility layer), or ``None``."""
    if phase is None or viewer.seat is None:
        return None
    return visibility.orders(viewer, phase).filter(seat=viewer.seat).order_by("-version").first()


def setup_cards(game: Game) -> list[str] | None:
    """The role set a game in signup will deal, when it is known before the seats are: the master's ``roles``, a
    fixed ``deal``, or a preset at its own size (an unpicked "A or B" does not change the counts, BV-3.2)."""
    return options_cards(game.options or {})


def setup_check(options: dict) -> dict:
    """BV-2 / issue 21: the live check of a set-up the master is building on the "new game" page (``options`` as
    the options form gives them): ``errors`` (every option fault, and BV-2.4's hard limits on the role set when it
    is known: at most one lord, none of a special card twice, 6–39 players…, each with its rule ID), ``warnings``
    (departures from BV-2.1–BV-2.3, allowed), ``summary`` (what players will read at signup), ``known`` (whether
    the set is known before the seats are: a role list, a deal, a preset at its own size)."""
    out: dict[str, Any] = {"errors": [], "warnings": [], "summary": "", "known": False}
    table = default_table()
    try:
        clean = engine.validate_options(options, table=table)
    except engine.BvError as exc:
        out["errors"] = _messages(exc)
        return out
    cards = options_cards(clean)
    if not cards:
        return out
    out["known"] = True
    normal = engine.normalise_table(table)
    try:
        engine.check_counts(cards, normal, options=clean)
    except engine.BvError as exc:
        out["errors"] = _messages(exc)
    if any(c not in normal for c in cards):
        return out
    out["warnings"] = [departure_text(w) for w in engine.departures(cards, normal, options=clean)]
    out["summary"] = summary_text(engine.summary(cards, normal))
    return out


def _messages(exc: engine.BvError) -> list[str]:
    return [m for msgs in violation_errors(engine.violation(exc)).values() for m in msgs]


def options_cards(options: dict) -> list[str] | None:
    """The role set validated ``options`` deal when it is known before the seats are (see :func:`setup_cards`)."""
    cards = options.get("roles") or options.get("deal")
    if cards:
        return list(cards)
    preset = options.get("preset")
    if preset and preset in engine.PRESETS and engine.PRESETS[preset][0]:
        table = engine.normalise_table(default_table())
        try:
            return engine.build_cards(options, engine.PRESETS[preset][0], table, random.Random(0))
        except engine.BvError:
            return None
    return None


def setup_summary(game: Game) -> str:
    """BV-2 / issue 21: the readable set-up summary players see at signup (counts by side, never a deal's order)."""
    cards = setup_cards(game)
    if not cards:
        return ""
    return summary_text(engine.summary(cards, engine.normalise_table(default_table())))


def setup_warnings(game: Game) -> list[str]:
    """BV-2.4: the set-up's departures from BV-2.1–BV-2.3, in words, for the master's set-up page."""
    cards = setup_cards(game)
    if not cards:
        return []
    table = engine.normalise_table(default_table())
    return [departure_text(w) for w in engine.departures(cards, table, options=game.options or {})]


def roles_in_play(game: Game, viewer: visibility.Viewer) -> list[str]:
    """The public list of the roles in play (BV-2.7), from the set-up's public log line."""
    entry = visibility.log_entries(viewer).filter(kind="bv.roles_in_play").first()
    if entry is None:
        return []
    if "counts" in entry.data:
        return [summary_text(entry.data["counts"])]
    return [role_name(r) for r in entry.data.get("roles", [])]


def previous_series_game(game: Game) -> Game | None:
    """BV-12.3, BV-15.12: the game of ``game``'s series (same ``series`` option) that finished last before ``game``
    started (or before now, when it has not), other than ``game``; ``None`` outside a series or for its first game."""
    series = (game.options or {}).get("series")
    if not series:
        return None
    games = Game.objects.filter(module=SLUG, status=Game.Status.FINISHED, options__series=series).exclude(pk=game.pk)
    if game.started_at is not None:
        games = games.filter(finished_at__lte=game.started_at)
    return games.order_by("-finished_at", "-pk").first()


def series_silenced(game: Game) -> list[tuple[int, str]]:
    """BV-15.12: ``(user id, display name)`` of the players silenced when the previous game of ``game``'s series
    ended (:func:`previous_series_game`), in its ring order: they start ``game`` silenced."""
    previous = previous_series_game(game)
    if previous is None:
        return []
    silenced = set((previous.state or {}).get("silenced") or [])
    return [(s.user_id, s.display_name) for s in previous.seats.order_by("position")
            if str(s.pk) in silenced and s.user_id is not None]


def enchantable_seats(game: Game) -> list[tuple[str, str]]:
    """BV-15.12: ``(seat id string, display name)`` of the players the master may silence now (``engine.enchantable``:
    the living not yet silenced, and in a series the dead too); empty without the variant."""
    state = game.state or {}
    if not state.get("options"):
        return []
    allowed = set(engine.enchantable(state))
    return [(pk, name) for pk, name in seat_order(game) if pk in allowed]


def series_context(game: Game) -> dict | None:
    """BV-12.3: the points of every player of the game's series (finished games with the same ``series`` option), and
    who starts the series' next game silenced (BV-15.12: silenced at the end of its last finished game)."""
    series = (game.options or {}).get("series")
    if not series:
        return None
    games = (Game.objects.filter(module=SLUG, status=Game.Status.FINISHED, options__series=series)
             .order_by("finished_at", "pk").prefetch_related("seats__user"))
    per_game = []
    names: dict[int, str] = {}
    for g in games:
        pts = (g.state or {}).get("points") or {}
        row = {}
        for seat in g.seats.all():
            if seat.user_id is not None:
                row[seat.user_id] = int(pts.get(str(seat.pk), 0))
                names[seat.user_id] = seat.display_name
        per_game.append(row)
    totals = engine.series_table(per_game)
    standings = sorted(((names[u], n) for u, n in totals.items() if isinstance(u, int)), key=lambda r: (-r[1], r[0]))
    silenced: list[str] = []
    if games:
        last = list(games)[-1]
        marked = set((last.state or {}).get("silenced") or [])
        silenced = [s.display_name for s in sorted(last.seats.all(), key=lambda s: s.position) if str(s.pk) in marked]
    return {"name": series, "games": len(per_game), "standings": standings, "silenced": silenced}


def player_needs(*, game: Game, phase: Phase, seat, payload) -> list[Need] | None:
    """BV-5 / BV-14.2: a night round asks a vote of every player with one; the light asks an order only of a
    card with a light ability or a gathering vote (ordinary vampires get no reminder)."""
    label = phase.label
    state = game.state or {}
    sid = str(seat.pk)
    if phase.kind == "light":
        card = (state.get("cards") or {}).get(sid)
        if card is None or not (engine.acts(state["table"][card]) or sid in engine.gathering_members(state)):
            return [Need(NEED_NOTHING % {"phase": label}, IDLE, phase.deadline)]
        if payload is None:
            return [Need(NEED_ACT % {"phase": label}, ACT, phase.deadline)]
        return [Need(NEED_ACTED % {"phase": label}, DONE, phase.deadline)]
    if phase.kind == "arbiter" and sid != str(state.get("arbiter")):
        return [Need(NEED_NOTHING % {"phase": label}, IDLE, phase.deadline)]
    if payload is None:
        return [Need(NEED_VOTE % {"phase": label}, ACT, phase.deadline)]
    return [Need(NEED_VOTED % {"phase": label}, DONE, phase.deadline)]


def choice_label(key: str, payload: dict, names: dict[str, str]) -> str:
    def n(v) -> str:
        return names.get(str(v), str(v))

    if "actions" in payload:
        a = payload["actions"][0]
        if a.get("abstain"):
            return _("%(role)s: abstain") % {"role": role_name(a["role"])}
        if a.get("mode") == "ambush":
            return _("%(role)s: ambush") % {"role": role_name(a["role"])}
        mode = f" ({a['mode']})" if a.get("mode") else ""
        return f"{role_name(a['role'])}{mode}: " + ", ".join(n(t) for t in a.get("targets") or [])
    value = payload[key]
    if key == "verdict":
        return _("Verdict: %(answer)s") % {"answer": value}
    if isinstance(value, list):
        return _("Execute %(names)s") % {"names": ", ".join(n(v) for v in value)}
    return f"{key}: {n(value)}"


def order_options(*, game: Game, viewer) -> dict:
    """The caller's legal orders now, in the core's shape (``phase``, ``kind``, ``can_order``, ``why_not``,
    ``targets``, ``choices``) plus ``groups`` (choice keys by group: ``vote``, a light ability…; a light order
    combines at most one choice of each group). Raises :class:`ServiceError` ``forbidden`` (no seat),
    ``not_allowed`` (a dead seat) or ``state`` (no phase open for orders)."""
    if viewer.seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    if not viewer.seat.alive:
        raise ServiceError(_("Dead players give no orders."), code="not_allowed")
    phase = game.phases.filter(status=Phase.Status.OPEN).first() if not game.is_over else None
    if phase is None:
        raise ServiceError(_("No phase is open for orders now."), code="state")
    names = dict(seat_order(game))
    grouped = legal_choices(_state(game), phase.kind, str(viewer.seat.pk))
    choices = []
    groups: dict[str, list[str]] = {}
    for group, payloads in grouped.items():
        for i, p in enumerate(payloads):
            payload = {"actions": [p]} if phase.kind == "light" else p
            key = f"{group}:{i}"
            choices.append({"key": key, "label": choice_label(group, payload, names), "payload": payload})
            groups.setdefault(group, []).append(key)
    sid = str(viewer.seat.pk)
    targets = [{"id": int(s), "name": names[s]} for s in engine.living(_state(game)) if s != sid] \
        if game.state else []
    return {
        "phase": phase.pk, "kind": phase.kind, "can_order": bool(choices),
        "why_not": "" if choices else _("Nothing to choose in this phase."),
        "targets": targets, "choices": choices, "groups": groups,
    }


def hunters_room(viewer: visibility.Viewer) -> dict | None:
    """BV-4.1, BV-14.2: the hunters' room as ``viewer`` sees it, or ``None`` when he may not read it (only the members
    of the hunters' group, the master, and everyone after the game: ``visibility.group_members``; no room without the
    group, e.g. under lone hunters). ``members`` (names), ``posts`` (``author``, ``body`` plain text, ``created_at``,
    ``phase`` label), ``may_post`` and ``closed`` (why he may not write now, with the rule ID; ``""`` for the master
    and readers who are not members)."""
    members = visibility.group_members(viewer, HUNTERS)
    if not members:
        return None
    game = viewer.game
    rows = (HuntersPost.objects.filter(game=game).select_related("seat", "phase").order_by("created_at", "pk"))
    module = game.game_module
    posts = [{"author": p.seat.display_name if p.seat is not None else "—", "body": p.body, "created_at": p.created_at,
              "phase": module.phase_label(p.phase.kind, p.phase.number) if p.phase is not None else ""}
             for p in rows]
    closed = ""
    mine = viewer.seat is not None and any(s.pk == viewer.seat.pk for s in members)
    if mine and game.status == Game.Status.RUNNING:
        phase = open_phase(game)
        info = (PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
                if phase is not None and phase.status == Phase.Status.OPEN else None)
        closed = thread_closed_text(engine.hunters_room_closed(game.state or {}, phase=info,
                                                               sid=str(viewer.seat.pk)))
    return {"members": [s.display_name for s in members], "posts": posts,
            "may_post": mine and game.status == Game.Status.RUNNING and not closed, "closed": closed}
