"""Blood Vengeance scenario runner (shell): builds a game from a scenario file (``scenario-format.md``, section
``blood_vengeance``) and plays it through the site's services — ``game_create`` with the fixed deal,
``seat_join``, ``game_start``, the master's ``seat_set_alive`` for the ``alive: false`` players, ``order_submit``
for every vote and the module's action-by-action light service for every light line (the engine's full
validation), ``phase_resolve_due`` as the deadline task calls it — then checks each step's ``expect``.

A night step plays the round its ``phase`` names and every further round of the same night the engine opens and the
step gives a key for (``revote``, ``verdict``, ``arbiter``). The whole file is checked before anything is built.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gm.core import interventions
from gm.core import services as core
from gm.core.models import Game, GroupMembership, LogEntry, Phase, Seat
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
from gm.core.services import ServiceError

from . import engine, services

TOP_KEYS = ("game", "seed", "title", "description", "options", "players", "start", "steps")
OPTION_KEYS = (*engine.VARIANTS, "grimaces", "werewolf_invasion", "wolf_pits", "undercover", "wargs",
               "missed_action", "doomed_info", "secret_lord", "secret_werewolf", "roles_public", "series", "table")
PLAYER_KEYS = ("name", "role", "alive", "hunter_of_hunters", "silenced")
STEP_KEYS = ("phase", "votes", "revote", "verdict", "arbiter", "actions", "dice", "expect")
NIGHT_LINE_KEYS = ("player", "for", "black", "red", "elect", "heir", "delegate")
ACTION_KEYS = ("player", "role", "target", "targets", "mode", "abstain")
EXPECT_KEYS = ("executed", "deaths", "alive", "revealed", "protected", "blocked", "voteless", "learned", "tally",
               "private_log", "private_log_excludes", "public_log_contains", "public_log_excludes", "next_phase",
               "winner", "winners", "points", "rejected")
RESERVED = ("yes", "no", "none", "hunters")
#: Round kind → the step key holding its lines.
ROUND_KEYS = {"night": "votes", "defence": "revote", "verdict": "verdict", "arbiter": "arbiter"}
CODE = re.compile(r"code (\w+)")


class _Runner(ScenarioRunner):
    module = "blood_vengeance"

    # -- checking the file ---------------------------------------------------------------------------------
    def parse(self) -> None:
        data = check_keys(self.data, place="", allowed=TOP_KEYS, required=("game", "players", "steps"))
        players = data["players"]
        if not isinstance(players, list) or not players:
            raise ScenarioError("players", "give a list of players, e.g. [{name: A, role: vampire}]")
        self.names: list[str] = []
        self.cards: dict[str, str] = {}
        self.dead_at_start: list[str] = []
        self.flags: dict[str, dict] = {}
        for i, raw in enumerate(players, 1):
            p = check_keys(raw, place=f"players[{i}]", allowed=PLAYER_KEYS, required=("name", "role"))
            name = p["name"]
            if not isinstance(name, str) or not 1 <= len(name) <= 80 or name in self.names or \
                    name.lower() in RESERVED:
                raise ScenarioError(f"players[{i}], key name", f"a unique name is needed, got {show(name)}")
            if p["role"] not in engine.ROLES:
                raise ScenarioError(f"players[{i}], key role",
                                    f"unknown card {show(p['role'])}; cards: {', '.join(engine.ROLES)}")
            self.names.append(name)
            self.cards[name] = p["role"]
            if p.get("alive") is False:
                self.dead_at_start.append(name)
            self.flags[name] = {k: bool(p.get(k)) for k in ("hunter_of_hunters", "silenced")}
        options = dict(check_keys(data.get("options") or {}, place="options", allowed=OPTION_KEYS))
        self.options = options
        seed = data.get("seed", 1)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ScenarioError("seed", f"a whole number ≥ 0 is needed, got {show(seed)}")
        self.seed = seed
        self.start = parse_phase_label(data.get("start", "night 1"), place="start", kinds=("night", "light"))
        if not isinstance(data["steps"], list) or not data["steps"]:
            raise ScenarioError("steps", "give a list of steps")
        self.steps = [self.step(i, raw) for i, raw in enumerate(data["steps"], 1)]

    def player(self, value: Any, place: str) -> str:
        if value not in self.names:
            raise ScenarioError(place, f"unknown player {show(value)}; players: {', '.join(self.names)}")
        return value

    def step(self, n: int, raw: Any) -> dict:
        place = f"step {n}"
        step = dict(check_keys(raw, place=place, allowed=STEP_KEYS, required=("phase",)))
        step["index"] = n
        step["kind"], step["number"] = parse_phase_label(step["phase"], place=f"{place}, key phase",
                                                         kinds=("night", "defence", "verdict", "arbiter", "light"))
        night = step["kind"] != "light"
        if night and "actions" in step:
            raise ScenarioError(f"{place}, key actions", "a night step has no light actions")
        if not night and any(k in step for k in ROUND_KEYS.values()):
            raise ScenarioError(f"{place}", "a light step has no night lines")
        if "dice" in step:
            step["dice"] = parse_dice(step["dice"], place=f"{place}, key dice")
        for key in ROUND_KEYS.values():
            for i, line in enumerate(step.get(key) or [], 1):
                v = check_keys(line, place=f"{place}, {key} {i}", allowed=NIGHT_LINE_KEYS, required=("player",))
                self.player(v["player"], f"{place}, {key} {i}, key player")
                for k in ("black", "red", "elect", "heir", "delegate"):
                    if k in v:
                        self.player(v[k], f"{place}, {key} {i}, key {k}")
                if "for" in v and key != "verdict":
                    for t in v["for"] if isinstance(v["for"], list) else [v["for"]]:
                        self.player(t, f"{place}, {key} {i}, key for")
                if key == "verdict" and v.get("for") not in ("yes", "no", True, False):
                    raise ScenarioError(f"{place}, verdict {i}, key for", "\"yes\" or \"no\"")
        for i, line in enumerate(step.get("actions") or [], 1):
            a = check_keys(line, place=f"{place}, action {i}", allowed=ACTION_KEYS, required=("player", "role"))
            self.player(a["player"], f"{place}, action {i}, key player")
            if a["role"] not in engine.ROLES and a["role"] != engine.GATHERING:
                raise ScenarioError(f"{place}, action {i}, key role", f"unknown ability {show(a['role'])}")
            for t in ([a["target"]] if "target" in a else []) + list(a.get("targets") or []):
                self.player(t, f"{place}, action {i}, key target")
        expect = check_keys(step.get("expect") or {}, place=f"{place}, key expect", allowed=EXPECT_KEYS)
        for key in ("alive", "revealed", "learned", "private_log", "private_log_excludes", "points"):
            for name in expect.get(key) or {}:
                self.player(name, f"{place}, expect.{key}")
        for key in ("executed", "protected", "blocked", "voteless", "winners"):
            for name in expect.get(key) or []:
                self.player(name, f"{place}, expect.{key}")
        step["expect"] = expect
        return step

    # -- building and playing ------------------------------------------------------------------------------
    def build(self) -> Game:
        master = scenario_user(MASTER_USERNAME, "Scenario master", host=True)
        options: dict[str, Any] = {**self.options, "deal": [self.cards[n] for n in self.names],
                                   "start": f"{self.start[0]} {self.start[1]}"}
        hoh = [i for i, n in enumerate(self.names) if self.flags[n]["hunter_of_hunters"]]
        if hoh:
            options["hoh_seat"] = hoh[0]
        silenced = [i for i, n in enumerate(self.names) if self.flags[n]["silenced"]]
        if silenced:
            options["silenced_seats"] = silenced
        game = self.start_game(master=master, names=self.names, options=options, seed=self.seed)
        self.by_id = {str(pk): name for name, pk in self.ids.items()}
        for name in self.dead_at_start:  # BV-9.3: the set-up position, no victory check
            interventions.seat_set_alive(game=game, actor=master, seat_id=self.ids[name], alive=False,
                                         reason=f"Scenario {self.name}: dead at the start")
        game.refresh_from_db()
        return game

    def step_phase(self, step: dict) -> tuple[str, int]:
        return step["kind"], step["number"]

    def play_phase(self, step: dict) -> Played:
        """One step: a whole light phase, or a night's rounds as far as the step gives keys for them."""
        self.mark = LogEntry.objects.filter(game=self.game).order_by("-id").values_list("id", flat=True).first() or 0
        self.executions_before = int((self.game.state or {}).get("executions") or 0)
        phase = self.expect_open(step)
        self.fix_dice(phase, step)
        played = Played()
        if step["kind"] == "light":
            played.refused += self.submit_light(phase, step)
            played.phases.append(self.resolve(phase))
            return played
        used = set()
        while True:
            key = ROUND_KEYS[phase.kind]
            used.add(key)
            played.refused += self.submit_round(phase, step.get(key) or [], key)
            played.phases.append(self.resolve(phase))
            self.game.refresh_from_db()
            nxt = self.open_phase()
            if nxt is None or nxt.kind not in ROUND_KEYS or nxt.number != step["number"] or nxt.kind == "night":
                break
            if ROUND_KEYS[nxt.kind] not in step:
                break
            phase = nxt
        for key in ROUND_KEYS.values():
            if key in step and key not in used:
                kind = next(k for k, v in ROUND_KEYS.items() if v == key)
                nxt = self.open_phase()
                self.fail(step, key, f"a {kind} round", phase_label(nxt) if nxt else "none")
        return played

    def _refused(self, exc: ServiceError, record: dict, refused: list[dict]) -> None:
        message = str(exc)
        found = CODE.search(message)
        code = found.group(1) if found else ("dead" if exc.code == "not_allowed" else exc.code)
        refused.append({**record, "message": message, "code": code})

    def submit_round(self, phase: Phase, lines: list, key: str) -> list[dict]:
        """A night round's lines: each is one vote order; a player's lines merge, a refused one is left out."""
        refused: list[dict] = []
        merged: dict[str, dict] = {}
        for line in lines:
            player = line["player"]
            body: dict[str, Any] = {}
            record: dict[str, Any] = {"player": player}
            if key == "verdict":
                answer = line["for"]
                answer = "yes" if answer is True else "no" if answer is False else answer
                body["verdict"] = answer
                record["verdict"] = answer
            elif "for" in line:
                value = line["for"]
                body["vote"] = [self.ids[v] for v in value] if isinstance(value, list) else self.ids[value]
                record["arbiter" if key == "arbiter" else ("revote" if key == "revote" else "vote")] = value
            for k in ("black", "red", "elect", "heir", "delegate"):
                if k in line:
                    body[k] = self.ids[line[k]]
                    record[k] = line[k]
            payload = {**merged.get(player, {}), **body}
            try:
                core.order_submit(phase=phase, user=self.seats[player].user, payload=payload,
                                  clock=lambda: phase.opens_at)
            except ServiceError as exc:
                self._refused(exc, record, refused)
                continue
            merged[player] = payload
        return refused

    def submit_light(self, phase: Phase, step: dict) -> list[dict]:
        """The light lines: each goes action by action into the player's one light order (BV-14.4a)."""
        refused: list[dict] = []
        for line in step.get("actions") or []:
            action: dict[str, Any] = {"role": line["role"]}
            if "target" in line:
                action["target"] = self.ids[line["target"]]
            if "targets" in line:
                action["targets"] = [self.ids[t] for t in line["targets"]]
            for k in ("mode", "abstain"):
                if k in line:
                    action[k] = line[k]
            record = {"player": line["player"], "role": line["role"]}
            try:
                result = services.submit_actions(game=self.game, user=self.seats[line["player"]].user,
                                                 phase_id=phase.pk, actions=[action], clock=lambda: phase.opens_at)
            except ServiceError as exc:
                self._refused(exc, record, refused)
                continue
            for r in result.refused:
                refused.append({**record, "message": r["message"], "code": r["code"]})
        return refused

    # -- expectations --------------------------------------------------------------------------------------------
    def check(self, step: dict, played: Played) -> None:
        expect = step["expect"]
        self.game.refresh_from_db()
        state = self.game.state or {}
        entries = list(LogEntry.objects.filter(game=self.game, id__gt=self.mark).select_related("game", "phase")
                       .order_by("created_at", "id"))
        public = [e for e in entries if e.visibility == "public"]
        name = self.by_id.get
        self.check_rejected(step, played.refused, expect)
        executed = [name(s) for e in public if e.kind == "bv.executed" for s in e.data.get("seats", [])]
        if "executed" in expect and sorted(executed) != sorted(expect["executed"]):
            self.fail(step, "executed", sorted(expect["executed"]), sorted(executed))
        if "deaths" in expect:
            deaths = []
            for e in public:
                if e.kind == "bv.executed":
                    deaths += [{"player": name(s), "announced": phase_label(e.phase)} for s in e.data["seats"]]
                elif e.kind == "bv.nightfall":
                    label = f"night {e.phase.number + 1}"
                    deaths += [{"player": name(s), "announced": label} for s in e.data["seats"]]
            want = sorted((d["player"], d["announced"]) for d in expect["deaths"])
            got = sorted((d["player"], d["announced"]) for d in deaths)
            if want != got:
                self.fail(step, "deaths", expect["deaths"], deaths)
        if "alive" in expect:
            alive = dict(Seat.objects.filter(game=self.game).values_list("display_name", "alive"))
            actual = {n: alive[n] for n in expect["alive"]}
            if actual != expect["alive"]:
                self.fail(step, "alive", expect["alive"], actual)
        if "revealed" in expect:
            revealed = {name(s): c for e in public if e.kind in ("bv.executed", "bv.nightfall")
                        for s, c in (e.data.get("cards") or {}).items()}
            if revealed != expect["revealed"]:
                self.fail(step, "revealed", expect["revealed"], revealed)
        trace = [e for e in entries if e.kind == "bv.trace_light"]
        for key in ("protected", "blocked"):
            if key in expect:
                actual = sorted(name(s) for e in trace for s in e.data.get(key, []))
                if actual != sorted(expect[key]):
                    self.fail(step, key, sorted(expect[key]), actual)
        if "voteless" in expect:
            actual = sorted(name(s) for s in engine.living(state) if not engine.has_vote(state, s)) \
                if state.get("stage") != "over" else []
            if actual != sorted(expect["voteless"]):
                self.fail(step, "voteless", sorted(expect["voteless"]), actual)
        if "learned" in expect:
            for player, wanted in expect["learned"].items():
                actual = self.learned(entries, self.ids[player])
                if actual != wanted:
                    self.fail(step, f"learned.{player}", wanted, actual)
        if "tally" in expect:
            self.check_tally(step, expect["tally"], public)
        for key, wanted in (("private_log", True), ("private_log_excludes", False)):
            for player, needles in (expect.get(key) or {}).items():
                seat = self.seats[player]
                groups = set(GroupMembership.objects.filter(seat=seat).values_list("group", flat=True))
                mine = [e for e in entries if (e.visibility == "seat" and e.seat_id == seat.pk)
                        or (e.visibility == "group" and e.group in groups)]
                self.check_log(step, f"{key}.{player}", mine, needles, wanted=wanted)
        for key, wanted in (("public_log_contains", True), ("public_log_excludes", False)):
            self.check_log(step, key, public, expect.get(key) or [], wanted=wanted)
        if "next_phase" in expect:
            phase = self.open_phase()
            actual = phase_label(phase) if phase else "none"
            if actual != expect["next_phase"]:
                self.fail(step, "next_phase", expect["next_phase"], actual)
        if "winner" in expect and state.get("winner") != expect["winner"]:
            self.fail(step, "winner", expect["winner"], state.get("winner"))
        outcome = self.game.outcome or {}
        if "winners" in expect:
            actual = sorted(name(str(s)) for s in outcome.get("winning_seats", []))
            if actual != sorted(expect["winners"]):
                self.fail(step, "winners", sorted(expect["winners"]), actual)
        if "points" in expect:
            points = state.get("points") or {}
            actual = {n: int(points.get(str(self.ids[n]), 0)) for n in expect["points"]}
            if actual != expect["points"]:
                self.fail(step, "points", expect["points"], actual)

    def check_rejected(self, step: dict, refused: list[dict], expect: dict) -> None:
        if "rejected" not in expect:
            self.check_refused(step, refused)
            return
        left = list(refused)
        for item in expect["rejected"]:
            keys = {k: v for k, v in item.items() if k != "reason"}
            match = next((r for r in left if all(r.get(k) == v for k, v in keys.items())
                          and (not item.get("reason") or item["reason"] == r.get("code")
                               or item["reason"] in r["message"])), None)
            if match is None:
                self.fail(step, "rejected", item, [{k: v for k, v in r.items() if k != "message"} for r in left])
            else:
                left.remove(match)
        for r in left:
            self.fail(step, "rejected", "not refused", {k: v for k, v in r.items() if k != "message"})

    def learned(self, entries: list, seat_id: int) -> Any:
        mine = [e for e in entries if e.visibility == "seat" and e.seat_id == seat_id]
        for e in reversed(mine):
            d = e.data
            if e.kind == "bv.learned_type":
                return d["type"]
            if e.kind in ("bv.learned_killer", "bv.learned_vampire"):
                return d["answer"]
            if e.kind == "bv.learned_count":
                return d["count"]
            if e.kind == "bv.learned_watch":
                return [self.by_id[s] for s in d["seats"]] + (["hunters"] if d.get("hunters") else [])
            if e.kind == "bv.blocked":
                return "blocked"
            if e.kind == "bv.no_action":
                return "none"
        return "none"

    def check_tally(self, step: dict, wanted: Mapping[str, Any], public: list) -> None:
        rounds = {"votes": "night", "revote": "defence"}
        for key, expected in wanted.items():
            if key == "verdict":
                e = next((e for e in public if e.kind == "bv.verdict_tally"), None)
                actual = {"yes": e.data["weight"], "no": e.data.get("weight_no", 0)} if e else None
            else:
                e = next((e for e in public if e.kind == "bv.tally" and e.data.get("round") == rounds.get(key)),
                         None)
                actual = {self.by_id[s]: n for s, n in (e.data.get("totals") or {}).items() if n} if e else None
            if actual != expected:
                self.fail(step, f"tally.{key}", expected, actual)


def run(data: Mapping[str, Any], *, name: str = "scenario") -> ScenarioRun:
    """Run one Blood Vengeance scenario (the parsed file; ``name`` titles the game) inside the caller's transaction.
    Returns the game and the failed expectations; raises :class:`ScenarioError` for an invalid file."""
    return _Runner.runner(data, name=name)

