"""Checks and dice (OC-7, OC-11.2), the foil's effect on a check (OC-12.2), and the resolution context every phase
shares: the state being changed, the phase's RNG and the events written so far.

Every die is ``rng.randint(1, 6)`` on the RNG handed in (the phase's seeded RNG, or the core's
:class:`gm.core.engine.FixedDice` when a master or a scenario fixed the dice); every check writes one public
``oc.check`` event naming who rolled, what for, the dice as rolled and as they stand, the total and the successes.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from gm.core.engine import Event

from .state import by_slug, settings


class Ctx:
    """The resolution of one phase: ``state`` (a deep copy, changed in place), ``rng`` (the phase's RNG),
    ``events`` (in order) and ``voids`` (``{seat, line, code}`` of every void line, OC-4.12)."""

    def __init__(self, state: dict, rng: random.Random):
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        self.voids: list[dict[str, Any]] = []

    @property
    def data(self) -> dict[str, Any]:
        return self.state["data"]

    def name(self, sid: str | None) -> str:
        return self.state["names"].get(sid or "", sid or "")

    def player(self, sid: str) -> dict[str, Any]:
        return self.state["players"][sid]

    def public(self, kind: str, **data: Any) -> None:
        """A public log line."""
        self.events.append(Event(f"oc.{kind}", data))

    def private(self, sid: str, kind: str, **data: Any) -> None:
        """A line for one seat only."""
        self.events.append(Event(f"oc.{kind}", data, visibility="seat", seat=int(sid)))

    def void(self, sid: str, line: str, code: str, **extra: Any) -> None:
        """OC-4.12: a line skipped at resolution, told publicly with its code."""
        self.voids.append({"seat": sid, "line": line, "code": code, **extra})
        self.public("void", player=self.name(sid), sid=sid, line=line, code=code, **extra)

    def game_rng(self) -> random.Random:
        """OC-11.2a: the game's RNG for shuffles and draws after set-up — a stream seeded by the game's RNG at set-up
        (``game_seed``) and the number of draws so far (``draws``, kept in the state), so fixing dice never changes
        a shuffle and a replay draws the same."""
        n = int(self.state.get("draws", 0))
        self.state["draws"] = n + 1
        return random.Random(f"{self.state.get('game_seed', 0)}:{n}")

    def die(self) -> tuple[int, bool]:
        """One die from the phase's RNG and whether it was a fixed one (OC-11.2)."""
        before = getattr(self.rng, "fixed", 0)
        value = self.rng.randint(1, 6)
        return value, getattr(self.rng, "fixed", 0) > before


def skill_value(state: Mapping[str, Any], sid: str, skill: str) -> int:
    """The player's ``skill`` plus the ``bonus`` of every asset he holds for it (OC-7.3, OC-15.1)."""
    p = state["players"][sid]
    assets = by_slug(state["data"], "assets")
    return int(p["skills"].get(skill, 0)) + sum(int((assets.get(a, {}).get("bonus") or {}).get(skill, 0))
                                                for a in p["assets"])


def fight_skill(state: Mapping[str, Any], sid: str) -> str:
    """OC-5.3a: the skill that counts for a fighter: ``strength`` if it is at least his magic, else ``magic``."""
    s = state["players"][sid]["skills"]
    return "strength" if s.get("strength", 0) >= s.get("magic", 0) else "magic"


def fight_value(state: Mapping[str, Any], sid: str) -> int:
    """OC-5.3: the higher of strength and magic plus the ``combat`` of every asset held."""
    p = state["players"][sid]
    assets = by_slug(state["data"], "assets")
    return max(int(p["skills"].get("strength", 0)), int(p["skills"].get("magic", 0))) + sum(
        int(assets.get(a, {}).get("combat", 0)) for a in p["assets"])


def _takes(effect: Mapping[str, Any], purpose: str, skill: str) -> bool:
    if "check_bonus" in effect:
        return purpose not in ("fight", "deadly_fight") and effect.get("skill", "any") in ("any", skill)
    checks = effect.get("checks", "any")
    if purpose in ("fight", "deadly_fight", "buy"):
        return False  # OC-14.4a: fights and purchases are never helped by extra_success
    if checks == "enemy":
        return purpose == "enemy"
    if checks == "section_or_mystery":
        return purpose in ("section", "mystery")
    return True


def roll_dice(ctx: Ctx, sid: str | None) -> dict[str, Any]:
    """OC-7.5: the two dice of one check by ``sid`` (``None``: a side's dice in the deadly fight, no effects), then
    a reroll die if he has a pending ``reroll`` (it replaces the lower die, the second if equal), then one die per
    foiler of his (OC-12.2; the lowest replaces the higher die if lower, the second if equal). The reroll and the
    foil are consumed. Returns ``rolled`` (every die in order), ``dice`` (the two as they stand), ``forced``,
    ``reroll`` and ``foil`` (the foilers' dice)."""
    a, fa = ctx.die()
    b, fb = ctx.die()
    dice = [a, b]
    rolled = [a, b]
    forced = fa or fb
    out: dict[str, Any] = {}
    if sid is not None:
        effects = ctx.state.setdefault("effects", {}).get(sid) or {}
        if effects.get("reroll"):
            effects["reroll"] -= 1
            r, fr = ctx.die()
            rolled.append(r)
            forced = forced or fr
            dice[0 if dice[0] < dice[1] else 1] = r
            out["reroll"] = r
        foilers = ctx.state.setdefault("foils", {}).pop(sid, None)
        if foilers:
            fdice = []
            for _f in foilers:
                d, fd = ctx.die()
                fdice.append(d)
                forced = forced or fd
            rolled += fdice
            low = min(fdice)
            hi = 0 if dice[0] > dice[1] else 1
            if low < dice[hi]:
                dice[hi] = low
            out["foil"] = fdice
            out["foilers"] = [ctx.name(f) for f in foilers]
    return {"rolled": rolled, "dice": dice, "forced": forced, **out}


def successes(state: Mapping[str, Any], dice: list[int]) -> int:
    """OC-7.2: one success per die showing a success face (5 or 6)."""
    faces = settings(state).get("success_faces", [5, 6])
    return sum(1 for d in dice if d in faces)


def check(ctx: Ctx, sid: str, purpose: str, skill: str, *, against: str = "", target: int | None = None,
          public: bool = True) -> dict[str, Any]:
    """OC-7: one check of ``skill`` by ``sid`` for ``purpose`` (``buy``, ``section``, ``enemy``, ``mystery``).
    Total = the two dice + the skill + asset bonuses (OC-7.3) + a pending ``check_bonus`` that takes it; successes
    = success faces + a pending ``extra_success`` that takes it (both consumed, OC-14.3). Writes the public
    ``oc.check`` event (``against`` names what it was against, ``target`` the number it is compared with) and
    returns its data."""
    rolled = roll_dice(ctx, sid)
    base = skill_value(ctx.state, sid, skill)
    bonus = 0
    extra = 0
    effects = ctx.state.setdefault("effects", {}).get(sid) or {}
    for key in ("check_bonus", "extra_success"):
        pending = effects.get(key) or []
        for i, eff in enumerate(pending):
            if _takes(eff, purpose, skill):
                if key == "check_bonus":
                    bonus += int(eff["check_bonus"])
                else:
                    extra += int(eff["extra_success"])
                pending.pop(i)
                break
    succ = successes(ctx.state, rolled["dice"]) + extra
    result = {
        "player": ctx.name(sid), "sid": sid, "for": purpose, "skill": skill, "skill_value": base, "bonus": bonus,
        "extra": extra, **rolled, "total": sum(rolled["dice"]) + base + bonus, "successes": succ,
        "success": succ > 0, "against": against, "target": target,
    }
    if public:
        ctx.public("check", **result)
    return result
