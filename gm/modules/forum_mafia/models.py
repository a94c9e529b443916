"""Forum Mafia models (signups, FM-2)."""
