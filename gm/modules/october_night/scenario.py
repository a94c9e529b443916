"""October Night scenario runner (shell): builds a game from a scenario file in the shape of
``docs/rules/scenario-format.md`` § ``october_night`` and plays it through the site's services — ``game_create`` with
the file's data set, sides, characters and start position (the module's ``sides``, ``characters`` and ``position``
options), ``seat_join``, ``game_start``, ``order_submit`` after every line (the engine's full validation), fixed dice
through the core's ``phase_dice_fix`` (``dice:``), ``phase_resolve_due`` as the deadline task calls it — then checks
each step's ``expect``. The whole file is checked before anything is built.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from gm.core.engine import RuleViolation
from gm.core.models import Game, LogEntry, Phase
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
from .selectors import default_data, shipped_data

TOP_KEYS = ("game", "seed", "title", "description", "data", "options", "players", "enemies", "enemy_pool", "decks",
            "reserve", "mysteries", "ritual_place", "start", "steps")
PLAYER_KEYS = ("name", "side", "character", "location", "health", "experience", "skills", "assets", "ingredients",
               "clues", "abilities", "used", "last_action", "contact", "personal_drawn", "out", "declared")
STEP_KEYS = ("phase", "dice", "actions", "contacts", "ritual", "expect")
LINE_KEYS = ("player", "action", "target", "with", "give", "get", "cards", "to", "take", "discard", "accept_trade",
             "ability", "pay", "learn", "use", "side", "contact", "section", "enemy", "deadly_fight")
EXPECT_KEYS = ("players", "out", "revealed", "enemies", "enemy_pool", "reserve", "decks", "mysteries", "ritual_place",
               "checks", "fights", "ritual", "rejected", "voided", "private_log", "private_log_excludes",
               "public_log_contains", "public_log_excludes", "next_phase", "winner", "winners")
#: The line kinds a ``rejected`` / ``voided`` item may name.
LINE_KINDS = ("action", "ability", "learn", "use", "accept_trade", "side", "contact", "deadly_fight")


class _Runner(ScenarioRunner):
    module = "october_night"

    # -- checking the file ---------------------------------------------------------------------------------
    def parse(self) -> None:
        data = check_keys(self.data, place="", allowed=TOP_KEYS, required=("game", "players", "steps"))
        seed = data.get("seed", 1)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ScenarioError("seed", f"a whole number ≥ 0 is needed, got {show(seed)}")
        self.seed = seed
        overrides = data.get("data", "default")
        if overrides in (None, "default"):
            self.overrides: dict = {}
        elif isinstance(overrides, Mapping):
            self.overrides = dict(overrides)
        else:
            raise ScenarioError("data", f"`default` or a mapping of overrides, got {show(overrides)}")
        try:
            self.gamedata = engine.merge_data(default_data(), self.overrides)
        except (ValueError, TypeError, AttributeError) as exc:
            raise ScenarioError("data", str(exc)) from None
        errors = engine.validate_data(self.gamedata)
        if errors:
            raise ScenarioError(f"data, {errors[0].field}", errors[0].render())
        options = dict(data.get("options") or {})
        options.pop("role_deck", None)
        check_keys(options, place="options", allowed=("first_week_bonus",))
        self.options = options
        players = data["players"]
        if not isinstance(players, list) or not 3 <= len(players) <= 5:
            raise ScenarioError("players", "give 3 to 5 players")
        self.names: list[str] = []
        self.players: list[dict] = []
        for i, raw in enumerate(players, 1):
            place = f"players[{i}]"
            p = dict(check_keys(raw, place=place, allowed=PLAYER_KEYS, required=("name", "side", "character")))
            if not isinstance(p["name"], str) or not 1 <= len(p["name"]) <= 80 or p["name"] in self.names:
                raise ScenarioError(f"{place}, key name", f"a unique name is needed, got {show(p['name'])}")
            if p["side"] not in engine.SIDE_CARDS:
                raise ScenarioError(f"{place}, key side", f"unknown side {show(p['side'])}")
            self.slug(p["character"], "characters", f"{place}, key character")
            if "location" in p:
                self.slug(p["location"], "locations", f"{place}, key location")
            for key, section in (("assets", "assets"), ("ingredients", "ingredients"), ("abilities", "abilities"),
                                 ("used", "abilities")):
                for v in p.get(key) or []:
                    self.slug(v, section, f"{place}, key {key}")
            if "declared" in p and p["side"] != "chosen":
                raise ScenarioError(f"{place}, key declared", "only the chosen declares a side")
            if p.get("contact"):
                card = p["contact"].get("card") if isinstance(p["contact"], Mapping) else None
                if not any(card in engine.by_slug(self.gamedata, s) for s in
                           ("search_contacts", "combat_contacts", "personal_contacts")):
                    raise ScenarioError(f"{place}, key contact", f"unknown contact card {show(card)}")
            self.names.append(p["name"])
            self.players.append(p)
        if len({p["character"] for p in self.players}) != len(self.players):
            raise ScenarioError("players", "each character at most once")
        for i, e in enumerate(data.get("enemies") or [], 1):
            e = check_keys(e, place=f"enemies[{i}]", allowed=("token", "location", "owner", "health", "revealed"),
                           required=("token",))
            self.slug(e["token"], "enemies", f"enemies[{i}], key token")
            if e.get("owner") is not None:
                self.player(e["owner"], f"enemies[{i}], key owner")
        for tok in data.get("enemy_pool") or []:
            self.slug(tok, "enemies", "enemy_pool")
        start = check_keys(data.get("start") or {}, place="start", allowed=("week", "day", "phase"))
        if start.get("phase", "action") not in ("action", "contact"):
            raise ScenarioError("start, key phase", "action or contact")
        self.position = {k: data[k] for k in ("enemies", "enemy_pool", "decks", "reserve", "mysteries",
                                              "ritual_place", "start") if k in data}
        if not isinstance(data["steps"], list) or not data["steps"]:
            raise ScenarioError("steps", "give a list of steps")
        self.steps = [self.step(i, raw) for i, raw in enumerate(data["steps"], 1)]

    def slug(self, value: Any, section: str, place: str) -> str:
        if value not in engine.by_slug(self.gamedata, section):
            raise ScenarioError(place, f"unknown {section} slug {show(value)}")
        return value

    def player(self, value: Any, place: str) -> str:
        if value not in self.names:
            raise ScenarioError(place, f"unknown player {show(value)}; players: {', '.join(self.names)}")
        return value

    def step(self, n: int, raw: Any) -> dict:
        place = f"step {n}"
        step = dict(check_keys(raw, place=place, allowed=STEP_KEYS, required=("phase",)))
        step["index"] = n
        label = str(step["phase"])
        if label == "ritual":
            step["kind"], step["number"] = "ritual", 1
        else:
            step["kind"], step["number"] = parse_phase_label(label, place=f"{place}, key phase",
                                                             kinds=("action", "contact"))
        if "dice" in step:
            step["dice"] = parse_dice(step["dice"], place=f"{place}, key dice")
        allowed = {"action": "actions", "contact": "contacts", "ritual": "ritual"}[step["kind"]]
        for key in ("actions", "contacts", "ritual"):
            if key in step and key != allowed:
                raise ScenarioError(f"{place}, key {key}", f"not in a {step['kind']} step")
        for i, line in enumerate(step.get(allowed) or [], 1):
            line = check_keys(line, place=f"{place}, line {i}", allowed=LINE_KEYS, required=("player",))
            self.player(line["player"], f"{place}, line {i}, key player")
        expect = check_keys(step.get("expect") or {}, place=f"{place}, key expect", allowed=EXPECT_KEYS)
        for key in ("players", "private_log", "private_log_excludes", "revealed"):
            for name in expect.get(key) or {}:
                self.player(name, f"{place}, expect.{key}")
        for name in (expect.get("out") or []) + (expect.get("winners") or []):
            self.player(name, f"{place}, expect")
        step["expect"] = expect
        return step

    # -- building and playing ------------------------------------------------------------------------------
    def build(self) -> Game:
        master = scenario_user(MASTER_USERNAME, "Scenario master", host=True)
        position = {**self.position, "players": [{k: v for k, v in p.items() if k not in ("name", "side",
                                                                                          "character")}
                                                 for p in self.players]}
        options: dict[str, Any] = {**self.options, "sides": [p["side"] for p in self.players],
                                   "characters": [p["character"] for p in self.players], "position": position}
        if self.overrides:
            options["data"] = self.overrides
        with shipped_data():  # the file is written against the shipped set, whatever the site's active one
            game = self.start_game(master=master, names=self.names, options=options, seed=self.seed)
        self.sids = {str(pk): name for name, pk in self.ids.items()}
        return game

    def step_phase(self, step: dict) -> tuple[str, int]:
        return step["kind"], step["number"]

    def play_phase(self, step: dict) -> Played:
        self.last_entry = LogEntry.objects.filter(game=self.game).order_by("-id").values_list("id", flat=True).first()
        return super().play_phase(step)

    def line_payload(self, line: Mapping[str, Any], order: dict) -> tuple[str, str, dict]:
        """(line kind, what it names, the player's whole order with this line) — the runner keeps one order per
        player: ``action``/``contact`` replace, ``ability``/``use``/``accept_trade`` add, ``learn``/``side``
        replace."""
        new = {k: (list(v) if isinstance(v, list) else v) for k, v in order.items()}
        ids = self.ids
        if "action" in line:
            kind = line["action"]
            body: dict[str, Any] = {"kind": kind}
            for key in ("target", "with"):
                if key in line:
                    body[key] = ids.get(line[key], line[key])
            for key in ("give", "get", "cards", "take", "to", "discard"):
                if key in line:
                    body[key] = line[key]
            new["action"] = body
            return "action", kind, new
        if "contact" in line:
            body = {"kind": line["contact"]}
            for key in ("section", "enemy"):
                if key in line:
                    body[key] = line[key]
            new["contact"] = body
            return "contact", line["contact"], new
        if "accept_trade" in line:
            new.setdefault("accept_trades", []).append({"from": ids.get(line["accept_trade"], line["accept_trade"]),
                                                        "give": line.get("give") or [], "get": line.get("get") or []})
            return "accept_trade", line["accept_trade"], new
        if "ability" in line:
            item: dict[str, Any] = {"ability": line["ability"]}
            if "target" in line:
                item["target"] = ids.get(line["target"], line["target"])
            if "pay" in line:
                item["pay"] = line["pay"]
            new.setdefault("abilities", []).append(item)
            return "ability", line["ability"], new
        if "use" in line:
            new.setdefault("use", []).append(line["use"])
            return "use", line["use"], new
        if "learn" in line:
            new["learn"] = line["learn"]
            return "learn", line["learn"], new
        if "side" in line:
            new["side"] = line["side"]
            return "side", line["side"], new
        if line.get("deadly_fight"):
            new["deadly_fight"] = True
            return "deadly_fight", "true", new
        raise ScenarioError(f"step {self.current}", f"a line without a known kind: {show(dict(line))}")

    def codes(self, phase: Phase, player: str, payload: dict) -> list[str]:
        """The OC-18 codes the engine refuses ``payload`` with (the same check ``order_submit`` made)."""
        try:
            engine.validate_order(self.game.state, kind=phase.kind, sid=str(self.ids[player]), payload=payload)
        except RuleViolation as exc:
            return [str(e.params.get("code", "")) for e in exc.errors]
        return []

    def submit_step(self, phase: Phase, step: dict) -> list[dict]:
        self.current = step["index"]
        refused: list[dict] = []
        orders: dict[str, dict] = {}
        lines = step.get({"action": "actions", "contact": "contacts", "ritual": "ritual"}[step["kind"]]) or []
        for line in lines:
            player = line["player"]
            kind, what, payload = self.line_payload(line, orders.get(player, {}))
            before = len(refused)
            if self.submit(phase, player, payload, refused, kind=kind, what=what):
                orders[player] = payload
            else:
                refused[before]["codes"] = self.codes(phase, player, payload)
        return refused

    # -- expectations --------------------------------------------------------------------------------------------
    def pname(self, sid: Any) -> Any:
        return self.sids.get(str(sid), sid) if sid is not None else None

    def compare(self, step: dict, key: str, expected: Any, actual: Any) -> None:
        if expected != actual:
            self.fail(step, key, expected, actual)

    @staticmethod
    def line_matches(item: Mapping[str, Any], kind: str, what: Any, codes: list[str], message: str) -> bool:
        keys = [k for k in item if k in LINE_KINDS]
        if keys:
            k = keys[0]
            if k != kind or (k != "deadly_fight" and str(item[k]) != str(what)):
                return False
        reason = item.get("reason")
        return not reason or reason in codes or reason in message

    def check(self, step: dict, played: Played) -> None:
        expect = step["expect"]
        state = self.game.state
        entries = list(LogEntry.objects.filter(game=self.game, id__gt=self.last_entry or 0)
                       .select_related("game").order_by("id"))
        public = [e for e in entries if e.visibility == "public"]
        if "rejected" in expect:
            wanted = list(expect["rejected"] or [])
            refusals = list(played.refused)
            for item in wanted:
                hit = next((r for r in refusals if r["player"] == item.get("player") and self.line_matches(
                    item, r.get("kind", ""), r.get("what"), r.get("codes") or [], r["message"])), None)
                if hit is None:
                    self.fail(step, "rejected", item, [{k: r.get(k) for k in ("player", "kind", "what", "codes")}
                                                       for r in played.refused])
                else:
                    refusals.remove(hit)
            for r in refusals:
                self.fail(step, "rejected", "not refused", {k: r.get(k) for k in ("player", "kind", "what", "codes")})
        else:
            self.check_refused(step, played.refused)
        if "voided" in expect:
            voids = [e.data for e in public if e.kind == "oc.void"]
            kinds = {"rest": "action", "heal": "action", "trade": "action", "buy": "action", "travel": "action",
                     "fight": "action", "ally": "action", "foil": "action"}
            left = list(voids)
            for item in expect["voided"] or []:
                hit = next((v for v in left if v.get("player") == item.get("player") and self.line_matches(
                    item, kinds.get(v.get("line", ""), v.get("line", "")), v.get("line") if kinds.get(
                        v.get("line", "")) else v.get("ability") or v.get("card"), [v.get("code", "")], "")), None)
                if hit is None:
                    self.fail(step, "voided", item, voids)
                else:
                    left.remove(hit)
            if left:
                self.fail(step, "voided", expect["voided"], voids)
        for key, wanted in (("private_log", True), ("private_log_excludes", False)):
            for name, needles in (expect.get(key) or {}).items():
                mine = [e for e in entries if e.visibility == "seat" and e.seat_id == self.ids[name]]
                self.check_log(step, f"{key}.{name}", mine, needles, wanted=wanted)
        for key, wanted in (("public_log_contains", True), ("public_log_excludes", False)):
            if key in expect:
                self.check_log(step, key, public, expect[key] or [], wanted=wanted)
        self.check_players(step, expect, state)
        self.check_board(step, expect, state)
        if "checks" in expect:
            actual = [e.data for e in public if e.kind == "oc.check"]
            self.check_rows(step, "checks", expect["checks"], actual, self.check_row)
        if "fights" in expect:
            actual = [e.data for e in public if e.kind == "oc.fight"]
            self.check_rows(step, "fights", expect["fights"], actual, self.fight_row)
        if "ritual" in expect:
            r = state.get("ritual") or {}
            row = {"admitted": {self.pname(s): v for s, v in (r.get("admitted") or {}).items()},
                   "dropped": [self.pname(s) for s in r.get("dropped") or []], "sums": r.get("sums"),
                   "mode": r.get("mode"), "values": r.get("values")}
            for k, v in expect["ritual"].items():
                actual = row.get(k)
                if k == "dropped":
                    v, actual = sorted(v), sorted(actual or [])
                self.compare(step, f"ritual.{k}", v, actual)
        if "next_phase" in expect:
            phase = self.open_phase()
            actual = ("ritual" if phase.kind == "ritual" else phase_label(phase)) if phase else "none"
            self.compare(step, "next_phase", expect["next_phase"], actual)
        if "winner" in expect:
            self.compare(step, "winner", expect["winner"], state.get("winner"))
        if "winners" in expect:
            self.compare(step, "winners", sorted(expect["winners"]),
                         sorted(self.pname(s) for s in state.get("winners") or []))

    def check_players(self, step: dict, expect: dict, state: dict) -> None:
        for name, wanted in (expect.get("players") or {}).items():
            p = state["players"][str(self.ids[name])]
            for key, value in wanted.items():
                if key in ("assets", "ingredients"):
                    self.compare(step, f"players.{name}.{key}", Counter(value), Counter(p[key]))
                elif key in ("abilities", "used"):
                    self.compare(step, f"players.{name}.{key}", sorted(value), sorted(p[key]))
                elif key == "skills":
                    self.compare(step, f"players.{name}.skills", value, {k: p["skills"][k] for k in value})
                elif key == "contact":
                    c = p.get("contact")
                    actual = None if not c else ({"card": c["card"]} if c["type"] == "combat" else
                                                 {"card": c["card"], "done": c["done"]})
                    self.compare(step, f"players.{name}.contact", value, actual)
                elif key == "declared":
                    self.compare(step, f"players.{name}.declared", value,
                                 (state.get("declared") or {}).get(str(self.ids[name])))
                elif key == "last_action":
                    self.compare(step, f"players.{name}.last_action", value, p.get("last_action", "none"))
                else:
                    self.compare(step, f"players.{name}.{key}", value, p.get(key))
        if "out" in expect:
            self.compare(step, "out", sorted(expect["out"]),
                         sorted(self.pname(s) for s in state["seats"] if state["players"][s].get("out")))
        if "revealed" in expect:
            self.compare(step, "revealed", expect["revealed"],
                         {self.pname(s): v for s, v in engine.revealed(state).items()})

    def check_board(self, step: dict, expect: dict, state: dict) -> None:
        if "enemies" in expect:
            actual = [{**e, "owner": self.pname(e["owner"])} for e in state["enemies"]]
            left = list(actual)
            for item in expect["enemies"] or []:
                hit = next((e for e in left if all(e.get(k) == v for k, v in item.items())), None)
                if hit is None:
                    self.fail(step, "enemies", item, actual)
                else:
                    left.remove(hit)
            if left:
                self.fail(step, "enemies", expect["enemies"], actual)
        if "enemy_pool" in expect:
            self.compare(step, "enemy_pool", expect["enemy_pool"], state["bag"])
        if "reserve" in expect:
            self.compare(step, "reserve", Counter(expect["reserve"]), Counter(c for c in state["reserve"] if c))
        for deck, wanted in (expect.get("decks") or {}).items():
            self.compare(step, f"decks.{deck}", wanted, state["decks"].get(deck))
        if "mysteries" in expect:
            m = expect["mysteries"]
            if "solved" in m:
                self.compare(step, "mysteries.solved", sorted(m["solved"]), sorted(state["mysteries"]["solved"]))
            if "open" in m:
                self.compare(step, "mysteries.open", m["open"], state["mysteries"]["open"])
        if "ritual_place" in expect:
            self.compare(step, "ritual_place", expect["ritual_place"], state.get("ritual_place"))

    def check_rows(self, step: dict, key: str, wanted: list, actual: list, row) -> None:
        if len(wanted or []) != len(actual):
            self.fail(step, f"{key} (count)", len(wanted or []), [row(a) for a in actual])
            return
        for i, (w, a) in enumerate(zip(wanted, actual, strict=True)):
            got = row(a)
            for k, v in w.items():
                actual_v = got.get(k)
                if k == "allies" and isinstance(v, Mapping):
                    v = {s: sorted(n) for s, n in v.items()}
                    actual_v = {s: sorted(n) for s, n in (actual_v or {}).items() if s in v}
                self.compare(step, f"{key}[{i + 1}].{k}", v, actual_v)

    @staticmethod
    def check_row(d: Mapping[str, Any]) -> dict:
        return {"player": d.get("player"), "side": d.get("side"), "for": d.get("for"), "skill": d.get("skill"),
                "dice": d.get("dice"), "total": d.get("total"), "successes": d.get("successes"),
                "success": d.get("success")}

    @staticmethod
    def fight_row(d: Mapping[str, Any]) -> dict:
        return {"attacker": d.get("attacker"), "victim": d.get("victim"), "allies": d.get("allies"),
                "values": d.get("values"), "winner": d.get("winner")}


def run(data: Mapping[str, Any], *, name: str = "scenario") -> ScenarioRun:
    """Run one October Night scenario (the parsed file; ``name`` titles the game) inside the caller's transaction.
    Returns the game and the failed expectations; raises :class:`ScenarioError` for an invalid file."""
    return _Runner.runner(data, name=name)
