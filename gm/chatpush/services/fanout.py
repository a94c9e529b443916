"""Who gets which chat or push message: the same fan-out as the inbox, read through ``gm.core.visibility``.

Recipients are the game's master and seated players (spectators and visitors get nothing, as in the inbox). For
each one the text is rendered in his language and time zone from what the visibility layer lets *him* read, and
only the public part is copied: private log lines and private messages are announced with a count or the sender's
(public) name, never their text; seats are named by ``display_name``, which in an anonymous game is the alias
(``gm.core.services.anonymity``). Every message carries the game's title and an absolute link.

Each function is keyword-only and idempotent: a message is one :class:`~gm.chatpush.models.Delivery` per channel
that wants its event, unique by ``(channel, key)``, so a task run twice queues nothing new. A new row is handed to
``gm.chatpush.tasks.deliver_task`` after commit.
"""
from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from gm.core import sweeps, visibility
from gm.core.engine import PhaseInfo
from gm.core.links import absolute_url
from gm.core.models import Game, LogEntry, Phase, Post, PostPrivate, Seat
from gm.core.services.base import Clock, seat_info, task

from .. import texts
from ..models import (
    DEADLINE,
    MENTION,
    PHASE_OPENED,
    PRIVATE_MESSAGE,
    PROD,
    RESULTS,
    YOUR_MOVE,
    Channel,
    Delivery,
)

DELIVER_TASK = "gm.chatpush.tasks.deliver_task"
Render = Callable[[], tuple[str, str]]


def _preferences(user) -> tuple[str, str]:
    profile = getattr(user, "profile", None)
    return (getattr(profile, "language", None) or settings.LANGUAGE_CODE,
            getattr(profile, "time_zone", None) or settings.GM_DEFAULT_USER_TIME_ZONE)


@contextmanager
def recipient_locale(user) -> Iterator[None]:
    """Render inside ``user``'s language and time zone (his profile's, else the site's defaults)."""
    language, tz = _preferences(user)
    with translation.override(language), timezone.override(zoneinfo.ZoneInfo(tz)):
        yield


def channels_for(user, event: str) -> list[Channel]:
    """``user``'s enabled channels that receive ``event`` (none for a deactivated account)."""
    if not getattr(user, "is_active", False):
        return []
    return [c for c in Channel.objects.filter(user=user, enabled=True) if event in (c.events or [])]


def queue(*, user, game: Game, event: str, key: str, render: Render, url: str, collapse: str = "",
          ttl: int | None = None, now: datetime) -> list[Delivery]:
    """Queue one message for each of ``user``'s channels that want ``event``; returns the rows created.

    ``render()`` gives ``(title, body)`` and runs once, in ``user``'s language and time zone; ``url`` is the
    site-absolute path of what to open (made absolute on ``SITE_URL``); ``key`` de-duplicates per channel;
    ``collapse`` (at most 32 URL-safe characters) marks older pending messages of the same collapse key on the
    channel ``superseded`` (a newer deadline warning replaces an older one); ``ttl`` seconds the push service may
    keep it (default ``GM_CHATPUSH_TTL``)."""
    channels = channels_for(user, event)
    if not channels:
        return []
    with recipient_locale(user):
        title, body = render()
    created = []
    for channel in channels:
        row = Delivery(channel=channel, game=game, event=event, key=key[:120], collapse=collapse, title=title[:300],
                       body=body, url=absolute_url(url)[:500], created_at=now,
                       ttl=max(0, int(ttl if ttl is not None else settings.GM_CHATPUSH_TTL)))
        try:
            with transaction.atomic():  # a savepoint: a duplicate must not break the caller's transaction
                row.save()
        except IntegrityError:
            continue
        if collapse:
            (Delivery.objects.filter(channel=channel, collapse=collapse, status=Delivery.Status.PENDING)
             .exclude(pk=row.pk).update(status=Delivery.Status.SUPERSEDED))
        task(DELIVER_TASK).delay_on_commit(row.pk)
        created.append(row)
    return created


def _recipients(game: Game, *events: str) -> list:
    """The game's master and seated players (in that order, each once) who have an enabled channel wanting one
    of ``events``: one query for the channels first, so that a game whose people linked no channel costs a
    resolution's fan-out one query and nothing per player."""
    ids = {game.master_id, *game.seats.filter(user__isnull=False).values_list("user_id", flat=True)}
    wanted = {user_id for user_id, kinds in Channel.objects.filter(user_id__in=ids, enabled=True)
              .values_list("user_id", "events") if set(kinds or ()) & set(events)}
    if not wanted:
        return []
    users = {game.master_id: game.master} if game.master_id in wanted else {}
    for seat in game.seats.select_related("user__profile").filter(user_id__in=wanted).order_by("position"):
        users.setdefault(seat.user_id, seat.user)
    return list(users.values())


# -- phases ------------------------------------------------------------------------------------------------------


def phase_results(*, phase_id: int, clock: Clock = timezone.now) -> list[Delivery]:
    """A resolved phase (``results``): each recipient who may read some of its log gets its public lines and the
    count of the lines for his eyes only; then the opening of the next phase (:func:`phase_opened`)."""
    phase = Phase.objects.select_related("game__master").filter(pk=phase_id, status=Phase.Status.RESOLVED).first()
    if phase is None:
        return []
    game, now = phase.game, clock()
    created = []
    following = game.phases.filter(ordinal=phase.ordinal + 1, status=Phase.Status.OPEN).first()
    # A game of short steps (GameModule.step_notices, BW-24): while it goes on, only the master gets each step's
    # results; a player hears of a step only when it asks him (your_move below).
    steps = bool(game.game_module.step_notices) and following is not None
    for user in _recipients(game, RESULTS):
        if steps and user.pk != game.master_id:
            continue
        viewer = visibility.viewer_for(user, game)
        entries = list(visibility.log_entries(viewer).filter(phase=phase).order_by("created_at", "id"))
        if not entries:
            continue

        def render(entries=entries) -> tuple[str, str]:
            public = [e.text() for e in entries if e.visibility == LogEntry.Visibility.PUBLIC]
            return texts.results(game=game.title, phase=phase.label, public_lines=public,
                                 private=len(entries) - len(public))

        created += queue(user=user, game=game, event=RESULTS, key=f"results:{phase.pk}", render=render,
                         url=game.get_absolute_url() + "#log-h", now=now)
    if following is not None:
        created += phase_opened(phase_id=following.pk, clock=clock)
    return created


def _has_move(viewer: visibility.Viewer, phase: Phase, seats: list[Seat]) -> bool:
    seat = viewer.seat
    if seat is None or not seat.alive:
        return False
    actors = visibility.phase_actors(viewer, phase)  # a player learns only whether his own seat is among them
    if actors is not None and seat.pk not in actors:
        return False
    info = PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
    return bool(phase.game.game_module.has_legal_action(state=phase.game.state, phase=info, seat=seat_info(seat),
                                                        seats=[seat_info(s) for s in seats]))


def phase_opened(*, phase_id: int, clock: Clock = timezone.now) -> list[Delivery]:
    """An open phase: ``phase_opened`` for every recipient, and ``your_move`` for each living seated player the
    phase asks to act (the module's ``has_legal_action``)."""
    phase = Phase.objects.select_related("game__master").filter(pk=phase_id, status=Phase.Status.OPEN).first()
    if phase is None:
        return []
    game, now = phase.game, clock()
    recipients = _recipients(game, PHASE_OPENED, YOUR_MOVE)
    if not recipients:
        return []
    seats = list(game.seats.order_by("position"))
    url = game.get_absolute_url()
    created = []
    steps = bool(game.game_module.step_notices)  # a step is announced to its actors only (BW-24)
    for user in recipients:
        if not (steps and user.pk != game.master_id):
            created += queue(user=user, game=game, event=PHASE_OPENED, key=f"opened:{phase.pk}", url=url,
                             now=now, render=lambda: texts.phase_opened(game=game.title, phase=phase.label,
                                                                        deadline=phase.deadline))
        if _has_move(visibility.viewer_for(user, game), phase, seats):
            created += queue(user=user, game=game, event=YOUR_MOVE, key=f"move:{phase.pk}", url=url, now=now,
                             render=lambda: texts.your_move(game=game.title, phase=phase.label,
                                                            deadline=phase.deadline))
    return created


def game_started(*, game_id: int, clock: Clock = timezone.now) -> list[Delivery]:
    """The game's first open phase, announced as :func:`phase_opened` (nothing when none is open)."""
    phase = Phase.objects.filter(game_id=game_id, status=Phase.Status.OPEN).order_by("ordinal").first()
    return phase_opened(phase_id=phase.pk, clock=clock) if phase is not None else []


# -- the thread --------------------------------------------------------------------------------------------------

_MENTION = re.compile(r"@")


def _mentioned(body: str, seats: list[Seat]) -> list[Seat]:
    """The seats whose ``display_name`` follows an ``@`` in ``body`` (case-insensitive, the name ending at a
    non-word character); the longest name wins where one name starts another."""
    text = body.casefold()
    found = []
    for seat in sorted(seats, key=lambda s: -len(s.display_name)):
        name = seat.display_name.casefold()
        if re.search(r"@" + re.escape(name) + r"(?!\w)", text):
            found.append(seat)
            text = text.replace("@" + name, " ")
    return found


def post_created(*, post_id: int, clock: Clock = timezone.now) -> list[Delivery]:
    """A new post: its private message's recipient (``private_message``; the master reads it in the thread and is
    not told, as in the inbox) and the seats named ``@Name`` in its public text (``mention``; not the author's
    own). Names come from :func:`gm.core.visibility.thread_items` for each recipient: aliases in an anonymous
    game, and the recipient of a private message learns only what he may."""
    post = Post.objects.select_related("game__master", "seat", "author__profile").filter(pk=post_id).first()
    if post is None or post.system:
        return []
    game, now = post.game, clock()
    url = f"{game.get_absolute_url()}#post-{post.pk}"
    created = []
    private = PostPrivate.objects.filter(post=post).select_related("recipient__user__profile").first()
    readers = {u.pk for u in visibility.private_readers(post)} if private is not None else set()
    if private is not None and private.recipient.user is not None and private.recipient.user_id in readers:
        user = private.recipient.user
        item = visibility.thread_items(visibility.viewer_for(user, game), [post])[0]
        created += queue(user=user, game=game, event=PRIVATE_MESSAGE, key=f"private:{private.pk}", url=url, now=now,
                         render=lambda: texts.private_message(game=game.title, sender=item["author"]))
    seats = list(game.seats.select_related("user__profile").filter(user__isnull=False))
    for seat in _mentioned(post.body, seats):
        if seat.pk == post.seat_id or seat.user_id == post.author_id:
            continue
        item = visibility.thread_items(visibility.viewer_for(seat.user, game), [post])[0]
        created += queue(user=seat.user, game=game, event=MENTION, key=f"mention:{post.pk}", url=url, now=now,
                         render=lambda item=item: texts.mention(game=game.title, author=item["author"],
                                                                text=item["body"]))
    return created


# -- single seats ------------------------------------------------------------------------------------------------


def prod(*, seat_id: int, prods: int, hours, clock: Clock = timezone.now) -> list[Delivery]:
    """The player of seat ``seat_id`` is prodded (``prod``), once per prod."""
    seat = Seat.objects.select_related("game", "user__profile").filter(pk=seat_id).first()
    if seat is None or seat.user is None:
        return []
    game = seat.game
    return queue(user=seat.user, game=game, event=PROD, key=f"prod:{seat.pk}:{prods}", url=game.get_absolute_url(),
                 render=lambda: texts.prod(game=game.title, hours=hours), now=clock())


def seat_told(*, entry_ids, clock: Clock = timezone.now) -> list[Delivery]:
    """A master's line for one seat (``results``): its player is told there is one, after the visibility layer
    confirms he may read it; the text stays on the site."""
    created = []
    now = clock()
    for entry in LogEntry.objects.filter(pk__in=list(entry_ids), visibility=LogEntry.Visibility.SEAT,
                                         seat__user__isnull=False).select_related("seat__user__profile", "game"):
        user, game = entry.seat.user, entry.game
        if not visibility.may_see_entry(visibility.viewer_for(user, game), entry):
            continue
        created += queue(user=user, game=game, event=RESULTS, key=f"told:{entry.pk}", now=now,
                         url=f"{game.get_absolute_url()}#log-{entry.pk}",
                         render=lambda game=game: texts.told(game=game.title))
    return created


# -- deadline warnings -------------------------------------------------------------------------------------------


def deadline_collapse(game: Game | int) -> str:
    """The collapse key of a game's deadline warnings (the Web Push ``Topic``: at most 32 URL-safe characters)."""
    return f"deadline-{getattr(game, 'pk', game)}"


def deadline_sweep(*, clock: Clock = timezone.now, limit: int | None = None) -> list[Delivery]:
    """Deadline warnings (``deadline``), following the inbox's reminders (``gm.inbox``'s ``PhaseReminder``: the
    master's or the deadline grid's lead time, once per phase and seat): the whole sweep, batch after batch
    (:func:`deadline_sweep_batch`), in one call. Returns the deliveries queued."""
    return [delivery for batch in sweeps.walk(lambda after: deadline_sweep_batch(clock=clock, limit=limit, after=after))
            for delivery in batch]


def deadline_sweep_batch(*, clock: Clock = timezone.now, limit: int | None = None,
                         after: Any = None) -> tuple[list[Delivery], list | None]:
    """One batch of the deadline warnings: at most ``limit`` phases (default ``GM_SWEEP_BATCH``) after the sweep
    cursor ``after`` (:mod:`gm.core.sweeps`, ``None``: from the nearest deadline) in (deadline, id) order; returns
    the deliveries queued and the cursor of the next batch (``None``: done). The task sends each next batch as a
    task of its own.

    For each reminded seat of an open phase of a running, unpaused game whose deadline is still ahead and which
    still has not acted (``gm.inbox.services.seats_to_remind``): one warning per phase *and deadline* — the same
    warning is never sent twice; when the deadline moved (an extension, a pause) a new one is sent that says so.
    All warnings of a game share one collapse key (:func:`deadline_collapse`): a Web Push notification replaces the
    previous one, and an older warning still waiting for its retry is dropped. The push service keeps it until the
    deadline (``ttl``). Raises ``ValueError`` for a malformed ``after``."""
    from django.db.models import Exists, OuterRef

    from gm.inbox.models import PhaseReminder
    from gm.inbox.services import seats_to_remind

    now = clock()
    phases, resume = sweeps.batch(
        Phase.objects.filter(Exists(PhaseReminder.objects.filter(phase=OuterRef("pk"))), status=Phase.Status.OPEN,
                             deadline__gt=now, game__status=Game.Status.RUNNING, game__paused_at__isnull=True)
        .select_related("game").defer("game__state", "game__outcome", "state", "result"),
        limit=limit or settings.GM_SWEEP_BATCH, after=after)
    # The seats the inbox reminded, for the whole batch in one query.
    reminded = set(PhaseReminder.objects.filter(phase_id__in=[p.pk for p in phases]).values_list("phase_id",
                                                                                                  "seat_id"))
    created = []
    for phase in phases:
        stamp = int(phase.deadline.timestamp())
        key = f"deadline:{phase.pk}:{stamp}"
        for seat in seats_to_remind(phase):
            if (phase.pk, seat.pk) not in reminded:
                continue
            moved = Delivery.objects.filter(channel__user=seat.user, game=phase.game, event=DEADLINE,
                                            key__startswith=f"deadline:{phase.pk}:").exclude(key=key).exists()
            game = phase.game
            created += queue(
                user=seat.user, game=game, event=DEADLINE, key=key, collapse=deadline_collapse(game),
                url=game.get_absolute_url(), ttl=max(60, int((phase.deadline - now).total_seconds())), now=now,
                render=lambda phase=phase, moved=moved: texts.deadline(game=phase.game.title, phase=phase.label,
                                                                       deadline=phase.deadline, moved=moved))
    return created, resume
