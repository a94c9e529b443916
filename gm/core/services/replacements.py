"""Replacements (issue 23 item 2): a player's private request, the master's flag, the public standby board, a
volunteer approved by the master, and each player's own record of his time on the seat.

* :func:`replacement_request` / :func:`replacement_withdraw` — a player asks privately to be replaced (his reason
  is for the master only); he may take it back until the master acknowledges it
  (:func:`replacement_acknowledge`), which flags the seat.
* :func:`seat_flag` — the master flags a seat "needs replacement" (or clears the flag); the activity sweep flags
  seats quiet past the prod's grace.
* :func:`standby_board` — every flagged seat of a running game, public facts only: the module, the game, the seat's
  name and public data, the time left in the phase.
* :func:`volunteer` / :func:`volunteer_withdraw` — a user without a seat in that game offers to take one.
* :func:`volunteer_approve` — the master approves one: the existing handover
  (:func:`gm.core.interventions.seat_replace_player`) gives him the seat; the thread gets a system post "B replaces
  A"; the old player's tenure ends and the new one's begins (:func:`tenure_records`: orders and missed phases per
  tenure); if less than ``replacement_min_time`` hours are left in the phase, its deadline moves out to that, logged
  publicly.

Keyword-only and atomic; the unresolved phase row is locked first, then the game, then the seat.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import PhaseInfo, SeatInfo
from ..models import Game, LogEntry, Order, Phase, Post, Seat
from ..models_life import ReplacementRequest, SeatStatus, Tenure, Volunteer
from .activity import game_activity_options, status_for
from .activity import hours as activity_hours
from .base import Clock, ServiceError, audit_write, require_master, schedule_deadline

LIVE = (Game.Status.RUNNING, Game.Status.SETUP)


def _lock(game: Game) -> tuple[Phase | None, Game]:
    phase = Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first()
    return phase, Game.objects.select_for_update().get(pk=game.pk)


def _own_seat(game: Game, user) -> Seat:
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in first."), code="forbidden")
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    return seat


def _reason(reason: Any, *, required: bool) -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if required and not text:
        raise ServiceError({"reason": [_("Give a reason; it goes into the audit log.")]})
    if len(text) > 1000:
        raise ServiceError({"reason": [_("At most %(max)s characters.") % {"max": 1000}]})
    return text


def replacement_request(*, game: Game, user, reason: Any = "", clock: Clock = timezone.now) -> ReplacementRequest:
    """``user`` asks privately to be replaced in ``game`` (``reason``: optional text, at most 1000 characters, read by
    the master only). Raises :class:`ServiceError` ``forbidden`` (no seat), ``state`` (the game is not running, his
    character is dead, he has asked already), ``invalid`` (``reason``)."""
    text = _reason(reason, required=False)
    with transaction.atomic():
        _phase, game = _lock(game)
        seat = _own_seat(game, user)
        if game.status not in LIVE:
            raise ServiceError(_("Replacements are for games that are running."), code="state")
        if not seat.alive:
            raise ServiceError(_("Your character is dead; there is nothing to hand over."), code="state")
        if ReplacementRequest.objects.filter(seat=seat, user=user, withdrawn_at__isnull=True).exists():
            raise ServiceError(_("You have already asked to be replaced."), code="duplicate")
        return ReplacementRequest.objects.create(seat=seat, game=game, user=user, reason=text, created_at=clock())


def replacement_withdraw(*, game: Game, user, clock: Clock = timezone.now) -> ReplacementRequest:
    """``user`` takes back his request to be replaced, before the master acknowledges it. Raises
    :class:`ServiceError` ``forbidden``, ``not_found`` (no request), ``state`` (acknowledged: irrevocable)."""
    with transaction.atomic():
        _phase, game = _lock(game)
        seat = _own_seat(game, user)
        request = (ReplacementRequest.objects.select_for_update()
                   .filter(seat=seat, user=user, withdrawn_at__isnull=True).first())
        if request is None:
            raise ServiceError(_("You have not asked to be replaced."), code="not_found")
        if request.acknowledged_at is not None:
            raise ServiceError(_("The master has acknowledged your request; it can't be taken back."), code="state")
        request.withdrawn_at = clock()
        request.save(update_fields=["withdrawn_at"])
        return request


def own_request(game: Game, seat: Seat | None) -> ReplacementRequest | None:
    """The live replacement request of ``seat``'s current player (for his own page), or ``None``."""
    if seat is None:
        return None
    return ReplacementRequest.objects.filter(seat=seat, user_id=seat.user_id, withdrawn_at__isnull=True).first()


def _set_flag(seat: Seat, flag: str, now: datetime) -> SeatStatus:
    row = status_for(seat)
    row = SeatStatus.objects.select_for_update().get(pk=row.pk)
    if flag:
        if row.flagged_at is None:
            row.flagged_at = now
        row.flag = flag
    else:
        row.flagged_at, row.flag = None, ""
    row.save(update_fields=["flagged_at", "flag"])
    return row


def replacement_acknowledge(*, game: Game, actor, request_id: Any, reason: str = "",
                            clock: Clock = timezone.now) -> ReplacementRequest:
    """The master acknowledges a replacement request: it becomes irrevocable and the seat is flagged (audited as
    ``replacement_ack``). Raises :class:`ServiceError` ``forbidden``, ``invalid``/``not_found`` (``request``),
    ``state`` (acknowledged already, the game not running)."""
    require_master(game, actor)
    if isinstance(request_id, bool) or not isinstance(request_id, int):
        raise ServiceError({"request": [_("Choose a request.")]})
    with transaction.atomic():
        phase, game = _lock(game)
        require_master(game, actor)
        request = (ReplacementRequest.objects.select_for_update()
                   .filter(pk=request_id, game=game, withdrawn_at__isnull=True).first())
        if request is None:
            raise ServiceError({"request": [_("This game has no such request.")]}, code="not_found")
        if request.acknowledged_at is not None:
            raise ServiceError(_("This request is acknowledged already."), code="state")
        if game.status not in LIVE:
            raise ServiceError(_("Replacements are for games that are running."), code="state")
        now = clock()
        request.acknowledged_at = now
        request.save(update_fields=["acknowledged_at"])
        seat = Seat.objects.select_for_update().get(pk=request.seat_id)
        _set_flag(seat, SeatStatus.Flag.REQUEST, now)
        audit_write(game=game, actor=actor, action="replacement_ack", reason=reason, phase=phase, now=now,
                    data={"seat": seat.pk, "player": seat.display_name})
        return request


def seat_flag(*, game: Game, actor, seat_id: Any, flagged: bool, reason: str = "",
              clock: Clock = timezone.now) -> SeatStatus:
    """The master flags a seat "needs replacement" (``flagged=True``; it appears on the standby board) or clears the
    flag (audited as ``seat_flag`` / ``seat_unflag``). Raises :class:`ServiceError` ``forbidden``, ``invalid``/
    ``not_found`` (``seat``), ``state`` (the game not running, the character dead)."""
    require_master(game, actor)
    if isinstance(seat_id, bool) or not isinstance(seat_id, int):
        raise ServiceError({"seat": [_("Choose a seat.")]})
    if not isinstance(flagged, bool):
        raise ServiceError({"flagged": [_("This option is true or false.")]})
    with transaction.atomic():
        phase, game = _lock(game)
        require_master(game, actor)
        seat = Seat.objects.select_for_update().filter(game=game, pk=seat_id).first()
        if seat is None:
            raise ServiceError({"seat": [_("This game has no such seat.")]}, code="not_found")
        if game.status not in LIVE:
            raise ServiceError(_("Replacements are for games that are running."), code="state")
        if flagged and not seat.alive:
            raise ServiceError(_("%(player)s is dead; there is nothing to hand over.") % {"player": seat.display_name},
                               code="state")
        now = clock()
        row = _set_flag(seat, SeatStatus.Flag.MASTER if flagged else "", now)
        audit_write(game=game, actor=actor, action="seat_flag" if flagged else "seat_unflag", reason=reason,
                    phase=phase, now=now, data={"seat": seat.pk, "player": seat.display_name})
        return row


def standby_board(*, user=None, clock: Clock = timezone.now) -> list[dict]:
    """The public standby board: every flagged, living seat of a running game, oldest flag first, as ``{"game",
    "seat": {"id", "display_name", "public_facts": [(label, text)]}, "phase", "deadline", "left_seconds",
    "volunteered", "can_volunteer"}`` — public facts only (never the flag's reason nor a request's words).
    ``user``: the viewer, for whether he has volunteered and may volunteer (not the master, no seat in the game)."""
    now = clock()
    rows = list(SeatStatus.objects.filter(flagged_at__isnull=False, seat__alive=True,
                                          game__status__in=LIVE).select_related("seat", "game__master__profile")
                .order_by("flagged_at", "pk"))
    games = {r.game_id for r in rows}
    phases = {p.game_id: p for p in Phase.objects.filter(game_id__in=games, status=Phase.Status.OPEN)}
    mine: set[int] = set()
    seated: set[int] = set()
    if user is not None and user.is_authenticated:
        mine = set(Volunteer.objects.filter(user=user, withdrawn_at__isnull=True, approved_at__isnull=True)
                   .values_list("seat_id", flat=True))
        seated = set(Seat.objects.filter(user=user, game_id__in=games).values_list("game_id", flat=True))
    board = []
    for row in rows:
        game, seat = row.game, row.seat
        module = game.game_module
        phase = phases.get(game.pk)
        if phase is not None:
            phase.game = game
        public = module.public_seat_data(seat.data or {})
        board.append({
            "game": game,
            "seat": {"id": seat.pk, "display_name": seat.display_name,
                     "public_facts": module.seat_facts(public, secret=False) if public else []},
            "phase": phase,
            "deadline": phase.deadline if phase is not None else None,
            "left_seconds": max(0, round((phase.deadline - now).total_seconds())) if phase is not None else None,
            "volunteered": seat.pk in mine,
            "can_volunteer": (user is not None and user.is_authenticated and user.pk != game.master_id
                              and game.pk not in seated and seat.pk not in mine),
        })
    return board


def volunteer(*, game: Game, user, seat_id: Any, clock: Clock = timezone.now) -> Volunteer:
    """``user`` offers to take the flagged seat ``seat_id`` of ``game``. Raises :class:`ServiceError` ``forbidden``
    (anonymous; the master; a player of the game), ``not_found`` (no such seat), ``state`` (the seat is not on the
    board), ``duplicate`` (offered already)."""
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in first."), code="forbidden")
    if isinstance(seat_id, bool) or not isinstance(seat_id, int):
        raise ServiceError({"seat": [_("Choose a seat.")]})
    with transaction.atomic():
        _phase, game = _lock(game)
        seat = Seat.objects.filter(game=game, pk=seat_id).first()
        if seat is None:
            raise ServiceError({"seat": [_("This game has no such seat.")]}, code="not_found")
        if user.pk == game.master_id:
            raise ServiceError(_("The master can't take a seat in his own game."), code="forbidden")
        if game.co_masters.filter(user=user).exists():  # a co-master sees every secret (issue 24)
            raise ServiceError(_("A co-master can't take a seat in the game."), code="forbidden")
        if Seat.objects.filter(game=game, user=user).exists():
            raise ServiceError(_("You already have a seat in this game."), code="forbidden")
        flagged = SeatStatus.objects.filter(seat=seat, flagged_at__isnull=False).exists()
        if not flagged or not seat.alive or game.status not in LIVE:
            raise ServiceError(_("This seat is not looking for a replacement."), code="state")
        if Volunteer.objects.filter(seat=seat, user=user, withdrawn_at__isnull=True).exists():
            raise ServiceError(_("You have offered to take this seat already."), code="duplicate")
        return Volunteer.objects.create(seat=seat, game=game, user=user, created_at=clock())


def volunteer_withdraw(*, game: Game, user, seat_id: Any, clock: Clock = timezone.now) -> Volunteer:
    """``user`` takes back his offer for seat ``seat_id`` before the master approves it. Raises
    :class:`ServiceError` ``forbidden``, ``not_found`` (no offer)."""
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in first."), code="forbidden")
    with transaction.atomic():
        _lock(game)
        offer = (Volunteer.objects.select_for_update()
                 .filter(game=game, seat_id=seat_id, user=user, withdrawn_at__isnull=True, approved_at__isnull=True)
                 .first())
        if offer is None:
            raise ServiceError(_("You have not offered to take this seat."), code="not_found")
        offer.withdrawn_at = clock()
        offer.save(update_fields=["withdrawn_at"])
        return offer


def user_name(user) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "name", "") or user.get_username()


def volunteer_approve(*, game: Game, actor, volunteer_id: Any, reason: str = "",
                      clock: Clock = timezone.now) -> Seat:
    """The master approves volunteer ``volunteer_id``: the existing handover
    (:func:`gm.core.interventions.seat_replace_player`, audited as ``replace``) gives him the seat; the thread gets
    the system post "B replaces A"; the old tenure ends and the new begins; the seat's flag, prods and any request
    are done with; other offers for the seat are closed; with less than ``replacement_min_time`` hours left in the
    open phase, its deadline moves out to now + that, logged publicly (``core.deadline_replacement``). Raises
    :class:`ServiceError` ``forbidden``, ``invalid``/``not_found`` (``volunteer``), ``state`` (the seat is no longer
    flagged; the handover's own refusals). Nothing changes on error."""
    from .. import interventions

    require_master(game, actor)
    if isinstance(volunteer_id, bool) or not isinstance(volunteer_id, int):
        raise ServiceError({"volunteer": [_("Choose a volunteer.")]})
    with transaction.atomic():
        phase, game = _lock(game)
        require_master(game, actor)
        offer = (Volunteer.objects.select_for_update(of=("self",)).select_related("user", "seat__user")
                 .filter(pk=volunteer_id, game=game, withdrawn_at__isnull=True, approved_at__isnull=True).first())
        if offer is None:
            raise ServiceError({"volunteer": [_("This game has no such offer.")]}, code="not_found")
        if not SeatStatus.objects.filter(seat_id=offer.seat_id, flagged_at__isnull=False).exists():
            raise ServiceError(_("This seat is not looking for a replacement."), code="state")
        old = offer.seat.user
        now = clock()
        seat = interventions.seat_replace_player(
            game=game, actor=actor, seat_id=offer.seat_id, user=offer.user,
            reason=reason.strip() if isinstance(reason, str) and reason.strip() else _("A volunteer from the standby "
                                                                                       "board."), clock=clock)
        offer.approved_at = now
        offer.save(update_fields=["approved_at"])
        Volunteer.objects.filter(seat=seat, withdrawn_at__isnull=True, approved_at__isnull=True).update(
            withdrawn_at=now)
        ReplacementRequest.objects.filter(seat=seat, withdrawn_at__isnull=True, acknowledged_at__isnull=True).update(
            withdrawn_at=now)
        SeatStatus.objects.filter(seat=seat).update(flagged_at=None, flag="", prodded_at=None)
        # The tenures (the old player's ends, the volunteer's begins) are written by the handover itself
        # (tenure_handover), as for every replacement.
        Post.objects.create(game=game, author=game.master, seat=None, phase=phase if phase and phase.is_open else None,
                            body="", system={"kind": "core.replaces", "data": {
                                "new": user_name(offer.user), "old": user_name(old) if old else "",
                                "player": seat.display_name}})
        if phase is not None and phase.is_open:
            least = activity_hours(game_activity_options(game)["replacement_min_time"])
            if least and phase.deadline - now < least:
                moved = now + least
                shift = moved - phase.deadline
                phase.deadline = moved
                phase.base_deadline += shift  # the master's and the automatic extensions keep their whole cap
                phase.overdue_at = None
                phase.save(update_fields=["deadline", "base_deadline", "overdue_at"])
                LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.deadline_replacement",
                                        data={"deadline": moved.isoformat(), "player": seat.display_name},
                                        created_at=now)
                if game.paused_at is None:
                    schedule_deadline(phase, now=now)
        return seat


def tenure_handover(*, game: Game, seat: Seat, old, new, now: datetime) -> None:
    """Record that ``seat`` of ``game`` passed from ``old`` (a user or ``None``) to ``new`` at ``now``: the old
    player's tenure ends (made, from the game's start, if the seat never changed hands before) and the new one's
    begins. Called by every handover (:func:`gm.core.interventions.seat_replace_player`, so also
    :func:`volunteer_approve`) inside its transaction, before ``signals.seat_replaced``."""
    if old is not None:
        closed = Tenure.objects.filter(seat=seat, user=old, ended_at__isnull=True).update(ended_at=now)
        if not closed:
            Tenure.objects.create(seat=seat, user=old, started_at=game.started_at or seat.joined_at, ended_at=now)
    Tenure.objects.create(seat=seat, user=new, started_at=now)


def volunteers_for(game: Game) -> list[Volunteer]:
    """The open offers for ``game``'s seats (the master's console), oldest first."""
    return list(Volunteer.objects.filter(game=game, withdrawn_at__isnull=True, approved_at__isnull=True)
                .select_related("user__profile", "seat"))


def requests_for(game: Game) -> list[ReplacementRequest]:
    """The live replacement requests of ``game`` (the master's console), oldest first."""
    return list(ReplacementRequest.objects.filter(game=game, withdrawn_at__isnull=True).select_related(
        "user__profile", "seat"))


def tenure_records(game: Game) -> list[dict]:
    """Each player's own record of his time on each seat of ``game`` (the master's console; a replaced player's
    missed orders stay his): ``{"seat", "user", "started_at", "ended_at", "orders", "missed"}`` — ``orders`` the
    order versions he submitted for the seat, ``missed`` the resolved phases within his tenure in which the seat had
    something to do (the module's ``has_legal_action`` on the phase's stored input) and no order counted. A seat
    never handed over has one tenure from the game's start."""
    seats = list(game.seats.select_related("user__profile").order_by("position"))
    tenures: dict[int, list[dict]] = {}
    for t in Tenure.objects.filter(seat__game=game).select_related("user__profile").order_by("started_at", "pk"):
        tenures.setdefault(t.seat_id, []).append({"user": t.user, "started_at": t.started_at, "ended_at": t.ended_at})
    for seat in seats:
        if seat.pk not in tenures and seat.user is not None:
            tenures[seat.pk] = [{"user": seat.user, "started_at": game.started_at or seat.joined_at, "ended_at": None}]
    phases = list(Phase.objects.filter(game=game, status=Phase.Status.RESOLVED, setup=False).order_by("ordinal"))
    counted: dict[tuple[int, int], bool] = {}
    for phase_id, seat_id, payload in Order.objects.filter(phase__in=phases).order_by(
            "phase_id", "seat_id", "version").values_list("phase_id", "seat_id", "payload"):
        counted[(phase_id, seat_id)] = payload is not None
    submitted: dict[tuple[int, int], int] = {}
    for seat_id, user_id in Order.objects.filter(phase__game=game).values_list("seat_id", "submitted_by_id"):
        submitted[(seat_id, user_id)] = submitted.get((seat_id, user_id), 0) + 1
    module = game.game_module
    records = []
    for seat in seats:
        for t in tenures.get(seat.pk, []):
            missed = 0
            for phase in phases:
                at = phase.resolved_at
                # (start, end]: a phase resolved at the very moment of a handover is the old player's.
                if at is None or at <= t["started_at"] or (t["ended_at"] is not None and at > t["ended_at"]):
                    continue
                if counted.get((phase.pk, seat.pk)) or not _had_action(module, phase, seat):
                    continue
                missed += 1
            records.append({"seat": seat, "user": t["user"], "name": user_name(t["user"]),
                            "started_at": t["started_at"], "ended_at": t["ended_at"],
                            "orders": submitted.get((seat.pk, t["user"].pk), 0), "missed": missed})
    return records


def _had_action(module, phase: Phase, seat: Seat) -> bool:
    """Whether ``seat`` was a living actor with a legal action in resolved ``phase``, read from its stored input."""
    snapshot = phase.state or {}
    rows = {int(s.get("id", -1)): s for s in snapshot.get("seats", []) if isinstance(s, dict)}
    row = rows.get(seat.pk)
    if row is not None and not row.get("alive", True):
        return False
    if phase.actors is not None and seat.pk not in phase.actors:
        return False
    infos = [SeatInfo(id=int(s["id"]), name=s.get("name", ""), position=s.get("position", 0),
                      alive=s.get("alive", True), data=s.get("data") or {}) for s in rows.values() if "id" in s]
    me = next((i for i in infos if i.id == seat.pk), SeatInfo(id=seat.pk, name=seat.display_name,
                                                              position=seat.position))
    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
    try:
        return bool(module.has_legal_action(state=snapshot.get("game") or {}, phase=info, seat=me, seats=infos))
    except Exception:  # noqa: BLE001 - an old snapshot the module can't read: count the phase as one with an action
        return True


def seat_had_action(module, phase: Phase, seat: Seat) -> bool:
    """Whether ``seat`` had something to order in resolved ``phase`` (living, among its actors, and the module's
    ``has_legal_action`` on the phase's stored input): the test :func:`tenure_records` counts missed orders with,
    public for the reliability record (``gm.community``)."""
    return _had_action(module, phase, seat)
