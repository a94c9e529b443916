"""Reading the inbox: a user's own notifications only, rendered in the active language and time zone.

A notification that points at a log entry shows the entry's text only if the visibility layer still lets its
owner read it (checked again at read time, one query per game on the page), so the inbox can never show more
than the game page would.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gm.core import visibility

from .models import Notification


def notifications_for(user, *, unread_only: bool = False) -> QuerySet[Notification]:
    """``user``'s notifications (nobody else's; none for anonymous users), unread first, then newest first."""
    if user is None or not user.is_authenticated:
        return Notification.objects.none()
    qs = Notification.objects.filter(user=user)
    if unread_only:
        qs = qs.filter(read_at__isnull=True)
    # The game's and phase's JSON (the card collection, the snapshot, the result) is never shown here: not decoded
    # for every notification of the page (issue 25).
    return (qs.select_related("game", "phase", "entry")
            .defer("game__state", "game__outcome", "phase__state", "phase__result")
            .annotate(is_read=ExpressionWrapper(Q(read_at__isnull=False), output_field=BooleanField()))
            .order_by("is_read", "-created_at", "-id"))


def _visible_entries(user, notes: list[Notification]) -> set[int]:
    by_game: dict[int, list[Notification]] = {}
    for note in notes:
        if note.entry_id is not None:
            by_game.setdefault(note.game_id, []).append(note)
    visible: set[int] = set()
    for group in by_game.values():
        viewer = visibility.viewer_for(user, group[0].game)
        visible |= set(visibility.log_entries(viewer).filter(pk__in=[n.entry_id for n in group])
                       .values_list("pk", flat=True))
    return visible


def _when(value: str | datetime | None) -> str:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return date_format(timezone.localtime(value), "DATETIME_FORMAT") if value else ""


def present(notes: Iterable[Notification], user) -> list[Notification]:
    """Give each of ``user``'s notifications its ``title``, ``text`` and ``url`` (in the active language and time
    zone). ``notes`` must be ``user``'s own (from :func:`notifications_for`)."""
    notes = list(notes)
    visible = _visible_entries(user, notes)
    for note in notes:
        game = note.game
        if note.phase is not None:
            note.phase.game = game  # the phase label needs the module: no second query for the game
        if note.entry is not None:
            note.entry.game = game
        url = game.get_absolute_url()
        params = {"game": game.title, "phase": note.phase.label if note.phase else ""}
        kind = note.kind
        if kind == Notification.Kind.PHASE_RESULTS:
            note.title = _("%(game)s: %(phase)s is over") % params
            private = note.data.get("private", 0)
            note.text = ngettext("%(count)s line of the log is for your eyes only.",
                                 "%(count)s lines of the log are for your eyes only.", private) % {"count": private} \
                if private else _("See the public log of the game.")
            url += "#log-h"
        elif kind == Notification.Kind.RESULT:
            note.title = _("%(game)s: %(phase)s — for you") % params
            if note.entry_id in visible:
                note.text = note.entry.text()
                url += f"#log-{note.entry_id}"
            else:  # defence in depth: never show what the game page would not
                note.text = _("This line is no longer visible to you.")
        elif kind == Notification.Kind.PRIVATE_MESSAGE:
            sender = note.data.get("sender") or _("someone")
            note.title = _("%(game)s: a private message from %(sender)s") % {**params, "sender": sender}
            note.text = note.body
            url = note.data.get("url") or url
        elif kind == Notification.Kind.ROOM_INVITATION:
            note.title = _("%(game)s: you are in a new chat room") % params
            members = note.data.get("members") or []
            note.text = _("With: %(members)s.") % {"members": ", ".join(members)} if members else ""
        elif kind == Notification.Kind.DEADLINE_REMINDER:
            note.title = _("%(game)s: %(phase)s ends soon") % params
            deadline = note.phase.deadline if note.phase else note.data.get("deadline")
            note.text = _("You have not given your order yet. Deadline: %(deadline)s.") % {"deadline": _when(deadline)}
        elif kind == Notification.Kind.YOUR_MOVE:
            # Only the step and its deadline: what the step is about is on the game page, read through visibility.
            note.title = _("%(game)s: your move — %(phase)s") % params
            deadline = note.phase.deadline if note.phase else note.data.get("deadline")
            note.text = _("It is your move. Deadline: %(deadline)s.") % {"deadline": _when(deadline)}
        elif kind == Notification.Kind.PROD:
            from .services import prod_text

            note.title = _("%(game)s: we miss you") % params
            note.text = prod_text(hours=note.data.get("hours", ""))
        elif kind == Notification.Kind.CHANNEL_DISABLED:
            note.title = _("Notification channel “%(channel)s” disabled") % {"channel": note.data.get("channel", "")}
            note.text = _("It failed %(count)s times in a row. Check it and enable it again on your profile.") % {
                "count": note.data.get("failures", "")}
            url = note.data.get("url") or url
        elif kind == Notification.Kind.NOTICE:
            from .services import notice_text

            note.title = _("%(game)s: co-mastering") % params
            note.text = notice_text(note.data)
        else:  # pragma: no cover - a kind added without a renderer
            note.title, note.text = game.title, ""
        note.url = url
    return notes


def by_game(notes: Iterable[Notification]) -> list[dict]:
    """``notes`` (presented) grouped by game, the groups in the order their first notification comes (unread first,
    newest first): ``[{"game", "notes", "unread": how many of them are unread}]``."""
    groups: dict[int, dict] = {}
    for note in notes:
        group = groups.setdefault(note.game_id, {"game": note.game, "notes": [], "unread": 0})
        group["notes"].append(note)
        group["unread"] += note.read_at is None
    return list(groups.values())
