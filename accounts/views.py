"""Account pages: the profile editor and the language switcher (sign-up, log-in etc. are allauth's), and the
view that serves uploaded media when the site serves them itself."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import i18n, static
from django.views.decorators.http import require_http_methods, require_POST

from .forms import ProfileForm
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
