"""Keyset cursors of the periodic sweeps that walk rows which stay in their set from one sweep to the next (the open
phases of the deadline reminders and push warnings, the running games of the activity sweep) in batches.

A sweep looks at a bounded batch and hands the cursor of its last row to the next batch — a task of its own, or the
next tick of a round-robin — so every row is reached however many there are (a sweep that took the first N rows
each time never reached the rows after them), and no batch holds a worker for long while deadline tasks wait
(issue 25 goal 4). A row that moves while a sweep walks (a deadline extended) may be looked at twice or not until
the next sweep; the sweeps' own unique rows keep what they send to once. Cursors are JSON (task arguments):
``[deadline ISO 8601, phase id]`` for phases in deadline order (:func:`batch`), a row id for rows in id order
(:func:`batch_by_id`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any, TypeVar

from django.db.models import Q

from .models import Phase

T = TypeVar("T")


def after_cursor(after: Any) -> Q:
    """The condition on phases "after the cursor's phase in (deadline, id) order"; an empty condition for ``None``.
    Raises ``ValueError`` or ``TypeError`` for a cursor that is not ``[deadline ISO 8601 with its offset,
    phase id]``."""
    if after is None:
        return Q()
    deadline, phase_id = datetime.fromisoformat(after[0]), int(after[1])
    if deadline.tzinfo is None:
        raise ValueError(f"a sweep cursor's deadline needs its UTC offset: {after[0]!r}")
    return Q(deadline__gt=deadline) | Q(deadline=deadline, pk__gt=phase_id)


def cursor_of(phase: Phase) -> list:
    """The cursor ``[deadline ISO 8601, phase id]`` that resumes a sweep after ``phase``."""
    return [phase.deadline.isoformat(), phase.pk]


def batch(phases, *, limit: int, after: Any = None) -> tuple[list[Phase], list | None]:
    """The next batch of a sweep: at most ``limit`` phases of the queryset ``phases`` after the cursor ``after``, in
    (deadline, id) order, and the cursor that resumes after the last of them when the batch is full (``None``:
    the sweep is done). ``limit`` must be at least 1 (``ValueError``)."""
    if limit < 1:
        raise ValueError(f"a sweep batch needs a limit of at least 1, not {limit}")
    rows = list(phases.filter(after_cursor(after)).order_by("deadline", "pk")[:limit])
    return rows, (cursor_of(rows[-1]) if len(rows) == limit else None)


def batch_by_id(rows, *, limit: int, after: Any = None) -> tuple[list, int | None]:
    """The next batch of a sweep over ``rows`` (a queryset, or a ``values_list`` of ids) in id order: at most
    ``limit`` rows whose id is above ``after`` (``None``: from the first), and the cursor — the last row's id — when
    the batch is full (``None``: the sweep is done). Raises ``ValueError`` for a ``limit`` below 1 or an ``after``
    that is not an integer."""
    if limit < 1:
        raise ValueError(f"a sweep batch needs a limit of at least 1, not {limit}")
    if after is not None:
        rows = rows.filter(pk__gt=int(after))
    got = list(rows.order_by("pk")[:limit])
    if len(got) < limit:
        return got, None
    last = got[-1]
    return got, int(getattr(last, "pk", last))


def walk(step: Callable[[Any], tuple[T, Any]]) -> Iterator[T]:
    """A whole sweep in one call: ``step(after)`` runs one batch from the cursor ``after`` (``None`` first) and
    returns its result and the next cursor; the results are yielded batch after batch until a cursor is ``None``."""
    after = None
    while True:
        result, after = step(after)
        yield result
        if after is None:
            return
