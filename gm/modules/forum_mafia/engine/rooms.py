"""Chat rooms of forum Mafia (FM-9.3, FM-8 ``manager``/``conspirator``/``avenger``), pure (functional core).

A room proposal is part of a character's day order (``payload["rooms"]``: a list of ``{"members": [seat id, …],
"conspiracy": bool}``, the proposer among the members); the shell fills it from the comment field of his day posts,
so proposals change with the order until the deadline and resolve with the day, exactly once. At the end of the day
(L8) :func:`form_rooms` creates:

* a room for each set of **three** characters who all proposed exactly that set (FM-9.3); sets of **two or four**
  when a ``manager`` is among them (FM-8); each character joins at most one such room per day — sets are taken in
  ring order of their members, and a set with someone already placed is skipped **[house]**;
* the ``conspirator``'s room (once per game, any size ≥ 2): created with the living characters he names, without
  their agreement **[house: "may create" is his alone]**; it lasts to the end of the game and does not count as his
  one room of the day.

Rooms live through the following night and then close (read-only): ``state["fm"]["rooms"][slug] = {"members",
"until": last phase ordinal it is open in, or null for the conspirator's}``; members become the group ``slug``
(``room:<day>-<n>``), so the room's log entries and posts reach them and the master only. The living and a dead
``avenger`` (FM-8: he talks in old and new rooms) can be members; the dead avenger gives no orders, so he joins a new
room when all its living members proposed it **[house]**.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import PhaseInfo, SeatInfo


def _(s: str) -> str:
    return s


REASONS: dict[str, tuple[str, str]] = {
    "room_by_night": ("FM-9.3", _("Chat rooms are agreed by day.")),
    "room_members": ("FM-9.3", _("A room lists living characters, you among them, each once.")),
    "room_size": ("FM-9.3", _("A room has three members (two to four with a manager).")),
    "room_conspiracy": ("FM-8", _("Only the conspirator creates a room of any size, once per game.")),
}


def _public(seat: SeatInfo) -> Any:
    return seat.data.get("public_role")


def can_be_member(seat: SeatInfo) -> bool:
    """The living, and a dead ``avenger`` (FM-8)."""
    return seat.alive or _public(seat) == "avenger"


def check_rooms(raw: Any, *, phase: PhaseInfo, seat: SeatInfo, by_id: Mapping[int, SeatInfo],
                fm: Mapping[str, Any]) -> tuple[list[dict], tuple[str, str, dict] | None]:
    """The normalised proposals of ``seat``'s order, or the first problem ``(code, field, params)``."""
    if phase.kind != "day":
        return [], ("room_by_night", "rooms", {})
    if not isinstance(raw, list) or len(raw) > 4:
        return [], ("room_members", "rooms", {})
    clean = []
    for item in raw:
        members = item.get("members") if isinstance(item, Mapping) else None
        if not isinstance(members, list) or any(not isinstance(m, int) or isinstance(m, bool) for m in members) \
                or len(set(members)) != len(members) or seat.id not in members \
                or any(m not in by_id or not can_be_member(by_id[m]) for m in members):
            return [], ("room_members", "rooms", {})
        conspiracy = bool(item.get("conspiracy"))
        if conspiracy:
            used = (fm.get("used") or {}).get(str(seat.id), [])
            if _public(seat) != "conspirator" or "conspirator" in used or len(members) < 2:
                return [], ("room_conspiracy", "rooms", {})
        else:
            manager = any(_public(by_id[m]) == "manager" for m in members)
            if len(members) != 3 and not (manager and len(members) in (2, 4)):
                return [], ("room_size", "rooms", {})
        clean.append({"members": sorted(members, key=lambda m: by_id[m].position), "conspiracy": conspiracy})
    return clean, None


def form_rooms(*, seats: Sequence[SeatInfo], proposals: Mapping[int, Sequence[Mapping[str, Any]]],
               alive: Mapping[int, bool], phase: PhaseInfo) -> list[dict]:
    """FM-9.3: the rooms created at the end of day ``phase`` from ``proposals`` (seat id → its normalised
    proposals), given who is still ``alive`` after the day. Returns ``[{"slug", "members", "until",
    "conspiracy", "by"}]`` in creation order (conspiracies first, then agreed sets in ring order)."""
    by_id = {s.id: s for s in seats}

    def member(m: int) -> bool:
        return alive.get(m, False) or _public(by_id[m]) == "avenger"

    rooms: list[dict] = []
    number = 0
    for seat in sorted(seats, key=lambda s: s.position):  # the conspirator's room needs nobody's agreement
        for p in proposals.get(seat.id, []):
            if p.get("conspiracy") and member(seat.id):
                members = [m for m in p["members"] if member(m)]
                if len(members) >= 2:
                    number += 1
                    rooms.append({"slug": f"room:{phase.number}-{number}", "members": members, "until": None,
                                  "conspiracy": True, "by": seat.id})
    wanted: dict[tuple[int, ...], set[int]] = {}
    for seat_id, items in proposals.items():
        for p in items:
            if not p.get("conspiracy"):
                wanted.setdefault(tuple(p["members"]), set()).add(seat_id)
    placed: set[int] = set()
    for agreed in sorted(wanted, key=lambda ms: [by_id[m].position for m in ms]):
        # A dead avenger gives no orders: he is in when every living member agreed **[house]** (FM-8: he talks "in
        # old and new chat rooms").
        living = {m for m in agreed if alive.get(m, False)}
        if not living or not living <= wanted[agreed] or any(not member(m) for m in agreed) \
                or placed & set(agreed):
            continue
        placed |= set(agreed)
        number += 1
        rooms.append({"slug": f"room:{phase.number}-{number}", "members": list(agreed),
                      "until": phase.ordinal + 1, "conspiracy": False, "by": None})
    return rooms


def room_open(state: Mapping[str, Any], slug: str, ordinal: int) -> bool:
    """Whether room ``slug`` still takes posts in the phase of ``ordinal`` (it closes after the next night)."""
    room = ((state.get("fm") or {}).get("rooms") or {}).get(slug)
    return room is not None and (room.get("until") is None or ordinal <= int(room["until"]))


def lapse_reason(members: Sequence[int], *, conspiracy: bool, proposer: int, seats: Sequence[SeatInfo],
                 proposals: Mapping[int, Sequence[Mapping[str, Any]]], alive: Mapping[int, bool],
                 formed: Mapping[str, Sequence[int]]) -> tuple[str, dict] | None:
    """Why the proposal ``members`` (seat ids in ring order, the ``proposer`` among them; ``conspiracy``: the
    conspirator's room) of a resolved day did not become a room, by the rules :func:`form_rooms` applied — or
    ``None`` when it did. ``proposals``, ``alive`` are :func:`form_rooms`' input, ``formed`` the rooms it created (slug
    → members). Returns ``(code, params)``, ``params["players"]`` the seat ids at fault:

    * ``conspirator_dead`` — the conspirator died that day (FM-8); ``too_few`` — fewer than two of its members could
      join (FM-8);
    * ``died`` — members died that day (FM-9.3: the living form rooms; a dead ``avenger`` excepted, FM-8);
    * ``not_proposed`` — living members who did not propose exactly this set (FM-9.3: all of them must);
    * ``placed`` — members already placed in another agreed room of that day, taken first in ring order **[house]**.
    """
    by_id = {s.id: s for s in seats}

    def member(m: int) -> bool:
        return alive.get(m, False) or (m in by_id and _public(by_id[m]) == "avenger")

    wanted = list(members)
    if conspiracy:
        if any(proposer in ms and set(ms) <= set(wanted) for ms in formed.values()):
            return None
        if not member(proposer):
            return "conspirator_dead", {"players": [proposer]}
        return "too_few", {"players": [m for m in wanted if not member(m)]}
    if any(list(ms) == wanted for ms in formed.values()):
        return None
    dead = [m for m in wanted if not member(m)]
    if dead:
        return "died", {"players": dead}
    missing = [m for m in wanted if alive.get(m, False) and not any(
        list(p.get("members") or []) == wanted and not p.get("conspiracy") for p in proposals.get(m, []))]
    if missing:
        return "not_proposed", {"players": missing}
    placed = [m for m in wanted if any(m in ms for ms in formed.values())]
    return "placed", {"players": placed}
