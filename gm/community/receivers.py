"""Receivers of the core's signals (connected in :class:`gm.community.apps.CommunityConfig`); each calls one
service inside the sender's transaction."""
from __future__ import annotations

from . import services


def game_finished(sender, *, game, phase, now, **kwargs) -> None:
    """``gm.core.signals.game_finished``: the reliability counters and the statistics of the game's end."""
    services.record_game_end(game=game, phase=phase)


def seat_replaced(sender, *, seat, old_user, new_user, **kwargs) -> None:
    """``gm.core.signals.seat_replaced``: the old player is replaced out, with his tenure's figures."""
    services.record_handover(seat=seat, old_user=old_user)


def seat_modkilled(sender, *, game, seat, now, **kwargs) -> None:
    """``gm.core.signals.seat_modkilled``: one more modkill on the player's record."""
    services.record_modkill(seat=seat)


def seat_joining(sender, *, game, user, **kwargs) -> None:
    """``gm.core.signals.seat_joining``: refuse a signup that breaks the game's requirements or a sanction."""
    services.signup_check(game=game, user=user)
