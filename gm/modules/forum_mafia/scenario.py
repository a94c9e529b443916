"""Forum Mafia scenario runner (shell): builds a game from a scenario file and plays its steps through the site's own
services — the master setup override, ``order_submit`` with the engine's full validation, the instant abilities through
``ability_services.ability_use`` at once (in file order, between the order lines), vote submission when the module
has it, and ``phase_resolve_due`` as the deadline task calls it — then checks the step's ``expect``.

The file format is ``/work/shared/rules/scenario-format.md`` (``## forum_mafia``); ``docs/scenarios.md`` is the key
reference for masters. :func:`run` is what ``manage.py gm_scenario`` calls (through :mod:`gm.core.scenario`).

The whole file is checked before anything is built (keys, player names, card and role slugs, phase labels), so a
typo in the last step is reported (exit status 2) without running the first ones. Only the step's ``phase`` against
the open phase can be checked no sooner than the step itself.
"""
from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cards.domain import Collection
from cards.models import current_collection
from gm.core import services as core
from gm.core.models import Game, GroupMembership, LogEntry, Phase, Seat
from gm.core.scenario import (
    MASTER_USERNAME,
    Played,
    ScenarioError,
    ScenarioRun,
    ScenarioRunner,
    check_keys,
    entry_matches,
    entry_summary,
    parse_dice,
    parse_phase_label,
    phase_label,
    scenario_user,
    show,
    unique_username,
)
from gm.core.services import ServiceError

from .engine import abilities
from .engine import state as engine
from .engine.roles import PUBLIC_ROLE_BY_SLUG, SECRET_ROLES
from .services.overrides import game_setup_override, player_errors

TOP_KEYS = ("game", "seed", "options", "players", "start", "steps", "title", "description")
PLAYER_KEYS = ("name", "public_role", "secret_role", "colours", "hand", "sleeve", "deck", "alive")
STEP_KEYS = ("phase", "orders", "votes", "dice", "expect")
#: Keys of an order line playing a card (``pay_hand``: the cultist's Hand price cards, FM-8).
PLAY_KEYS = ("player", "card", "from", "target", "targets", "named_card", "text", "cards", "pay", "pay_hand")
DISCARD_KEYS = ("player", "discard")
ABILITY_KEYS = ("player", "ability", "mode", "target", "pay", "hand_card", "sleeve_card", "guess", "mapping", "card",
                "discard", "text")
VOTE_KEYS = ("player", "for", "punishment", "prosecutor_bonus", "keep")
EXPECT_KEYS = ("rejected", "players", "public_log_contains", "private_log", "next_phase", "winner")
EXPECT_PLAYER_KEYS = ("hand", "hand_count", "sleeve", "alive", "jailed", "deck_count")
REJECTED_KEYS = ("player", "card", "ability", "discard", "vote", "reason")
PUNISHMENTS = ("execution", "jail")
PEACE = "peace"
#: Log lines shown in a failure report at most.
SHOWN_ENTRIES = 20


# -- the parsed file -------------------------------------------------------------------------------------------


@dataclass
class OrderLine:
    """One ``orders`` line: ``index`` (1-based in its step), ``player`` name, ``kind`` (``play``, ``discard``,
    ``ability`` — a phase ability, part of the order —, ``instant`` — an instant ability, used at once), the line
    itself (``raw``) and what identifies it among rejections (``label``)."""

    index: int
    player: str
    kind: str
    raw: dict
    label: dict

    def fragment(self, seat_ids: Mapping[str, int]) -> Any:
        """The line's part of the engine payload, player names turned into seat ids (mapping keys into seat ids as
        strings, JSON object keys)."""
        body = {k: v for k, v in self.raw.items() if k != "player"}
        if self.kind == "discard":
            return list(body["discard"])
        if self.kind == "play":
            body.setdefault("from", "hand")
        if "target" in body:
            body["target"] = seat_ids[body["target"]]
        if "targets" in body:
            body["targets"] = [seat_ids[n] for n in body["targets"]]
        if isinstance(body.get("mapping"), dict):
            body["mapping"] = {str(seat_ids[n]): role for n, role in body["mapping"].items()}
        return body


@dataclass
class Step:
    index: int
    phase: tuple[str, int]
    orders: list[OrderLine] = field(default_factory=list)
    votes: list[dict] = field(default_factory=list)
    expect: dict = field(default_factory=dict)
    dice: list[int] | None = None

    @property
    def label(self) -> str:
        return f"{self.phase[0]} {self.phase[1]}"


@dataclass
class Scenario:
    seed: int
    options: dict
    players: list[dict]
    start: tuple[str, int]
    steps: list[Step]
    title: str = ""
    description: str = ""


class _Parser:
    """Checks a whole scenario and turns it into a :class:`Scenario`; every error is a :class:`ScenarioError`
    naming the place."""

    def __init__(self, data: Mapping[str, Any], collection: Collection):
        self.data = data
        self.collection = collection
        self.names: list[str] = []

    # -- small checks --------------------------------------------------------------------------------------
    def name(self, value: Any, place: str) -> str:
        if value in self.names:
            return value
        close = difflib.get_close_matches(value, self.names, n=1, cutoff=0.5) if isinstance(value, str) else []
        hint = close[0] if close else None
        raise ScenarioError(place, f"unknown player {show(value)}"
                                   + (f" (did you mean {hint!r}?)" if hint else f"; players: {', '.join(self.names)}"))

    def slug(self, value: Any, place: str) -> str:
        if not isinstance(value, str) or value not in self.collection:
            raise ScenarioError(place, f"unknown card {show(value)}")
        return value

    def slugs(self, value: Any, place: str) -> list[str]:
        if not isinstance(value, list):
            raise ScenarioError(place, f"expected a list of card slugs, got {show(value)}")
        return [self.slug(v, f"{place}[{i}]") for i, v in enumerate(value)]

    def ability_slug(self, value: Any, place: str) -> str:
        if not isinstance(value, str) or (value not in PUBLIC_ROLE_BY_SLUG and value not in SECRET_ROLES):
            raise ScenarioError(place, f"unknown role {show(value)} (abilities are named by the public or secret "
                                       "role slug that gives them)")
        return value

    @staticmethod
    def text(value: Any, place: str) -> str:
        if not isinstance(value, str):
            raise ScenarioError(place, f"expected a text, got {show(value)}")
        return value

    @staticmethod
    def boolean(value: Any, place: str) -> bool:
        if not isinstance(value, bool):
            raise ScenarioError(place, f"expected true or false, got {show(value)}")
        return value

    @staticmethod
    def count(value: Any, place: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ScenarioError(place, f"expected a whole number ≥ 0, got {show(value)}")
        return value

    @staticmethod
    def strings(value: Any, place: str) -> list[str]:
        if isinstance(value, str):
            return [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ScenarioError(place, f"expected a list of texts, got {show(value)}")
        return list(value)

    # -- the file --------------------------------------------------------------------------------------------
    def parse(self) -> Scenario:
        data = check_keys(self.data, place="", allowed=TOP_KEYS, required=("game", "players"),
                          what="a scenario mapping")
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ScenarioError("seed", f"expected a whole number from 0 to 2^63-1, got {show(seed)}")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ScenarioError("options", f"expected a mapping, got {show(options)}")
        players = self.players(data["players"])
        start = parse_phase_label(data.get("start", "night 1"), place="start", kinds=(engine.NIGHT, engine.DAY))
        steps_raw = data.get("steps") or []
        if not isinstance(steps_raw, list):
            raise ScenarioError("steps", "expected a list of steps")
        steps = [self.step(i + 1, raw) for i, raw in enumerate(steps_raw)]
        title = self.text(data.get("title", ""), "title")
        description = self.text(data.get("description", ""), "description")
        return Scenario(seed=seed, options=options, players=players, start=start, steps=steps, title=title,
                        description=description)

    def players(self, raw: Any) -> list[dict]:
        if not isinstance(raw, list) or not raw:
            raise ScenarioError("players", "expected a non-empty list of players")
        out = []
        for i, player in enumerate(raw):
            name = player.get("name") if isinstance(player, dict) else None
            place = f"player {i + 1}" + (f" ({name})" if isinstance(name, str) else "")
            check_keys(player, place=place, allowed=PLAYER_KEYS, required=("name", "secret_role"))
            if not isinstance(name, str) or not name.strip():
                raise ScenarioError(f"{place}, key name", "expected a non-empty name")
            if name != name.strip():
                raise ScenarioError(f"{place}, key name", "a name has no leading or trailing spaces")
            if name.casefold() in (n.casefold() for n in self.names):
                raise ScenarioError(f"{place}, key name", f"the name {name!r} is given twice")
            if name.casefold() in (PEACE, "none"):
                raise ScenarioError(f"{place}, key name", f"{name!r} is a reserved word in scenarios")
            errors = player_errors(player, self.collection)
            if errors:
                key, messages = next(iter(errors.items()))
                raise ScenarioError(f"{place}, key {key}", " ".join(messages))
            self.names.append(name)
            out.append(dict(player))
        return out

    def step(self, n: int, raw: Any) -> Step:
        place = f"step {n}"
        check_keys(raw, place=place, allowed=STEP_KEYS, required=("phase",))
        step = Step(index=n, phase=parse_phase_label(raw["phase"], place=f"{place}, key phase",
                                                     kinds=(engine.NIGHT, engine.DAY)))
        orders = raw.get("orders") or []
        if not isinstance(orders, list):
            raise ScenarioError(f"{place}, key orders", "expected a list of order lines")
        step.orders = [self.order(i + 1, line, f"{place}, order {i + 1}") for i, line in enumerate(orders)]
        votes = raw.get("votes") or []
        if votes:
            if step.phase[0] != engine.DAY:
                raise ScenarioError(f"{place}, key votes", "votes are given by day only (FM-7.1)")
            if _vote_service() is None:
                raise ScenarioError(f"{place}, key votes", "votes are not supported yet")
            if not isinstance(votes, list):
                raise ScenarioError(f"{place}, key votes", "expected a list of votes")
            step.votes = [self.vote(line, f"{place}, vote {i + 1}") for i, line in enumerate(votes)]
        step.expect = self.expect(raw.get("expect") or {}, f"{place}, expect")
        if "dice" in raw:
            step.dice = parse_dice(raw["dice"], place=f"{place}, key dice")
        return step

    def order(self, index: int, raw: Any, place: str) -> OrderLine:
        if not isinstance(raw, dict):
            raise ScenarioError(place, f"expected an order line such as {{player: X, card: pistol, target: Y}}, "
                                       f"got {show(raw)}")
        if "ability" in raw:
            kind, allowed = "ability", ABILITY_KEYS
        elif "card" in raw:
            kind, allowed = "play", PLAY_KEYS
        elif "discard" in raw:
            kind, allowed = "discard", DISCARD_KEYS
        else:
            raise ScenarioError(place, "an order line has `card`, `discard` or `ability`")
        check_keys(raw, place=place, allowed=allowed, required=("player",))
        player = self.name(raw["player"], f"{place}, key player")
        key = lambda k: f"{place}, key {k}"  # noqa: E731
        if "target" in raw:
            self.name(raw["target"], key("target"))
        if "text" in raw:
            self.text(raw["text"], key("text"))
        if kind == "discard":
            self.slugs(raw["discard"], key("discard"))
            return OrderLine(index, player, kind, dict(raw), {"discard": list(raw["discard"])})
        if kind == "play":
            card = self.slug(raw["card"], key("card"))
            if raw.get("from", "hand") not in ("hand", "sleeve"):
                raise ScenarioError(key("from"), f"expected hand or sleeve, got {show(raw['from'])}")
            if "targets" in raw:
                if not isinstance(raw["targets"], list):
                    raise ScenarioError(key("targets"), "expected a list of player names")
                for i, target in enumerate(raw["targets"]):
                    self.name(target, f"{key('targets')}[{i}]")
            if "named_card" in raw:
                self.slug(raw["named_card"], key("named_card"))
            for k in ("cards", "pay", "pay_hand"):
                if k in raw:
                    self.slugs(raw[k], key(k))
            return OrderLine(index, player, kind, dict(raw), {"card": card})
        ability = self.ability_slug(raw["ability"], key("ability"))
        if "mode" in raw:
            self.text(raw["mode"], key("mode"))
        if "pay" in raw:
            self.slugs(raw["pay"], key("pay")) if isinstance(raw["pay"], list) else self.slug(raw["pay"], key("pay"))
        for k in ("hand_card", "sleeve_card", "card"):
            if k in raw:
                self.slug(raw[k], key(k))
        if "discard" in raw:
            self.slugs(raw["discard"], key("discard"))
        if "guess" in raw and raw["guess"] not in SECRET_ROLES:
            raise ScenarioError(key("guess"), f"unknown secret role {show(raw['guess'])}")
        if "mapping" in raw:
            mapping = raw["mapping"]
            if not isinstance(mapping, dict):
                raise ScenarioError(key("mapping"), "expected a mapping of player names to secret-role slugs")
            for name, role in mapping.items():
                self.name(name, f"{key('mapping')}.{name}")
                if role not in SECRET_ROLES:
                    raise ScenarioError(f"{key('mapping')}.{name}", f"unknown secret role {show(role)}")
        instant = (abilities.ability_key(ability), raw.get("mode") or "") in abilities.INSTANT_ABILITIES
        return OrderLine(index, player, "instant" if instant else kind, dict(raw), {"ability": ability})

    def vote(self, raw: Any, place: str) -> dict:
        check_keys(raw, place=place, allowed=VOTE_KEYS, required=("player", "for"))
        self.name(raw["player"], f"{place}, key player")
        if raw["for"] != PEACE:
            self.name(raw["for"], f"{place}, key for")
        if raw.get("punishment", "execution") not in PUNISHMENTS:
            raise ScenarioError(f"{place}, key punishment", f"expected one of {', '.join(PUNISHMENTS)}, got "
                                                            f"{show(raw['punishment'])}")
        if "prosecutor_bonus" in raw:
            self.boolean(raw["prosecutor_bonus"], f"{place}, key prosecutor_bonus")
        if "keep" in raw:  # FM-7.5: the card a maniac keeps if he is jailed
            self.slug(raw["keep"], f"{place}, key keep")
        return dict(raw)

    def expect(self, raw: Any, place: str) -> dict:
        check_keys(raw, place=place, allowed=EXPECT_KEYS)
        key = lambda k: f"{place}, key {k}"  # noqa: E731
        if "rejected" in raw:
            if not isinstance(raw["rejected"], list):
                raise ScenarioError(key("rejected"), "expected a list such as [{player: X, card: pistol}]")
            for i, item in enumerate(raw["rejected"]):
                where = f"{key('rejected')}[{i}]"
                check_keys(item, place=where, allowed=REJECTED_KEYS, required=("player",))
                self.name(item["player"], f"{where}.player")
                if "card" in item:
                    self.slug(item["card"], f"{where}.card")
                if "ability" in item:
                    self.ability_slug(item["ability"], f"{where}.ability")
        if "players" in raw:
            if not isinstance(raw["players"], dict):
                raise ScenarioError(key("players"), "expected a mapping of player names to checks")
            for name, checks in raw["players"].items():
                where = f"{key('players')}.{name}"
                self.name(name, where)
                check_keys(checks, place=where, allowed=EXPECT_PLAYER_KEYS)
                for k in ("hand", "sleeve"):
                    if k in checks:
                        self.slugs(checks[k], f"{where}.{k}")
                for k in ("hand_count", "deck_count"):
                    if k in checks:
                        self.count(checks[k], f"{where}.{k}")
                for k in ("alive", "jailed"):
                    if k in checks:
                        self.boolean(checks[k], f"{where}.{k}")
        if "public_log_contains" in raw:
            self.strings(raw["public_log_contains"], key("public_log_contains"))
        if "private_log" in raw:
            if not isinstance(raw["private_log"], dict):
                raise ScenarioError(key("private_log"), "expected a mapping of player names to texts")
            for name, texts in raw["private_log"].items():
                self.name(name, f"{key('private_log')}.{name}")
                self.strings(texts, f"{key('private_log')}.{name}")
        if "next_phase" in raw and raw["next_phase"] not in (None, "none"):
            parse_phase_label(raw["next_phase"], place=key("next_phase"), kinds=(engine.NIGHT, engine.DAY))
        if "winner" in raw and raw["winner"] is not None:
            self.text(raw["winner"], key("winner"))
        return dict(raw)


def parse(data: Mapping[str, Any], collection: Collection | None = None) -> Scenario:
    """Check a whole forum Mafia scenario (the parsed file) and return it as a :class:`Scenario`. Raises
    :class:`ScenarioError` naming the place of the first problem. ``collection``: the cards slugs are checked against
    (default: the current collection, which the game will snapshot)."""
    return _Parser(data, collection or current_collection()).parse()


def _vote_service():
    from .services import signup as services

    return getattr(services, "vote_submit", None)


# -- running -----------------------------------------------------------------------------------------------------


def _payload(lines: list[OrderLine], seat_ids: Mapping[str, int]) -> dict:
    """One seat's whole order for the phase from its accepted lines (and a candidate), in file order."""
    payload: dict[str, Any] = {}
    for line in lines:
        part = line.fragment(seat_ids)
        if line.kind == "discard":
            payload["discard"] = part
        else:
            payload.setdefault("plays" if line.kind == "play" else "abilities", []).append(part)
    return payload


class _Runner(ScenarioRunner):
    module = "forum_mafia"

    def parse(self) -> None:
        self.scenario = parse(self.data)
        self.steps = self.scenario.steps

    def build(self) -> Game:
        s = self.scenario
        master = scenario_user(MASTER_USERNAME, "Scenario master", host=True)
        try:
            game = core.game_create(
                master=master, module="forum_mafia", title=(s.title or f"Scenario: {self.name}")[:200],
                description=s.description or f"Built by manage.py gm_scenario from {self.name}.",
                options=s.options, rng_seed=s.seed)
        except ServiceError as exc:
            raise ScenarioError("options", str(exc)) from None
        described = []
        for i, player in enumerate(s.players):
            user = scenario_user(unique_username(f"scn-{i + 1}"), player["name"])
            described.append({**player, "user": user})
        try:
            game_setup_override(game=game, actor=master, players=described, start_kind=s.start[0],
                                start_number=s.start[1])
        except ServiceError as exc:
            raise ScenarioError("players", str(exc)) from None
        game.refresh_from_db()
        self.game = game
        self.master = master
        self.seats = {seat.display_name: seat for seat in game.seats.select_related("user")}
        self.seat_ids = {name: seat.pk for name, seat in self.seats.items()}
        self.names_by_id = {seat.pk: name for name, seat in self.seats.items()}
        return game

    def submit_step(self, phase: Phase, step: Step) -> list[dict]:
        return self.submit_orders(phase, step) + self.submit_votes(phase, step)

    def submit_orders(self, phase: Phase, step: Step) -> list[dict]:
        """Each line is added to its player's order and the whole order submitted again (the last version counts,
        FM-5.6); a refused line is recorded and left out, so the previous version stays. An instant ability (the
        maniac's swap, the joker's guess, the looter, the geek) is used at once through
        ``ability_services.ability_use``, in file order; refused, it is recorded like a refused line."""
        from .services.abilities import ability_use

        accepted: dict[str, list[OrderLine]] = {}
        refused = []
        for line in step.orders:
            if line.kind == "instant":
                try:
                    ability_use(game=self.game, user=self.seats[line.player].user, phase_id=phase.pk,
                                payload=line.fragment(self.seat_ids), clock=lambda: phase.opens_at)
                except ServiceError as exc:
                    refused.append({"player": line.player, **line.label, "reason": "submission",
                                    "message": str(exc), "order": line.index})
                continue
            candidate = accepted.get(line.player, []) + [line]
            try:
                core.order_submit(phase=phase, user=self.seats[line.player].user,
                                  payload=_payload(candidate, self.seat_ids), clock=lambda: phase.opens_at)
            except ServiceError as exc:
                refused.append({"player": line.player, **line.label, "reason": "submission", "message": str(exc),
                                "order": line.index})
            else:
                accepted[line.player] = candidate
        return refused

    def submit_votes(self, phase: Phase, step: Step) -> list[dict]:
        """Votes through the module's ``services.vote_submit(phase=, user=, target=<seat id or None for peace>,
        punishment=, prosecutor_bonus=, keep=, clock=)`` (FM-7), in file order after the step's orders: each is a
        new version of the voter's order with its ``vote`` part replaced (his cards stay), so a later line of the
        same player changes his vote (FM-7.1)."""
        if not step.votes:
            return []
        vote_submit = _vote_service()
        refused = []
        for vote in step.votes:
            target = None if vote["for"] == PEACE else self.seat_ids[vote["for"]]
            try:
                vote_submit(phase=phase, user=self.seats[vote["player"]].user, target=target,
                            punishment=vote.get("punishment", "execution"),
                            prosecutor_bonus=vote.get("prosecutor_bonus", False), keep=vote.get("keep"),
                            clock=lambda: phase.opens_at)
            except ServiceError as exc:
                refused.append({"player": vote["player"], "vote": vote["for"], "reason": "submission",
                                "message": str(exc)})
        return refused

    # -- expectations -------------------------------------------------------------------------------------------
    def check(self, step: Step, played: Played) -> None:
        expect = step.expect
        phase, refused = played.phases[0], played.refused
        entries = list(LogEntry.objects.filter(phase=phase).select_related("game").order_by("created_at", "id"))
        if "rejected" in expect:
            self.check_rejected(step, expect["rejected"], refused + self.voids(entries))
        else:
            # A refused line nobody expected is almost always a mistake in the file (a card not in the Hand…):
            # say so instead of letting the step pass without the order.
            for r in refused:
                self.fail(step, f"orders[{r['order']}]" if "order" in r else "votes", "accepted",
                          f"refused at submission: {r['message']}")
        seats = {s.pk: s for s in Seat.objects.filter(game=self.game)}
        for name, checks in (expect.get("players") or {}).items():
            seat = seats[self.seat_ids[name]]
            cards = seat.data.get("cards") or {}
            actual = {
                "hand": [c["kind"] for c in cards.get("hand", [])],
                "hand_count": len(cards.get("hand", [])),
                "sleeve": [c["kind"] for c in cards.get("sleeve", [])],
                "deck_count": len(cards.get("deck", [])),
                "alive": seat.alive,
            }
            for key, expected in checks.items():
                value = self.jailed(seat) if key == "jailed" else actual[key]
                if value != expected:
                    self.fail(step, f"players.{name}.{key}", expected, value)
        public = [e for e in entries if e.visibility == LogEntry.Visibility.PUBLIC]
        for i, needle in enumerate(_as_list(expect.get("public_log_contains"))):
            if not any(entry_matches(e, needle) for e in public):
                self.fail(step, f"public_log_contains[{i}]", needle, [entry_summary(e) for e in public][:SHOWN_ENTRIES])
        for name, needles in (expect.get("private_log") or {}).items():
            seat_id = self.seat_ids[name]
            groups = set(GroupMembership.objects.filter(seat_id=seat_id).values_list("group", flat=True))
            private = [e for e in entries if (e.visibility == LogEntry.Visibility.SEAT and e.seat_id == seat_id)
                       or (e.visibility == LogEntry.Visibility.GROUP and e.group in groups)]
            for i, needle in enumerate(_as_list(needles)):
                if not any(entry_matches(e, needle) for e in private):
                    self.fail(step, f"private_log.{name}[{i}]", needle,
                              [entry_summary(e) for e in private][:SHOWN_ENTRIES])
        if "next_phase" in expect:
            nxt = self.game.phases.filter(status=Phase.Status.OPEN).first()
            actual_label = phase_label(nxt) if nxt and not self.game.is_over else None
            wanted = expect["next_phase"]
            if wanted not in (None, "none"):
                kind, number = parse_phase_label(wanted, place="next_phase")
                wanted = f"{kind} {number}"
            else:
                wanted = None
            if actual_label != wanted:
                self.fail(step, "next_phase", wanted or "none", actual_label or "none")
        if "winner" in expect:
            actual_winner = None
            if self.game.status == Game.Status.FINISHED:
                winners = (self.game.outcome or {}).get("winners") or []
                actual_winner = winners[0] if winners else "none"
            if actual_winner != expect["winner"]:
                self.fail(step, "winner", expect["winner"], actual_winner)

    def voids(self, entries: list[LogEntry]) -> list[dict]:
        """Plays the engine voided at L0/L1 (its master trace ``fm.t_void``: player, card or ability, reason)."""
        out = []
        for entry in entries:
            if entry.kind != "fm.t_void":
                continue
            data = entry.data
            record = {"player": data.get("player") or self.names_by_id.get(data.get("seat"), ""),
                      "reason": data.get("reason")}
            if data.get("card"):
                record["card"] = data["card"]
            elif data.get("ability"):
                record["ability"] = data["ability"]
            elif str(data.get("reason", "")).startswith("discard"):
                record["discard"] = True
            out.append(record)
        return out

    def check_rejected(self, step: Step, expected: list[dict], actual: list[dict]) -> None:
        """``rejected`` lists exactly the lines refused at submission or voided at L0/L1: each expected item must
        match one of them (by player and whichever of card, ability, discard, vote, reason it names) and no
        rejection may be left over."""
        left = list(actual)
        shown = [{k: v for k, v in r.items() if k not in ("message", "order")} for r in actual]
        for item in expected:
            match = next((r for r in left if _rejection_matches(item, r)), None)
            if match is None:
                self.fail(step, "rejected", item, shown)
            else:
                left.remove(match)
        for r in left:
            self.fail(step, "rejected", "not rejected",
                      {k: v for k, v in r.items() if k != "order"})

    def jailed(self, seat: Seat) -> bool:
        from .engine import state as resolution

        is_jailed = getattr(resolution, "is_jailed", None)
        return bool(is_jailed(self.game.state, seat.pk)) if is_jailed else False


def _rejection_matches(item: Mapping[str, Any], record: Mapping[str, Any]) -> bool:
    if item["player"] != record.get("player"):
        return False
    for key in ("card", "ability", "vote", "reason"):
        if key in item and item[key] != record.get(key):
            return False
    if "discard" in item:
        if "discard" not in record:
            return False
        if isinstance(item["discard"], list) and isinstance(record["discard"], list) \
                and item["discard"] != record["discard"]:
            return False
    return True


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def run(data: Mapping[str, Any], *, name: str = "scenario") -> ScenarioRun:
    """Run one forum Mafia scenario (the parsed file; ``name`` is used for the game title). Call it inside a
    transaction the caller rolls back (``gm.core.scenario.run_file`` does). Returns the game and the failed
    expectations; raises :class:`ScenarioError` for an invalid file."""
    return _Runner.runner(data, name=name)
