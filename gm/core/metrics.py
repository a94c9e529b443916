"""Counters that several processes add to and ``/metrics`` (gm.core.observability) reads: kept in the shared cache
(``CACHES``; Redis in production) because the worker, beat and the web process are separate processes."""
from __future__ import annotations

from django.core.cache import cache

EMAIL_FAILURES_KEY = "gm:metrics:email_failures"


def count_email_failure(n: int = 1) -> None:
    """Add ``n`` to the e-mail failure counter. Never raises: a metric must not turn a logged e-mail failure into
    a failed task (the cache being down is reported by ``/health/``)."""
    try:
        cache.add(EMAIL_FAILURES_KEY, 0, timeout=None)
        cache.incr(EMAIL_FAILURES_KEY, n)
    except Exception:
        pass


def email_failures() -> int:
    """The e-mail failure counter's value (0 when unset or the cache is unreachable)."""
    try:
        return int(cache.get(EMAIL_FAILURES_KEY) or 0)
    except Exception:
        return 0
