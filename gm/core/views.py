"""Core pages. Views parse input, call one service or read through ``gm.core.visibility``, and render."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.syndication.views import Feed
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from . import life, life_views, markup, page_cache, page_memo, services, spectator, visibility, web
from . import messages as core_messages
from .console import console_context
from .forms import (
    ConfirmForm,
    ExtendForm,
    GameCreateForm,
    JoinForm,
    LobbyFilterForm,
    OrderForm,
    PostEditForm,
    PostForm,
    ReasonForm,
    posted_version,
)
from .links import absolute_url
from .models import Game, Phase, Post
from .services import ServiceError


def _game_for(request, pk: int) -> Game:
    """The game if the user may see it; 404 otherwise (drafts are not revealed to others)."""
    return web.game_or_404(request.user, pk)


#: Games per page of the lobby.
LOBBY_PAGE_SIZE = 30


def lobby(request):
    """Games with open signups, running games and finished games (and the viewer's drafts), each with its master,
    players, phase and deadline (shown in the viewer's time zone), :data:`LOBBY_PAGE_SIZE` a page (``?page=N``)
    and split into sections on each page; ``?module=<slug>`` shows one game's only, ``?status=<section>`` one
    section's. An unknown ``module`` or ``status`` is refused with the reason next to the filter (status 400) and
    every game is listed."""
    form = LobbyFilterForm(request.GET or None)
    valid = form.is_valid() if form.is_bound else True
    module = form.cleaned_data.get("module") if valid and form.is_bound else None
    section = form.cleaned_data.get("status") if valid and form.is_bound else None
    queryset = visibility.lobby_queryset(request.user, module=module or None, section=section or None)
    paginator = Paginator(queryset.select_related("master__profile"), LOBBY_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    games = visibility.lobby_rows(page.object_list)
    titles = {"signup": _("Open for signup"), "running": _("Running games"), "finished": _("Finished games"),
              "drafts": _("My drafts")}
    sections = [(key, titles[key], [g for g in games if g.status in statuses])
                for key, statuses in visibility.LOBBY_SECTIONS.items()]
    query = request.GET.copy()
    query.pop("page", None)
    context = {"sections": sections, "form": form, "module": module or "", "status": section or "",
               "any_games": bool(games), "page": page, "filter_query": query.urlencode(),
               "page_numbers": list(paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1))}
    return render(request, "gm/lobby.html", context, status=200 if valid else 400)


@login_required
def game_create(request):
    """Create a draft game. Choosing the game (``?module=`` or the posted module; htmx swaps the form on change)
    brings its duration and option fields."""
    module_slug = request.POST.get("module") or request.GET.get("module") or None
    form = GameCreateForm(request.POST or None, module_slug=module_slug)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(master=request.user, **form.cleaned_data)
        except ServiceError as exc:
            web.form_errors(form, exc, aliases={f"options.{n.removeprefix('opt_')}": n for n in form.option_fields})
        else:
            messages.success(request, _("The game was created as a draft."))
            return HttpResponseRedirect(game.get_absolute_url())
    status = 400 if request.method == "POST" else 200
    if not services.can_host(request.user):
        # A message, not a form error: an unbound form (a GET) has no cleaned_data to attach one to.
        messages.error(request, _("You may not host games. Ask an administrator for the “can host games” "
                                  "permission."))
    return render(request, "gm/game_create.html", {"form": form}, status=status)


def game_detail(request, pk: int):
    """The game page: seats, the open phase and its deadline, the viewer's controls, the visible log, the
    thread (``?page=N``, the last page by default; ``?quote=<post id>`` fills the reply box with that post quoted),
    and for the master the console (overdue flag, interventions, audit log). A rendering is kept per viewer
    until anything it shows changes (``page_cache``: the game's stamp, the viewer, the clock's bucket)."""
    game = _game_for(request, pk)
    key = page_cache.page_key(request, game, session_keys=(_draft_key(game), _preview_key(game)))
    entry = page_cache.kept(key)
    if entry is not None:
        response = page_cache.response_of(entry)
        if entry.spectator:
            request.gm_spectator_of = game.pk
    else:
        with page_memo.reading():  # the page writes nothing: its panels share one load of the seats and phases
            response = _game_page(request, game)
        page_cache.keep(key, response, spectator=getattr(request, "gm_spectator_of", None) is not None)
    if getattr(request, "gm_spectator_of", None) is not None:  # after the read-only block: apps may write
        from .signals import spectator_seen

        spectator_seen.send(sender=Game, game_id=request.gm_spectator_of, user=request.user)
    return response


def _game_page(request, game: Game):
    viewer = visibility.viewer_for(request.user, game)
    if viewer.kind == visibility.SPECTATOR:
        request.gm_spectator_of = game.pk
    phase = page_memo.unresolved_phase(game)
    my_orders = visibility.own_orders(viewer, phase) if phase and viewer.seat else []
    module = game.game_module
    seats = visibility.seats(viewer)
    # The player's private messages are projected with the thread's page: one read of their private parts and notes.
    thread = thread_context(request, game, viewer, also=visibility.private_message_posts(viewer))
    context = {
        "game": game,
        "viewer": viewer,
        "phase": phase,
        # A result the master holds for review (gm.core.review): everyone else is told it is being reviewed.
        "held": page_memo.held_phase(game) if phase is None else None,
        "seats": life.mark_away(game, spectator.seat_rows(viewer, seats), timezone.now()),
        "life": life.player_panel(viewer),
        "people": spectator.people(seats),
        "reveal": spectator.full_reveal(viewer, seats),
        "state": visibility.game_state(viewer),
        # Worded only when the cached fragment of the log is missing (gm/_log.html, keyed on what it shows).
        "log_phases": lambda: spectator.log_by_phase(viewer),
        "log_key": spectator.log_cache_key(viewer),
        "thread": thread,
        "private_messages": thread.pop("also_items"),
        "my_orders": my_orders,
        "current_order": my_orders[-1] if my_orders else None,
        "order_form": (module.order_form or OrderForm)(),
        "join_form": JoinForm(consents=module.signup_consents(game.options or {}))
        if game.status == Game.Status.SIGNUP else JoinForm(),
        "console": console_context(game=game, viewer=viewer, phase=phase),
        "now": timezone.now(),
        "module_template": module.template_name,
        "module_context": module.page_context(game=game, viewer=viewer),
        "signup_url": reverse(module.signup_view, args=[game.pk]) if module.signup_view else "",
        "winners": core_messages.winners_text((game.outcome or {}).get("winners", []), game.module),
        "draw": bool((game.outcome or {}).get("draw")),
        # Open Graph preview of a signup link: public facts only (module, title, status, seats left).
        "seats_free": max(module.max_seats - len(seats), 0),
        "page_url": absolute_url(game.get_absolute_url()),
        "phase_version": phase_version(game, phase),
        "long_game": life_views.page_context(game=game, viewer=viewer, phase=phase),
    }
    return render(request, "gm/game_detail.html", context)


# -- the game thread (FM-9.1, FM-9.2) -------------------------------------------------------------------------

#: Posts per page of the thread.
THREAD_PAGE_SIZE = 20


def _draft_key(game: Game) -> str:
    return f"gm.thread_draft.{game.pk}"


def _preview_key(game: Game) -> str:
    return f"gm.thread_preview.{game.pk}"


def post_preview_data(body: str) -> dict:
    """The preview of a post's BBCode ``body`` as it would be published, rendered by the thread's own renderer and
    sanitiser (``markup.render``): ``{"html": public part, "private": None or {"recipient": name as written,
    "html": private part}, "error": a reason the post would be refused, or ""}``."""
    try:
        public, private = markup.split_private(body)
    except markup.MarkupError as exc:
        return {"html": "", "private": None,
                "error": _(exc.message) % exc.params if exc.params else _(exc.message)}
    return {"html": str(markup.render(public)), "error": "",
            "private": None if private is None else {"recipient": private.recipient,
                                                     "html": str(markup.render(private.text))}}


def _last_page(paginator: Paginator, posts) -> Page:
    """The thread's last page (the one shown by default) read by keyset — the newest posts by the thread's index
    ``(game, created_at, id)`` backwards — instead of ``OFFSET`` past every earlier post (issue 25)."""
    number = paginator.num_pages  # the count: one query, also shown as the thread's size
    size = paginator.count - (number - 1) * paginator.per_page
    rows = list(posts.order_by("-created_at", "-id")[:size]) if size > 0 else []
    return Page(rows[::-1], number, paginator)


def thread_context(request, game: Game, viewer: visibility.Viewer, *, form: PostForm | None = None,
                   page: int | str | None = None, notice: str = "", preview: dict | None = None,
                   also: list[Post] | None = None) -> dict:
    """What ``gm/_thread.html`` shows ``viewer``: one page of posts (``page``, else ``?page=N``, else the last one)
    projected by ``visibility.thread_items``, the page links, and the reply form — ``form`` if given (a refused
    htmx post), else one filled with the draft a refused no-JS post left in the session, or with ``?quote=<id>``;
    ``preview`` (see :func:`post_preview_data`) if given, else the one a no-JS "Preview" left in the session.
    ``also``: more posts projected in the same ``thread_items`` call (its queries are not repeated), returned as
    ``also_items``."""
    posts = visibility.posts(viewer)
    paginator = Paginator(posts, THREAD_PAGE_SIZE)
    number = page if page is not None else request.GET.get("page")
    last = number in (None, "", "last")
    page_obj = _last_page(paginator, posts) if last else paginator.get_page(number)
    can_post = request.user.is_authenticated and visibility.may_post(viewer)
    if form is None:
        initial = request.session.pop(_draft_key(game), None) if can_post else None
        if preview is None and initial is not None:
            preview = request.session.pop(_preview_key(game), None)
        quoted = request.GET.get("quote", "")
        if initial is None and can_post and quoted.isdigit():
            rows = visibility.posts(viewer).filter(pk=int(quoted))
            quoted_items = visibility.thread_items(viewer, rows)
            initial = {"body": quoted_items[0]["quote"]} if quoted_items else None
        form = PostForm(initial=initial or None, auto_id="post-%s")
    shown = list(page_obj.object_list)
    items = visibility.thread_items(viewer, shown + list(also or []))
    return {
        "page": page_obj,
        "count": paginator.count,
        "items": items[:len(shown)],
        "also_items": items[len(shown):],
        "page_numbers": list(paginator.get_elided_page_range(page_obj.number, on_each_side=2, on_ends=1)),
        "form": form,
        "can_post": can_post,
        "closed": "" if can_post else visibility.thread_closed(viewer),  # the module closed it (BV-14.8)
        "notice": notice,
        "viewer": viewer,
        "comment_help": game.game_module.comment_help(game=game, viewer=viewer) if can_post else None,
        "preview": preview,
    }


def phase_version(game: Game, phase) -> str:
    """A short token that changes whenever the phase card would: the game's status or pause, the unresolved phase
    (``None`` between phases), its status and deadline."""
    import hashlib

    parts = [game.status, game.paused_at.isoformat() if game.paused_at else "",
             *((str(phase.pk), phase.status, phase.deadline.isoformat() if phase.deadline else "") if phase else ())]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:12]


def phase_card(request, pk: int):
    """The game page's phase card, polled by the page (htmx): ``?v=<token>`` the card the page shows
    (:func:`phase_version`); 204 when it is still current (nothing to swap), else the new card with a link to reload
    the page (the results and the new orders are elsewhere on it). Read through the visibility layer: the viewer's
    kind decides what the card shows (the overdue flag is the master's). A handful of queries whatever the game."""
    game = _game_for(request, pk)
    viewer = visibility.viewer_for(request.user, game)
    phase = game.phases.exclude(status=Phase.Status.RESOLVED).first()
    if phase is not None:
        phase.game = game  # its label needs the module: don't query the game again
    version = phase_version(game, phase)
    seen = request.GET.get("v", "")
    if seen == version:
        return HttpResponse(status=204)
    return render(request, "gm/_phase_live.html", {"game": game, "viewer": viewer, "phase": phase,
                                                    "phase_version": version, "phase_changed": bool(seen)})


def thread_news(request, pk: int):
    """How many posts arrived since the viewer's page was drawn, polled by the thread (htmx): ``?seen=<count>`` the
    number of posts the viewer's thread held. 204 when none arrived, else the "N new posts — show" bar. Counts the
    thread as ``visibility.posts`` gives it to the viewer."""
    game = _game_for(request, pk)
    viewer = visibility.viewer_for(request.user, game)
    try:
        seen = max(int(request.GET.get("seen", "")), 0)
    except ValueError:
        return HttpResponse(_("The number of posts seen must be a whole number."), status=400,
                            content_type="text/plain; charset=utf-8")
    new = visibility.posts(viewer).count() - seen
    if new <= 0:
        return HttpResponse(status=204)
    return render(request, "gm/_thread_news.html", {"game": game, "seen": seen, "new": new})


def _thread_partial(request, game: Game, viewer: visibility.Viewer, **kwargs):
    return render(request, "gm/_thread.html", {"game": game, "thread": thread_context(request, game, viewer, **kwargs)})


def thread(request, pk: int):
    """One page of the thread (``?page=N``; the last by default): the htmx partial, or without htmx the game page at
    that page (the page links work without JavaScript too)."""
    game = _game_for(request, pk)
    if not request.htmx:
        query = request.GET.urlencode()
        return HttpResponseRedirect(game.get_absolute_url() + (f"?{query}" if query else "") + "#thread")
    return _thread_partial(request, game, visibility.viewer_for(request.user, game))


@require_POST
@login_required
def post_create(request, pk: int):
    """Publish a post (``services.post_create``). With htmx the thread's last page comes back with the new post, or
    the form with every reason next to its field; without JavaScript a redirect to the post, or back to the game
    page with the reasons as messages and the text kept for the reply box."""
    game = _game_for(request, pk)
    viewer = visibility.viewer_for(request.user, game)
    form = PostForm(request.POST, auto_id="post-%s")
    if "preview" in request.POST:
        # Nothing is written: the text comes back in the reply box with its rendering above it.
        draft = {"body": request.POST.get("body", "")[:Post.MAX_BODY],
                 "comment": request.POST.get("comment", "")[:Post.MAX_COMMENT]}
        preview = post_preview_data(draft["body"])
        if request.htmx:
            return _thread_partial(request, game, viewer, form=PostForm(initial=draft, auto_id="post-%s"),
                                   page="last", preview=preview)
        request.session[_draft_key(game)] = draft
        request.session[_preview_key(game)] = preview
        return HttpResponseRedirect(game.get_absolute_url() + "#post-preview")
    if form.is_valid():
        try:
            post = services.post_create(game=game, user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            web.form_errors(form, exc)
        else:
            notice = _("Your post is published.")
            if request.htmx:
                return _thread_partial(request, game, viewer, notice=notice, page="last")
            messages.success(request, notice)
            return HttpResponseRedirect(game.get_absolute_url() + f"#post-{post.pk}")
    if request.htmx:  # a 200, so htmx swaps the form with its errors in
        return _thread_partial(request, game, viewer, form=form, page="last")
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)
    request.session[_draft_key(game)] = {"body": request.POST.get("body", "")[:Post.MAX_BODY],
                                         "comment": request.POST.get("comment", "")[:Post.MAX_COMMENT]}
    return HttpResponseRedirect(game.get_absolute_url())


def _thread_post(request, game: Game, viewer: visibility.Viewer, post_id: int) -> tuple[Post, dict]:
    post = visibility.posts(viewer).filter(pk=post_id).first()
    if post is None:
        raise Http404(_("No such post."))
    return post, visibility.thread_items(viewer, [post])[0]


def _post_page(viewer: visibility.Viewer, post: Post) -> int:
    """The thread page ``post`` is on."""
    before = visibility.posts(viewer).filter(created_at__lt=post.created_at).count() + \
        visibility.posts(viewer).filter(created_at=post.created_at, pk__lt=post.pk).count()
    return before // THREAD_PAGE_SIZE + 1


def post_detail(request, pk: int, post_id: int):
    """One post (the htmx partial that replaces an edit form on "Cancel"); without htmx, the game page at it."""
    game = _game_for(request, pk)
    viewer = visibility.viewer_for(request.user, game)
    post, item = _thread_post(request, game, viewer, post_id)
    if not request.htmx:
        return HttpResponseRedirect(f"{game.get_absolute_url()}?page={_post_page(viewer, post)}#post-{post.pk}")
    return render(request, "gm/_post.html", {"game": game, "p": item, "viewer": viewer,
                                             "can_post": visibility.may_post(viewer)})


@login_required
def post_edit(request, pk: int, post_id: int):
    """Edit one's own post (``services.post_edit``; the earlier version is kept for the master). GET: the form (the
    htmx partial in place of the post, or a page of its own). POST: saved → the post (htmx) or a redirect to it;
    refused → the form again with the reasons (status 400 without htmx)."""
    game = _game_for(request, pk)
    viewer = visibility.viewer_for(request.user, game)
    post, item = _thread_post(request, game, viewer, post_id)
    if request.method != "POST" and not item["can_edit"]:
        raise PermissionDenied(_("Only the author may edit a post, while he may still post."))
    form = PostEditForm(request.POST or None, initial={"body": post.body, "comment": post.comment},
                        auto_id=f"edit-{post.pk}-%s")
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                post = services.post_edit(post=post, user=request.user, **form.cleaned_data)
            except ServiceError as exc:
                web.form_errors(form, exc)
            else:
                if request.htmx:
                    item = visibility.thread_items(viewer, visibility.posts(viewer).filter(pk=post.pk))[0]
                    return render(request, "gm/_post.html", {"game": game, "p": item, "viewer": viewer,
                                                             "can_post": True, "notice": _("Your post is saved.")})
                messages.success(request, _("Your post is saved."))
                return HttpResponseRedirect(
                    f"{game.get_absolute_url()}?page={_post_page(viewer, post)}#post-{post.pk}")
        status = 200 if request.htmx else 400
    context = {"game": game, "p": item, "viewer": viewer, "form": form,
               "page": _post_page(viewer, post), "full_page": not request.htmx}
    return render(request, "gm/_post_edit.html" if request.htmx else "gm/post_edit.html", context, status=status)


def _post_action(request, pk: int, action, form_class=None, success: str = ""):
    game = _game_for(request, pk)
    form = form_class(request.POST) if form_class else None
    return web.post_action(request, lambda: action(game, form.cleaned_data if form else {}),
                           redirect_to=game.get_absolute_url(), success=success, form=form)


@require_POST
@login_required
def game_open_signup(request, pk: int):
    """Open signups of a draft game (the master; ``services.game_open_signup``)."""
    return _post_action(request, pk, lambda g, d: services.game_open_signup(game=g, actor=request.user),
                        success=_("Signups are open."))


@require_POST
@login_required
def game_start(request, pk: int):
    """Start the game (the master, with the confirmation box; ``services.game_start``)."""
    return _post_action(request, pk, lambda g, d: services.game_start(game=g, actor=request.user), ConfirmForm,
                        success=_("The game has started."))


@require_POST
@login_required
def seat_join(request, pk: int):
    """Take a seat (``services.seat_join``, the character name of :class:`JoinForm` and the texts the module asks
    him to accept, ``signup_consents``); a module with its own signup form sends the player there."""
    game = _game_for(request, pk)
    if game.game_module.signup_view:
        messages.error(request, _("Sign up with this game's signup form."))
        return HttpResponseRedirect(reverse(game.game_module.signup_view, args=[game.pk]))
    form = JoinForm(request.POST, consents=game.game_module.signup_consents(game.options or {}))
    return web.post_action(request, lambda: services.seat_join(game=game, user=request.user, **form.join_data()),
                           redirect_to=game.get_absolute_url(), success=_("You have signed up."), form=form)


@require_POST
@login_required
def seat_leave(request, pk: int):
    """Withdraw one's signup before the start (with the confirmation box; ``services.seat_leave``)."""
    return _post_action(request, pk, lambda g, d: services.seat_leave(game=g, user=request.user), ConfirmForm,
                        success=_("Your signup was withdrawn."))


@require_POST
@login_required
def order_submit(request, pk: int):
    """Save a new version of the player's order for the phase the form names (``services.order_submit``;
    the module's ``order_form`` or the generic JSON :class:`OrderForm`)."""
    game = _game_for(request, pk)
    form_class = game.game_module.order_form or OrderForm

    def submit(g, data):
        # The phase the form was made for (a hidden input), never "whatever is open now" (a stale form saves nothing).
        phase = services.phase_named(game=g, phase_id=request.POST.get("phase"))
        payload = data["payload"] if form_class is OrderForm else data
        services.order_submit(phase=phase, user=request.user, payload=payload,
                              base_version=posted_version(request.POST))

    return _post_action(
        request, pk, submit, form_class, success=_("Your order is saved. You can change it until the deadline.")
    )


@require_POST
@login_required
def order_withdraw(request, pk: int):
    """Withdraw the player's order for the phase the form names (``services.order_withdraw``)."""
    def withdraw(g, data):
        phase = services.phase_named(game=g, phase_id=request.POST.get("phase"))
        services.order_withdraw(phase=phase, user=request.user, base_version=posted_version(request.POST))

    return _post_action(request, pk, withdraw, success=_("Your order was withdrawn."))


@require_POST
@login_required
def phase_extend(request, pk: int):
    """Move the open phase's deadline later (the master; ``services.phase_extend``)."""
    return _post_action(request, pk, lambda g, d: services.phase_extend(game=g, actor=request.user, **d), ExtendForm,
                        success=_("The deadline was extended."))


@require_POST
@login_required
def game_pause(request, pk: int):
    """Pause the game (the master; ``services.game_pause``)."""
    return _post_action(request, pk, lambda g, d: services.game_pause(game=g, actor=request.user, **d), ReasonForm,
                        success=_("The game is paused."))


@require_POST
@login_required
def game_resume(request, pk: int):
    """Resume a paused game (the master; ``services.game_resume``)."""
    return _post_action(request, pk, lambda g, d: services.game_resume(game=g, actor=request.user, **d), ReasonForm,
                        success=_("The game is resumed."))


@require_POST
@login_required
def phase_resolve_now(request, pk: int):
    """Resolve the open phase at once (the master; ``services.phase_resolve_now``)."""
    return _post_action(request, pk, lambda g, d: services.phase_resolve_now(game=g, actor=request.user, **d),
                        ReasonForm, success=_("The phase was resolved."))


class PublicLogFeed(Feed):
    """Atom feed of a game's public log, read through the visibility layer as an anonymous viewer: public entries
    only while the game runs (seat, group and master-only lines never), everything once it is over (the game's
    secrets are revealed to everyone then, as on the game page)."""

    feed_type = Atom1Feed
    description = gettext_lazy("The public log of a game.")
    subtitle = description

    def get_object(self, request, pk):
        return web.game_or_404(None, pk)

    def title(self, game):
        return game.title

    # Links are absolute on settings.SITE_URL: Django's Feed would otherwise prefix the Sites framework's domain
    # (example.com unless someone edits it in the admin).
    def link(self, game):
        return absolute_url(game.get_absolute_url())

    def feed_url(self, game):
        return absolute_url(reverse("gm:game_feed", args=[game.pk]))

    def items(self, game):
        viewer = visibility.Viewer(game=game, kind=visibility.ANONYMOUS)
        return visibility.log_entries(viewer).select_related("seat").order_by("-created_at", "-id")[:50]

    @staticmethod
    def entry_text(entry) -> str:
        """The entry's text; an entry that was not public (a finished game reveals them) says whose it was, as a
        line such as "Your card: Werewolf." means nothing in a feed without the seat it was written for."""
        text = entry.text()
        if entry.visibility == entry.Visibility.SEAT and entry.seat is not None:
            return _("[only %(name)s] %(text)s") % {"name": entry.seat.display_name, "text": text}
        if entry.visibility != entry.Visibility.PUBLIC:
            return _("[%(audience)s] %(text)s") % {"audience": entry.get_visibility_display(), "text": text}
        return text

    def item_title(self, entry):
        return self.entry_text(entry)

    def item_description(self, entry):
        return self.entry_text(entry)

    def item_link(self, entry):
        return absolute_url(reverse("gm:game", args=[entry.game_id]) + f"#log-{entry.pk}")

    def item_pubdate(self, entry):
        return entry.created_at


def not_found(request, exception=None):
    """The 404 page; API clients get the API's error shape."""
    if request.path_info.startswith("/api/"):  # API clients get the API's error shape, not an HTML page
        return JsonResponse({"errors": {"__all__": [_("Not found")]}, "code": "not_found"}, status=404)
    # The page names no reason: an unmatched URL's exception holds every URL pattern tried (formatting it was half
    # the cost of a 404, and the patterns are nobody's business).
    return render(request, "404.html", status=404)


def server_error(request):
    """The 500 page: it must render without the database (it may be what failed), so the template takes no context;
    API clients get the API's error shape."""
    if request.path_info.startswith("/api/"):
        return JsonResponse({"errors": {"__all__": [_("Server error. It was logged; please try again later.")]},
                             "code": "server_error"}, status=500)
    return render(request, "500.html", status=500)
