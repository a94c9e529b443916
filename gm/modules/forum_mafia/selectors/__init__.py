"""Reads of forum Mafia, shared by its pages and its API (the topics in submodules: :mod:`.veche`).

Here: what an open forum Mafia phase needs from a player, for his "My games" page (``GameModule.player_needs``).

Deck building (FM-4.5): his deck is due until he submits one; a night (FM-5): an order; a day: his Veche vote (FM-7.1)
— day orders of cards are optional, the vote is what the day asks of everyone. Reads only the rows the core loaded.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from gm.core.dashboard import ACT, DONE, Need

from ..engine.state import DAY, DECKBUILDING


def player_needs(*, game, phase, seat, payload: Any) -> list[Need] | None:
    """The needs of ``seat``'s player in the open ``phase`` (see :meth:`gm.core.engine.GameModule.player_needs`)."""
    label = phase.label
    if phase.kind == DECKBUILDING:
        if (seat.data or {}).get("deck_list"):
            return [Need(_("Your deck for %(phase)s is in; you may change it until the deadline (FM-4.5).")
                         % {"phase": label}, DONE, phase.deadline)]
        return [Need(_("Your deck is due: build it before %(phase)s ends (FM-4.5).") % {"phase": label}, ACT,
                     phase.deadline)]
    if phase.kind == DAY:
        vote = payload.get("vote") if isinstance(payload, Mapping) else None
        if not vote:
            return [Need(_("The Veche is open in %(phase)s: you have not voted (FM-7.1).") % {"phase": label}, ACT,
                         phase.deadline)]
        return [Need(_("You have voted in %(phase)s; you may change your vote until the deadline.")
                     % {"phase": label}, DONE, phase.deadline)]
    return None
