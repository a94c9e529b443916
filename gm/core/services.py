"""Write services of the game-master core (imperative shell around the pure module engines).

Every service is keyword-only, atomic, and locks the rows it changes (the phase row first, then the game row,
always in that order so two services never deadlock). Deadline logic takes an injectable ``clock`` (a callable
returning an aware UTC ``datetime``) so it can be tested on frozen time.

Exactly once: a phase moves ``open → resolving`` only by a compare-and-set UPDATE (:func:`phase_claim`) that
records a claim token; :func:`phase_resolve` then locks the row and resolves only if the token is still its
own, writing everything in one transaction. A worker that dies leaves ``resolving`` with its token and
nothing else; :func:`phases_sweep` reclaims it after ``GM_RESOLVING_TIMEOUT`` seconds. The partial unique
constraint "one unresolved phase per game" backs this up at the database.
"""
from __future__ import annotations

import hashlib
import json
import logging
import random
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from . import registry, signals
from .engine import (
    Event,
    Outcome,
    PhaseInfo,
    PhaseSpec,
    PrivateSent,
    Resolution,
    RuleViolation,
    SeatInfo,
    phase_random,
    phase_rng,
)
from .models import AuditEntry, Game, GroupMembership, LogEntry, Order, Phase, Post, PostPrivate, PostRevision, Seat

logger = logging.getLogger("gm.resolution")
deadline_logger = logging.getLogger("gm.deadlines")

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


def _violation_errors(exc: RuleViolation) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for err in exc.errors:
        text = err.render(_)
        if err.rule:
            text = f"{text} ({err.rule})"
        errors.setdefault(err.field or "__all__", []).append(text)
    return errors


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


def _require_master(game: Game, actor) -> None:
    if not (actor and actor.is_authenticated and (actor.pk == game.master_id or actor.is_superuser)):
        raise ServiceError(_("Only the game's master may do this."), code="forbidden")


def _audit(*, game: Game, actor, action: str, reason: str = "", phase: Phase | None = None, data=None, now):
    AuditEntry.objects.create(
        game=game, phase=phase, actor=actor, action=action, reason=reason, data=data or {}, created_at=now
    )


def _log(game: Game, phase: Phase | None, event: Event, now: datetime) -> LogEntry:
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


# -- games and seats ------------------------------------------------------------------------------------


def game_create(
    *,
    master,
    module: str,
    title: str,
    description: str = "",
    options: Mapping[str, Any] | None = None,
    durations: Mapping[str, float] | None = None,
    rng_seed: int | None = None,
    starts_at: datetime | None = None,
) -> Game:
    """Create a ``draft`` game of ``module`` mastered by ``master``.

    ``durations`` maps phase kinds to seconds (positive, at most 30 days). ``rng_seed`` defaults to a fresh
    random 63-bit seed (recorded, so dealing and every phase can be reproduced). Raises :class:`ServiceError`
    when the user may not host, the module is unknown, or options/durations are invalid.
    """
    if not can_host(master):
        raise ServiceError(_("You may not host games. Ask an administrator for the “can host games” permission."),
                           code="forbidden")
    try:
        game_module = registry.get(module)
    except registry.UnknownModule:
        raise ServiceError({"module": [_("Unknown game “%(slug)s”.") % {"slug": module}]}) from None
    errors: dict[str, list[str]] = {}
    if not title or not title.strip():
        errors["title"] = [_("Give the game a title.")]
    try:
        clean_options = game_module.validate_options(options or {})
    except RuleViolation as exc:
        for key, msgs in _violation_errors(exc).items():
            errors.setdefault("options" if key == "__all__" else f"options.{key}", []).extend(msgs)
        clean_options = {}
    clean_durations: dict[str, float] = {}
    for kind, seconds in (durations or {}).items():
        if kind not in game_module.phase_kinds:
            errors.setdefault("durations", []).append(_("Unknown phase kind “%(kind)s”.") % {"kind": kind})
            continue
        try:
            value = float(seconds)
        except (TypeError, ValueError, OverflowError):
            value = -1
        if not 0 < value <= 30 * 86400:
            errors.setdefault("durations", []).append(
                _("The duration of “%(kind)s” must be between 1 second and 30 days.") % {"kind": kind}
            )
            continue
        clean_durations[kind] = value
    if errors:
        raise ServiceError(errors)
    return Game.objects.create(
        module=module,
        title=title.strip(),
        description=description,
        master=master,
        options=clean_options,
        durations=clean_durations,
        rng_seed=rng_seed if rng_seed is not None else random.SystemRandom().getrandbits(63),
        starts_at=starts_at,
    )


def game_open_signup(*, game: Game, actor) -> Game:
    """Move a ``draft`` game to ``signup`` (master only). Raises :class:`ServiceError`."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        _require_master(game, actor)
        if game.status != Game.Status.DRAFT:
            raise ServiceError(_("Signups can only be opened for a draft game."), code="state")
        game.status = Game.Status.SIGNUP
        game.save(update_fields=["status"])
        return game


def game_close_signup(*, game: Game, actor, closed: bool = True) -> Game:
    """Close (or, with ``closed=False``, reopen) signups of a game in ``signup`` (master only, FM-2.5)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        _require_master(game, actor)
        if game.status != Game.Status.SIGNUP:
            raise ServiceError(_("Signups can only be closed or reopened before the game starts."), code="state")
        game.signups_closed = closed
        game.save(update_fields=["signups_closed"])
        return game


def seat_join(*, game: Game, user, display_name: str) -> Seat:
    """Give ``user`` a seat at the end of the ring of a game in ``signup``.

    Raises :class:`ServiceError` if signups are closed, the user already has a seat, the name is empty or taken,
    or the module's seat limit is reached.
    """
    display_name = (display_name or "").strip()
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in to sign up."), code="forbidden")
    if not display_name:
        raise ServiceError({"display_name": [_("Choose a name for your character.")]})
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.SIGNUP or game.signups_closed:
            raise ServiceError(_("Signups for this game are closed."), code="state")
        if user.pk == game.master_id:
            raise ServiceError(_("The master can't take a seat in their own game."), code="not_allowed")
        seats = list(game.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise ServiceError(_("You already have a seat in this game."), code="duplicate")
        if any(s.display_name.casefold() == display_name.casefold() for s in seats):
            taken = _("The name “%(name)s” is taken in this game.") % {"name": display_name}
            raise ServiceError({"display_name": [taken]})
        if len(seats) >= game.game_module.max_seats:
            raise ServiceError(_("The game is full."), code="full")
        position = max((s.position for s in seats), default=-1) + 1
        return Seat.objects.create(game=game, user=user, display_name=display_name, position=position)


def seat_leave(*, game: Game, user) -> None:
    """Withdraw ``user``'s signup before the game starts. Raises :class:`ServiceError`."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.SIGNUP:
            raise ServiceError(_("You can only withdraw before the game starts."), code="state")
        deleted, _rows = Seat.objects.filter(game=game, user=user).delete()
        if not deleted:
            raise ServiceError(_("You have no seat in this game."), code="not_found")


def seat_info(seat: Seat) -> SeatInfo:
    return SeatInfo(id=seat.pk, name=seat.display_name, position=seat.position, alive=seat.alive, data=seat.data)


def game_start(*, game: Game, actor, clock: Clock = timezone.now) -> Phase:
    """Deal the game with the module's ``setup`` from the recorded seed and open its first phase.

    Allowed from ``signup`` (master only). Raises :class:`ServiceError` (with the module's reasons) if the game
    can't start, e.g. too few seats.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        _require_master(game, actor)
        if game.status != Game.Status.SIGNUP:
            raise ServiceError(_("Only a game with open signups can be started."), code="state")
        module = game.game_module
        seats = list(game.seats.order_by("position"))
        if len(seats) < module.min_seats:
            raise ServiceError(
                _("This game needs at least %(min)s players; %(count)s signed up.")
                % {"min": module.min_seats, "count": len(seats)},
                code="state",
            )
        # Ring positions are compacted so that withdrawals leave no gaps.
        for index, seat in enumerate(seats):
            if seat.position != index:
                seat.position = index + 1000
                seat.save(update_fields=["position"])
        for index, seat in enumerate(seats):
            if seat.position != index:
                seat.position = index
                seat.save(update_fields=["position"])
        try:
            result = module.setup(seats=[seat_info(s) for s in seats], options=game.options,
                                  rng=random.Random(game.rng_seed))
        except RuleViolation as exc:
            raise ServiceError(_violation_errors(exc), code="state") from None
        now = clock()
        by_id = {s.pk: s for s in seats}
        for seat_id, data in result.seat_data.items():
            by_id[seat_id].data = data
        Seat.objects.bulk_update(seats, ["data"])
        _add_groups(game, result.groups)
        game.state = result.state
        game.started_at = now
        # Apps add what the game must carry from its start (e.g. the card collection snapshot) to game.state.
        signals.game_started.send(sender=Game, game=game, module=module)
        LogEntry.objects.bulk_create(
            [_log(game, None, Event("core.game_started"), now)] + [_log(game, None, e, now) for e in result.events]
        )
        phase = _phase_open(game, result.first_phase, ordinal=1, now=now)
        game.save(update_fields=["state", "started_at", "status"])
        return phase


def game_abort(*, game: Game, actor, reason: str, clock: Clock = timezone.now) -> Game:
    """Abort a game that has not finished (master only, audited as ``abort`` with ``reason``); the open phase is
    closed unresolved.

    A result held for the master's review (``gm.core.review``) is discarded: it will never be published, so the
    phase stops being held (``held_at``/``publish_at`` cleared) and its stored result is dropped (the phase keeps its
    input snapshot, so ``gm_replay`` can still recompute it). The audit entry says so: its ``phase`` is that phase
    and its ``data`` ``{"discarded_result": {"phase", "ordinal", "held_at", "result_digest"}}``. Raises
    :class:`ServiceError` ``forbidden`` (not the master) or ``state`` (the game is over)."""
    with transaction.atomic():
        # Phase rows first (the services' lock order): the open one, and a held one (no phase is open behind it).
        Phase.objects.select_for_update().filter(game_id=game.pk, status=Phase.Status.OPEN).first()
        held = (Phase.objects.select_for_update()
                .filter(game_id=game.pk, held_at__isnull=False, published_at__isnull=True).first())
        game = Game.objects.select_for_update().get(pk=game.pk)
        _require_master(game, actor)
        if game.is_over:
            raise ServiceError(_("The game is already over."), code="state")
        now = clock()
        game.status = Game.Status.ABORTED
        game.finished_at = now
        game.save(update_fields=["status", "finished_at"])
        data = {}
        if held is not None:
            data["discarded_result"] = {"phase": held.pk, "ordinal": held.ordinal,
                                        "held_at": held.held_at.isoformat(), "result_digest": held.result_digest}
            held.held_at = held.publish_at = None
            held.result, held.result_digest = {}, ""
            held.save(update_fields=["held_at", "publish_at", "result", "result_digest"])
        _audit(game=game, actor=actor, action="abort", reason=reason, phase=held, data=data, now=now)
        return game


def _add_groups(game: Game, groups: Mapping[str, list[int]]) -> None:
    GroupMembership.objects.bulk_create(
        [GroupMembership(game=game, seat_id=sid, group=slug) for slug, ids in groups.items() for sid in ids],
        ignore_conflicts=True,
    )


def _phase_open(game: Game, spec: PhaseSpec, *, ordinal: int, now: datetime,
                log: list[LogEntry] | None = None) -> Phase:
    """Create phase ``ordinal`` from the module's ``spec`` with its deadline and schedule its ETA task. Its
    ``core.phase_opened`` entry is saved here, or appended unsaved to ``log`` (the caller inserts it with others)."""
    seconds = spec.duration if spec.duration is not None else game.duration_for(spec.kind)
    deadline = now + timedelta(seconds=seconds)
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

    The countdown is capped at ``GM_ETA_MAX`` seconds (below the broker's visibility timeout, so Redis never
    redelivers a waiting ETA message); a capped task re-schedules itself when it wakes. The beat sweep
    resolves the phase even if this message is lost.
    """
    from .tasks import phase_deadline_task

    remaining = max(0.0, (phase.deadline - now).total_seconds())
    hop = remaining > settings.GM_ETA_MAX
    phase_deadline_task.apply_async_on_commit(
        args=(phase.pk,), kwargs={"hop": hop}, countdown=min(remaining, settings.GM_ETA_MAX)
    )


# -- orders ---------------------------------------------------------------------------------------------


def _seat_for_order(phase: Phase, user) -> Seat:
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in to give orders."), code="forbidden")
    seat = Seat.objects.filter(game_id=phase.game_id, user=user).first()
    if seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    return seat


def phase_accepting_for_update(
    *, game: Game, now: datetime, kind: str | None = None, number: int | None = None, wrong_stage: str = "",
    late: str = "", phase_id: int | None = None,
) -> Phase:
    """Lock and return ``game``'s unresolved phase if it still accepts player input at ``now``.

    Call inside ``transaction.atomic``. ``kind``/``number`` restrict it to one stage (e.g. ``deckbuilding``, or
    ``night`` 1); a different or missing phase raises :class:`ServiceError` ``state`` with ``wrong_stage`` as the
    message; a phase past its deadline (and a game not paused) or already resolving raises ``late`` (with the
    ``late`` message if given). ``phase_id``: the phase the input was made for (named by its form or API body);
    when that phase has ended, :func:`stale_refusal` (``stale``) — checked under the lock, before anything else.
    """
    if phase_id is not None:
        named = (Phase.objects.select_for_update(of=("self",)).select_related("game")
                 .filter(game_id=game.pk, pk=phase_id).first())
        if named is None:
            raise ServiceError({"phase": [_("This game has no phase with that id.")]})
        if named.status != Phase.Status.OPEN:
            raise stale_refusal(named)
    phase = (Phase.objects.select_for_update(of=("self",)).select_related("game").filter(game_id=game.pk)
             .exclude(status=Phase.Status.RESOLVED).first())
    if phase is None or (kind is not None and phase.kind != kind) or (number is not None and phase.number != number):
        raise ServiceError(wrong_stage or _("There is no open phase."), code="state")
    try:
        if phase.status != Phase.Status.OPEN:  # resolving: its deadline passed, or the master resolved it now
            raise ServiceError(late or _("%(label)s is being resolved; nothing more can be submitted for it.")
                               % {"label": phase.label}, code="late")
        _check_not_late(phase, now)
    except ServiceError:
        if late:
            raise ServiceError(late, code="late") from None
        raise
    return phase


def _check_not_late(phase: Phase, now: datetime) -> None:
    if phase.status != Phase.Status.OPEN:
        raise stale_refusal(phase)
    if phase.deadline <= now and phase.game.paused_at is None:
        raise ServiceError(
            _("The deadline of %(label)s has passed (%(deadline)s); nothing more can be submitted for it.")
            % {"label": phase.label, "deadline": date_format(timezone.localtime(phase.deadline), "DATETIME_FORMAT")},
            code="late",
        )


def stale_refusal(phase: Phase, *, subject: str = "order") -> ServiceError:
    """The refusal of input meant for ``phase`` once it has ended (it is resolving or resolved): code ``stale``
    (HTTP 409), a message naming it and the phase open now — "Night 1 has ended; Day 1 is open now — your order was
    not saved." — and ``extra`` ``{"phase": <its id>, "open_phase": <the open phase's id or null>}`` for API
    clients. ``subject``: ``"order"`` or ``"vote"`` (what the message says was not saved). Reads the open phase."""
    current = (Phase.objects.filter(game_id=phase.game_id, status=Phase.Status.OPEN).exclude(pk=phase.pk)
               .select_related("game").first())
    params = {"phase": phase.label, "open": current.label if current is not None else ""}
    if current is not None:
        text = (_("%(phase)s has ended; %(open)s is open now — your vote was not saved.") if subject == "vote"
                else _("%(phase)s has ended; %(open)s is open now — your order was not saved."))
    else:
        text = (_("%(phase)s has ended — your vote was not saved.") if subject == "vote"
                else _("%(phase)s has ended — your order was not saved."))
    return ServiceError({"phase": [text % params]}, code="stale",
                        extra={"phase": phase.pk, "open_phase": current.pk if current is not None else None})


def phase_named(*, game: Game, phase_id: Any, current: bool = True, subject: str = "order") -> Phase:
    """The phase of ``game`` that a form or an API body names (``phase_id``: its id, an int or a decimal string).
    Every order, vote and order-like write names the phase it was made for, so input made for a phase that has
    since ended is refused instead of landing in the next one.

    Raises :class:`ServiceError` ``invalid`` keyed ``phase`` when the id is missing, malformed or not one of
    ``game``'s phases; with ``current`` (the default) also :func:`stale_refusal` (for ``subject``) when that phase is
    no longer open.
    This is a read without a lock, for a clear early answer (before a form is rebuilt for the phase); the write
    services check again under the phase row lock (:func:`order_submit`, :func:`phase_accepting_for_update`)."""
    if isinstance(phase_id, str) and phase_id.strip().isascii() and phase_id.strip().isdigit():
        phase_id = int(phase_id.strip()) if len(phase_id.strip()) < 19 else -1  # -1: no such phase
    if phase_id is None or phase_id == "":
        raise ServiceError({"phase": [_("Name the phase this is for (its id); reload the page to get a form "
                                        "for the open phase.")]})
    if not isinstance(phase_id, int) or isinstance(phase_id, bool):
        raise ServiceError({"phase": [_("The phase must be given by its id (a whole number).")]})
    phase = (Phase.objects.select_related("game").filter(game_id=game.pk, pk=phase_id).first()
             if 0 < phase_id < 2**63 else None)
    if phase is None:
        raise ServiceError({"phase": [_("This game has no phase with that id.")]})
    if current and phase.status != Phase.Status.OPEN:
        raise stale_refusal(phase, subject=subject)
    return phase


def _check_base_version(phase: Phase, seat: Seat, base_version: int | None) -> None:
    """Refuse (``conflict``) an edit of order version ``base_version`` (0: no order yet) of ``seat`` in ``phase``
    when a later version exists: the order was changed elsewhere since the form was loaded. ``None``: no check."""
    if base_version is None:
        return
    latest = _next_version(phase, seat) - 1
    if base_version != latest:
        raise ServiceError({"version": [
            _("Your order changed since this form was loaded (version %(latest)s now, the form edits version "
              "%(base)s); look at it again — this change was not saved.") % {"latest": latest, "base": base_version}
        ]}, code="conflict", extra={"version": latest})


def _check_phase_accepts(phase: Phase, seat: Seat, now: datetime) -> None:
    _check_not_late(phase, now)
    if not seat.alive:
        raise ServiceError(_("Dead characters give no orders."), code="not_allowed")
    if phase.actors is not None and seat.pk not in phase.actors:
        raise ServiceError(_("It is not your turn to act in %(label)s.") % {"label": phase.label}, code="not_allowed")


def _next_version(phase: Phase, seat: Seat) -> int:
    last = Order.objects.filter(phase=phase, seat=seat).order_by("-version").values_list("version", flat=True).first()
    return (last or 0) + 1


def _flood_check(game: Game, user, action: str, now: datetime) -> None:
    from .flood import check_seat_rate

    check_seat_rate(game=game, user=user, action=action, now=now)


def order_submit(*, phase: Phase, user, payload: Any, base_version: int | None = None,
                 clock: Clock = timezone.now) -> Order:
    """Store a new version of ``user``'s order for ``phase`` after the module validates it (FM-5.6).

    ``phase`` is the phase the order was made for — the one the form or API body named (:func:`phase_named`), never
    "whatever is open now": an order for a phase that has ended is refused with code ``stale`` (409, naming both
    phases, :func:`stale_refusal`), so a form left open over a resolution saves nothing. ``payload`` is the module's
    order shape (a JSON object). ``base_version``: the order version the form edits (0 for none), checked against
    the latest one (``conflict`` when it changed since); ``None`` skips that check.

    Raises :class:`ServiceError` with code ``stale`` (see above), ``late`` after the deadline, ``not_allowed`` for a
    dead or out-of-turn seat, ``conflict`` (see ``base_version``), ``invalid`` (field errors) for an order the module
    refuses. Nothing is stored on error.
    """
    if not isinstance(payload, Mapping):
        raise ServiceError({"payload": [_("An order must be a JSON object.")]})
    seat = _seat_for_order(phase, user)
    with transaction.atomic():
        phase = Phase.objects.select_for_update(of=("self",)).select_related("game").get(pk=phase.pk)
        now = clock()
        # Every seat, read under the phase lock: the validation needs them all, and the caller's is among them.
        rows = list(Seat.objects.filter(game_id=phase.game_id).order_by("position"))
        seat = next((s for s in rows if s.pk == seat.pk), None)
        if seat is None:
            raise ServiceError(_("You have no seat in this game."), code="forbidden")
        _check_phase_accepts(phase, seat, now)
        # Counted once the phase accepts it: a form left open over a resolution hears "ended", not "slow down".
        _flood_check(phase.game, user, "order", now)
        _check_base_version(phase, seat, base_version)
        module = phase.game.game_module
        info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
        try:
            seats = [seat_info(s) for s in rows]
            clean = module.validate_order(state=phase.game.state, phase=info, seat=seat_info(seat), payload=payload,
                                          seats=seats)
        except RuleViolation as exc:
            raise ServiceError(_violation_errors(exc)) from None
        return Order.objects.create(
            phase=phase, seat=seat, version=_next_version(phase, seat), payload=clean, submitted_by=user,
            created_at=now,
        )


def order_withdraw(*, phase: Phase, user, base_version: int | None = None, clock: Clock = timezone.now) -> Order:
    """Withdraw ``user``'s current order for ``phase`` (the phase named by the form or API body): a new version with
    no payload. Same errors as :func:`order_submit` (``stale`` for a phase that has ended, ``conflict`` when
    ``base_version`` is not the latest), and ``not_found`` without an order."""
    seat = _seat_for_order(phase, user)
    with transaction.atomic():
        phase = Phase.objects.select_for_update(of=("self",)).select_related("game").get(pk=phase.pk)
        now = clock()
        _check_phase_accepts(phase, seat, now)
        _flood_check(phase.game, user, "order", now)
        _check_base_version(phase, seat, base_version)
        current = Order.objects.filter(phase=phase, seat=seat).order_by("-version").first()
        if current is None or current.payload is None:
            raise ServiceError(_("You have no order to withdraw."), code="not_found")
        return Order.objects.create(
            phase=phase, seat=seat, version=current.version + 1, payload=None, submitted_by=user, created_at=now
        )


def _thread_text(body: Any, comment: Any, *, may_be_empty: bool = False) -> tuple[str, str]:
    """``(body, comment)`` stripped, or :class:`ServiceError` ``invalid`` keyed ``body``/``comment``."""
    body = (body or "").strip() if isinstance(body, str) or body is None else None
    comment = (comment or "").strip() if isinstance(comment, str) or comment is None else None
    errors: dict[str, list[str]] = {}
    if body is None:
        errors["body"] = [_("The text must be a string.")]
    elif not body and not may_be_empty:
        errors["body"] = [_("Write something first.")]
    elif len(body) > Post.MAX_BODY:
        errors["body"] = [_("A post may have at most %(max)s characters; this one has %(n)s.")
                          % {"max": Post.MAX_BODY, "n": len(body)}]
    if comment is None:
        errors["comment"] = [_("The comment must be a string.")]
    elif len(comment) > Post.MAX_COMMENT:
        errors["comment"] = [_("A comment may have at most %(max)s characters; this one has %(n)s.")
                             % {"max": Post.MAX_COMMENT, "n": len(comment)}]
    elif "\n" in comment or "\r" in comment:
        errors["comment"] = [_("A comment is one line of plain text.")]
    if errors:
        raise ServiceError(errors)
    return body, comment


def _poster_seat(game: Game, user) -> Seat | None:
    """The seat ``user`` posts with (``None`` for the master), or :class:`ServiceError` ``forbidden`` when he may not
    post now: not logged in; no seat (spectators read, FM-9.1); before the game runs (FM-1.4: signup and deck
    building are radio silence); his character is dead and the module does not let it speak (FM-9.7)."""
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in to post."), code="forbidden")
    seat = Seat.objects.filter(game=game, user=user).first()
    if user.pk == game.master_id or (user.is_superuser and seat is None):
        return seat
    if seat is None:
        raise ServiceError(_("Only the game's players and master may post."), code="forbidden")
    if game.status not in (Game.Status.RUNNING, Game.Status.FINISHED):
        # FM-1.4: no communication before Night 1 (signup and deck building).
        raise ServiceError(_("Players may post once the game is running.") + " (FM-1.4)", code="forbidden")
    if not game.game_module.may_post(seat.data, seat.alive):
        raise ServiceError(_("The dead do not post.") + " (FM-9.7)", code="forbidden")
    return seat


def _markup_error(exc) -> ServiceError:
    return ServiceError({"body": [_(exc.message) % exc.params if exc.params else _(exc.message)]})


def _accepting_phase(game: Game, now: datetime, *, lock: bool) -> Phase | None:
    """The game's unresolved phase if it still accepts input at ``now`` (open, and before its deadline unless the
    game is paused), else ``None``. ``lock``: ``SELECT … FOR UPDATE`` it (the phase row is always locked first)."""
    qs = Phase.objects.filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).select_related("game")
    phase = (qs.select_for_update(of=("self",)) if lock else qs).first()
    if phase is None or phase.status != Phase.Status.OPEN:
        return None
    if phase.deadline <= now and phase.game.paused_at is None:
        return None
    return phase


def _check_private(game: Game, seat: Seat | None, part, phase: Phase | None) -> tuple[Seat, bool]:
    """The recipient seat of a post's private ``part`` (FM-9.2) and whether his name is public, after the module's
    :meth:`~gm.core.engine.GameModule.check_private`; :class:`ServiceError` ``invalid`` (field ``body``) with the
    reason otherwise. Call with the phase row locked, so a once-per-day allowance can't be spent twice."""
    if seat is None:
        raise ServiceError({"body": [_("Only characters send private messages (FM-9.2).")]})
    seats = list(Seat.objects.filter(game_id=game.pk).order_by("position"))
    wanted = " ".join(part.recipient.split()).casefold()
    recipient = next((s for s in seats if " ".join(s.display_name.split()).casefold() == wanted), None)
    if recipient is None:
        raise ServiceError({"body": [_("Nobody in this game is called “%(name)s” (FM-9.2).")
                                     % {"name": part.recipient}]})
    sent = [PrivateSent(recipient=p.recipient_id, public_recipient=p.public_recipient)
            for p in PostPrivate.objects.filter(post__seat=seat, post__phase=phase)] if phase is not None else []
    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors) \
        if phase is not None else None
    try:
        public = game.game_module.check_private(
            state=game.state, phase=info, sender=seat_info(seat), recipient=seat_info(recipient),
            seats=[seat_info(s) for s in seats], sent=sent)
    except RuleViolation as exc:
        raise ServiceError(_violation_errors(exc)) from None
    return recipient, bool(public)


def post_create(*, game: Game, user, body: str, comment: str = "", clock: Clock = timezone.now) -> Post:
    """Add a post to the game thread (FM-9.1) and return it.

    ``body`` is BBCode (at most ``Post.MAX_BODY`` characters) and may hold one ``[private="Name"]text[/private]``
    (FM-9.2), which is cut out of ``body`` and stored as the post's :class:`PostPrivate`; ``comment`` is one line of
    plain text (at most ``Post.MAX_COMMENT``). The master may always post; a player once the game runs (FM-1.4)
    while his character may speak (FM-9.7; the module's ``may_post``); spectators never.

    Raises :class:`ServiceError`: ``forbidden`` (who may not post now), ``invalid`` keyed ``body``/``comment`` (empty
    or too long text, a malformed or second private tag, an unknown recipient, a private message the module refuses
    — by night, to a non-neighbour…, each with its rule ID). Nothing is saved on error.
    """
    from . import markup

    body, comment = _thread_text(body, comment)
    seat = _poster_seat(game, user)
    try:
        public_body, part = markup.split_private(body)
    except markup.MarkupError as exc:
        raise _markup_error(exc) from None
    _flood_check(game, user, "post", clock())
    if part is not None:
        _flood_check(game, user, "private", clock())
    with transaction.atomic():
        # Phase row first (the services' lock order): a day can't end between the check and the write, and two
        # posts of one postman can't both spend his once-per-day message.
        phase = _accepting_phase(game, clock(), lock=part is not None)
        if part is not None:
            recipient, public = _check_private(game, seat, part, phase)
        post = Post.objects.create(game=game, author=user, seat=seat, phase=phase, body=public_body, comment=comment)
        if part is not None:
            PostPrivate.objects.create(post=post, recipient=recipient, text=part.text, public_recipient=public)
        game.game_module.post_saved(post, clock=clock)
    transaction.on_commit(lambda: signals.post_created.send(sender=Post, post=post))
    return post


def post_edit(*, post: Post, user, body: str, comment: str | None = None, clock: Clock = timezone.now) -> Post:
    """Replace the text (and ``comment``, unless ``None``) of ``post`` by its author, keeping the previous version as
    a :class:`PostRevision` (only the master reads them). An unchanged post is returned as it is.

    The author must still be allowed to post (see :func:`post_create`). A private message is a message already
    delivered: it can be neither added nor changed by an edit (FM-9.2); the post keeps the one it has, so its
    public text may become empty. Raises :class:`ServiceError` ``forbidden`` (not the author, may not post now) or
    ``invalid`` (``body``/``comment``).
    """
    from . import markup

    if not user or not user.is_authenticated or post.author_id != user.pk:
        raise ServiceError(_("Only the author may edit a post."), code="forbidden")
    has_private = PostPrivate.objects.filter(post=post).exists()
    body, new_comment = _thread_text(body, comment, may_be_empty=has_private)
    _poster_seat(post.game, user)
    if markup.mentions_private(body):
        raise ServiceError({"body": [_("A private message can't be added or changed by editing (FM-9.2).")]})
    with transaction.atomic():
        post = Post.objects.select_for_update(of=("self",)).select_related("game").get(pk=post.pk)
        comment = post.comment if comment is None else new_comment
        if (body, comment) == (post.body, post.comment):
            return post
        now = clock()
        version = post.revisions.count() + 1
        PostRevision.objects.create(post=post, version=version, body=post.body, comment=post.comment,
                                    written_at=post.edited_at or post.created_at, replaced_at=now)
        post.body, post.comment, post.edited_at = body, comment, now
        post.save(update_fields=["body", "comment", "edited_at"])
        post.game.game_module.post_saved(post, clock=clock)
    return post


# -- resolution -----------------------------------------------------------------------------------------


def phase_claim(*, phase_id: int, clock: Clock = timezone.now, early: bool = False) -> uuid.UUID | None:
    """Compare-and-set ``open → resolving`` for a due phase of a running, unpaused game.

    Returns the claim token, or ``None`` when another worker got there first, the phase is not due (unless
    ``early``, used by "resolve now") or the game is paused.
    """
    now = clock()
    token = uuid.uuid4()
    # The status test must stay on the updated table itself: a join on ``game__…`` makes Django write
    # ``WHERE id IN (SELECT … status='open')``, and PostgreSQL does not re-check that subquery against the row
    # version a concurrent claimer just committed, so a late claimer could re-open a resolved phase.
    live_games = Game.objects.filter(paused_at__isnull=True, status__in=[Game.Status.RUNNING, Game.Status.SETUP])
    qs = Phase.objects.filter(pk=phase_id, status=Phase.Status.OPEN, game_id__in=live_games.values("pk"))
    if not early:
        qs = qs.filter(deadline__lte=now)
    claimed = qs.update(status=Phase.Status.RESOLVING, claim_token=token, claimed_at=now, claims=F("claims") + 1)
    return token if claimed else None


def phase_reclaim(*, phase_id: int, clock: Clock = timezone.now) -> uuid.UUID | None:
    """Take over a phase left ``resolving`` for more than ``GM_RESOLVING_TIMEOUT`` seconds (its worker died).

    Compare-and-set on the old claim time; returns the new token or ``None``.
    """
    now = clock()
    token = uuid.uuid4()
    stale_before = now - timedelta(seconds=settings.GM_RESOLVING_TIMEOUT)
    claimed = Phase.objects.filter(pk=phase_id, status=Phase.Status.RESOLVING, claimed_at__lte=stale_before).update(
        claim_token=token, claimed_at=now, claims=F("claims") + 1
    )
    if claimed:
        deadline_logger.warning("phase reclaimed", extra={"phase": phase_id})
    return token if claimed else None


def _latest_orders(phase: Phase, seats: list[Seat]) -> dict[int, dict]:
    """The last version of each seat's order (withdrawn ones dropped; only living actors count)."""
    latest: dict[int, Any] = {}
    for seat_id, payload in Order.objects.filter(phase=phase).order_by("seat_id", "version").values_list(
        "seat_id", "payload"
    ):
        latest[seat_id] = payload
    allowed = {s.pk for s in seats if s.alive and (phase.actors is None or s.pk in phase.actors)}
    return {sid: p for sid, p in latest.items() if p is not None and sid in allowed}


def canonical_digest(result: Resolution | Mapping[str, Any], constant_keys: Sequence[str] = ()) -> str:
    """sha256 of the canonical JSON of an engine result (or of its :func:`resolution_data`), for reproducibility
    checks: the same snapshot, orders and seed always give the same digest."""
    data = result if isinstance(result, Mapping) else resolution_data(result, constant_keys)
    return hashlib.sha256(_canonical_json(data).encode()).hexdigest()


def _canonical_json(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))


def resolution_data(result: Resolution, constant_keys: Sequence[str] = ()) -> dict:
    """An engine result as the JSON-compatible dict stored in ``Phase.result``: seat ids as string keys (as the
    database returns them) and the state without the module's ``constant_state_keys`` (kept once, in
    ``Game.state``). Built without deep copies: the engine's values are already plain JSON data, and a resolution is
    timed (compare a re-run through the same function, after a JSON round trip — ``gm_replay`` does)."""
    return {
        "state": {k: v for k, v in result.state.items() if k not in constant_keys},
        "events": [{"kind": e.kind, "data": e.data, "visibility": e.visibility, "seat": e.seat, "group": e.group}
                   for e in result.events],
        "seat_data": {str(k): v for k, v in result.seat_data.items()},
        "alive": {str(k): v for k, v in result.alive.items()},
        "groups": {k: list(v) for k, v in result.groups.items()},
        "next_phase": asdict(result.next_phase) if result.next_phase is not None else None,
        "outcome": (_outcome_dict(result.outcome) if result.outcome is not None else None),
    }


def phase_snapshot(game: Game, seats: Sequence[Seat]) -> dict:
    """The input a phase is resolved from (stored in ``Phase.state``): the game state without the module's
    ``constant_state_keys`` and every seat as the engine sees it."""
    constant = game.game_module.constant_state_keys
    # Not dataclasses.asdict: it deep-copies every seat's data, and the snapshot is only read, then stored.
    return {"game": {k: v for k, v in game.state.items() if k not in constant},
            "seats": [{"id": s.pk, "name": s.display_name, "position": s.position, "alive": s.alive, "data": s.data}
                      for s in seats]}


def _seats_write(seats: Sequence[Seat]) -> None:
    """Write ``data`` and ``alive`` of ``seats`` and bump their ``version`` in one statement whatever their number.

    On PostgreSQL one ``UPDATE … FROM (VALUES …)``: Django's ``bulk_update`` builds a CASE per field and row, which
    costs more than the rest of a resolution; elsewhere ``bulk_update``."""
    if not seats:
        return
    if connection.vendor != "postgresql":
        for seat in seats:
            seat.version = F("version") + 1
        Seat.objects.bulk_update(seats, ["data", "alive", "version"])
        return
    table = connection.ops.quote_name(Seat._meta.db_table)
    rows = ", ".join(["(%s, %s::jsonb, %s)"] * len(seats))
    params: list[Any] = []
    for seat in seats:
        params += [seat.pk, json.dumps(seat.data, ensure_ascii=False), seat.alive]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS s SET data = v.data, alive = v.alive, version = s.version + 1 "
            f"FROM (VALUES {rows}) AS v(id, data, alive) WHERE s.id = v.id",
            params,
        )


def _phase_write_resolved(phase: Phase, *, result_json: str) -> None:
    """Save a resolved ``phase``'s ``state``, ``status``, ``resolved_at``, ``result_digest`` and ``result``;
    ``result_json`` is ``phase.result`` already encoded as JSON (on PostgreSQL sent as it is)."""
    if connection.vendor != "postgresql":
        phase.save(update_fields=["state", "status", "resolved_at", "result_digest", "result"])
        return
    Phase.objects.filter(pk=phase.pk).update(
        state=RawSQL("%s::jsonb", [json.dumps(phase.state, ensure_ascii=False)]), status=phase.status,
        resolved_at=phase.resolved_at, result_digest=phase.result_digest,
        result=RawSQL("%s::jsonb", [result_json]))


def _game_write(game: Game, before: Mapping[str, Any]) -> None:
    """Save a resolved ``game``'s ``state``, ``status``, ``finished_at`` and ``outcome``; ``before`` is the state
    it was loaded with. On PostgreSQL, when the module's ``constant_state_keys`` (the card collection: most of the
    state) are unchanged, they are kept in the row and only the other keys are sent; otherwise a plain ``save``."""
    constant = game.game_module.constant_state_keys
    state = game.state
    if connection.vendor != "postgresql" or not constant or any(
            (k in state) != (k in before) or state.get(k) != before.get(k) for k in constant):
        game.save(update_fields=["state", "status", "finished_at", "outcome"])
        return
    table = connection.ops.quote_name(Game._meta.db_table)
    kept = [k for k in constant if k in state]
    rest = {k: v for k, v in state.items() if k not in constant}
    Game.objects.filter(pk=game.pk).update(
        state=RawSQL(f"(SELECT coalesce(jsonb_object_agg(c.key, c.value), '{{}}'::jsonb) "
                     f"FROM jsonb_each({table}.state) AS c WHERE c.key = ANY(%s)) || %s::jsonb",
                     [kept, json.dumps(rest, ensure_ascii=False)]),
        status=game.status, finished_at=game.finished_at, outcome=game.outcome)


class _LogRow(NamedTuple):
    """An unsaved log entry as :func:`_log_write` reads it: a resolution writes a hundred of them, and a model
    instance each (its related-object descriptors) cost more than the engine's whole layer of card plays."""

    game_id: int
    phase_id: int | None
    visibility: str
    seat_id: int | None
    group: str
    kind: str
    data: dict
    created_at: datetime


def _log_write(entries: Sequence[LogEntry | _LogRow]) -> None:
    """Insert ``entries`` (unsaved, in order: their ids follow it) whatever their number.

    On PostgreSQL one ``INSERT … SELECT`` from a single JSON parameter: ``bulk_create`` sends every field of every
    row as a separate parameter, and quoting those (the JSON ``data`` of a 16-player night's ~100 entries, once
    as JSON and once more as an array element) cost more than the engine; elsewhere ``bulk_create``. The entries
    get no ids back (nobody reads them after a resolution)."""
    if not entries:
        return
    if connection.vendor != "postgresql":
        LogEntry.objects.bulk_create([e if isinstance(e, LogEntry) else LogEntry(**e._asdict()) for e in entries])
        return
    table = connection.ops.quote_name(LogEntry._meta.db_table)
    columns = ["game_id", "phase_id", "visibility", "seat_id", "group", "kind", "data", "created_at"]
    rows = [{"game_id": e.game_id, "phase_id": e.phase_id, "visibility": e.visibility, "seat_id": e.seat_id,
             "group": e.group, "kind": e.kind, "data": e.data, "created_at": e.created_at.isoformat()}
            for e in entries]
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    picked = ", ".join(f"r.{connection.ops.quote_name(c)}" for c in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({names}) SELECT {picked} FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY "
            f"AS e(row, n), jsonb_populate_record(NULL::{table}, e.row) AS r ORDER BY e.n",
            [json.dumps(rows, ensure_ascii=False)],
        )


def run_engine(*, game: Game, phase: Phase, snapshot: Mapping[str, Any], orders: Mapping[int, Mapping]) -> Resolution:
    """Call the module's pure ``resolve`` on a stored snapshot and orders with the phase's RNG seed."""
    seats = [SeatInfo(**s) for s in snapshot["seats"]]
    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
    # Constant keys (e.g. the card collection) are stored once, on the game; they never change after the start.
    constant = {k: game.state[k] for k in game.game_module.constant_state_keys if k in game.state}
    return game.game_module.resolve(
        state={**constant, **snapshot["game"]}, phase=info, seats=seats, orders=orders,
        rng=phase_random(phase.rng_seed, snapshot.get("dice")),
    )


class _QueryCounter:
    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def phase_resolve(*, phase_id: int, token: uuid.UUID, clock: Clock = timezone.now) -> Phase | None:
    """Resolve a phase this worker has claimed with ``token``, in one transaction.

    Locks the phase row, checks the claim is still this worker's, runs the module engine on the seats' state
    and the last order versions, writes the log, seat changes and game state, marks the phase ``resolved``, and
    opens the next phase (or finishes the game). Returns the resolved phase, or ``None`` if the claim was lost
    (nothing is written then). Emits one structured log line (game, phase, duration, query count).
    """
    started = time.perf_counter()
    counter = _QueryCounter()
    with connection.execute_wrapper(counter), transaction.atomic():
        phase = Phase.objects.select_for_update().get(pk=phase_id)
        if phase.status != Phase.Status.RESOLVING or phase.claim_token != token:
            return None
        game = Game.objects.select_for_update().get(pk=phase.game_id)
        if game.is_over:  # defence in depth: nothing resolves in a finished or aborted game
            return None
        now = clock()
        # Locked so that an optimistic seat edit (Hand reorder) can't commit between this read and our write.
        seats = list(game.seats.select_for_update().order_by("position"))
        orders = _latest_orders(phase, seats)
        snapshot = phase_snapshot(game, seats)
        if (phase.state or {}).get("dice"):  # fixed dice (``interventions.phase_dice_fix``) go into the input
            snapshot["dice"] = phase.state["dice"]
        result = run_engine(game=game, phase=phase, snapshot=snapshot, orders=orders)
        if game.review_results:  # review before publishing: stored now, applied when published (gm.core.review)
            from .review import hold

            return hold(game=game, phase=phase, snapshot=snapshot, result=result, orders=len(orders), now=now)
        phase.state = snapshot
        phase.status = Phase.Status.RESOLVED
        phase.resolved_at = now
        stored = resolution_data(result, game.game_module.constant_state_keys)
        body = _canonical_json(stored)  # hashed, and on PostgreSQL stored as it is (not encoded twice)
        phase.result_digest = hashlib.sha256(body.encode()).hexdigest()
        phase.result = stored
        _phase_write_resolved(phase, result_json=body)

        def trace() -> LogEntry:
            # Written with the resolution's other entries: the duration runs up to that insert (engine and apply).
            duration_ms = round((time.perf_counter() - started) * 1000, 1)
            return LogEntry(game=game, phase=phase, visibility="master", kind="core.trace",
                            data={"duration_ms": duration_ms, "orders": len(orders), "claims": phase.claims},
                            created_at=now)

        before = game.state
        resolution_apply(game=game, phase=phase, seats=seats, result=result, now=now, trace=trace)
        _game_write(game, before)
        from .tasks import phase_notify_task

        phase_notify_task.delay_on_commit(phase.pk)
    logger.info(
        "phase resolved",
        extra={"game": game.pk, "phase": phase.pk, "ordinal": phase.ordinal, "kind": phase.kind,
               "duration_ms": round((time.perf_counter() - started) * 1000, 1), "queries": counter.count,
               "orders": len(orders), "events": len(result.events)},
    )
    return phase


def resolution_apply(*, game: Game, phase: Phase, seats: Sequence[Seat], result: Resolution, now: datetime,
                     trace: Callable[[], LogEntry] | None = None) -> None:
    """Apply an engine ``result`` of ``phase`` to the rows the caller has locked (``game``, ``phase`` and every seat
    in ``seats``): seat data and deaths, groups, the log (the events in order, then ``core.phase_resolved`` and,
    when the game ends, ``core.game_finished``), ``game.state``, and the next phase opened unless the game ended.
    ``trace`` (optional) makes one more entry, written last, with the others in the one insert (``core.trace``).
    Leaves saving ``game`` to the caller. Shared by :func:`phase_resolve` (at the deadline) and
    ``gm.core.review`` (a held result published later), so a result is applied the same way either way."""
    by_id = {s.pk: s for s in seats}
    entries: list[LogEntry | _LogRow] = [
        _LogRow(game.pk, phase.pk, e.visibility, e.seat, e.group, e.kind, dict(e.data), now) for e in result.events]
    changed = []
    for seat_id, data in result.seat_data.items():
        by_id[seat_id].data = data
        changed.append(by_id[seat_id])
    for seat_id, alive in result.alive.items():
        by_id[seat_id].alive = alive
        changed.append(by_id[seat_id])
    _seats_write(sorted(set(changed), key=lambda seat: seat.pk))
    _add_groups(game, result.groups)
    entries.append(_log(game, phase, Event("core.phase_resolved",
                                           {"phase_kind": phase.kind, "phase_number": phase.number}), now))
    game.state = result.state
    if result.outcome is not None or result.next_phase is None:
        entries.append(game_finish(game=game, outcome=result.outcome, phase=phase, now=now))
    if game.status != Game.Status.FINISHED:  # the new phase's id first: its core.phase_opened is in the insert
        _phase_open(game, result.next_phase, ordinal=phase.ordinal + 1, now=now, log=entries)
    if trace is not None:
        entries.append(trace())
    _log_write(entries)


def game_finish(*, game: Game, outcome: Outcome | None, phase: Phase, now: datetime) -> LogEntry:
    """Finish ``game`` with ``outcome`` (``None``: nobody wins) during ``phase``: status ``finished``,
    ``finished_at``, ``outcome`` (``{"winners", "winning_seats"}``). Call it inside the caller's transaction with
    ``phase`` locked.

    If ``phase`` is still unresolved (the game ended outside a resolution, e.g. right after a player's instant
    ability, FM-10.6), it is closed: marked ``resolved`` at ``now`` with no snapshot and no result (there was no
    resolution to replay), so a finished game keeps no unresolved phase and no deadline task or sweep touches it.

    Returns the unsaved ``core.game_finished`` log entry and leaves saving ``game`` (``status``, ``finished_at``,
    ``outcome``) to the caller, so a resolution writes both in the queries it makes anyway.
    """
    winners = list(outcome.winners) if outcome else []
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.outcome = _outcome_dict(outcome) if outcome else {"winners": [], "winning_seats": []}
    if phase.status != Phase.Status.RESOLVED:
        phase.status = Phase.Status.RESOLVED
        phase.resolved_at = now
        phase.save(update_fields=["status", "resolved_at"])
    data: dict[str, Any] = {"winners": winners}
    if outcome is not None and outcome.draw:
        data["draw"] = True
    return _log(game, phase, Event("core.game_finished", data), now)


def _outcome_dict(outcome: Outcome) -> dict:
    """``Game.outcome`` / ``Phase.result["outcome"]``: ``{"winners", "winning_seats"}``, and ``"draw": true`` only
    for a draw (so results stored before draws existed keep their digest)."""
    out: dict[str, Any] = {"winners": list(outcome.winners), "winning_seats": list(outcome.winning_seats)}
    if outcome.draw:
        out["draw"] = True
    return out


def phase_resolve_due(*, phase_id: int, clock: Clock = timezone.now) -> Phase | None:
    """Claim ``phase_id`` if it is due and resolve it; ``None`` if it was not ours to resolve."""
    token = phase_claim(phase_id=phase_id, clock=clock)
    if token is None:
        return None
    return phase_resolve(phase_id=phase_id, token=token, clock=clock)


@dataclass
class SweepReport:
    """What one sweep did: ids of phases it ``resolved``, ``reclaimed`` from dead workers, flagged ``overdue``, and
    whose held result it ``published`` (review before publishing, ``gm.core.review``)."""

    resolved: list[int] = field(default_factory=list)
    reclaimed: list[int] = field(default_factory=list)
    overdue: list[int] = field(default_factory=list)
    published: list[int] = field(default_factory=list)


def phases_sweep(*, clock: Clock = timezone.now, limit: int = 100) -> SweepReport:
    """The periodic deadline sweep (beat, every ``GM_SWEEP_INTERVAL`` seconds).

    Flags phases more than ``GM_OVERDUE_AFTER`` seconds past their deadline (an error log line and
    ``Phase.overdue_at``, shown on the master's page), reclaims phases stuck in ``resolving``, and claims and
    resolves every due phase, and publishes held results whose auto-publish time has passed, at most ``limit`` of
    each per sweep.
    """
    report = SweepReport()
    now = clock()
    live = Q(game__paused_at__isnull=True, game__status__in=[Game.Status.RUNNING, Game.Status.SETUP])
    overdue_before = now - timedelta(seconds=settings.GM_OVERDUE_AFTER)
    for phase in Phase.objects.filter(
        live, status__in=[Phase.Status.OPEN, Phase.Status.RESOLVING], deadline__lte=overdue_before,
        overdue_at__isnull=True,
    ).select_related("game")[:limit]:
        if Phase.objects.filter(pk=phase.pk, overdue_at__isnull=True).update(overdue_at=now):
            report.overdue.append(phase.pk)
            deadline_logger.error(
                "phase overdue",
                extra={"game": phase.game_id, "phase": phase.pk, "status": phase.status,
                       "overdue_seconds": round((now - phase.deadline).total_seconds(), 1)},
            )
    stale_before = now - timedelta(seconds=settings.GM_RESOLVING_TIMEOUT)
    for phase_id in Phase.objects.filter(status=Phase.Status.RESOLVING, claimed_at__lte=stale_before).values_list(
        "pk", flat=True
    )[:limit]:
        token = phase_reclaim(phase_id=phase_id, clock=clock)
        if token is not None and phase_resolve(phase_id=phase_id, token=token, clock=clock) is not None:
            report.reclaimed.append(phase_id)
    for phase_id in Phase.objects.filter(live, status=Phase.Status.OPEN, deadline__lte=now).order_by(
        "deadline"
    ).values_list("pk", flat=True)[:limit]:
        if phase_resolve_due(phase_id=phase_id, clock=clock) is not None:
            report.resolved.append(phase_id)
    from .review import publish_due

    report.published = publish_due(clock=clock, limit=limit)
    return report


# -- master actions -------------------------------------------------------------------------------------


def _open_phase_locked(game: Game) -> Phase:
    phase = Phase.objects.select_for_update().filter(game_id=game.pk, status=Phase.Status.OPEN).first()
    if phase is None:
        raise ServiceError(_("The game has no open phase."), code="state")
    return phase


def _check_meant_phase(game: Game, phase_id: int | None) -> None:
    """Refuse a master action aimed at phase ``phase_id`` (``None``: no check) unless that phase is still open."""
    if phase_id is None:
        return
    meant = Phase.objects.filter(game_id=game.pk, pk=phase_id).only("pk", "status").first()
    if meant is None:
        raise ServiceError({"phase": [_("This game has no such phase.")]})
    if meant.status == Phase.Status.RESOLVED:
        raise ServiceError(_("This phase is already resolved."), code="state")
    if meant.status != Phase.Status.OPEN:
        raise ServiceError(_("The phase is already being resolved."), code="state")


def phase_extend(*, game: Game, actor, minutes: int, reason: str = "", phase_id: int | None = None,
                 clock: Clock = timezone.now) -> Phase:
    """Move the open phase's deadline ``minutes`` later (master only), logged publicly and in the audit log.

    The total extension of one phase is capped at ``GM_MAX_EXTENSION`` seconds. ``phase_id``, when given, must be
    the open phase (a request retried after that phase resolved is refused: "This phase is already resolved.").
    Raises :class:`ServiceError`: ``forbidden`` (not the master) before anything else, then a non-positive amount,
    a cap overrun or a phase that is no longer open.
    """
    _require_master(game, actor)
    if not isinstance(minutes, int) or minutes <= 0:
        raise ServiceError({"minutes": [_("Extend by a whole positive number of minutes.")]})
    with transaction.atomic():
        phase = _open_phase_locked(game)
        game = Game.objects.select_for_update().get(pk=game.pk)
        _require_master(game, actor)
        if phase_id is not None and phase.pk != phase_id:
            _check_meant_phase(game, phase_id)
        now = clock()
        if phase.deadline <= now and game.paused_at is None:
            raise ServiceError(_("The deadline has already passed; the phase is being resolved."), code="late")
        new_deadline = phase.deadline + timedelta(minutes=minutes)
        cap = settings.GM_MAX_EXTENSION
        used = (phase.deadline - phase.base_deadline).total_seconds()
        if used + minutes * 60 > cap:
            raise ServiceError({"minutes": [
                _("A phase may be extended by at most %(cap)s min in all; %(left)s min are left.")
                % {"cap": int(cap // 60), "left": int(max(0, cap - used) // 60)}
            ]})
        phase.deadline = new_deadline
        phase.overdue_at = None
        phase.save(update_fields=["deadline", "overdue_at"])
        LogEntry.objects.create(
            game=game, phase=phase, visibility="public", kind="core.deadline_extended",
            data={"minutes": minutes, "deadline": new_deadline.isoformat()}, created_at=now,
        )
        _audit(game=game, actor=actor, action="extend", reason=reason, phase=phase,
               data={"minutes": minutes, "deadline": new_deadline.isoformat()}, now=now)
        if game.paused_at is None:
            schedule_deadline(phase, now=now)
        return phase


def game_pause(*, game: Game, actor, reason: str = "", clock: Clock = timezone.now) -> Game:
    """Pause a running game (master only): deadlines stop; orders stay open. Logged publicly and audited."""
    with transaction.atomic():
        phase = Phase.objects.select_for_update().filter(game_id=game.pk, status=Phase.Status.OPEN).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        _require_master(game, actor)
        if game.status not in (Game.Status.RUNNING, Game.Status.SETUP) or phase is None:
            raise ServiceError(_("Only a running game can be paused."), code="state")
        if game.paused_at is not None:
            raise ServiceError(_("The game is already paused."), code="state")
        now = clock()
        game.paused_at = now
        game.save(update_fields=["paused_at"])
        LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.game_paused", created_at=now)
        _audit(game=game, actor=actor, action="pause", reason=reason, phase=phase, now=now)
        return game


def game_resume(*, game: Game, actor, reason: str = "", clock: Clock = timezone.now) -> Game:
    """Resume a paused game (master only): the open phase's deadline moves by the time spent paused."""
    with transaction.atomic():
        phase = Phase.objects.select_for_update().filter(game_id=game.pk, status=Phase.Status.OPEN).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        _require_master(game, actor)
        if game.paused_at is None:
            raise ServiceError(_("The game is not paused."), code="state")
        now = clock()
        paused_for = now - game.paused_at
        game.paused_at = None
        game.save(update_fields=["paused_at"])
        data: dict[str, Any] = {"paused_seconds": round(paused_for.total_seconds())}
        if phase is not None:
            phase.deadline += paused_for
            phase.base_deadline += paused_for
            phase.overdue_at = None
            phase.save(update_fields=["deadline", "base_deadline", "overdue_at"])
            data["deadline"] = phase.deadline.isoformat()
            schedule_deadline(phase, now=now)
        LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.game_resumed", data=data,
                                created_at=now)
        _audit(game=game, actor=actor, action="resume", reason=reason, phase=phase, data=data, now=now)
        return game


def phase_resolve_now(*, game: Game, actor, reason: str = "", phase_id: int | None = None,
                      clock: Clock = timezone.now) -> Phase:
    """End the open phase before its deadline and resolve it at once (master only), logged and audited.

    ``phase_id`` names the phase the master means (clients that may retry should send it): if that phase is no
    longer open the call is refused with "This phase is already resolved." (code ``state``) instead of resolving
    the next one, so a repeated request acts once. Raises :class:`ServiceError`: ``forbidden`` (not the master),
    ``state`` (no open phase, paused, already resolved or being resolved), field error ``phase`` (not a phase of
    this game).
    """
    _require_master(game, actor)
    _check_meant_phase(game, phase_id)
    phase = Phase.objects.filter(game_id=game.pk, status=Phase.Status.OPEN).first()
    if phase is None:
        raise ServiceError(_("The game has no open phase."), code="state")
    if game.paused_at is not None:
        raise ServiceError(_("Resume the game first."), code="state")
    token = phase_claim(phase_id=phase.pk, clock=clock, early=True)
    if token is None:
        raise ServiceError(_("The phase is already being resolved."), code="state")
    now = clock()
    with transaction.atomic():
        LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.resolved_now", created_at=now)
        _audit(game=game, actor=actor, action="resolve_now", reason=reason, phase=phase, now=now)
    resolved = phase_resolve(phase_id=phase.pk, token=token, clock=clock)
    if resolved is None:  # pragma: no cover - only if reclaimed within the same call
        raise ServiceError(_("The phase is already being resolved."), code="state")
    return resolved
