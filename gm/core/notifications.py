"""E-mail notifications after a phase resolves: each recipient gets exactly the log lines the visibility layer
lets him read, in his own language and time zone."""
from __future__ import annotations

import zoneinfo
from collections.abc import Iterable

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from . import visibility
from .emails import notification_email
from .models import LogEntry, Phase


def _preferences(user) -> tuple[str, str]:
    profile = getattr(user, "profile", None)
    language = getattr(profile, "language", None) or settings.LANGUAGE_CODE
    tz = getattr(profile, "time_zone", None) or settings.GM_DEFAULT_USER_TIME_ZONE
    return language, tz


def phase_result_messages(*, phase: Phase, only: Iterable | None = None) -> list[EmailMessage]:
    """One e-mail per user with an address among the game's master and seated players, listing the log entries
    of ``phase`` (and the opening of the next phase) that this user may read. Users with nothing to read get none.

    ``only``: restrict the recipients to these users (e.g. those who opted in to e-mail, ``gm.inbox``); it can
    only narrow the list, never add someone who is neither the master nor seated."""
    game = phase.game
    from .comaster_roles import master_users  # the co-masters read what the master reads (issue 24)

    users = list({u.pk: u for u in master_users(game) + [s.user for s in game.seats.select_related("user__profile")
                                                          if s.user is not None]}.values())
    if only is not None:
        wanted = {u.pk for u in only}
        users = [u for u in users if u.pk in wanted]
    following = game.phases.filter(ordinal=phase.ordinal + 1).first()
    messages = []
    for user in users:
        if not user.email:
            continue
        viewer = visibility.viewer_for(user, game)
        phases = [phase] + ([following] if following else [])
        entries = list(visibility.log_entries(viewer).filter(phase__in=phases).order_by("created_at", "id"))
        if not entries:
            continue
        language, tz = _preferences(user)
        with translation.override(language), timezone.override(zoneinfo.ZoneInfo(tz)):
            subject = _("%(game)s: %(phase)s is over") % {"game": game.title, "phase": phase.label}
            url = settings.SITE_URL.rstrip("/") + game.get_absolute_url()
            messages.append(notification_email(
                subject=subject, template="phase_results.txt", to=user.email,
                context={"lines": [_entry_line(e) for e in entries], "game_url": url}))
    return messages


def _entry_line(entry: LogEntry) -> str:
    return f"- {entry.text()}"


def send_phase_results(*, phase_id: int, only: Iterable | None = None) -> int:
    """Send the result e-mails of a resolved phase (to ``only`` these users when given, see
    :func:`phase_result_messages`); returns how many were sent."""
    phase = Phase.objects.select_related("game__master").filter(pk=phase_id, status=Phase.Status.RESOLVED).first()
    if phase is None:
        return 0
    messages = phase_result_messages(phase=phase, only=only)
    if not messages:
        return 0
    return get_connection().send_messages(messages) or 0
