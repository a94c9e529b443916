"""A Bloodwood table for the pure engine tests: seats ``1``…``n`` named ``A``, ``B``…, a whole position put on the
board as the master's set-up override does, and helpers to send lines and read the state. No database."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml

from gm.core.engine import PhaseInfo, SeatInfo
from gm.modules.bloodwood import engine as E
from gm.modules.bloodwood.engine.setup import apply_position, base_state
from gm.modules.bloodwood.engine.turns import start_game

DATA = yaml.safe_load((Path(__file__).resolve().parents[1] / "data" / "game.yaml").read_text(encoding="utf-8"))
LETTERS = "ABCDEFGHIJKL"
#: Entities for 5–12 players that make the teams of BW-3a (A is the leader of the vampires where there is one).
DEALS = {
    5: ["vampire", "vampire", "vampire", "the_alpha", "werewolf"],
    6: ["dracula", "vampire", "vampire", "the_alpha", "werewolf", "werewolf"],
}


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i + 1, LETTERS[i], i) for i in range(n)]


def sid(name: str) -> str:
    """The seat id (string) of the player named ``name`` (``A`` → ``"1"``)."""
    return str(LETTERS.index(name) + 1)


class Table:
    """A game in memory: ``state`` after each line, ``events`` (the lines written by the last step) and ``spec``
    (the step waiting)."""

    def __init__(self, players: list[dict[str, Any]], *, decks: dict | None = None, discard: list | None = None,
                 start: dict | None = None, options: dict | None = None, seed: int = 1):
        n = len(players)
        self.seats = seats(n)
        order = [str(s.id) for s in self.seats]
        names = {str(s.id): s.name for s in self.seats}
        entities = [p.get("entity") for p in players]
        if not all(entities):
            entities = DEALS.get(n) or _deal(n)
        opts = {"leaders": any(e in ("dracula", "the_alpha") for e in entities) or n % 2 == 1, **(options or {})}
        state = base_state(order, names, DATA, opts)
        start = dict(start or {})
        for key in ("to_move", "starter"):
            if key in start:
                start[key] = sid(start[key])
        if "direction" in start:
            start["direction"] = 1 if start["direction"] == "clockwise" else -1
        position = {
            "entities": entities,
            "dna": {sid(LETTERS[i]): p.get("dna", "purity") for i, p in enumerate(players)},
            "hands": {sid(LETTERS[i]): list(p.get("hand", [])) for i, p in enumerate(players)},
            "curse": {sid(LETTERS[i]): p["curse_mark"] for i, p in enumerate(players) if p.get("curse_mark")},
            "chains": [sid(LETTERS[i]) for i, p in enumerate(players) if p.get("chains")],
            "tranq": [sid(LETTERS[i]) for i, p in enumerate(players) if p.get("tranquilizer")],
            "confessed": {sid(LETTERS[i]): [sid(x) for x in p.get("confessed_to", [])] for i, p in enumerate(players)},
            "decks": decks or {}, "discard": discard or [], **start,
        }
        self.state = apply_position(state, position, random.Random(seed))
        self.ordinal = 1
        self.events = start_game(self.state, random.Random(0))
        self.rng_seed = seed

    # -- reading ------------------------------------------------------------------------------------------------
    def hand(self, name: str) -> list[str]:
        return self.state["hands"][sid(name)]

    def dna(self, name: str) -> str:
        return self.state["dna"][sid(name)]

    def curse(self, name: str) -> int:
        return self.state["curse"].get(sid(name), 0)

    @property
    def step(self) -> dict:
        return self.state.get("step") or {}

    @property
    def awaiting(self) -> tuple[str | None, list[str]]:
        step = self.state.get("step")
        if not step:
            return None, []
        return step["kind"], [LETTERS[int(a) - 1] for a in step["actors"]]

    @property
    def to_move(self) -> str | None:
        tm = self.state.get("to_move")
        return LETTERS[int(tm) - 1] if tm else None

    def lines(self, visibility: str = "public") -> list[dict]:
        return [dict(e.data, kind=e.kind) for e in self.events if (e.to == "public") == (visibility == "public")]

    def text(self) -> str:
        return repr([(e.kind, e.data, e.to) for e in self.events])

    # -- sending ------------------------------------------------------------------------------------------------
    def check(self, name: str, payload: dict) -> dict:
        """Validate a line (raises :class:`~gm.modules.bloodwood.engine.BwError`)."""
        return E.validate_step(self.state, sid(name), _ids(payload))

    def send(self, name: str, payload: dict, *, close: bool = True) -> None:
        """Validate ``name``'s line; with ``close`` close the step at once when every actor answered."""
        line = self.check(name, payload)
        self.pending = getattr(self, "pending", {})
        self.pending[int(sid(name))] = line
        if close and E.phase_complete(self.state, self.pending):
            self.resolve()

    def resolve(self) -> None:
        """Close the open step with the lines sent (missing actors get BW-24b's defaults)."""
        step = self.state["step"]
        self.ordinal += 1
        res = E.resolve(state=self.state, phase=PhaseInfo(step["kind"], 1, self.ordinal,
                                                          [int(a) for a in step["actors"]]),
                        seats=self.seats, orders=getattr(self, "pending", {}),
                        rng=random.Random(f"{self.rng_seed}:{self.ordinal}"))
        self.pending = {}
        self.state = res.state
        self.result = res
        self.events = [E.Ev(e.kind, dict(e.data), "public" if e.visibility == "public" else str(e.seat))
                       for e in res.events]

    def deadline(self) -> None:
        self.resolve()

    def play(self, name: str, card: str, target: str | None = None) -> None:
        payload: dict[str, Any] = {"move": "play", "card": card}
        if target is not None:
            payload["target"] = target
        self.send(name, payload)

    def refill(self, name: str, day: int = 0, night: int = 0) -> None:
        self.send(name, {"refill": {"day": day, "night": night}})


def _ids(payload: dict) -> dict:
    out = dict(payload)
    if isinstance(out.get("target"), str) and out["target"] in LETTERS:
        out["target"] = int(sid(out["target"]))
    return out


def _deal(n: int) -> list[str]:
    sizes = E.team_sizes(n, leaders=True, larger="vampires")
    return sizes["vampires"] + sizes["werewolves"]


def code_of(fn, *args, **kwargs) -> str:
    """The refusal code ``fn`` raises (or ``"accepted"``)."""
    try:
        fn(*args, **kwargs)
    except E.BwError as exc:
        return exc.code
    return "accepted"
