"""The writes of Mafia: Blood Vengeance: a player's night vote, verdict or arbiter's choice (BV-5, BV-15), and his
light-time actions checked action by action and merged into his one light order (BV-14.4a), or a withdrawal; the
master's spell of silence (BV-15.12) and his declaration of the hunters' win (BV-10.1); the silence carried through a
series (BV-15.12); a message in the hunters' room (BV-14.2).

Every function is keyword-only and hands the write to the core's services, which run it in one transaction with the
phase row locked, validate the payload through the engine and store a new order version; a refused order raises
:class:`gm.core.services.ServiceError` and saves nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gm.core import services as core
from gm.core.engine import PhaseInfo
from gm.core.models import Game, GroupMembership, Order, Phase, Seat
from gm.core.services import Clock, ServiceError

from . import engine, selectors
from .models import HuntersPost
from .texts import refusal_text, role_name, thread_closed_text

#: The hunters' group (BV-4.1), whose members share the hunters' room (BV-14.2).
HUNTERS = "faction:hunters"


@dataclass
class ActionsResult:
    """What :func:`submit_actions` did: the stored ``order`` (``None`` when nothing was stored) and the refused
    actions, each ``{"role", "code", "rule", "message"}`` (BV-14.4a)."""

    order: Order | None = None
    refused: list[dict[str, Any]] = field(default_factory=list)


def submit_order(*, game: Game, user, phase_id: Any, payload: dict, base_version: int | None = None) -> Order:
    """Save ``user``'s order ``payload`` (night vote, verdict, arbiter's choice, or a whole light order) for the
    phase ``phase_id`` of ``game``. Raises ``ServiceError`` (the engine's BV-16 reason and rule ID)."""
    return core.order_submit(game=game, phase_id=phase_id, user=user, payload=payload, base_version=base_version)


def withdraw_order(*, game: Game, user, phase_id: Any, base_version: int | None = None) -> Order:
    """Withdraw ``user``'s order for the phase ``phase_id`` of ``game``. Raises ``ServiceError``."""
    phase = core.phase_named(game=game, phase_id=phase_id)
    return core.order_withdraw(phase=phase, user=user, base_version=base_version)


def submit_actions(*, game: Game, user, phase_id: Any, actions: list[dict], clock=None) -> ActionsResult:
    """BV-14.4a: check each of ``actions`` (light actions ``{"role", "target" | "targets", "mode", "abstain"}``)
    on its own; store the accepted ones merged into ``user``'s latest light order (one action per ``role``, the
    newer replacing the older), so a refused action leaves his earlier version of that ``role`` standing. Returns
    the stored order and the refusals (each with its BV-16 code and reason); raises ``ServiceError`` only for what
    the core refuses (no seat, a dead seat, a phase that has ended, the deadline)."""
    phase = core.phase_named(game=game, phase_id=phase_id)
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    if phase.kind != "light":
        raise ServiceError(refusal_text("wrong_phase"), code="invalid")
    game.refresh_from_db(fields=["state"])
    result = ActionsResult()
    accepted: list[dict] = []
    for action in actions:
        try:
            accepted.append(engine.validate_action(game.state, sid=str(seat.pk), action=action))
        except engine.BvError as exc:
            role = action.get("role") if isinstance(action, dict) else None
            result.refused.append({"role": role, "code": exc.code, "rule": exc.rule,
                                   "message": f"{role_name(str(role))}: {refusal_text(exc.code)} [{exc.rule}]"})
    if not accepted:
        return result
    latest = Order.objects.filter(phase=phase, seat=seat).order_by("-version").first()
    merged: dict[str, dict] = {a["role"]: a for a in ((latest.payload or {}).get("actions") or [])} \
        if latest is not None and latest.payload else {}
    for action in accepted:
        merged[action["role"]] = action
    kwargs = {"clock": clock} if clock is not None else {}
    result.order = core.order_submit(phase=phase, user=user, payload={"actions": list(merged.values())}, **kwargs)
    return result


def _master_locked(game: Game, actor, reason: Any) -> tuple[Phase, Game, str]:
    """Inside a transaction: the open phase locked first, then the game; refuses a non-master, a game not running
    and an empty reason (every master action is audited with its reason)."""
    text = reason.strip() if isinstance(reason, str) else ""
    if not text or len(text) > 500:
        raise ServiceError({"reason": [_("Give a reason (at most 500 characters); it goes into the audit log.")]})
    phase = Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first()
    game = Game.objects.select_for_update().get(pk=game.pk)
    core.require_master(game, actor)
    if phase is None or game.status != Game.Status.RUNNING:
        raise ServiceError(_("The game is not running."), code="state")
    return phase, game, text


def enchant(*, game: Game, actor, seat_id: Any, reason: Any, clock: Clock = timezone.now) -> Seat:
    """BV-15.12: the master casts the spell of silence on a player for the rest of the game (master only; audited
    as ``bv_enchant`` with his reason): the player loses his vote and may not post; the public log names him.
    Raises :class:`ServiceError` (``forbidden``, ``state``, ``invalid`` with the rule's reason). Returns the seat."""
    with transaction.atomic():
        phase, game, text = _master_locked(game, actor, reason)
        seat = Seat.objects.select_for_update().filter(game=game, pk=seat_id).first()
        if seat is None:
            raise ServiceError({"seat": [_("Choose a player of this game.")]})
        try:
            state, events = engine.enchant(game.state, seat=core.seat_info(seat))
        except engine.BvError as exc:
            raise ServiceError(core.violation_errors(engine.violation(exc))) from None
        now = clock()
        game.state = state
        game.save(update_fields=["state"])
        seat.data = {**seat.data, "silenced": True}
        seat.save(update_fields=["data"])
        core.log_write([core.log_entry(game, phase, e, now) for e in events])
        core.audit_write(game=game, actor=actor, action="bv_enchant", reason=text, phase=phase, now=now,
                         data={"seat": seat.pk, "player": seat.display_name})
        return seat


def declare_hunters_win(*, game: Game, actor, reason: Any, clock: Clock = timezone.now) -> Game:
    """BV-10.1: the master ends the game by declaring the hunters' win when it is obvious (master only; audited as
    ``bv_hunters_win`` with his reason): the result line and every seat's points (BV-12), the game finished. Raises
    :class:`ServiceError` (``forbidden``, ``state``, ``invalid`` when no hunter lives). Returns the game."""
    with transaction.atomic():
        phase, game, text = _master_locked(game, actor, reason)
        seats = list(Seat.objects.filter(game=game).order_by("position"))
        try:
            state, events, outcome = engine.declare_hunters(game.state, seats=[core.seat_info(s) for s in seats])
        except engine.BvError as exc:
            raise ServiceError(core.violation_errors(engine.violation(exc))) from None
        now = clock()
        game.state = state
        points = state.get("points") or {}
        for seat in seats:
            seat.data = {**seat.data, "won": bool(points.get(str(seat.pk))), "points": int(points.get(str(seat.pk), 0)),
                         "revealed": state["cards"][str(seat.pk)]}
            seat.save(update_fields=["data"])
        entries = [core.log_entry(game, phase, e, now) for e in events]
        entries.append(core.game_finish(game=game, outcome=outcome, phase=phase, now=now))
        game.save(update_fields=["state", "status", "finished_at", "outcome"])
        core.log_write(entries)
        core.audit_write(game=game, actor=actor, action="bv_hunters_win", reason=text, phase=phase, now=now)
        return game


def carry_series_silence(*, game: Game) -> list[Seat]:
    """BV-15.12: at the start of a game of a series, silence the players who were silenced when the series' previous
    game ended (``selectors.series_silenced``, matched by user): the state's ``silenced``, their seats' data, and one
    public line naming them. Runs inside the core's ``game_start`` transaction (its ``game_started`` signal, the game
    row locked, no phase open yet), writing ``game.state`` in place for ``game_start`` to save. Returns the seats
    silenced (none outside a series)."""
    carried = {user_id for user_id, _name in selectors.series_silenced(game)}
    if not carried:
        return []
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    chosen = [s for s in seats if s.user_id in carried]
    state, events = engine.carry_silence(game.state, seats=[core.seat_info(s) for s in seats],
                                         sids=[str(s.pk) for s in chosen])
    game.state = state
    for seat in chosen:
        seat.data = {**seat.data, "silenced": True}
        seat.save(update_fields=["data"])
    now = game.started_at or timezone.now()
    core.log_write([core.log_entry(game, None, e, now) for e in events])
    return chosen


def hunters_post(*, game: Game, user, body: Any, clock: Clock = timezone.now) -> HuntersPost:
    """BV-14.2: ``user``'s message in the hunters' room, for the gathering (BV-6.3). Only a living, unsilenced member
    of the hunters' group (``faction:hunters``: the hunters met at the introduction, BV-4.1, or at light 1 under
    BV-15.1; never the undercover hunter, BV-3.5, nor under lone hunters, BV-15.2) may write, and only while a light
    phase accepts input. ``body``: plain text, 1 to ``HuntersPost.MAX_BODY`` characters. Raises
    :class:`ServiceError` (``forbidden`` not a hunter; ``state`` the room is closed, with the reason and rule ID;
    ``late``; ``throttled``; ``invalid`` field ``body``); nothing is saved then. Returns the message."""
    text = body.strip() if isinstance(body, str) else ""
    if not text:
        raise ServiceError({"body": [_("Write something first.")]})
    if len(text) > HuntersPost.MAX_BODY:
        raise ServiceError({"body": [_("A message may have at most %(max)s characters; this one has %(n)s.")
                                     % {"max": HuntersPost.MAX_BODY, "n": len(text)}]})
    seat = Seat.objects.filter(game=game, user=user).first() if user is not None and user.is_authenticated else None
    if seat is None or not GroupMembership.objects.filter(game=game, group=HUNTERS, seat=seat).exists():
        raise ServiceError(_("Only the hunters write in the hunters' room."), code="forbidden")
    from gm.core.flood import check_seat_rate

    check_seat_rate(game=game, user=user, action="room", now=clock())
    with transaction.atomic():
        phase = core.phase_accepting_for_update(game=game, now=clock(), kind="light",
                                                wrong_stage=thread_closed_text("room_night"))
        game = Game.objects.get(pk=game.pk)
        info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
        closed = engine.hunters_room_closed(game.state or {}, phase=info, sid=str(seat.pk))
        if closed:
            raise ServiceError(thread_closed_text(closed), code="state")
        return HuntersPost.objects.create(game=game, seat=seat, author=user, phase=phase, body=text,
                                          created_at=clock())
