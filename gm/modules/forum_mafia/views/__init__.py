"""Forum Mafia pages and their POST actions, one file per topic (signup, orders, abilities, Veche, rooms, setup)."""
