"""A small pure builder of forum Mafia tables for the engine's unit tests (no DB, no Django).

Seats are made from compact specs with :func:`gm.modules.forum_mafia.table.seat_data` and the default §11
collection; :func:`run` checks every order with :func:`validate_order` (an illegal order fails loudly
unless the test passes ``validate=False``) and resolves the phase; the :class:`Result` it returns has easy
accessors and chains into the next phase (``r.state``, ``r.seats``).

Example::

    seats = table(S("A", "sheriff", hand="pistol advice"), S("B", "mafia_killer", hand="coffee bunker"))
    r = run(STATE(), seats, {"A": play("pistol", target="B")})
    assert r.hand("B") == []          # 2 damage: both cards lost from the front of the Hand
    assert not r.alive("B")

Card lists are slugs separated by spaces (front of the Hand / first of the Sleeve / top of the deck first); a
Sleeve entry ``role:dummy`` is a card the public role gave (FM-8: it can't pay a price). In orders, ``target`` and
``targets`` may name seats by their display name: :func:`run` turns them into seat ids.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cards.collection_data import default_collection
from cards.containers import Containers
from gm.core.engine import Event, PhaseInfo, Resolution, RuleViolation, SeatInfo
from gm.modules.forum_mafia.engine import resolution
from gm.modules.forum_mafia.engine import table as fm_table
from gm.modules.forum_mafia.engine.orders import validate_order

COL = default_collection()
#: Every event any :func:`run` produced in this process: kind → data samples (the rendering test reads it).
EMITTED: dict[str, list[dict]] = {}


def STATE(fm: Mapping[str, Any] | None = None, collection=COL) -> dict:  # noqa: N802 - reads like a constant
    """A game state with the collection snapshot (FM-4.2) and the engine's between-phase memory ``fm``."""
    return {"collection": collection.snapshot(), "collection_version": collection.version, "fm": dict(fm or {})}


def _slugs(value: str | Sequence[str]) -> list[str]:
    return value.split() if isinstance(value, str) else list(value)


@dataclass
class S:
    """A seat spec: display ``name``, ``secret`` role slug, ``hand``/``sleeve``/``deck`` card lists, ``public``
    role (slug, or a custom name by default), ``alive`` and the joker's colours."""

    name: str
    secret: str = "sheriff"
    hand: str | Sequence[str] = ""
    sleeve: str | Sequence[str] = ""
    deck: str | Sequence[str] = ""
    public: Any = None
    alive: bool = True
    joker_colours: Sequence[str] | None = None


def table(*specs: S, collection=COL) -> list[SeatInfo]:
    """Seats in ring order (ids 1, 2, … and positions 0, 1, …) from :class:`S` specs."""
    seats = []
    for position, spec in enumerate(specs):
        sleeve = []
        for slug in _slugs(spec.sleeve):
            sleeve.append({"card": slug[5:], "from_role": True} if slug.startswith("role:") else slug)
        data = fm_table.seat_data(public_role=spec.public if spec.public is not None else {"custom": spec.name},
                                  secret_role=spec.secret, hand=_slugs(spec.hand), collection=collection,
                                  sleeve=sleeve, deck=_slugs(spec.deck), joker_colours=spec.joker_colours)
        seats.append(SeatInfo(id=position + 1, name=spec.name, position=position, alive=spec.alive, data=data))
    return seats


def play(card: str, src: str = "hand", **kw) -> dict:
    """An order with one play: ``play("pistol", target="B")``; ``src`` is ``hand`` or ``sleeve``."""
    return {"plays": [{"card": card, "from": src, **kw}]}


def plays(*items: Mapping[str, Any], discard: Sequence | None = None) -> dict:
    """An order with several plays, each ``{"card": …, "from": …, …}`` (``from`` defaults to ``hand``)."""
    order: dict[str, Any] = {"plays": [{"from": "hand", **p} for p in items]}
    if discard is not None:
        order["discard"] = list(discard)
    return order


def _ids(seats: Sequence[SeatInfo]) -> dict[str, int]:
    return {s.name: s.id for s in seats}


def _resolve_names(payload: Mapping[str, Any], ids: Mapping[str, int]) -> dict:
    out = dict(payload)
    if isinstance(out.get("plays"), list):
        items = []
        for raw in out["plays"]:
            raw = dict(raw) if isinstance(raw, Mapping) else raw
            if isinstance(raw, dict):
                if isinstance(raw.get("target"), str) and raw["target"] in ids:
                    raw["target"] = ids[raw["target"]]
                if isinstance(raw.get("targets"), list):
                    raw["targets"] = [ids.get(t, t) if isinstance(t, str) else t for t in raw["targets"]]
            items.append(raw)
        out["plays"] = items
    return out


def phase_info(phase: tuple | PhaseInfo) -> PhaseInfo:
    return phase if isinstance(phase, PhaseInfo) else PhaseInfo(*phase)


def seat_of(seats: Sequence[SeatInfo], name_or_id: str | int) -> SeatInfo:
    return next(s for s in seats if s.name == name_or_id or s.id == name_or_id)


def check(state: Mapping[str, Any], seats: Sequence[SeatInfo], who: str, payload: Mapping[str, Any],
          phase: tuple | PhaseInfo = ("night", 1, 1)) -> dict:
    """``validate_order`` for seat ``who`` (names in targets allowed); raises :class:`RuleViolation`."""
    return validate_order(state=state, phase=phase_info(phase), seat=seat_of(seats, who), seats=seats,
                                     payload=_resolve_names(payload, _ids(seats)))


def refused(state, seats, who, payload, phase=("night", 1, 1)) -> list[tuple[str, str, str]]:
    """The ``(rule, field, reason text)`` of every problem ``validate_order`` finds; fails if it accepts."""
    try:
        check(state, seats, who, payload, phase)
    except RuleViolation as exc:
        return [(e.rule, e.field, str(e.message)) for e in exc.errors]
    raise AssertionError(f"order of {who} was accepted: {payload}")


def run(state: Mapping[str, Any], seats: Sequence[SeatInfo], orders: Mapping[str | int, Mapping[str, Any]],
        phase: tuple | PhaseInfo = ("night", 1, 1), seed: int = 1, validate: bool = True) -> Result:
    """Check every order (unless ``validate=False``) and resolve ``phase`` (``(kind, number, ordinal)``) with a
    ``random.Random(seed)``. ``orders`` are keyed by seat name or id."""
    ph = phase_info(phase)
    ids = _ids(seats)
    clean: dict[int, Mapping[str, Any]] = {}
    for who, payload in orders.items():
        seat = seat_of(seats, who)
        payload = _resolve_names(payload, ids)
        if validate:
            payload = validate_order(state=state, phase=ph, seat=seat, seats=seats, payload=payload)
        clean[seat.id] = payload
    res = resolution.resolve(state=state, phase=ph, seats=seats, orders=clean, rng=random.Random(seed))
    for event in res.events:
        EMITTED.setdefault(event.kind, []).append(dict(event.data))
    return Result(res, list(seats), ph)


@dataclass
class Result:
    """A resolved phase with accessors by seat name."""

    res: Resolution
    before: list[SeatInfo]
    phase: PhaseInfo
    seats: list[SeatInfo] = field(init=False)

    def __post_init__(self) -> None:
        self.seats = [SeatInfo(id=s.id, name=s.name, position=s.position,
                               alive=self.res.alive.get(s.id, s.alive), data=self.res.seat_data.get(s.id, s.data))
                      for s in self.before]

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def state(self) -> dict:
        return self.res.state

    @property
    def fm(self) -> dict:
        return self.res.state["fm"]

    def _seat(self, name: str) -> SeatInfo:
        return seat_of(self.seats, name)

    def id(self, name: str) -> int:
        return self._seat(name).id

    def cards(self, name: str) -> Containers:
        return Containers.from_dict(self._seat(name).data["cards"])

    def hand(self, name: str) -> list[str]:
        return self.cards(name).hand_kinds()

    def sleeve(self, name: str) -> list[str]:
        return self.cards(name).sleeve_kinds()

    def deck(self, name: str) -> list[str]:
        return [i.kind for i in self.cards(name).deck]

    def discard(self, name: str) -> list[str]:
        return [i.kind for i in self.cards(name).discard]

    def alive(self, name: str) -> bool:
        return self._seat(name).alive

    @property
    def died(self) -> list[str]:
        return [s.name for s in self.seats if s.id in self.res.alive and not self.res.alive[s.id]]

    @property
    def outcome(self):
        return self.res.outcome

    @property
    def winners(self) -> list[str] | None:
        return None if self.res.outcome is None else list(self.res.outcome.winners)

    @property
    def winning(self) -> list[str]:
        seats = set(self.res.outcome.winning_seats) if self.res.outcome else set()
        return [s.name for s in self.seats if s.id in seats]

    # -- events --------------------------------------------------------------------------------------------
    @property
    def events(self) -> list[Event]:
        return list(self.res.events)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.res.events]

    def told(self, name: str, kind: str | None = None) -> list[dict]:
        """Data of the seat events for ``name`` (of ``kind``)."""
        sid = self.id(name)
        return [dict(e.data) for e in self.res.events
                if e.visibility == "seat" and e.seat == sid and (kind is None or e.kind == kind)]

    def told_kinds(self, name: str) -> list[str]:
        sid = self.id(name)
        return [e.kind for e in self.res.events if e.visibility == "seat" and e.seat == sid]

    def public(self, kind: str | None = None) -> list[dict]:
        return [dict(e.data) for e in self.res.events if e.visibility == "public" and (kind is None or e.kind == kind)]

    def trace(self, step: str | None = None) -> list[dict]:
        """Data of the master's ``fm.t_<step>`` events, in order."""
        return [dict(e.data) for e in self.res.events
                if e.visibility == "master" and (step is None or e.kind == f"fm.t_{step}")]

    def of_kind(self, kind: str) -> list[Event]:
        return [e for e in self.res.events if e.kind == kind]

    def find(self, kind: str | None = None, visibility: str | None = None, seat: str | None = None) -> list[Event]:
        """Events filtered by kind, visibility and (for seat events) the seat's name."""
        sid = self.id(seat) if seat is not None else None
        return [e for e in self.res.events if (kind is None or e.kind == kind)
                and (visibility is None or e.visibility == visibility) and (sid is None or e.seat == sid)]

    def layers(self) -> list[str]:
        """The layer of every trace event, in order (FM-6)."""
        return [e.data["layer"] for e in self.res.events if e.visibility == "master"]
