"""Whole games played by random legal lines through the pure engine, many seeds and table sizes: every card stays
in the game (BW-1), no hand ever holds more than 4 (BW-6c), every open step has its actors (BW-24), every legal line
is accepted and the game never stalls; the same seed and lines give the same game (BW-24d)."""
from __future__ import annotations

import random

import pytest

from gm.core.engine import PhaseInfo
from gm.modules.bloodwood import engine as E

from .table import DATA, seats

TOTAL = sum(spec["copies"] for spec in DATA["cards"].values())


def legal_lines(state, sid):
    step = state["step"]
    kind, hand = step["kind"], state["hands"][sid]
    if kind == "turn":
        out = [{"move": "discard", "cards": [c]} for c in dict.fromkeys(hand)]
        for card in dict.fromkeys(hand):
            if E.card_refusal(state, sid, card) is None:
                if card in E.TARGETED:
                    out += [{"move": "play", "card": card, "target": int(t)} for t in E.legal_targets(state, sid, card)]
                else:
                    out.append({"move": "play", "card": card})
        return out
    if kind == "reaction":
        return [{"react": "pass"}] + [{"react": c} for c in ("amulet", "mirror")
                                      if c in hand and not (c == "mirror" and sid in state["chains"])]
    if kind == "discard":
        return [{"discard": hand[:2]}, {"discard": hand[-2:]}]
    if kind == "give":
        return [{"give": c} for c in hand]
    if kind == "keep":
        due = E.keep_due(state)
        return [{"keep": step["pool"][:due]}, {"keep": step["pool"][-due:]}]
    due = step["due"]
    return [{"refill": {"day": d, "night": due - d}} for d in range(due + 1) if E.split_possible(state, d, due - d)]


def cards_in_play(state) -> int:
    step = state.get("step") or {}
    return (sum(len(h) for h in state["hands"].values()) + sum(len(d) for d in state["decks"].values())
            + len(state["discard"]) + len(state["curse"]) + len(state["chains"]) + len(state["tranq"])
            + len(step.get("pool") or []) + len(state.get("hunted") or []) + (step.get("kind") == "reaction"))


def play(n: int, seed: int, steps: int = 400) -> list:
    rnd = random.Random(seed)
    table = seats(n)
    res = E.setup(seats=table, options=E.validate_options({}, players=n), data=DATA, rng=random.Random(seed))
    state, spec, trail = res.state, res.first_phase, []
    for ordinal in range(2, steps + 2):
        assert spec is not None and spec.actors, "a waiting step always has its actors"
        orders = {}
        for actor in spec.actors:
            if rnd.random() < 0.1:
                continue  # a missed deadline: BW-24b's default
            line = rnd.choice(legal_lines(state, str(actor)))
            orders[actor] = E.validate_step(state, str(actor), line)
        res = E.resolve(state=state, phase=PhaseInfo(spec.kind, spec.number, ordinal, spec.actors), seats=table,
                        orders=orders, rng=random.Random(f"{seed}:{ordinal}"))
        state, spec = res.state, res.next_phase
        trail.append((spec.kind if spec else None, [e.kind for e in res.events]))
        assert cards_in_play(state) == TOTAL
        assert all(len(h) <= E.HAND for h in state["hands"].values())
        if res.outcome is not None:
            break
    return trail


@pytest.mark.parametrize("n", [5, 8, 12])
@pytest.mark.parametrize("seed", range(4))
def test_BW_1_BW_6c_BW_24_random_games_keep_every_card_and_never_stall(n, seed):
    assert play(n, seed)


def test_BW_24d_the_same_seed_and_lines_give_the_same_game():
    assert play(7, 11, steps=150) == play(7, 11, steps=150)
