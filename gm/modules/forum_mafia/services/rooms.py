"""Chat rooms of forum Mafia in the shell (FM-9.3; FM-8 ``manager``, ``conspirator``, ``avenger``): proposals read
from the comment field of day posts into the day's orders, and the rooms as private threads.

**Proposals.** The core calls the module's ``post_saved`` in the transaction that writes or edits a game-thread
post; for a post of a character, :func:`post_saved` reads its comment (:func:`.room_comments.parse_proposal`), lets
the engine check it (:func:`.rooms.check_rooms`), keeps the outcome as the post's :class:`~.models.RoomProposal`
(shown under the post to its author and the master, ``post_notes``) and records the proposals of **all** his posts of
that day as the ``rooms`` part of his day order (``services.orders.order_part_submit``: a new order version, the other
parts kept). A refusal — by night, an unknown name, a wrong size, after the deadline… — never loses the post: the post
stays, the note says why. At the end of the day the engine forms the rooms (FM-9.3) from the orders, exactly once.

A dead ``avenger`` may post (FM-9.7) but gives no orders (FM-6.2), so his own proposals are never recorded: he joins a
new room only when others put him in it without his agreement — the ``conspirator``'s room (FM-8), which needs
nobody's agreement; an agreed room needs every member's proposal (FM-9.3). He keeps reading and writing in the rooms
he is already in.

**Rooms.** ``state["fm"]["rooms"][slug] = {"members", "until"}`` (written by the engine); a room is readable by its
living members, a dead ``avenger`` member (FM-8) and the master — and by everyone once the game is over, like every
secret of the core's visibility layer; nobody else learns it exists (a 404, and no list entry). Members who may speak
(the living, a dead avenger) post while :func:`.rooms.room_open` says so for the phase accepting input (the room
closes once the night after its day ends; the conspirator's lasts to the end of the game); afterwards the room is
read-only and a post is refused with the reason. The master reads every room and does not post in them.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

from gm.core import page_memo, visibility
from gm.core.engine import PhaseInfo, SeatInfo
from gm.core.flood import check_seat_rate
from gm.core.models import Game, Order, Phase, Post, Seat
from gm.core.services import Clock, ServiceError, seat_info

from ..engine import room_comments, rooms
from ..engine.state import DAY
from ..models import RoomPost, RoomProposal

#: ``rooms.check_rooms`` takes at most four proposals a day.
MAX_PROPOSALS = 4
SLUG_PREFIX = "room:"


#: code → (rule ID, message) of refusals the shell adds to the parser's and the engine's (msgids: they are kept
#: untranslated in ``RoomProposal.problem`` and rendered in the reader's language).
REASONS: dict[str, tuple[str, str]] = {
    "room_no_day": ("FM-9.3", gettext_noop("No day was open for it (between phases or after the deadline).")),
    "room_dead": ("FM-8", gettext_noop("The dead give no orders: a dead avenger joins a new room only when the "
                                       "conspirator names him.")),
    "room_many": ("FM-9.3", gettext_noop("At most four room proposals a day are recorded.")),
}


# -- proposals from the comment field ----------------------------------------------------------------------------


def _problem(code: str, params: Mapping[str, Any] | None = None) -> dict:
    rule, message = (REASONS.get(code) or rooms.REASONS.get(code) or room_comments.REASONS[code])
    return {"code": code, "rule": rule, "message": message, "params": dict(params or {})}


def problem_text(problem: Mapping[str, Any]) -> str:
    """A stored refusal in the active language, with its rule ID."""
    if problem.get("text"):
        return str(problem["text"])
    text = gettext(problem.get("message", ""))
    params = problem.get("params") or {}
    if params:
        try:
            text = text % params
        except (KeyError, TypeError, ValueError):
            pass
    return f"{text} ({problem['rule']})" if problem.get("rule") else text


def _checker(seat: Seat, seats: list[Seat], phase: Phase | None, game: Game):
    """``check(members, conspiracy) -> (members in ring order, problem or None)``: the engine's check of one
    proposal of ``seat`` in ``phase`` (:func:`.rooms.check_rooms`), after the shell's own (a day open, a living
    proposer)."""
    infos = [seat_info(s) for s in seats]
    by_id = {i.id: i for i in infos}
    own = by_id[seat.pk]
    fm = (game.state or {}).get("fm") or {}
    info = (PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
            if phase is not None else None)

    def check(members: list[int], conspiracy: bool) -> tuple[list[int], dict | None]:
        if info is None:
            return members, _problem("room_no_day")
        if not seat.alive:
            return members, _problem("room_dead")
        clean, problem = rooms.check_rooms([{"members": members, "conspiracy": conspiracy}], phase=info, seat=own,
                                           by_id=by_id, fm=fm)
        if problem is not None:
            code, _field, params = problem
            return members, _problem(code, params)
        return clean[0]["members"], None

    return check


def _read_comment(post: Post, seat: Seat, seats: list[Seat], check) -> tuple[list[int], bool, dict | None]:
    """``(members, conspiracy, problem)`` of ``post``'s comment (it proposes a room)."""
    try:
        names, conspiracy = room_comments.parse_proposal(post.comment, [s.display_name for s in seats])
    except room_comments.ProposalError as exc:
        return [], False, _problem(exc.code, exc.params)
    by_name = {s.display_name: s.pk for s in seats}
    members, problem = check(list(dict.fromkeys([seat.pk] + [by_name[n] for n in names])), conspiracy)
    return members, conspiracy, problem


#: refusals that depend on the other proposals of the day or on the order as a whole, so a later save may lift them.
_SYNCED = ("room_many", "order")


def post_saved(post: Post, *, clock: Clock = timezone.now) -> RoomProposal | None:
    """Read the chat-room proposal of ``post``'s comment (FM-9.3) after it was written or edited, and record the day's
    proposals of its author in his day order. Returns the post's :class:`RoomProposal` (``None``: the comment proposes
    no room, or the post is the master's). Never raises a refusal: it is kept on the proposal (``problem``)."""
    if post.seat_id is None:
        return None
    proposing = room_comments.has_proposal(post.comment)
    if not proposing and not RoomProposal.objects.filter(post_id=post.pk).exists():
        return None
    with transaction.atomic():
        phase = None
        if post.phase_id is not None:  # the phase row first (the services' lock order)
            phase = Phase.objects.select_for_update().filter(pk=post.phase_id).first()
        game = Game.objects.get(pk=post.game_id)
        seats = list(Seat.objects.filter(game_id=game.pk).select_related("user").order_by("position"))
        seat = next(s for s in seats if s.pk == post.seat_id)
        row = None
        check = _checker(seat, seats, phase, game)
        if proposing:
            members, conspiracy, problem = _read_comment(post, seat, seats, check)
            row, _created = RoomProposal.objects.update_or_create(
                post_id=post.pk, defaults={"seat": seat, "phase": phase, "members": members,
                                           "conspiracy": conspiracy, "problem": problem, "updated_at": clock()})
        else:
            RoomProposal.objects.filter(post_id=post.pk).delete()
        if phase is not None and phase.kind == DAY and seat.alive and seat.user is not None:
            _sync_order(phase=phase, seat=seat, current=row, check=check, clock=clock)
    if row is not None:
        row.refresh_from_db()
    return row


def _sync_order(*, phase: Phase, seat: Seat, current: RoomProposal | None, check, clock: Clock) -> None:
    """Make the ``rooms`` part of ``seat``'s order for day ``phase`` the valid proposals of all his posts of that day
    (in posting order, each set once, at most :data:`MAX_PROPOSALS`). Proposals refused only for the day's count or
    the order as a whole are checked again (``check``), so an earlier post can't block a later one."""
    from .orders import latest_payload, order_part_submit

    rows = [r for r in RoomProposal.objects.filter(seat=seat, phase=phase).select_related("post")
            .order_by("post__created_at", "post_id")
            if r.problem is None or r.problem.get("code") in _SYNCED]
    wanted: list[dict] = []
    status: dict[int, dict | None] = {}
    for r in rows:
        if r.pk != getattr(current, "pk", None):
            _members, problem = check(list(r.members), bool(r.conspiracy))
            if problem is not None:
                status[r.pk] = problem
                continue
        item = {"members": list(r.members), "conspiracy": bool(r.conspiracy)}
        if item in wanted:
            status[r.pk] = None
        elif len(wanted) < MAX_PROPOSALS:
            wanted.append(item)
            status[r.pk] = None
        else:
            status[r.pk] = _problem("room_many")
    value = wanted or None
    current_value = latest_payload(phase, seat).get("rooms") or None
    if value != current_value:
        try:
            order_part_submit(phase=phase, user=seat.user, key="rooms", value=value, clock=clock)
        except ServiceError as exc:
            if current is not None and (current.problem is None or current.problem.get("code") in _SYNCED):
                # The order as a whole was refused (the deadline passed, another part is no longer valid…): the
                # service's message, already in the author's language.
                text = " ".join(m for msgs in exc.errors.values() for m in msgs)
                RoomProposal.objects.filter(pk=current.pk).update(problem={"code": "order", "text": text})
            return
    for r in rows:
        if r.problem != status.get(r.pk):
            RoomProposal.objects.filter(pk=r.pk).update(problem=status.get(r.pk))


def post_notes(viewer: visibility.Viewer, posts: Iterable[Post]) -> dict[int, list[str]]:
    """Post id → the notes about its chat-room proposal ``viewer`` may read: the player of the post's seat and the
    master (whether a proposal went into an order is the author's business; a refusal can tell what only he knows,
    e.g. that the conspirator has used his room)."""
    posts = list(posts)
    if viewer.user is None or not viewer.user.is_authenticated:
        return {}
    # By seat, not by user: a replacement player (the master's console) takes over his seat's posts' notes.
    mine = [p.pk for p in posts if viewer.is_master
            or (viewer.seat is not None and p.seat_id == viewer.seat.pk)]
    if not mine:
        return {}
    names = page_memo.seat_names(viewer.game)
    notes: dict[int, list[str]] = {}
    days: dict[int, dict | None] = {}
    for row in RoomProposal.objects.filter(post_id__in=mine).select_related("phase"):
        members = ", ".join(names.get(m, "?") for m in row.members)
        if row.problem is None:
            text = (gettext("Conspiracy recorded in the day's order: %(members)s (FM-8).") if row.conspiracy
                    else gettext("Chat-room proposal recorded in the day's order: %(members)s (FM-9.3)."))
            notes[row.post_id] = [text % {"members": members}]
            if row.phase is not None:
                if row.phase_id not in days:
                    days[row.phase_id] = _day_outcome(row.phase, viewer.game)
                outcome = _outcome_text(row, days[row.phase_id], names)
                if outcome:
                    notes[row.post_id].append(outcome)
        else:
            notes[row.post_id] = [gettext("Chat-room proposal not recorded: %(reason)s")
                                  % {"reason": problem_text(row.problem)}]
    return notes


def _day_outcome(phase: Phase, game: Game) -> dict | None:
    """What the end of day ``phase`` formed rooms from (``rooms.form_rooms``' input and output), or ``None`` while
    the day is not resolved and published: ``{"seats", "proposals", "alive", "formed", "label"}``."""
    if phase.status != Phase.Status.RESOLVED or phase.is_held or phase.kind != DAY:
        return None
    stored = (phase.state or {}).get("seats") or []
    seats = [SeatInfo(id=s["id"], name=s.get("name", ""), position=s.get("position", 0), alive=s.get("alive", True),
                      data={"public_role": (s.get("data") or {}).get("public_role")}) for s in stored]
    result = phase.result or {}
    alive = {s.id: s.alive for s in seats}
    alive.update({int(k): bool(v) for k, v in (result.get("alive") or {}).items()})
    latest: dict[int, Any] = {}
    for seat_id, payload in Order.objects.filter(phase=phase).order_by("seat_id", "version").values_list(
            "seat_id", "payload"):
        latest[seat_id] = payload
    proposals = {sid: list(p.get("rooms") or []) for sid, p in latest.items() if isinstance(p, Mapping)}
    formed = {slug: list(ms) for slug, ms in (result.get("groups") or {}).items() if slug.startswith(SLUG_PREFIX)}
    return {"seats": seats, "proposals": proposals, "alive": alive, "formed": formed,
            "label": game.game_module.phase_label(phase.kind, phase.number)}


_LAPSES = {
    "conspirator_dead": gettext_noop("The conspiracy did not open at the end of %(day)s: the conspirator died that "
                                     "day (FM-8)."),
    "too_few": gettext_noop("The conspiracy did not open at the end of %(day)s: fewer than two of its members could "
                            "join (FM-8)."),
    "died": gettext_noop("This room did not open at the end of %(day)s: %(players)s died that day (FM-9.3)."),
    "not_proposed": gettext_noop("This room did not open at the end of %(day)s: %(players)s did not propose the same "
                                 "members (FM-9.3: every member proposes it)."),
    "placed": gettext_noop("This room did not open at the end of %(day)s: %(players)s had joined another room of the "
                           "day first (one agreed room a day, taken in ring order)."),
}


def _outcome_text(row: RoomProposal, day: dict | None, names: Mapping[int, str]) -> str:
    """The note on a recorded proposal once its day is over: the room opened, or why it lapsed."""
    if day is None:
        return ""
    reason = rooms.lapse_reason(list(row.members), conspiracy=bool(row.conspiracy), proposer=row.seat_id,
                                seats=day["seats"], proposals=day["proposals"], alive=day["alive"],
                                formed=day["formed"])
    if reason is None:
        return gettext("The room opened at the end of %(day)s.") % {"day": day["label"]}
    code, params = reason
    players = ", ".join(names.get(m, "?") for m in params.get("players") or [])
    return gettext(_LAPSES[code]) % {"day": day["label"], "players": players}


def comment_help(*, game: Game, viewer: visibility.Viewer) -> dict | None:
    """How to propose a chat room in a day post's comment (FM-9.3; the manager's sizes and the conspirator's room,
    FM-8), for the composer of a character who may post: ``{"title", "lines"}`` in the active language. The master
    and the dead (who give no orders) get none."""
    seat = viewer.seat
    if seat is None or not seat.alive:
        return None
    lines = [
        gettext("To propose a chat room, write in the comment field of a post by day: “room: Name, Name” with the "
                "other characters' names; you are a member anyway (FM-9.3)."),
        gettext("A room has three members — two to four with the manager (FM-8) — and opens at the end of the day "
                "only if every member proposed exactly the same members by the deadline; it stays open through the "
                "next night. One agreed room a day for each character."),
        gettext("Under your post you will see whether the proposal went into your day order, and after the day "
                "whether the room opened or why not. By night, proposals are not recorded."),
    ]
    if (seat.data or {}).get("public_role") == "conspirator":
        lines.append(gettext("Conspirator: “conspiracy: Name, Name…” opens a room of any size with the characters "
                             "you name, without their agreement, once per game (FM-8)."))
    return {"title": gettext("How to propose a chat room"), "lines": lines}


# -- rooms -------------------------------------------------------------------------------------------------------


@dataclass
class Room:
    """A chat room as a viewer sees it. ``key`` is the slug without ``room:`` (``1-2``, for URLs)."""

    slug: str
    key: str
    day: int
    number: int
    members: list[dict]
    lasting: bool
    until: int | None
    open: bool
    may_post: bool
    closed_reason: str = ""
    post_count: int = 0

    @property
    def label(self) -> str:
        if self.lasting:
            return gettext("Conspiracy of Day %(day)s") % {"day": self.day}
        return gettext("Room %(number)s of Day %(day)s") % {"day": self.day, "number": self.number}


def _states(game: Game) -> dict[str, dict]:
    return dict(((game.state or {}).get("fm") or {}).get("rooms") or {})


def _key_numbers(slug: str) -> tuple[int, int]:
    try:
        day, number = slug.removeprefix(SLUG_PREFIX).split("-", 1)
        return int(day), int(number)
    except ValueError:
        return 0, 0


def _speaks(seat: Seat) -> bool:
    """The living, and a dead ``avenger`` (FM-8), read and write in their rooms (FM-9.7)."""
    return seat.alive or (seat.data or {}).get("public_role") == "avenger"


def may_read(viewer: visibility.Viewer, members: Iterable[int]) -> bool:
    """Members who may speak (the living, a dead avenger), the master — everyone once the game is over."""
    return viewer.sees_everything or (viewer.seat is not None and viewer.seat.pk in set(members)
                                      and _speaks(viewer.seat))


def _phase_ordinal(game: Game, now: datetime) -> int | None:
    """The ordinal rooms are judged by: the phase accepting input; one past an unresolved phase whose deadline has
    passed (its time is over); ``None`` when the game has no unresolved phase."""
    phase = (page_memo.unresolved_phase(game) if page_memo.active()
             else Phase.objects.filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first())
    if phase is None:
        return None
    accepting = phase.status == Phase.Status.OPEN and (phase.deadline > now or game.paused_at is not None)
    return phase.ordinal if accepting else phase.ordinal + 1


def _phase_labels(game: Game, ordinals: Iterable[int | None]) -> dict[int, str]:
    """Ordinal → label of ``game``'s phases among ``ordinals`` (the rooms' closing phases): one query for every
    room of a page, and each phase's label reads the game already loaded, not one more query per room."""
    wanted = {int(o) for o in ordinals if o is not None}
    if not wanted:
        return {}
    labels = {}
    phases = ([p for p in page_memo.phases(game) if p.ordinal in wanted] if page_memo.active() else
              Phase.objects.filter(game_id=game.pk, ordinal__in=wanted).only("id", "game_id", "ordinal", "kind",
                                                                              "number"))
    for phase in phases:
        phase.game = game
        labels[phase.ordinal] = phase.label
    return labels


def _closed_reason(game: Game, state: Mapping[str, Any], until: int | None, ordinal: int | None,
                   labels: Mapping[int, str] | None = None) -> str:
    if game.status != Game.Status.RUNNING or ordinal is None:
        return gettext("The game is not running: rooms are read-only.")
    if until is not None and ordinal > until:
        if labels is None:
            labels = _phase_labels(game, [until])
        label = labels.get(int(until), str(until))
        return gettext("This room closed when %(phase)s ended: it is read-only now (FM-9.3).") % {"phase": label}
    return ""


def _room(viewer: visibility.Viewer, slug: str, state: Mapping[str, Any], seats: Mapping[int, Seat],
          ordinal: int | None, labels: Mapping[int, str] | None = None) -> Room:
    game = viewer.game
    members = [m for m in state.get("members") or [] if m in seats]
    until = state.get("until")
    day, number = _key_numbers(slug)
    is_open = (game.status == Game.Status.RUNNING and ordinal is not None
               and rooms.room_open({"fm": {"rooms": {slug: state}}}, slug, ordinal))
    me = viewer.seat
    may_post = is_open and me is not None and me.pk in members and _speaks(me) and not viewer.is_master
    return Room(slug=slug, key=slug.removeprefix(SLUG_PREFIX), day=day, number=number,
                members=[{"id": m, "name": seats[m].display_name, "alive": seats[m].alive} for m in members],
                lasting=until is None, until=until, open=is_open, may_post=may_post,
                closed_reason="" if is_open else _closed_reason(game, state, until, ordinal, labels))


def room_list(viewer: visibility.Viewer, *, clock: Clock = timezone.now) -> list[Room]:
    """The rooms ``viewer`` may read, newest day first (the master: all of them; a player: his own; nobody else any),
    each with its post count."""
    game = viewer.game
    states = _states(game)
    if not (viewer.sees_everything or viewer.seat is not None):
        return []
    readable = {slug: st for slug, st in states.items() if may_read(viewer, st.get("members") or [])}
    if page_memo.active():
        # The game page: one query for the panel whether the game has no room or forty (issue 25: the page's query
        # count does not depend on its size); only the readable rooms' counts are used.
        counts = page_memo.remember(("fm_room_counts", game.pk), lambda: dict(
            RoomPost.objects.filter(game_id=game.pk).values("room").annotate(n=Count("id")).values_list("room", "n")))
    elif readable:
        counts = dict(RoomPost.objects.filter(game_id=game.pk, room__in=list(readable)).values("room")
                      .annotate(n=Count("id")).values_list("room", "n"))
    if not readable:
        return []
    # The game page's one load of the seats (page_memo), not one more query for its rooms panel.
    seats = {s.pk: s for s in (page_memo.seats(game) if page_memo.active() else Seat.objects.filter(game_id=game.pk))}
    ordinal = _phase_ordinal(game, clock())
    labels = _phase_labels(game, [st.get("until") for st in readable.values()]) if ordinal is not None else {}
    out = []
    for slug, st in readable.items():
        room = _room(viewer, slug, st, seats, ordinal, labels)
        room.post_count = counts.get(slug, 0)
        out.append(room)
    return sorted(out, key=lambda r: (-r.day, r.number))


def room_get(viewer: visibility.Viewer, key: str, *, clock: Clock = timezone.now) -> Room:
    """The room ``key`` (``1-2`` or ``room:1-2``) if ``viewer`` may read it; ``ServiceError`` ``not_found`` otherwise
    — the same answer whether it does not exist or is not his, so a non-member can't learn that it exists."""
    slug = key if key.startswith(SLUG_PREFIX) else SLUG_PREFIX + key
    state = _states(viewer.game).get(slug)
    if state is None or not may_read(viewer, state.get("members") or []):
        raise ServiceError(_("No such room."), code="not_found")
    seats = {s.pk: s for s in Seat.objects.filter(game_id=viewer.game.pk)}
    return _room(viewer, slug, state, seats, _phase_ordinal(viewer.game, clock()))


def room_posts(viewer: visibility.Viewer, room: Room) -> list[dict]:
    """The posts of ``room`` (got through :func:`room_get`, so readable by ``viewer``), oldest first, each as
    ``{id, author, seat, author_alive, phase_label, body, html, created_at}`` (``html``: the BBCode rendered and
    sanitised by the game thread's renderer)."""
    from gm.core import markup

    if not may_read(viewer, [m["id"] for m in room.members]):
        return []
    module = viewer.game.game_module
    items = []
    for post in (RoomPost.objects.filter(game_id=viewer.game.pk, room=room.slug)
                 .select_related("seat", "phase", "author__profile")):
        items.append({
            "id": post.pk, "author": post.seat.display_name if post.seat else post.author.get_username(),
            "seat": post.seat_id, "author_alive": post.seat.alive if post.seat else None,
            "phase_label": module.phase_label(post.phase.kind, post.phase.number) if post.phase else "",
            "body": post.body, "html": markup.render(post.body), "created_at": post.created_at,
        })
    return items


def room_post_create(*, game: Game, user, room: str, body: Any, clock: Clock = timezone.now) -> RoomPost:
    """Write ``body`` (BBCode) in chat room ``room`` (its key ``1-2`` or slug) as ``user``'s character.

    Raises :class:`ServiceError`: ``not_found`` when ``user`` may not read the room (or it does not exist),
    ``forbidden`` for the master and members who may not speak, ``state`` when the room is read-only (with the
    reason: it closed after the next night, FM-9.3; the game is not running), ``invalid`` (field ``body``) for an empty
    or over-long text. Nothing is saved on error."""
    body = body.strip() if isinstance(body, str) else None
    if body is None:
        raise ServiceError({"body": [_("The text must be a string.")]})
    if not body:
        raise ServiceError({"body": [_("Write something first.")]})
    if len(body) > RoomPost.MAX_BODY:
        raise ServiceError({"body": [_("A post may have at most %(max)s characters; this one has %(n)s.")
                                     % {"max": RoomPost.MAX_BODY, "n": len(body)}]})
    if user is None or not user.is_authenticated:
        raise ServiceError(_("No such room."), code="not_found")
    with transaction.atomic():
        # The phase row first (the services' lock order): the night can't end between the check and the write.
        phase = (Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED)
                 .first())
        game = Game.objects.get(pk=game.pk)
        viewer = visibility.viewer_for(user, game)
        found = room_get(viewer, room, clock=clock)
        if viewer.is_master:
            raise ServiceError(_("The master reads the rooms; only their members write in them."), code="forbidden")
        if not found.open:
            raise ServiceError(found.closed_reason or _("This room is read-only."), code="state")
        if not found.may_post:
            raise ServiceError(_("You may not write in this room."), code="forbidden")
        check_seat_rate(game=game, user=user, action="room", now=clock())
        accepting = phase if phase is not None and phase.status == Phase.Status.OPEN else None
        return RoomPost.objects.create(game=game, room=found.slug, author=user, seat=viewer.seat, phase=accepting,
                                       body=body, created_at=clock())


def notify_new_rooms(*, phase_id: int) -> int:
    """Tell the members of the rooms created by the resolution of ``phase_id`` (its stored result's ``room:`` groups)
    through the inbox (``gm.inbox.services.notify_room``: members only, once per member and room). Returns how many
    notifications were created."""
    phase = Phase.objects.select_related("game").filter(pk=phase_id, status=Phase.Status.RESOLVED).first()
    if phase is None or phase.game.module != "forum_mafia":
        return 0
    groups = {slug: ids for slug, ids in ((phase.result or {}).get("groups") or {}).items()
              if slug.startswith(SLUG_PREFIX)}
    if not groups:
        return 0
    from gm.inbox.services import notify_room

    return sum(len(notify_room(phase.game, slug, ids)) for slug, ids in groups.items())
