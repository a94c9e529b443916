"""A forum Mafia playtest: the core's generic runner (:mod:`gm.core.playtest.runner`) with this game's bots."""
from __future__ import annotations

from typing import Any

from gm.core.playtest.runner import GameReport
from gm.core.playtest.runner import play_game as play_any_game


def play_game(**kwargs: Any) -> GameReport:
    """:func:`gm.core.playtest.runner.play_game` for ``forum_mafia`` (same keyword arguments but ``game``)."""
    return play_any_game(game="forum_mafia", **kwargs)
