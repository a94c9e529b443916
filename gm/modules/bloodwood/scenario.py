"""The Bloodwood scenario runner (``manage.py gm_scenario``, ``game: bloodwood``): section ``bloodwood`` of
``docs/rules/scenario-format.md``, run unchanged.

The runner checks the whole file (the position through the engine's own set-up override, so a file that is not a
table is invalid before anything is built), creates the game with the file's entities fixed (option ``deal``) and
the whole position put on the table by the master's set-up override (option ``position``), seats the players in
list order and starts the game. Each step is one line of one player — moves, Leshy discards, gives, keeps and
refills through :func:`.services.submit_line` (``order_submit`` into the open step), answers through
:func:`.services.react`, declarations through :func:`.services.declare` — or the deadline passing. When every actor
of the open step has answered, the core closes it at once (``phase_complete``) and the runner resolves it through
the deadline entry point; the engine then goes on by itself until a step waits for a player.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from gm.core import services as core
from gm.core.engine import RuleViolation
from gm.core.models import LogEntry, Phase
from gm.core.scenario import (
    MASTER_USERNAME,
    STEP_MOVE,
    Played,
    ScenarioError,
    ScenarioRun,
    ScenarioRunner,
    check_keys,
    resolve_at_deadline,
    scenario_user,
    show,
    unique_username,
)

from . import engine, selectors, services

TOP_KEYS = ("game", "seed", "title", "description", "options", "players", "decks", "discard", "start", "steps")
PLAYER_KEYS = ("name", "entity", "dna", "hand", "curse_mark", "chains", "tranquilizer", "confessed_to")
START_KEYS = ("phase", "to_move", "direction", "starter", "turns_done", "extra_turn")
LINES = ("play", "discard", "react", "give", "keep", "refill", "declare", "deadline")
STEP_KEYS = ("player", "target", *LINES, "expect")
EXPECT_KEYS = ("players", "phase", "to_move", "direction", "starter", "turns_done", "extra_turn", "awaiting",
               "discard_top", "discard_count", "discard", "deck_counts", "decks", "public_log_contains",
               "public_log_excludes", "private_log", "private_log_excludes", "winner", "winners", "rejected")
PLAYER_EXPECT_KEYS = ("dna", "hand", "hand_count", "curse_mark", "chains", "tranquilizer", "in_game", "confessed_to")


class BloodwoodRunner(ScenarioRunner):
    module = "bloodwood"

    # -- the file ---------------------------------------------------------------------------------------------
    def parse(self) -> None:
        data = check_keys(self.data, place="", allowed=TOP_KEYS, required=("game", "players", "steps"))
        players = data["players"]
        if not isinstance(players, list) or not engine.MIN_PLAYERS <= len(players) <= engine.MAX_PLAYERS:
            raise ScenarioError("players", "give 5 to 12 players")
        self.players: list[dict] = []
        for i, raw in enumerate(players, 1):
            place = f"players, player {i}"
            p = check_keys(raw, place=place, allowed=PLAYER_KEYS, required=("name", "entity"))
            if not isinstance(p["name"], str) or not 1 <= len(p["name"]) <= 80:
                raise ScenarioError(f"{place}, key name", "a name of 1 to 80 characters")
            if p["entity"] not in engine.ENTITIES:
                raise ScenarioError(f"{place}, key entity", f"unknown entity {show(p['entity'])}")
            for card in p.get("hand") or []:
                self.card(card, f"{place}, key hand")
            self.players.append(dict(p))
        self.names = [p["name"] for p in self.players]
        if len(set(self.names)) != len(self.names):
            raise ScenarioError("players", "every name must be different")
        self.index = {n: i + 1 for i, n in enumerate(self.names)}
        for p in self.players:
            for other in p.get("confessed_to") or []:
                self.player(other, f"players, {p['name']}, key confessed_to")
        decks = check_keys(data.get("decks") or {}, place="decks", allowed=("night", "day"))
        for kind, cards in decks.items():
            for card in cards or []:
                self.card(card, f"decks, key {kind}")
        for card in data.get("discard") or []:
            self.card(card, "discard")
        start = check_keys(data.get("start") or {}, place="start", allowed=START_KEYS)
        for key in ("to_move", "starter"):
            if key in start:
                self.player(start[key], f"start, key {key}")
        if start.get("direction", "clockwise") not in ("clockwise", "counterclockwise"):
            raise ScenarioError("start, key direction", "clockwise or counterclockwise")
        self.seed = data.get("seed", 1)
        self.title = data.get("title") or f"Scenario: {self.name}"
        self.options = dict(data.get("options") or {})
        self.position = self.position_of(decks, data.get("discard") or [], start)
        entities = [p["entity"] for p in self.players]
        try:
            engine.check_deal(entities, leaders=self.options.get("leaders", True) and any(
                e in ("dracula", "the_alpha") for e in entities) or len(entities) % 2 == 1)
            state = engine.setup(seats=[engine_seat(i, n) for i, n in enumerate(self.names)],
                                 options={**engine.validate_options(self.options, players=len(entities)),
                                          "deal": entities, "position": self.position},
                                 data=selectors.game_data(), rng=random.Random(0)).state
        except RuleViolation as exc:
            raise ScenarioError("players", "; ".join(e.render() for e in exc.errors)) from None
        del state
        self.steps = []
        for i, raw in enumerate(data["steps"] or [], 1):
            place = f"step {i}"
            step = dict(check_keys(raw, place=place, allowed=STEP_KEYS))
            lines = [k for k in LINES if k in step]
            if len(lines) > 1:
                raise ScenarioError(place, f"one line per step, not {', '.join(lines)}")
            if not lines and "expect" not in step:
                raise ScenarioError(place, "a step with no line")
            line = lines[0] if lines else None
            if line not in (None, "deadline") and "player" not in step:
                raise ScenarioError(place, "the line has no player")
            if "player" in step:
                self.player(step["player"], f"{place}, key player")
            if "target" in step:
                self.player(step["target"], f"{place}, key target")
            if line == "declare":
                if not isinstance(step["declare"], list):
                    raise ScenarioError(f"{place}, key declare", "a list of names")
                for n in step["declare"]:
                    self.player(n, f"{place}, key declare")
            if line in ("play", "give") and not isinstance(step[line], str):
                raise ScenarioError(f"{place}, key {line}", "a card slug")
            if line in ("play", "give"):
                self.card(step[line], f"{place}, key {line}")
            if line == "react" and step["react"] not in ("amulet", "mirror", "pass"):
                raise ScenarioError(f"{place}, key react", "amulet, mirror or pass")
            if line == "refill":
                check_keys(step["refill"], place=f"{place}, key refill", allowed=("day", "night"))
            expect = check_keys(step.get("expect") or {}, place=f"{place}, key expect", allowed=EXPECT_KEYS)
            for name, exp in (expect.get("players") or {}).items():
                self.player(name, f"{place}, expect.players")
                check_keys(exp, place=f"{place}, expect.players.{name}", allowed=PLAYER_EXPECT_KEYS)
            for name in (expect.get("private_log") or {}) | (expect.get("private_log_excludes") or {}):
                self.player(name, f"{place}, expect.private_log")
            step["expect"] = expect
            step["line"] = line
            step["index"] = i
            step["label"] = f"{step.get('player', '')} {line or 'expect'}".strip()
            self.steps.append(step)

    def card(self, value: Any, place: str) -> str:
        if value not in engine.CARDS:
            raise ScenarioError(place, f"unknown card {show(value)}")
        return value

    def player(self, value: Any, place: str) -> str:
        if value not in self.names:
            raise ScenarioError(place, f"unknown player {show(value)}; players: {', '.join(self.names)}")
        return value

    def position_of(self, decks: Mapping[str, Any], discard: list, start: Mapping[str, Any]) -> dict:
        """The master's set-up override for the file's table; seats by their number."""
        pos: dict[str, Any] = {
            "entities": [p["entity"] for p in self.players],
            "dna": {str(i + 1): p.get("dna", "purity") for i, p in enumerate(self.players)},
            "hands": {str(i + 1): list(p.get("hand") or []) for i, p in enumerate(self.players)},
            "curse": {str(i + 1): p["curse_mark"] for i, p in enumerate(self.players) if p.get("curse_mark")},
            "chains": [str(i + 1) for i, p in enumerate(self.players) if p.get("chains")],
            "tranq": [str(i + 1) for i, p in enumerate(self.players) if p.get("tranquilizer")],
            "confessed": {str(i + 1): [str(self.index[n]) for n in p.get("confessed_to") or []]
                          for i, p in enumerate(self.players)},
            "decks": {k: list(v or []) for k, v in decks.items()}, "discard": list(discard),
            "phase": start.get("phase", "day"),
            "direction": -1 if start.get("direction") == "counterclockwise" else 1,
            "turns_done": start.get("turns_done", 0), "extra_turn": bool(start.get("extra_turn", False)),
        }
        if "to_move" in start:
            pos["to_move"] = str(self.index[start["to_move"]])
        if "starter" in start:
            pos["starter"] = str(self.index[start["starter"]])
        return pos

    # -- the game ---------------------------------------------------------------------------------------------
    def build(self):
        self.master = scenario_user(MASTER_USERNAME, "Scenario master", host=True)
        options = {**self.options, "deal": [p["entity"] for p in self.players], "position": self.position}
        try:
            game = core.game_create(master=self.master, module="bloodwood", title=self.title, options=options,
                                    rng_seed=self.seed)
            core.game_open_signup(game=game, actor=self.master)
            for i, name in enumerate(self.names, 1):
                core.seat_join(game=game, user=scenario_user(unique_username(f"bw-{i}"), name), display_name=name)
            core.game_start(game=game, actor=self.master)
        except core.ServiceError as exc:
            raise ScenarioError("options", str(exc)) from None
        game.refresh_from_db()
        self.game = game
        self.seats = {s.display_name: s for s in game.seats.select_related("user")}
        self.by_id = {str(s.pk): name for name, s in self.seats.items()}
        return game

    def step_kind(self, step: Mapping[str, Any]) -> str:
        return STEP_MOVE

    def step_phase(self, step: Mapping[str, Any]) -> None:
        return None

    def payload(self, step: Mapping[str, Any], phase: Phase | None) -> dict:
        line = step["line"]
        name = step["player"]
        if line == "play":
            payload: dict[str, Any] = {"move": "play", "card": step["play"]}
            if "target" in step:
                payload["target"] = self.seats[step["target"]].pk
            return payload
        if line == "discard":
            cards = [step["discard"]] if isinstance(step["discard"], str) else list(step["discard"] or [])
            open_step = (self.game.state or {}).get("step") or {}
            if open_step.get("kind") == "discard" and str(self.seats[name].pk) in open_step.get("actors", []):
                return {"discard": cards}
            return {"move": "discard", "cards": cards}
        if line == "give":
            return {"give": step["give"]}
        if line == "keep":
            return {"keep": list(step["keep"] or [])}
        return {"refill": {"day": step["refill"].get("day", 0), "night": step["refill"].get("night", 0)}}

    def play_move(self, step: Mapping[str, Any]) -> Played:
        played = Played()
        line = step["line"]
        phase = self.open_phase()
        self.game.refresh_from_db()
        if line is None:
            return played
        if line == "deadline":
            if phase is None:
                raise ScenarioError(f"step {step['index']}", "no step is open (the game is over)")
            played.phases.append(resolve_at_deadline(phase))
            self.follow(played)
            return played
        user = self.seats[step["player"]].user
        moment = phase.opens_at if phase is not None else None
        clock = (lambda: moment) if moment is not None else None
        kwargs = {"clock": clock} if clock else {}
        try:
            if line == "declare":
                services.declare(game=self.game, user=user, named=[self.seats[n].pk for n in step["declare"]],
                                 **kwargs)
                if phase is not None:
                    self.close_if_due(phase, played)
                return played
            if line == "react":
                services.react(game=self.game, user=user, answer=step["react"], **kwargs)
            else:
                services.submit_line(game=self.game, user=user, payload=self.payload(step, phase), **kwargs)
        except core.ServiceError as exc:
            played.refused.append({"player": step["player"], "code": exc.code, "message": str(exc)})
            if phase is not None:
                self.close_if_due(phase, played)
            return played
        if phase is not None:
            self.close_if_due(phase, played)
        return played

    def close_if_due(self, phase: Phase, played: Played) -> None:
        """Resolve ``phase`` when the core brought its deadline forward (every actor answered, BW-24)."""
        phase.refresh_from_db()
        if phase.status == Phase.Status.OPEN and phase.deadline <= phase.opens_at:
            played.phases.append(resolve_at_deadline(phase))
            self.follow(played)

    def follow(self, played: Played) -> None:
        """Phases the engine resolved by itself after the last one (none today: every phase waits for a player)."""
        self.game.refresh_from_db()

    # -- expectations ---------------------------------------------------------------------------------------------
    def check(self, step: Mapping[str, Any], played: Played) -> None:
        expect = step["expect"]
        self.game.refresh_from_db()
        state = self.game.state or {}
        if "rejected" in expect:
            self.check_rejected(step, played, expect["rejected"])
        else:
            self.check_refused(step, played.refused, key="line of {player}")
        sid = {name: str(seat.pk) for name, seat in self.seats.items()}
        for name, exp in (expect.get("players") or {}).items():
            s = sid[name]
            actual = {
                "dna": state["dna"][s], "hand_count": len(state["hands"][s]), "curse_mark": state["curse"].get(s, 0),
                "chains": s in state["chains"], "tranquilizer": s in state["tranq"], "in_game": s in state["order"],
            }
            for key, want in exp.items():
                if key == "hand":
                    if Counter(state["hands"][s]) != Counter(want or []):
                        self.fail(step, f"players.{name}.hand", want, state["hands"][s])
                elif key == "confessed_to":
                    got = sorted(self.by_id[x] for x in state["confessed"].get(s, []))
                    if got != sorted(want or []):
                        self.fail(step, f"players.{name}.confessed_to", want, got)
                elif actual[key] != want:
                    self.fail(step, f"players.{name}.{key}", want, actual[key])
        simple = {
            "phase": state.get("phase"),
            "to_move": self.by_id.get(state.get("to_move") or "") if not state.get("over") else None,
            "direction": "clockwise" if state.get("direction", 1) == 1 else "counterclockwise",
            "starter": self.by_id.get(state.get("starter") or ""), "turns_done": state.get("turns_done"),
            "extra_turn": bool(state.get("extra_turn")),
            "discard_top": (state.get("discard") or [None])[0], "discard_count": len(state.get("discard") or []),
            "discard": list(state.get("discard") or []),
            "winner": state.get("winner") if state.get("over") else None,
        }
        for key, actual_value in simple.items():
            if key in expect and expect[key] != actual_value:
                self.fail(step, key, expect[key], actual_value)
        if "winners" in expect:
            got = sorted(self.by_id[s] for s in state.get("winners") or [])
            if got != sorted(expect["winners"] or []):
                self.fail(step, "winners", expect["winners"], got)
        if "deck_counts" in expect:
            for kind, n in expect["deck_counts"].items():
                if len(state["decks"][kind]) != n:
                    self.fail(step, f"deck_counts.{kind}", n, len(state["decks"][kind]))
        if "decks" in expect:
            for kind, cards in expect["decks"].items():
                if list(state["decks"][kind]) != list(cards):
                    self.fail(step, f"decks.{kind}", cards, state["decks"][kind])
        if "awaiting" in expect:
            want = expect["awaiting"] or {}
            open_step = state.get("step") or {}
            kind = open_step.get("kind") if not state.get("over") else None
            waiting = []
            phase = self.open_phase()
            if kind and phase is not None:
                answered = set(phase.orders.values_list("seat_id", flat=True))
                waiting = sorted(self.by_id[a] for a in open_step["actors"] if int(a) not in answered)
            actual = {"step": kind or "none", "players": waiting}
            if want.get("step") != actual["step"] or ("players" in want and sorted(want["players"] or []) != waiting):
                self.fail(step, "awaiting", want, actual)
        entries = list(LogEntry.objects.filter(game=self.game, phase__in=[p.pk for p in played.phases])
                       .select_related("game").order_by("pk")) if played.phases else []
        public = [e for e in entries if e.visibility == "public"]
        if "public_log_contains" in expect:
            self.check_log(step, "public_log_contains", public, expect["public_log_contains"])
        if "public_log_excludes" in expect:
            self.check_log(step, "public_log_excludes", public, expect["public_log_excludes"], wanted=False)
        for key, wanted in (("private_log", True), ("private_log_excludes", False)):
            for name, needles in (expect.get(key) or {}).items():
                mine = [e for e in entries if e.visibility == "seat" and e.seat_id == self.seats[name].pk]
                self.check_log(step, f"{key}.{name}", mine, needles, wanted=wanted)

    def check_rejected(self, step: Mapping[str, Any], played: Played, want: Any) -> None:
        refused = played.refused
        if want is False:
            self.check_refused(step, refused, key="line of {player}")
            return
        if not refused:
            self.fail(step, "rejected", want, "accepted")
            return
        if want is True:
            return
        r = refused[0]
        if r.get("code") != want and str(want) not in r["message"]:
            self.fail(step, "rejected", want, f"{r.get('code')}: {r['message']}")


def engine_seat(i: int, name: str):
    from gm.core.engine import SeatInfo

    return SeatInfo(i + 1, name, i)


def run(data: Mapping[str, Any], *, name: str = "scenario") -> ScenarioRun:
    """Run one ``bloodwood`` scenario inside the caller's transaction."""
    return BloodwoodRunner.runner(data, name=name)
