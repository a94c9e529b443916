"""Early ends (issue 23, item 5): a phase that ends before its deadline, per game option (both off by default).

* ``hammer`` (``GameLife.hammer``; only for a module with :attr:`~gm.core.engine.GameModule.has_hammer`): after
  every stored order the module's :meth:`~gm.core.engine.GameModule.hammer` is asked whether a candidate now has
  more than half of the living voting strength (forum Mafia: FM-7.H1, with the Veche's weights). If so the deadline
  moves to now, so later votes are refused as late, a public ``core.hammer`` line names the candidate and the voter
  whose vote did it, and the phase resolves once through the deadline task or the next sweep.
* ``all_ready`` (``GameLife.all_ready``): each living player who may act in the open phase can press "done"
  (:func:`ready_set`; pressing again takes it back). Once every one of them has, the deadline moves to now, a
  public ``core.all_ready`` line says so, and the phase resolves the same way.

Both run under the phase row lock (an order's own transaction, or :func:`ready_set`'s) and never in a paused game or
after the deadline; :func:`early_end_options_set` is the master's service.
"""
from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import PhaseInfo
from ..models import Game, GameLife, LogEntry, Phase, ReadyMark, Seat, life_of
from .base import Clock, ServiceError, audit_write, latest_orders, require_master, schedule_deadline, seat_info
from .orders import _check_phase_accepts


def _close_now(phase: Phase, now: datetime, kind: str, data: dict) -> None:
    Phase.objects.filter(pk=phase.pk, status=Phase.Status.OPEN).update(deadline=now)
    phase.deadline = now
    LogEntry.objects.create(game_id=phase.game_id, phase=phase, visibility="public", kind=kind, data=data,
                            created_at=now)
    schedule_deadline(phase, now=now)


def hammer_check(*, phase: Phase, seats: list[Seat], voter: Seat, now: datetime) -> bool:
    """After ``voter``'s order was stored in ``phase`` (locked): end the phase now if the game's ``hammer`` option is
    on and the module says a candidate has passed half of the living voting strength. Returns whether it did."""
    game = phase.game
    module = game.game_module
    if not module.has_hammer or game.paused_at is not None or phase.deadline <= now or not life_of(game).hammer:
        return False
    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
    candidate = module.hammer(state=game.state, phase=info, seats=[seat_info(s) for s in seats],
                              orders=latest_orders(phase, seats))
    if candidate is None:
        return False
    names = {s.pk: s.display_name for s in seats}
    _close_now(phase, now, "core.hammer", {"player": names.get(candidate, ""), "seat": candidate,
                                           "voter": voter.display_name, "voter_seat": voter.pk,
                                           "at": now.isoformat()})
    return True


def ready_seats(phase: Phase) -> list[Seat]:
    """The seats whose "done" the phase waits for: living, with a player, among its actors (every living seat when
    it names none)."""
    seats = Seat.objects.filter(game_id=phase.game_id, alive=True, user__isnull=False)
    if phase.actors is not None:
        seats = seats.filter(pk__in=phase.actors)
    return list(seats.order_by("position"))


def ready_count(phase: Phase) -> tuple[int, int]:
    """``(pressed, waited for)`` of the open ``phase``'s "done" marks."""
    waited = {s.pk for s in ready_seats(phase)}
    pressed = set(ReadyMark.objects.filter(phase=phase, seat_id__in=waited).values_list("seat_id", flat=True))
    return len(pressed), len(waited)


def ready_set(*, phase: Phase, user, done: bool, clock: Clock = timezone.now) -> bool:
    """``user`` presses "done" (``done=True``) or takes it back in ``phase`` (the phase the form or API body named)
    of a game with ``all_ready`` on. Once every seat of :func:`ready_seats` is done, the phase's deadline moves to
    now (public ``core.all_ready``) and it resolves through the deadline task or the next sweep. Returns whether the
    phase closed.

    Raises :class:`ServiceError`: ``not_allowed`` (the option is off, or his seat does not act in this phase: dead,
    not an actor), ``forbidden`` (no seat), ``stale``/``late`` (a phase that has ended or is past its deadline), as
    for an order. Nothing changes on error."""
    with transaction.atomic():
        phase = Phase.objects.select_for_update(of=("self",)).select_related("game").get(pk=phase.pk)
        now = clock()
        game = phase.game
        seat = Seat.objects.filter(game=game, user=user).first() if user is not None and user.is_authenticated \
            else None
        if seat is None:
            raise ServiceError(_("You have no seat in this game."), code="forbidden")
        if not life_of(game).all_ready:
            raise ServiceError(_("This game has no “done” button."), code="not_allowed")
        _check_phase_accepts(phase, seat, now)
        waited = ready_seats(phase)
        if seat.pk not in {s.pk for s in waited}:
            raise ServiceError(_("You do not act in this phase."), code="not_allowed")
        if done:
            ReadyMark.objects.get_or_create(phase=phase, seat=seat, defaults={"created_at": now})
        else:
            ReadyMark.objects.filter(phase=phase, seat=seat).delete()
            return False
        pressed = set(ReadyMark.objects.filter(phase=phase).values_list("seat_id", flat=True))
        if game.paused_at is not None or not {s.pk for s in waited} <= pressed:
            return False
        _close_now(phase, now, "core.all_ready", {})
        return True


def early_end_options_set(*, game: Game, actor, hammer: bool, all_ready: bool, reason: str = "",
                          clock: Clock = timezone.now) -> GameLife:
    """Turn the ``hammer`` and ``all_ready`` options on or off (master only; audited as ``early_ends``). Raises
    :class:`ServiceError` ``forbidden`` (not the master), ``state`` (the game is over), field error ``hammer`` for a
    module without a hammer (its rules define no majority)."""
    require_master(game, actor)
    if hammer and not game.game_module.has_hammer:
        raise ServiceError({"hammer": [_("This game's rules define no hammer.")]})
    with transaction.atomic():
        Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.is_over:
            raise ServiceError(_("The game is over."), code="state")
        life, _created = GameLife.objects.get_or_create(game=game)
        life.hammer, life.all_ready = bool(hammer), bool(all_ready)
        life.save(update_fields=["hammer", "all_ready"])
        audit_write(game=game, actor=actor, action="early_ends", reason=reason,
                    data={"hammer": life.hammer, "all_ready": life.all_ready}, now=clock())
    game._life_cache = life
    return life

