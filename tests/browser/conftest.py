"""Browser tests: Playwright (sync API) driving Debian's Chromium against pytest-django's ``live_server`` (a real
HTTP server in this process, on the transactional PostgreSQL test database) with a real ``celery worker``
subprocess on the same database and this session's own Redis queue (``tests/integration/worker_utils.py``).

They need PostgreSQL, Redis and ``/usr/bin/chromium``, and skip with the reason when one is missing. Playwright
never downloads a browser here: it launches the system Chromium (``executable_path``).

Run::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gm CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        bin/test tests/browser -q
"""
from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync"]
#: Widths every page is photographed at: a desktop and a small phone.
WIDE, NARROW = 1280, 375
HEIGHT = 900
#: Playwright's bound on waiting for a locator or an expectation, in milliseconds (pages come from a local server,
#: but CI shares two cores; a passing step never waits for it).
TIMEOUT_MS = 15_000


def _chromium_missing() -> str | None:
    if not CHROMIUM.exists():
        return f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:  # pragma: no cover - a dev dependency
        return "browser tests need the playwright package (requirements/dev.lock)"
    return None


# -- the browser ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium():
    """One headless system Chromium per test module."""
    reason = _chromium_missing()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)  # a loaded CI machine: the same bound as for locators

    # Playwright's sync API runs an asyncio loop in this thread; the tests' own ORM calls (setup, waiting for the
    # worker) are plain synchronous code, which Django's async-safety guard would refuse for nothing. Only while
    # the browser runs: the other tests keep the guard.
    previous = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        if previous is None:
            os.environ.pop(ASYNC_UNSAFE, None)
        else:
            os.environ[ASYNC_UNSAFE] = previous


class Screens:
    """Writes each visited page as ``<n>-<name>-1280.png`` and ``-375.png`` into ``folder`` and checks, on the
    player's pages, that nothing is wider than the phone's screen."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.count = 0
        self.written: list[Path] = []

    def shoot(self, page, name: str, *, check_overflow: bool = False) -> None:
        """Photograph ``page`` at 1280 px and at 375 px (full page), then restore 1280 px. With ``check_overflow``
        assert that at 375 px the document is no wider than the viewport (no horizontal scrolling)."""
        self.count += 1
        stem = f"{self.count:02d}-{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')}"
        for width in (WIDE, NARROW):
            page.set_viewport_size({"width": width, "height": HEIGHT})
            path = self.folder / f"{stem}-{width}.png"
            page.screenshot(path=str(path), full_page=True)
            self.written.append(path)
            if width == NARROW and check_overflow:
                scroll_width = page.evaluate("document.documentElement.scrollWidth")
                wide = page.evaluate(_WIDEST_JS, NARROW)
                assert scroll_width <= NARROW, (
                    f"{name}: the page scrolls sideways at {NARROW} px (scrollWidth {scroll_width}); "
                    f"widest elements: {wide}")
        page.set_viewport_size({"width": WIDE, "height": HEIGHT})


#: True once htmx has no request in flight and nothing left to swap or settle (its classes are gone).
_HTMX_IDLE_JS = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"


def htmx_idle(page) -> None:
    """Wait until htmx has swapped and settled what it fetched: an answer received is not yet in the page, and a
    field filled before the swap lands is replaced (and its change never sent)."""
    page.wait_for_function(_HTMX_IDLE_JS)


#: The few elements that stick out furthest to the right (for the overflow assertion's message).
_WIDEST_JS = """(limit) => [...document.querySelectorAll('body *')]
  .map(e => [e.getBoundingClientRect().right, e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
             + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '')])
  .filter(([right]) => right > limit).sort((a, b) => b[0] - a[0]).slice(0, 5)"""


@pytest.fixture
def screens(request) -> Screens:
    """The screenshot writer of one test: its folder is ``request.module.SCREENSHOT_DIR`` (emptied first)."""
    folder = Path(request.module.SCREENSHOT_DIR)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return Screens(folder)


@pytest.fixture
def new_context(chromium, live_server):
    """``new_context(user=None)`` → ``(context, page)``: a fresh browser profile showing English pages, logged in
    as ``user`` through a session cookie made by Django's test client (``None``: anonymous). Closed at teardown."""
    from django.conf import settings
    from django.test import Client

    contexts = []
    host = re.sub(r"^https?://", "", live_server.url).split(":")[0]

    def make(user=None):
        context = chromium.new_context(viewport={"width": WIDE, "height": HEIGHT}, locale="en-GB",
                                       base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "domain": host, "path": "/"}]
        if user is not None:
            client = Client()
            client.force_login(user)
            cookies.append({"name": settings.SESSION_COOKIE_NAME, "domain": host, "path": "/",
                            "value": client.cookies[settings.SESSION_COOKIE_NAME].value})
        context.add_cookies(cookies)
        contexts.append(context)
        return context, context.new_page()

    yield make
    for context in contexts:
        context.close()


# -- the worker -----------------------------------------------------------------------------------------


@pytest.fixture
def needs_postgres_and_redis(transactional_db):
    from tests.integration.worker_utils import skip_reason

    reason = skip_reason()
    if reason:
        pytest.skip(f"browser tests run the site with a real Celery worker: {reason}")


@pytest.fixture(scope="session")
def _forget_browser_queue():
    yield
    from tests.integration.worker_utils import SESSION_QUEUE, forget_queue, skip_reason

    if skip_reason() is None:
        forget_queue(SESSION_QUEUE)


@pytest.fixture
def celery_worker(needs_postgres_and_redis, _forget_browser_queue, settings, tmp_path) -> Iterator:
    """A real ``celery worker --pool=solo`` on the test database, consuming this session's own Redis queue; the
    live server (a thread of this process) sends its tasks there too. Stopped before the database is flushed."""
    from tests.integration.worker_utils import (
        SESSION_QUEUE,
        CeleryProcesses,
        purge_queue,
        routed_to,
        worker_database_url,
    )

    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": worker_database_url(),
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "CELERY_TASK_DEFAULT_QUEUE": SESSION_QUEUE,
           "GM_OVERDUE_AFTER": "3600", "PYTHONUNBUFFERED": "1"}
    with routed_to(SESSION_QUEUE, settings):
        procs = CeleryProcesses(log_dir=tmp_path, queue=SESSION_QUEUE, env=env)
        worker = procs.worker(wait=False)  # it starts while the test sets up; ``ready()`` waits for it
        worker.ready = lambda: procs.wait_ready(worker)
        try:
            yield worker
        finally:
            procs.stop_all()
            print(procs.report(40))
            purge_queue(SESSION_QUEUE)
