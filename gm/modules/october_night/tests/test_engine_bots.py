"""October Night engine: random legal play to the end (OC-3.1, OC-10) — for 20 seeds at 3, 4 and 5 players every
game ends within its 71 phases (35 days × 2 + the ritual), no illegal line is accepted (each candidate is checked by
the engine, and a refused one is never resolved), and the winners' distribution is printed (a first balance
figure). Pure: no database, no worker (the site-level bots are ``manage.py gm_playtest --game october_night``)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from gm.core.engine import RuleViolation
from gm.modules.october_night import engine

from .engine_helpers import default_data, seats

DATA = default_data()


def goal(state: dict, sid: str) -> str | None:
    """Where a purposeful player heads: the ritual place, the open mystery, his card's nearest undone section, his
    nearest enemy."""
    p = state["players"][sid]
    if state.get("ritual_place"):
        return state["ritual_place"]
    spots: list[str] = []
    opened = state["mysteries"].get("open")
    if opened:
        where = engine.by_slug(DATA, "mysteries")[opened].get("location")
        if where:
            spots.append(where)
    card = p.get("contact")
    if card and card["type"] in ("search", "personal"):
        sections = engine.by_slug(DATA, card["type"] + "_contacts")[card["card"]]["sections"]
        spots += [sec["location"] for i, sec in enumerate(sections, 1) if i not in card["done"]]
    spots += [e["location"] for e in state["enemies"] if e["owner"] == sid]
    if not spots:
        return None
    dist = engine.distances(DATA, p["location"])
    return min(spots, key=lambda s: dist.get(s, 99))


def step_towards(state: dict, sid: str, target: str) -> str | None:
    here = state["players"][sid]["location"]
    back = engine.distances(DATA, target)
    adjacent = next(loc for loc in DATA["locations"] if loc["slug"] == here)["adjacent"]
    best = min(adjacent, key=lambda s: back.get(s, 99))
    return best if back.get(best, 99) < back.get(here, 99) else None


def candidates(state: dict, sid: str, rng: random.Random) -> list[dict]:
    """Lines a player might try, a purposeful one first most of the time (some are illegal: the engine decides)."""
    p = state["players"][sid]
    kind = state["stage"]
    if kind == "ritual":
        return [{"deadly_fight": True}, {}]
    others = [s for s in state["seats"] if s != sid and engine.in_game(state, s)]
    here = next(loc for loc in state["data"]["locations"] if loc["slug"] == p["location"])
    free: list[dict] = [{"abilities": [{"ability": a, "target": int(rng.choice(others or [sid])),
                                        "pay": (p["ingredients"] or [None])[0]}]} for a in p["abilities"]]
    free += [{"learn": a} for a in engine.by_slug(DATA, "characters")[p["character"]]["abilities"]]
    free += [{"use": [c]} for c in p["assets"] + p["ingredients"]]
    if kind == "contact":
        if rng.random() < 0.8:
            return [{"contact": {"kind": "mystery"}}, {"contact": {"kind": "auto"}}]
        lines = [{"contact": {"kind": k}} for k in ("auto", "mystery", "abandon")]
        lines += [{"contact": {"kind": "section", "section": n}} for n in (1, 2, 3)]
        return lines + free
    target = goal(state, sid)
    step = step_towards(state, sid, target) if target else None
    if step and rng.random() < 0.8:
        return [{"action": {"kind": "travel", "to": step}}]
    lines = [{"action": {"kind": "rest"}}, {"action": {"kind": "travel", "to": rng.choice(here["adjacent"])}},
             {"action": {"kind": "buy", "cards": [c for c in state["reserve"] if c][:2]}}]
    for o in others:
        lines += [{"action": {"kind": "fight", "target": int(o)}}, {"action": {"kind": "heal", "target": int(o)}},
                  {"action": {"kind": "ally", "with": int(o)}}]
        if p["ingredients"]:
            lines.append({"action": {"kind": "foil", "target": int(o), "discard": p["ingredients"][0]}})
    return lines + free


def play_game(n: int, seed: int) -> tuple[str, int, int]:
    rng = random.Random(seed)
    state = engine.setup(seats=seats(n), options={}, rng=random.Random(seed), base=DATA).state
    phases = refused = 0
    while True:
        phases += 1
        assert phases <= 71, f"{n} players, seed {seed}: stuck after {phases} phases"
        orders = {}
        for sid in engine.turn_order(state):
            if rng.random() < 0.1:
                continue  # a missed deadline
            lines = candidates(state, sid, rng)
            rng.shuffle(lines)
            for line in lines:
                try:
                    orders[int(sid)] = engine.validate_order(state, kind=state["stage"], sid=sid, payload=line)
                    break
                except RuleViolation:
                    refused += 1
        res = engine.resolve(state=state, kind=state["stage"], seats=seats(n), orders=orders,
                             rng=random.Random(seed * 1000 + phases))
        state = res.state
        if res.outcome is not None:
            assert state["stage"] == "over" and res.next_phase is None
            return state["winner"], phases, refused
        assert res.next_phase is not None


@pytest.mark.parametrize("n", [3, 4, 5])
def test_OC_10_bots_play_20_seeds_to_an_end(n, capsys):
    results = [play_game(n, seed) for seed in range(1, 21)]
    winners = Counter(w for w, _p, _r in results)
    assert sum(winners.values()) == 20
    assert sum(refused for _w, _p, refused in results) > 0  # the careless lines were tried, and refused
    with capsys.disabled():
        print(f"\nOctober Night, {n} players, 20 seeds: winners {dict(winners)}; "
              f"phases {min(p for _w, p, _r in results)}–{max(p for _w, p, _r in results)}")


def test_OC_3_1_the_bots_phase_cap_covers_a_whole_game():
    """OC-3.1, OC-11.1: a whole game is weeks × days × (action + contact) phases and the ritual (71 by default), more
    than the core's default cap of 60: the bot policy says so, and ``gm_playtest`` takes it as its default
    ``--phase-cap`` (``--phase-cap`` given still wins)."""
    from gm.core.playtest.policy import Policy
    from gm.modules.october_night.bots import OctoberNightPolicy

    st = default_data()["settings"]
    whole = st["weeks"] * st["days_per_week"] * 2 + 1
    assert whole == 71 and OctoberNightPolicy.phase_cap >= whole > Policy.phase_cap == 60
