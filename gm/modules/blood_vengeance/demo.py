"""Blood Vengeance's demo game for ``manage.py gm_demo`` (``BloodVengeanceModule.demo_games``)."""
from __future__ import annotations

from gm.core import services
from gm.core.models import Game

TITLE = "Demo: Mafia: Blood Vengeance (night 1)"
#: Six seats in ring order (BV-2.1's six-player row: five vampires, one hunter; the first game's cards, BV-2.8),
#: with a lamia and a monk so that the first light time has abilities to use.
DEAL = ["lamia", "vampire", "monk", "vampire", "vampire", "vampire"]
WEEK = 7 * 24 * 3600


def night(*, master, players) -> Game:
    """A six-player game in its night 1 with week-long deadlines; the master's *Resolve now* opens the light time."""
    game = services.game_create(
        master=master, module="blood_vengeance", title=TITLE,
        description="Mafia: Blood Vengeance: log in as player1…player6, vote at night, use your ability in the light "
                    "time.",
        options={"deal": DEAL}, rng_seed=2026,
        durations={k: WEEK for k in ("night", "defence", "verdict", "arbiter", "light")},
    )
    game = services.game_open_signup(game=game, actor=master)
    for user, display in players[:6]:
        services.seat_join(game=game, user=user, display_name=display)
    services.game_start(game=game, actor=master)
    return game


GAMES = {TITLE: night}
