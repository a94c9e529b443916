"""Setup review (issue 24 item 5): with the site setting ``GM_SETUP_REVIEW`` on, a game's signups open only once
a reviewer approved its setup.

The master's "open signups" (:func:`gm.core.services.games.game_open_signup`) asks for a review instead while none
is approved (:func:`review_request`); a reviewer — staff, or a user with the ``core.review_setup`` permission
(directly or through a group) — reads the pending setups (:func:`pending_reviews`) and approves (the signups open at
once) or rejects with a comment (:func:`review_decide`); the master is told through his inbox either way
(:data:`gm.core.signals.master_notice`). With the setting off nothing changes.
"""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Game, SetupReview
from .base import Clock, ServiceError, audit_write, require_master

PERMISSION = "core.review_setup"


def review_required() -> bool:
    """Whether the site reviews setups before signups open (``GM_SETUP_REVIEW``, default off)."""
    return bool(getattr(settings, "GM_SETUP_REVIEW", False))


def is_reviewer(user) -> bool:
    """Staff and the users granted ``core.review_setup`` (directly or through a group) review setups."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return user.is_staff or user.is_superuser or user.has_perm(PERMISSION)


def review_of(game: Game) -> SetupReview | None:
    """The game's review row, or ``None`` when it never asked for one."""
    return SetupReview.objects.filter(game_id=game.pk).first()


def pending(game: Game) -> bool:
    """Whether ``game`` (a draft) waits for a reviewer."""
    return (game.status == Game.Status.DRAFT
            and SetupReview.objects.filter(game_id=game.pk, status=SetupReview.Status.PENDING).exists())


def approved(game: Game) -> bool:
    """Whether a reviewer approved ``game``'s setup."""
    return SetupReview.objects.filter(game_id=game.pk, status=SetupReview.Status.APPROVED).exists()


def review_request(*, game: Game, actor, clock: Clock = timezone.now) -> SetupReview:
    """The master asks for his draft's setup to be reviewed: a ``pending`` row (again after a rejection; an
    existing pending request is kept as it is). Refused: not the master (``forbidden``), not a draft (``state``),
    already approved (``state``)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.status != Game.Status.DRAFT:
            raise ServiceError(_("Only a draft's setup is reviewed."), code="state")
        row = SetupReview.objects.select_for_update().filter(game=game).first()
        if row is not None and row.status == SetupReview.Status.APPROVED:
            raise ServiceError(_("The setup is approved already."), code="state")
        if row is None:
            row = SetupReview.objects.create(game=game, requested_at=clock())
        elif row.status == SetupReview.Status.REJECTED:
            row.status, row.requested_at, row.decided_at = SetupReview.Status.PENDING, clock(), None
            row.save(update_fields=["status", "requested_at", "decided_at"])
        return row


def pending_reviews(user) -> list[SetupReview]:
    """The setups waiting for review, oldest request first (reviewers only: ``forbidden`` otherwise)."""
    if not is_reviewer(user):
        raise ServiceError(_("Only setup reviewers may do this."), code="forbidden")
    return list(SetupReview.objects.filter(status=SetupReview.Status.PENDING, game__status=Game.Status.DRAFT)
                .select_related("game__master").order_by("requested_at", "id"))


def review_decide(*, game: Game, actor, approve: bool, comment: str = "", clock: Clock = timezone.now) -> Game:
    """A reviewer approves (the game's signups open at once) or rejects (``comment`` required: the master learns
    why) a pending setup; audited ``setup_review`` with the reviewer as actor, the master told in his inbox.
    Refused: not a reviewer (``forbidden``), the game's own master (``not_allowed``: nobody reviews himself),
    nothing pending (``state``), a rejection without a comment."""
    from .. import signals

    comment = (comment or "").strip()
    if not is_reviewer(actor):
        raise ServiceError(_("Only setup reviewers may do this."), code="forbidden")
    if not approve and not comment:
        raise ServiceError({"comment": [_("Say why the setup is rejected.")]})
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.master_id == actor.pk:
            raise ServiceError(_("Nobody reviews his own setup."), code="not_allowed")
        row = SetupReview.objects.select_for_update().filter(game=game).first()
        if row is None or row.status != SetupReview.Status.PENDING or game.status != Game.Status.DRAFT:
            raise ServiceError(_("This setup is not waiting for a review."), code="state")
        now = clock()
        row.status = SetupReview.Status.APPROVED if approve else SetupReview.Status.REJECTED
        row.reviewer, row.comment, row.decided_at = actor, comment, now
        row.save(update_fields=["status", "reviewer", "comment", "decided_at"])
        if approve:
            game.status = Game.Status.SIGNUP
            game.save(update_fields=["status"])
        audit_write(game=game, actor=actor, action="setup_review", reason=comment, now=now,
                    data={"approved": bool(approve)})
        what = "review_approved" if approve else "review_rejected"
        users = [game.master_id]
        transaction.on_commit(lambda: signals.master_notice.send(
            sender=Game, game_id=game.pk, user_ids=users, what=what, data={"comment": comment},
            key=f"review:{row.pk}:{what}:{now.timestamp():.0f}"))
    return game
