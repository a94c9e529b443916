"""One Night Ultimate Werewolf's demo game for ``manage.py gm_demo`` (``OnuwModule.demo_games``)."""
from __future__ import annotations

from gm.core import services
from gm.core.models import Game

TITLE = "Demo: One Night Ultimate Werewolf (night)"
#: Seats in ring order (five players), then the three center cards (ON-3): every player wakes with a choice.
DEAL = ["seer", "werewolf", "robber", "troublemaker", "drunk", "werewolf", "villager", "insomniac"]
NIGHT_SECONDS = 7 * 24 * 3600


def night(*, master, players) -> Game:
    """A game in its night (ON-13) with a week-long deadline: the first five ``players`` (``[(user, display
    name)]``), a fixed deal (:data:`DEAL`) so that each has a night choice — seer, lone werewolf (ON-4.2), robber,
    troublemaker, drunk. The master's *Resolve now* opens the day and its public vote (ON-15)."""
    game = services.game_create(
        master=master, module="onuw", title=TITLE,
        description="One Night Ultimate Werewolf: log in as player1…player5, open the game and make your night "
                    "choice; then vote by day.",
        options={"deal": DEAL}, rng_seed=2026, durations={"night": NIGHT_SECONDS, "day": NIGHT_SECONDS},
    )
    game = services.game_open_signup(game=game, actor=master)
    for user, display in players[:5]:
        services.seat_join(game=game, user=user, display_name=display)
    services.game_start(game=game, actor=master)
    return game


GAMES = {TITLE: night}
