"""User profile: display name, avatar, messenger identifiers, language and time zone."""
from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.utils.translation import gettext_lazy as _

from .validators import SanitisedImageField, validate_avatar


def _time_zones():
    return sorted((tz, tz) for tz in zoneinfo.available_timezones() if "/" in tz or tz == "UTC")


def default_time_zone() -> str:
    """The site's default zone for new profiles (``GM_DEFAULT_USER_TIME_ZONE``), read at creation time."""
    return settings.GM_DEFAULT_USER_TIME_ZONE


def avatar_path(instance, filename):
    """``avatars/<user id>/<name>``; ``filename`` is the server-chosen name of :func:`.validators.sanitise_image`."""
    return f"avatars/{instance.user_id}/{filename}"


class Profile(models.Model):
    """One per user (created on signup). ``language`` and ``time_zone`` drive how every page is shown."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=80, blank=True)
    avatar = SanitisedImageField(_("avatar"), upload_to=avatar_path, blank=True, validators=[validate_avatar])
    messengers = models.TextField(
        _("messenger identifiers"), blank=True, max_length=500,
        help_text=_("Free text, e.g. Telegram @name, Discord name#0000."),
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, default="ru")
    time_zone = models.CharField(
        _("time zone"), max_length=64, choices=_time_zones, default=default_time_zone
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self):
        return self.name

    @property
    def name(self) -> str:
        return self.display_name or self.user.get_username()


class Session(AbstractBaseSession):
    """Django's database session (``accounts.sessions``) with the id of its logged-in user, kept from the session's
    data each time it is saved. A request then reads its session and its user in one statement, and deleting a user
    ends all his sessions."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+", db_index=True)

    class Meta(AbstractBaseSession.Meta):
        db_table = "accounts_session"

    @classmethod
    def get_session_store_class(cls):
        from .sessions import SessionStore

        return SessionStore
