"""The master's interventions from his console (game-agnostic; the module decides what a seat edit or a death means
through its ``master_*`` hooks), and the what-if preview.

Every intervention is a keyword-only, atomic service: it requires the game's master and a reason, locks the
game's unresolved phase row (if any) first, then the game row, then the seat row — the services' one lock order —
changes what it must, and writes an :class:`~gm.core.models.AuditEntry` with the reason. Bad input raises
:class:`~gm.core.services.ServiceError` before anything is written.

* :func:`seat_edit` — the seat's containers and flags (the module's ``master_seat_edit``).
* :func:`seat_set_alive` — kill or revive, announced as the module's rules would (``master_set_alive``).
* :func:`seat_replace_player` — another user takes the seat. Everything the game keeps per seat (role, cards, orders,
  results, private messages, rooms) follows the seat by itself; what apps keep per user is moved by the receivers of
  :data:`gm.core.signals.seat_replaced` (the inbox, forum Mafia's signup). The old user becomes a spectator.
* :func:`phase_preview` — resolve the open phase on the current orders without writing anything.

Extend, pause, resume and "resolve now" are :mod:`gm.core.services`' own; the console's forms and API require their
reason too.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import services, signals
from .engine import PhaseInfo, Resolution, RuleViolation
from .models import Game, LogEntry, Phase, Seat
from .services import Clock, ServiceError, graveyard, seat_info
from .services.replacements import tenure_handover


def _reason(reason: Any) -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise ServiceError({"reason": [_("Give a reason; it goes into the audit log.")]})
    if len(text) > 500:
        raise ServiceError({"reason": [_("A reason may have at most 500 characters.")]})
    return text


def _locked(game: Game, actor, seat_id: Any, *, running: bool = True) -> tuple[Phase | None, Game, Seat]:
    """Lock the unresolved phase (if any), the game and the seat, in that order; check the master and the game."""
    phase = Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first()
    game = Game.objects.select_for_update().get(pk=game.pk)
    services.require_master(game, actor)
    if isinstance(seat_id, bool) or not isinstance(seat_id, int):
        raise ServiceError({"seat": [_("Choose a seat.")]})
    seat = Seat.objects.select_for_update().filter(game=game, pk=seat_id).first()
    if seat is None:
        raise ServiceError({"seat": [_("This game has no such seat.")]}, code="not_found")
    if game.is_over:
        raise ServiceError(_("The game is over; nothing can be changed any more."), code="state")
    if running and game.status not in (Game.Status.RUNNING, Game.Status.SETUP):
        raise ServiceError(_("Seats can be changed like this only once the game has started."), code="state")
    if running and game.phases.filter(held_at__isnull=False, published_at__isnull=True).exists():
        raise ServiceError(_("A result is waiting for your review: publish it first, or it would overwrite this "
                             "change."), code="state")
    return phase, game, seat


def _others(game: Game, seat: Seat) -> list:
    return [seat_info(s) if s.pk != seat.pk else seat_info(seat) for s in game.seats.order_by("position")]


def _save_seat(seat: Seat, fields: list[str]) -> None:
    from django.db.models import F

    seat.version = F("version") + 1
    seat.save(update_fields=[*fields, "version"])
    seat.refresh_from_db(fields=["version"])


def seat_fields(*, game: Game, seat: Seat) -> dict:
    """What the master may edit of ``seat`` now (the module's ``master_seat_fields``; empty: nothing)."""
    return game.game_module.master_seat_fields(state=game.state, seat=seat_info(seat))


def seat_edit(*, game: Game, actor, seat_id: int, changes: Mapping[str, Any], reason: str,
              version: int | None = None, clock: Clock = timezone.now) -> Seat:
    """Edit a seat's containers and flags (master only; audited as ``seat_edit`` with the values before and after).

    ``changes`` maps keys of the module's ``master_seat_fields`` to new values (forum Mafia: ``hand`` in order,
    ``sleeve``, ``deck`` top first, ``discard`` as card slugs; ``jail`` phases; ``handcuffs`` night number or
    ``None``). The module validates it (unknown card slugs refused; conservation not required). ``version``: the
    seat's version the master's form was drawn from (``None``: not checked). When the edit changes what everyone
    may see of the seat (the module's ``public_seat_data``, e.g. forum Mafia's Hand count, FM-5.1), a public
    ``core.seat_public_changed`` line announces the new public facts — never the secret ones. Raises
    :class:`ServiceError`: ``forbidden`` (not the master), ``invalid`` (no reason; each bad key, keyed
    ``changes.<key>``), ``not_found`` (no such seat), ``conflict`` (the seat changed since ``version``), ``state``
    (game not running or over, a result held for review). Nothing changes on error. Returns the seat."""
    services.require_master(game, actor)
    reason = _reason(reason)
    if not isinstance(changes, Mapping):
        raise ServiceError({"changes": [_("Give the changes as a JSON object.")]})
    with transaction.atomic():
        phase, game, seat = _locked(game, actor, seat_id)
        if version is not None and version != seat.version:
            raise ServiceError(_("%(player)s's seat changed since you opened the form (a resolution or another "
                                 "edit): here it is as it is now; make your edit again.")
                               % {"player": seat.display_name}, code="conflict")
        module = game.game_module
        before = module.master_seat_fields(state=game.state, seat=seat_info(seat))
        public_before = module.public_seat_data(seat.data or {})
        try:
            data, state = module.master_seat_edit(state=game.state, seat=seat_info(seat), seats=_others(game, seat),
                                                  changes=changes)
        except RuleViolation as exc:
            errors = services.violation_errors(exc)
            raise ServiceError({("changes" if k == "__all__" else f"changes.{k}"): v for k, v in errors.items()}
                               ) from None
        now = clock()
        seat.data = data
        _save_seat(seat, ["data"])
        game.state = state
        game.save(update_fields=["state"])
        after = module.master_seat_fields(state=game.state, seat=seat_info(seat))
        public_after = module.public_seat_data(seat.data or {})
        changed = sorted(k for k in set(public_before) | set(public_after)
                         if public_before.get(k) != public_after.get(k))
        if changed:  # what everyone could see of the seat changed: say so, with the new public facts only
            LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.seat_public_changed",
                                    data={"player": seat.display_name,
                                          "public": {k: public_after.get(k) for k in changed}}, created_at=now)
        services.audit_write(game=game, actor=actor, action="seat_edit", reason=reason, phase=phase, now=now, data={
            "seat": seat.pk, "player": seat.display_name,
            "before": {k: before.get(k) for k in changes}, "after": {k: after.get(k) for k in changes}})
        return seat


def seat_set_alive(*, game: Game, actor, seat_id: int, alive: bool, reason: str,
                   clock: Clock = timezone.now) -> Seat:
    """Kill (``alive=False``) or revive a seat (master only; audited as ``kill`` / ``revive``). The module says how
    the game announces it, what its state remembers and whether the game is won by it (forum Mafia: the public death
    line of FM-6.2, the death order, victory checked at once as FM-10.6 does after an instant ability); the lines go
    into the log of the open phase, and a won game is finished (``services.game_finish``). Raises
    :class:`ServiceError` ``forbidden``, ``invalid`` (no reason, ``alive`` not a boolean), ``not_found``, ``state``
    (already dead / alive, game not running, result held). Returns the seat."""
    services.require_master(game, actor)
    reason = _reason(reason)
    if not isinstance(alive, bool):
        raise ServiceError({"alive": [_("“alive” is true or false.")]})
    with transaction.atomic():
        phase, game, seat = _locked(game, actor, seat_id)
        if seat.alive == alive:
            raise ServiceError(_("%(player)s is already alive.") % {"player": seat.display_name} if alive
                               else _("%(player)s is already dead.") % {"player": seat.display_name}, code="state")
        info = (PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
                if phase is not None else None)
        state, events, outcome = game.game_module.master_set_alive(
            state=game.state, phase=info, seat=seat_info(seat), seats=_others(game, seat), alive=alive)
        now = clock()
        seat.alive = alive
        _save_seat(seat, ["alive"])
        graveyard.bury(game, [seat])  # the graveyard option (issue 23)
        game.state = state
        entries = [services.log_entry(game, phase, e, now) for e in events]
        if outcome is not None and phase is not None:  # won by it: finished as a resolution finishes a game
            entries.append(services.game_finish(game=game, outcome=outcome, phase=phase, now=now))
        game.save(update_fields=["state", "status", "finished_at", "outcome"])
        LogEntry.objects.bulk_create(entries)
        told = [e.pk for e in entries if e.visibility == LogEntry.Visibility.SEAT]
        if told:  # the dead player's own line reaches his inbox (nobody else's) once this commits
            transaction.on_commit(lambda: signals.seat_told.send(sender=LogEntry, entry_ids=told))
        if outcome is not None and phase is not None:
            from .tasks import phase_notify_task

            phase_notify_task.delay_on_commit(phase.pk)
        if not alive:  # the reliability record counts it (gm.community)
            signals.seat_modkilled.send(sender=Seat, game=game, seat=seat, now=now)
        services.audit_write(game=game, actor=actor, action="revive" if alive else "kill", reason=reason, phase=phase,
                        now=now, data={"seat": seat.pk, "player": seat.display_name})
        return seat


def seat_replace_player(*, game: Game, actor, seat_id: int, user: Any, reason: str,
                        clock: Clock = timezone.now) -> Seat:
    """Give a seat to another player (master only; audited as ``replace`` with both users; announced publicly).

    ``user`` is a user or a username. He must be an active account without a seat in this game and not its master.
    Since everything secret is read by seat, he sees at once the role, cards, orders, results, private messages and
    rooms of the seat; the receivers of :data:`gm.core.signals.seat_replaced` move what is kept per user (inbox
    notifications, forum Mafia's signup). The old user loses access (he is a spectator now). Raises
    :class:`ServiceError` ``forbidden``, ``invalid`` (``reason``, ``user``), ``not_found``, ``state``."""
    services.require_master(game, actor)
    reason = _reason(reason)
    User = get_user_model()
    if isinstance(user, str):
        user = User.objects.filter(**{User.USERNAME_FIELD: user.strip()}).first() if user.strip() else None
    if user is None or not isinstance(user, User) or not user.is_active:
        raise ServiceError({"user": [_("No active user has this name.")]})
    with transaction.atomic():
        phase, game, seat = _locked(game, actor, seat_id, running=False)
        if user.pk == game.master_id:
            raise ServiceError({"user": [_("The master can't take a seat in his own game.")]})
        if game.co_masters.filter(user=user).exists():  # a co-master sees every secret (issue 24)
            raise ServiceError({"user": [_("A co-master can't take a seat in the game.")]})
        if user.pk == seat.user_id:
            raise ServiceError({"user": [_("This user already plays this seat.")]})
        if Seat.objects.filter(game=game, user=user).exists():
            raise ServiceError({"user": [_("This user already has a seat in this game.")]})
        old = seat.user
        now = clock()
        seat.user = user
        seat.save(update_fields=["user"])
        # Each player's own time on the seat: a replacement never inherits his predecessor's record.
        tenure_handover(game=game, seat=seat, old=old, new=user, now=now)
        signals.seat_replaced.send(sender=Seat, seat=seat, old_user=old, new_user=user)
        LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.seat_replaced",
                                data={"player": seat.display_name}, created_at=now)
        services.audit_write(game=game, actor=actor, action="replace", reason=reason, phase=phase, now=now, data={
            "seat": seat.pk, "player": seat.display_name, "old_user": old.get_username() if old else None,
            "new_user": user.get_username()})
        return seat


@dataclass(frozen=True)
class Preview:
    """A what-if resolution of ``phase``: the engine's ``result`` on the ``orders`` (seat id → payload) in force now."""

    phase: Phase
    orders: dict[int, Any]
    result: Resolution


def phase_preview(*, game: Game, actor) -> Preview:
    """Resolve the open phase on the current orders and seats without committing anything (master only).

    The same engine, snapshot and RNG seed as the deadline resolution (:func:`gm.core.services.run_engine` on
    :func:`~gm.core.services.phase_snapshot`), so unless orders or seats change it is exactly what the deadline
    will give. Only reads: no lock, no write, no claim. Raises :class:`ServiceError` ``forbidden`` or ``state`` (no
    open phase)."""
    services.require_master(game, actor)
    phase = Phase.objects.filter(game_id=game.pk, status=Phase.Status.OPEN).first()
    if phase is None:
        raise ServiceError(_("The game has no open phase to preview."), code="state")
    game = Game.objects.get(pk=game.pk)
    phase.game = game
    seats = list(game.seats.order_by("position"))
    orders = services.latest_orders(phase, seats)
    result = services.run_engine(game=game, phase=phase, snapshot=services.phase_snapshot(game, seats), orders=orders)
    return Preview(phase=phase, orders=orders, result=result)


#: The most dice one phase may have fixed in advance.
MAX_FIXED_DICE = 200


def phase_dice_fix(*, game: Game, actor, dice: Any, reason: str, clock: Clock = timezone.now) -> Phase:
    """Fix the next die rolls of the open phase (master only; audited as ``dice_fix``): ``dice`` is a list of whole
    numbers 1–100 (an empty list clears them), kept in the phase's ``state`` as ``dice`` and handed to the engine at
    resolution through :func:`gm.core.engine.phase_random`, so the phase's stored input replays with the same rolls.
    Raises :class:`ServiceError` ``forbidden``, ``invalid`` (no reason, not a list of die faces, too many),
    ``state`` (no open phase, the game not running). Returns the phase."""
    services.require_master(game, actor)
    reason = _reason(reason)
    if (not isinstance(dice, list) or len(dice) > MAX_FIXED_DICE
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 100 for d in dice)):
        raise ServiceError({"dice": [_("Give the dice as a list of whole numbers from 1 to 100 (at most %(n)s).")
                                     % {"n": MAX_FIXED_DICE}]})
    with transaction.atomic():
        phase = Phase.objects.select_for_update().filter(game_id=game.pk, status=Phase.Status.OPEN).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        if phase is None or game.is_over or game.status not in (Game.Status.RUNNING, Game.Status.SETUP):
            raise ServiceError(_("Dice can be fixed only while a phase is open."), code="state")
        now = clock()
        phase.state = {**(phase.state or {}), "dice": list(dice)}
        phase.save(update_fields=["state"])
        services.audit_write(game=game, actor=actor, action="dice_fix", reason=reason, phase=phase, now=now,
                             data={"dice": list(dice)})
        return phase
