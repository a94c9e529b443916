"""Test settings: the site's settings plus the test-only ``tally`` module and fast password hashing.

The database and broker still come from ``DATABASE_URL`` / ``CELERY_BROKER_URL`` (embedded defaults when unset),
so the same suite runs on SQLite locally and on PostgreSQL + Redis in CI.
"""
import os
import tempfile

os.environ.setdefault("GM_BROKER_DIR", os.path.join(tempfile.gettempdir(), "gm-test-broker"))

from gm.settings import *  # noqa: E402,F403
from gm.settings import GM_EXTRA_MODULES, INSTALLED_APPS  # noqa: E402

TEST_MODULES = ["tests.fake_games.tally", "tests.fake_games.cardtest", "tests.fake_games.pig"]
GM_EXTRA_MODULES = [*GM_EXTRA_MODULES, *(m for m in TEST_MODULES if m not in GM_EXTRA_MODULES)]
INSTALLED_APPS = [*INSTALLED_APPS, *(m for m in TEST_MODULES if m not in INSTALLED_APPS)]

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
LOGGING = {"version": 1, "disable_existing_loggers": False}
# Flood limits off by default (the suite sends many requests from one address within a minute); the tests of the
# limits set their own rates (read at each request).
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "auth": None}}  # noqa: F405
GM_SEAT_RATES = {}
# Outage protection off by default: many tests sweep on frozen time that jumps hours between two sweeps, which
# would read as an outage; tests/integration/test_outage.py turns it on (and the real workers of
# test_outage_worker.py through GM_TEST_OUTAGE_AFTER, seconds).
GM_OUTAGE_AFTER = float(os.environ.get("GM_TEST_OUTAGE_AFTER") or 0) or None
# Transactional tests end with a flush: on PostgreSQL by DELETE rather than TRUNCATE (tests/postgresql_backend).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["ENGINE"] = "tests.postgresql_backend"  # noqa: F405
