"""Forum Mafia writes: keyword-only, atomic services that lock the phase row (signups, orders, abilities, rooms,
the start stretch, the master's table overrides)."""
