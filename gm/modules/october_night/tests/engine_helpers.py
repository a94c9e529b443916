"""Helpers of the engine tests: the default data, seats, a game from a position, resolving a phase with fixed dice."""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from gm.core.engine import FixedDice, RuleViolation, SeatInfo
from gm.modules.october_night import engine

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "default.yaml"
NAMES = ["Аня", "Боря", "Вова", "Гена", "Дина"]


@lru_cache(maxsize=1)
def _default() -> dict:
    return yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))


def default_data() -> dict:
    import copy

    return copy.deepcopy(_default())


def seats(n: int = 3) -> list[SeatInfo]:
    return [SeatInfo(id=i + 1, name=NAMES[i], position=i) for i in range(n)]


def game(players: list[dict], *, seed: int = 1, **position: Any) -> dict:
    """A state from a start position (players by ring index: ``side``, ``character`` and the scenario keys)."""
    sides = [p.pop("side", "keepers") for p in players]
    chars = [p.pop("character") for p in players]
    options = {"sides": sides, "characters": chars, "position": {"players": players, **position}}
    if "data" in position:
        options["data"] = position.pop("data")
        options["position"].pop("data", None)
    res = engine.setup(seats=seats(len(players)), options=options, rng=random.Random(seed), base=default_data())
    return res.state


def order(state: dict, sid: int, payload: dict, kind: str | None = None) -> dict:
    return engine.validate_order(state, kind=kind or state["stage"], sid=str(sid), payload=payload)


def refused(state: dict, sid: int, payload: dict) -> list[str]:
    """The codes a line is refused with ([] if accepted)."""
    try:
        order(state, sid, payload)
    except RuleViolation as exc:
        return [e.params["code"] for e in exc.errors]
    return []


def play(state: dict, orders: dict[int, dict] | None = None, dice: list[int] | None = None, seed: int = 7):
    """Validate and resolve the open phase; returns the Resolution. Fixed dice must all be used."""
    norm = {sid: order(state, sid, p) for sid, p in (orders or {}).items()}
    rng = FixedDice(seed, dice or [])
    res = engine.resolve(state=state, kind=state["stage"], seats=seats(len(state["seats"])), orders=norm, rng=rng)
    assert not rng.queued, f"dice left over: {rng.queued}"
    if dice is not None:
        assert rng.seeded == 0, f"{rng.seeded} dice rolled past the fixed list"
    return res


def events(res, kind: str) -> list[dict]:
    return [dict(e.data) for e in res.events if e.kind == f"oc.{kind}"]


def checks(res) -> list[dict]:
    return events(res, "check")
