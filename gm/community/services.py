"""Community writes (issue 24 items 2 and 3): keyword-only and atomic.

* :func:`record_game_end` (the core's ``game_finished``), :func:`record_handover` (``seat_replaced``) and
  :func:`record_modkill` (``seat_modkilled``) keep the reliability counters and the statistics up to date in the
  transaction of the event, each in time that depends on the one game only (its seats, tenures and phases), never
  on how many games the site has: counters are added with one ``INSERT … ON CONFLICT DO UPDATE`` per table.
* :func:`reliability_recompute` and :func:`stats_recompute` rebuild the same figures from the core's events (games,
  tenures, orders, the audit log and the idle-kill log lines) by a full scan; :func:`reliability_rebuild` and
  :func:`stats_rebuild` store them (``manage.py gm_community_recompute``).
* :func:`signup_check` refuses a signup that breaks the game's :class:`~.models.SignupRequirement` or an active
  ``no_signup`` sanction, naming each requirement that fails.
* :func:`warning_give` / :func:`warning_revoke` (staff) and :func:`requirement_set` (the game's master).
"""
from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from gm.core.engine import SeatInfo
from gm.core.models import AuditEntry, Game, LogEntry, Order, Phase, Seat
from gm.core.models_life import Tenure
from gm.core.services import Clock, ServiceError, audit_write, require_master
from gm.core.services.replacements import seat_had_action

from . import selectors
from .models import PlayerGame, Reliability, Sanction, SanctionLevel, SetupStat, SignupRequirement, WarningPoint

logger = logging.getLogger("gm.community")

#: The reliability counters, in the order of :class:`~.models.Reliability`'s fields.
COUNTERS = ("finished", "replaced_out", "modkilled", "missed_orders", "action_phases")
#: The statistics' summed columns.
STAT_COLUMNS = ("games", "wins", "draws", "phases", "seconds")


# ------------------------------------------------------------------------------------------ tenures, figures

@dataclass(frozen=True)
class TenureFigures:
    """One player's time on one seat with its figures: ``action_phases`` resolved phases in which the seat had
    something to order, ``missed`` those without an order that counted. ``ended_at`` ``None``: still his."""

    seat_id: int
    user_id: int
    started_at: datetime
    ended_at: datetime | None
    action_phases: int
    missed: int


def game_tenures(game: Game, *, seat_id: int | None = None) -> list[TenureFigures]:
    """Every tenure of ``game`` (of one seat with ``seat_id``) with its figures, in seat and time order. A seat never
    handed over has one tenure from the game's start (as ``gm.core.services.replacements.tenure_records`` counts
    them); a phase belongs to the tenure that was running when it was resolved (start excluded, end included).
    Four queries and the module's pure ``has_legal_action`` per phase and seat."""
    seats = {s.pk: s for s in (game.seats.filter(pk=seat_id) if seat_id is not None else game.seats.all())}
    spans: dict[int, list[tuple[int, datetime, datetime | None]]] = defaultdict(list)
    for t in Tenure.objects.filter(seat__in=list(seats)).order_by("started_at", "pk"):
        spans[t.seat_id].append((t.user_id, t.started_at, t.ended_at))
    for seat in seats.values():
        if seat.pk not in spans and seat.user_id is not None:
            spans[seat.pk] = [(seat.user_id, game.started_at or seat.joined_at, None)]
    phases = list(Phase.objects.filter(game=game, status=Phase.Status.RESOLVED, setup=False,
                                       resolved_at__isnull=False).order_by("ordinal"))
    counted: dict[tuple[int, int], bool] = {}
    for phase_id, sid, payload in (Order.objects.filter(phase__in=phases, seat__in=list(seats))
                                   .order_by("phase_id", "seat_id", "version")
                                   .values_list("phase_id", "seat_id", "payload")):
        counted[(phase_id, sid)] = payload is not None
    module = game.game_module
    out = []
    for sid in sorted(spans):
        seat = seats[sid]
        acting = {p.pk for p in phases if not counted.get((p.pk, sid)) and seat_had_action(module, p, seat)}
        had = {p.pk for p in phases if counted.get((p.pk, sid))} | acting
        for user_id, start, end in spans[sid]:
            mine = [p for p in phases if p.resolved_at > start and (end is None or p.resolved_at <= end)]
            action = sum(1 for p in mine if p.pk in had)
            missed = sum(1 for p in mine if p.pk in acting)
            out.append(TenureFigures(sid, user_id, start, end, action, missed))
    return out


def _upsert_add(model, keys: Sequence[str], columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> None:
    """Add ``rows`` (dicts of ``keys`` and ``columns``) to ``model``'s table in one statement: a new key is inserted,
    an existing one has each column incremented (``INSERT … ON CONFLICT (keys) DO UPDATE SET c = t.c +
    EXCLUDED.c``), so concurrent game ends never lose an increment."""
    rows = list(rows)
    if not rows:
        return
    table = connection.ops.quote_name(model._meta.db_table)
    cols = list(keys) + list(columns)
    names = ", ".join(connection.ops.quote_name(model._meta.get_field(c).column) for c in cols)
    values = ", ".join(["(" + ", ".join(["%s"] * len(cols)) + ")"] * len(rows))
    conflict = ", ".join(connection.ops.quote_name(model._meta.get_field(c).column) for c in keys)
    sets = ", ".join(f"{q} = {table}.{q} + EXCLUDED.{q}"
                     for q in (connection.ops.quote_name(model._meta.get_field(c).column) for c in columns))
    params = [row[c] for row in rows for c in cols]
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {table} ({names}) VALUES {values} ON CONFLICT ({conflict}) DO UPDATE SET {sets}",
                       params)


def _bump(counts: Mapping[int, Mapping[str, int]]) -> None:
    """Add ``counts`` (user id → counter → amount) to the users' :class:`~.models.Reliability` rows."""
    rows = [{"user": uid, **{c: int(add.get(c, 0)) for c in COUNTERS}} for uid, add in sorted(counts.items())]
    _upsert_add(Reliability, ["user"], COUNTERS, rows)


# ------------------------------------------------------------------------------------------- statistics

def abandoned(game: Game, last: Phase | None = None) -> bool:
    """Whether a game is left out of the statistics: aborted (by its master), or finished by a resolution whose
    engine gave no result at all (``Phase.result["outcome"]`` ``None`` on ``last``, its last phase; read from the
    database when not given). A game its rules end with nobody winning (``Outcome([])``) or a draw is counted."""
    if game.status != Game.Status.FINISHED:
        return True
    if last is None:
        last = Phase.objects.filter(game=game).order_by("-ordinal").only("result").first()
    result = last.result if last is not None else None
    return isinstance(result, dict) and "outcome" in result and result["outcome"] is None


@dataclass(frozen=True)
class GameFacts:
    """What the statistics take from one finished game: ``players``, ``setup`` (role slugs joined by ``+``),
    ``phases`` (its phase count), ``seconds`` (start to end), ``draw``, and per seat id ``(side, role, won)``."""

    players: int
    setup: str
    phases: int
    seconds: int
    draw: bool
    seats: Mapping[int, tuple[str, str, bool]]


def game_facts(game: Game, *, seats: Sequence[Seat], phases: int) -> GameFacts:
    """The finished ``game``'s facts from the module's pure ``final_results`` (revealed facts only: the game is
    over)."""
    outcome = game.outcome or {}
    infos = [SeatInfo(id=s.pk, name=s.display_name, position=s.position, alive=s.alive, data=s.data or {})
             for s in seats]
    results = game.game_module.final_results(state=game.state or {}, seats=infos, outcome=outcome,
                                             options=game.options or {})
    seconds = (max(0, int((game.finished_at - game.started_at).total_seconds()))
               if game.finished_at and game.started_at else 0)
    return GameFacts(players=len(seats), setup="+".join(results.setup)[:1000], phases=phases, seconds=seconds,
                     draw=bool(outcome.get("draw")),
                     seats={r.seat_id: (r.side[:60], r.role[:60], bool(r.won)) for r in results.seats})


def stat_rows(module: str, facts: GameFacts) -> list[dict]:
    """The :class:`~.models.SetupStat` increments of one game: its ``game`` row, one row per side (a side won if
    any of its seats won) and one per role (counted per seat). Sides and roles ``""`` (unknown) are left out."""
    base = {"module": module, "players": facts.players, "setup": facts.setup}
    length = {"phases": facts.phases, "seconds": facts.seconds}
    draw = int(facts.draw)
    rows = [{**base, "kind": SetupStat.Kind.GAME, "key": "", "games": 1, "wins": 0, "draws": draw, **length}]
    sides: dict[str, bool] = {}
    roles: dict[str, list[int]] = {}
    for side, role, won in facts.seats.values():
        if side:
            sides[side] = sides.get(side, False) or won
        if role:
            tally = roles.setdefault(role, [0, 0])
            tally[0] += 1
            tally[1] += int(won)
    for side, won in sorted(sides.items()):
        rows.append({**base, "kind": SetupStat.Kind.SIDE, "key": side, "games": 1, "wins": int(won), "draws": draw,
                     **length})
    for role, (n, wins) in sorted(roles.items()):
        rows.append({**base, "kind": SetupStat.Kind.ROLE, "key": role, "games": n, "wins": wins, "draws": n * draw,
                     "phases": n * facts.phases, "seconds": n * facts.seconds})
    return rows


def _history_rows(game: Game, facts: GameFacts, tenures: Sequence[TenureFigures]) -> list[PlayerGame]:
    rows = []
    for t in tenures:
        side, role, won = facts.seats.get(t.seat_id, ("", "", False))
        if t.ended_at is not None:
            result = PlayerGame.Result.REPLACED
        elif facts.draw:
            result = PlayerGame.Result.DRAW
        else:
            result = PlayerGame.Result.WON if won else PlayerGame.Result.LOST
        rows.append(PlayerGame(user_id=t.user_id, game=game, seat_id=t.seat_id, module=game.module,
                               players=facts.players, setup=facts.setup, side=side, role=role, result=result,
                               phases=facts.phases, seconds=facts.seconds, finished_at=game.finished_at))
    return rows


# ------------------------------------------------------------------------------------- incremental hooks

def record_game_end(*, game: Game, phase: Phase) -> None:
    """At the end of ``game`` (inside the transaction that finishes it, ``phase`` its last phase): each player
    still on a seat gets a finished game and his tenure's figures; unless the game is abandoned, the statistics'
    rows of its module, setup, sides and roles are incremented and each tenure's history line written. Time and
    queries depend on this game only. A failure is logged and never stops the game from finishing (savepoint)."""
    try:
        with transaction.atomic():
            tenures = game_tenures(game)
            counts: dict[int, dict[str, int]] = defaultdict(dict)
            for t in tenures:
                if t.ended_at is None:
                    row = counts[t.user_id]
                    row["finished"] = row.get("finished", 0) + 1
                    row["missed_orders"] = row.get("missed_orders", 0) + t.missed
                    row["action_phases"] = row.get("action_phases", 0) + t.action_phases
            _bump(counts)
            if abandoned(game, phase):
                return
            seats = list(game.seats.order_by("position"))
            facts = game_facts(game, seats=seats, phases=phase.ordinal)
            _upsert_add(SetupStat, ["module", "players", "setup", "kind", "key"], STAT_COLUMNS,
                        stat_rows(game.module, facts))
            PlayerGame.objects.bulk_create(_history_rows(game, facts, tenures))
    except Exception:  # noqa: BLE001 - the statistics must never keep a game from ending; recompute repairs them
        logger.exception("community: recording the end of game %s failed", game.pk)


def record_handover(*, seat: Seat, old_user) -> None:
    """``seat`` passed from ``old_user`` to another player (inside the handover's transaction, after the core wrote
    the tenures): the old player is counted as replaced out, with his tenure's figures."""
    if old_user is None:
        return
    game = Game.objects.get(pk=seat.game_id)
    mine = [t for t in game_tenures(game, seat_id=seat.pk) if t.user_id == old_user.pk and t.ended_at is not None]
    if not mine:
        return
    last = max(mine, key=lambda t: t.ended_at)
    _bump({old_user.pk: {"replaced_out": 1, "missed_orders": last.missed, "action_phases": last.action_phases}})


def record_modkill(*, seat: Seat) -> None:
    """``seat``'s player was modkilled (the master's kill, the idle kill): one more on his record."""
    if seat.user_id is not None:
        _bump({seat.user_id: {"modkilled": 1}})


# -------------------------------------------------------------------------------------------- recompute

def _holder(spans: Sequence[TenureFigures], at: datetime) -> int | None:
    """The user on the seat at ``at``: the latest tenure started by then (a handover at the very moment counts)."""
    best = None
    for t in spans:
        if t.started_at <= at and (t.ended_at is None or t.ended_at >= at):
            if best is None or t.started_at >= best.started_at:
                best = t
    return best.user_id if best is not None else None


def reliability_recompute() -> dict[int, dict[str, int]]:
    """Every player's reliability record rebuilt from the core's events by a full scan (user id → counters; users
    with nothing are left out): finished games from the finished games' last tenures, replaced-out seats and their
    figures from the ended tenures, missed orders per tenure from the phases and order versions, modkills from
    the audit log's ``kill`` entries and the ``core.idle_killed`` log lines (the player on the seat at that moment).
    Must equal the incremental counters (tested on bot games)."""
    out: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COUNTERS, 0))
    kills: dict[int, list[datetime]] = defaultdict(list)
    for seat_id, at in AuditEntry.objects.filter(action="kill").values_list("data__seat", "created_at"):
        if isinstance(seat_id, int):
            kills[seat_id].append(at)
    for seat_id, at in LogEntry.objects.filter(kind="core.idle_killed").values_list("data__seat", "created_at"):
        if isinstance(seat_id, int):
            kills[seat_id].append(at)
    killed_games = set(Seat.objects.filter(pk__in=list(kills)).values_list("game_id", flat=True))
    games = Game.objects.filter(Q(status=Game.Status.FINISHED) | Q(seats__tenures__ended_at__isnull=False)
                                | Q(pk__in=killed_games)).distinct().order_by("pk")
    for game in games.iterator():
        tenures = game_tenures(game)
        by_seat: dict[int, list[TenureFigures]] = defaultdict(list)
        for t in tenures:
            by_seat[t.seat_id].append(t)
            if t.ended_at is not None:
                row = out[t.user_id]
                row["replaced_out"] += 1
            elif game.status == Game.Status.FINISHED:
                row = out[t.user_id]
                row["finished"] += 1
            else:
                continue
            row["missed_orders"] += t.missed
            row["action_phases"] += t.action_phases
        for seat_id, spans in by_seat.items():
            for at in kills.get(seat_id, []):
                user_id = _holder(spans, at)
                if user_id is not None:
                    out[user_id]["modkilled"] += 1
    return {uid: dict(row) for uid, row in out.items() if any(row.values())}


def reliability_stored() -> dict[int, dict[str, int]]:
    """The incremental counters as they are stored (user id → counters; all-zero rows left out)."""
    stored = {}
    for row in Reliability.objects.all():
        counts = {c: getattr(row, c) for c in COUNTERS}
        if any(counts.values()):
            stored[row.user_id] = counts
    return stored


def reliability_rebuild() -> int:
    """Replace every stored reliability record by :func:`reliability_recompute`'s; returns how many rows differed."""
    with transaction.atomic():
        fresh = reliability_recompute()
        differ = sum(1 for uid in set(fresh) | set(reliability_stored())
                     if fresh.get(uid) != reliability_stored().get(uid))
        Reliability.objects.all().delete()
        Reliability.objects.bulk_create([Reliability(user_id=uid, **row) for uid, row in fresh.items()])
        return differ


def stats_recompute() -> tuple[dict[tuple, dict[str, int]], list[tuple]]:
    """The statistics rebuilt by a full scan of the finished, not abandoned games: ``(rows, history)`` — ``rows``
    maps ``(module, players, setup, kind, key)`` to the summed columns, ``history`` is the sorted list of history
    lines ``(user id, game id, seat id, side, role, result, phases, seconds)``."""
    rows: dict[tuple, dict[str, int]] = {}
    history: list[tuple] = []
    finished = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
    for game in finished.iterator():
        if abandoned(game):
            continue
        seats = list(game.seats.order_by("position"))
        last = Phase.objects.filter(game=game).order_by("-ordinal").values_list("ordinal", flat=True).first() or 0
        facts = game_facts(game, seats=seats, phases=last)
        for row in stat_rows(game.module, facts):
            key = (row["module"], row["players"], row["setup"], row["kind"], row["key"])
            total = rows.setdefault(key, dict.fromkeys(STAT_COLUMNS, 0))
            for c in STAT_COLUMNS:
                total[c] += row[c]
        for line in _history_rows(game, facts, game_tenures(game)):
            history.append(_history_key(line))
    return rows, sorted(history)


def _history_key(line: PlayerGame) -> tuple:
    return (line.user_id, line.game_id, line.seat_id, line.side, line.role, line.result, line.phases, line.seconds)


def stats_stored() -> tuple[dict[tuple, dict[str, int]], list[tuple]]:
    """The incremental statistics as stored, in :func:`stats_recompute`'s shape."""
    rows = {(r.module, r.players, r.setup, r.kind, r.key): {c: getattr(r, c) for c in STAT_COLUMNS}
            for r in SetupStat.objects.all()}
    return rows, sorted(_history_key(line) for line in PlayerGame.objects.all())


def stats_rebuild() -> None:
    """Replace the stored statistics and history by a full recompute (``manage.py gm_community_recompute --fix``)."""
    with transaction.atomic():
        SetupStat.objects.all().delete()
        PlayerGame.objects.all().delete()
        for game in Game.objects.filter(status=Game.Status.FINISHED).order_by("pk").iterator():
            if abandoned(game):
                continue
            seats = list(game.seats.order_by("position"))
            last = Phase.objects.filter(game=game).order_by("-ordinal").values_list("ordinal", flat=True).first() or 0
            facts = game_facts(game, seats=seats, phases=last)
            _upsert_add(SetupStat, ["module", "players", "setup", "kind", "key"], STAT_COLUMNS,
                        stat_rows(game.module, facts))
            PlayerGame.objects.bulk_create(_history_rows(game, facts, game_tenures(game)))


# -------------------------------------------------------------------------------------------- signups

def signup_check(*, game: Game, user, clock: Clock = timezone.now) -> None:
    """Refuse ``user``'s signup for ``game`` with every reason that applies (:class:`ServiceError` code
    ``requirements``, one message per failing requirement): an active ``no_signup`` sanction, and each of the game's
    :class:`~.models.SignupRequirement` lines his record breaks. Called by the core's ``seat_joining`` signal inside
    ``seat_join``'s transaction."""
    reasons = selectors.signup_refusals(game=game, user=user, now=clock())
    if reasons:
        raise ServiceError({"__all__": reasons}, code="requirements")


def _optional_int(value: Any, *, field: str, high: int, errors: dict[str, list[str]]) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        errors[field] = [_("A whole number from 0 to %(max)s, or empty for no requirement.") % {"max": high}]
        return None
    return value


def requirement_set(*, game: Game, actor, min_finished: Any = None, max_missed_percent: Any = None,
                    max_modkilled: Any = None, no_sanction: Any = False, reason: str = "",
                    clock: Clock = timezone.now) -> SignupRequirement:
    """The master sets what ``game`` asks of a player's record to sign up (audited as ``signup_requirements``):
    ``min_finished`` (0–1000 finished games), ``max_missed_percent`` (0–100, missed orders per phase with something
    to order), ``max_modkilled`` (0–1000), ``no_sanction`` (bool); ``None`` clears a requirement. Only before the
    game starts (draft or signup); players already seated keep their seats. Raises :class:`ServiceError`
    ``forbidden``, ``state``, ``invalid`` (field errors). Nothing changes on error."""
    require_master(game, actor)
    errors: dict[str, list[str]] = {}
    values = {"min_finished": _optional_int(min_finished, field="min_finished", high=1000, errors=errors),
              "max_missed_percent": _optional_int(max_missed_percent, field="max_missed_percent", high=100,
                                                  errors=errors),
              "max_modkilled": _optional_int(max_modkilled, field="max_modkilled", high=1000, errors=errors)}
    if not isinstance(no_sanction, bool):
        errors["no_sanction"] = [_("This option is true or false.")]
    if errors:
        raise ServiceError(errors)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.status not in (Game.Status.DRAFT, Game.Status.SIGNUP):
            raise ServiceError(_("Signup requirements can only be changed before the game starts."), code="state")
        row, _created = SignupRequirement.objects.update_or_create(game=game, defaults={**values,
                                                                                         "no_sanction": no_sanction})
        audit_write(game=game, actor=actor, action="signup_requirements", reason=reason, now=clock(),
                    data={**values, "no_sanction": no_sanction})
        return row


# ------------------------------------------------------------------------------------ warnings, sanctions

def _require_staff(actor) -> None:
    if not actor or not actor.is_authenticated or not actor.is_staff:
        raise ServiceError(_("Only staff give warning points."), code="forbidden")


def warning_give(*, actor, user: Any, points: Any, reason: Any, days: Any = None,
                 clock: Clock = timezone.now) -> WarningPoint:
    """Staff give ``user`` (a user or a username) ``points`` warning points (1–10) with a ``reason`` (required, at
    most 1000 characters) that expire after ``days`` days (1–730; default ``GM_WARNING_DAYS``). If his active points
    now reach a line of the published sanction table (:class:`~.models.SanctionLevel`) above any sanction he is
    already under, that sanction starts now for the table's days. Raises :class:`ServiceError` ``forbidden`` (not
    staff), ``invalid`` (field errors). Nothing changes on error."""
    _require_staff(actor)
    errors: dict[str, list[str]] = {}
    User = get_user_model()
    if isinstance(user, str):
        user = User.objects.filter(**{User.USERNAME_FIELD: user.strip()}).first() if user.strip() else None
    if user is None or not isinstance(user, User):
        errors["user"] = [_("No user has this name.")]
    if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= 10:
        errors["points"] = [_("From 1 to 10 points.")]
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        errors["reason"] = [_("Give a reason; the player reads it.")]
    elif len(text) > 1000:
        errors["reason"] = [_("At most %(max)s characters.") % {"max": 1000}]
    if days is None:
        days = settings.GM_WARNING_DAYS
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 730:
        errors["days"] = [_("From 1 to 730 days.")]
    if errors:
        raise ServiceError(errors)
    with transaction.atomic():
        User.objects.select_for_update().get(pk=user.pk)  # one warning at a time per player: one sanction decision
        now = clock()
        warning = WarningPoint.objects.create(user=user, points=points, reason=text, given_by=actor, created_at=now,
                                              expires_at=now + timedelta(days=days))
        total = selectors.active_points(user, now)
        level = SanctionLevel.objects.filter(points__lte=total).order_by("-points").first()
        if level is not None and not Sanction.objects.filter(user=user, ends_at__gt=now,
                                                             points__gte=level.points).exists():
            Sanction.objects.create(user=user, warning=warning, points=level.points, kind=level.kind, starts_at=now,
                                    ends_at=now + timedelta(days=level.days))
        return warning


def warning_revoke(*, actor, warning_id: Any, clock: Clock = timezone.now) -> WarningPoint:
    """Staff revoke warning ``warning_id``: it stops counting now, and a sanction it brought ends now. Raises
    :class:`ServiceError` ``forbidden``, ``not_found``, ``state`` (revoked already)."""
    _require_staff(actor)
    if isinstance(warning_id, bool) or not isinstance(warning_id, int):
        raise ServiceError({"warning": [_("Choose a warning.")]})
    with transaction.atomic():
        warning = WarningPoint.objects.select_for_update().filter(pk=warning_id).first()
        if warning is None:
            raise ServiceError({"warning": [_("There is no such warning.")]}, code="not_found")
        if warning.revoked_at is not None:
            raise ServiceError(_("This warning is revoked already."), code="state")
        now = clock()
        warning.revoked_at = now
        warning.save(update_fields=["revoked_at"])
        Sanction.objects.filter(warning=warning, ends_at__gt=now).update(ends_at=now)
        return warning
