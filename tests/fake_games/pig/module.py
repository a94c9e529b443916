"""``pig``: a small turn-based dice game used only by the tests, to prove the scenario runner's move steps and fixed
dice on a module whose phases are single moves (as Bloodwood's are).

The players take turns in seat order. On his turn a player either **rolls** one die — a 1 loses the points of this
turn and passes the turn; any other face adds to the turn's points and he moves again — or **holds**: the turn's
points go to his score and the turn passes. A missed deadline holds. The first to reach ``target`` (default 20)
wins. The engine is pure; its only randomness is ``rng.randint(1, 6)``, the die.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from gm.core.engine import (
    Event,
    GameModule,
    Outcome,
    PhaseInfo,
    PhaseSpec,
    Resolution,
    RuleError,
    RuleViolation,
    SeatInfo,
    SetupResult,
)

MOVES = ("roll", "hold")


class PigModule(GameModule):
    slug = "pig"
    name = _("Pig (test module)")
    min_seats = 2
    max_seats = 6
    phase_kinds = {"turn": _("Turn %(number)s")}
    default_durations = {"turn": 3600}
    public_option_keys = ("target", "close_early")
    messages = {
        "pig.rolled": _("%(player)s rolled %(die)s."),
        "pig.busted": _("%(player)s rolled a 1 and loses this turn's points."),
        "pig.held": _("%(player)s holds %(points)s points: score %(score)s."),
        "pig.won": _("%(player)s reaches %(score)s and wins."),
    }

    def validate_options(self, options: Mapping[str, Any]) -> dict:
        unknown = sorted(set(options) - {"target", "close_early"})
        errors = [RuleError(_("Unknown option “%(key)s”."), field=k, params={"key": k}) for k in unknown]
        target = options.get("target", 20)
        if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= 1000:
            errors.append(RuleError(_("The target is a whole number from 1 to 1000."), field="target"))
        close_early = options.get("close_early", False)
        if not isinstance(close_early, bool):
            errors.append(RuleError(_("close_early is true or false."), field="close_early"))
        if errors:
            raise RuleViolation(errors)
        return {"target": target, "close_early": close_early}

    def setup(self, *, seats: Sequence[SeatInfo], options: Mapping[str, Any], rng) -> SetupResult:
        order = [s.id for s in sorted(seats, key=lambda s: s.position)]
        state = {"target": options.get("target", 20), "close_early": options.get("close_early", False),
                 "order": order, "scores": {str(i): 0 for i in order},
                 "to_move": order[0], "turn_points": 0}
        return SetupResult(state=state, first_phase=PhaseSpec("turn", 1, actors=[order[0]]))

    def validate_order(self, *, state, phase: PhaseInfo, seat: SeatInfo, payload, seats=()) -> dict:
        if seat.id != state["to_move"]:
            raise RuleViolation([RuleError(_("It is not your turn."))])
        move = payload.get("move") if isinstance(payload, Mapping) else None
        if move not in MOVES or set(payload) != {"move"}:
            raise RuleViolation([RuleError(_("Send {\"move\": \"roll\"} or {\"move\": \"hold\"}."), field="move")])
        return {"move": move}

    def resolve(self, *, state, phase: PhaseInfo, seats, orders, rng) -> Resolution:
        names = {s.id: s.name for s in seats}
        mover = state["to_move"]
        move = (orders.get(mover) or {}).get("move", "hold")
        scores = dict(state["scores"])
        points = state["turn_points"]
        events: list[Event] = []
        passes = True
        if move == "roll":
            die = rng.randint(1, 6)
            events.append(Event("pig.rolled", {"player": names[mover], "die": die}))
            if die == 1:
                events.append(Event("pig.busted", {"player": names[mover]}))
                points = 0
            else:
                points += die
                passes = False
        else:
            scores[str(mover)] += points
            events.append(Event("pig.held", {"player": names[mover], "points": points, "score": scores[str(mover)]}))
            points = 0
            if scores[str(mover)] >= state["target"]:
                events.append(Event("pig.won", {"player": names[mover], "score": scores[str(mover)]}))
                new = {**state, "scores": scores, "turn_points": 0}
                return Resolution(new, events, outcome=Outcome([str(mover)], [mover]))
        order = state["order"]
        nxt = order[(order.index(mover) + 1) % len(order)] if passes else mover
        new = {**state, "scores": scores, "turn_points": points, "to_move": nxt}
        return Resolution(new, events, next_phase=PhaseSpec("turn", phase.number + 1, actors=[nxt]))

    def phase_complete(self, *, state, phase: PhaseInfo, orders) -> bool:
        """With ``close_early``, a turn ends as soon as the player to move has moved."""
        return bool(state.get("close_early")) and state["to_move"] in orders

    def view(self, *, state, seats, viewer) -> dict:
        return dict(state)

    def winner_label(self, slug: str) -> str:
        return f"seat {slug}"


MODULE = PigModule()
