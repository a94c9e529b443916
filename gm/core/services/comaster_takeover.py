"""Taking over from an inactive master (issue 24 item 5).

A master who did nothing on a running game — no console action in the audit trail, no post in the thread — for
``GM_MASTER_INACTIVE_DAYS`` days (default 3, counted from the start of the game at the earliest) leaves it without
a referee. Beat's sweep (:func:`takeover_sweep`, task ``gm.core.tasks.comaster_takeover_sweep_task``) then opens a
:class:`~gm.core.models.TakeoverOffer` and tells, in their inbox, the game's full co-masters or, when it has none,
the standby masters (users with the ``core.standby_master`` permission, directly or through a group, who play no
seat in it). One of them may take over (:func:`game_take_over`): he becomes the master, the old master stays a
co-master, the change is audited and announced in the thread by a system post. The offer closes by itself when the
master acts again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from ..comaster_roles import comasters_of, forget
from ..models import AuditEntry, CoMaster, Game, Phase, Post, Seat, TakeoverOffer
from .base import Clock, ServiceError, audit_write

PERMISSION = "core.standby_master"
LIVE = (Game.Status.SETUP, Game.Status.RUNNING)


def inactive_days() -> float:
    """Days without a master's action before his game is offered (``GM_MASTER_INACTIVE_DAYS``, default 3)."""
    return float(getattr(settings, "GM_MASTER_INACTIVE_DAYS", 3))


def _with_activity(qs):
    audit = AuditEntry.objects.filter(game=OuterRef("pk"), actor=OuterRef("master_id")).order_by("-created_at")
    posts = Post.objects.filter(game=OuterRef("pk"), author=OuterRef("master_id"), system__isnull=True
                                ).order_by("-created_at")
    return qs.annotate(last_audit=Subquery(audit.values("created_at")[:1]),
                       last_post=Subquery(posts.values("created_at")[:1]))


def master_last_active(game: Game) -> datetime | None:
    """When ``game``'s master last did something in it: his latest audited console action or thread post, else
    the game's start (``None`` before it started)."""
    row = _with_activity(Game.objects.filter(pk=game.pk)).values("last_audit", "last_post", "started_at").first()
    return _last(row) if row else None


def _last(row) -> datetime | None:
    times = [t for t in (row["last_audit"], row["last_post"], row["started_at"]) if t is not None]
    return max(times) if times else None


def standby_masters(game: Game) -> list:
    """The standby masters who may take ``game`` over: active users with ``core.standby_master`` who are neither
    its master nor seated in it."""
    seated = Seat.objects.filter(game=game, user__isnull=False).values("user_id")
    User = get_user_model()
    return list(User.objects.with_perm(PERMISSION, backend="django.contrib.auth.backends.ModelBackend")
                .filter(is_active=True).exclude(pk=game.master_id).exclude(pk__in=seated).order_by("pk"))


def candidates(game: Game) -> list[int]:
    """Who is offered ``game``: its full co-masters, or, if it has none, the standby masters (user ids)."""
    full = [uid for uid, row in comasters_of(game).items() if not row.read_only]
    return sorted(full) if full else [u.pk for u in standby_masters(game)]


@dataclass
class TakeoverReport:
    """What one sweep did: ``offered`` and ``closed`` game ids."""

    offered: list[int] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)


def takeover_sweep(*, clock: Clock = timezone.now) -> TakeoverReport:
    """Beat's check: open an offer (and tell its candidates) for every live game whose master has been inactive for
    :func:`inactive_days`; close the open offers of masters who came back. Idempotent: one open offer per game
    (a database constraint), notifications keyed by offer."""
    from .. import signals

    now = clock()
    limit = now - timedelta(days=inactive_days())
    report = TakeoverReport()
    open_offers = {o.game_id: o for o in TakeoverOffer.objects.filter(closed_at__isnull=True)}
    for row in _with_activity(Game.objects.filter(status__in=LIVE)).values(
            "pk", "master_id", "last_audit", "last_post", "started_at"):
        last = _last(row)
        offer = open_offers.get(row["pk"])
        if offer is not None:
            if offer.master_id != row["master_id"] or (last is not None and last > offer.created_at):
                TakeoverOffer.objects.filter(pk=offer.pk, closed_at__isnull=True).update(closed_at=now)
                report.closed.append(row["pk"])
            continue
        if last is None or last > limit:
            continue
        game = Game.objects.get(pk=row["pk"])
        users = candidates(game)
        if not users:
            continue
        with transaction.atomic():
            offer = TakeoverOffer.objects.create(game=game, master_id=row["master_id"], candidates=users,
                                                 created_at=now)
            days = inactive_days()
            transaction.on_commit(lambda g=game.pk, u=users, o=offer.pk, d=days: signals.master_notice.send(
                sender=Game, game_id=g, user_ids=u, what="takeover_offer", data={"days": d}, key=f"takeover:{o}"))
        report.offered.append(game.pk)
    return report


def open_offer(game: Game) -> TakeoverOffer | None:
    """The game's open takeover offer, or ``None``."""
    if getattr(game, "gm_has_open_offer", None) is False:  # known from the game's own query (the pages' game)
        return None
    return TakeoverOffer.objects.filter(game_id=game.pk, closed_at__isnull=True).first()


def may_take_over(game: Game, user) -> bool:
    """Whether ``user`` is among the candidates of ``game``'s open offer (for the page's button)."""
    offer = open_offer(game)
    return bool(offer and user is not None and user.is_authenticated and user.pk in offer.candidates)


def _name(user) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "name", "") or user.get_username()


def game_take_over(*, game: Game, actor, reason: str = "", clock: Clock = timezone.now) -> Game:
    """``actor``, a candidate of the game's open offer, becomes its master: the old master stays a (full, public)
    co-master, the actor's co-master row goes, the offer closes, the change is audited (``takeover``) and a system
    post tells the thread; the old master and the other candidates are told in their inbox. Refused: no open offer
    or the master came back (``state``), not a candidate (``forbidden``), the actor plays a seat (``not_allowed``).
    Locks the unresolved phase, then the game."""
    from .. import signals

    with transaction.atomic():
        phase = Phase.objects.select_for_update().filter(game_id=game.pk).exclude(
            status=Phase.Status.RESOLVED).first()
        game = Game.objects.select_for_update().select_related("master").get(pk=game.pk)
        offer = TakeoverOffer.objects.select_for_update().filter(game=game, closed_at__isnull=True).first()
        if offer is None or game.status not in LIVE:
            raise ServiceError(_("Nobody may take this game over now."), code="state")
        if not (actor and actor.is_authenticated and actor.pk in offer.candidates):
            raise ServiceError(_("You are not among those offered this game."), code="forbidden")
        last = master_last_active(game)
        if offer.master_id != game.master_id or (last is not None and last > offer.created_at):
            raise ServiceError(_("The master is back: the game is his again."), code="state")
        if Seat.objects.filter(game=game, user=actor).exists():
            raise ServiceError(_("You play in this game."), code="not_allowed")
        now = clock()
        old = game.master
        CoMaster.objects.filter(game=game, user=actor).delete()
        CoMaster.objects.update_or_create(game=game, user=old, defaults={
            "read_only": False, "public": True, "source": "master", "added_by": actor, "created_at": now})
        game.master = actor
        game.save(update_fields=["master"])
        offer.closed_at, offer.taken_by = now, actor
        offer.save(update_fields=["closed_at", "taken_by"])
        audit_write(game=game, actor=actor, action="takeover", reason=reason, now=now, phase=phase,
                    data={"player": old.get_username(), "new": actor.get_username()})
        Post.objects.create(game=game, author=actor, seat=None, phase=phase if phase and phase.is_open else None,
                            body="", system={"kind": "core.master_takeover",
                                             "data": {"old": _name(old), "new": _name(actor)}})
        others = [u for u in [old.pk, *offer.candidates] if u != actor.pk]
        transaction.on_commit(lambda: signals.master_notice.send(
            sender=Game, game_id=game.pk, user_ids=others, what="taken_over", data={"new": _name(actor)},
            key=f"taken:{offer.pk}"))
    forget(game)
    return game
