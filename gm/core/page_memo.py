"""One load per page of the rows every panel of the game page reads: a game's seats and phases.

The game page is put together from a dozen panels (core and module) that each need the seats, a seat name or the
open phase. Inside :func:`reading` (the game page's GET, which writes nothing while it renders) these selectors
load each once and hand every caller the same rows, so the page's query count does not grow with its panels.
Outside it every call queries as before: a view that writes and then renders always sees fresh rows.

The rows are shared: callers read them, never change them. This module knows no viewer: what a viewer may read
(his orders, the log he sees) is loaded by :mod:`gm.core.visibility`, which keeps its loads here with
:func:`remember`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Case, JSONField, OuterRef, Subquery, When
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KeyTransform

from .models import Game, Phase, ReplacementRequest, Seat
from .prepared import PreparedQuery

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


def remember(key: tuple, load: Callable[[], T]) -> T:
    """Inside :func:`reading`, the value remembered under ``key`` (a tuple whose first item names the kind of row,
    e.g. ``("seats", game_id)``), loaded with ``load()`` the first time; outside, ``load()`` on every call."""
    memo = _memo.get()
    if memo is None:
        return load()
    if key not in memo:
        memo[key] = load()
    return memo[key]


def _seat_rows(game_id: int):
    live_request = ReplacementRequest.objects.filter(seat=OuterRef("pk"), user_id=OuterRef("user_id"),
                                                     withdrawn_at__isnull=True).values("pk")[:1]
    return (Seat.objects.filter(game_id=game_id).select_related("user__away", "status")
            .annotate(open_request_id=Subquery(live_request)).order_by("position"))


#: A game's seats, read once by every game page (:mod:`gm.core.prepared`: compiled once per process).
_SEATS = PreparedQuery(_seat_rows, "game_id")


def seats(game: Game) -> list[Seat]:
    """Every seat of ``game`` in ring order, with its user (the master's console names him), the user's away dates
    and the seat's activity row (``user.away``, ``status``: the away badges and the player's own panel), and
    ``open_request_id`` — the id of its current player's live replacement request, or ``None``."""
    return remember(("seats", game.pk), lambda: _SEATS(game_id=game.pk))


#: A viewer's seat: asked on every game page and game API call outside :func:`reading` (:mod:`gm.core.prepared`).
_SEAT_OF = PreparedQuery(lambda game_id, user_id: Seat.objects.filter(game_id=game_id, user_id=user_id)
                         .order_by("pk")[:1], "game_id", "user_id")


def seat_of(game: Game, user: Any) -> Seat | None:
    """``user``'s seat in ``game``, or ``None``."""
    if _memo.get() is None:
        return _SEAT_OF.first(game_id=game.pk, user_id=user.pk) if user.pk is not None else None
    return next((s for s in seats(game) if s.user_id == user.pk), None)


def seat_names(game: Game) -> dict[int, str]:
    """Seat id → display name."""
    if _memo.get() is None:
        return dict(Seat.objects.filter(game_id=game.pk).values_list("pk", "display_name"))
    return {s.pk: s.display_name for s in seats(game)}


def active() -> bool:
    """Whether a :func:`reading` block is in force (the selectors share their loads)."""
    return _memo.get() is not None


def note(key: tuple, value: Any) -> None:
    """Inside :func:`reading`, remember ``value`` under ``key`` (a flag one selector leaves for another, e.g. that
    the whole log was loaded); outside, nothing."""
    memo = _memo.get()
    if memo is not None:
        memo[key] = value






def _phase_rows(game_id: int):
    # A phase's stored snapshot and result are large and hardly any panel reads them: loaded only if read — but for
    # the latest resolved phase's seats (the last day's Veche reads them; see seat_snapshots).
    latest = (Phase.objects.filter(game_id=game_id, status=Phase.Status.RESOLVED).order_by("-ordinal")
              .values("ordinal")[:1])
    return (Phase.objects.filter(game_id=game_id).defer("state", "result").annotate(
        gm_latest_seats=Case(When(ordinal=Subquery(latest), then=KeyTransform("seats", "state")),
                             default=None, output_field=JSONField())).order_by("ordinal"))


#: A game's phases, read once by every game page (:mod:`gm.core.prepared`: compiled once per process).
_PHASES = PreparedQuery(_phase_rows, "game_id")


def _phases(game: Game) -> list[Phase]:
    def load() -> list[Phase]:
        phases = _PHASES(game_id=game.pk)
        for phase in phases:
            phase.game = game  # its label needs the game's module: not one more query per phase shown
        return phases

    return remember(("phases", game.pk), load)


def phases(game: Game) -> list[Phase]:
    """Every phase of ``game`` in ordinal order (without its stored snapshot and result), loaded once inside
    :func:`reading`; each phase's ``game`` is ``game``."""
    return _phases(game)


def _order_phase_ids(game_id: int) -> set[int]:
    """The phases whose orders the page reads (the unresolved ones and the latest resolved one), when the phases are
    loaded; else none."""
    phases = _memo.get().get(("phases", game_id))
    if phases is None:
        return set()
    resolved = [p for p in phases if p.status == Phase.Status.RESOLVED]
    ids = {p.pk for p in phases if p.status != Phase.Status.RESOLVED}
    if resolved:
        ids.add(max(resolved, key=lambda p: p.ordinal).pk)
    return ids


def seat_orders_with_phases(game: Game, seat_id: int) -> list:
    """Inside :func:`reading`: every version of seat ``seat_id``'s orders in ``game`` (with seat and phase) by phase
    ordinal then version — and, in the same query, every seat's orders of the phases :func:`phase_orders` reads
    (remembered for it): a player's page loads its orders once (issue 25)."""
    from django.db.models import Q

    from .models import Order

    memo = _memo.get()
    _phases(game)
    ids = _order_phase_ids(game.pk) - {key[1] for key in memo if key[0] == "phase_orders"}
    for pk in ids:
        memo[("phase_orders", pk)] = []
    mine = []
    for order in (Order.objects.filter(Q(phase__game_id=game.pk, seat_id=seat_id) | Q(phase_id__in=ids))
                  .select_related("seat", "phase").defer("phase__state", "phase__result").order_by("created_at", "id")):
        if order.phase_id in ids:
            memo[("phase_orders", order.phase_id)].append(order)
        if order.seat_id == seat_id:
            mine.append(order)
    return sorted(mine, key=lambda o: (o.phase.ordinal, o.version))


def phase_orders(phase: Phase) -> list | None:
    """Inside :func:`reading`: every version of every seat's order in ``phase`` (with its seat and phase), in the
    order they were written — the public Veche count and the master's console both read them. Callers filter what
    their viewer may see (the Veche reads only the public ``vote`` part). ``None`` outside :func:`reading`."""
    from .models import Order

    memo = _memo.get()
    if memo is None:
        return None
    if ("phase_orders", phase.pk) not in memo:
        # With the open phase's and the latest resolved phase's (the console reads the one, a panel of the
        # last day the other): one query for the page.
        ids = {phase.pk}
        phases = memo.get(("phases", phase.game_id))
        if phases is not None:
            resolved = [p for p in phases if p.status == Phase.Status.RESOLVED]
            ids |= {p.pk for p in phases if p.status != Phase.Status.RESOLVED}
            if resolved:
                ids.add(max(resolved, key=lambda p: p.ordinal).pk)
        ids -= {key[1] for key in memo if key[0] == "phase_orders"}
        for pk in ids:
            memo[("phase_orders", pk)] = []
        for order in (Order.objects.filter(phase_id__in=ids).select_related("seat", "phase")
                      .defer("phase__state", "phase__result").order_by("created_at", "id")):
            memo[("phase_orders", order.phase_id)].append(order)
    return memo[("phase_orders", phase.pk)]






def public_entry(phase: Phase, kind: str) -> tuple[bool, Any]:
    """Inside :func:`reading`, once the page has loaded the whole log its viewer may read (every viewer reads the
    public entries): ``(True, the first public entry of kind in phase or None)``; ``(False, None)`` when the
    caller must query."""
    memo = _memo.get()
    if memo is None:
        return False, None
    entries = memo.get(("full_log", phase.game_id)) or memo.get(("visible_log", phase.game_id)) or []
    if not memo.get(("log_complete", phase.game_id)) and not _covers(memo, entries, phase):
        return False, None
    return True, next((e for e in entries if e.phase_id == phase.pk and e.kind == kind
                       and e.visibility == "public"), None)


def _covers(memo: dict, entries: list, phase: Phase) -> bool:
    """Whether the page's partial load of the log (``entries``, oldest first) holds every entry of ``phase``: a phase
    of the master's window (``log_window``), or one after the phase its oldest entry belongs to (the log is written
    phase after phase) — so a long game's page needs no query more than a short one's (issue 25)."""
    window = memo.get(("log_window", phase.game_id))
    if window is not None and memo.get(("full_log", phase.game_id)) is not None:
        return phase.pk in window
    oldest = entries[0].phase if entries else None
    return oldest is not None and oldest.ordinal < phase.ordinal


def _one_seat(seat_id: int) -> RawSQL:
    """SQL for the list of the one element of a phase's ``state["seats"]`` whose ``id`` is ``seat_id`` (``[]`` or
    NULL when there is none), so that a page reading one seat's snapshots decodes no other seat's: a 16-seat
    snapshot is ~27 kB of JSON, a seat's own ~2 kB."""
    col = f"{connection.ops.quote_name(Phase._meta.db_table)}.{connection.ops.quote_name('state')}"
    if connection.vendor == "postgresql":
        sql = (f"(SELECT jsonb_agg(e) FROM jsonb_array_elements({col} -> 'seats') e"
               f" WHERE (e ->> 'id')::bigint = %s)")
    else:  # SQLite's JSON1 (bin/demo)
        sql = (f"(SELECT json_group_array(json(e.value)) FROM json_each({col}, '$.seats') e"
               f" WHERE json_extract(e.value, '$.id') = %s)")
    return RawSQL(sql, (seat_id,), output_field=JSONField())


def seat_snapshots(game_id: int, phase_ids: list[int], seat_id: int | None = None) -> dict[int, Any]:
    """Phase id → the seats its resolution read (``Phase.state["seats"]``, or ``None``) for ``phase_ids``; with
    ``seat_id`` only that seat's element of each (a list of at most one). Inside :func:`reading` remembered per
    phase, and the first load of all the seats also brings the resolved phases of any player's orders the page has
    loaded (his private results read them next): one query for the page, not one per panel."""
    if seat_id is not None:
        return _own_snapshots(game_id, phase_ids, seat_id)
    if _memo.get() is None:
        return dict(Phase.objects.filter(pk__in=phase_ids).values_list("pk", "state__seats"))
    memo = _memo.get()
    known = memo.setdefault(("snapshots", game_id), {})
    phases = memo.get(("phases", game_id))
    resolved = [p for p in phases or [] if p.status == Phase.Status.RESOLVED]
    if resolved:  # loaded with the phases
        newest = max(resolved, key=lambda p: p.ordinal)
        known.setdefault(newest.pk, newest.gm_latest_seats)
    missing = {pk for pk in phase_ids if pk not in known}
    if missing:
        for key, rows in list(memo.items()):
            if key[0] == "seat_orders" and key[1] == game_id:
                missing |= {o.phase_id for o in rows if o.phase.status == Phase.Status.RESOLVED} - known.keys()
        known.update({pk: None for pk in missing})
        known.update(Phase.objects.filter(pk__in=missing).values_list("pk", "state__seats"))
    return {pk: known[pk] for pk in phase_ids}


def _own_snapshots(game_id: int, phase_ids: list[int], seat_id: int) -> dict[int, Any]:
    """:func:`seat_snapshots` of one seat: phase id → ``[its element]`` (``[]``/``None`` when it has none)."""
    def load(ids) -> dict[int, Any]:
        return dict(Phase.objects.filter(pk__in=ids).annotate(gm_own=_one_seat(seat_id)).values_list("pk", "gm_own"))

    memo = _memo.get()
    if memo is None:
        return load(phase_ids)
    known = memo.setdefault(("own_snapshots", game_id, seat_id), {})
    missing = [pk for pk in phase_ids if pk not in known]
    if missing:
        known.update({pk: None for pk in missing})
        known.update(load(missing))
    return {pk: known[pk] for pk in phase_ids}


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
