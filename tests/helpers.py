"""Helpers shared by the integration tests: logged-in clients and one-line JSON API calls."""
from __future__ import annotations

import json
import re

from django.conf import settings
from django.test import Client


def client_for(user=None, *, language: str | None = "en") -> Client:
    """A test client logged in as ``user`` (anonymous for ``None``), showing ``language`` (cookie; ``None``: the
    site default). Exceptions in views are raised, so a 500 fails the test."""
    client = Client()
    client.raise_request_exception = True
    if user is not None:
        client.force_login(user)
    if language:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def api(client: Client, method: str, url: str, body=None, **extra):
    """One JSON request; returns ``(status, parsed body or None)``. GET sends ``body`` as query parameters."""
    kwargs = {"content_type": "application/json"} if method != "get" else {}
    if body is not None:
        kwargs["data"] = json.dumps(body) if method != "get" else body
    response = getattr(client, method)(url, **kwargs, **extra)
    data = response.json() if response.content and response["Content-Type"].startswith("application/json") else None
    return response.status_code, data


def race(attempt, n: int = 2, timeout: float = 30) -> list:
    """Run ``attempt(i)`` for i in 0…n-1 in ``n`` threads released together (a barrier), each with its own
    database connection (closed after); returns what each returned, or the exception it raised. For tests of
    two real concurrent transactions (PostgreSQL)."""
    import threading

    from django.db import connection

    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = attempt(i)
        except Exception as exc:  # noqa: BLE001 - the caller inspects it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout)
    return results


def game_page(game, user) -> str:
    """The game page's HTML as ``user`` (``None``: anonymous) sees it in English; asserts a 200."""
    response = client_for(user).get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def page_part(html: str, element_id: str) -> str:
    """The ``section``/``div``/``nav``/``article`` element with id ``element_id`` in ``html`` ("" if absent), up to
    its own end tag (elements of the same name nested inside it are counted)."""
    start = re.search(rf'<(section|div|nav|article)\b[^>]*\bid="{re.escape(element_id)}"', html)
    if start is None:
        return ""
    tag, depth = start.group(1), 0
    for tag_match in re.compile(rf"<(/?){tag}\b[^>]*>").finditer(html, start.start()):
        depth += -1 if tag_match.group(1) else 1
        if depth == 0:
            return html[start.start():tag_match.end()]
    return html[start.start():]


def open_phase_id(game) -> int | None:
    """The id of ``game``'s open phase (a ``Game`` or its id), as a form or API body names it; ``None`` if none."""
    from gm.core.models import Phase

    game_id = getattr(game, "pk", game)
    return Phase.objects.filter(game_id=game_id, status=Phase.Status.OPEN).values_list("pk", flat=True).first()


def gm_scenario(*paths, **options) -> tuple[int, str, str]:
    """``manage.py gm_scenario`` on ``paths`` (files or folders) in this process: ``(exit status, stdout, stderr)``
    (0 every file passed, 1 an expectation failed, 2 a file is invalid)."""
    from io import StringIO

    from django.core.management import call_command

    out, err = StringIO(), StringIO()
    try:
        call_command("gm_scenario", *[str(p) for p in paths], stdout=out, stderr=err, **options)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


def running_tally_games(master, players, count: int, *, title: str, rounds: int = 3,
                        round_seconds: int | None = None) -> list:
    """``count`` running ``tally`` games of ``master`` with every user of ``players`` seated (``Seat0``, …), started
    one after another (on frozen time their deadlines tie); ``round_seconds``: the round's duration (the module's
    default when ``None``)."""
    from gm.core import services

    games = []
    for g in range(count):
        game = services.game_create(master=master, module="tally", title=f"{title} {g}", options={"rounds": rounds},
                                    rng_seed=g, durations={"round": round_seconds} if round_seconds else None)
        services.game_open_signup(game=game, actor=master)
        for i, user in enumerate(players):
            services.seat_join(game=game, user=user, display_name=f"Seat{i}")
        services.game_start(game=game, actor=master)
        games.append(game)
    return games
