"""Django's PostgreSQL backend for the test suite, with a faster flush (see :mod:`.base`)."""
