"""One load per page of the rows every panel of the game page reads: a game's seats and phases.

The game page is put together from a dozen panels (core and module) that each need the seats, a seat name or the
open phase. Inside :func:`reading` (the game page's GET, which writes nothing while it renders) these selectors
load each once and hand every caller the same rows, so the page's query count does not grow with its panels.
Outside it every call queries as before: a view that writes and then renders always sees fresh rows.

The rows are shared: callers read them, never change them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from .models import Game, Phase, Seat

T = TypeVar("T")
_memo: ContextVar[dict | None] = ContextVar("gm_page_memo", default=None)


@contextmanager
def reading() -> Iterator[None]:
    """Remember what the selectors below load until the block ends (one read-only page render)."""
    token = _memo.set({})
    try:
        yield
    finally:
        _memo.reset(token)


def _remember(key: tuple, load: Callable[[], T]) -> T:
    memo = _memo.get()
    if memo is None:
        return load()
    if key not in memo:
        memo[key] = load()
    return memo[key]


def seats(game: Game) -> list[Seat]:
    """Every seat of ``game`` in ring order, with its user (the master's console names him)."""
    return _remember(("seats", game.pk),
                     lambda: list(Seat.objects.filter(game_id=game.pk).select_related("user").order_by("position")))


def seat_of(game: Game, user: Any) -> Seat | None:
    """``user``'s seat in ``game``, or ``None``."""
    if _memo.get() is None:
        return Seat.objects.filter(game=game, user=user).first()
    return next((s for s in seats(game) if s.user_id == user.pk), None)


def seat_names(game: Game) -> dict[int, str]:
    """Seat id → display name."""
    if _memo.get() is None:
        return dict(Seat.objects.filter(game_id=game.pk).values_list("pk", "display_name"))
    return {s.pk: s.display_name for s in seats(game)}


def active() -> bool:
    """Whether a :func:`reading` block is in force (the selectors share their loads)."""
    return _memo.get() is not None


def seat_orders(viewer: Any) -> list:
    """Every version of ``viewer``'s own seat's orders in the game (``visibility.orders``), by phase then version;
    ``[]`` without a seat."""
    from . import visibility

    if viewer.seat is None:
        return []
    return _remember(("seat_orders", viewer.game.pk, viewer.seat.pk),
                     lambda: list(visibility.orders(viewer).filter(seat=viewer.seat)
                                  .order_by("phase__ordinal", "version")))


def own_orders(viewer: Any, phase: Phase) -> list:
    """The versions of ``viewer``'s own seat's order in ``phase``, oldest first (``visibility.orders``). Inside
    :func:`reading`, taken from :func:`seat_orders` (one load for every phase's panels)."""
    from . import visibility

    if _memo.get() is not None and viewer.seat is not None:
        return [o for o in seat_orders(viewer) if o.phase_id == phase.pk]
    return list(visibility.orders(viewer, phase).filter(seat=viewer.seat).order_by("version"))


def _phases(game: Game) -> list[Phase]:
    def load() -> list[Phase]:
        # A phase's stored snapshot and result are large and hardly any panel reads them: loaded only if read.
        phases = list(Phase.objects.filter(game_id=game.pk).defer("state", "result").order_by("ordinal"))
        for phase in phases:
            phase.game = game  # its label needs the game's module: not one more query per phase shown
        return phases

    return _remember(("phases", game.pk), load)


def phase_orders(phase: Phase) -> list | None:
    """Inside :func:`reading`: every version of every seat's order in ``phase`` (with its seat and phase), in the
    order they were written — the public Veche count and the master's console both read them. Callers filter what
    their viewer may see (the Veche reads only the public ``vote`` part). ``None`` outside :func:`reading`."""
    from .models import Order

    if _memo.get() is None:
        return None
    return _remember(("phase_orders", phase.pk),
                     lambda: list(Order.objects.filter(phase_id=phase.pk).select_related("seat", "phase")
                                  .defer("phase__state", "phase__result").order_by("created_at", "id")))


def full_log(viewer: Any) -> list | None:
    """Inside :func:`reading`, for a viewer who sees everything (the master; anyone after the game): every log entry
    of the game (``visibility.log_entries``), oldest first — the log, the console's phase reports and the resolution
    trace are cut from this one load. ``None`` otherwise: the caller queries what it needs."""
    from . import visibility

    if _memo.get() is None or not viewer.sees_everything:
        return None
    return _remember(("full_log", viewer.game.pk),
                     lambda: list(visibility.log_entries(viewer).order_by("created_at", "id")))


def held_phase(game: Game) -> Phase | None:
    """The game's resolved phase whose result waits for publication (``review.held_phase``), or ``None``."""
    from .review import held_phase as load

    if _memo.get() is None:
        return load(game)
    return next((p for p in reversed(_phases(game)) if p.held_at is not None and p.published_at is None), None)


def reported_phases(game: Game, limit: int) -> list[Phase]:
    """The game's newest ``limit`` resolved phases whose result is out (not held for review), newest first."""
    if _memo.get() is None:
        return list(game.phases.filter(status=Phase.Status.RESOLVED)
                    .exclude(held_at__isnull=False, published_at__isnull=True).order_by("-ordinal")[:limit])
    return [p for p in reversed(_phases(game)) if p.status == Phase.Status.RESOLVED
            and not (p.held_at is not None and p.published_at is None)][:limit]


def unresolved_phase(game: Game) -> Phase | None:
    """The game's phase that is not resolved yet (open or being resolved), or ``None``."""
    if _memo.get() is None:
        return game.phases.exclude(status=Phase.Status.RESOLVED).first()
    return next((p for p in _phases(game) if p.status != Phase.Status.RESOLVED), None)


def last_phase(game: Game, kind: str | None = None) -> Phase | None:
    """The game's latest phase (of ``kind`` if given), or ``None``."""
    if _memo.get() is None:
        phases = game.phases.filter(kind=kind) if kind is not None else game.phases.all()
        return phases.order_by("-ordinal").first()
    return next((p for p in reversed(_phases(game)) if kind is None or p.kind == kind), None)
