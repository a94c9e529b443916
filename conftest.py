"""Shared fixtures: users (master, players, spectator), a started ``tally`` game, and a frozen clock."""
from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth.models import Permission

# The Celery workers the tests start (and the processes they start in turn) skip Django's system checks at start-up,
# Celery's own switch: each of the suite's ~40 worker starts ran all of them again for the same settings (about 2 %
# of the suite's CPU). tests/integration/test_deploy_check.py runs every check, deploy checks included.
os.environ.setdefault("CELERY_SKIP_CHECKS", "1")


@pytest.fixture
def make_user(django_user_model):
    """``make_user(name, host=False)`` → a user with password ``pw-<name>-123``, optionally allowed to host."""

    def make(name: str, host: bool = False):
        user = django_user_model.objects.create_user(username=name, email=f"{name}@example.com",
                                                     password=f"pw-{name}-123")
        if host:
            user.user_permissions.add(Permission.objects.get(codename="host_game"))
            user = django_user_model.objects.get(pk=user.pk)
        return user

    return make


@pytest.fixture
def master(make_user):
    return make_user("master", host=True)


@pytest.fixture
def players(make_user):
    return [make_user(f"p{i}") for i in range(4)]


@pytest.fixture
def spectator(make_user):
    return make_user("watcher")


@pytest.fixture
def frozen():
    """Time frozen at 2026-01-01 12:00 UTC; ``frozen.shift(seconds)`` moves it."""
    with time_machine.travel(datetime(2026, 1, 1, 12, 0, tzinfo=UTC), tick=False) as traveller:
        yield traveller


@pytest.fixture
def signup_game(master, players):
    """A ``tally`` game in signup with four seated players (3 rounds, 1-hour rounds)."""
    from gm.core import services

    game = services.game_create(master=master, module="tally", title="Test", options={"rounds": 3}, rng_seed=42)
    services.game_open_signup(game=game, actor=master)
    for i, user in enumerate(players):
        services.seat_join(game=game, user=user, display_name=f"Seat{i}")
    return game


@pytest.fixture
def running_game(signup_game, master):
    from gm.core import services

    services.game_start(game=signup_game, actor=master)
    signup_game.refresh_from_db()
    return signup_game


@pytest.fixture
def card_collection(db):
    """The §11 collection (``cards`` migration 0002): a transactional test that ran before may have flushed the
    database, data migrations included, so it is loaded again if it is gone."""
    import importlib

    from django.apps import apps

    from cards.models import CardKind

    if not CardKind.objects.exists():
        importlib.import_module("cards.migrations.0002_load_collection").load(apps, None)


#: Set on an item whose setup was skipped (a PostgreSQL-only test on SQLite): it touched no database, which may not
#: even exist yet in this process.
_SKIPPED = pytest.StashKey[bool]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Remember a test skipped at setup, for :func:`pytest_runtest_teardown`."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "setup" and report.skipped:
        item.stash[_SKIPPED] = True


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a transactional test's flush (which empties the tables, data migrations included: a browser test, a
    real-worker test), load the card collection (``cards`` migration 0002) again, as migrations left it, for the
    tests that run after it in this process. pytest-django runs transactional tests last, but pytest-xdist's
    workers (``.ci/run -n 2``) interleave test files, so any test may follow one. Not after the last test of the
    process: the database is gone then."""
    yield
    uses_db = item.get_closest_marker("django_db") is not None or {"transactional_db", "live_server"} & set(
        getattr(item, "fixturenames", ()))
    if nextitem is None or not uses_db or item.stash.get(_SKIPPED, False):
        return
    import importlib

    from django.apps import apps
    from pytest_django.plugin import blocking_manager_key

    from cards.models import CardKind

    with item.config.stash[blocking_manager_key].unblock():
        if not CardKind.objects.exists():
            importlib.import_module("cards.migrations.0002_load_collection").load(apps, None)


#: The test files that take longest (page walks over every route as every viewer, browsers, bots and real workers,
#: the benchmark), longest first, as a fresh-clone ``.ci/run`` measured them (its junit.xml, seconds per file):
#: collected first, so that pytest-xdist's ``--dist loadfile`` hands them out at the start and the short files fill
#: the gaps, instead of one of them starting last and running alone.
LONG_FILES = (
    "tests/integration/test_leak_audit.py",  # 159 s
    "tests/browser/test_game_page.py",  # 105 s
    "tests/browser/test_axe.py",  # 79 s
    "tests/contract/test_contract_visibility.py",  # 65 s
    "tests/browser/test_fm_game.py",  # 64 s
    "tests/integration/test_playtest_faults.py",  # 64 s
    "tests/integration/test_anonymity.py",  # 62 s
    "tests/contract/test_contract_narrow.py",  # 61 s
    "tests/integration/test_bench.py",  # 55 s
    "tests/browser/test_player_pages.py",  # 53 s
    "tests/integration/test_scenario_runner.py",  # 49 s
    "gm/modules/forum_mafia/tests/test_setup.py",  # 46 s
    "tests/integration/test_playtest.py",  # 42 s
    "tests/integration/test_worker.py",  # 38 s
    "gm/modules/blood_vengeance/tests/test_playtest.py",  # 31 s
    "tests/browser/test_axe_modules.py",  # 31 s
    "tests/integration/test_redis_outage.py",  # 30 s
    "tests/contract/test_contract_languages.py",  # 27 s
)


def pytest_collection_modifyitems(session, config, items):
    """Put the items of :data:`LONG_FILES` first, in that order; the rest keep their collection order."""
    rank = {path: i for i, path in enumerate(LONG_FILES)}

    def key(item):
        path = item.nodeid.split("::", 1)[0]
        return rank.get(path, len(rank))

    items.sort(key=key)  # stable: the order within a file and among the other files is kept
