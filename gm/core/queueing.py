"""The Celery task class of the site: enqueueing after a commit never fails the request that committed.

``delay_on_commit`` / ``apply_async_on_commit`` (Celery's :class:`~celery.contrib.django.task.DjangoTask`) send
the message from a ``transaction.on_commit`` callback; when the broker is unreachable the send raises there, after
the data is committed, and the request would answer 500 for an action that happened (a master who retries then
acts twice). :class:`SafeDjangoTask` logs the failure instead (logger ``gm.queueing``, level ERROR, with the task
name and arguments). Nothing is lost for good: the beat sweep resolves due phases and sends their notifications
whether or not the prompt ETA message went out.
"""
from __future__ import annotations

import logging

from celery.contrib.django.task import DjangoTask
from django.db import transaction

logger = logging.getLogger("gm.queueing")


class SafeDjangoTask(DjangoTask):
    """``DjangoTask`` whose ``*_on_commit`` methods log an enqueue failure instead of raising it."""

    def delay_on_commit(self, *args, **kwargs) -> None:
        """``delay(*args, **kwargs)`` once the current transaction commits; a broker error is logged."""
        transaction.on_commit(lambda: self._send_committed(self.delay, args, kwargs))

    def apply_async_on_commit(self, args=None, kwargs=None, **options) -> None:
        """``apply_async(args, kwargs, **options)`` once the current transaction commits; a broker error is
        logged."""
        transaction.on_commit(lambda: self._send_committed(
            lambda *a, **k: self.apply_async(a, k, **options), args or (), kwargs or {}))

    def _send_committed(self, send, args, kwargs) -> None:
        try:
            send(*args, **kwargs)
        except Exception:  # noqa: BLE001 - any broker/transport error; the committed action stands
            logger.exception("enqueue after commit failed",
                             extra={"task": self.name, "task_args": repr(args), "task_kwargs": repr(kwargs)})
