"""The engine's events in the core's terms: :class:`~.state.Ev` (addressed ``public``, ``master``, a seat or a
group) become :class:`gm.core.engine.Event` with the display names of the seats they name, and each seat's own
results are kept in its seat data (BV-14.6). Pure."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gm.core.engine import Event, SeatInfo

from .state import Ev

SEAT_KEYS = ("seat", "target", "attacker", "caught", "victim", "bride")
LIST_KEYS = ("seats", "targets", "no_vote", "vengeance", "yes", "drowned", "winners", "protected", "blocked")
DICT_KEYS = ("cards", "totals", "scores", "points")


def seat_order(seats: Iterable[SeatInfo]) -> list[str]:
    """Seat ids (strings) in ring order."""
    return [str(s.id) for s in sorted(seats, key=lambda s: s.position)]


def seat_refs(data: Mapping[str, Any]) -> set[str]:
    """Seat ids (strings) an event's data names, so the event carries their display names for rendering."""
    refs: set[str] = set()
    for key in SEAT_KEYS:
        if data.get(key) is not None:
            refs.add(str(data[key]))
    for key in LIST_KEYS:
        refs.update(str(v) for v in data.get(key) or [])
    for key in DICT_KEYS:
        refs.update(str(k) for k in (data.get(key) or {}))
    for pair in data.get("votes") or []:
        refs.update(str(v) for v in pair)
    return refs


def core_events(evs: Iterable[Ev], names: Mapping[str, str]) -> list[Event]:
    """The core's events for ``evs``; ``names`` maps seat ids (strings) to display names."""
    out = []
    for ev in evs:
        data = {**ev.data, "names": {k: names[k] for k in sorted(seat_refs(ev.data)) if k in names}}
        if ev.to == "public":
            out.append(Event(ev.kind, data))
        elif ev.to == "master":
            out.append(Event(ev.kind, data, visibility="master"))
        elif ev.to.startswith("group:"):
            out.append(Event(ev.kind, data, visibility="group", group=ev.to.removeprefix("group:")))
        else:
            out.append(Event(ev.kind, data, visibility="seat", seat=int(ev.to)))
    return out


def learned(events: Sequence[Event]) -> dict[int, list[dict]]:
    """Seat id → the results that seat received in ``events`` (its own ``seat`` events but its card)."""
    out: dict[int, list[dict]] = {}
    for ev in events:
        if ev.visibility == "seat" and ev.seat is not None and ev.kind != "bv.your_card":
            out.setdefault(int(ev.seat), []).append({"kind": ev.kind, "data": dict(ev.data)})
    return out
