"""Signals the core sends so that apps can join in without the core knowing them."""
from django.dispatch import Signal

#: Sent inside ``game_start``'s transaction after the module's ``setup`` and before the game row is saved.
#: Arguments: ``game`` (its ``state`` may be extended in place) and ``module`` (the GameModule).
game_started = Signal()
