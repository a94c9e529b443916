"""Celery task of the balance report: it calls the service; nothing else."""
from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="gm.balance.tasks.balance_report_task", ignore_result=True)
def balance_report_task(report_id: int) -> str:
    """Play balance report ``report_id`` (:func:`gm.balance.services.report_run`); returns its final status."""
    return services.report_run(report_id=report_id).status
