"""Forum Mafia's demo games for ``manage.py gm_demo`` (``ForumMafiaModule.demo_games``): one with signups open and
one in Night 1, both built through the site's services as a master and his players would."""
from __future__ import annotations

from gm.core import services
from gm.core.models import Game

from .services.signup import signup_create

SIGNUP_TITLE = "Демо: форумная Мафия (запись открыта)"
SIGNUPS = [("paranoid", ""), ("geek", ""), ("authority", ""), ("", "Лесник")]
NIGHT_TITLE = "Демо: форумная Мафия (ночь 1)"
NIGHT_SIGNUPS = [("paranoid", ""), ("secretary", ""), ("guard", ""), ("jock", ""), ("rich_man", ""), ("fighter", "")]
DURATIONS = {"deckbuilding": 3600, "night": 3600, "day": 3600}


def _sign_up(game: Game, players, signups) -> None:
    for (user, display), (role, custom) in zip(players, signups, strict=False):
        signup_create(game=game, user=user, public_role=role or "custom", custom_role=custom,
                      character_name=display, messengers=f"Telegram @{user.username}", pledges=True)


def signup_open(*, master, players) -> Game:
    """A real forum Mafia game with open signups (FM-2): four players have claimed public roles; two more can sign
    up, and the master can start it (deck building, then Night 1). ``players``: ``[(user, display name)]``."""
    game = services.game_create(
        master=master, module="forum_mafia", title=SIGNUP_TITLE,
        description="Форумная карточная Мафия. Запишитесь, выбрав явную роль; тайные роли раздаются при старте.",
        options={"hero": False}, durations=DURATIONS,
    )
    game = services.game_open_signup(game=game, actor=master)
    _sign_up(game, players, SIGNUPS)
    return game


def night_one(*, master, players) -> Game:
    """A forum Mafia game in Night 1 (FM-5, FM-6): six players signed up, the game started, and the master ended
    deck building at once, so every player got a random valid deck (FM-4.5) and can order cards now; the night
    resolves at its deadline (1 hour) or when the master presses *Resolve now*. ``players``: six
    ``(user, display name)``."""
    game = services.game_create(
        master=master, module="forum_mafia", title=NIGHT_TITLE,
        description="Форумная карточная Мафия в первой ночи: отдайте приказ картами до дедлайна.",
        options={"hero": False}, durations=DURATIONS, rng_seed=2026,
    )
    game = services.game_open_signup(game=game, actor=master)
    _sign_up(game, players[:len(NIGHT_SIGNUPS)], NIGHT_SIGNUPS)
    services.game_start(game=game, actor=master)
    services.phase_resolve_now(game=game, actor=master, reason="Demo: random decks for everyone")
    return game


GAMES = {SIGNUP_TITLE: signup_open, NIGHT_TITLE: night_one}
