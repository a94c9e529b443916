"""Measuring helpers for the modules' ``gm_bench`` figures (``GameModule.bench_figures``): a nearest-rank
percentile, throw-away player accounts, the timed resolution of prepared phases and a page's query count. They run
on ``gm_bench``'s scratch database, never in the test suite's timings (tests assert query counts only)."""
from __future__ import annotations

import math
import secrets
import statistics
import time
from collections.abc import Callable
from datetime import datetime

from django.db import connection
from django.test.utils import CaptureQueriesContext

from . import services as core
from .models import Game, Phase


def percentile(samples: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``samples`` (milliseconds or any unit), nearest rank."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def bench_users(n: int, *, prefix: str) -> list:
    """``n`` new accounts named ``<prefix>-<random tag>-<i>`` without a usable password (a benchmark's players)."""
    from django.contrib.auth import get_user_model

    model = get_user_model()
    tag = secrets.token_hex(4)
    made = [model(username=f"{prefix}-{tag}-{i}") for i in range(n)]
    for user in made:
        user.set_unusable_password()
    return model.objects.bulk_create(made)


def timed_resolutions(phases: list[Phase], *, clock: Callable[[], datetime],
                      check: Callable[[Phase], bool], what: str) -> dict[str, float]:
    """Claim and resolve (``services.phase_claim`` + ``phase_resolve``) each of ``phases`` at ``clock`` (all due);
    the first only gives the query count, the others the times. ``check(phase)`` must hold after each resolution
    (say, the next phase opened); ``what`` names the phase in errors. Returns ``median`` and ``p95`` milliseconds
    and ``queries``. Raises ``RuntimeError`` when a phase does not resolve or ``check`` fails. The caller keeps the
    after-commit Celery messages from being sent (forum Mafia's ``no_publish``)."""
    samples, queries = [], 0
    for index, phase in enumerate(phases):
        token = core.phase_claim(phase_id=phase.pk, clock=clock)
        connection.queries_log.clear()
        begun = time.perf_counter()
        with CaptureQueriesContext(connection) as ctx:
            if core.phase_resolve(phase_id=phase.pk, token=token, clock=clock) is None:
                raise RuntimeError(f"{what} {phase.pk} did not resolve")
        elapsed = (time.perf_counter() - begun) * 1e3
        if not check(phase):
            raise RuntimeError(f"the benchmark's {what} {phase.pk} did not end as it should")
        if index == 0:
            queries = len(ctx.captured_queries)
            continue
        samples.append(elapsed)
    return {"median": statistics.median(samples), "p95": percentile(samples, 0.95), "queries": queries}


def move_stamp(game_id: int) -> None:
    """Move game ``game_id``'s page stamp, as any write in it does, so its next page is rendered rather than served
    kept (``gm.core.page_cache``): for figures of the rendering."""
    from .models import PageStamp

    PageStamp.objects.create(game_id=game_id)


def page_queries(game: Game, user) -> int:
    """The query count of the game page's rendering as ``user`` (after a warm-up request; the stamp moved before
    the counted one, so it is not the kept page's). Raises ``RuntimeError`` when the page does not answer 200."""
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    url = game.get_absolute_url()
    if client.get(url).status_code != 200:
        raise RuntimeError("the game page did not answer 200")
    move_stamp(game.pk)
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    return len(ctx.captured_queries)
