"""Helpers of the pure engine tests: a game dealt with fixed cards, orders validated and phases resolved as the
core would do it — no database."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml

from gm.core.engine import SeatInfo

from .. import engine

TABLE = yaml.safe_load((Path(__file__).resolve().parents[1] / "data" / "roles.yaml").read_text(encoding="utf-8"))


class Game:
    """A game of ``cards`` (seat ids 1…n in ring order, names P1…Pn) with ``options``; ``state`` is the current
    state, ``kind``/``number`` the open phase, ``log`` every core event so far, ``outcome`` once it ends."""

    def __init__(self, cards: list[str], seed: int = 1, base: dict | None = None, **options: Any):
        self.table = base or TABLE
        self.options = engine.validate_options({"deal": cards, **options}, table=self.table)
        self.seats = [SeatInfo(i + 1, f"P{i + 1}", i) for i in range(len(cards))]
        result = engine.setup(seats=self.seats, options=self.options, rng=random.Random(seed), table=self.table)
        self.setup = result
        self.state: dict = result.state
        self.kind, self.number = result.first_phase.kind, result.first_phase.number
        self.spec = result.first_phase
        self.log = list(result.events)
        self.seat_data = {sid: dict(d) for sid, d in result.seat_data.items()}
        self.groups = dict(result.groups)
        self.outcome = None
        self.rng = random.Random(seed)
        self.last = None

    def alive(self) -> dict[int, bool]:
        return {s.id: engine.is_alive(self.state, str(s.id)) for s in self.seats}

    def check(self, seat: int, payload: dict) -> dict:
        """The engine's validation of one order (raises ``BvError``)."""
        return engine.validate_order(self.state, kind=self.kind, sid=str(seat), payload=payload)

    def refusal(self, seat: int, payload: dict) -> str:
        """The BV-16 code an order is refused with, or ``""`` when it is accepted."""
        try:
            self.check(seat, payload)
        except engine.BvError as exc:
            return exc.code
        return ""

    def play(self, orders: dict[int, dict] | None = None, *, rng: random.Random | None = None):
        """Validate every order (each must be accepted) and resolve the open phase; returns the Resolution."""
        clean = {seat: self.check(seat, payload) for seat, payload in (orders or {}).items()}
        seats = [SeatInfo(s.id, s.name, s.position, alive=engine.is_alive(self.state, str(s.id)),
                          data=self.seat_data.get(s.id, {})) for s in self.seats]
        res = engine.resolve(state=self.state, kind=self.kind, seats=seats, orders=clean, rng=rng or self.rng)
        self.state = res.state
        self.log += res.events
        for sid, data in res.seat_data.items():
            self.seat_data[sid] = data
        for slug, members in res.groups.items():
            self.groups[slug] = members
        self.last = res
        if res.next_phase is not None:
            self.kind, self.number = res.next_phase.kind, res.next_phase.number
            self.spec = res.next_phase
        else:
            self.kind, self.outcome = "over", res.outcome
        return res

    def light(self, actions: dict[int, list[dict]] | dict[int, dict], **kw):
        """Play a light phase: seat → one action or a list of actions."""
        return self.play({s: {"actions": a if isinstance(a, list) else [a]} for s, a in actions.items()}, **kw)

    def votes(self, votes: dict[int, int]):
        """Play a night or defence round: voter → voted seat."""
        return self.play({v: {"vote": t} for v, t in votes.items()})

    def events(self, kind: str, *, seat: int | None = None, visibility: str | None = None) -> list:
        return [e for e in self.log if e.kind == kind and (seat is None or e.seat == seat)
                and (visibility is None or e.visibility == visibility)]

    def last_events(self, kind: str, *, seat: int | None = None) -> list:
        return [e for e in self.last.events if e.kind == kind and (seat is None or e.seat == seat)]

    def dead(self) -> list[int]:
        return [int(s) for s in self.state["dead"]]


def kill(target: int, role: str) -> dict:
    return {"role": role, "target": target}
