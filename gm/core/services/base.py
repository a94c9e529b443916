"""The public base of the write services: the error type, the clock, and the small steps every service (core or
game module) builds on — who may act (:func:`require_master`), the audit trail (:func:`audit_write`), log entries
(:func:`log_entry`, :func:`log_write`), groups (:func:`add_groups`), opening a phase (:func:`phase_open`) and the
orders that count (:func:`latest_orders`).

Game modules call these instead of writing the core's rows themselves, so an audit entry, a log line or a phase
looks the same whoever wrote it. Every helper expects to run inside the caller's ``transaction.atomic`` with the
rows it touches locked (the phase row first, then the game row), unless its docstring says otherwise.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import Event, PhaseSpec, RuleViolation, SeatInfo, phase_rng
from ..models import AuditEntry, Game, GroupMembership, LogEntry, Order, Phase, Seat

Clock = Callable[[], datetime]


class ServiceError(Exception):
    """A refused request. ``errors`` maps a field name (``"__all__"`` for the whole request) to messages in the
    active language; ``code`` is a stable machine-readable slug (``late``, ``not_allowed``, ``invalid``,
    ``conflict``, ``stale``…); ``details`` optional structured data for API clients; ``extra`` optional top-level
    keys of the API's error body (e.g. ``{"phase": 7, "open_phase": 8}`` for a ``stale`` order)."""

    def __init__(self, errors: Mapping[str, list[str]] | str, *, code: str = "invalid", details: list | None = None,
                 extra: Mapping[str, Any] | None = None):
        self.errors = {"__all__": [errors]} if isinstance(errors, str) else {k: list(v) for k, v in errors.items()}
        self.code = code
        #: optional machine-readable detail (e.g. every broken deck rule with its rule ID and numbers).
        self.details = details
        self.extra = dict(extra) if extra else {}
        super().__init__("; ".join(m for msgs in self.errors.values() for m in msgs))


def violation_errors(exc: RuleViolation) -> dict[str, list[str]]:
    """The reasons of an engine's :class:`~gm.core.engine.RuleViolation` as :class:`ServiceError` field errors:
    field (``"__all__"`` when the reason names none) → messages in the active language, each followed by its rule
    ID in parentheses when it has one ("… (FM-5.2)"). Use as ``raise ServiceError(violation_errors(exc))``."""
    errors: dict[str, list[str]] = {}
    for err in exc.errors:
        text = err.render(_)
        if err.rule:
            text = f"{text} ({err.rule})"
        errors.setdefault(err.field or "__all__", []).append(text)
    return errors


def violation_refusal(exc: RuleViolation) -> ServiceError:
    """An engine's :class:`~gm.core.engine.RuleViolation` as the :class:`ServiceError` the order API returns: the
    messages of :func:`violation_errors`; when its errors carry the module's refusal codes (``RuleError.code``),
    ``details`` lists each one (``code``, ``rule``, ``field``, ``message``), and the error's own ``code`` is that
    code when all of them share it (else ``invalid``)."""
    errors = violation_errors(exc)
    codes = {err.code for err in exc.errors}
    if codes == {""}:
        return ServiceError(errors)
    details = []
    for err in exc.errors:
        text = err.render(_)
        details.append({"code": err.code, "rule": err.rule, "field": err.field or "__all__",
                        "message": f"{text} ({err.rule})" if err.rule else text})
    return ServiceError(errors, code=codes.pop() if len(codes) == 1 else "invalid", details=details)


def can_host(user) -> bool:
    """Staff, or users granted the ``core.host_game`` permission, may create and master games."""
    if not (user and user.is_authenticated):
        return False
    if user.is_staff:
        return True
    if hasattr(user, "gm_can_host"):  # loaded with the session's user (accounts.backends.ModelBackend)
        return user.gm_can_host
    # ModelBackend's own rule (an active user with the permission, directly or through a group, or an active
    # superuser; our other backend, allauth's, inherits it) in one query: ``has_perm`` loads all the user's and
    # all his groups' permissions in two, on every page (the "New game" link).
    from django.contrib.auth import get_user_model

    return get_user_model().objects.with_perm(
        "core.host_game", backend="django.contrib.auth.backends.ModelBackend"
    ).filter(pk=user.pk).exists()


def require_master(game: Game, actor) -> None:
    """Refuse ``actor`` (a Django user, anonymous or ``None``) unless he is ``game``'s master, a full co-master
    (issue 24: the console's rights; a read-only co-master is refused) or a superuser: raises :class:`ServiceError`
    ``forbidden``. Call it on the game row read under its lock, so a change of master can't slip in between."""
    from ..comaster_roles import may_master

    if not may_master(game, actor):
        raise ServiceError(_("Only the game's master may do this."), code="forbidden")


def audit_write(*, game: Game, actor, action: str, reason: str = "", phase: Phase | None = None, data=None,
                now: datetime) -> None:
    """Write one entry of the master's audit trail (``AuditEntry``, read in the console): ``action`` a short slug
    (``"extend"``, ``"kill"``, ``"setup_override"``…), ``reason`` the master's words, ``phase`` the phase it acted on,
    ``data`` a JSON-compatible dict of what changed, ``now`` an aware datetime (the service's clock). Call it in the
    transaction of the change it records."""
    AuditEntry.objects.create(
        game=game, phase=phase, actor=actor, action=action, reason=reason, data=data or {}, created_at=now
    )


def log_entry(game: Game, phase: Phase | None, event: Event, now: datetime) -> LogEntry:
    """The game-log entry of an engine :class:`~gm.core.engine.Event` (its kind, data and visibility: public, one
    seat, one group or the master) during ``phase`` (``None`` before the first) at ``now``, unsaved: save it, or
    insert many at once with :func:`log_write` or ``LogEntry.objects.bulk_create``."""
    return LogEntry(
        game=game,
        phase=phase,
        visibility=event.visibility,
        seat_id=event.seat,
        group=event.group,
        kind=event.kind,
        data=dict(event.data),
        created_at=now,
    )


def seat_info(seat: Seat) -> SeatInfo:
    """A seat row as the engines see it (:class:`~gm.core.engine.SeatInfo`: id, name, position, alive, data)."""
    return SeatInfo(id=seat.pk, name=seat.display_name, position=seat.position, alive=seat.alive, data=seat.data)


def add_groups(game: Game, groups: Mapping[str, list[int]]) -> None:
    """Add seats to the game's groups (``groups``: group slug → seat ids, e.g. ``{"mafia": [3, 7]}``; who reads a
    group's log lines and rooms); a membership that exists already is kept as it is."""
    GroupMembership.objects.bulk_create(
        [GroupMembership(game=game, seat_id=sid, group=slug) for slug, ids in groups.items() for sid in ids],
        ignore_conflicts=True,
    )


def phase_open(game: Game, spec: PhaseSpec, *, ordinal: int, now: datetime,
                log: list[LogEntry] | None = None) -> Phase:
    """Create phase ``ordinal`` (1 for the first) of ``game`` from the module's ``spec`` at ``now``: its deadline
    is ``spec.duration`` seconds later, or the game's duration for its kind; the game's status becomes ``setup`` or
    ``running`` (the caller saves the game). Schedules the phase's deadline task after commit. Its
    ``core.phase_opened`` entry is saved here, or appended unsaved to ``log`` (the caller inserts it with others).
    Call it with the game row locked; the database refuses a second unresolved phase of one game. The game's deadline
    grid (``services.grids``: fixed time of day, quiet hours, blocked dates) moves the deadline where it may fall."""
    from .grids import phase_deadline  # the grid reads the game's options; it builds on this module

    seconds = spec.duration if spec.duration is not None else game.duration_for(spec.kind)
    deadline = phase_deadline(game, kind=spec.kind, now=now, seconds=seconds)
    phase = Phase.objects.create(
        game=game,
        ordinal=ordinal,
        kind=spec.kind,
        number=spec.number,
        actors=list(spec.actors) if spec.actors is not None else None,
        setup=spec.setup,
        opens_at=now,
        deadline=deadline,
        base_deadline=deadline,
        rng_seed=phase_rng(game.rng_seed, ordinal),
    )
    game.status = Game.Status.SETUP if spec.setup else Game.Status.RUNNING
    opened = LogEntry(
        game=game,
        phase=phase,
        visibility="public",
        kind="core.phase_opened",
        data={"phase_kind": spec.kind, "phase_number": spec.number, "deadline": deadline.isoformat()},
        created_at=now,
    )
    if log is None:
        opened.save()
    else:
        log.append(opened)
    schedule_deadline(phase, now=now)
    return phase


def schedule_deadline(phase: Phase, *, now: datetime) -> None:
    """After commit, enqueue the ETA task that makes ``phase`` resolve promptly at its deadline.

    The wait is capped at ``GM_ETA_MAX`` seconds (below the broker's visibility timeout, so Redis never
    redelivers a waiting ETA message); a capped task re-schedules itself when it wakes. The beat sweep
    resolves the phase even if this message is lost. The task's ETA is fixed now, not when the message is
    published: a countdown would start at the commit, so every message of a transaction that schedules many phases
    (a game start, the deadlines an outage moved, a benchmark's 5,000) would fire as late as it was published.
    """
    remaining = max(0.0, (phase.deadline - now).total_seconds())
    hop = remaining > settings.GM_ETA_MAX
    eta = timezone.now() + timedelta(seconds=min(remaining, settings.GM_ETA_MAX))
    task("gm.core.tasks.phase_deadline_task").apply_async_on_commit(
        args=(phase.pk,), kwargs={"hop": hop}, eta=eta
    )


def latest_orders(phase: Phase, seats: list[Seat]) -> dict[int, dict]:
    """The orders that count in ``phase`` (FM-5.6): seat id → the payload of its last order version; a withdrawn
    order (last version without payload) is dropped, and so are seats that are dead or not among the phase's
    actors. ``seats``: the game's seat rows as read for the resolution."""
    latest: dict[int, Any] = {}
    for seat_id, payload in Order.objects.filter(phase=phase).order_by("seat_id", "version").values_list(
        "seat_id", "payload"
    ):
        latest[seat_id] = payload
    allowed = {s.pk for s in seats if s.alive and (phase.actors is None or s.pk in phase.actors)}
    return {sid: p for sid, p in latest.items() if p is not None and sid in allowed}


class LogRow(NamedTuple):
    """An unsaved log entry as :func:`log_write` reads it: a resolution writes a hundred of them, and a model
    instance each (its related-object descriptors) cost more than the engine's whole layer of card plays."""

    game_id: int
    phase_id: int | None
    visibility: str
    seat_id: int | None
    group: str
    kind: str
    data: dict
    created_at: datetime


_LOG_COLUMNS = ["game_id", "phase_id", "visibility", "seat_id", "group", "kind", "data", "created_at"]


def _log_row_json(e: LogEntry | LogRow) -> str:
    return json.dumps({"game_id": e.game_id, "phase_id": e.phase_id, "visibility": e.visibility,
                       "seat_id": e.seat_id, "group": e.group, "kind": e.kind, "data": e.data,
                       "created_at": e.created_at.isoformat()}, ensure_ascii=False)


class LogBatch:
    """Unsaved log entries written by one insert (:meth:`write`), encoded as they are added (:meth:`add`).

    A resolution adds its engine's events while the database still works on the writes it sent before (pipeline
    mode, ``gm.core.services.phases``), so encoding them costs no wall time; the entries that need the next phase's
    id are added after. On PostgreSQL one ``INSERT … SELECT`` from a single JSON parameter: ``bulk_create`` sends
    every field of every row as a separate parameter, and quoting those (the JSON ``data`` of a 16-player night's
    ~100 entries, once as JSON and once more as an array element) cost more than the engine; elsewhere
    ``bulk_create``. The entries get no ids back (nobody reads them after a resolution)."""

    def __init__(self) -> None:
        self._entries: list[LogEntry | LogRow] = []
        self._encoded: list[str] = []

    def add(self, entries: Sequence[LogEntry | LogRow]) -> None:
        """Append ``entries`` (in order: their ids follow it); on PostgreSQL they are encoded now."""
        if connection.vendor == "postgresql":
            self._encoded.extend(_log_row_json(e) for e in entries)
        else:
            self._entries.extend(entries)

    def write(self) -> None:
        """Insert every entry added so far, in order, with one statement (none when empty)."""
        if connection.vendor != "postgresql":
            if self._entries:
                LogEntry.objects.bulk_create(
                    [e if isinstance(e, LogEntry) else LogEntry(**e._asdict()) for e in self._entries])
            return
        if not self._encoded:
            return
        table = connection.ops.quote_name(LogEntry._meta.db_table)
        names = ", ".join(connection.ops.quote_name(c) for c in _LOG_COLUMNS)
        picked = ", ".join(f"r.{connection.ops.quote_name(c)}" for c in _LOG_COLUMNS)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} ({names}) SELECT {picked} FROM jsonb_array_elements(%s::jsonb) WITH "
                f"ORDINALITY AS e(row, n), jsonb_populate_record(NULL::{table}, e.row) AS r ORDER BY e.n",
                ["[" + ",".join(self._encoded) + "]"],
            )


def log_write(entries: Sequence[LogEntry | LogRow]) -> None:
    """Insert ``entries`` (unsaved, in order: their ids follow it) whatever their number, in one statement
    (:class:`LogBatch`)."""
    batch = LogBatch()
    batch.add(entries)
    batch.write()


def task(name: str):
    """The Celery task registered under ``name`` (e.g. ``"gm.core.tasks.phase_notify_task"``), for a service to
    enqueue (``task(name).delay_on_commit(...)``). The services find their tasks by name, so the task module (the
    shell that calls the services) is the only one that imports the other. Raises ``KeyError`` for an unknown name
    (``gm.core.apps`` imports the task module at start-up, so the core's tasks are always registered)."""
    from celery import current_app

    return current_app.tasks[name]
