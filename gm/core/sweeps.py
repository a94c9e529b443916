"""Keyset cursors of the periodic sweeps that walk open phases in batches (deadline reminders, push warnings).

A sweep looks at a bounded batch of phases in (deadline, id) order and, when the batch is full, hands the cursor of
its last phase to the next batch, which runs as a task of its own: every phase is looked at in each sweep however
many there are, and no batch holds a worker for long while deadline tasks wait (issue 25 goal 4). The cursor is
JSON (a task argument): ``[deadline ISO 8601, phase id]``.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q

from .models import Phase


def after_cursor(after: Any, *, prefix: str = "") -> Q:
    """The condition "after the cursor's phase in (deadline, id) order" on phases (``prefix`` ``""``) or on rows that
    point at one (``prefix`` ``"phase__"``); an empty condition for ``None``. Raises ``ValueError`` or
    ``TypeError`` for a cursor that is not ``[deadline ISO 8601 with its offset, phase id]``."""
    if after is None:
        return Q()
    deadline, phase_id = datetime.fromisoformat(after[0]), int(after[1])
    if deadline.tzinfo is None:
        raise ValueError(f"a sweep cursor's deadline needs its UTC offset: {after[0]!r}")
    return Q(**{f"{prefix}deadline__gt": deadline}) | Q(**{f"{prefix}deadline": deadline, f"{prefix}pk__gt": phase_id})


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
