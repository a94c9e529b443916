"""Outage protection (issue 23, item 8): a site that was down must not resolve the phases whose deadlines passed
while nobody could act.

The deadline sweep (:func:`gm.core.services.phases.phases_sweep`) records each successful run in
:class:`~gm.core.models.SweepMark` (``phases``). When a sweep starts and finds the last success older than
``GM_OUTAGE_AFTER`` seconds, :func:`outage_recover` runs first, before anything resolves: every open phase of a
running game whose deadline fell in the gap (after the last success, not after now) moves by the gap plus
``GM_OUTAGE_GRACE`` seconds (its ``base_deadline`` too: this is not a master's extension and spends none of his
cap); a held result whose auto-publish time fell in the gap moves the same way; every running game gets a public
``core.outage`` line (``core.outage_shifted`` with its new deadline when its phase moved); the
:class:`~gm.core.models.Outage` row is what the master's console shows. The ETA deadline task defers to the sweep
while the mark is stale (:func:`sweep_stale`), so a queued task that fires at recovery resolves nothing early.

With ``GM_OUTAGE_AFTER`` unset (``None`` or 0) the protection is off.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from ..models import Game, LogEntry, Outage, Phase, SweepMark
from .base import Clock, schedule_deadline

#: the name of the deadline sweep's mark.
SWEEP = "phases"


def outage_after() -> timedelta | None:
    """The longest gap between two sweeps that is not an outage (``GM_OUTAGE_AFTER``), ``None`` when off."""
    seconds = getattr(settings, "GM_OUTAGE_AFTER", None)
    return timedelta(seconds=seconds) if seconds else None


def outage_grace() -> timedelta:
    """What a moved deadline gets on top of the gap (``GM_OUTAGE_GRACE`` seconds, default 15 min)."""
    return timedelta(seconds=getattr(settings, "GM_OUTAGE_GRACE", 900.0))


def last_sweep() -> datetime | None:
    """When the deadline sweep last finished (``None``: never)."""
    return SweepMark.objects.filter(name=SWEEP).values_list("last_success", flat=True).first()


def sweep_stale(*, now: datetime) -> bool:
    """Whether the last successful sweep is older than ``GM_OUTAGE_AFTER`` at ``now`` (an outage not yet
    recovered from); ``False`` when the protection is off or no sweep ever ran."""
    after = outage_after()
    last = last_sweep() if after is not None else None
    return last is not None and now - last > after


def sweep_succeeded(*, clock: Clock = timezone.now) -> None:
    """Record that the deadline sweep finished at ``clock()`` (the mark never moves back)."""
    now = clock()
    if not SweepMark.objects.filter(name=SWEEP, last_success__lt=now).update(last_success=now):
        SweepMark.objects.get_or_create(name=SWEEP, defaults={"last_success": now})


def outage_recover(*, clock: Clock = timezone.now) -> Outage | None:
    """Detect an outage at the start of a sweep and shift the deadlines that fell in it (see the module doc).

    Atomic; the sweep mark's row lock makes two concurrent sweeps recover once (the second finds the mark fresh).
    Locks the shifted phases (by id). Returns the :class:`Outage` recorded, or ``None`` when the
    last sweep is recent, no sweep ever ran (the first one only records itself), or the protection is off.
    """
    after = outage_after()
    if after is None:
        return None
    with transaction.atomic():
        now = clock()
        mark = SweepMark.objects.select_for_update().filter(name=SWEEP).first()
        if mark is None:
            SweepMark.objects.get_or_create(name=SWEEP, defaults={"last_success": now})
            return None
        down_from = mark.last_success
        if now - down_from <= after:
            return None
        shift = (now - down_from) + outage_grace()
        live = [Game.Status.RUNNING, Game.Status.SETUP]
        phases = list(Phase.objects.select_for_update().filter(
            status=Phase.Status.OPEN, deadline__gt=down_from, deadline__lte=now, game__status__in=live,
            game__paused_at__isnull=True).order_by("pk"))
        held = list(Phase.objects.select_for_update().filter(
            status=Phase.Status.RESOLVED, published_at__isnull=True, publish_at__gt=down_from, publish_at__lte=now,
        ).order_by("pk"))
        games = list(Game.objects.filter(status__in=live).order_by("pk"))
        for phase in phases:
            phase.deadline += shift
            phase.base_deadline += shift
            phase.overdue_at = None
            phase.save(update_fields=["deadline", "base_deadline", "overdue_at"])
            schedule_deadline(phase, now=now)
        if held:
            Phase.objects.filter(pk__in=[p.pk for p in held]).update(publish_at=F("publish_at") + shift)
        moved = {p.game_id: p for p in phases}
        unresolved = {p.game_id: p for p in Phase.objects.filter(game__in=games).exclude(
            status=Phase.Status.RESOLVED).only("pk", "game_id")}
        data = {"down_from": down_from.isoformat(), "down_to": now.isoformat(),
                "minutes": round((now - down_from).total_seconds() / 60),
                "shift": round(shift.total_seconds() / 60)}
        LogEntry.objects.bulk_create([
            LogEntry(game=game, phase=moved.get(game.pk) or unresolved.get(game.pk), visibility="public",
                     kind="core.outage_shifted" if game.pk in moved else "core.outage",
                     data={**data, "deadline": moved[game.pk].deadline.isoformat()} if game.pk in moved else data,
                     created_at=now)
            for game in games])
        mark.last_success = now
        mark.save(update_fields=["last_success"])
        return Outage.objects.create(down_from=down_from, detected_at=now,
                                     shift_seconds=round(shift.total_seconds()), phases=[p.pk for p in phases],
                                     games=[g.pk for g in games])


def outages_of(game: Game) -> list[Outage]:
    """The outages a game lived through (detected while it was running), newest first, each with ``moved``: the
    label of its phase whose deadline moved, or ``""``."""
    rows = list(Outage.objects.filter(games__contains=[game.pk])[:20]) if _json_contains() else [
        o for o in Outage.objects.all()[:200] if game.pk in (o.games or [])][:20]
    phase_ids = {pid for o in rows for pid in o.phases}
    mine = {p.pk: p for p in Phase.objects.filter(game=game, pk__in=phase_ids)}
    for outage in rows:
        hit = [mine[pid] for pid in outage.phases if pid in mine]
        for p in hit:
            p.game = game
        outage.moved = hit[0].label if hit else ""
        outage.shift_minutes = round(outage.shift_seconds / 60)
    return rows


def _json_contains() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"
