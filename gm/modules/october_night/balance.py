"""October Night's bots for the balance report (``OctoberNightModule.balance_policy``, ``gm.core.balance``): the
playtest bots' choice (:class:`.bots.OctoberNightBot`: one legal line at random) played straight on the pure engine,
with no HTTP and no database but the site's data set read once per report (OC-17). Each living seat's legal lines are
:func:`.selectors.legal_lines` without a reason against them (OC-11.5: every line checked by the engine's
``validate_order``).

Sides: ``summoners``, ``keepers`` (OC-10); ``nobody`` wins is a draw. End kinds: how the engine says the game ended (its
``end`` line's ``why``: ``ritual``…)."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.balance import SimPolicy
from gm.core.engine import PhaseInfo, Resolution, SeatInfo

from . import engine
from .selectors import base_data, legal_lines


class OctoberNightSim(SimPolicy):
    """October Night's balance bots (see the module docstring)."""

    sides = tuple(engine.SIDES)
    default_players = 4
    phase_cap = 300

    def prepare(self, *, players: int, options: Mapping[str, Any]) -> Any:
        """OC-17: the site's data set, read once per report (the games then touch no database)."""
        return {"base": base_data()}

    def setup(self, module, *, seats: Sequence[SeatInfo], options: Mapping[str, Any], rng: random.Random,
              context: Any = None) -> Any:
        return engine.setup(seats=seats, options=options, rng=rng, base=context["base"])

    def orders(self, *, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo], rng: random.Random,
               context: Any = None) -> dict[int, dict]:
        out: dict[int, dict] = {}
        for seat in self.acting(phase, seats):
            lines = [line for line in legal_lines(dict(state), str(seat.id), phase.kind) if not line["why"]]
            if lines:
                out[seat.id] = rng.choice(lines)["payload"]
        return out

    def end_kind(self, *, state: Mapping[str, Any], resolution: Resolution) -> str:
        why = next((e.data.get("why") for e in reversed(resolution.events) if e.kind.endswith(".end")), None)
        return str(why) if why else super().end_kind(state=state, resolution=resolution)
