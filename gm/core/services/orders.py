"""DOC"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import IntegerField, OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from ..engine import GameModule, PhaseInfo, RuleViolation
from ..models import Game, LogEntry, Order, Phase, Seat
from ..prepared import PreparedQuery
from .base import Clock, ServiceError, latest_orders, schedule_deadline, seat_info, violation_refusal


def _require_login(user) -> None:
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in to give orders."), code="forbidden")


def _no_seat() -> ServiceError:
    return ServiceError(_("You have no seat in this game."), code="forbidden")


def _seat_for_order(phase: Phase, user) -> Seat:
    _require_login(user)
    seat = Seat.objects.filter(game_id=phase.game_id, user=user).first()
    if seat is None:
        raise _no_seat()
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


def _phase_id_of(phase_id: Any) -> int:
    """A phase id as a form or an API body gives it (an int or a decimal string) as an int; 0 for one no phase has
    (out of range). Raises :class:`ServiceError` ``invalid`` keyed ``phase`` when it is missing or not a whole
    number."""
    if isinstance(phase_id, str) and phase_id.strip().isascii() and phase_id.strip().isdigit():
        phase_id = int(phase_id.strip()) if len(phase_id.strip()) < 19 else 0
    if phase_id is None or phase_id == "":
        raise ServiceError({"phase": [_("Name the phase this is for (its id); reload the page to get a form "
                                        "for the open phase.")]})
    if not isinstance(phase_id, int) or isinstance(phase_id, bool):
        raise ServiceError({"phase": [_("The phase must be given by its id (a whole number).")]})
    return phase_id if 0 < phase_id < 2**63 else 0


def _no_such_phase() -> ServiceError:
    return ServiceError({"phase": [_("This game has no phase with that id.")]})


def phase_named(*, game: Game, phase_id: Any, current: bool = True, subject: str = "order") -> Phase:
    """The phase of ``game`` that a form or an API body names (``phase_id``: its id, an int or a decimal string).
    Every order, vote and order-like write names the phase it was made for, so input made for a phase that has
    since ended is refused instead of landing in the next one.

    Raises :class:`ServiceError` ``invalid`` keyed ``phase`` when the id is missing, malformed or not one of
    ``game``'s phases; with ``current`` (the default) also :func:`stale_refusal` (for ``subject``) when that phase is
    no longer open.
    This is a read without a lock, for a clear early answer (before a form is rebuilt for the phase); the write
    services check again under the phase row lock (:func:`order_submit`, :func:`phase_accepting_for_update`)."""
    phase_id = _phase_id_of(phase_id)
    phase = _PHASE_NAMED.first(game_id=game.pk, phase_id=phase_id) if phase_id > 0 else None
    if phase is None:
        raise _no_such_phase()
    phase.game = game  # the caller's row: not read and decoded again
    if current and phase.status != Phase.Status.OPEN:
        raise stale_refusal(phase, subject=subject)
    return phase


def _check_base_version(latest: int, base_version: int | None) -> None:
    """Refuse (``conflict``) an edit of order version ``base_version`` (0: no order yet) when the seat's latest
    version in the phase is ``latest`` (0: none) and differs: the order was changed elsewhere since the form was
    loaded. ``None``: no check."""
    if base_version is None:
        return
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


def _flood_check(game: Game, user, action: str, now: datetime) -> None:
    from ..flood import check_seat_rate

    check_seat_rate(game=game, user=user, action=action, now=now)


def order_submit(*, phase: Phase | None = None, user, payload: Any, base_version: int | None = None,
                 clock: Clock = timezone.now, game: Game | None = None, phase_id: Any = None) -> Order:
    """Store a new version of ``user``'s order for ``phase`` after the module validates it (FM-5.6).

    ``phase`` is the phase the order was made for — the one the form or API body named (:func:`phase_named`), never
    "whatever is open now": an order for a phase that has ended is refused with code ``stale`` (409, naming both
    phases, :func:`stale_refusal`), so a form left open over a resolution saves nothing. Instead of ``phase``, a
    caller may give ``game`` and the ``phase_id`` its input named (as :func:`phase_named` takes it): the phase is
    then read once, under its lock, with the same refusals in the same order (the id's, then ``stale``) — the
    API's path, one read fewer for every order of a deadline's crowd (issue 25 goal 5). ``payload`` is the module's
    order shape (a JSON object). ``base_version``: the order version the form edits (0 for none), checked against
    the latest one (``conflict`` when it changed since); ``None`` skips that check.

    Raises :class:`ServiceError` with code ``invalid`` keyed ``phase`` for a missing, malformed or foreign phase
    id, ``stale`` (see above), ``late`` after the deadline, ``not_allowed`` for a dead or out-of-turn seat,
    ``conflict`` (see ``base_version``), ``invalid`` (field errors) for an order the module refuses;
    ``TypeError`` when neither ``phase`` nor ``game`` with ``phase_id`` is given. Nothing is stored on error. When
    the module's :meth:`~gm.core.engine.GameModule.phase_complete` says everyone the phase waits for has now
    answered, the phase's deadline moves to now (logged publicly) and it resolves once through the deadline
    machinery (BW-24).
    """
    if phase is None:
        if game is None:
            raise TypeError("order_submit needs phase, or game and phase_id")
        named_id = _phase_id_of(phase_id)
        if not named_id:
            raise _no_such_phase()
    else:
        game, named_id = phase.game, None
        _check_input(payload, user)
    try:
        return _order_submit_locked(phase.pk if phase is not None else named_id, game, user, payload,
                                    base_version, clock, named=named_id is not None)
    except _ModuleRefusal as refused:
        # Rolled back; the module may now write what its rules make a refusal cost (GameModule.order_refused).
        game.game_module.order_refused(game=game, user=user, seat_id=refused.seat_id, payload=payload,
                                       violation=refused.violation, clock=clock)
        raise violation_refusal(refused.violation) from None


def _check_input(payload: Any, user) -> None:
    """The refusals of an order that come after those of the phase it names: a payload that is not a JSON object,
    a visitor who is not logged in."""
    if not isinstance(payload, Mapping):
        raise ServiceError({"payload": [_("An order must be a JSON object.")]})
    _require_login(user)


class _ModuleRefusal(Exception):
    """A module's :meth:`~gm.core.engine.GameModule.refuse_order` refusal of seat ``seat_id``'s order, carried out
    of the order's transaction."""

    def __init__(self, violation: RuleViolation, seat_id: int):
        super().__init__(violation)
        self.violation = violation
        self.seat_id = seat_id


def _seats_with_versions_shape(game_id: int, phase_id: int) -> QuerySet[Seat]:
    latest = Order.objects.filter(phase_id=phase_id, seat_id=OuterRef("pk")).order_by("-version").values("version")[:1]
    return (Seat.objects.filter(game_id=game_id)
            .annotate(gm_order_version=Subquery(latest, output_field=IntegerField())).order_by("position"))


def _locked_phase_shape(phase_id: int) -> QuerySet[Phase]:
    # With the game's long-game options: the hammer check reads them (not one more query).
    return Phase.objects.select_for_update(of=("self",)).select_related("game", "game__life").filter(pk=phase_id)


def _phase_named_shape(game_id: int, phase_id: int) -> QuerySet[Phase]:
    return Phase.objects.filter(game_id=game_id, pk=phase_id)


# The reads of every order, compiled to SQL once per process (gm.core.prepared): compiling them cost as much as
# PostgreSQL's answers (issue 25 goal 5).
_SEATS_WITH_VERSIONS = PreparedQuery(_seats_with_versions_shape, "game_id", "phase_id")
_LOCKED_PHASE = PreparedQuery(_locked_phase_shape, "phase_id")
_PHASE_NAMED = PreparedQuery(_phase_named_shape, "game_id", "phase_id")


def _seats_with_versions(phase: Phase) -> list[Seat]:
    """``phase``'s game's seats in ring order, each with ``gm_order_version``: its latest order version in
    ``phase`` (``None``: no order yet) — one query."""
    return _SEATS_WITH_VERSIONS(game_id=phase.game_id, phase_id=phase.pk)


def _order_submit_locked(phase_id: int, game: Game, user, payload: Mapping, base_version: int | None,
                         clock: Clock, *, named: bool) -> Order:
    # Five statements in all (lock, seats with their order versions, insert, and BEGIN/COMMIT): an order is what a
    # crowd sends in a deadline's last minutes (issue 25 goal 5). ``named``: the phase was named by an id not read
    # before, so its own refusals (foreign, ended) come first, as phase_named gives them.
    with transaction.atomic():
        phase = _LOCKED_PHASE.first(phase_id=phase_id)
        if phase is None or phase.game_id != game.pk:
            raise _no_such_phase()
        if named:
            if phase.status != Phase.Status.OPEN:
                raise stale_refusal(phase)
            _check_input(payload, user)
        now = clock()
        # Every seat, read under the phase lock: the validation needs them all, and the caller's is among them.
        rows = _seats_with_versions(phase)
        seat = next((s for s in rows if s.user_id == user.pk), None)
        if seat is None:
            raise _no_seat()
        module = phase.game.game_module
        info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
        try:
            # The module's own refusals that come before the core's checks (BW-26's order of checks).
            module.refuse_order(state=phase.game.state, phase=info, seat=seat_info(seat), payload=payload)
        except RuleViolation as exc:
            raise _ModuleRefusal(exc, seat.pk) from None
        _check_phase_accepts(phase, seat, now)
        # Counted once the phase accepts it: a form left open over a resolution hears "ended", not "slow down".
        _flood_check(phase.game, user, "order", now)
        latest = seat.gm_order_version or 0
        _check_base_version(latest, base_version)
        try:
            seats = [seat_info(s) for s in rows]
            clean = module.validate_order(state=phase.game.state, phase=info, seat=seat_info(seat), payload=payload,
                                          seats=seats)
        except RuleViolation as exc:
            raise violation_refusal(exc) from None
        order = Order.objects.create(
            phase=phase, seat=seat, version=latest + 1, payload=clean, submitted_by=user,
            created_at=now,
        )
        if not _close_if_complete(phase, rows, module, info, now):
            from .early_ends import hammer_check  # the hammer option (issue 23); it builds on this module

            hammer_check(phase=phase, seats=rows, voter=seat, now=now)
        return order


def _close_if_complete(phase: Phase, seats: list[Seat], module: GameModule, info: PhaseInfo, now: datetime) -> bool:
    """Bring ``phase``'s deadline forward to ``now`` when the module says everyone it waits for has answered
    (:meth:`GameModule.phase_complete`); it then resolves once through the deadline task and the sweep, like any
    due phase. Called under the phase row lock, after the order is stored. Returns whether it closed the phase."""
    if type(module).phase_complete is GameModule.phase_complete or phase.game.paused_at is not None:
        return False
    if phase.deadline <= now or not module.phase_complete(
        state=phase.game.state, phase=info, orders=latest_orders(phase, seats)
    ):
        return False
    Phase.objects.filter(pk=phase.pk, status=Phase.Status.OPEN).update(deadline=now)
    phase.deadline = now
    LogEntry.objects.create(game_id=phase.game_id, phase=phase, visibility="public", kind="core.closed_early",
                            created_at=now)
    schedule_deadline(phase, now=now)
    return True


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
        current = Order.objects.filter(phase=phase, seat=seat).order_by("-version").first()
        _check_base_version(current.version if current is not None else 0, base_version)
        if current is None or current.payload is None:
            raise ServiceError(_("You have no order to withdraw."), code="not_found")
        return Order.objects.create(
            phase=phase, seat=seat, version=current.version + 1, payload=None, submitted_by=user, created_at=now
        )
