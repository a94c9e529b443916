"""Forum Mafia forms: the master's options on the "new game" page, the signup forms (FM-2) and the night and day
order form (FM-5)."""
