"""Account pages: the profile editor, account deletion, the personal data export, the API token page, the bot
guide and the language switcher (sign-up, log-in etc. are allauth's), and the view that serves uploaded media when
the site serves them itself."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import i18n, static
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from rest_framework.authtoken.models import Token

from . import services
from .forms import AccountDeleteForm, ProfileForm
from .models import Profile


def _set_language_cookie(response: HttpResponse, language: str) -> None:
    # Same cookie as django.views.i18n.set_language, so LocaleMiddleware picks it up on the next request.
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile_edit(request: HttpRequest) -> HttpResponse:
    """Show (GET) or save (POST, multipart) the logged-in user's profile.

    A valid POST saves, flashes a success message and redirects back here (post/redirect/get).
    An invalid POST re-renders the page (status 200) with field errors and changes nothing stored.
    Anonymous visitors are redirected to the login page.
    """
    # A separate instance from request.user.profile: a bound ModelForm writes the submitted values onto its
    # instance even when invalid, and the header and "current avatar" must keep showing what is stored.
    profile, _created = Profile.objects.get_or_create(user=request.user)
    stored_avatar = profile.avatar
    stored_avatar_name = stored_avatar.name
    stored_language = profile.language

    if request.method == "POST":
        form = ProfileForm(request.POST, request.FILES, instance=profile)
        if form.is_valid():
            profile = form.save()
            if stored_avatar_name and profile.avatar.name != stored_avatar_name:
                # Replaced or cleared: drop the old file, but only once the new row is committed.
                storage = stored_avatar.storage
                transaction.on_commit(lambda: storage.delete(stored_avatar_name))
            response = redirect("profile")
            if profile.language != stored_language:
                # The switcher's cookie outranks the profile (see UserPreferencesMiddleware); keep them in
                # step so the choice made here takes effect, and confirm in the language the user will see.
                _set_language_cookie(response, profile.language)
                translation.activate(profile.language)
                request.LANGUAGE_CODE = profile.language
            messages.success(request, _("Your profile has been saved."))
            return response
    else:
        form = ProfileForm(instance=profile)

    return render(
        request,
        "accounts/profile.html",
        {"form": form, "current_avatar": stored_avatar if stored_avatar_name else None},
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch the interface language (POST ``language`` and optional ``next``), as
    :func:`django.views.i18n.set_language` does (cookie + redirect to a safe ``next``, else 204).

    For a logged-in user a language listed in ``settings.LANGUAGES`` is also stored on the profile, so it
    follows them to other browsers. Unknown languages are ignored (no cookie, profile unchanged).
    """
    response = i18n.set_language(request)
    language = request.POST.get(i18n.LANGUAGE_QUERY_PARAMETER, "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        Profile.objects.update_or_create(user=request.user, defaults={"language": language})
    return response


#: Content types served inline from MEDIA_ROOT: the formats :mod:`accounts.validators` stores.
INLINE_MEDIA_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


def media(request: HttpRequest, path: str) -> HttpResponse:
    """Serve the file ``path`` under ``settings.MEDIA_ROOT`` (``django.views.static.serve``; 404 when missing).

    Every answer carries ``X-Content-Type-Options: nosniff`` and a sandboxing ``Content-Security-Policy``; only
    PNG, JPEG, GIF and WebP are shown inline. Anything else (a file stored before uploads were re-encoded, an HTML
    or SVG polyglot) is sent as ``application/octet-stream`` with ``Content-Disposition: attachment``, so the
    browser never renders it as a page of this site.
    """
    response = static.serve(request, path, document_root=settings.MEDIA_ROOT)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    if response.status_code == 200 and response.get("Content-Type", "").split(";")[0] not in INLINE_MEDIA_TYPES:
        response["Content-Type"] = "application/octet-stream"
        response["Content-Disposition"] = "attachment"
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    """Delete (anonymise, :func:`accounts.services.account_delete`) the logged-in user's account after he confirms
    with his password and a ticked box; then log out and go to the home page. A wrong confirmation re-renders
    the form (200) and changes nothing."""
    form = AccountDeleteForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        services.account_delete(user=request.user)
        logout(request)
        messages.success(request, _("Your account has been deleted."))
        return redirect("/")
    return render(request, "accounts/delete.html", {"form": form})


@login_required
@require_GET
def data_export(request: HttpRequest) -> HttpResponse:
    """The logged-in user's personal data (:func:`accounts.services.personal_data`) as a JSON download."""
    response = JsonResponse(services.personal_data(user=request.user), json_dumps_params={
        "ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = 'attachment; filename="my-data.json"'
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """Show the logged-in user's API token (the one ``/api/auth/token/`` hands out), and on POST ``action`` =
    ``rotate`` (a new key; the old stops working) or ``revoke`` (no key until he asks for one). Any other action
    changes nothing (400)."""
    if request.method == "POST":
        action = request.POST.get("action")
        if action not in ("rotate", "revoke"):
            return HttpResponse(_("Unknown action."), status=400)
        with transaction.atomic():
            Token.objects.filter(user=request.user).delete()
            if action == "rotate":
                Token.objects.create(user=request.user)
        messages.success(request, _("A new API token has been created.") if action == "rotate"
                         else _("Your API token has been revoked."))
        return redirect("api_token")
    token = Token.objects.filter(user=request.user).first()
    return render(request, "accounts/api_token.html", {"token": token})


def bot_guide(request: HttpRequest) -> HttpResponse:
    """A short guide to writing a bot: getting a token and the order-options/orders endpoints, with an example."""
    return render(request, "accounts/bot_guide.html", {
        "site_url": settings.SITE_URL.rstrip("/")})
