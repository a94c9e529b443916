"""Blood Vengeance's bots for the balance report (``BloodVengeanceModule.balance_policy``, ``gm.core.balance``): the
playtest bots' choices (:func:`.bots.compose_order`) played straight on the pure engine, with no HTTP and no
database. Each living seat's legal orders are :func:`.selectors.legal_choices` (every choice one the engine accepts,
BV-16), grouped as the order options offer them; the core checks every order with ``validate_order``.

Sides: ``vampires``, ``hunters``, ``werewolf`` (BV-9–BV-11: exclusive, no draws). End kinds: the winning side.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.balance import SimPolicy
from gm.core.engine import Outcome, PhaseInfo, Resolution, SeatInfo

from . import engine
from .bots import compose_order
from .selectors import legal_choices


class BloodVengeanceSim(SimPolicy):
    """Blood Vengeance's balance bots (see the module docstring)."""

    sides = tuple(engine.SIDES)
    default_players = 8
    phase_cap = 300

    def orders(self, *, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo], rng: random.Random,
               context: Any = None) -> dict[int, dict]:
        out: dict[int, dict] = {}
        for seat in self.acting(phase, seats):
            grouped = legal_choices(dict(state), phase.kind, str(seat.id))
            if not grouped:
                continue
            choices, groups = [], {}
            for group, payloads in grouped.items():
                for i, p in enumerate(payloads):
                    key = f"{group}:{i}"
                    choices.append({"key": key, "payload": {"actions": [p]} if phase.kind == "light" else p})
                    groups.setdefault(group, []).append(key)
            payload = compose_order({"kind": phase.kind, "choices": choices, "groups": groups}, rng)
            if payload:
                out[seat.id] = payload
        return out

    def side(self, outcome: Outcome) -> str | None:
        return outcome.winners[0] if outcome.winners and not outcome.draw else None

    def end_kind(self, *, state: Mapping[str, Any], resolution: Resolution) -> str:
        outcome = resolution.outcome
        return (self.side(outcome) if outcome else None) or "nobody"
