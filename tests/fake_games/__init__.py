"""Fake game modules for the tests and the developer demo (``tally``, ``cardtest``), registered by tests/settings.py."""
