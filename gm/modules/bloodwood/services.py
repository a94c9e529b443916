"""The writes of Bloodwood: a player's line in the open step (a move, a Leshy discard, a give, a keep, a refill), an
answer to an attack, and a declaration (BW-6, BW-8, BW-13a–BW-15a, BW-6b, BW-22, BW-23a, BW-24, BW-26).

Every line is first checked by the engine against the game as it is, whoever sends it and whatever step is open, so
a refusal carries BW-26's code (``ServiceError.code``), rule ID and message; an accepted line goes into the open step
through the core's ``order_submit`` (which checks it again under the phase lock, and closes the step at once when
every actor has answered: ``GameModule.phase_complete``). A declaration is checked at once and closes the open step
at once the same way (its deadline brought forward), so the game ends inside a resolution, exactly once.
"""
from __future__ import annotations

import copy
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gm.core import services as core
from gm.core.engine import PhaseInfo, RuleViolation
from gm.core.models import Game, Order, Phase, Seat

from . import engine
from .selectors import dealer_seat, game_data, rematch_info
from .texts import refusal_text

MODULE = "bloodwood"


def refusal(exc: engine.BwError) -> core.ServiceError:
    """A BW-26 refusal as the core's ``ServiceError``: its code is the refusal code, its message names the rule."""
    text = f"{refusal_text(exc.code, exc.message, exc.params)} ({exc.rule})"
    return core.ServiceError({exc.field or "__all__": [text]}, code=exc.code,
                             details=[{"code": exc.code, "rule": exc.rule, "message": text}])


def _seat(game: Game, user) -> Seat:
    seat = game.seats.filter(user=user).first() if user and user.is_authenticated else None
    if seat is None:
        raise core.ServiceError(_("You have no seat in this game."), code="forbidden")
    return seat


def _open(game: Game) -> Phase | None:
    return game.phases.filter(status=Phase.Status.OPEN).first()


def submit_line(*, game: Game, user, payload: Any, phase_id: Any = None, clock=timezone.now) -> Order:
    """``user``'s line in the open step (BW-24): checked by the engine first (BW-26, BW-26a), then stored through
    ``order_submit``. Under the inattention option (BW-23a) a play refused with a code that costs the card is turned
    into the penalty move, stored (the step closes, the card is lost, the turn ends) and the refusal is raised all
    the same. Raises ``ServiceError``."""
    game.refresh_from_db()
    seat = _seat(game, user)
    state = game.state or {}
    if not isinstance(payload, dict):
        raise refusal(engine.BwError("bad_order"))
    try:
        engine.validate_step(state, str(seat.pk), payload)
    except engine.BwError as exc:
        err = refusal(exc)
        inattention_penalty(game=game, user=user, seat_id=seat.pk, payload=payload, code=exc.code, clock=clock)
        raise err from None
    phase = core.phase_named(game=game, phase_id=phase_id) if phase_id else _open(game)
    if phase is None:
        raise refusal(engine.BwError("game_over" if state.get("over") else "not_your_turn"))
    return core.order_submit(phase=phase, user=user, payload=payload, clock=clock)


def react(*, game: Game, user, answer: Any, phase_id: Any = None, clock=timezone.now) -> Order:
    """An answer to an attack (BW-8): ``amulet``, ``mirror`` or ``pass``, checked by the engine whoever sends it and
    whatever step is open (``tranquilized``, ``no_attack``, ``not_target``, ``not_in_hand``, ``chained``), then
    stored into the ``reaction`` step. Raises ``ServiceError``."""
    game.refresh_from_db()
    seat = _seat(game, user)
    try:
        engine.validate_react(game.state or {}, str(seat.pk), {"react": answer})
    except engine.BwError as exc:
        err = refusal(exc)
        inattention_penalty(game=game, user=user, seat_id=seat.pk, payload={"react": answer}, code=exc.code,
                            clock=clock)
        raise err from None
    phase = core.phase_named(game=game, phase_id=phase_id) if phase_id else _open(game)
    if phase is None:
        raise refusal(engine.BwError("no_attack"))
    return core.order_submit(phase=phase, user=user, payload={"react": answer}, clock=clock)


def inattention_penalty(*, game: Game, user, seat_id: int, payload: Any, code: str, clock=timezone.now) -> bool:
    """The inattention penalty (BW-23a) of a line refused with BW-26 ``code``, whichever way it came (the module's
    form and API, or the core's generic orders API through ``GameModule.order_refused``): under the ``inattention``
    option, a play (``{"move": "play", "card"…}``) refused with a code of ``engine.INATTENTION_MOVE`` is stored as
    the penalty move (the card is lost, the turn ends, the step closes); an answer (``{"react": "amulet"|"mirror"}``)
    refused with a code of ``engine.INATTENTION_ANSWER`` costs the card only. Only a card the player holds is lost.
    Returns whether a penalty was written; the caller raises the refusal all the same."""
    game.refresh_from_db(fields=["state"])
    state = game.state or {}
    if not (state.get("options") or {}).get("inattention") or not isinstance(payload, dict):
        return False
    hand = state.get("hands", {}).get(str(seat_id), [])
    if payload.get("move") == "play" and code in engine.INATTENTION_MOVE and payload.get("card") in hand:
        phase = _open(game)
        if phase is None:
            return False
        core.order_submit(phase=phase, user=user, payload={**payload, "move": "penalty"}, clock=clock)
        return True
    answer = payload.get("react")
    if "move" not in payload and code in engine.INATTENTION_ANSWER and answer in ("amulet", "mirror") \
            and answer in hand:
        seat = Seat.objects.get(pk=seat_id)
        _answer_penalty(game=game, seat=seat, card=answer, clock=clock)
        return True
    return False


def _answer_penalty(*, game: Game, seat: Seat, card: str, clock) -> None:
    """The inattention penalty of a refused answer (BW-23a): the card is lost, nothing else happens. Written in its
    own transaction with the open step locked, so the refusal raised afterwards does not undo it."""
    with transaction.atomic():
        phase = (Phase.objects.select_for_update(of=("self",)).filter(game_id=game.pk)
                 .exclude(status=Phase.Status.RESOLVED).first())
        locked = Game.objects.select_for_update().get(pk=game.pk)
        state = copy.deepcopy(locked.state or {})
        if phase is None or card not in state["hands"].get(str(seat.pk), []):
            return
        evs = engine.penalty_card(state, str(seat.pk), card)
        locked.state = state
        now = clock()
        core.log_write([core.log_entry(locked, phase, e, now) for e in engine.core_events(evs)])
        locked.save(update_fields=["state"])


def declare(*, game: Game, user, named: Any, clock=timezone.now) -> Phase:
    """A declaration of the end (BW-22, BW-22b): ``named`` are seat ids. Checked at once against the game as it is
    (``game_over``, ``mutated``, ``bad_declaration``: ``ServiceError`` with that code, nothing saved); accepted, it is
    kept in the state and the open step's deadline is brought forward to now, so the step resolves at once through
    the deadline machinery (exactly once, like a step whose actors have all answered), judging the declaration
    before anything else. Returns the open step (the phase that will resolve)."""
    with transaction.atomic():
        phase = (Phase.objects.select_for_update(of=("self",)).select_related("game").filter(game_id=game.pk)
                 .exclude(status=Phase.Status.RESOLVED).first())
        game = Game.objects.select_for_update().get(pk=game.pk)
        seat = _seat(game, user)
        state = copy.deepcopy(game.state or {})
        if phase is None or game.is_over or phase.status != Phase.Status.OPEN:
            raise refusal(engine.BwError("game_over"))
        try:
            engine.pend_declaration(state, str(seat.pk), named)
        except engine.BwError as exc:
            raise refusal(exc) from None
        now = clock()
        game.state = state
        game.save(update_fields=["state"])
        if game.paused_at is None and phase.deadline > now:
            Phase.objects.filter(pk=phase.pk, status=Phase.Status.OPEN).update(deadline=now)
            phase.deadline = now
            core.schedule_deadline(phase, now=now)
    return phase


def end_no_winner(*, game: Game, actor, reason: str, clock=timezone.now) -> Game:
    """The master ends a running game with no winner (BW-22d): the open step is closed unresolved, the public line
    ``bw.master_end`` is written, everything is revealed as at every end (BW-22e) and the action is audited as
    ``end_no_winner`` with ``reason``. Raises ``ServiceError`` ``forbidden`` (not the master), ``invalid`` (no
    reason) or ``state`` (the game is not running, or no step is open: a result waits for review)."""
    reason = (reason or "").strip()
    with transaction.atomic():
        phase = (Phase.objects.select_for_update(of=("self",)).filter(game_id=game.pk, status=Phase.Status.OPEN)
                 .first())
        game = Game.objects.select_for_update().get(pk=game.pk)
        core.require_master(game, actor)
        if not reason:
            raise core.ServiceError({"reason": [_("Give a reason for the audit log.")]})
        if game.is_over or game.status != Game.Status.RUNNING or phase is None:
            raise core.ServiceError(_("Only a running game with an open step can be ended."), code="state")
        state = copy.deepcopy(game.state or {})
        evs = engine.master_end(state)
        now = clock()
        game.state = state
        entries = [core.log_entry(game, phase, e, now) for e in engine.core_events(evs)]
        entries.append(core.game_finish(game=game, outcome=engine.outcome(state), phase=phase, now=now))
        core.log_write(entries)
        game.save(update_fields=["state", "status", "finished_at", "outcome"])
        core.audit_write(game=game, actor=actor, action="end_no_winner", reason=reason, phase=phase, now=now)
    return game


REMATCH_KEYS = ("leaders", "inattention", "turn_minutes", "step_minutes", "larger_team")


def rematch_create(*, game: Game, actor, dealer: Any = None, clock=timezone.now) -> Game:
    """BW-23c: the master of the finished ``game`` starts its rematch where the winner deals: a new game with the
    same players in the same seats under the same names, the same options (``winner_deals`` on, ``dealer`` the
    dealer's seat number, ``rematch_of`` this game) and durations, its signups closed, waiting for the deal. The
    dealer is the successful declarer; after a failed declaration the master picks one of the winning team
    (``dealer``: a seat id of ``game``). Audited on the finished game as ``rematch``. Raises ``ServiceError``
    ``forbidden`` (not the master), ``state`` (not finished, or nobody won) or ``invalid`` (no or a wrong dealer)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        core.require_master(game, actor)
        if game.status != Game.Status.FINISHED:
            raise core.ServiceError(_("Only a finished game can have a rematch."), code="state")
        info = rematch_info(game)
        if info["winner"] not in engine.TEAMS:
            raise core.ServiceError(_("Nobody won this game, so nobody deals the next one."), code="state")
        seat = info["declarer"]
        if seat is None:
            seat = next((s for s in info["candidates"] if str(s.pk) == str(dealer)), None)
            if seat is None:
                raise core.ServiceError({"dealer": [_("Pick the dealer among the winning team.")]})
        old = game.options or {}
        options = {k: old[k] for k in REMATCH_KEYS if k in old}
        options.update(winner_deals=True, dealer=seat.position + 1, rematch_of=game.pk)
        title = _("%(title)s — rematch") % {"title": game.title}
        new = core.game_create(master=game.master, module=MODULE, title=title[:200], options=options,
                               durations=dict(game.durations or {}))
        core.game_open_signup(game=new, actor=game.master)
        for s in info["seats"]:
            core.seat_join(game=new, user=s.user, display_name=s.display_name)
        new = core.game_close_signup(game=new, actor=game.master)  # the same seats: nobody new joins
        core.audit_write(game=game, actor=actor, action="rematch", now=clock(),
                         data={"game": new.pk, "dealer": seat.display_name, "player": seat.display_name})
    return new


def deal_submit(*, game: Game, user, deal: Any, first_player: Any, clock=timezone.now) -> Phase:
    """BW-23c: the dealer of the rematch ``game`` gives out every entity (``deal``: one entity slug per seat, in
    seat order; BW-3a's teams enforced) and names the first player (a seat number); the game then starts at once
    with that deal, the dealer told every entity (like a leader). Raises ``ServiceError`` ``forbidden`` (not the
    dealer), ``state`` (the game is not waiting for its deal) or ``invalid`` with the rule broken."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        seat = dealer_seat(game)
        if seat is None or game.status != Game.Status.SIGNUP:
            raise core.ServiceError(_("This game is not waiting for the winner's deal."), code="state")
        if not (user and user.is_authenticated and seat.user_id == user.pk):
            raise core.ServiceError(_("Only the winner of the last game deals this one."), code="forbidden")
        n = game.seats.count()
        options = {**(game.options or {}), "deal": deal, "first_player": first_player}
        try:
            clean = engine.validate_options(options, players=n, bounds=game_data()["bounds"])
        except RuleViolation as exc:
            raise core.violation_refusal(exc) from None
        game.options = clean
        game.save(update_fields=["options"])
    return core.game_start(game=game, actor=game.master, clock=clock)


def phase_info(phase: Phase) -> PhaseInfo:
    return PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
