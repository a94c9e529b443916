"""The machinery of the axe-core audits (``test_axe*.py``): one set of demo games per test file, one live server and
one browser profile per viewer, language and look, and :func:`audit`, which runs axe-core on a page and returns its
serious and critical violations in words.

Why the data lives for the whole file: the audits only read pages, and building every module's games (``manage.py
gm_demo`` and a forum Mafia table played into its first day) takes seconds, so it is built once per file, committed
(outside the tests' transactions, so the live server's thread sees it), and flushed at the end of the file, as
pytest-django flushes after a transactional test. The tests themselves are plain ``django_db`` tests: each runs in
a transaction rolled back at its end, and nothing they do writes (the keyboard test's order goes through the live
server, whose writes are flushed with the rest).

axe-core comes from the ``axe-playwright-python`` package (its bundled ``axe.min.js``). The package injects it with
``page.evaluate`` — a DevTools evaluation, which the site's Content-Security-Policy (``script-src 'self'``) does not
govern — so the audits run under the site's real CSP, without ``bypass_csp``.
"""
from __future__ import annotations

import importlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.browser.conftest import HEIGHT, TIMEOUT_MS, WIDE

#: The impacts that fail an audit (axe-core's scale: minor, moderate, serious, critical).
FAILING = ("serious", "critical")
#: The rule sets run: WCAG 2.0/2.1/2.2 A and AA, and axe's best practices (landmarks, headings, unique ids…).
RUN_ONLY = {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]}
#: The looks every page is audited in: English on a desktop in the light scheme, Russian on a phone in the dark
#: scheme (both widths, both languages and both colour schemes, at two audits per page).
LOOKS = {"en-1280-light": ("en", WIDE, "light"), "ru-375-dark": ("ru", 375, "dark")}
#: Opens every ``<details>`` so that what it hides is audited too (axe skips hidden content).
OPEN_DETAILS_JS = "() => document.querySelectorAll('details').forEach(d => { d.open = true; })"
PASSWORD = "a11y-password-1"
#: A path no page answers: the site's 404 page is audited there.
NOT_FOUND = "/no-such-page/"


@dataclass
class Site:
    """The live server's address, the games by key, the users by key and one session cookie per user."""

    url: str
    games: dict[str, Any] = field(default_factory=dict)
    users: dict[str, Any] = field(default_factory=dict)
    sessions: dict[str, str] = field(default_factory=dict)
    contexts: dict[tuple, Any] = field(default_factory=dict)


def reload_card_collection() -> None:
    """The card collection (``cards`` migration 0002) again after a flush, as the root conftest does after a
    transactional test, for the tests that follow in this process."""
    from django.apps import apps

    from cards.models import CardKind

    if not CardKind.objects.exists():
        importlib.import_module("cards.migrations.0002_load_collection").load(apps, None)


def login_sessions(site: Site) -> None:
    """A committed session for every user of ``site`` (made by Django's test client outside any test transaction:
    the live server's thread must see it)."""
    from django.conf import settings
    from django.test import Client

    for key, user in site.users.items():
        client = Client()
        client.force_login(user)
        site.sessions[key] = client.cookies[settings.SESSION_COOKIE_NAME].value


def page_for(site: Site, chromium, viewer: str | None, look: str):
    """A page in the browser profile of ``viewer`` (a key of ``site.users``; ``None``: anonymous) for ``look`` (a
    key of :data:`LOOKS`), made once per file and reused."""
    from django.conf import settings

    key = (viewer, look)
    if key not in site.contexts:
        language, width, scheme = LOOKS[look]
        context = chromium.new_context(viewport={"width": width, "height": HEIGHT}, base_url=site.url,
                                       color_scheme=scheme, locale="ru-RU" if language == "ru" else "en-GB")
        context.set_default_timeout(TIMEOUT_MS)
        host = re.sub(r"^https?://", "", site.url).split(":")[0]
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}]
        if viewer is not None:
            cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": site.sessions[viewer], "domain": host,
                            "path": "/"})
        context.add_cookies(cookies)
        site.contexts[key] = (context, context.new_page())
    return site.contexts[key][1]


def close_contexts(site: Site) -> None:
    """Close the browser profiles of ``site`` (before the browser itself closes)."""
    for context, _page in site.contexts.values():
        context.close()
    site.contexts.clear()


#: The demo games of the real modules (``gm_demo``'s titles), by key.
DEMO = {
    "onuw": "Demo: One Night Ultimate Werewolf (night)",
    "bloodwood": "Demo: Bloodwood (night)",
    "blood_vengeance": "Demo: Mafia: Blood Vengeance (night 1)",
    "october_night": "Demo: October Night (week 1)",
    "fm_night": "Демо: форумная Мафия (ночь 1)",
    "fm_signup": "Демо: форумная Мафия (запись открыта)",
}


def _play_fm_day(master) -> tuple:
    """The seven-player forum Mafia table of ``tests/integration/fm_table.py`` played through Night 1 (Boris shot)
    into Day 1 (the night's results in every player's inbox), the graveyard on, two votes for Eva in the Veche, a
    post, and a chat room of Alice, Harry and Jo
    (written into the state as the engine's end of day would, FM-9.3: three agreeing proposals need a whole day).
    Returns ``(game, {name: user})``."""
    from django.contrib.auth import get_user_model

    from gm.core import services
    from gm.core.services import graveyard
    from gm.inbox.services import notify_phase_results
    from tests.integration import fm_table

    def make_user(name: str):
        return get_user_model().objects.create_user(username=f"fm-{name.lower()}", email=f"fm-{name}@example.com",
                                                    password=PASSWORD)

    game, users = fm_table.build(master, make_user)
    fm_table.night_orders(game, users)
    night = fm_table.open_phase(game)
    services.phase_resolve_now(game=game, actor=master, reason="a11y: to Day 1")
    notify_phase_results(phase_id=night.pk)  # the worker's job: every seat's inbox gets the night's results
    graveyard.graveyard_options_set(game=game, actor=master, graveyard=True, spectators_read_graveyard=True,
                                    reason="a11y")
    day = fm_table.open_phase(game)
    seat = fm_table.ids(game)
    for voter in ("Alice", "Harry"):
        services.order_submit(phase=day, user=users[voter],
                              payload={"vote": {"for": seat["Eva"], "punishment": "execution"}})
    services.post_create(game=game, user=users["Alice"], body="[b]Eva[/b] is the advisor, I am sure.")
    game.refresh_from_db()
    game.state["fm"].setdefault("rooms", {})["room:0-1"] = {
        "members": [seat["Alice"], seat["Harry"], seat["Jo"]], "until": None}
    game.save(update_fields=["state"])
    return game, users


def build_site(django_db_blocker, *, fm_day: bool) -> Iterator[Site]:
    """The body of a test file's module fixture: the demo games (``manage.py gm_demo``), with ``fm_day`` the
    played forum Mafia table too, a spectator (a user without a seat), one committed session per user, and a live
    server; at the end the database is flushed (as after a transactional test) and the card collection reloaded.
    Users: ``master``, ``player1``, ``spectator``, ``seat-<game key>`` (the first seat of each game); with
    ``fm_day`` also ``dead`` (Boris), ``member`` (Alice, in the room) and ``voter`` (Clara, who has not voted)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from pytest_django.live_server_helper import LiveServer

    from gm.core import services
    from gm.core.models import Game

    with django_db_blocker.unblock():
        call_command("gm_demo", stdout=io.StringIO())
        User = get_user_model()
        master = User.objects.get(username="master")
        # The live server answers each request in a new thread: a persistent connection would outlive it and keep
        # the test database busy at its teardown.
        settings_dict = connections.settings["default"]
        max_age = settings_dict.get("CONN_MAX_AGE")
        settings_dict["CONN_MAX_AGE"] = 0
        server = LiveServer("localhost")
        server._live_server_modified_settings.enable()
        site = Site(url=server.url)
        try:
            site.games = {key: Game.objects.get(title=title) for key, title in DEMO.items()}
            site.users = {"master": master, "player1": User.objects.get(username="player1"),
                          "spectator": User.objects.create_user(username="watcher", email="watcher@example.com",
                                                                password=PASSWORD)}
            if fm_day:
                site.games["fm_day"], fm_users = _play_fm_day(master)
                site.users.update(dead=fm_users["Boris"], member=fm_users["Alice"], voter=fm_users["Clara"])
            for key, game in site.games.items():
                seat = game.seats.order_by("pk").first()
                if seat is not None:
                    site.users[f"seat-{key}"] = seat.user
            for key in ("onuw", "october_night"):
                services.post_create(game=site.games[key], user=site.users[f"seat-{key}"], body="Good night, all.")
            login_sessions(site)
            yield site
        finally:
            server._live_server_modified_settings.disable()
            server.stop()
            settings_dict["CONN_MAX_AGE"] = max_age
            call_command("flush", interactive=False, verbosity=0)
            reload_card_collection()


_AXE = None


def audit(page) -> list[str]:
    """axe-core's serious and critical violations on ``page`` as it is now (``<details>`` opened first), one line
    per rule: ``rule (impact) ×nodes: help — first targets — what to fix``."""
    global _AXE
    from axe_playwright_python.sync_playwright import Axe

    if _AXE is None:
        _AXE = Axe()
    page.evaluate(OPEN_DETAILS_JS)
    results = _AXE.run(page, options={"runOnly": RUN_ONLY, "resultTypes": ["violations"]})
    lines = []
    for violation in results.response["violations"]:
        if violation["impact"] not in FAILING:
            continue
        nodes = violation["nodes"]
        targets = "; ".join(" ".join(map(str, n["target"])) for n in nodes[:4])
        summary = " ".join(nodes[0].get("failureSummary", "").split())[:300]
        lines.append(f"{violation['id']} ({violation['impact']}) ×{len(nodes)}: {violation['help']} — {targets} — "
                     f"{summary}")
    return lines


def visit(page, url: str, *, status: int = 200) -> None:
    """Open ``url`` and wait until the page and what htmx loads at once (``hx-trigger="load"``) are in."""
    response = page.goto(url)
    assert response is not None and response.status == status, f"{url}: HTTP {response and response.status}"
    if page.locator("[hx-trigger~='load']").count():
        page.wait_for_load_state("networkidle")


#: ``{page kind: (viewer, path)}`` of one game's pages: ``{pk}`` is the game's id, ``{seat}`` the id of its first
#: seat; ``player`` is the user of that seat, ``spectator`` a user without a seat, ``None`` an anonymous visitor.
GAME_PAGES = {
    "game-player": ("player", "/games/{pk}/"),
    "game-master": ("master", "/games/{pk}/"),
    "game-spectator": ("spectator", "/games/{pk}/"),
    "console": ("master", "/games/{pk}/console/"),
}


def game_cases(games: list[str], pages: dict | None = None) -> list[tuple]:
    """``(case name, game key, viewer, path)`` for each page of :data:`GAME_PAGES` (or ``pages``) of each game."""
    return [(f"{game}-{kind}", game, viewer, path) for game in games
            for kind, (viewer, path) in (pages or GAME_PAGES).items()]


def params(cases: list[tuple], looks: tuple[str, ...] | None = None) -> list:
    """The cases as ``pytest.param(game, viewer, path, look)``: one per look of ``looks``, or (``None``) each case
    in one look, the looks taken in turn, so both languages, both widths and both colour schemes are audited across
    the pages within the CI's time (the templates and the CSS are the same in every look)."""
    import pytest

    if looks is None:
        chosen = [(case, list(LOOKS)[i % len(LOOKS)]) for i, case in enumerate(cases)]
    else:
        chosen = [(case, look) for case in cases for look in looks]
    return [pytest.param(game, viewer, path, look, id=f"{name}-{look}") for (name, game, viewer, path), look in chosen]


def check_page(site: Site, chromium, game_key: str | None, viewer: str | None, path: str, look: str) -> None:
    """Open ``path`` (formatted with the game's ``pk`` and first ``seat``) as ``viewer`` (``player``: the game's
    first seated player) in ``look`` and assert that axe-core finds nothing serious or critical."""
    who = f"seat-{game_key}" if viewer == "player" else viewer
    page = page_for(site, chromium, who, look)
    if game_key is not None:
        game = site.games[game_key]
        seat = game.seats.order_by("pk").first()
        path = path.format(pk=game.pk, seat=seat.pk if seat else 0)
    visit(page, path, status=404 if path.startswith(NOT_FOUND) else 200)
    violations = audit(page)
    assert violations == [], f"{path} as {who or 'anonymous'} ({look}):\n" + "\n".join(violations)


#: The focused element in words: tag, id, name, value, class and accessible name (aria-label or text).
FOCUSED_JS = """() => { const e = document.activeElement; if (!e) return null;
  return {tag: e.tagName.toLowerCase(), id: e.id || '', name: e.getAttribute('name') || '', value: e.value || '',
          cls: (e.getAttribute('class') || ''), label: e.getAttribute('aria-label') || (e.textContent || '').trim(),
          type: e.getAttribute('type') || ''}; }"""


def tab_to(page, selector: str, *, limit: int = 400) -> list[dict]:
    """Press Tab (only the keyboard) until the focused element matches ``selector``; returns every element the
    focus passed through (:data:`FOCUSED_JS`), the last one the match. Fails after ``limit`` presses."""
    passed = []
    for _press in range(limit):
        page.keyboard.press("Tab")
        passed.append(page.evaluate(FOCUSED_JS))
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector):
            return passed
    raise AssertionError(f"{limit} presses of Tab never reached {selector}; last: {passed[-5:]}")
