"""Forum Mafia forms: the signup forms (FM-2) and the night and day order form (FM-5)."""
