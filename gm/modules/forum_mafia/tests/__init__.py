"""Forum Mafia tests: the pure rules, the shell (services, pages, API) and the scenario files under ``scenarios/``."""
