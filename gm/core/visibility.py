"""The one visibility layer: what each viewer of a game may see.

Pages, the API, feeds and notifications all read game data through these functions, never through raw
querysets, so one place decides. Viewer kinds: ``master`` (the game's master, or a superuser), ``player`` (a
living seat's user), ``dead_player``, ``spectator`` (logged in, no seat) and ``anonymous``. When a game is over
(finished or aborted) everything is revealed to everyone.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import BooleanField, ExpressionWrapper, Prefetch, Q, QuerySet, Value

from . import page_memo
from .comaster_roles import READ_ONLY, master_role, master_users, may_master
from .engine import PhaseInfo, SeatInfo, ViewerInfo
from .models import (
    AuditEntry,
    Game,
    GroupMembership,
    LogEntry,
    Order,
    Phase,
    Post,
    PostPrivate,
    PostRevision,
    Seat,
    life_of,
)
from .prepared import PreparedQuery

MASTER = "master"
PLAYER = "player"
DEAD_PLAYER = "dead_player"
SPECTATOR = "spectator"
ANONYMOUS = "anonymous"
VIEWER_KINDS = (MASTER, PLAYER, DEAD_PLAYER, SPECTATOR, ANONYMOUS)


@dataclass(frozen=True)
class Viewer:
    """Who is looking at ``game``: ``kind`` (one of :data:`VIEWER_KINDS`), the ``user`` (``None`` when
    anonymous) and his own ``seat`` (players only). A co-master (issue 24) is a ``master``; a read-only one
    (BV-15.14) has ``read_only``: he sees everything the master sees and may do nothing (:attr:`may_act`)."""

    game: Game
    kind: str
    user: Any = None
    seat: Seat | None = None
    read_only: bool = False

    @property
    def is_master(self) -> bool:
        """The master, a co-master (read-only ones too) or a superuser: who reads everything a master reads."""
        return self.kind == MASTER

    @property
    def may_act(self) -> bool:
        """A master who may act (the master, a full co-master, a superuser), not a read-only co-master."""
        return self.kind == MASTER and not self.read_only

    @property
    def revealed(self) -> bool:
        """Everything is public once the game is over."""
        return self.game.is_over

    @property
    def sees_everything(self) -> bool:
        """The master, everyone once the game is over, and a dead player of a game whose graveyard lets the dead
        see everything (``GameLife.dead_see_everything``, issue 23)."""
        if self.is_master or self.revealed:
            return True
        return self.kind == DEAD_PLAYER and life_of(self.game).dead_see_everything

    def info(self) -> ViewerInfo:
        """The engine-side description passed to a module's ``view``."""
        return ViewerInfo(kind=self.kind, seat=self.seat.pk if self.seat else None, revealed=self.revealed)


def viewer_for(user, game: Game) -> Viewer:
    """Classify ``user`` (may be anonymous or ``None``) as a viewer of ``game``."""
    if user is None or not user.is_authenticated:
        return Viewer(game=game, kind=ANONYMOUS)
    role = master_role(game, user)
    if role is not None:
        return Viewer(game=game, kind=MASTER, user=user, read_only=role == READ_ONLY)
    seat = page_memo.seat_of(game, user)
    if seat is None:
        return Viewer(game=game, kind=SPECTATOR, user=user)
    return Viewer(game=game, kind=PLAYER if seat.alive else DEAD_PLAYER, user=user, seat=seat)


def visible_games(user) -> QuerySet[Game]:
    """Games ``user`` may see in lists: everything but drafts, plus his own drafts (superusers: all)."""
    qs = Game.objects.select_related("master")
    if user is not None and user.is_authenticated:
        if user.is_superuser:
            return qs
        from django.db.models import Exists, OuterRef

        from .models import CoMaster

        co = Exists(CoMaster.objects.filter(game=OuterRef("pk"), user=user))
        return qs.filter(~Q(status=Game.Status.DRAFT) | Q(master=user) | co)
    return qs.exclude(status=Game.Status.DRAFT)


def can_see_game(user, game: Game) -> bool:
    """Whether ``user`` may see ``game`` (the rule of :func:`visible_games`, checked on the loaded row)."""
    if game.status != Game.Status.DRAFT:
        return True
    return may_master(game, user, write=False) or _reviews(user, game)


def _reviews(user, game: Game) -> bool:
    """A setup reviewer (issue 24) reads a draft waiting for his review."""
    from .services.comaster_review import is_reviewer, pending

    return is_reviewer(user) and pending(game)


def _game_page_row(pk: int) -> QuerySet[Game]:
    # The long-game options (``life``) come along: the game page reads them in several places. Whether the game has
    # co-masters or an open takeover offer comes along too, so the pages of a game without them (nearly every game)
    # do not ask (``comaster_roles.comasters_of``, ``comaster_takeover.open_offer``).
    from django.db.models import Exists, OuterRef

    from .models import CoMaster, TakeoverOffer
    from .page_stamps import stamp_subqueries

    # The game's page stamp comes along too: a kept rendering of the page is served when it has not moved
    # (gm.core.page_cache).
    return (Game.objects.select_related("master__profile", "life")
            .annotate(gm_has_comasters=Exists(CoMaster.objects.filter(game=OuterRef("pk"))),
                      gm_has_open_offer=Exists(TakeoverOffer.objects.filter(game=OuterRef("pk"),
                                                                            closed_at__isnull=True)),
                      **stamp_subqueries())
            .filter(pk=pk)[:1])


#: Every game page and game API call starts with this row: compiled once per process (:mod:`gm.core.prepared`).
_GAME_PAGE_ROW = PreparedQuery(_game_page_row, "pk")


def _game_write_row(pk: int) -> QuerySet[Game]:
    # A write reads the state it needs again under its phase lock; the page stamp and the co-master flags serve
    # pages only.
    return Game.objects.defer("state", "outcome").filter(pk=pk)[:1]


_GAME_WRITE_ROW = PreparedQuery(_game_write_row, "pk")


def game_or_404(user, pk, *, module: str | None = None, uses_cards: bool = False, write: bool = False) -> Game:
    """The game ``pk`` if ``user`` may see it (and it is of ``module`` / a card game when asked); raises ``Http404``
    otherwise, so a draft is not even revealed to exist. ``write``: the row a write starts from, without the state
    and outcome (read again if used) and without the page annotations — the order submits of a deadline's crowd
    (issue 25 goal 5)."""
    from django.http import Http404
    from django.utils.translation import gettext as _

    try:
        game = (_GAME_WRITE_ROW if write else _GAME_PAGE_ROW).first(pk=int(pk))
    except (TypeError, ValueError):
        game = None
    if (game is None or not can_see_game(user, game) or (module is not None and game.module != module)
            or (uses_cards and not getattr(game.game_module, "uses_cards", False))):
        raise Http404(_("No such game."))
    return game


def game_options(user, game: Game) -> dict:
    """The game's options as ``user`` may see them: all for its master (and after the game); otherwise what the
    module makes public (a forum Mafia master's fixed composition is not)."""
    if game.is_over or may_master(game, user, write=False):
        return dict(game.options)
    return game.game_module.public_options(game.options)


#: Large JSON columns of the rows the selectors below join: the game state (it holds the card collection) and a
#: phase's stored input and result. Entries, orders and posts need their game's module and their phase's label,
#: never these, and decoding them once per joined row cost most of the game page's time (deferred: still loaded
#: if something does read them).
_HEAVY_GAME = ("game__state",)
_HEAVY_PHASE = ("phase__state", "phase__result")


def log_filter(viewer: Viewer) -> Q | None:
    """The condition on a log entry of the viewer's game that he may read it — public ones; his seat's and his
    groups' (players, living or dead) — or ``None`` when he reads every entry (the master; everyone after the
    game). The one rule behind :func:`log_entries` and :func:`log_readers`."""
    if viewer.sees_everything:
        return None
    visible = Q(visibility=LogEntry.Visibility.PUBLIC)
    if viewer.seat is not None:
        groups = GroupMembership.objects.filter(seat=viewer.seat).values("group")
        visible |= Q(visibility=LogEntry.Visibility.SEAT, seat=viewer.seat)
        visible |= Q(visibility=LogEntry.Visibility.GROUP, group__in=groups)
    return visible


def log_entries(viewer: Viewer) -> QuerySet[LogEntry]:
    """The log entries of the viewer's game he may read, oldest first (:func:`log_filter`)."""
    qs = LogEntry.objects.filter(game=viewer.game).select_related("phase", "game").defer(*_HEAVY_GAME, *_HEAVY_PHASE)
    visible = log_filter(viewer)
    return qs if visible is None else qs.filter(visible)


def log_readers(viewers: Sequence[Viewer], phases: Sequence[Phase],
                fields: Sequence[str] = ("pk",)) -> list[list[tuple]]:
    """For each of ``viewers`` (all of one game), the ``fields`` of the entries of ``phases`` he may read
    (:func:`log_filter`), as :func:`log_entries` would give them (oldest first), in one query instead of one per
    viewer (the inbox asks for every player of a resolved phase)."""
    if not viewers:
        return []
    game = viewers[0].game
    flags = {}
    for i, viewer in enumerate(viewers):
        visible = log_filter(viewer)
        flags[f"gm_reads_{i}"] = Value(True) if visible is None else ExpressionWrapper(visible,
                                                                                      output_field=BooleanField())
    rows = LogEntry.objects.filter(game=game, phase__in=phases).annotate(**flags).values_list(*fields, *flags)
    width = len(fields)
    return [[row[:width] for row in rows if row[width + i]] for i in range(len(viewers))]


def orders(viewer: Viewer, phase: Phase | None = None) -> QuerySet[Order]:
    """Order versions the viewer may read: his own seat's (players), all (master, or after the game), and everyone's
    in the phase kinds the module declares public (``GameModule.public_order_kinds``, e.g. an open vote) — with a
    secret ballot (``GameLife.secret_ballot``) only once their phase is resolved."""
    qs = Order.objects.filter(phase__game=viewer.game).select_related("seat", "phase").defer(*_HEAVY_PHASE)
    if phase is not None:
        qs = qs.filter(phase=phase)
    if viewer.sees_everything:
        return qs
    public = viewer.game.game_module.public_order_kinds
    visible = Q(phase__kind__in=public) if public else Q(pk__in=[])
    if public and life_of(viewer.game).secret_ballot:  # a secret ballot: others' votes once the phase is over
        visible = Q(phase__kind__in=public, phase__status=Phase.Status.RESOLVED)
    if viewer.seat is not None:
        visible |= Q(seat=viewer.seat)
    return qs.filter(visible)


def audit_entries(viewer: Viewer) -> QuerySet[AuditEntry]:
    """The master's audit log: the master only (also after the game: it holds his notes)."""
    qs = AuditEntry.objects.filter(game=viewer.game).select_related("actor", "phase", "game").defer(
        *_HEAVY_GAME, *_HEAVY_PHASE)
    return qs if viewer.is_master else qs.none()


def posts(viewer: Viewer) -> QuerySet[Post]:
    """The game thread, oldest first (FM-9.1: public to everyone, spectators and anonymous visitors included).

    Only the public part of each post is on these rows; the private part of a post (FM-9.2) lives in
    :class:`PostPrivate` and is read per viewer by :func:`thread_items` — show posts through it, never by
    following ``post.private`` yourself."""
    return Post.objects.filter(game=viewer.game).select_related("author__profile", "seat", "phase").defer(*_HEAVY_PHASE)


def private_message_posts(viewer: Viewer, *, limit: int = 20) -> list[Post]:
    """The posts of the thread that carry a private message (FM-9.2) sent to or by ``viewer``'s own seat, newest
    first, at most ``limit`` — for the player's dashboard. Render them with :func:`thread_items`, which decides
    what of each private part the viewer may read (a sender does not read his own message back). Empty for a viewer
    without a seat (the master reads every private message in the thread itself)."""
    if viewer.seat is None:
        return []
    mine = Q(private__recipient=viewer.seat) | Q(seat=viewer.seat, private__isnull=False)
    return list(posts(viewer).filter(mine).order_by("-created_at", "-id")[:limit])


def may_read_private(viewer: Viewer, private: PostPrivate, post: Post | None = None) -> bool:
    """FM-9.2: a private message's text is for its recipient's player and the master (and everyone once the game
    is over), and for its author — the sender's seat (so a replacement player rereads what the seat wrote) — who
    wrote it and may reread it wherever his post is shown. ``post``: the message's post when the caller holds it
    (saves a query); otherwise ``private.post`` is read."""
    if viewer.sees_everything:
        return True
    if viewer.seat is None:
        return False
    sender = (post if post is not None else private.post).seat_id
    return viewer.seat.pk in (private.recipient_id, sender)


def may_know_recipient(viewer: Viewer, private: PostPrivate, post: Post) -> bool:
    """Whether ``viewer`` learns whom a private message is for: everyone when the module made it public (forum
    Mafia's ``postman``); otherwise its reader (:func:`may_read_private`) and its sender's seat, whose player chose
    him (by seat, so a replacement player knows it and the replaced one no longer does)."""
    return (private.public_recipient or may_read_private(viewer, private, post)  # the post given: no query per post
            or (viewer.seat is not None and viewer.seat.pk == post.seat_id))


def post_revisions(viewer: Viewer, post: Post) -> QuerySet[PostRevision]:
    """The earlier versions of ``post`` (FM-9.1 edit history), oldest first: the master only — like the audit log,
    also after the game."""
    qs = PostRevision.objects.filter(post=post, post__game=viewer.game)
    return qs if viewer.is_master else qs.none()


def may_post(viewer: Viewer) -> bool:
    """Whether the viewer may write in the thread now (the master always; a player while the game runs, the
    module lets his character speak, FM-1.4, FM-9.7, and the module keeps the thread open to him in this phase,
    :func:`thread_closed`). The services check it again on every write."""
    if viewer.is_master:
        return viewer.may_act
    if viewer.seat is None or viewer.game.status not in (Game.Status.RUNNING, Game.Status.FINISHED):
        return False
    if not viewer.game.game_module.may_post(viewer.seat.data, viewer.seat.alive):
        return False
    return not seat_thread_closed(viewer.game, viewer.seat)


def thread_closed(viewer: Viewer) -> str:
    """Why the thread is closed now to a player who could otherwise post (a living seat of a running game whose
    character the module lets speak): the module's ``GameModule.thread_closed`` (Blood Vengeance's day, BV-14.8), in
    the reader's language, for the page to show instead of the reply form. ``""`` when it is open, and for everyone
    who may not post for another reason (the master always may; spectators, the dead)."""
    if viewer.is_master or viewer.seat is None or viewer.game.status != Game.Status.RUNNING:
        return ""
    if not viewer.game.game_module.may_post(viewer.seat.data, viewer.seat.alive):
        return ""
    return seat_thread_closed(viewer.game, viewer.seat)


def seat_thread_closed(game: Game, seat: Seat) -> str:
    """``GameModule.thread_closed`` for ``seat`` in the game's unresolved phase (``None`` once none is left); the
    reason, or ``""`` when the thread is open to him. Used by the page, the API and the thread services alike."""
    phase = page_memo.unresolved_phase(game) if game.status == Game.Status.RUNNING else None
    info = (PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
            if phase is not None else None)
    seat_data = SeatInfo(id=seat.pk, name=seat.display_name, position=seat.position, alive=seat.alive,
                         data=seat.data or {})
    return str(game.game_module.thread_closed(state=game.state or {}, phase=info, seat=seat_data) or "")


def _author_name(post: Post) -> str:
    if post.seat is not None:
        return post.seat.display_name
    profile = getattr(post.author, "profile", None)
    return getattr(profile, "name", "") or post.author.get_username()


def thread_items(viewer: Viewer, posts: Iterable[Post]) -> list[dict]:
    """``posts`` (rows of :func:`posts`) as ``viewer`` may see them, in order; one dict per post:

    ``id``, ``author`` (character name, or the master's name), ``seat`` (id or ``None``), ``author_alive``
    (``None`` for the master), ``phase`` (ordinal or ``None``), ``phase_label``, ``body`` (the public BBCode, for
    quoting and editing), ``html`` (it rendered and sanitised), ``comment`` (plain text), ``created_at``,
    ``edited_at``, ``quote`` (the BBCode a quote button inserts), ``can_edit``, ``revisions`` (master only: a list of
    ``{version, body, comment, written_at, replaced_at}``; ``None`` for everyone else) and ``private``: ``None``, or
    ``{"recipient": name or None, "public_recipient": bool, "to_viewer": bool, "text": BBCode or None, "html":
    sanitised HTML or None}`` — ``text``/``html`` only where :func:`may_read_private` allows, the recipient's name
    only where :func:`may_know_recipient` does; ``notes``: the module's notes for this viewer (``post_notes``).
    """
    from . import markup

    posts = list(posts)
    ids = [p.pk for p in posts]
    privates = {p.post_id: p for p in PostPrivate.objects.filter(post_id__in=ids).select_related("recipient")}
    revisions: dict[int, list[dict]] = {}
    if viewer.is_master and any(p.edited_at is not None for p in posts):  # only an edited post has revisions
        for r in PostRevision.objects.filter(post_id__in=ids).order_by("post_id", "version"):
            revisions.setdefault(r.post_id, []).append({
                "version": r.version, "body": r.body, "comment": r.comment, "written_at": r.written_at,
                "replaced_at": r.replaced_at})
    writer = may_post(viewer) and viewer.user is not None
    module = viewer.game.game_module
    notes = module.post_notes(viewer=viewer, posts=posts) if posts else {}
    away = _away_seats(viewer.game, posts)
    items = []
    for post in posts:
        if post.system:  # a post of the site itself ("B replaces A"): words in the reader's language, no actions
            items.append(_system_item(viewer, post, module))
            continue
        author = _author_name(post)
        item = {
            "id": post.pk, "author": author, "seat": post.seat_id,
            "author_alive": post.seat.alive if post.seat is not None else None,
            "phase": post.phase.ordinal if post.phase is not None else None,
            "phase_label": module.phase_label(post.phase.kind, post.phase.number) if post.phase is not None else "",
            "body": post.body, "html": markup.render(post.body), "comment": post.comment,
            "created_at": post.created_at, "edited_at": post.edited_at,
            "quote": markup.quote(author, post.body),
            "can_edit": writer and post.author_id == viewer.user.pk,
            "revisions": revisions.get(post.pk, []) if viewer.is_master else None,
            "private": None,
            "notes": notes.get(post.pk, []),
            "away_until": away.get(post.seat_id) if post.seat_id else None, "system": False,
        }
        private = privates.get(post.pk)
        if private is not None:
            readable = may_read_private(viewer, private, post)
            item["private"] = {
                "recipient": private.recipient.display_name if may_know_recipient(viewer, private, post) else None,
                "public_recipient": private.public_recipient,
                "to_viewer": viewer.seat is not None and viewer.seat.pk == private.recipient_id,
                "text": private.text if readable else None,
                "html": markup.render(private.text) if readable else None,
            }
        items.append(item)
    return items


def _away_seats(game: Game, posts: list[Post]) -> dict:
    """Seat id → last away day, for the authors of ``posts`` away today (their own public declaration, issue 23);
    one query, none without seated authors."""
    if not any(p.seat_id for p in posts):
        return {}
    from django.utils import timezone

    from .services.vacations import away_seat_ids

    return away_seat_ids(game, timezone.now())


def _system_item(viewer: Viewer, post: Post, module) -> dict:
    """A system post (``Post.system``) as :func:`thread_items` shows it: the site's words, nothing to edit or quote."""
    from django.utils.html import escape
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext as _

    from . import messages

    system = post.system if isinstance(post.system, dict) else {}
    text = messages.render(str(system.get("kind", "")), system.get("data") or {}, viewer.game.module)
    return {"id": post.pk, "author": _("Site"), "seat": None, "author_alive": None, "system": True,
            "phase": post.phase.ordinal if post.phase is not None else None,
            "phase_label": module.phase_label(post.phase.kind, post.phase.number) if post.phase is not None else "",
            "body": text, "html": mark_safe(f"<p>{escape(text)}</p>"), "comment": "", "created_at": post.created_at,
            "edited_at": None, "quote": "", "can_edit": False, "revisions": None if not viewer.is_master else [],
            "private": None, "notes": [], "away_until": None}


def private_readers(post: Post) -> list:
    """Users who may read the private part of ``post`` (its recipient's player and the game's master; nobody when it
    has none): the only notification targets for its text."""
    private = PostPrivate.objects.filter(post=post).select_related("recipient__user", "post__game__master").first()
    if private is None:
        return []
    game = private.post.game
    users = master_users(game) + ([private.recipient.user] if private.recipient.user is not None else [])
    return [u for u in users if may_read_private(viewer_for(u, game), private, private.post)]


def may_see_private(viewer: Viewer, seat: Seat) -> bool:
    """Whether ``viewer`` may read ``seat``'s secrets (secret role, Hand, Sleeve, deck, orders): its own player,
    the master, and everyone once the game is over."""
    return viewer.sees_everything or (viewer.seat is not None and viewer.seat.pk == seat.pk)


def seat_projection(viewer: Viewer, seat: Seat) -> dict:
    """One seat as ``viewer`` may see it: name, ring position, alive and the module's public data for all;
    ``private`` (the module's whole seat data: secret role, containers…) only for its own player, the master
    and after the game."""
    module = viewer.game.game_module
    projection = {
        "id": seat.pk,
        "display_name": seat.display_name,
        "position": seat.position,
        "alive": seat.alive,
        "public": module.public_seat_data(seat.data),
    }
    if viewer.sees_everything:
        projection["private"] = seat.data
    elif may_see_private(viewer, seat):
        projection["private"] = module.own_seat_data(seat.data)
    return projection


def seats(viewer: Viewer) -> list[dict]:
    """Every seat of the game projected for ``viewer`` (ring order)."""
    return [seat_projection(viewer, s) for s in page_memo.seats(viewer.game)]


def phase_actors(viewer: Viewer, phase: Phase) -> list[int] | None:
    """Who may order in ``phase`` as ``viewer`` may know it. ``None`` (every living seat) is public; a list of
    seat ids can betray roles (a night phase for the mafia), so only the master and, after the game, everyone
    see it whole; a player learns only whether his own seat is in it."""
    if phase.actors is None or viewer.sees_everything:
        return phase.actors
    return [viewer.seat.pk] if viewer.seat is not None and viewer.seat.pk in phase.actors else []


def group_members(viewer: Viewer, group: str) -> list[Seat]:
    """The seats of ``group`` (a module's group slug, e.g. ``faction:mafia``), in ring order, for a viewer who may
    know who belongs to it: a member (a player, living or dead, whose seat is in it), the master, and everyone once
    the game is over; ``[]`` for anyone else — another seat, a spectator, an anonymous visitor."""
    if not viewer.sees_everything and viewer.seat is None:
        return []
    ids = set(GroupMembership.objects.filter(game=viewer.game, group=group).values_list("seat_id", flat=True))
    if not viewer.sees_everything and viewer.seat.pk not in ids:
        return []
    return [s for s in page_memo.seats(viewer.game) if s.pk in ids]


def game_state(viewer: Viewer) -> dict:
    """The module's own view of the game state for ``viewer``."""
    game = viewer.game
    seat_infos = [
        SeatInfo(id=s.pk, name=s.display_name, position=s.position, alive=s.alive, data=s.data)
        for s in page_memo.seats(game)
    ]
    return game.game_module.view(state=game.state, seats=seat_infos, viewer=viewer.info())


def may_see_entry(viewer: Viewer, entry: LogEntry) -> bool:
    """Whether ``viewer`` may read one log entry (used for notifications and feeds of single entries)."""
    return log_entries(viewer).filter(pk=entry.pk).exists()


def entry_recipients(entry: LogEntry) -> list:
    """Users who may read ``entry`` among the game's master and seated players (notification targets)."""
    game = entry.game
    users = master_users(game) + [s.user for s in game.seats.select_related("user") if s.user is not None]
    return [u for u in users if may_see_entry(viewer_for(u, game), entry)]


#: The lobby's sections → the game statuses each holds, in the order the lobby lists them.
LOBBY_SECTIONS = {
    "signup": (Game.Status.SIGNUP,),
    "running": (Game.Status.SETUP, Game.Status.RUNNING),
    "finished": (Game.Status.FINISHED, Game.Status.ABORTED),
    "drafts": (Game.Status.DRAFT,),
}


def lobby_queryset(user, *, module: str | None = None, section: str | None = None) -> QuerySet[Game]:
    """The lobby's games for ``user`` (:func:`visible_games`), of ``module`` and in ``section`` (a key of
    :data:`LOBBY_SECTIONS`) when given, ordered section by section and newest first within one, so a page of it
    splits into the sections in order."""
    from django.db.models import Case, IntegerField, Value, When

    qs = visible_games(user)
    if module:
        qs = qs.filter(module=module)
    if section:
        qs = qs.filter(status__in=LOBBY_SECTIONS[section])
    rank = Case(*(When(status__in=statuses, then=Value(i)) for i, statuses in enumerate(LOBBY_SECTIONS.values())),
                output_field=IntegerField())
    # The state JSON (the card collection: most of a game row) is never shown in the lobby: not decoded per game.
    return qs.defer("state", "outcome").annotate(lobby_rank=rank).order_by("lobby_rank", "-created_at", "-id")


def lobby_rows(games: Iterable[Game]) -> list[Game]:
    """``games`` (rows of :func:`lobby_queryset`, e.g. one page) each with ``lobby_seats`` (its seats in ring order:
    public names and whether alive) and ``current_phase`` (the unresolved phase, or ``None``), in a number of
    queries that does not grow with the number of games."""
    from django.db.models import prefetch_related_objects

    games = list(games)
    seats = Prefetch("seats", to_attr="lobby_seats",
                     queryset=Seat.objects.only("id", "game_id", "display_name", "alive", "position")
                     .order_by("position"))
    prefetch_related_objects(games, seats)
    current = {p.game_id: p for p in Phase.objects.filter(game__in=[g.pk for g in games])
               .exclude(status=Phase.Status.RESOLVED).defer("state", "result")} if games else {}
    for game in games:
        game.current_phase = current.get(game.pk)
        if game.current_phase is not None:
            game.current_phase.game = game  # its label needs the module: don't query the game again
    return games


def lobby_games(user, *, module: str | None = None) -> list[Game]:
    """Every lobby game for ``user`` (:func:`lobby_queryset`) as :func:`lobby_rows`."""
    return lobby_rows(lobby_queryset(user, module=module).select_related("master__profile"))


# -- viewer-scoped reads shared by the game page's panels (one load per page) ------------------------------


def seat_orders(viewer: Any) -> list:
    """Every version of ``viewer``'s own seat's orders in the game (:func:`orders`), by phase then version;
    ``[]`` without a seat. Inside :func:`gm.core.page_memo.reading`, loaded once per page."""
    if viewer.seat is None:
        return []
    if page_memo.active():  # with the phases' orders the page reads next (the Veche, the console): one query
        return page_memo.remember(("seat_orders", viewer.game.pk, viewer.seat.pk),
                                  lambda: page_memo.seat_orders_with_phases(viewer.game, viewer.seat.pk))
    return list(orders(viewer).filter(seat=viewer.seat).order_by("phase__ordinal", "version"))


def own_orders(viewer: Any, phase: Phase) -> list:
    """The versions of ``viewer``'s own seat's order in ``phase``, oldest first (:func:`orders`). Inside
    :func:`gm.core.page_memo.reading`, taken from :func:`seat_orders` (one load for every phase's panels)."""
    if page_memo.active() and viewer.seat is not None:
        return [o for o in seat_orders(viewer) if o.phase_id == phase.pk]
    return list(orders(viewer, phase).filter(seat=viewer.seat).order_by("version"))


def _with_page_rows(viewer: Any, entries: QuerySet[LogEntry]) -> list[LogEntry]:
    """``entries`` (rows of :func:`log_entries`) loaded without their game and phase rows — each entry gets the
    page's game and its phase from the page's one load of the phases (``page_memo.phases``) — instead of a game and
    a phase object built per entry (a log of 300 entries built 600; issue 25)."""
    phases = {p.pk: p for p in page_memo.phases(viewer.game)}
    rows = list(entries.select_related(None))
    for entry in rows:
        entry.game = viewer.game
        entry.phase = phases.get(entry.phase_id) if entry.phase_id is not None else None
    return rows


#: How many of the newest phases the game page's log of a viewer who sees everything covers (:func:`full_log`): as
#: many as the master's console reports (``console.PHASES_SHOWN``), so the page's cost does not grow with the game.
LOG_WINDOW_PHASES = 12


def full_log(viewer: Any) -> list | None:
    """Inside :func:`gm.core.page_memo.reading`, for a viewer who sees everything (the master; anyone after the
    game): the log entries (:func:`log_entries`) of the game's newest :data:`LOG_WINDOW_PHASES` phases — every
    entry while the game has no more phases than that — oldest first; the log, the console's phase reports and the
    resolution trace are cut from this one load (issue 25: the page no longer loads and formats a long game's whole
    log). ``None`` otherwise: the caller queries what it needs."""
    if not page_memo.active() or not viewer.sees_everything:
        return None

    def load() -> list:
        entries = log_entries(viewer)
        phases = page_memo.phases(viewer.game)
        windowed = len(phases) > LOG_WINDOW_PHASES
        if windowed:
            window = {p.pk for p in phases[-LOG_WINDOW_PHASES:]}
            entries = entries.filter(phase_id__in=window)
            page_memo.note(("log_window", viewer.game.pk), window)
        page_memo.note(("log_windowed", viewer.game.pk), windowed)
        return _with_page_rows(viewer, entries.order_by("created_at", "id"))

    return page_memo.remember(("full_log", viewer.game.pk), load)


def visible_log(viewer: Any, limit: int) -> list | None:
    """Inside :func:`gm.core.page_memo.reading`: the newest ``limit`` log entries ``viewer`` may read
    (:func:`log_entries`), oldest first — all of them (:func:`full_log`) for a viewer who sees everything. ``None``
    outside."""
    if not page_memo.active():
        return None
    every = full_log(viewer)
    if every is not None:
        windowed = page_memo.remember(("log_windowed", viewer.game.pk), lambda: False)
        page_memo.note(("log_complete", viewer.game.pk), not windowed)
        return every[-limit:]

    def load() -> list:
        newest = _with_page_rows(viewer, log_entries(viewer).order_by("-created_at", "-id")[:limit])
        page_memo.note(("log_complete", viewer.game.pk), len(newest) < limit)
        return newest[::-1]

    return page_memo.remember(("visible_log", viewer.game.pk), load)
