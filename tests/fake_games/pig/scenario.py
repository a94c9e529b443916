"""The ``pig`` scenario runner: the core's :class:`~gm.core.scenario.ScenarioRunner` with move steps.

A file::

    game: pig
    seed: 1                       # optional (default 1)
    options: {target: 10}         # optional
    players: [Ann, Bob]           # seat order = turn order
    steps:                        # one line each: one move of one player, or the deadline passing
      - {player: Ann, move: roll, dice: [4], expect: {turn_points: 4, to_move: Ann}}
      - {player: Ann, move: hold, expect: {scores: {Ann: 4}, to_move: Bob}}
      - {deadline: true, expect: {to_move: Ann}}          # Bob misses his turn: he holds
      - {player: Bob, move: roll, expect: {rejected: [Bob]}}   # not his turn

``expect`` keys: ``scores`` (names → score, the names given), ``turn_points``, ``to_move``, ``next_phase``
(``turn N`` or ``none``), ``winner`` (a name or ``null``), ``rejected`` (exactly the players whose line was refused),
``public_log_contains``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.core import services
from gm.core.models import LogEntry
from gm.core.scenario import (
    MASTER_USERNAME,
    STEP_MOVE,
    Played,
    ScenarioError,
    ScenarioRun,
    ScenarioRunner,
    check_keys,
    parse_dice,
    phase_label,
    scenario_user,
    show,
    unique_username,
)

TOP_KEYS = ("game", "seed", "options", "players", "steps", "title", "description")
STEP_KEYS = ("player", "move", "deadline", "dice", "expect")
EXPECT_KEYS = ("scores", "turn_points", "to_move", "next_phase", "winner", "rejected", "public_log_contains")


class PigRunner(ScenarioRunner):
    module = "pig"

    def parse(self) -> None:
        data = check_keys(self.data, place="", allowed=TOP_KEYS, required=("game", "players", "steps"))
        names = data["players"]
        if not isinstance(names, list) or len(names) < 2 or not all(isinstance(n, str) and n for n in names) \
                or len(set(names)) != len(names):
            raise ScenarioError("players", f"give two or more different names, got {show(names)}")
        self.names = list(names)
        self.seed = data.get("seed", 1)
        self.options = data.get("options") or {}
        self.steps = []
        for i, raw in enumerate(data["steps"] or [], 1):
            place = f"step {i}"
            step = dict(check_keys(raw, place=place, allowed=STEP_KEYS))
            if ("player" in step) == bool(step.get("deadline")):
                raise ScenarioError(place, "a step is a move ({player, move}) or {deadline: true}")
            if "player" in step:
                self.player(step["player"], f"{place}, key player")
            if "dice" in step:
                step["dice"] = parse_dice(step["dice"], place=f"{place}, key dice")
            step["expect"] = check_keys(step.get("expect") or {}, place=f"{place}, key expect", allowed=EXPECT_KEYS)
            for name in step["expect"].get("scores") or {}:
                self.player(name, f"{place}, expect.scores")
            step["index"] = i
            step["label"] = f"{step['player']} {step.get('move', '')}".strip() if "player" in step else "deadline"
            self.steps.append(step)

    def player(self, value: Any, place: str) -> str:
        if value not in self.names:
            raise ScenarioError(place, f"unknown player {show(value)}; players: {', '.join(self.names)}")
        return value

    def build(self):
        self.master = scenario_user(MASTER_USERNAME, "Scenario master", host=True)
        try:
            game = services.game_create(master=self.master, module="pig", title=f"Scenario: {self.name}",
                                        options=self.options, rng_seed=self.seed)
            services.game_open_signup(game=game, actor=self.master)
            for i, name in enumerate(self.names, 1):
                services.seat_join(game=game, user=scenario_user(unique_username(f"scn-{i}"), name),
                                   display_name=name)
            services.game_start(game=game, actor=self.master)
        except services.ServiceError as exc:
            raise ScenarioError("options", str(exc)) from None
        game.refresh_from_db()
        self.game = game
        self.seats = {s.display_name: s for s in game.seats.select_related("user")}
        self.by_id = {s.pk: name for name, s in self.seats.items()}
        return game

    def step_kind(self, step: Mapping[str, Any]) -> str:
        return STEP_MOVE

    def step_phase(self, step: Mapping[str, Any]) -> None:
        return None

    def move_payload(self, step: Mapping[str, Any]) -> tuple[str | None, Any]:
        if step.get("deadline"):
            return None, None
        return step["player"], {"move": step.get("move")}

    def check(self, step: Mapping[str, Any], played: Played) -> None:
        expect = step["expect"]
        state = self.game.state
        if "rejected" in expect:
            actual = sorted(r["player"] for r in played.refused)
            if actual != sorted(expect["rejected"]):
                self.fail(step, "rejected", sorted(expect["rejected"]), actual)
        else:
            self.check_refused(step, played.refused)
        for name, score in (expect.get("scores") or {}).items():
            actual = state["scores"][str(self.seats[name].pk)]
            if actual != score:
                self.fail(step, f"scores.{name}", score, actual)
        if "turn_points" in expect and state["turn_points"] != expect["turn_points"]:
            self.fail(step, "turn_points", expect["turn_points"], state["turn_points"])
        if "to_move" in expect and self.by_id[state["to_move"]] != expect["to_move"]:
            self.fail(step, "to_move", expect["to_move"], self.by_id[state["to_move"]])
        if "next_phase" in expect:
            phase = self.open_phase()
            actual = phase_label(phase) if phase else "none"
            if actual != expect["next_phase"]:
                self.fail(step, "next_phase", expect["next_phase"], actual)
        if "winner" in expect:
            seats = (self.game.outcome or {}).get("winning_seats") or []
            actual = self.by_id[seats[0]] if seats else None
            if actual != expect["winner"]:
                self.fail(step, "winner", expect["winner"], actual)
        if "public_log_contains" in expect:
            public = list(LogEntry.objects.filter(game=self.game, phase__in=[p.pk for p in played.phases],
                                                  visibility="public").select_related("game"))
            self.check_log(step, "public_log_contains", public, expect["public_log_contains"])


def run(data: Mapping[str, Any], *, name: str = "scenario") -> ScenarioRun:
    """Run one ``pig`` scenario inside the caller's transaction."""
    return PigRunner.runner(data, name=name)
