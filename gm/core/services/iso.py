"""Reading a long thread (issue 23, item 6): ISO pages, the phase index and the vote history. Read-only
selectors; everything goes through :mod:`gm.core.visibility`, so a viewer reads nothing he could not read in the
thread or the log.

* :func:`iso_page` — "ISO" (isolation): one author's posts in this game (a seat's, or the master's), optionally of
  one phase only, paginated; each post projected by ``visibility.thread_items`` (a private part only for those who
  may read it).
* :func:`phase_index` — every phase of the game in order, with links to its start and its results in the log, to
  its first post in the thread, and to its vote history.
* :func:`vote_history` — for a phase whose orders the module declares public (``GameModule.public_order_kinds``,
  e.g. ONUW's day vote), every order version with its time, in words (``order_lines``); a module with its own vote
  history (forum Mafia's Veche) links it through ``GameModule.vote_history_url``. A secret ballot
  (``GameLife.secret_ballot``) keeps who voted for whom until the phase ends.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.http import Http404

from .. import visibility
from ..comaster_roles import master_users
from ..models import LogEntry, Phase, Seat, life_of

#: posts per ISO page (as the thread).
ISO_PAGE_SIZE = 20
#: the author key of the master's ISO.
MASTER = "master"


@dataclass
class IsoPage:
    """One page of an author's posts: ``author`` (name shown), ``seat`` (the seat or ``None`` for the master),
    ``page`` (a Django ``Page`` of post rows), ``items`` (those posts as ``visibility.thread_items``), ``phase`` (the
    phase filter or ``None``) and ``phases`` (the phases in which the author posted, for the filter)."""

    author: str
    seat: Seat | None
    page: Page
    items: list[dict]
    phase: Phase | None
    phases: list[Phase]


def _author_posts(viewer: visibility.Viewer, author: str | int):
    posts = visibility.posts(viewer)
    if author == MASTER:
        masters = [u.pk for u in master_users(viewer.game)]  # the co-masters write as masters too (issue 24)
        return posts.filter(seat__isnull=True, system__isnull=True, author_id__in=masters), None
    seat = Seat.objects.filter(game=viewer.game, pk=author).first() if str(author).isdigit() else None
    if seat is None:
        raise Http404("no such author")
    return posts.filter(seat=seat), seat


def iso_page(viewer: visibility.Viewer, *, author: str | int, phase: Any = None, page: Any = None) -> IsoPage:
    """The ISO of ``author`` (a seat id of this game, or ``"master"``) as ``viewer`` may read it: page ``page``
    (1-based; out of range → the nearest page) of his posts, oldest first, in the phase of ordinal ``phase`` only if
    given. Raises ``Http404`` for an author or phase that is not of this game."""
    posts, seat = _author_posts(viewer, author)
    ordinals = sorted(set(posts.exclude(phase__isnull=True).values_list("phase__ordinal", flat=True)))
    phases = list(Phase.objects.filter(game=viewer.game, ordinal__in=ordinals).only(
        "pk", "ordinal", "kind", "number", "game_id").order_by("ordinal"))
    chosen = None
    if phase not in (None, ""):
        chosen = (Phase.objects.filter(game=viewer.game, ordinal=phase).only("pk", "ordinal", "kind", "number",
                                                                            "game_id").first()
                  if str(phase).isdigit() else None)
        if chosen is None:
            raise Http404("no such phase")
        posts = posts.filter(phase=chosen)
    for p in [*phases, *([chosen] if chosen else [])]:
        p.game = viewer.game
    paginator = Paginator(posts, ISO_PAGE_SIZE)
    current = paginator.get_page(page)
    if seat is not None:
        name = seat.display_name
    else:
        profile = getattr(viewer.game.master, "profile", None)
        name = getattr(profile, "name", "") or viewer.game.master.get_username()
    return IsoPage(author=name, seat=seat, page=current, items=visibility.thread_items(viewer, current.object_list),
                   phase=chosen, phases=phases)


def phase_index(viewer: visibility.Viewer, *, page_size: int) -> list[dict]:
    """Every phase of the game, oldest first: ``{"phase", "label", "start", "results", "hammer", "post",
    "post_page", "votes"}`` — ``start``/``results``/``hammer``: the ids of its public ``core.phase_opened`` /
    ``core.phase_resolved`` / ``core.hammer`` log lines (``None`` when absent: a phase still open, a held result),
    ``post``/``post_page``: its first thread post and the thread page it is on (``page_size`` posts a page),
    ``votes``: the URL of its vote history or ``""``."""
    game = viewer.game
    phases = list(Phase.objects.filter(game=game).only("pk", "ordinal", "kind", "number", "status", "game_id")
                  .order_by("ordinal"))
    marks: dict[tuple[int, str], int] = {}
    kinds = ["core.phase_opened", "core.phase_resolved", "core.hammer"]
    for pid, kind, eid in LogEntry.objects.filter(game=game, visibility="public", kind__in=kinds).values_list(
            "phase_id", "kind", "pk").order_by("pk"):
        marks.setdefault((pid, kind), eid)
    first_post: dict[int, tuple[int, int]] = {}
    for n, (pid, post_id) in enumerate(visibility.posts(viewer).values_list("phase_id", "pk")):
        if pid is not None and pid not in first_post:
            first_post[pid] = (post_id, n // page_size + 1)
    module = game.game_module
    rows = []
    for phase in phases:
        phase.game = game
        post = first_post.get(phase.pk)
        rows.append({"phase": phase, "label": phase.label, "start": marks.get((phase.pk, "core.phase_opened")),
                     "results": marks.get((phase.pk, "core.phase_resolved")),
                     "hammer": marks.get((phase.pk, "core.hammer")),
                     "post": post[0] if post else None, "post_page": post[1] if post else None,
                     "votes": _votes_url(module, game, phase)})
    return rows


def _votes_url(module, game, phase: Phase) -> str:
    own = module.vote_history_url(game_id=game.pk, kind=phase.kind, number=phase.number)
    if own:
        return own
    if phase.kind in module.public_order_kinds:
        from django.urls import reverse

        return reverse("gm:votes", args=[game.pk]) + f"?phase={phase.ordinal}"
    return ""


def vote_history(viewer: visibility.Viewer, *, phase: Any) -> dict:
    """The vote history of the phase of ordinal ``phase``: ``{"phase", "label", "public", "hidden", "rows":
    [{"at", "seat", "lines", "withdrawn"}], "tally": [{"lines", "count"}]}`` (``tally``: a hidden public vote's
    count without voters), every order version in time order, in words. ``public`` is false for a
    phase whose orders are secret (``rows`` then holds what the viewer may read: his own, or all for the master or
    after the game); ``hidden``: a secret ballot still open (no rows but the viewer's own and the master's view).
    Raises ``Http404`` for a phase not of this game."""
    game = viewer.game
    chosen = (Phase.objects.filter(game=game, ordinal=phase).defer("state", "result").first()
              if str(phase).isdigit() else None)
    if chosen is None:
        raise Http404("no such phase")
    chosen.game = game
    module = game.game_module
    public = chosen.kind in module.public_order_kinds
    hidden = (life_of(game).secret_ballot and chosen.status != Phase.Status.RESOLVED and not viewer.sees_everything)
    orders = visibility.orders(viewer, chosen).order_by("created_at", "id")
    if hidden:
        orders = orders.filter(seat=viewer.seat) if viewer.seat is not None else orders.none()
    seats = {s.pk: s for s in Seat.objects.filter(game=game)}
    names = {pk: s.display_name for pk, s in seats.items()}
    from ..spectator import order_lines

    rows = [{"at": o.created_at, "seat": names.get(o.seat_id, ""), "withdrawn": o.payload is None,
             "lines": [] if o.payload is None else order_lines(module, o.payload, seats[o.seat_id].data, names)}
            for o in orders]
    tally = []
    if hidden and public:
        from .anonymity import ballot_tally

        tally = ballot_tally(chosen)
    return {"phase": chosen, "label": chosen.label, "public": public, "hidden": hidden, "rows": rows,
            "tally": tally}

