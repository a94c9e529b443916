"""Writes of the balance report: a master's request (checked, stored, its Celery job enqueued after commit) and the
job itself (plays the games with ``gm.core.balance``, stores the result). Keyword-only; a refusal raises the core's
``ServiceError`` and changes nothing."""
from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gm.core import balance, registry
from gm.core.models import Game
from gm.core.services import Clock, ServiceError, require_master, task

from .models import BalanceReport

log = logging.getLogger("gm.balance")

#: Game states in which a master may ask for a report: the setup is still his to change (before the start).
OPEN_STATUSES = (Game.Status.DRAFT, Game.Status.SIGNUP)
#: How many reports of one game may wait or play at once (one master can't fill the queue with 5,000-game jobs).
MAX_PENDING = 3
#: The task that plays a report (``gm.balance.tasks``).
TASK = "gm.balance.tasks.balance_report_task"


def check(*, module: str, players, games, seed=0, options=None) -> balance.Request:
    """A balance request checked by :func:`gm.core.balance.check_request` with the module looked up in the
    registry; raises :class:`ServiceError` (``invalid``) with the field at fault in the active language."""
    try:
        found = registry.get(module)
    except registry.UnknownModule:
        found = None
    try:
        return balance.check_request(module=found, slug=module, players=players, games=games, seed=seed,
                                     options=options)
    except balance.BalanceError as exc:
        raise ServiceError({exc.field: [exc.render(_)]}) from None


def report_request(*, game: Game, user, players, games, seed, options=None,
                   clock: Clock = timezone.now) -> BalanceReport:
    """The master's "estimate balance" for ``game``'s module with ``players`` seats, ``games`` bot games and ``seed``
    (``options``: a JSON object or its text; ``None``: the game's own options). Allowed to the game's master while
    the game is a draft or open for signups. Stores a queued :class:`BalanceReport` and enqueues its job after commit.
    Raises :class:`ServiceError` ``forbidden`` (not the master), ``state`` (the game has started), ``conflict``
    (:data:`MAX_PENDING` reports of the game still pending) or ``invalid`` (unknown module, players out of range,
    games outside 1…5000, malformed options — nothing is stored)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, user)
        if game.status not in OPEN_STATUSES:
            raise ServiceError(_("A balance report is made before the game starts."), code="state")
        if game.balance_reports.filter(status__in=(BalanceReport.Status.QUEUED,
                                                   BalanceReport.Status.RUNNING)).count() >= MAX_PENDING:
            raise ServiceError(_("%(count)s balance reports of this game are still being played; wait for one to "
                                 "finish.") % {"count": MAX_PENDING}, code="conflict")
        request = check(module=game.module, players=players, games=games, seed=seed,
                        options=game.options if options is None else options)
        report = BalanceReport.objects.create(
            game=game, requested_by=user, module=game.module, players=request.players, games=request.games,
            seed=request.seed, options=request.options, created_at=clock())
        task(TASK).delay_on_commit(report.pk)
        return report


def report_run(*, report_id: int, clock: Clock = timezone.now) -> BalanceReport:
    """The job: play the report's games (``gm.core.balance.estimate``: the pure engine, no database per game),
    saving the progress every 50 games, then the result (``done``) or the error (``failed``). A report already done
    or failed is returned as it is (a redelivered task plays nothing twice)."""
    report = BalanceReport.objects.get(pk=report_id)
    if not report.pending:
        return report
    BalanceReport.objects.filter(pk=report.pk).update(status=BalanceReport.Status.RUNNING)
    try:
        request = check(module=report.module, players=report.players, games=report.games, seed=report.seed,
                        options=report.options)

        def progress(done: int) -> None:
            BalanceReport.objects.filter(pk=report.pk).update(progress=done)

        result = balance.estimate(request, progress=progress)
    except Exception as exc:  # noqa: BLE001 - a failed job is shown to the master, not retried
        log.exception("balance report %s failed", report.pk)
        message = "; ".join(m for msgs in exc.errors.values() for m in msgs) \
            if isinstance(exc, ServiceError) else f"{type(exc).__name__}: {exc}"
        BalanceReport.objects.filter(pk=report.pk).update(status=BalanceReport.Status.FAILED, error=message,
                                                          finished_at=clock())
    else:
        BalanceReport.objects.filter(pk=report.pk).update(status=BalanceReport.Status.DONE, result=result,
                                                          progress=report.games, finished_at=clock())
    report.refresh_from_db()
    return report
