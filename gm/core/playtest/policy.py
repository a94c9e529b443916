"""What a game module tells the generic playtest (``manage.py gm_playtest --game <slug>``): how to create its game,
which bots play it and what they do in each phase. A module returns an instance from ``GameModule.bot_policy``.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .client import Client


class Policy:
    """The bots of one game module. Override :meth:`create_game` and give ``bot_class`` a ``play_phase(*, kind,
    ordinal, deadline, phase_id)`` method (a :class:`Client` subclass); the rest has defaults:

    * ``min_players`` / ``max_players`` / ``default_players`` — the table sizes the command accepts;
    * ``death_kinds`` — log entry kinds of a death (the summary's deaths per phase), :meth:`death_name` the name;
    * ``draw_rule`` — the rule ID a draw ends by, shown in the summary;
    * ``phase_cap`` — how many phases a whole game may take before ``gm_playtest`` calls it stuck (default 60;
      a game whose rules take longer, like October Night's 71, says so);
    * :meth:`seat` — the bots take their seats (default: ``POST /api/games/<id>/join/`` with their names);
    * :meth:`dispatch` — the bots' work for one phase (default: every living actor plays it; now and then one
      dead bot tries to order). With ``all_ready`` (``gm_playtest --all-ready``: the game's "done" button of
      issue 23 is on) each bot that played the phase then presses "done" (:meth:`Client.press_done`), so the phase
      ends once every actor is done instead of at its deadline.
    """

    bot_class: type[Client] = Client
    min_players = 2
    max_players = 40
    default_players = 10
    death_kinds: tuple[str, ...] = ()
    draw_rule = ""
    #: The phases a whole game may take: ``gm_playtest``'s default ``--phase-cap``.
    phase_cap = 60
    #: Per phase: the chance that one dead bot tries to order (the site must refuse it).
    dead_tries = 0.5
    #: Whether the bots press "done" after playing a phase (set by ``play_game(all_ready=True)``).
    all_ready = False

    def create_game(self, *, master: Any, title: str, seed: int, deadline: float, players: int) -> Any:
        """Create the game through the services and open its signup (the master's side); phases last about
        ``deadline`` seconds. Returns the Django ``Game``."""
        raise NotImplementedError

    def death_name(self, data: dict) -> str:
        """The dead player named by the data of a ``death_kinds`` log entry (default: its ``player``); ``""`` when
        the entry names nobody (the summary then shows no death)."""
        return str(data.get("player", "?"))

    def make_bot(self, **kwargs: Any) -> Client:
        """One bot (``base_url``, ``game_id``, ``index``, ``token``, ``rng``, ``tally``)."""
        return self.bot_class(**kwargs)

    def seat(self, *, game: Any, bots: Sequence[Client], users: Sequence[Any]) -> None:
        """Seat every bot over HTTP and set its ``seat_id``."""
        for bot in bots:
            ok, body = bot.attempt("join", "POST", "/api/games/<id>/join/", {"display_name": bot.name})
            if not ok:
                bot.tally.fail(f"{bot.name} could not join: {body}")
        seat_of = dict(game.seats.values_list("user_id", "pk"))
        for bot, user in zip(bots, users, strict=True):
            bot.seat_id = seat_of.get(user.pk)

    def dispatch(self, pool: Any, bots: Sequence[Client], game: Any, phase: Any, due: float,
                 rng: random.Random) -> list:
        """Start the bots' work for ``phase`` on ``pool`` (a thread pool); returns the futures."""
        alive = dict(game.seats.values_list("pk", "alive"))
        actors = set(phase.actors) if phase.actors is not None else None
        play = self._play_then_done if self.all_ready else self._play
        futures = [pool.submit(play, bot, kind=phase.kind, ordinal=phase.ordinal, deadline=due, phase_id=phase.pk)
                   for bot in bots if alive.get(bot.seat_id) and (actors is None or bot.seat_id in actors)]
        dead = [bot for bot in bots if bot.seat_id in alive and not alive[bot.seat_id]]
        if dead and rng.random() < self.dead_tries:
            futures.append(pool.submit(rng.choice(dead).try_while_dead, phase.pk))
        return futures

    @staticmethod
    def _play(bot: Client, **phase: Any) -> None:
        bot.play_phase(**phase)

    @staticmethod
    def _play_then_done(bot: Client, **phase: Any) -> None:
        bot.skipped = False
        bot.play_phase(**phase)
        if not bot.skipped:  # a bot that missed the phase, or sends too late, keeps it waiting for its deadline
            bot.press_done(phase["phase_id"])
