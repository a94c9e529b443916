"""DOC"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import signals
from ..comaster_roles import may_master
from ..engine import PhaseInfo, PrivateSent, RuleViolation
from ..models import Game, Phase, Post, PostPrivate, PostRevision, Seat
from .base import Clock, ServiceError, seat_info, violation_errors


def _thread_text(body: Any, comment: Any, *, may_be_empty: bool = False) -> tuple[str, str]:
    """``(body, comment)`` stripped, or :class:`ServiceError` ``invalid`` keyed ``body``/``comment``."""
    body = (body or "").strip() if isinstance(body, str) or body is None else None
    comment = (comment or "").strip() if isinstance(comment, str) or comment is None else None
    errors: dict[str, list[str]] = {}
    if body is None:
        errors["body"] = [_("The text must be a string.")]
    elif not body and not may_be_empty:
        errors["body"] = [_("Write something first.")]
    elif len(body) > Post.MAX_BODY:
        errors["body"] = [_("A post may have at most %(max)s characters; this one has %(n)s.")
                          % {"max": Post.MAX_BODY, "n": len(body)}]
    if comment is None:
        errors["comment"] = [_("The comment must be a string.")]
    elif len(comment) > Post.MAX_COMMENT:
        errors["comment"] = [_("A comment may have at most %(max)s characters; this one has %(n)s.")
                             % {"max": Post.MAX_COMMENT, "n": len(comment)}]
    elif "\n" in comment or "\r" in comment:
        errors["comment"] = [_("A comment is one line of plain text.")]
    if errors:
        raise ServiceError(errors)
    return body, comment


def _poster_seat(game: Game, user) -> Seat | None:
    """The seat ``user`` posts with (``None`` for the master), or :class:`ServiceError` ``forbidden`` when he may not
    post now: not logged in; no seat (spectators read, FM-9.1); before the game runs (FM-1.4: signup and deck
    building are radio silence); his character is dead and the module does not let it speak (FM-9.7); the module
    keeps the thread closed to him in the current phase (``GameModule.thread_closed``, with its reason: BV-14.8)."""
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in to post."), code="forbidden")
    seat = Seat.objects.filter(game=game, user=user).first()
    if user.pk == game.master_id or (seat is None and may_master(game, user)):  # a full co-master posts as one
        return seat
    if seat is None:
        raise ServiceError(_("Only the game's players and master may post."), code="forbidden")
    if game.status not in (Game.Status.RUNNING, Game.Status.FINISHED):
        # FM-1.4: no communication before Night 1 (signup and deck building).
        raise ServiceError(_("Players may post once the game is running.") + " (FM-1.4)", code="forbidden")
    if not game.game_module.may_post(seat.data, seat.alive):
        raise ServiceError(_("The dead do not post.") + " (FM-9.7)", code="forbidden")
    from ..visibility import seat_thread_closed

    closed = seat_thread_closed(game, seat)  # the module's own closing of the thread (BV-14.8)
    if closed:
        raise ServiceError(closed, code="forbidden")
    return seat


def _markup_error(exc) -> ServiceError:
    return ServiceError({"body": [_(exc.message) % exc.params if exc.params else _(exc.message)]})


def _accepting_phase(game: Game, now: datetime, *, lock: bool) -> Phase | None:
    """The game's unresolved phase if it still accepts input at ``now`` (open, and before its deadline unless the
    game is paused), else ``None``. ``lock``: ``SELECT … FOR UPDATE`` it (the phase row is always locked first)."""
    qs = Phase.objects.filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).select_related("game")
    phase = (qs.select_for_update(of=("self",)) if lock else qs).first()
    if phase is None or phase.status != Phase.Status.OPEN:
        return None
    if phase.deadline <= now and phase.game.paused_at is None:
        return None
    return phase


def _check_private(game: Game, seat: Seat | None, part, phase: Phase | None) -> tuple[Seat, bool]:
    """The recipient seat of a post's private ``part`` (FM-9.2) and whether his name is public, after the module's
    :meth:`~gm.core.engine.GameModule.check_private`; :class:`ServiceError` ``invalid`` (field ``body``) with the
    reason otherwise. Call with the phase row locked, so a once-per-day allowance can't be spent twice."""
    if seat is None:
        raise ServiceError({"body": [_("Only characters send private messages (FM-9.2).")]})
    seats = list(Seat.objects.filter(game_id=game.pk).order_by("position"))
    wanted = " ".join(part.recipient.split()).casefold()
    recipient = next((s for s in seats if " ".join(s.display_name.split()).casefold() == wanted), None)
    if recipient is None:
        raise ServiceError({"body": [_("Nobody in this game is called “%(name)s” (FM-9.2).")
                                     % {"name": part.recipient}]})
    sent = [PrivateSent(recipient=p.recipient_id, public_recipient=p.public_recipient)
            for p in PostPrivate.objects.filter(post__seat=seat, post__phase=phase)] if phase is not None else []
    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors) \
        if phase is not None else None
    try:
        public = game.game_module.check_private(
            state=game.state, phase=info, sender=seat_info(seat), recipient=seat_info(recipient),
            seats=[seat_info(s) for s in seats], sent=sent)
    except RuleViolation as exc:
        raise ServiceError(violation_errors(exc)) from None
    return recipient, bool(public)


def _flood_check(game: Game, user, action: str, now: datetime) -> None:
    from ..flood import check_seat_rate

    check_seat_rate(game=game, user=user, action=action, now=now)


def post_create(*, game: Game, user, body: str, comment: str = "", clock: Clock = timezone.now) -> Post:
    """Add a post to the game thread (FM-9.1) and return it.

    ``body`` is BBCode (at most ``Post.MAX_BODY`` characters) and may hold one ``[private="Name"]text[/private]``
    (FM-9.2), which is cut out of ``body`` and stored as the post's :class:`PostPrivate`; ``comment`` is one line of
    plain text (at most ``Post.MAX_COMMENT``). The master may always post; a player once the game runs (FM-1.4)
    while his character may speak (FM-9.7; the module's ``may_post``); spectators never.

    Raises :class:`ServiceError`: ``forbidden`` (who may not post now), ``invalid`` keyed ``body``/``comment`` (empty
    or too long text, a malformed or second private tag, an unknown recipient, a private message the module refuses
    — by night, to a non-neighbour…, each with its rule ID). Nothing is saved on error.
    """
    from .. import markup

    body, comment = _thread_text(body, comment)
    seat = _poster_seat(game, user)
    try:
        public_body, part = markup.split_private(body)
    except markup.MarkupError as exc:
        raise _markup_error(exc) from None
    _flood_check(game, user, "post", clock())
    if part is not None:
        _flood_check(game, user, "private", clock())
    with transaction.atomic():
        # Phase row first (the services' lock order): a day can't end between the check and the write, and two
        # posts of one postman can't both spend his once-per-day message.
        phase = _accepting_phase(game, clock(), lock=part is not None)
        if part is not None:
            recipient, public = _check_private(game, seat, part, phase)
        post = Post.objects.create(game=game, author=user, seat=seat, phase=phase, body=public_body, comment=comment)
        if part is not None:
            PostPrivate.objects.create(post=post, recipient=recipient, text=part.text, public_recipient=public)
        game.game_module.post_saved(post, clock=clock)
    transaction.on_commit(lambda: signals.post_created.send(sender=Post, post=post))
    return post


def post_edit(*, post: Post, user, body: str, comment: str | None = None, clock: Clock = timezone.now) -> Post:
    """Replace the text (and ``comment``, unless ``None``) of ``post`` by its author, keeping the previous version as
    a :class:`PostRevision` (only the master reads them). An unchanged post is returned as it is.

    The author must still be allowed to post (see :func:`post_create`). A private message is a message already
    delivered: it can be neither added nor changed by an edit (FM-9.2); the post keeps the one it has, so its
    public text may become empty. Raises :class:`ServiceError` ``forbidden`` (not the author, may not post now) or
    ``invalid`` (``body``/``comment``).
    """
    from .. import markup

    if not user or not user.is_authenticated or post.author_id != user.pk:
        raise ServiceError(_("Only the author may edit a post."), code="forbidden")
    has_private = PostPrivate.objects.filter(post=post).exists()
    body, new_comment = _thread_text(body, comment, may_be_empty=has_private)
    _poster_seat(post.game, user)
    if markup.mentions_private(body):
        raise ServiceError({"body": [_("A private message can't be added or changed by editing (FM-9.2).")]})
    with transaction.atomic():
        post = Post.objects.select_for_update(of=("self",)).select_related("game").get(pk=post.pk)
        comment = post.comment if comment is None else new_comment
        if (body, comment) == (post.body, post.comment):
            return post
        now = clock()
        version = post.revisions.count() + 1
        PostRevision.objects.create(post=post, version=version, body=post.body, comment=post.comment,
                                    written_at=post.edited_at or post.created_at, replaced_at=now)
        post.body, post.comment, post.edited_at = body, comment, now
        post.save(update_fields=["body", "comment", "edited_at"])
        post.game.game_module.post_saved(post, clock=clock)
    return post
