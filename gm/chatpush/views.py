"""The channels page (linked chat webhooks and browsers, their events), its POST actions and the service worker.

Views parse the form, call one service and render; a refused form is shown again with its errors (HTTP 400) and
nothing is saved."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from gm.core.services import ServiceError
from gm.core.web import flash_errors, form_errors

from . import selectors
from .forms import AppriseForm, ChannelForm, WebPushForm
from .models import EVENTS
from .services import channels as service
from .services.vapid import public_key

SERVICE_WORKER = "js/chatpush-sw.js"


def _page(request, *, apprise_form=None, webpush_form=None, status: int = 200):
    rows = selectors.channels_of(request.user)
    for row in rows:
        row.form = ChannelForm(initial={"label": row.label, "events": row.events}, auto_id=f"ch{row.pk}_%s")
    return render(request, "chatpush/channels.html", {
        "channels": rows, "apprise_form": apprise_form or AppriseForm(),
        "webpush_form": webpush_form or WebPushForm(), "vapid_public_key": public_key(), "events": EVENTS,
    }, status=status)


@login_required
def channels(request):
    """The user's channels: each with its events, the link forms (chat webhook, this browser)."""
    return _page(request)


@require_POST
@login_required
def add_apprise(request):
    """Link a chat webhook (apprise URL). A refused URL re-renders the page with the reason (400)."""
    form = AppriseForm(request.POST)
    if form.is_valid():
        try:
            service.channel_add_apprise(user=request.user, url=form.cleaned_data["url"],
                                        label=form.cleaned_data["label"], events=form.cleaned_data["events"])
        except ServiceError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("The channel is linked."))
            return HttpResponseRedirect(reverse("chatpush:channels"))
    return _page(request, apprise_form=form, status=400)


@require_POST
@login_required
def add_webpush(request):
    """Link this browser's push subscription (the JSON the subscribe button posts)."""
    form = WebPushForm(request.POST)
    if form.is_valid():
        try:
            service.channel_add_webpush(user=request.user, subscription=form.cleaned_data["subscription"],
                                        label=form.cleaned_data["label"])
        except ServiceError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("This browser will receive notifications."))
            return HttpResponseRedirect(reverse("chatpush:channels"))
    return _page(request, webpush_form=form, status=400)


def _post(request, action, success: str):
    try:
        action()
    except ServiceError as exc:
        if exc.code == "not_found":
            raise Http404(_("Not found")) from None
        flash_errors(request, exc)
    else:
        messages.success(request, success)
    return HttpResponseRedirect(reverse("chatpush:channels"))


@require_POST
@login_required
def edit(request, pk: int):
    """Save a channel's name and events (404 for another user's channel)."""
    form = ChannelForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return HttpResponseRedirect(reverse("chatpush:channels"))
    return _post(request, lambda: service.channel_set_events(
        user=request.user, channel_id=pk, events=form.cleaned_data["events"], label=form.cleaned_data["label"]),
        _("The channel is saved."))


@require_POST
@login_required
def enable(request, pk: int):
    """Enable a disabled channel again."""
    return _post(request, lambda: service.channel_enable(user=request.user, channel_id=pk),
                 _("The channel is enabled again."))


@require_POST
@login_required
def remove(request, pk: int):
    """Unlink a channel."""
    return _post(request, lambda: service.channel_remove(user=request.user, channel_id=pk),
                 _("The channel is removed."))


def service_worker(request):
    """``static/js/chatpush-sw.js`` served at the site's root (scope ``/``), never cached for long so an update
    reaches the browsers."""
    path = finders.find(SERVICE_WORKER)
    if not path:  # pragma: no cover - the file ships with the site
        raise Http404()
    with open(path, encoding="utf-8") as handle:
        response = HttpResponse(handle.read(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
