"""What the game page shows every viewer: the seats with their public (and, where allowed, secret)
facts, the living and the dead, the log grouped phase by phase, and — once the game is over — the full reveal:
every role, every order version of every phase.

Read-only selectors over :mod:`gm.core.visibility`: nothing here decides what a viewer may see; it only arranges
what the visibility layer returns.
"""
from __future__ import annotations

import hashlib
from typing import Any

from django.utils.translation import gettext as _

from . import visibility
from .models import Phase

#: Log entries shown on the game page (newest first, then grouped by phase).
LOG_LIMIT = 300


def seat_rows(viewer: visibility.Viewer, seats: list[dict]) -> list[dict]:
    """``seats`` (from :func:`visibility.seats`) with ``public_facts`` and ``secret_facts`` — ``(label, text)``
    pairs from the module's ``seat_facts``; ``secret_facts`` only where the projection holds ``private`` (its
    own player, the master, everyone after the game), else ``[]``."""
    module = viewer.game.game_module
    rows = []
    for seat in seats:
        private = seat.get("private")
        rows.append({**seat, "public_facts": module.seat_facts(seat["public"], secret=False),
                     "secret_facts": module.seat_facts(private, secret=True) if private is not None else []})
    return rows


def people(seats: list[dict]) -> dict:
    """The living and the dead, in ring order: ``{"living": [names], "dead": [names]}`` (public to everyone)."""
    return {"living": [s["display_name"] for s in seats if s["alive"]],
            "dead": [s["display_name"] for s in seats if not s["alive"]]}


def log_by_phase(viewer: visibility.Viewer, *, limit: int = LOG_LIMIT) -> list[dict]:
    """The log entries ``viewer`` may read (:func:`visibility.log_entries`; the newest ``limit``), grouped by phase:
    newest phase first, each ``{"key", "label", "entries": [(entry, text)]}`` with its entries in the order they
    were written. Entries written outside a phase (the deal before the first phase) come last, labelled "Before
    the first phase"."""
    shared = visibility.visible_log(viewer, limit)  # the game page: also read by other panels
    entries = (shared if shared is not None
               else list(visibility.log_entries(viewer).order_by("-created_at", "-id")[:limit]))
    groups: dict[int, dict] = {}
    for entry in sorted(entries, key=lambda e: (e.created_at, e.pk)):
        key = entry.phase_id or 0
        if key not in groups:
            if entry.phase is not None:
                entry.phase.game = viewer.game  # its label needs the module: don't query the game per entry
            label = entry.phase.label if entry.phase is not None else _("Before the first phase")
            groups[key] = {"key": key, "label": label, "ordinal": entry.phase.ordinal if entry.phase else -1,
                           "entries": []}
        groups[key]["entries"].append((entry, entry.text()))
    return sorted(groups.values(), key=lambda g: -g["ordinal"])


def log_cache_key(viewer: visibility.Viewer, *, limit: int = LOG_LIMIT) -> str | None:
    """The cache key of the game page's rendered log for ``viewer`` (the ``{% cache %}`` fragment of
    ``gm/_log.html``; issue 25: the log's 300 lines are worded and rendered again only when they change): a digest
    of the entries the page loaded for him (:func:`visibility.visible_log` — ids, kinds, data, times), the seats'
    names, his kind of viewer, the language and the time zone. ``None`` outside the game page's
    ``page_memo.reading`` (nothing cached then)."""
    from django.utils import timezone, translation

    from . import page_memo

    entries = visibility.visible_log(viewer, limit)
    if entries is None:
        return None
    seat = viewer.seat.pk if viewer.seat is not None else ""
    kind = f"{viewer.sees_everything}|{viewer.revealed}|{viewer.is_master}|{seat}"
    parts = [f"{viewer.game.pk}|{viewer.game.module}|{kind}",
             translation.get_language() or "", timezone.get_current_timezone_name(),
             repr(sorted(page_memo.seat_names(viewer.game).items()))]
    parts += [f"{e.pk}|{e.phase_id}|{e.kind}|{e.visibility}|{e.seat_id}|{e.group}|{e.created_at.isoformat()}|{e.data!r}"
              for e in entries]
    return "gm-log:" + hashlib.sha256("\n".join(parts).encode()).hexdigest()


def full_reveal(viewer: visibility.Viewer, seats: list[dict]) -> dict | None:
    """After the game (``viewer.revealed``), everything: ``{"seats": seat rows with their secret facts, "phases":
    [{"label", "orders": [{"seat", "versions": [{"version", "created_at", "withdrawn", "lines"}]}]}]}`` — every
    phase, newest first, with every order version of every seat, in words (the module's ``order_lines``, with
    the cards each seat held when the phase was resolved). ``None`` while the game runs."""
    if not viewer.revealed:
        return None
    game = viewer.game
    module = game.game_module
    names = {s["id"]: s["display_name"] for s in seats}
    current = {s["id"]: s.get("private") or {} for s in seats}
    phases: dict[int, dict] = {}
    for phase in Phase.objects.filter(game=game).order_by("-ordinal"):
        phase.game = game
        snapshot = {s.get("id"): s.get("data") or {} for s in (phase.state or {}).get("seats", [])}
        phases[phase.pk] = {"label": phase.label, "snapshot": snapshot, "orders": {}}
    for order in visibility.orders(viewer).order_by("phase__ordinal", "seat__position", "version"):
        entry = phases.get(order.phase_id)
        if entry is None:
            continue
        data = entry["snapshot"].get(order.seat_id) or current.get(order.seat_id) or {}
        lines = [] if order.payload is None else order_lines(module, order.payload, data, names)
        entry["orders"].setdefault(order.seat_id, {"seat": names.get(order.seat_id, "?"), "versions": []})
        entry["orders"][order.seat_id]["versions"].append({
            "version": order.version, "created_at": order.created_at, "withdrawn": order.payload is None,
            "lines": lines})
    return {
        "seats": seat_rows(viewer, seats),
        "phases": [{"label": p["label"], "orders": list(p["orders"].values())} for p in phases.values()
                   if p["orders"]],
    }


def order_lines(module: Any, payload: dict, data: dict, names: dict[int, str]) -> list[str]:
    """``module.order_lines`` for one stored order version (``data``: the ordering seat's data, ``names``: seat id →
    character name); an order the module no longer reads is shown as JSON rather than lost."""
    try:
        return module.order_lines(payload=payload, seat_data=data, seat_names=names)
    except (KeyError, TypeError, ValueError, AttributeError):
        # An order stored by an older version of the module that no longer reads it: show it raw, lose nothing.
        import json

        return [json.dumps(payload, ensure_ascii=False, sort_keys=True)]
