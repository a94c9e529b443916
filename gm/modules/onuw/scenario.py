"""ONUW scenario runner (shell): builds a game from a scenario file (``scenario-format.md``, ``## onuw``) and plays
it through the site's services — ``game_create`` with the fixed deal, ``seat_join``, ``game_start``,
``order_submit`` for every action and vote (the engine's full validation), ``phase_resolve_due`` as the deadline
task calls it — then checks each step's ``expect``. Keys are documented in ``docs/scenarios.md``.

A ``night`` step while the doppelganger step is open plays that step first (ON-14): the doppelganger's ``copy`` is
ordered and resolved, then his ``then`` is ordered in the night with the others. The whole file is checked before
anything is built, so a typo in the last step is reported (exit status 2) without running the first ones.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.core.models import Game, LogEntry, Phase, Seat
from gm.core.scenario import (
    MASTER_USERNAME,
    Played,
    ScenarioError,
    ScenarioRun,
    ScenarioRunner,
    check_keys,
    parse_dice,
    parse_phase_label,
    phase_label,
    scenario_user,
    show,
)

from . import engine

TOP_KEYS = ("game", "seed", "options", "players", "center", "steps", "title", "description")
OPTION_KEYS = ("lone_wolf", "series")
PLAYER_KEYS = ("name", "card")
STEP_KEYS = ("phase", "actions", "votes", "dice", "expect")
ACTION_KEYS = ("player", "role", "look", "swap_with", "swap", "take", "copy", "then")
THEN_KEYS = ("look", "swap_with", "swap", "take")
VOTE_KEYS = ("player", "for")
EXPECT_KEYS = ("private_log", "private_log_excludes", "public_log_contains", "public_log_excludes", "final_cards",
               "final_center", "dead", "winners", "winning_teams", "rejected", "next_phase")
REJECTED_KEYS = ("player", "reason")


class _Runner(ScenarioRunner):
    module = "onuw"

    # -- checking the file ---------------------------------------------------------------------------------
    def parse(self) -> None:
        data = check_keys(self.data, place="", allowed=TOP_KEYS, required=("game", "players", "center", "steps"))
        players = data["players"]
        if not isinstance(players, list) or not players:
            raise ScenarioError("players", "give a list of players, e.g. [{name: A, card: seer}]")
        self.names: list[str] = []
        self.cards: dict[str, str] = {}
        for i, raw in enumerate(players, 1):
            p = check_keys(raw, place=f"players[{i}]", allowed=PLAYER_KEYS, required=PLAYER_KEYS)
            if not isinstance(p["name"], str) or not p["name"] or p["name"] in self.names:
                raise ScenarioError(f"players[{i}], key name", f"a unique name is needed, got {show(p['name'])}")
            self.role(p["card"], f"players[{i}], key card")
            self.names.append(p["name"])
            self.cards[p["name"]] = p["card"]
        center = data["center"]
        if not isinstance(center, list) or len(center) != 3:
            raise ScenarioError("center", f"give exactly three center cards, got {show(center)}")
        for i, card in enumerate(center, 1):
            self.role(card, f"center[{i}]")
        self.center = list(center)
        options = check_keys(data.get("options") or {}, place="options", allowed=OPTION_KEYS)
        self.options = dict(options)
        seed = data.get("seed", 1)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ScenarioError("seed", f"a whole number ≥ 0 is needed, got {show(seed)}")
        self.seed = seed
        if not isinstance(data["steps"], list) or not data["steps"]:
            raise ScenarioError("steps", "give a list of steps")
        self.steps = [self.step(i, raw) for i, raw in enumerate(data["steps"], 1)]

    def role(self, value: Any, place: str) -> str:
        if value not in engine.ROLES:
            raise ScenarioError(place, f"unknown role {show(value)}; roles: {', '.join(engine.ROLES)}")
        return value

    def player(self, value: Any, place: str) -> str:
        if value not in self.names:
            raise ScenarioError(place, f"unknown player {show(value)}; players: {', '.join(self.names)}")
        return value

    def ref(self, value: Any, place: str) -> Any:
        return value if value in engine.CENTER else self.player(value, place)

    def step(self, n: int, raw: Any) -> dict:
        place = f"step {n}"
        step = dict(check_keys(raw, place=place, allowed=STEP_KEYS, required=("phase",)))
        step["index"] = n
        step["kind"], step["number"] = parse_phase_label(step["phase"], place=f"{place}, key phase",
                                                         kinds=("doppelganger", "night", "day"))
        if "dice" in step:
            step["dice"] = parse_dice(step["dice"], place=f"{place}, key dice")
        for i, action in enumerate(step.get("actions") or [], 1):
            a = check_keys(action, place=f"{place}, action {i}", allowed=ACTION_KEYS, required=("player",))
            self.player(a["player"], f"{place}, action {i}, key player")
            if "role" in a and self.role(a["role"], f"{place}, action {i}, key role") != self.cards[a["player"]]:
                raise ScenarioError(f"{place}, action {i}, key role",
                                    f"{a['player']} was dealt {self.cards[a['player']]}, not {a['role']}")
            if "then" in a:
                check_keys(a["then"], place=f"{place}, action {i}, key then", allowed=THEN_KEYS)
        for i, vote in enumerate(step.get("votes") or [], 1):
            v = check_keys(vote, place=f"{place}, vote {i}", allowed=VOTE_KEYS, required=VOTE_KEYS)
            self.player(v["player"], f"{place}, vote {i}, key player")
            self.player(v["for"], f"{place}, vote {i}, key for")
        expect = check_keys(step.get("expect") or {}, place=f"{place}, key expect", allowed=EXPECT_KEYS)
        for key in ("private_log", "private_log_excludes", "final_cards"):
            for name in expect.get(key) or {}:
                self.player(name, f"{place}, expect.{key}")
        for name in (expect.get("dead") or []) + (expect.get("winners") or []):
            self.player(name, f"{place}, expect")
        for i, r in enumerate(expect.get("rejected") or [], 1):
            check_keys(r, place=f"{place}, expect.rejected[{i}]", allowed=REJECTED_KEYS, required=("player",))
        step["expect"] = expect
        return step

    # -- building and playing ------------------------------------------------------------------------------
    def build(self) -> Game:
        master = scenario_user(MASTER_USERNAME, "Scenario master", host=True)
        options = {**self.options, "deal": [self.cards[n] for n in self.names] + self.center}
        return self.start_game(master=master, names=self.names, options=options, seed=self.seed)

    def payload(self, body: Mapping[str, Any]) -> dict:
        out: dict[str, Any] = {}
        for key, value in body.items():
            if key in ("look", "swap"):
                out[key] = [self.ids.get(v, v) for v in (value if isinstance(value, list) else [value])]
            elif key in ("swap_with", "copy", "take"):
                out[key] = self.ids.get(value, value)
        return out

    def step_phase(self, step: dict) -> tuple[str, int]:
        return step["kind"], step["number"]

    def play_phase(self, step: dict) -> Played:
        """ON-14: a ``night`` step while the doppelganger step is open plays that step first (his ``copy``), then
        the night."""
        phase = self.open_phase()
        played = Played()
        actions = step.get("actions") or []
        if phase is not None and phase.kind == "doppelganger" and step["kind"] == "night":
            for a in actions:  # ON-14: the runner plays the doppelganger step itself
                if "copy" in a:
                    self.submit(phase, a["player"], self.payload({"copy": a["copy"]}), played.refused)
            played.phases.append(self.resolve(phase))
        phase = self.expect_open(step)
        self.fix_dice(phase, step)
        played.refused += self.submit_step(phase, step)
        played.phases.append(self.resolve(phase))
        return played

    def submit_step(self, phase: Phase, step: dict) -> list[dict]:
        refused: list[dict] = []
        for a in step.get("actions") or []:
            if phase.kind == "doppelganger":
                body = {"copy": a["copy"]} if "copy" in a else {k: v for k, v in a.items() if k in THEN_KEYS}
            else:
                body = a.get("then") if "copy" in a else {k: v for k, v in a.items() if k in THEN_KEYS}
            if body:  # roles that only look take no parameters: nothing to order
                self.submit(phase, a["player"], self.payload(body), refused)
        for v in step.get("votes") or []:
            self.submit(phase, v["player"], {"vote": self.ids[v["for"]]}, refused)
        return refused

    # -- expectations --------------------------------------------------------------------------------------------
    def check(self, step: dict, played: Played) -> None:
        expect = step["expect"]
        refused = played.refused
        entries = list(LogEntry.objects.filter(game=self.game).select_related("game").order_by("created_at", "id"))
        state = self.game.state
        names = {str(pk): name for name, pk in self.ids.items()}
        if "rejected" in expect:
            for item in expect["rejected"]:
                if not any(r["player"] == item["player"] and item.get("reason", "") in r["message"]
                           for r in refused):
                    self.fail(step, "rejected", item, refused)
        else:
            self.check_refused(step, refused)
        for key, wanted in (("private_log", True), ("private_log_excludes", False)):
            for name, needles in (expect.get(key) or {}).items():
                mine = [e for e in entries if e.visibility == "seat" and e.seat_id == self.ids[name]]
                self.check_log(step, f"{key}.{name}", mine, needles, wanted=wanted)
        public = [e for e in entries if e.visibility == "public"]
        for key, wanted in (("public_log_contains", True), ("public_log_excludes", False)):
            self.check_log(step, key, public, expect.get(key) or [], wanted=wanted)
        if "final_cards" in expect:
            actual = {name: state["cards"][str(self.ids[name])] for name in expect["final_cards"]}
            if actual != expect["final_cards"]:
                self.fail(step, "final_cards", expect["final_cards"], actual)
        if "final_center" in expect and state["center"] != expect["final_center"]:
            self.fail(step, "final_center", expect["final_center"], state["center"])
        if "dead" in expect:
            dead = sorted(s.display_name for s in Seat.objects.filter(game=self.game, alive=False))
            if dead != sorted(expect["dead"]):
                self.fail(step, "dead", sorted(expect["dead"]), dead)
        outcome = self.game.outcome or {}
        if "winners" in expect:
            actual = sorted(names[str(s)] for s in outcome.get("winning_seats", []))
            if actual != sorted(expect["winners"]):
                self.fail(step, "winners", sorted(expect["winners"]), actual)
        if "winning_teams" in expect and sorted(outcome.get("winners", [])) != sorted(expect["winning_teams"]):
            self.fail(step, "winning_teams", sorted(expect["winning_teams"]), sorted(outcome.get("winners", [])))
        if "next_phase" in expect:
            phase = self.open_phase()
            actual = phase_label(phase) if phase else "none"
            if actual != expect["next_phase"]:
                self.fail(step, "next_phase", expect["next_phase"], actual)


def run(data: Mapping[str, Any], *, name: str = "scenario") -> ScenarioRun:
    """Run one ONUW scenario (the parsed file; ``name`` titles the game) inside the caller's transaction. Returns
    the game and the failed expectations; raises :class:`ScenarioError` for an invalid file."""
    return _Runner.runner(data, name=name)
