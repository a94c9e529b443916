"""October Night's demo game for ``manage.py gm_demo`` (``OctoberNightModule.demo_games``)."""
from __future__ import annotations

from gm.core import services
from gm.core.models import Game

TITLE = "Demo: October Night (week 1)"
PHASE_SECONDS = 7 * 24 * 3600


def week_one(*, master, players) -> Game:
    """A game of four (``players``: ``[(user, display name)]``, the first four) in its first action phase with
    week-long deadlines: the board, the sheets, each player's secret side card (OC-1.2)."""
    game = services.game_create(
        master=master, module="october_night", title=TITLE,
        description="October Night: log in as player1…player4, open the game, look at the board and give your "
                    "action; the master's *Resolve now* moves to the contact phase.",
        options={"characters": ["vicar", "detective", "witch", "count"]}, rng_seed=1031,
        durations={"action": PHASE_SECONDS, "contact": PHASE_SECONDS, "ritual": PHASE_SECONDS},
    )
    game = services.game_open_signup(game=game, actor=master)
    for user, display in players[:4]:
        services.seat_join(game=game, user=user, display_name=display)
    services.game_start(game=game, actor=master)
    return game


GAMES = {TITLE: week_one}
