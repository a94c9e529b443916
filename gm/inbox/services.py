"""Inbox services: who is told what, and when.

Every function is keyword-only (except the duck-typed first argument of :func:`notify_private`) and idempotent
where a task may call it twice: notification rows are de-duplicated by ``(user, key)``, reminders by
``(phase, seat)``, e-mails by a compare-and-set on ``Notification.emailed_at``. Time comes from an injectable
``clock`` (a callable returning an aware UTC ``datetime``), as in ``gm.core.services``.

Recipients always come from the visibility layer (``gm.core.visibility``): a phase's notifications are built from
``visibility.log_entries`` of each recipient, never from raw log queries.

Entry points for other engineers:

* :func:`notify_private` — a private message in a post (FM-9.2) reached its recipient;
* :func:`notify_room` — seats were put in a chat room (FM-9.3);
* :func:`register_acted_check` — count some other action (e.g. a Veche vote, FM-7) as "has acted" for reminders.
"""
from __future__ import annotations

import logging
import zoneinfo
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, get_connection
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from gm.core import page_memo, sweeps, visibility
from gm.core.emails import notification_email
from gm.core.metrics import count_email_failure
from gm.core.models import AuditEntry, Game, GroupMembership, LogEntry, Order, Phase, Seat, life_of
from gm.core.notifications import send_phase_results
from gm.core.services import ServiceError, require_master
from gm.core.services.comasters import master_users
from gm.core.services.grids import reminder_lead

from .models import MAX_REMINDER_HOURS, GameReminder, Notification, NotificationSettings, PhaseReminder

logger = logging.getLogger("gm.inbox")

Clock = Callable[[], datetime]
#: ``check(phase) -> set of seat ids`` that have acted in ``phase`` in some way other than an order.
ActedCheck = Callable[[Phase], set[int]]
_ACTED_CHECKS: list[ActedCheck] = []

#: How long a private message's text kept in the recipient's notification may be (the post keeps the whole text).
PRIVATE_TEXT_MAX = 2000


# -- settings ---------------------------------------------------------------------------------------------------


def email_enabled(user) -> bool:
    """Whether ``user`` opted in to e-mail copies (default: no) and has an address to send them to."""
    if user is None or not user.is_authenticated or not user.email:
        return False
    return NotificationSettings.objects.filter(user=user, email=True).exists()


def settings_set(*, user, email: bool) -> NotificationSettings:
    """Store ``user``'s e-mail opt-in (``email``: bool). Raises :class:`ServiceError` ``forbidden`` when
    anonymous."""
    if user is None or not user.is_authenticated:
        raise ServiceError(_("Log in first."), code="forbidden")
    prefs, _created = NotificationSettings.objects.update_or_create(user=user, defaults={"email": bool(email)})
    return prefs


def reminder_hours(game: Game) -> int:
    """The game's reminder setting in whole hours (0: off, also when the master never set one)."""
    return GameReminder.objects.filter(game=game).values_list("hours", flat=True).first() or 0


def reminder_set(*, game: Game, actor, hours: Any, reason: str = "", clock: Clock = timezone.now) -> GameReminder:
    """Set ``game``'s deadline reminder to ``hours`` whole hours before each deadline (0 = off; at most
    :data:`~gm.inbox.models.MAX_REMINDER_HOURS`). Master only; recorded in the audit log (action ``reminder``).

    Raises :class:`ServiceError`: ``forbidden`` for anyone but the game's master (or a superuser), ``state`` once
    the game is over, ``invalid`` (field ``hours``) for anything but a whole number in range.
    """
    require_master(game, actor)  # the master, a full co-master (issue 24) or a superuser
    if isinstance(hours, bool) or not isinstance(hours, int) or not 0 <= hours <= MAX_REMINDER_HOURS:
        raise ServiceError({"hours": [_("Give a whole number of hours from 0 (no reminders) to %(max)s.")
                                      % {"max": MAX_REMINDER_HOURS}]})
    if game.is_over:
        raise ServiceError(_("The game is over."), code="state")
    with transaction.atomic():
        reminder, _created = GameReminder.objects.update_or_create(game=game, defaults={"hours": hours})
        AuditEntry.objects.create(game=game, actor=actor, action="reminder", reason=reason, data={"hours": hours},
                                  created_at=clock())
    return reminder


# -- phase results ----------------------------------------------------------------------------------------------


def notify_phase_results(*, phase_id: int, clock: Clock = timezone.now) -> int:
    """Inbox notifications for a resolved phase, then the result e-mail to those who opted in.

    For the master and each seated player (living or dead; spectators and anonymous visitors get nothing) the
    visibility layer gives the log entries of the phase and of the opening of the next one that he may read.
    Each such user gets one ``phase_results`` notification (the public lines are not repeated one by one; ``data``
    counts ``public`` and ``private`` lines), and one ``result`` notification per private entry *addressed* to him:
    a seat entry of his own seat, a group entry of a group his seat belongs to. Master-only entries (the resolution
    trace) and other seats' entries are never addressed to anyone: the master reads them through his phase results
    (and the log), and even after the game, when the log is revealed, they reach no one else's inbox.

    Idempotent (rows keyed ``phase:<id>`` / ``entry:<id>``, e-mail claimed once). Returns how many e-mails were
    sent; 0 for an unknown or unresolved phase.
    """
    phase = Phase.objects.select_related("game__master").filter(pk=phase_id, status=Phase.Status.RESOLVED).first()
    if phase is None:
        return 0
    now = clock()
    _phase_notifications(phase, now)
    sent = _email_phase_results(phase, now)
    following = phase.game.phases.filter(ordinal=phase.ordinal + 1, status=Phase.Status.OPEN).first()
    if following is not None and phase.game.game_module.step_notices:
        sent += _email_your_move(following, now)
    return sent


def _recipients(game: Game) -> list:
    """The master and the seated players' users, each once (the people notifications are for)."""
    users = {u.pk: u for u in master_users(game)}  # the co-masters read what the master reads (issue 24)
    for seat in page_memo.seats(game):
        if seat.user_id is not None:
            users.setdefault(seat.user_id, seat.user)
    return list(users.values())


def _phase_notifications(phase: Phase, now: datetime) -> list[Notification]:
    # Nothing below writes until bulk_create: the recipients' viewers share one load of the seats (page_memo)
    # instead of a seat query each.
    with page_memo.reading():
        rows = _phase_notification_rows(phase, now)
    # ignore_conflicts: a second run of the task (late acknowledgement) finds the keys taken and adds nothing.
    return Notification.objects.bulk_create(rows, ignore_conflicts=True)


def _phase_notification_rows(phase: Phase, now: datetime) -> list[Notification]:
    game = phase.game
    following = game.phases.filter(ordinal=phase.ordinal + 1).first()
    phases = [phase] + ([following] if following is not None else [])
    groups: dict[int, set[str]] = {}
    for seat_id, group in GroupMembership.objects.filter(game=game).values_list("seat_id", "group"):
        groups.setdefault(seat_id, set()).add(group)
    rows = []
    # A game of short steps (GameModule.step_notices, BW-24): while it goes on, a player gets no summary per step,
    # only the lines addressed to him and "your move" when the next step asks him (:func:`_your_move_rows`).
    steps = bool(game.game_module.step_notices) and following is not None and following.status == Phase.Status.OPEN
    if steps:
        rows += _your_move_rows(following, now)
    viewers = [visibility.viewer_for(user, game) for user in _recipients(game)]
    readable = visibility.log_readers(viewers, phases, ("pk", "visibility", "seat_id", "group"))
    for viewer, entries in zip(viewers, readable, strict=True):
        user = viewer.user
        if not entries:
            continue
        public = sum(1 for e in entries if e[1] == LogEntry.Visibility.PUBLIC)
        if not (steps and user.pk != game.master_id):
            rows.append(Notification(user=user, game=game, phase=phase, kind=Notification.Kind.PHASE_RESULTS,
                                     data={"public": public, "private": len(entries) - public},
                                     key=f"phase:{phase.pk}", created_at=now))
        own = viewer.seat
        if own is None:  # the master (or a superuser) has no seat: nothing is addressed to him alone
            continue
        for pk, vis, seat_id, group in entries:
            addressed = ((vis == LogEntry.Visibility.SEAT and seat_id == own.pk)
                         or (vis == LogEntry.Visibility.GROUP and group in groups.get(own.pk, ())))
            if addressed:
                rows.append(Notification(user=user, game=game, phase=phase, kind=Notification.Kind.RESULT,
                                         entry_id=pk, key=f"entry:{pk}", created_at=now))
    return rows


def _your_move_rows(phase: Phase, now: datetime) -> list[Notification]:
    """One ``your_move`` notification (unsaved) per living seated player among ``phase.actors`` (a step's actors,
    BW-24): only the step's kind and deadline, keyed ``move:<phase id>``. A phase without named actors asks nobody
    in particular and yields none."""
    if not phase.actors:
        return []
    seats = phase.game.seats.filter(pk__in=phase.actors, alive=True, user__isnull=False)
    return [Notification(user_id=seat.user_id, game=phase.game, phase=phase, kind=Notification.Kind.YOUR_MOVE,
                         data={"step": phase.kind, "deadline": phase.deadline.isoformat()},
                         key=f"move:{phase.pk}", created_at=now) for seat in seats]


def notify_step_opened(*, phase_id: int, clock: Clock = timezone.now) -> list[Notification]:
    """``your_move`` for the actors of an open step of a :attr:`GameModule.step_notices` game that no resolution
    announced (the first step, at the start); then the e-mail to those who opted in. Idempotent (keys
    ``move:<phase id>``); nothing for any other game or phase."""
    phase = Phase.objects.select_related("game").filter(pk=phase_id, status=Phase.Status.OPEN).first()
    if phase is None or not phase.game.game_module.step_notices:
        return []
    created = Notification.objects.bulk_create(_your_move_rows(phase, clock()), ignore_conflicts=True)
    _email_your_move(phase, clock())
    return created


def your_move_message(*, phase: Phase, user) -> EmailMessage:
    """The "your move" e-mail for ``user`` (an actor of ``phase``), in his language, with the deadline in his time
    zone: the game, the step and its deadline, nothing of the state (no card, no entity)."""
    language, tz = _preferences(user)
    game = phase.game
    with translation.override(language), timezone.override(zoneinfo.ZoneInfo(tz)):
        subject = _("%(game)s: your move — %(phase)s") % {"game": game.title, "phase": phase.label}
        deadline = date_format(timezone.localtime(phase.deadline), "DATETIME_FORMAT")
        body = _("It is your move in %(phase)s. Deadline: %(deadline)s.") % {"phase": phase.label,
                                                                            "deadline": deadline}
        url = settings.SITE_URL.rstrip("/") + game.get_absolute_url()
        return notification_email(subject=subject, template="reminder.txt", to=user.email,
                                  context={"text": body, "game_url": url})


def _email_your_move(phase: Phase, now: datetime) -> int:
    candidates = dict(Notification.objects.filter(
        kind=Notification.Kind.YOUR_MOVE, phase=phase, emailed_at__isnull=True,
        user__notification_settings__email=True).exclude(user__email="").values_list("pk", "user_id"))
    claimed = _claim_email(candidates, now)
    if not claimed:
        return 0
    users = get_user_model().objects.filter(pk__in=[candidates[pk] for pk in claimed]).select_related("profile")
    try:
        return get_connection().send_messages([your_move_message(phase=phase, user=u) for u in users]) or 0
    except Exception:
        logger.exception("your-move e-mail failed", extra={"phase": phase.pk})
        count_email_failure()
        Notification.objects.filter(pk__in=claimed).update(emailed_at=None)
        return 0


def _claim_email(pks: Iterable[int], now: datetime) -> list[int]:
    """Mark each notification e-mailed by compare-and-set; returns the ones this caller won (at most once each)."""
    return [pk for pk in pks if Notification.objects.filter(pk=pk, emailed_at__isnull=True).update(emailed_at=now)]


def _email_phase_results(phase: Phase, now: datetime) -> int:
    candidates = dict(Notification.objects.filter(
        kind=Notification.Kind.PHASE_RESULTS, phase=phase, emailed_at__isnull=True,
        user__notification_settings__email=True,
    ).exclude(user__email="").values_list("pk", "user_id"))
    claimed = _claim_email(candidates, now)
    if not claimed:
        return 0
    users = get_user_model().objects.filter(pk__in=[candidates[pk] for pk in claimed]).select_related("profile")
    try:
        return send_phase_results(phase_id=phase.pk, only=users)
    except Exception:
        # Give the claims back so that the task's retry (or the next run) sends them; then let Celery log it.
        Notification.objects.filter(pk__in=claimed).update(emailed_at=None)
        count_email_failure()
        raise


def notify_seat_entries(*, entry_ids: Iterable[int], clock: Clock = timezone.now) -> list[Notification]:
    """One ``result`` notification per log entry of ``entry_ids`` that is addressed to a single seat (visibility
    ``seat``) with a player: for that player only, keyed ``entry:<id>`` as the phase notifications key them, so a
    second call (or the phase's own notifications later) adds nothing. Entries of any other visibility are
    ignored: this never widens who reads a line. Returns the rows created."""
    now = clock()
    rows = [Notification(user_id=entry.seat.user_id, game_id=entry.game_id, phase_id=entry.phase_id,
                         kind=Notification.Kind.RESULT, entry=entry, key=f"entry:{entry.pk}", created_at=now)
            for entry in LogEntry.objects.filter(pk__in=list(entry_ids), visibility=LogEntry.Visibility.SEAT,
                                                 seat__user__isnull=False).select_related("seat")]
    return Notification.objects.bulk_create(rows, ignore_conflicts=True)


# -- private messages and rooms ---------------------------------------------------------------------------------


def _seat_user(game: Game, who) -> Any:
    """The user behind ``who`` (a :class:`Seat` of ``game`` or a user seated in it / its master); ``ValueError``
    otherwise, so a message can never be delivered to someone outside the game."""
    if isinstance(who, Seat):
        if who.game_id != game.pk or who.user_id is None:
            raise ValueError(f"seat {who.pk} is not a player's seat of game {game.pk}")
        return who.user
    if who is None or not getattr(who, "is_authenticated", False):
        raise ValueError("a private message needs a recipient")
    if who.pk != game.master_id and not Seat.objects.filter(game=game, user=who).exists():
        raise ValueError(f"user {who.pk} is neither seated in nor the master of game {game.pk}")
    return who


def _name(who) -> str:
    if who is None:
        return ""
    if isinstance(who, Seat):
        return who.display_name
    if isinstance(who, str):
        return who
    profile = getattr(who, "profile", None)
    return getattr(profile, "name", None) or who.get_username()


def notify_private(post_private: Any = None, /, *, game: Game | None = None, recipient: Any = None,
                   text: str | None = None, sender: Any = None, url: str = "", key: str = "",
                   clock: Clock = timezone.now) -> Notification | None:
    """Tell the recipient of a private message (FM-9.2) that it arrived, with its text — in his row only.

    Call it after the post holding the message is saved (inside the same transaction is fine: the notification
    commits or rolls back with it). Either pass the message object (duck-typed: ``game`` or ``post.game``;
    ``recipient`` a :class:`Seat` or user; ``text`` or ``body``; optional ``sender`` (Seat, user or name) or
    ``post.seat``; optional ``pk`` and ``get_absolute_url()``, else the link is ``#post-<post.pk>`` on the game
    page) — ``gm.core.models.PostPrivate`` fits —, or the keyword arguments, which win over the
    object's attributes:

    * ``game`` — the :class:`Game`;
    * ``recipient`` — the recipient's :class:`Seat` (of this game) or user (seated in it, or its master);
    * ``text`` — the message text (plain; cut to :data:`PRIVATE_TEXT_MAX` characters in the notification);
    * ``sender`` — who sent it (Seat, user or display name; the sender is public in FM-9.2, only the text is not);
    * ``url`` — where the message can be read (default: the game page);
    * ``key`` — de-duplication key (default ``private:<pk>`` when the object has a ``pk``; empty: no de-dup).

    The master is not notified (he reads every private message on the game page). Returns the notification, or
    ``None`` when the key was already used. Raises ``ValueError`` for a recipient outside the game.
    """
    if post_private is not None:
        post = getattr(post_private, "post", None)
        game = game or getattr(post_private, "game", None) or getattr(post, "game", None)
        recipient = recipient if recipient is not None else getattr(post_private, "recipient", None)
        if text is None:
            text = getattr(post_private, "text", None)
            text = text if text is not None else getattr(post_private, "body", "")
        sender = sender if sender is not None else (getattr(post_private, "sender", None)
                                                    or getattr(post, "seat", None))
        if not url and hasattr(post_private, "get_absolute_url"):
            url = post_private.get_absolute_url()
        elif not url and game is not None and getattr(post, "pk", None) is not None:
            url = f"{game.get_absolute_url()}#post-{post.pk}"
        if not key and getattr(post_private, "pk", None) is not None:
            key = f"private:{post_private.pk}"
    if game is None:
        raise ValueError("notify_private needs the game")
    user = _seat_user(game, recipient)
    row = Notification(user=user, game=game, kind=Notification.Kind.PRIVATE_MESSAGE,
                       body=(text or "")[:PRIVATE_TEXT_MAX], data={"sender": _name(sender), "url": url},
                       key=key, created_at=clock())
    return _create_once(row)


def notify_room(game: Game, group_slug: str, seat_ids: Iterable[int], *, clock: Clock = timezone.now
                ) -> list[Notification]:
    """Tell each member of a new chat room (FM-9.3) that he is in it: one ``room_invitation`` per member's user.

    ``group_slug``: the room's group (``room:3``), the same name as its ``GroupMembership`` rows; ``seat_ids``: the
    members' seat ids (ids of this game's seats; seats without a user are skipped). Only the members are told; the
    notification names the other members (they will read each other in the room anyway). Idempotent per user and
    room. Returns the notifications created. Raises ``ValueError`` for an empty slug or a seat id that is not a
    seat of ``game``.
    """
    if not group_slug:
        raise ValueError("notify_room needs the room's group slug")
    ids = list(dict.fromkeys(seat_ids))
    seats = list(Seat.objects.filter(game=game, pk__in=ids).select_related("user").order_by("position"))
    unknown = set(ids) - {s.pk for s in seats}
    if unknown:
        raise ValueError(f"seats {sorted(unknown)} are not seats of game {game.pk}")
    now = clock()
    created = []
    for seat in seats:
        if seat.user_id is None:
            continue
        others = [s.display_name for s in seats if s.pk != seat.pk]
        row = Notification(user=seat.user, game=game, kind=Notification.Kind.ROOM_INVITATION,
                           data={"group": group_slug, "members": others}, key=f"room:{game.pk}:{group_slug}"[:120],
                           created_at=now)
        if (note := _create_once(row)) is not None:
            created.append(note)
    return created


def _create_once(row: Notification) -> Notification | None:
    if not row.key:
        row.save()
        return row
    try:
        with transaction.atomic():  # a savepoint: a duplicate must not break the caller's transaction
            row.save()
    except IntegrityError:
        return None
    return row


def notify_prod(*, seat_id: int, prods: int, hours: int, clock: Clock = timezone.now) -> Notification | None:
    """Tell the player of seat ``seat_id`` he has been quiet for ``hours`` hours (issue 23's prod): one ``prod``
    notification per prod (key ``prod:<seat>:<n>``, so a task run twice adds nothing) and its e-mail copy when he
    opted in. Nobody else is told; the master sees it on his console."""
    seat = Seat.objects.select_related("game", "user__profile").filter(pk=seat_id).first()
    if seat is None or seat.user is None:
        return None
    now = clock()
    note = _create_once(Notification(user=seat.user, game=seat.game, kind=Notification.Kind.PROD,
                                     data={"hours": hours}, key=f"prod:{seat.pk}:{prods}", created_at=now))
    if note is None or not email_enabled(seat.user) or not _claim_email([note.pk], now):
        return note
    language, tz = _preferences(seat.user)
    with translation.override(language), timezone.override(zoneinfo.ZoneInfo(tz)):
        subject = _("%(game)s: we miss you") % {"game": seat.game.title}
        body = prod_text(hours=hours)
        url = settings.SITE_URL.rstrip("/") + seat.game.get_absolute_url()
        message = notification_email(subject=subject, template="reminder.txt", to=seat.user.email,
                                     context={"text": body, "game_url": url})
    try:
        get_connection().send_messages([message])
    except Exception:
        logger.exception("prod e-mail failed", extra={"seat": seat.pk})
        count_email_failure()
        Notification.objects.filter(pk=note.pk).update(emailed_at=None)
    return note


def notify_notice(*, game_id: int, user_ids: Iterable[int], what: str, data: dict, key: str,
                  clock: Clock = timezone.now) -> list[Notification]:
    """Co-mastering notices (issue 24 item 5): one ``notice`` row per user of ``user_ids`` (``what``:
    ``review_approved``, ``review_rejected``, ``takeover_offer``, ``taken_over``; ``data`` e.g. the reviewer's
    ``comment``), de-duplicated by ``key`` per user, so a signal handled twice adds nothing."""
    now = clock()
    created = []
    for uid in dict.fromkeys(user_ids):
        row = Notification(user_id=uid, game_id=game_id, kind=Notification.Kind.NOTICE,
                           data={"what": what, **(data or {})}, key=f"notice:{key}"[:120], created_at=now)
        if (note := _create_once(row)) is not None:
            created.append(note)
    return created


def notice_text(data: dict) -> str:
    """A co-mastering notice's words in the active language."""
    what = data.get("what")
    if what == "review_approved":
        text = _("A reviewer approved your setup: the signups are open.")
    elif what == "review_rejected":
        text = _("A reviewer rejected your setup. Change it and send it for review again.")
    elif what == "takeover_offer":
        text = _("The master has done nothing in this game for %(days)s days: you may take it over from the game "
                 "page.") % {"days": data.get("days", "")}
    elif what == "taken_over":
        text = _("%(new)s took the game over as its master.") % {"new": data.get("new", "")}
    else:
        text = ""
    comment = data.get("comment")
    return f"{text} {_('Comment:')} {comment}" if comment else text


def prod_text(*, hours: Any) -> str:
    """The prod's words in the active language."""
    return _("You have not posted or given an order for %(hours)s hours. Please check in, or ask the master to be "
             "replaced.") % {"hours": hours}


# -- reading ----------------------------------------------------------------------------------------------------


def unread_count(user) -> int:
    """How many of ``user``'s notifications are unread (0 for anonymous users, without a query)."""
    if user is None or not user.is_authenticated:
        return 0
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def mark_read(*, user, notification_id: Any, clock: Clock = timezone.now) -> Notification:
    """Mark one of ``user``'s notifications read (already read: unchanged). Another user's notification, or an
    unknown id, raises :class:`ServiceError` ``not_found`` (HTTP 404): its existence is not revealed."""
    try:
        pk = int(notification_id)
    except (TypeError, ValueError):
        pk = None
    note = (Notification.objects.filter(pk=pk, user=user).first()
            if pk is not None and user is not None and user.is_authenticated else None)
    if note is None:
        raise ServiceError(_("Not found"), code="not_found")
    if note.read_at is None:
        note.read_at = clock()
        Notification.objects.filter(pk=note.pk, read_at__isnull=True).update(read_at=note.read_at)
    return note


def mark_all_read(*, user, game_id: int | None = None, clock: Clock = timezone.now) -> int:
    """Mark every unread notification of ``user`` read — only those of game ``game_id`` when given (another game's
    id, or one without notifications of his, changes nothing); returns how many changed."""
    if user is None or not user.is_authenticated:
        return 0
    notes = Notification.objects.filter(user=user, read_at__isnull=True)
    if game_id is not None:
        notes = notes.filter(game_id=game_id)
    return notes.update(read_at=clock())


def unread_by_game(user) -> dict[int, int]:
    """Game id → how many of ``user``'s notifications of that game are unread (one query; ``{}`` for anonymous)."""
    if user is None or not user.is_authenticated:
        return {}
    return dict(Notification.objects.filter(user=user, read_at__isnull=True).values("game_id")
                .annotate(n=Count("id")).values_list("game_id", "n"))


# -- deadline reminders -----------------------------------------------------------------------------------------


def register_acted_check(check: ActedCheck) -> ActedCheck:
    """Count another kind of action as "has acted" for deadline reminders (e.g. a Veche vote, FM-7).

    ``check(phase)`` returns the ids of the seats that acted in ``phase`` in that way. Register at import time
    (an ``AppConfig.ready``); usable as a decorator."""
    if check not in _ACTED_CHECKS:
        _ACTED_CHECKS.append(check)
    return check


def seats_to_remind(phase: Phase) -> list[Seat]:
    """The seats that may act in ``phase`` but have not: living, with a user, among ``phase.actors`` when the
    phase names its actors, whose latest order version is missing or withdrawn (``payload`` null, FM-5.6) and
    that no registered check counts as having acted."""
    seats = phase.game.seats.filter(alive=True, user__isnull=False).select_related("user__profile")
    if phase.actors is not None:
        seats = seats.filter(pk__in=phase.actors)
    latest: dict[int, bool] = {}
    for seat_id, payload in Order.objects.filter(phase=phase).order_by("seat_id", "version").values_list(
            "seat_id", "payload"):
        latest[seat_id] = payload is not None  # the highest version wins: a withdrawal un-orders
    acted = {seat_id for seat_id, ordered in latest.items() if ordered}
    for check in _ACTED_CHECKS:
        acted |= set(check(phase))
    return [s for s in seats.order_by("position") if s.pk not in acted]


@dataclass
class ReminderReport:
    """What one sweep batch did: ``sent`` the ``(phase id, seat id)`` pairs reminded, ``emailed`` how many e-mails;
    ``resume_after`` the cursor of the next batch when this one was full (:mod:`gm.core.sweeps`), else ``None``."""

    sent: list[tuple[int, int]] = field(default_factory=list)
    emailed: int = 0
    resume_after: list | None = None


def reminders_sweep(*, clock: Clock = timezone.now, limit: int | None = None,
                    after: Any = None) -> ReminderReport:
    """The periodic deadline-reminder sweep (beat, every ``GM_REMINDER_INTERVAL`` seconds).

    For each open, non-setup phase of a running, unpaused game whose master set ``N = GameReminder.hours > 0``:
    once ``now >= deadline - N hours`` and while ``now < deadline``, each seat of :func:`seats_to_remind` gets one
    ``deadline_reminder`` notification (and an e-mail if its user opted in) — exactly once per phase and seat, which
    the unique ``PhaseReminder(phase, seat)`` row guarantees even with concurrent sweeps. A phase shorter than N
    hours (opened after ``deadline - N``) gets no reminder: its opening was just announced in the phase results.
    Setup phases (deck building) are skipped: their input is not an order. After an extension or a pause the
    window moves with the deadline; a seat already reminded for the phase is not reminded again.

    The phases are walked in (deadline, id) order in batches of at most ``limit`` phases (default
    ``GM_SWEEP_BATCH``), starting after the cursor ``after`` (:mod:`gm.core.sweeps`; ``None``: from the nearest
    deadline). A batch that reaches ``limit`` returns the cursor of its last phase in ``resume_after``, and the task
    runs the next batch as a task of its own, so every phase in its reminder window is looked at in each sweep
    however many there are, and no batch holds a worker long while deadline tasks wait (issue 25 goal 4). Raises
    ``ValueError`` for a malformed ``after``.
    """
    report = ReminderReport()
    now = clock()
    by_table = Q(game__reminder__isnull=True, game__life__reminder_table=True)
    by_module = Q(game__reminder__isnull=True, game__module__in=_modules_with_lead())
    phases, report.resume_after = sweeps.batch(
        Phase.objects.filter(Q(game__reminder__hours__gt=0) | by_table | by_module, status=Phase.Status.OPEN,
                             setup=False, deadline__gt=now, game__status=Game.Status.RUNNING,
                             game__paused_at__isnull=True)
        # The game's state is never read here: every open phase is looked at each sweep.
        .select_related("game__reminder", "game__life").defer("game__state", "game__outcome", "state", "result"),
        limit=limit or settings.GM_SWEEP_BATCH, after=after)
    # The seats reminded already, in one query: a phase stays in the sweep until its deadline.
    reminded = set(PhaseReminder.objects.filter(phase_id__in=[p.pk for p in phases]).values_list("phase_id",
                                                                                                  "seat_id"))
    for phase in phases:
        reminder = getattr(phase.game, "reminder", None)
        length = phase.base_deadline - phase.opens_at
        # No reminder of the master's own: the module's lead (GameModule.reminder_lead, e.g. half a Bloodwood step),
        # else the deadline grid's published lead table (gm.core.services.grids).
        module_lead = None if reminder is not None else phase.game.game_module.reminder_lead(kind=phase.kind,
                                                                                              length=length)
        lead = (timedelta(hours=reminder.hours) if reminder is not None else
                module_lead if module_lead is not None else reminder_lead(length))
        if reminder is None and module_lead is None and not life_of(phase.game).reminder_table:
            continue  # picked for its module, which sets no lead for this kind, in a game without the lead table
        hours = round(lead.total_seconds() / 3600, 2)
        due_at = phase.deadline - lead
        if now < due_at or phase.opens_at > due_at:
            continue
        for seat in seats_to_remind(phase):
            if (phase.pk, seat.pk) in reminded:
                continue
            note = _remind(phase, seat, hours, now)
            if note is None:
                continue
            report.sent.append((phase.pk, seat.pk))
            report.emailed += _email_reminder(note, phase, seat, now)
    return report


def _modules_with_lead() -> list[str]:
    """The slugs of the registered modules that set a reminder lead of their own (``GameModule.reminder_lead``)."""
    from gm.core import registry
    from gm.core.engine import GameModule

    return [m.slug for m in registry.all_modules() if type(m).reminder_lead is not GameModule.reminder_lead]


def _remind(phase: Phase, seat: Seat, hours: int, now: datetime) -> Notification | None:
    try:
        with transaction.atomic():
            PhaseReminder.objects.create(phase=phase, seat=seat, sent_at=now)
            return Notification.objects.create(
                user=seat.user, game=phase.game, phase=phase, kind=Notification.Kind.DEADLINE_REMINDER,
                data={"hours": hours, "deadline": phase.deadline.isoformat()}, key=f"reminder:{phase.pk}",
                created_at=now)
    except IntegrityError:  # another sweep reminded this seat for this phase first
        return None


def _preferences(user) -> tuple[str, str]:
    profile = getattr(user, "profile", None)
    return (getattr(profile, "language", None) or settings.LANGUAGE_CODE,
            getattr(profile, "time_zone", None) or settings.GM_DEFAULT_USER_TIME_ZONE)


def reminder_message(*, phase: Phase, seat: Seat) -> EmailMessage:
    """The reminder e-mail for ``seat``'s user, in his language, with the deadline in his time zone."""
    user = seat.user
    language, tz = _preferences(user)
    game = phase.game
    with translation.override(language), timezone.override(zoneinfo.ZoneInfo(tz)):
        subject = _("%(game)s: %(phase)s ends soon") % {"game": game.title, "phase": phase.label}
        deadline = date_format(timezone.localtime(phase.deadline), "DATETIME_FORMAT")
        body = _("%(name)s, you have not given your order for %(phase)s yet. Deadline: %(deadline)s.") % {
            "name": seat.display_name, "phase": phase.label, "deadline": deadline}
        url = settings.SITE_URL.rstrip("/") + game.get_absolute_url()
        return notification_email(subject=subject, template="reminder.txt", to=user.email,
                                  context={"text": body, "game_url": url})


def _email_reminder(note: Notification, phase: Phase, seat: Seat, now: datetime) -> int:
    if not email_enabled(seat.user) or not _claim_email([note.pk], now):
        return 0
    try:
        return get_connection().send_messages([reminder_message(phase=phase, seat=seat)]) or 0
    except Exception:
        # The reminder is in the inbox already; a lost e-mail is logged, not retried (the deadline is near).
        logger.exception("reminder e-mail failed", extra={"phase": phase.pk, "seat": seat.pk})
        count_email_failure()
        Notification.objects.filter(pk=note.pk).update(emailed_at=None)
        return 0
