"""Tournament series (ON-16): tokens per player over a series of finished games, and the champion. Pure."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .state import SERIES_TOKENS


def series_standings(games: Sequence[Sequence[Any]], goal: int = SERIES_TOKENS) -> tuple[dict[Any, int], Any]:
    """Tokens per player over a series (ON-16): ``games`` lists, per finished game in order, the players who won it;
    each winner gets a token. Returns ``(tokens, champion)`` — the first player to reach ``goal`` tokens (in game
    order; ties within one game go to the first listed), or ``None``."""
    tokens: dict[Any, int] = {}
    champion = None
    for winners in games:
        for player in winners:
            tokens[player] = tokens.get(player, 0) + 1
            if champion is None and tokens[player] >= goal:
                champion = player
    return tokens, champion
