"""Card collection models (the cards issue fills this app)."""
