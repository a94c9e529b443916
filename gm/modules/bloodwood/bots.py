"""Bloodwood's playtest bots (``BloodwoodModule.bot_policy``, ``manage.py gm_playtest --game bloodwood``): each bot
joins over the core's join API and, in every step it is an actor of, picks one of the whole lines
``GET /api/games/<id>/order-options/`` offers (a move, an answer, a Leshy discard, a give, a keep, a refill) and
sends it to the orders API; the step closes as soon as every actor has answered (BW-24).

To exercise the refusals a bot sometimes sends an illegal line first (a card it does not hold, itself as the target)
and checks that the site refuses it; it sometimes misses a step (BW-24b's defaults apply at the deadline).
"""
from __future__ import annotations

from typing import Any

from gm.core.playtest.client import Client
from gm.core.playtest.policy import Policy

from .engine import NOT_SELF

CHANCES = {"miss": 0.05, "illegal": 0.2, "declare": 0.02}

#: Steps after which a pure bot grows bolder about declaring, and the most it reaches.
BOLDER_AFTER = 40
DECLARE_MAX = 0.3


def declare_chance(ordinal: int) -> float:
    """The chance (0–1) that a pure bot declares (BW-22) in step ``ordinal`` (1-based): ``CHANCES["declare"]`` for
    the first :data:`BOLDER_AFTER` steps, then growing with the step up to :data:`DECLARE_MAX`.

    The game never ends by itself (BW-22): only a declaration ends it. With a flat 2 % the bots' games had a long
    tail (5 players, 300 simulated games: median 38 steps, p95 326, p99 598), as the mutation spreads and fewer pure
    players are left to declare; people in a long game grow surer too. With this curve: median 38, p95 138, p99 216,
    at most 353 (12 players: p99 143)."""
    return min(DECLARE_MAX, CHANCES["declare"] * max(1.0, ordinal / BOLDER_AFTER))


class BloodwoodBot(Client):
    """One Bloodwood player choosing among the offered lines."""

    chances = CHANCES

    def play_phase(self, *, kind: str, ordinal: int, deadline: float, phase_id: int) -> None:
        """One step: maybe nothing (the default applies), maybe an illegal line first; then a random offered line."""
        if self.chance("miss"):
            self.tally.count("missed step")
            return
        options = self.order_options()
        if options and options.get("may_declare") and self.rng.random() < declare_chance(ordinal):
            self.declare(options)
            return
        if not options or not options.get("choices"):
            self.tally.count("nothing to choose")
            return
        if self.chance("illegal"):
            self.illegal(options)
        self.send_order(options["phase"], self.rng.choice(options["choices"])["payload"])

    def declare(self, options: dict) -> None:
        """A declaration (BW-22) naming a random half of the others: it ends the game, right or wrong."""
        others = [t["id"] for t in options.get("targets") or []]
        named = self.rng.sample(others, max(1, len(others) // 2))
        self.attempt("declaration", "POST", "/api/games/<id>/bw/declare/", {"declare": named})

    def illegal(self, options: dict) -> None:
        """One deliberately illegal line, made from a legal one."""
        payload = dict(self.rng.choice(options["choices"])["payload"])
        menu: list[tuple[str, Any]] = [("line: unknown shape", {"nothing": 1})]
        if payload.get("move") == "play":
            menu.append(("line: card not in hand", {**payload, "card": "no_such_card"}))
        if "target" in payload and self.seat_id and payload.get("card") in NOT_SELF:
            menu.append(("line: self target", {**payload, "target": self.seat_id}))
        what, body = self.rng.choice(menu)
        self.expect_refusal(what, "POST", "/api/games/<id>/orders/", {"phase": options["phase"], "payload": body})


class BloodwoodPolicy(Policy):
    """Bloodwood for 5–12 bots; every step lasts ``deadline`` seconds. A game is stuck after 400 steps: the bots'
    longest of 600 simulated games took 353 (see :func:`declare_chance`)."""

    bot_class = BloodwoodBot
    phase_cap = 400
    min_players = 5
    max_players = 12
    default_players = 6

    def create_game(self, *, master: Any, title: str, seed: int, deadline: float, players: int) -> Any:
        from gm.core import services

        kinds = ("turn", "reaction", "discard", "give", "keep", "refill")
        game = services.game_create(master=master, module="bloodwood", title=title, rng_seed=seed,
                                    durations={k: deadline for k in kinds})
        services.game_open_signup(game=game, actor=master)
        return game
