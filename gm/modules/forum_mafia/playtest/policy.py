"""Forum Mafia's playtest bots for ``manage.py gm_playtest --game forum_mafia`` (``ForumMafiaModule.bot_policy``):
the game without the hero, deck building twice as long as a night or day; the bots (:mod:`.bots`) sign up over the
signups API one after another (each sees the roles the others claimed, FM-2.2), every bot builds a deck, every
living bot plays each night and day, and now and then a dead one tries to order (FM-6.2)."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gm.core.playtest.policy import Policy

from .bots import CHANCES, Bot


class ForumMafiaPolicy(Policy):
    bot_class = Bot
    max_players = 40
    default_players = 10
    death_kinds = ("fm.death",)
    draw_rule = "FM-10.H1"

    @property
    def min_players(self) -> int:  # type: ignore[override]
        from ..engine.state import MIN_PLAYERS

        return MIN_PLAYERS

    def create_game(self, *, master: Any, title: str, seed: int, deadline: float, players: int) -> Any:
        from gm.core import services

        game = services.game_create(master=master, module="forum_mafia", title=title, options={"hero": False},
                                    rng_seed=seed,
                                    durations={"deckbuilding": 2 * deadline, "night": deadline, "day": deadline})
        services.game_open_signup(game=game, actor=master)
        return game

    def seat(self, *, game: Any, bots: Sequence[Bot], users: Sequence[Any]) -> None:
        from ..engine.roles import PUBLIC_ROLES

        roles = [r.slug for r in PUBLIC_ROLES]
        for bot in bots:  # one after another: each sees the roles the others claimed (FM-2.2)
            bot.sign_up(roles)
        seat_of = dict(game.seats.values_list("user_id", "pk"))
        for bot, user in zip(bots, users, strict=True):
            bot.seat_id = seat_of.get(user.pk)

    def dispatch(self, pool: Any, bots: Sequence[Bot], game: Any, phase: Any, due: float,
                 rng: random.Random) -> list:
        """Every bot in deck building; every living bot in a night or day, and sometimes one dead bot trying to
        order."""
        alive = dict(game.seats.values_list("pk", "alive"))
        if phase.kind == "deckbuilding":
            return [pool.submit(bot.build_deck, due) for bot in bots]
        if phase.kind not in ("night", "day"):
            return []
        futures = [pool.submit(bot.play_phase, kind=phase.kind, ordinal=phase.ordinal, deadline=due,
                               phase_id=phase.pk)
                   for bot in bots if alive.get(bot.seat_id)]
        dead = [bot for bot in bots if bot.seat_id in alive and not alive[bot.seat_id]]
        if dead and rng.random() < CHANCES["dead_tries"]:
            futures.append(pool.submit(rng.choice(dead).try_while_dead, phase.pk))
        return futures
