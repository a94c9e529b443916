"""What the statistics read of a finished forum Mafia game, pure: the secret roles in play (the setup, FM-3.4) and
each seat's side (its faction, FM-3; a neutral plays for himself, the traitor with the Mafia and the hero with the
Law, as FM-10 counts them) and result (FM-10, FM-6.2: the dead win with their side)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import FinalResults, SeatInfo, SeatResult

from .roles import SECRET_ROLES

#: Neutral roles' sides as FM-10 counts them (``check_victory``'s avenger teams).
NEUTRAL_SIDES = {"maniac": "maniac", "joker": "joker", "traitor": "mafia", "hero": "law"}


def side_of(role: str) -> str:
    """The side a secret role plays for (``law``, ``mafia``, ``maniac``, ``joker``; ``""`` for an unknown role)."""
    if role in NEUTRAL_SIDES:
        return NEUTRAL_SIDES[role]
    return SECRET_ROLES[role].faction if role in SECRET_ROLES else ""


def final_results(state: Mapping[str, Any], seats: Sequence[SeatInfo], outcome: Mapping[str, Any]) -> FinalResults:
    """The setup is the sorted secret roles of the table; each seat's role its secret role, its side
    :func:`side_of`, ``won`` by the outcome's ``winning_seats``."""
    won = {int(s) for s in outcome.get("winning_seats") or []}
    rows = []
    for seat in seats:
        role = str(seat.data.get("secret_role") or "")
        rows.append(SeatResult(seat_id=seat.id, side=side_of(role), role=role, won=seat.id in won))
    return FinalResults(setup=tuple(sorted(r.role for r in rows if r.role)), seats=tuple(rows))
