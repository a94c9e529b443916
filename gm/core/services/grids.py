"""Deadline grids (issue 23, item 7): where a game's deadlines may fall.

A master may set, per game (:class:`~gm.core.models.GameLife`), in his own time zone (``grid_zone``):

* a fixed time of day (``grid_time``, e.g. 20:00 Europe/Moscow), for every phase kind or only the kinds listed in
  ``grid_kinds``: a phase that opens gets the grid point nearest to "now + its duration", but never less than half
  its duration away (:func:`phase_deadline`);
* quiet hours (``quiet_start``–``quiet_end``, may wrap over midnight) and blocked dates (``blocked_dates``) where no
  deadline falls: a deadline there moves to the next allowed time (the end of the quiet hours; the next free day at
  the grid time, or at midnight) (:func:`allowed`);
* the reminder lead table (``reminder_table``): without a reminder of the master's own (``gm.inbox``'s
  ``GameReminder``), players who have not acted are reminded :func:`reminder_lead` before each deadline.

Extensions and pauses keep the grid (:func:`keep`): a deadline moved by an extension or a resumed pause goes on to
the next grid point and out of quiet hours and blocked dates. An outage's shift (``services.outage``) does not: it
gives back exactly the time lost plus the grace.

Everyone sees the grid on the game page before the game starts, with the times in his own zone
(:func:`grid_summary`). :func:`grid_set` is the master's service.
"""
from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Game, GameLife, Phase, life_of
from .base import Clock, ServiceError, audit_write, require_master

#: The published reminder lead table: (longest phase length, lead). A phase up to 1 h is reminded 15 min before its
#: deadline, up to 47 h 1 h before, up to 6 days 2 h before, longer ones 4 h before.
LEAD_TABLE: list[tuple[timedelta, timedelta]] = [
    (timedelta(hours=1), timedelta(minutes=15)),
    (timedelta(hours=47), timedelta(hours=1)),
    (timedelta(days=6), timedelta(hours=2)),
    (timedelta.max, timedelta(hours=4)),
]

#: How many blocked dates a game may list.
MAX_BLOCKED_DATES = 60


def reminder_lead(length: timedelta) -> timedelta:
    """The reminder lead for a phase ``length`` long by :data:`LEAD_TABLE` (1 h → 15 min; 24 h → 1 h; 48–96 h →
    2 h; a week → 4 h)."""
    for longest, lead in LEAD_TABLE:
        if length <= longest:
            return lead
    return LEAD_TABLE[-1][1]  # pragma: no cover - timedelta.max catches everything


def grid_zone(game: Game, life: GameLife | None = None) -> zoneinfo.ZoneInfo:
    """The zone the grid is read in: the grid's own, else the master's, else the site default."""
    life = life or life_of(game)
    name = life.grid_zone
    if not name:
        profile = getattr(game.master, "profile", None)
        name = getattr(profile, "time_zone", None) or settings.GM_DEFAULT_USER_TIME_ZONE
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.GM_DEFAULT_USER_TIME_ZONE)


def has_grid(life: GameLife) -> bool:
    return bool(life.grid_time or (life.quiet_start and life.quiet_end) or life.blocked_dates)


def _grid_applies(life: GameLife, kind: str | None) -> bool:
    return life.grid_time is not None and (not life.grid_kinds or kind is None or kind in life.grid_kinds)


def _in_quiet(life: GameLife, local: datetime) -> bool:
    start, end = life.quiet_start, life.quiet_end
    if start is None or end is None or start == end:
        return False
    t = local.time()
    return start <= t < end if start < end else (t >= start or t < end)


def _at(day: date, when: time, zone) -> datetime:
    """``when`` on ``day`` in ``zone`` (a time that does not exist there, in a DST gap, moves forward with it)."""
    return datetime.combine(day, when, tzinfo=zone).astimezone(zone)


def allowed(game: Game, moment: datetime, *, kind: str | None = None) -> datetime:
    """The first allowed deadline at or after ``moment`` (aware): out of quiet hours and off blocked dates; a
    deadline moved to another day lands on the grid time when the grid applies to ``kind``."""
    life = life_of(game)
    if not has_grid(life):
        return moment
    zone = grid_zone(game, life)
    blocked = {str(d) for d in life.blocked_dates or []}
    local = moment.astimezone(zone)
    for _step in range(MAX_BLOCKED_DATES + 3):
        if local.date().isoformat() in blocked:
            next_day = local.date() + timedelta(days=1)
            local = _at(next_day, life.grid_time if _grid_applies(life, kind) else time(0, 0), zone)
            continue
        if _in_quiet(life, local):
            end = life.quiet_end
            day = local.date() if local.time() < end else local.date() + timedelta(days=1)
            local = _at(day, end, zone)
            continue
        break
    return local.astimezone(moment.tzinfo or timezone.utc)


def phase_deadline(game: Game, *, kind: str, now: datetime, seconds: float) -> datetime:
    """The deadline of a phase of ``kind`` opening at ``now`` for ``seconds``: ``now + seconds`` moved to the grid
    point nearest to it (at least half the duration after ``now``) when the grid applies, then :func:`allowed`."""
    deadline = now + timedelta(seconds=seconds)
    life = life_of(game)
    if not has_grid(life):
        return deadline
    if _grid_applies(life, kind):
        zone = grid_zone(game, life)
        local = deadline.astimezone(zone)
        earliest = now + timedelta(seconds=seconds / 2)
        points = [_at(local.date() + timedelta(days=d), life.grid_time, zone) for d in (-1, 0, 1, 2)]
        fit = [p for p in points if p >= earliest and p > now]
        deadline = min(fit, key=lambda p: (abs((p - deadline).total_seconds()), p)).astimezone(deadline.tzinfo)
    return allowed(game, deadline, kind=kind)


def keep(game: Game, moment: datetime, *, kind: str) -> datetime:
    """A deadline moved to ``moment`` (an extension, a resumed pause) kept on the grid: the next grid point at or
    after it when the grid applies to ``kind``, then :func:`allowed`."""
    life = life_of(game)
    if not has_grid(life):
        return moment
    if _grid_applies(life, kind):
        zone = grid_zone(game, life)
        local = moment.astimezone(zone)
        point = _at(local.date(), life.grid_time, zone)
        if point < moment:
            point = _at(local.date() + timedelta(days=1), life.grid_time, zone)
        moment = point.astimezone(moment.tzinfo)
    return allowed(game, moment, kind=kind)


def _parse_dates(raw: Any) -> list[str]:
    if raw in (None, ""):
        return []
    items = raw.replace(",", " ").split() if isinstance(raw, str) else raw
    if not isinstance(items, list | tuple):
        raise ServiceError({"blocked_dates": [_("List dates as YYYY-MM-DD, separated by spaces or commas.")]})
    out = set()
    for item in items:
        try:
            out.add(date.fromisoformat(str(item).strip()).isoformat())
        except ValueError:
            raise ServiceError({"blocked_dates": [
                _("“%(value)s” is not a date (YYYY-MM-DD).") % {"value": str(item)[:20]}]}) from None
    if len(out) > MAX_BLOCKED_DATES:
        raise ServiceError({"blocked_dates": [_("At most %(n)s blocked dates.") % {"n": MAX_BLOCKED_DATES}]})
    return sorted(out)


def grid_set(*, game: Game, actor, grid_time: time | None = None, zone: str = "", kinds: list[str] | None = None,
             quiet_start: time | None = None, quiet_end: time | None = None, blocked_dates: Any = None,
             reminder_table: bool = False, reason: str = "", clock: Clock = timezone.now) -> GameLife:
    """Set ``game``'s deadline grid (master only; audited as ``grid``). Applies to every deadline set from now on
    (phases that open, extensions, resumed pauses); the open phase keeps its deadline.

    ``grid_time``: the time of day deadlines fall at (``None``: none); ``zone``: an IANA zone name ("" = the
    master's); ``kinds``: phase kinds the time applies to ([] = all; each must be one of the module's
    ``default_durations`` kinds); ``quiet_start``/``quiet_end``: both or neither, not equal, and the grid time not
    inside them; ``blocked_dates``: ISO dates (a list, or a string separated by spaces or commas), at most
    :data:`MAX_BLOCKED_DATES`; ``reminder_table``: remind by :data:`LEAD_TABLE` when no reminder of the master's is
    set. Raises :class:`ServiceError` ``forbidden`` (not the master), ``state`` (game over) or field errors; nothing
    is saved then.
    """
    require_master(game, actor)
    errors: dict[str, list[str]] = {}
    if zone:
        try:
            zoneinfo.ZoneInfo(zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            errors["zone"] = [_("Unknown time zone.")]
    known = set(game.game_module.default_durations)
    kinds = list(kinds or [])
    if any(k not in known for k in kinds):
        errors["kinds"] = [_("Choose among this game's phase kinds: %(kinds)s.") % {"kinds": ", ".join(sorted(known))}]
    if (quiet_start is None) != (quiet_end is None):
        errors["quiet_end"] = [_("Give both ends of the quiet hours, or neither.")]
    elif quiet_start is not None and quiet_start == quiet_end:
        errors["quiet_end"] = [_("The quiet hours must not start and end at the same time.")]
    try:
        dates = _parse_dates(blocked_dates)
    except ServiceError as exc:
        errors.update(exc.errors)
        dates = []
    probe = GameLife(game=game, grid_time=grid_time, quiet_start=quiet_start, quiet_end=quiet_end)
    if grid_time is not None and not errors and _in_quiet(probe, datetime.combine(date(2000, 1, 1), grid_time)):
        errors["grid_time"] = [_("The deadline time falls in the quiet hours.")]
    if errors:
        raise ServiceError(errors)
    with transaction.atomic():
        Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.is_over:
            raise ServiceError(_("The game is over."), code="state")
        life, _created = GameLife.objects.get_or_create(game=game)
        life.grid_time, life.grid_zone, life.grid_kinds = grid_time, zone, kinds
        life.quiet_start, life.quiet_end, life.blocked_dates = quiet_start, quiet_end, dates
        life.reminder_table = bool(reminder_table)
        life.save()
        data = {"grid_time": grid_time.strftime("%H:%M") if grid_time else None, "zone": zone, "kinds": kinds,
                "quiet": [quiet_start.strftime("%H:%M"), quiet_end.strftime("%H:%M")] if quiet_start else None,
                "blocked_dates": dates, "reminder_table": life.reminder_table}
        audit_write(game=game, actor=actor, action="grid", reason=reason, data=data, now=clock())
    game._life_cache = life
    return life


def grid_summary(game: Game) -> dict | None:
    """What the game page shows of the grid (``None`` without one), times in the active (viewer's) zone too:
    ``{"time", "zone", "local_time", "kinds", "quiet", "local_quiet", "blocked", "lead_table", "reminder_table"}``."""
    life = life_of(game)
    if not has_grid(life) and not life.reminder_table:
        return None
    zone = grid_zone(game, life)
    viewer_zone = timezone.get_current_timezone()
    today = timezone.now().astimezone(zone).date()

    def local(t: time | None) -> str:
        return _at(today, t, zone).astimezone(viewer_zone).strftime("%H:%M") if t else ""

    module = game.game_module
    return {
        "time": life.grid_time.strftime("%H:%M") if life.grid_time else "",
        "zone": str(zone), "viewer_zone": str(viewer_zone), "local_time": local(life.grid_time),
        "kinds": [module.phase_label(k, 1).rstrip(" 1") for k in life.grid_kinds],
        "quiet": (f"{life.quiet_start:%H:%M}–{life.quiet_end:%H:%M}" if life.quiet_start and life.quiet_end else ""),
        "local_quiet": (f"{local(life.quiet_start)}–{local(life.quiet_end)}"
                        if life.quiet_start and life.quiet_end else ""),
        "blocked": list(life.blocked_dates or []),
        "reminder_table": life.reminder_table,
        "lead_table": LEAD_TABLE,
    }
