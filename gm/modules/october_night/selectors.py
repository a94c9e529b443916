"""The reads of October Night: the open phase, the board as a viewer may see it (OC-11.3: positions, tokens,
holdings are public; side cards, declarations, deck order and face-down tokens are not), the viewer's legal lines
with the reason others are unavailable (OC-11.5), what the dashboard asks of a player, and the caller's order options
for bots and clients (``GET /api/games/<id>/order-options/``).

Everything secret is read through ``gm.core.visibility`` (the game state as the viewer may see it, his own seat and
log lines); legality comes from the pure engine.
"""
from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.utils.translation import gettext as _

from gm.core import visibility
from gm.core.dashboard import ACT, DONE, Need
from gm.core.engine import RuleViolation
from gm.core.models import Game, Phase
from gm.core.services import ServiceError

from . import engine
from .models import DataSet
from .texts import NEED_ACTION, NEED_CONTACT, NEED_DONE, NEED_RITUAL, default_data, name, parse_data_set

__all__ = ["base_data", "board", "default_data", "legal_lines", "open_phase", "order_options", "player_needs"]

#: Parsed active data sets by digest (a set is parsed once per process, not on every sign-up page).
_PARSED: dict[str, dict] = {}
#: Set while a scenario file builds its game: the file is written against the shipped set (:func:`shipped_data`).
_SHIPPED: ContextVar[bool] = ContextVar("october_night_shipped_data", default=False)


@contextmanager
def shipped_data() -> Iterator[None]:
    """Within it, :func:`base_data` is the module's ``data/default.yaml`` whatever the site's active set: a scenario
    file (``scenario-format.md``) runs unchanged on any site."""
    token = _SHIPPED.set(True)
    try:
        yield
    finally:
        _SHIPPED.reset(token)


def base_data() -> dict:
    """OC-17: the data set a game not yet started is checked against and starts from — the active
    :class:`.models.DataSet` staff keep in the admin, else the module's ``data/default.yaml``. A fresh copy (one
    query; none inside :func:`shipped_data`)."""
    row = None if _SHIPPED.get() else DataSet.objects.filter(active=True).only("text", "digest").first()
    if row is None:
        return default_data()
    if row.digest not in _PARSED:
        _PARSED.clear()  # only the active set is read: keep one
        _PARSED[row.digest] = parse_data_set(row.text)
    return copy.deepcopy(_PARSED[row.digest])

#: The SVG map's coordinates of the default board's locations (viewBox 0 0 100 100); other locations go on a ring.
COORDS = {
    "town_square": (50, 45), "harbour": (20, 30), "station": (62, 20), "village": (78, 78), "marsh": (38, 12),
    "crossroads": (72, 40), "black_wood": (88, 22), "old_oak": (88, 55), "bald_hill": (95, 40),
    "cemetery": (25, 55), "asylum": (40, 80), "abbey": (58, 65), "mill": (78, 8), "manor": (96, 70),
}


def open_phase(game: Game) -> Phase | None:
    """The game's phase not yet resolved, or ``None``."""
    return game.phases.exclude(status=Phase.Status.RESOLVED).first()


def _coords(slugs: list[str]) -> dict[str, tuple[float, float]]:
    import math

    out = {}
    for i, slug in enumerate(slugs):
        if slug in COORDS:
            out[slug] = COORDS[slug]
        else:
            a = 2 * math.pi * i / max(1, len(slugs))
            out[slug] = (50 + 40 * math.cos(a), 50 + 40 * math.sin(a))
    return out


def board(state: dict) -> dict:
    """The board for the SVG map and the location list (OC-11.3, the public part of ``state`` as the viewer sees it):
    locations with their coordinates, kind, players and enemies; roads as pairs."""
    data = state.get("data") or {}
    locs = data.get("locations") or []
    xy = _coords([loc["slug"] for loc in locs])
    players = state.get("players") or {}
    names = state.get("names") or {}
    rows = []
    for loc in locs:
        slug = loc["slug"]
        here = [names.get(sid, sid) for sid in state.get("seats") or [] if (players.get(sid) or {}).get("location")
                == slug]
        enemies = [name(e["token"]) if e.get("token") else _("an enemy") for e in state.get("enemies") or []
                   if e.get("location") == slug]
        x, y = xy[slug]
        rows.append({"slug": slug, "name": name(slug), "kind": loc.get("kind"), "x": x, "y": y, "players": here,
                     "enemies": enemies, "ritual": slug == state.get("ritual_place")})
    roads = set()
    for loc in locs:
        for other in loc.get("adjacent") or []:
            if other in xy:
                roads.add(tuple(sorted((loc["slug"], other))))
    lines = [{"x1": xy[a][0], "y1": xy[a][1], "x2": xy[b][0], "y2": xy[b][1]} for a, b in sorted(roads)]
    return {"locations": rows, "roads": lines}


def _try(state: dict, kind: str, sid: str, payload: dict) -> str:
    """"" when the line is legal, else the reasons in words."""
    try:
        engine.validate_order(state, kind=kind, sid=sid, payload=payload)
    except RuleViolation as exc:
        return "; ".join(f"{e.render(_)} ({e.rule})" for e in exc.errors)
    return ""


def legal_lines(state: dict, sid: str, kind: str) -> list[dict]:
    """OC-11.5: every line the seat may give now, each ``{"key", "label", "payload", "why"}`` (``why`` empty when
    legal, else the engine's reasons) — the action phase's actions with their targets, the contact lines, the
    ritual's deadly fight, and the free lines (abilities, learn, use, side). ``state`` is the full state (the
    engine checks against it); only the labels are shown."""
    out: list[dict] = []
    if sid not in state.get("players", {}) or not engine.in_game(state, sid):
        return out
    me = state["players"][sid]
    names = state["names"]
    others = [s for s in state["seats"] if s != sid and engine.in_game(state, s)]

    def add(key: str, label: str, payload: dict) -> None:
        out.append({"key": key, "label": label, "payload": payload, "why": _try(state, kind, sid, payload)})

    data = state["data"]
    if kind == "action":
        add("rest", _("Rest (+1 health)"), {"action": {"kind": "rest"}})
        for s in others:
            add(f"heal:{s}", _("Heal %(name)s") % {"name": names[s]}, {"action": {"kind": "heal", "target": int(s)}})
            add(f"fight:{s}", _("Fight %(name)s") % {"name": names[s]}, {"action": {"kind": "fight", "target": int(s)}})
            add(f"ally:{s}", _("Fight as the ally of %(name)s") % {"name": names[s]},
                {"action": {"kind": "ally", "with": int(s)}})
            for card in (me["ingredients"] + me["assets"])[:1]:
                add(f"foil:{s}", _("Foil the plans of %(name)s (discard %(card)s)") % {"name": names[s],
                                                                                       "card": name(card)},
                    {"action": {"kind": "foil", "target": int(s), "discard": card}})
            # A trade's cards are chosen in the form's trade fields; its legality is checked with one card given.
            sample = (me["assets"] + me["ingredients"])[:1]
            other = state["players"][s]
            probe = {"kind": "trade", "with": int(s), "give": sample,
                     "get": [] if sample else (other["assets"] + other["ingredients"])[:1]}
            out.append({"key": f"trade:{s}", "label": _("Trade with %(name)s (choose the cards below)") % {
                "name": names[s]}, "payload": {"action": probe}, "why": _try(state, kind, sid, {"action": probe})})
        here = engine.by_slug(data, "locations").get(me["location"] or "", {})
        for to in here.get("adjacent") or []:
            add(f"travel:{to}", _("Travel to %(place)s") % {"place": name(to)},
                {"action": {"kind": "travel", "to": to}})
        for card in sorted({c for c in state.get("reserve") or [] if c}):
            add(f"buy:{card}", _("Buy %(card)s") % {"card": name(card)}, {"action": {"kind": "buy", "cards": [card]}})
    elif kind == "contact":
        add("auto", _("Contact: automatic"), {"contact": {"kind": "auto"}})
        card = me.get("contact")
        if card and card["type"] in ("search", "personal"):
            for n in (1, 2, 3):
                add(f"section:{n}", _("Section %(n)s") % {"n": n}, {"contact": {"kind": "section", "section": n}})
        for e in state.get("enemies") or []:
            # A face-down token's identity is secret (OC-11.3): ``auto`` engages it; only a revealed one is named.
            if e.get("owner") == sid and e.get("revealed"):
                add(f"enemy:{e['token']}", _("Engage %(enemy)s") % {"enemy": name(e["token"])},
                    {"contact": {"kind": "enemy", "enemy": e["token"]}})
        if state["mysteries"].get("open"):
            add("mystery", _("Work on the mystery"), {"contact": {"kind": "mystery"}})
        if card:
            add("abandon", _("Abandon the contact card"), {"contact": {"kind": "abandon"}})
    elif kind == "ritual":
        add("deadly_fight", _("Break the ritual: the deadly fight"), {"deadly_fight": True})
    if kind in ("action", "contact"):
        abilities = engine.by_slug(data, "abilities")
        here_now = [s for s in others if state["players"][s]["location"] == me["location"]]
        for a in me["abilities"]:
            effect = abilities.get(a, {}).get("effect") or {}
            # One line per target on his location and per ingredient he may pay with (OC-14.3).
            targets: list[str | None] = [None]
            if effect.get("target") == "other" or "insight" in effect:
                targets = list(here_now) or [others[0]] if others else []
            elif effect.get("target") == "self_or_other":
                targets = [None] + here_now
            pays: list[str | None] = [None]
            if (abilities.get(a, {}).get("cost") or {}).get("ingredient"):
                pays = list(dict.fromkeys(me["ingredients"])) or [None]
            for target in targets:
                for pay in pays:
                    line: dict[str, Any] = {"ability": a}
                    label = _("Use the ability %(ability)s") % {"ability": name(a)}
                    if target is not None:
                        line["target"] = int(target)
                        label += f" → {names[target]}"
                    if pay is not None:
                        line["pay"] = pay
                        label += f" ({name(pay)})"
                    key = ":".join(str(x) for x in ("ability", a, target or "", pay or ""))
                    add(key.rstrip(":"), label, {"abilities": [line]})
        sheet = engine.by_slug(data, "characters").get(me["character"], {})
        for a in sheet.get("abilities") or []:
            if a not in me["abilities"]:
                add(f"learn:{a}", _("Learn %(ability)s (4 experience)") % {"ability": name(a)}, {"learn": a})
        for card in me["assets"] + me["ingredients"]:
            add(f"use:{card}", _("Use %(card)s") % {"card": name(card)}, {"use": [card]})
        if state["sides"].get(sid) == "chosen":
            for side in engine.SIDES:
                add(f"side:{side}", _("Declare for the %(side)s") % {"side": side}, {"side": side})
    return out


def trade_cards(state: dict, sid: str) -> dict:
    """OC-4.5: the cards a trade may name — his own (``own``), those of the players on his location (``theirs``) —
    and the players who may propose one to him (``partners``: ``(seat id, name)`` on his location). All public."""
    me = state["players"][sid]
    here = [s for s in state["seats"] if s != sid and engine.in_game(state, s)
            and state["players"][s]["location"] == me["location"]]
    theirs: list[str] = []
    for s in here:
        for card in state["players"][s]["assets"] + state["players"][s]["ingredients"]:
            if card not in theirs:
                theirs.append(card)
    own: list[str] = []
    for card in me["assets"] + me["ingredients"]:
        if card not in own:
            own.append(card)
    return {"own": own, "theirs": theirs, "partners": [(s, state["names"][s]) for s in here]}


def player_needs(*, game: Game, phase: Phase, seat, payload) -> list[Need] | None:
    """What the open phase asks of a player: his action, his contact (played automatically without one) or the
    ritual."""
    label = phase.label
    if payload is not None:
        return [Need(NEED_DONE % {"phase": label}, DONE, phase.deadline)]
    text = {"action": NEED_ACTION, "contact": NEED_CONTACT, "ritual": NEED_RITUAL}.get(phase.kind, NEED_ACTION)
    return [Need(text % {"phase": label}, ACT, phase.deadline)]


def order_options(*, game: Game, viewer) -> dict:
    """The caller's legal orders now, in the core's shape (``phase``, ``kind``, ``can_order``, ``why_not``,
    ``targets``, ``choices``): every legal line as a whole payload. Raises :class:`ServiceError` ``forbidden`` (no
    seat), ``not_allowed`` (out of the game) or ``state`` (no phase open)."""
    if viewer.seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    if not viewer.seat.alive:
        raise ServiceError(_("Players out of the game give no orders."), code="not_allowed")
    phase = game.phases.filter(status=Phase.Status.OPEN).first() if not game.is_over else None
    if phase is None:
        raise ServiceError(_("No phase is open for orders now."), code="state")
    state = game.state
    sid = str(viewer.seat.pk)
    lines = [line for line in legal_lines(state, sid, phase.kind) if not line["why"]]
    others = [s for s in state["seats"] if s != sid and engine.in_game(state, s)]
    return {
        "phase": phase.pk, "kind": phase.kind, "can_order": bool(lines),
        "why_not": "" if lines else _("Nothing to choose in this phase."),
        "targets": [{"id": int(s), "name": state["names"][s]} for s in others],
        "choices": [{"key": line["key"], "label": line["label"], "payload": line["payload"]} for line in lines],
    }


def viewer_state(viewer: visibility.Viewer) -> dict:
    """The game state as ``viewer`` may see it (OC-11.3), through the visibility layer."""
    return visibility.game_state(viewer)


def sheet_claims(game: Game) -> list[dict]:
    """OC-2.1 at sign-up: every character sheet of the game's data set with who holds it — ``slug``, ``name``,
    ``holder`` (the display name of the seat that claimed it or the master assigned it, ``""`` when free). Sheets
    and claims are public (a character is public, OC-11.3)."""
    data = engine.game_data(game.options or {}, base_data())
    seats = list(game.seats.order_by("position"))
    assigned = list((game.options or {}).get("characters") or [])
    held: dict[str, str] = {}
    for i, seat in enumerate(seats):
        slug = assigned[i] if i < len(assigned) and assigned[i] else (seat.data or {}).get("claim")
        if slug:
            held.setdefault(slug, seat.display_name)
    return [{"slug": c["slug"], "name": name(c["slug"]), "holder": held.get(c["slug"], "")}
            for c in data["characters"]]
