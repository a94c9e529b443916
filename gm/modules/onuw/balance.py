"""ONUW's bots for the balance report (``OnuwModule.balance_policy``, ``gm.core.balance``): the playtest bots'
choices (:mod:`.bots`: a uniformly random legal order) played straight on the pure engine, with no HTTP and no
database. What a seat may choose comes from the engine (:func:`.engine.night_choice`, ON-4; the dealt doppelganger
copies in his step, ON-14; everyone votes, ON-6), and the core checks every order with ``validate_order``.

Sides: ``village``, ``werewolf``, ``tanner`` (ON-9–ON-12); a game several teams win (a dead tanner besides the
village, ON-11) counts for the shared win (``village+tanner``…). End kinds: ``victory``, ``nobody``.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from gm.core.balance import SimPolicy
from gm.core.engine import PhaseInfo, SeatInfo

from . import engine


class OnuwSim(SimPolicy):
    """ONUW's balance bots (see the module docstring)."""

    sides = ("village", "werewolf", "tanner")
    default_players = 5
    phase_cap = 5

    def orders(self, *, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo], rng: random.Random,
               context: Any = None) -> dict[int, dict]:
        order = engine.seat_order(seats)
        out: dict[int, dict] = {}
        for seat in self.acting(phase, seats):
            others = [int(s) for s in order if s != str(seat.id)]
            payload = self._choose(state, phase.kind, str(seat.id), order, others, rng)
            if payload is not None:
                out[seat.id] = payload
        return out

    @staticmethod
    def _choose(state: Mapping[str, Any], kind: str, sid: str, order: list[str], others: list[int],
                rng: random.Random) -> dict | None:
        if kind == "doppelganger":
            return {"copy": rng.choice(others)} if state["dealt"].get(sid) == "doppelganger" else None
        if kind == "day":
            return {"vote": rng.choice(others)}
        choice = engine.night_choice(state, sid, order)
        if choice == "lone_wolf":
            return {"look": [rng.choice(engine.CENTER)]}
        if choice == "seer":
            menu: list[list] = [[s] for s in others] + [list(p) for p in combinations(engine.CENTER, 2)]
            return {"look": rng.choice(menu)}
        if choice == "robber":
            return {"swap_with": rng.choice(others)}
        if choice == "troublemaker":
            return {"swap": rng.sample(others, 2)}
        if choice == "drunk":
            return {"take": rng.choice(engine.CENTER)}
        return None
