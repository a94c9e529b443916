"""The engine's events in the core's terms: :class:`~.state.Ev` (addressed ``public``, ``master`` or a seat) become
:class:`gm.core.engine.Event` with the display names of the seats they name, and each seat's own events are kept in
its seat data as what it learned (ON-13). Pure."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gm.core.engine import Event, SeatInfo

from .state import Ev


def seat_order(seats: Iterable[SeatInfo]) -> list[str]:
    """Seat ids (strings) in ring order."""
    return [str(s.id) for s in sorted(seats, key=lambda s: s.position)]


def seat_refs(data: Mapping[str, Any]) -> set[str]:
    """Seat ids (strings) an event's data names, so the module can add their display names for rendering."""
    refs: set[str] = set()
    for key in ("seat", "target", "hunter"):
        if key in data:
            refs.add(str(data[key]))
    for value in data.get("seats", []):
        refs.add(str(value["seat"]) if isinstance(value, dict) else str(value))
    for item in data.get("seen", []):
        if "seat" in item:
            refs.add(str(item["seat"]))
    for pair in data.get("votes", []):
        refs.update(str(v) for v in pair)
    return refs


def core_events(evs: Iterable[Ev], names: Mapping[str, str]) -> list[Event]:
    """The core's events for engine events ``evs``; ``names`` maps seat ids (strings) to display names, and each
    event's data gets ``names`` for the seats it names."""
    out = []
    for ev in evs:
        data = {**ev.data, "names": {k: names[k] for k in seat_refs(ev.data) if k in names}}
        if ev.to == "public":
            out.append(Event(ev.kind, data))
        elif ev.to == "master":
            out.append(Event(ev.kind, data, visibility="master"))
        else:
            out.append(Event(ev.kind, data, visibility="seat", seat=int(ev.to)))
    return out


def learned(events: Sequence[Event]) -> dict[int, list[dict]]:
    """Seat id → what that seat learned from ``events`` (its own ``seat`` events, data with names), stored in its
    seat data so the seats table and the full reveal can tell it (ON-13)."""
    out: dict[int, list[dict]] = {}
    for ev in events:
        if ev.visibility == "seat" and ev.seat is not None and ev.kind != "onuw.your_card":  # the card is its own fact
            out.setdefault(int(ev.seat), []).append({"kind": ev.kind, "data": dict(ev.data)})
    return out


def with_learned(seats: Iterable[SeatInfo], events: Sequence[Event]) -> dict[int, dict]:
    """The seat-data changes adding what each seat learned from ``events`` to what it knew before."""
    by_id = {s.id: s for s in seats}
    return {sid: {**by_id[sid].data, "learned": [*(by_id[sid].data.get("learned") or []), *new]}
            for sid, new in learned(events).items() if sid in by_id}
