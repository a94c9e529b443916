"""Inbox pages. Views parse input, call one service or selector, and render; htmx requests get fragments (the
changed row or list, plus the header's unread count swapped out of band)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from gm.core import dashboard, visibility
from gm.core.services import ServiceError

from . import selectors, services
from .forms import ReminderForm, SettingsForm

PAGE_SIZE = 50


def badge(request):
    """The header's unread count (``inbox/_badge.html``), polled by every page (htmx) so it follows new
    notifications without a reload. Anonymous visitors have no inbox: 204, nothing to swap."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    return render(request, "inbox/_badge.html", {"unread": services.unread_count(request.user)})


def _page(request):
    paginator = Paginator(selectors.notifications_for(request.user), PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    page.object_list = selectors.present(page.object_list, request.user)
    page.groups = selectors.by_game(page.object_list)
    return page


def _unread(request) -> int:
    return services.unread_count(request.user)


@login_required
def inbox(request):
    """The user's notifications, unread first, with "mark read" / "mark all read" and the e-mail opt-in."""
    context = {"page": _page(request), "unread": _unread(request)}
    if request.htmx and request.htmx.target == "inbox-list":
        return render(request, "inbox/_list.html", context)
    return render(request, "inbox/inbox.html", context)


@require_POST
@login_required
def mark_read(request, pk: int):
    """Mark one notification read; 404 for another user's or an unknown one."""
    try:
        note = services.mark_read(user=request.user, notification_id=pk)
    except ServiceError:
        raise Http404(_("Not found")) from None
    if request.htmx:
        note = selectors.present([selectors.notifications_for(request.user).get(pk=note.pk)], request.user)[0]
        return render(request, "inbox/_item_response.html", {"note": note, "unread": _unread(request)})
    return HttpResponseRedirect(reverse("inbox:list"))


@require_POST
@login_required
def mark_all_read(request, pk: int | None = None):
    """Mark every unread notification read — of game ``pk`` only when given (another user's game or one without
    notifications of his changes nothing). Back to ``next`` (the inbox or "My games"), or the list for htmx."""
    count = services.mark_all_read(user=request.user, game_id=pk)
    if request.htmx:
        return render(request, "inbox/_list.html", {"page": _page(request), "unread": _unread(request), "oob": True})
    messages.success(request, ngettext("Marked %(count)s notification read.", "Marked %(count)s notifications read.",
                                       count) % {"count": count})
    return HttpResponseRedirect(_next(request, reverse("inbox:list")))


@login_required
def my_games(request):
    """"My games": every game the user plays or masters with what it needs from him now ("you owe an order in
    Night 3 — 5 h left", "vote open", "deck due", "signup open"), most urgent first, with its unread notifications
    and "mark read" per game (``gm.core.dashboard``: a fixed number of queries however many games)."""
    rows = dashboard.my_games(request.user, unread=services.unread_by_game(request.user))
    now = timezone.now()
    for row in rows:
        for need in row.needs:
            need.left = dashboard.time_left(need.deadline, now)
    active = [r for r in rows if not r.game.is_over]
    return render(request, "inbox/my_games.html", {"rows": active, "over": [r for r in rows if r.game.is_over],
                                                   "unread": sum(r.unread for r in rows)})


def _next(request, default: str) -> str:
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return target
    return default


@require_POST
@login_required
def settings_edit(request):
    """Save the e-mail opt-in (from the inbox or the profile page) and go back to ``next``."""
    form = SettingsForm(request.POST)
    if form.is_valid():
        prefs = services.settings_set(user=request.user, email=form.cleaned_data["email"])
        if prefs.email and not request.user.email:
            messages.warning(request, _("E-mail is on, but your account has no e-mail address."))
        else:
            messages.success(request, _("Your notification settings are saved."))
    return HttpResponseRedirect(_next(request, reverse("inbox:list")))


@require_POST
@login_required
def reminder_edit(request, pk: int):
    """The master sets the game's deadline reminder (hours; 0 = off)."""
    game = visibility.game_or_404(request.user, pk)
    form = ReminderForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return HttpResponseRedirect(game.get_absolute_url())
    try:
        reminder = services.reminder_set(game=game, actor=request.user, hours=form.cleaned_data["hours"])
    except ServiceError as exc:
        for msgs in exc.errors.values():
            for msg in msgs:
                messages.error(request, msg)
    else:
        if reminder.hours:
            messages.success(request, _("Players who have not ordered will be reminded %(hours)s h before each "
                                        "deadline.") % {"hours": reminder.hours})
        else:
            messages.success(request, _("Deadline reminders are off."))
    return HttpResponseRedirect(game.get_absolute_url())
