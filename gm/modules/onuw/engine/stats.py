"""What the statistics read of a finished ONUW game, pure: the cards in play (the setup, ON-2) and each seat's team
by its final card (ON-5), its dealt card as its role and its result (ON-9–ON-12)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import FinalResults, SeatInfo, SeatResult

from .roles import effective, team


def final_results(state: Mapping[str, Any], seats: Sequence[SeatInfo], outcome: Mapping[str, Any]) -> FinalResults:
    """The setup is every card in play (the seats' and the center's: swaps keep the multiset), sorted; a seat's
    role is the card it was dealt, its side the team of the card in front of it at the end (ON-5), ``won`` by the
    outcome's ``winning_seats``."""
    cards = state.get("cards") or {}
    dealt = state.get("dealt") or {}
    won = {int(s) for s in outcome.get("winning_seats") or []}
    setup = tuple(sorted([str(c) for c in cards.values()] + [str(c) for c in state.get("center") or []]))
    rows = []
    for seat in seats:
        sid = str(seat.id)
        final = seat.data.get("final_as") or (effective(cards[sid], state) if sid in cards else "")
        rows.append(SeatResult(seat_id=seat.id, side=str(seat.data.get("team") or (team(final) if final else "")),
                               role=str(dealt.get(sid, "")), won=seat.id in won))
    return FinalResults(setup=setup, seats=tuple(rows))
