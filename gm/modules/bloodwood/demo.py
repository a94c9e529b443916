"""Bloodwood's demo game for ``manage.py gm_demo`` (``BloodwoodModule.demo_games``): six players at Night, a
position where each demo login has something to do within a step or two."""
from __future__ import annotations

from gm.core import services
from gm.core.models import Game

TITLE = "Demo: Bloodwood (night)"
WEEK = 7 * 24 * 3600
#: The master's set-up override (seats by number): player1 is to move at Night with an attack in hand; player2 can
#: answer with an Amulet or a Mirror; the others hold Leshy/Hunter answers, a Curse Mark and Chains lie on the table.
POSITION = {
    "entities": ["dracula", "werewolf", "vampire", "the_alpha", "werewolf", "vampire"],
    "hands": {"1": ["bite", "leshy", "voodoo", "candle"], "2": ["amulet", "mirror", "keys", "bite"],
              "3": ["hunter", "vaccine", "thief", "chains"], "4": ["curse_mark", "blood_test", "bite", "eclipse"],
              "5": ["tranquilizer", "confession", "pandoras_box", "bite"], "6": ["time_loop", "keys", "amulet"]},
    "dna": {"2": "mutated", "5": "mutated"}, "curse": {"3": 2}, "chains": ["6"],
    "decks": {"night": ["bite", "chains", "voodoo", "mirror", "bite", "leshy", "tranquilizer", "bite"],
              "day": ["vaccine", "thief", "candle", "keys", "amulet", "confession", "blood_test", "vaccine"]},
    "discard": ["bite", "vaccine"], "phase": "night", "to_move": 1,
}


def night(*, master, players) -> Game:
    """A six-player game at Night with week-long steps (:data:`POSITION`)."""
    kinds = ("turn", "reaction", "discard", "give", "keep", "refill")
    game = services.game_create(
        master=master, module="bloodwood", title=TITLE,
        description="Bloodwood: log in as player1…player6 and open the game; player1 moves first, at Night.",
        options={"position": POSITION}, rng_seed=2026, durations={k: WEEK for k in kinds},
    )
    game = services.game_open_signup(game=game, actor=master)
    for user, display in players[:6]:
        services.seat_join(game=game, user=user, display_name=display)
    services.game_start(game=game, actor=master)
    game.refresh_from_db()
    return game


GAMES = {TITLE: night}
