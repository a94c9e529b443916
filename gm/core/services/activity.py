"""Activity and prods (issue 23 item 1): the game's activity options, "I have read my role", and the sweep that
prods quiet players and flags their seats for replacement.

* :func:`game_activity_options` / :func:`activity_options_set` — the per-game options of items 1–4 (defaults in
  :data:`ACTIVITY_DEFAULTS`), set by the master, audited.
* :func:`role_confirm` — a player confirms he has read his role; the master's console lists who has not.
* :func:`activity_sweep` — beat (``gm.core.tasks.activity_sweep_task``): a living player with no post and no order
  for ``prod_after`` hours gets a prod (inbox, e-mail when on; :data:`gm.core.signals.seat_prodded`) and shows as
  prodded on the console; ``prod_grace`` hours later, still quiet, his seat is flagged "needs replacement" (the
  public standby board), and killed only when the master turned ``idle_kill`` on. A player who declared himself away
  (``vacations``) or is in an emergency pause is never prodded.

Every write is keyword-only and atomic and locks the game's unresolved phase row first, then the game row, then the
seats' status rows. Time comes from ``clock``.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import signals, sweeps
from ..engine import Event, PhaseInfo
from ..models import Game, LogEntry, Order, Phase, Post, Seat
from ..models_life import SeatStatus, Tenure
from .base import Clock, ServiceError, audit_write, log_entry, require_master, seat_info

#: The per-game options of issue 23 items 1–4 and their defaults (hours are hours; ``0`` extensions: none).
ACTIVITY_DEFAULTS: dict[str, Any] = {
    "prod_after": 48,             # hours without a post or order before a living player is prodded
    "prod_grace": 24,             # hours after a prod before his seat is flagged "needs replacement"
    "idle_kill": False,           # the master's choice: kill a seat flagged for being quiet
    "replacement_min_time": 24,   # hours a replacement gets at least before the deadline
    "extensions_per_player": 0,   # automatic extension tokens per seat (0: off)
    "extension_length": 24,       # hours one automatic extension adds
    "extension_cap": 72,          # hours the automatic extensions may add to one phase in all
    "emergency_pause": False,     # players may pause this game with their emergency pause
}
#: option → (smallest, largest) for the numbers; the booleans take true/false.
_BOUNDS = {"prod_after": (1, 24 * 30), "prod_grace": (1, 24 * 30), "replacement_min_time": (0, 24 * 14),
           "extensions_per_player": (0, 10), "extension_length": (1, 24 * 7), "extension_cap": (1, 24 * 30)}


def hours(value: float) -> timedelta:
    """``value`` hours of the activity options as a duration (an hour is ``GM_ACTIVITY_HOUR`` seconds: 3600, less
    in playtests)."""
    from django.conf import settings

    return timedelta(seconds=value * settings.GM_ACTIVITY_HOUR)


def game_activity_options(game: Game) -> dict[str, Any]:
    """The game's activity options: :data:`ACTIVITY_DEFAULTS` overridden by what the master set."""
    return {**ACTIVITY_DEFAULTS, **{k: v for k, v in (game.activity_options or {}).items() if k in ACTIVITY_DEFAULTS}}


def _clean_options(game: Game, changes: Any) -> dict[str, Any]:
    if not isinstance(changes, Mapping) or not changes:
        raise ServiceError({"options": [_("Give the options to change as an object.")]})
    errors: dict[str, list[str]] = {}
    clean: dict[str, Any] = {}
    forbidden = set(getattr(game.game_module, "forbidden_activity_options", ()))
    for key, value in changes.items():
        if key not in ACTIVITY_DEFAULTS:
            errors.setdefault(key, []).append(_("Unknown option “%(key)s”.") % {"key": key})
        elif isinstance(ACTIVITY_DEFAULTS[key], bool):
            if not isinstance(value, bool):
                errors.setdefault(key, []).append(_("This option is true or false."))
            elif value and key in forbidden:
                errors.setdefault(key, []).append(_("This game's rules do not allow it."))
            else:
                clean[key] = value
        else:
            low, high = _BOUNDS[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                errors.setdefault(key, []).append(_("A whole number from %(low)s to %(high)s.")
                                                  % {"low": low, "high": high})
            elif value and key in forbidden:
                errors.setdefault(key, []).append(_("This game's rules do not allow it."))
            else:
                clean[key] = value
    if errors:
        raise ServiceError(errors)
    return clean


def activity_options_set(*, game: Game, actor, changes: Mapping[str, Any], reason: str = "",
                         clock: Clock = timezone.now) -> Game:
    """Change some of ``game``'s activity options (master only; audited as ``activity_options``). ``changes``:
    option → value (keys of :data:`ACTIVITY_DEFAULTS`; hours as whole numbers; booleans). Raises
    :class:`ServiceError` ``forbidden`` (not the master), ``invalid`` (each bad key: unknown, out of range, forbidden
    by the module's ``forbidden_activity_options``), ``state`` (the game is over). Nothing changes on error."""
    require_master(game, actor)
    with transaction.atomic():
        Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.is_over:
            raise ServiceError(_("The game is over; nothing can be changed any more."), code="state")
        clean = _clean_options(game, changes)
        before = game_activity_options(game)
        game.activity_options = {**(game.activity_options or {}), **clean}
        game.save(update_fields=["activity_options"])
        audit_write(game=game, actor=actor, action="activity_options", reason=reason, now=clock(),
                    data={"before": {k: before[k] for k in clean}, "after": clean})
        return game


def status_for(seat: Seat) -> SeatStatus:
    """The seat's status row (made if missing). Call with the seat's game locked."""
    row, _created = SeatStatus.objects.get_or_create(seat=seat, defaults={"game_id": seat.game_id})
    return row


def role_confirm(*, game: Game, user, clock: Clock = timezone.now) -> SeatStatus:
    """``user`` confirms he has read his role in ``game`` (once the game has started; a second confirmation changes
    nothing). Raises :class:`ServiceError` ``forbidden`` (no seat), ``state`` (not started, or over)."""
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in first."), code="forbidden")
    with transaction.atomic():
        Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        seat = Seat.objects.filter(game=game, user=user).first()
        if seat is None:
            raise ServiceError(_("You have no seat in this game."), code="forbidden")
        if game.status not in (Game.Status.SETUP, Game.Status.RUNNING):
            raise ServiceError(_("Roles are dealt when the game starts; confirm then."), code="state")
        row = status_for(seat)
        if row.role_read_at is None:
            row.role_read_at = clock()
            row.save(update_fields=["role_read_at"])
        return row


def last_activity(game: Game, seats: list[Seat]) -> dict[int, datetime]:
    """Seat id → when its current player last did something in ``game`` (a post or an order version), or took the
    seat (his tenure's start), or the game's first phase after its setup stage opened (deck building is no time to
    be quiet in: the thread is closed then, FM-1.4), whichever is latest. Four queries."""
    first = (Phase.objects.filter(game=game, setup=False).order_by("ordinal").values_list("opens_at", flat=True)
             .first())
    start = max(game.started_at or game.created_at, first or game.created_at)
    last: dict[int, datetime] = {s.pk: start for s in seats}
    users = {s.pk: s.user_id for s in seats}
    for seat_id, user_id, at in Tenure.objects.filter(seat__in=seats, ended_at__isnull=True).values_list(
            "seat_id", "user_id", "started_at"):
        if users.get(seat_id) == user_id:
            last[seat_id] = max(last[seat_id], at)
    for seat_id, author_id, at in (Post.objects.filter(game=game, seat__in=seats).values("seat_id", "author_id")
                                   .annotate(at=Max("created_at")).values_list("seat_id", "author_id", "at")):
        if users.get(seat_id) == author_id and at is not None:
            last[seat_id] = max(last[seat_id], at)
    for seat_id, user_id, at in (Order.objects.filter(phase__game=game, seat__in=seats)
                                 .values("seat_id", "submitted_by_id").annotate(at=Max("created_at"))
                                 .values_list("seat_id", "submitted_by_id", "at")):
        if users.get(seat_id) == user_id and at is not None:
            last[seat_id] = max(last[seat_id], at)
    return last


def sweep_game(*, game_id: int, clock: Clock = timezone.now) -> dict[str, list[int]]:
    """Prod the quiet players of one running, unpaused game and flag the seats quiet past the grace (see the module
    docstring). Returns ``{"prodded": [seat ids], "flagged": [seat ids], "killed": [seat ids]}``."""
    from .vacations import resting_user_ids

    done: dict[str, list[int]] = {"prodded": [], "flagged": [], "killed": []}
    with transaction.atomic():
        phase = (Phase.objects.select_for_update().filter(game_id=game_id)
                 .exclude(status=Phase.Status.RESOLVED).first())
        game = Game.objects.select_for_update().get(pk=game_id)
        if (phase is None or phase.status != Phase.Status.OPEN or phase.setup or game.paused_at is not None
                or game.status != Game.Status.RUNNING):  # nobody is prodded in the setup stage (deck building)
            return done
        now = clock()
        options = game_activity_options(game)
        seats = list(game.seats.filter(alive=True, user__isnull=False).order_by("position"))
        if not seats:
            return done
        last = last_activity(game, seats)
        resting = resting_user_ids([s.user_id for s in seats], now)
        statuses = {r.seat_id: r for r in SeatStatus.objects.select_for_update().filter(seat__in=seats)}
        prod_after = hours(options["prod_after"])
        grace = hours(options["prod_grace"])
        for seat in seats:
            row = statuses.get(seat.pk) or status_for(seat)
            if row.prodded_at is not None and last[seat.pk] > row.prodded_at:  # active again since the prod
                row.prodded_at = None
                row.save(update_fields=["prodded_at"])
            if seat.user_id in resting or row.flagged_at is not None:
                continue
            if row.prodded_at is None:
                if now - last[seat.pk] >= prod_after:
                    row.prodded_at = now
                    row.prods += 1
                    row.save(update_fields=["prodded_at", "prods"])
                    done["prodded"].append(seat.pk)
                    LogEntry.objects.create(game=game, phase=phase, visibility="master", kind="core.prodded",
                                            data={"player": seat.display_name}, created_at=now)
                    transaction.on_commit(lambda s=seat.pk, n=row.prods, h=options["prod_after"]:
                                          signals.seat_prodded.send(sender=Seat, seat_id=s, prods=n, hours=h))
            elif now - row.prodded_at >= grace:
                row.flagged_at, row.flag = now, SeatStatus.Flag.IDLE
                row.save(update_fields=["flagged_at", "flag"])
                done["flagged"].append(seat.pk)
                LogEntry.objects.create(game=game, phase=phase, visibility="master", kind="core.flagged_idle",
                                        data={"player": seat.display_name}, created_at=now)
                if options["idle_kill"]:
                    _kill_idle(game, phase, seat, now)
                    done["killed"].append(seat.pk)
                    if game.is_over:  # won by that death: nothing more to do in this game
                        break
        return done


def _kill_idle(game: Game, phase: Phase, seat: Seat, now: datetime) -> None:
    """Kill a seat flagged for being quiet, as the module announces a death by the master (``idle_kill``); a game
    won by it ends as a resolution ends it."""
    from django.db.models import F

    from .resolution import game_finish

    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
    others = [seat_info(s) for s in game.seats.order_by("position")]
    state, events, outcome = game.game_module.master_set_alive(state=game.state, phase=info, seat=seat_info(seat),
                                                               seats=others, alive=False)
    Seat.objects.filter(pk=seat.pk).update(alive=False, version=F("version") + 1)
    game.state = state
    entries = [log_entry(game, phase, e, now) for e in events]
    # The reliability record's event (gm.community counts it as a modkill, like the master's kill).
    entries.append(log_entry(game, phase, Event("core.idle_killed", {"player": seat.display_name, "seat": seat.pk},
                                                visibility="master"), now))
    signals.seat_modkilled.send(sender=Seat, game=game, seat=seat, now=now)
    if outcome is not None:
        entries.append(game_finish(game=game, outcome=outcome, phase=phase, now=now))
    game.save(update_fields=["state", "status", "finished_at", "outcome"])
    LogEntry.objects.bulk_create(entries)


#: Where the activity sweep's round-robin keeps the id of the last game its latest tick swept (Django's cache: a hint,
#: not the truth — losing it only starts the round again from the first game).
ACTIVITY_CURSOR_KEY = "gm:activity-sweep:after"


def activity_sweep(*, clock: Clock = timezone.now, limit: int | None = None) -> dict[str, list[int]]:
    """The whole activity sweep in one call, batch after batch (:func:`activity_sweep_batch`): :func:`sweep_game`
    for every running, unpaused game with an open phase, then the emergency pauses that are due end
    (``vacations.emergency_resume_due``). Returns what was done: ``prodded``/``flagged``/``killed`` seat ids and
    ``resumed`` pause ids."""
    from .vacations import emergency_resume_due

    report: dict[str, list[int]] = {"prodded": [], "flagged": [], "killed": [], "resumed": []}
    for batch in sweeps.walk(lambda after: activity_sweep_batch(clock=clock, limit=limit, after=after)):
        for key, ids in batch.items():
            report[key] += ids
    report["resumed"] = emergency_resume_due(clock=clock)
    return report


def activity_sweep_tick(*, clock: Clock = timezone.now, limit: int | None = None) -> dict[str, list[int]]:
    """Beat's activity sweep (every ``GM_ACTIVITY_INTERVAL`` seconds): :func:`sweep_game` for the next ``limit``
    (default ``GM_SWEEP_BATCH``) games of a round-robin over the running, unpaused games with an open phase — after
    the game the previous tick swept last (:data:`ACTIVITY_CURSOR_KEY`), going on from the first game when the
    round ends — then the emergency pauses that are due end. With G games each game is swept once every
    ceil(G / limit) ticks, so a prod due after ``prod_after`` hours goes out at most that many intervals late, and
    a tick costs the same however many games run (issue 25 goal 4; the sweep used to take the same first 200 games
    at every tick, and the games after them were never swept). Returns the report of :func:`activity_sweep`."""
    from django.core.cache import cache

    from .vacations import emergency_resume_due

    limit = limit or settings.GM_SWEEP_BATCH
    after = cache.get(ACTIVITY_CURSOR_KEY)
    if not isinstance(after, int):
        after = None  # none yet, or not ours: the round starts again
    ids, resume = sweeps.batch_by_id(_sweepable_game_ids(), limit=limit, after=after)
    if resume is None and after is not None and len(ids) < limit:
        # The round ended inside this batch: the rest of it comes from the round's start, up to where it began.
        more, resume = sweeps.batch_by_id(_sweepable_game_ids().filter(pk__lte=after), limit=limit - len(ids))
        ids += more
    report = _sweep_games(ids, clock)
    cache.set(ACTIVITY_CURSOR_KEY, resume, timeout=None)
    report["resumed"] = emergency_resume_due(clock=clock)
    return report


def activity_sweep_batch(*, clock: Clock = timezone.now, limit: int | None = None,
                         after: int | None = None) -> tuple[dict[str, list[int]], int | None]:
    """One batch of the activity sweep: :func:`sweep_game` for at most ``limit`` (default ``GM_SWEEP_BATCH``)
    running, unpaused games with an open phase whose id is above ``after`` (``None``: from the first). Returns the
    report (as :func:`activity_sweep`'s, ``resumed`` empty) and the cursor of the next batch
    (``gm.core.sweeps.batch_by_id``; ``None``: that was the last). Raises ``ValueError`` for a malformed ``after``."""
    ids, resume = sweeps.batch_by_id(_sweepable_game_ids(), limit=limit or settings.GM_SWEEP_BATCH, after=after)
    return _sweep_games(ids, clock), resume


def _sweepable_game_ids():
    return (Game.objects.filter(status=Game.Status.RUNNING, paused_at__isnull=True, phases__status=Phase.Status.OPEN)
            .values_list("pk", flat=True))


def _sweep_games(ids, clock: Clock) -> dict[str, list[int]]:
    report: dict[str, list[int]] = {"prodded": [], "flagged": [], "killed": [], "resumed": []}
    for game_id in ids:
        for key, seat_ids in sweep_game(game_id=game_id, clock=clock).items():
            report[key] += seat_ids
    return report


def activity_rows(game: Game) -> dict[int, dict[str, Any]]:
    """Seat id → ``{"role_read", "prodded", "flagged", "flag", "extensions_used"}`` for the master's console (one
    query). Seats without a status row are missing: nothing happened to them yet."""
    return {r.seat_id: {"role_read": r.role_read_at, "prodded": r.prodded_at, "flagged": r.flagged_at,
                        "flag": r.flag, "flag_label": r.get_flag_display() if r.flag else "",
                        "extensions_used": r.extensions_used, "prods": r.prods}
            for r in SeatStatus.objects.filter(game=game)}
