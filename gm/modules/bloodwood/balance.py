"""Bloodwood's bots for the balance report (``BloodwoodModule.balance_policy``, ``gm.core.balance``): the playtest
bots' choices (:mod:`.bots`) played straight on the pure engine, with no HTTP and no database. In every step each of
its actors picks one line at random among the legal whole lines :func:`.selectors.legal_payloads` offers (BW-24;
it asks the engine's own legality checks), and the core checks every line with ``validate_order``. Now and then
(:func:`.bots.declare_chance`, per step and pure player) a player declares (BW-22) naming a random half of the
others, as the playtest bots do (:func:`.engine.pend_declaration`: the step's resolution judges it).

Sides: the two teams (``BW-1``); BW-22d's deadlock (every player permanent) is a draw. End kinds: ``declaration``
(a declaration ended it), ``deadlock``, ``victory`` (any other end).
"""
from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.balance import SimPolicy
from gm.core.engine import PhaseInfo, Resolution, SeatInfo

from . import engine
from .bots import declare_chance
from .selectors import legal_payloads


class BloodwoodSim(SimPolicy):
    """Bloodwood's balance bots (see the module docstring)."""

    sides = tuple(engine.TEAMS)
    default_players = 6
    phase_cap = 600

    def instant(self, *, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo], rng: random.Random,
                context: Any = None) -> tuple[dict, dict[int, dict]] | None:
        """BW-22: a pure player (of the step's actors) may declare, as the playtest bots do."""
        if state.get("over") or state.get("declaration"):
            return None
        for sid in (str(a) for a in phase.actors or ()):
            if state["dna"].get(sid) == "purity" and rng.random() < declare_chance(phase.ordinal):
                others = [s for s in state["order"] if s != sid]
                named = rng.sample(others, max(1, len(others) // 2))
                new = copy.deepcopy(dict(state))
                try:
                    engine.pend_declaration(new, sid, named)
                except engine.BwError:
                    continue
                return new, {}
        return None

    def orders(self, *, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo], rng: random.Random,
               context: Any = None) -> dict[int, dict]:
        out: dict[int, dict] = {}
        if state.get("declaration"):  # the step closes on it at once (BW-22b): no line is taken
            return out
        for actor in phase.actors or ():
            lines = legal_payloads(dict(state), str(actor))
            if lines:
                out[int(actor)] = rng.choice(lines)
        return out

    def end_kind(self, *, state: Mapping[str, Any], resolution: Resolution) -> str:
        if state.get("winner") in (None, "none"):
            return "deadlock"
        kinds = {e.kind for e in resolution.events}
        return "declaration" if "bw.declaration" in kinds else "victory"
