"""Vacations and the emergency pause (issue 23 item 4).

* :func:`away_set` / :func:`away_clear` — a player declares the days he is away (UTC days, inclusive): a badge
  beside his name in the thread and the player list of every game he plays (masters see it at signup too), and no
  prods meanwhile (:func:`resting_user_ids`).
* :func:`emergency_pause_start` — a player's emergency pause (at most ``GM_EMERGENCY_PAUSE_MAX_HOURS`` hours, once
  every ``GM_EMERGENCY_PAUSE_MONTHS`` months): every running game where he has a living seat and whose master
  allows it (the ``emergency_pause`` activity option) is paused, with a public notice; :func:`emergency_resume_due`
  (the activity sweep) resumes them when it ends — the deadline moves by the time paused — unless the master has
  resumed or paused the game himself meanwhile.

Keyword-only, atomic; each game is changed with its unresolved phase row locked first, then the game row.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import page_memo
from ..models import Game, LogEntry, Phase, Seat
from ..models_life import Away, EmergencyPause
from .activity import game_activity_options
from .base import Clock, ServiceError, schedule_deadline

#: The longest away period one declaration may cover, in days.
MAX_AWAY_DAYS = 92


def _login(user) -> None:
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in first."), code="forbidden")


def _day(value: Any, field: str, errors: dict) -> date | None:
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value.strip())
        except ValueError:
            value = None
    if not isinstance(value, date):
        errors.setdefault(field, []).append(_("Give a date (YYYY-MM-DD)."))
        return None
    return value


def away_set(*, user, starts_on: Any, ends_on: Any, clock: Clock = timezone.now) -> Away:
    """Declare ``user`` away from ``starts_on`` to ``ends_on`` (dates or ISO strings, inclusive; replaces an earlier
    declaration). Raises :class:`ServiceError` ``forbidden`` (anonymous) or ``invalid`` (fields ``starts_on`` /
    ``ends_on``: not a date, the end before the start or in the past, longer than :data:`MAX_AWAY_DAYS` days)."""
    _login(user)
    errors: dict[str, list[str]] = {}
    start, end = _day(starts_on, "starts_on", errors), _day(ends_on, "ends_on", errors)
    today = clock().date()
    if start and end:
        if end < start:
            errors.setdefault("ends_on", []).append(_("The last day comes before the first."))
        elif end < today:
            errors.setdefault("ends_on", []).append(_("That time is already over."))
        elif (end - start).days + 1 > MAX_AWAY_DAYS:
            errors.setdefault("ends_on", []).append(_("At most %(days)s days at a time.") % {"days": MAX_AWAY_DAYS})
    if errors:
        raise ServiceError(errors)
    with transaction.atomic():
        away, _created = Away.objects.update_or_create(user=user, defaults={
            "starts_on": start, "ends_on": end, "created_at": clock()})
        return away


def away_clear(*, user) -> None:
    """Withdraw ``user``'s away dates. Raises :class:`ServiceError` ``forbidden`` or ``not_found`` (none set)."""
    _login(user)
    if not Away.objects.filter(user=user).delete()[0]:
        raise ServiceError(_("You have not declared any away dates."), code="not_found")


def away_of(user) -> Away | None:
    """``user``'s current or coming away dates, or ``None``."""
    if not user or not user.is_authenticated:
        return None
    return Away.objects.filter(user=user).first()


def away_user_ids(user_ids: Iterable[int], now: datetime) -> dict[int, date]:
    """Of ``user_ids``, those away on ``now``'s UTC day → the last day they are away (one query)."""
    today = now.date()
    return dict(Away.objects.filter(user_id__in=[u for u in user_ids if u], starts_on__lte=today,
                                    ends_on__gte=today).values_list("user_id", "ends_on"))


def away_seat_ids(game: Game, now: datetime) -> dict[int, date]:
    """Seat id → last away day, for the seats of ``game`` whose player is away today (one query): the badge in the
    thread and the player list. Who declared himself away is public (he tells everyone he can't answer)."""
    today = now.date()
    if page_memo.active():  # a page render: the seats were loaded once with their players' away dates
        out = {}
        for seat in page_memo.seats(game):
            away = getattr(seat.user, "away", None) if seat.user_id else None
            if away is not None and away.starts_on <= today <= away.ends_on:
                out[seat.pk] = away.ends_on
        return out
    return dict(Seat.objects.filter(game=game, user__away__starts_on__lte=today, user__away__ends_on__gte=today)
                .values_list("pk", "user__away__ends_on"))


def resting_user_ids(user_ids: Iterable[int], now: datetime) -> set[int]:
    """Of ``user_ids``, those who must not be prodded at ``now``: away today or in a running emergency pause."""
    ids = [u for u in user_ids if u]
    resting = set(away_user_ids(ids, now))
    resting |= set(EmergencyPause.objects.filter(user_id__in=ids, ended_at__isnull=True, started_at__lte=now,
                                                 ends_at__gt=now).values_list("user_id", flat=True))
    return resting


def emergency_pause_allowed(*, user, clock: Clock = timezone.now) -> tuple[list[Game], EmergencyPause | None]:
    """What an emergency pause of ``user`` would pause now (running, unpaused games where he has a living seat and
    the master allows it) and his last pause (``None``: never), for his page."""
    if not user or not user.is_authenticated:
        return [], None
    games = [g for g in Game.objects.filter(seats__user=user, seats__alive=True, paused_at__isnull=True,
                                            status__in=[Game.Status.RUNNING, Game.Status.SETUP]).order_by("pk")
             if game_activity_options(g)["emergency_pause"]]
    return games, EmergencyPause.objects.filter(user=user).first()


def emergency_pause_start(*, user, hours: Any, clock: Clock = timezone.now) -> EmergencyPause:
    """Start ``user``'s emergency pause of ``hours`` whole hours (1 to ``GM_EMERGENCY_PAUSE_MAX_HOURS``): each
    game of :func:`emergency_pause_allowed` is paused, with a public ``core.emergency_paused`` line naming the end.
    Raises :class:`ServiceError` ``forbidden`` (anonymous), ``invalid`` (``hours``), ``state`` (a pause within the
    last ``GM_EMERGENCY_PAUSE_MONTHS`` months, or no game to pause). Nothing changes on error."""
    _login(user)
    most = settings.GM_EMERGENCY_PAUSE_MAX_HOURS
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= most:
        raise ServiceError({"hours": [_("A whole number of hours from 1 to %(max)s.") % {"max": most}]})
    now = clock()
    months = settings.GM_EMERGENCY_PAUSE_MONTHS
    last = EmergencyPause.objects.filter(user=user).first()
    if last is not None and last.started_at > now - timedelta(days=30 * months):
        raise ServiceError(_("You may take one emergency pause every %(months)s months; your last one began on "
                             "%(day)s.") % {"months": months, "day": last.started_at.date().isoformat()}, code="state")
    games, _last = emergency_pause_allowed(user=user, clock=clock)
    if not games:
        raise ServiceError(_("None of your running games allows an emergency pause."), code="state")
    ends = now + timedelta(hours=hours)
    paused: list[int] = []
    with transaction.atomic():
        for candidate in games:
            phase = (Phase.objects.select_for_update().filter(game_id=candidate.pk)
                     .exclude(status=Phase.Status.RESOLVED).first())
            game = Game.objects.select_for_update().get(pk=candidate.pk)
            if game.paused_at is not None or game.status not in (Game.Status.RUNNING, Game.Status.SETUP):
                continue
            game.paused_at = now
            game.save(update_fields=["paused_at"])
            LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.emergency_paused",
                                    data={"until": ends.isoformat()}, created_at=now)
            paused.append(game.pk)
        if not paused:
            raise ServiceError(_("None of your running games allows an emergency pause."), code="state")
        return EmergencyPause.objects.create(user=user, started_at=now, ends_at=ends, games=paused)


def emergency_resume_due(*, clock: Clock = timezone.now, limit: int = 100) -> list[int]:
    """Resume the games of every emergency pause whose end has come (the activity sweep): each game still paused
    since the pause began resumes — its open phase's deadline moves by the time paused, with a public
    ``core.emergency_resumed`` line — and a game the master resumed or re-paused meanwhile is left to him. Returns
    the ids of the pauses ended."""
    now = clock()
    ended: list[int] = []
    for pause_id in EmergencyPause.objects.filter(ended_at__isnull=True, ends_at__lte=now).values_list(
            "pk", flat=True)[:limit]:
        with transaction.atomic():
            pause = EmergencyPause.objects.select_for_update().get(pk=pause_id)
            if pause.ended_at is not None:
                continue
            for game_id in sorted(pause.games):
                _resume(game_id, pause.started_at, now)
            pause.ended_at = now
            pause.save(update_fields=["ended_at"])
            ended.append(pause.pk)
    return ended


def _resume(game_id: int, paused_at: datetime, now: datetime) -> None:
    phase = Phase.objects.select_for_update().filter(game_id=game_id, status=Phase.Status.OPEN).first()
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.paused_at != paused_at or game.is_over:
        return
    paused_for = now - paused_at
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
    LogEntry.objects.create(game=game, phase=phase, visibility="public", kind="core.emergency_resumed", data=data,
                            created_at=now)
