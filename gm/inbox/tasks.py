"""Celery tasks of the inbox: they call services; nothing else."""
from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="gm.inbox.tasks.reminders_sweep_task", ignore_result=True)
def reminders_sweep_task(after: list | None = None) -> dict:
    """Beat's periodic reminder sweep (every ``GM_REMINDER_INTERVAL`` seconds): remind the players who have not
    ordered, N hours before each deadline (see :func:`gm.inbox.services.reminders_sweep`). ``after``: the cursor of
    the batch before (``None`` from beat); a full batch sends the next one as a task of its own."""
    report = services.reminders_sweep(after=after)
    if report.resume_after is not None:
        reminders_sweep_task.delay_on_commit(after=report.resume_after)
    return {"sent": len(report.sent), "emailed": report.emailed}
