"""Forum Mafia REST API, one file per topic."""
