"""Series points over several games (BV-12.3). Pure."""
from __future__ import annotations

from collections.abc import Iterable, Mapping


def series_table(games: Iterable[Mapping[object, int]]) -> dict[object, int]:
    """BV-12.3: each player's total over ``games`` (each a mapping player → the points of that game, BV-12)."""
    totals: dict[object, int] = {}
    for game in games:
        for player, pts in game.items():
            totals[player] = totals.get(player, 0) + int(pts)
    return totals
