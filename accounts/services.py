"""Account services: deleting (anonymising) an account and exporting a user's personal data."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from gm.core import visibility
from gm.core.models import AuditEntry, CoMaster, Game, Post, Seat
from gm.fairplay.services import forget_user as forget_fairplay
from gm.fairplay.services import login_signals

from .models import Profile

#: ``AuditEntry.action`` written in each unfinished game where the deleted user holds a seat.
ACCOUNT_DELETED = "account_deleted"


def deleted_username(user_id: int) -> str:
    """The login name a deleted account keeps (``deleted-player-<id>``): shown where the profile name was."""
    return f"deleted-player-{user_id}"


@transaction.atomic
def account_delete(*, user) -> list[int]:
    """Anonymise ``user``'s account: he can no longer log in (inactive, unusable password, API token revoked,
    every session invalidated by the password change), his e-mail addresses, names, avatar, messenger identifiers
    and notification settings (his chat and push channels too) are wiped, and his login name becomes
    :func:`deleted_username`.

    The row itself stays: game history (seats, posts, orders, audit entries) keeps pointing at it and is shown
    under each seat's character name, or ``deleted-player-<id>`` where the profile name was used. In every game
    not over yet where he holds a seat, the seat is left in place and flagged for the master with an audit entry
    ``account_deleted`` (the master replaces or kills the character; a seat silently emptied would break the
    game's rules). Returns the ids of those games.
    """
    from allauth.account.models import EmailAddress

    from gm.chatpush.models import Channel
    from gm.inbox.models import NotificationSettings

    User = get_user_model()
    user = User.objects.select_for_update().get(pk=user.pk)
    now = timezone.now()
    open_seats = list(Seat.objects.filter(user=user).exclude(
        game__status__in=[Game.Status.FINISHED, Game.Status.ABORTED]).select_related("game"))
    for seat in open_seats:
        AuditEntry.objects.create(game=seat.game, actor=user, action=ACCOUNT_DELETED, created_at=now,
                                  data={"seat": seat.pk, "display_name": seat.display_name})
    profile = Profile.objects.filter(user=user).first()
    if profile is not None:
        if profile.avatar:
            storage, name = profile.avatar.storage, profile.avatar.name
            transaction.on_commit(lambda: storage.delete(name))
        profile.display_name = ""
        profile.avatar = ""
        profile.messengers = ""
        profile.save()
    EmailAddress.objects.filter(user=user).delete()
    Token.objects.filter(user=user).delete()
    NotificationSettings.objects.filter(user=user).delete()
    Channel.objects.filter(user=user).delete()  # chat webhooks and push subscriptions: his tokens, his devices
    forget_fairplay(user=user)  # the login signals (issue 24): deleted with the account
    CoMaster.objects.filter(user=user).delete()
    user.username = deleted_username(user.pk)
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.set_unusable_password()
    user.save()
    user.user_permissions.clear()
    user.groups.clear()
    return [s.game_id for s in open_seats]


def personal_data(*, user) -> dict:
    """Everything the site holds about ``user`` that is his, as JSON-ready data: ``profile`` (login name, e-mail,
    display name, messengers, language, time zone), ``mastered_games`` (id, title, module, status),
    ``co_mastered_games``, ``login_signals`` (the fair-play hashes, issue 24), ``seats`` (per game: the seat as its
    player may see it through the visibility layer — his own secrets only, never another seat's — and the order
    versions of his seat he may read), ``posts`` (every post he wrote, with the private part as its author may
    read it) and ``chat_channels`` (his chat and push channels, without their addresses). Dates are ISO 8601
    strings."""
    from gm.chatpush.models import Channel

    profile = Profile.objects.filter(user=user).first()
    data = {
        "profile": {
            "username": user.get_username(), "email": user.email,
            "display_name": profile.display_name if profile else "",
            "messengers": profile.messengers if profile else "",
            "language": profile.language if profile else "",
            "time_zone": profile.time_zone if profile else "",
            "date_joined": user.date_joined.isoformat(),
        },
        "mastered_games": [
            {"id": g.pk, "title": g.title, "module": g.module, "status": g.status}
            for g in Game.objects.filter(master=user).order_by("pk")],
        "co_mastered_games": [
            {"id": c.game_id, "title": c.game.title, "read_only": c.read_only}
            for c in CoMaster.objects.filter(user=user).select_related("game").order_by("game_id")],
        "login_signals": login_signals(user=user),
        "seats": [],
        "posts": [],
        "chat_channels": [
            {"kind": c.kind, "label": c.label, "events": c.events, "enabled": c.enabled,
             "created_at": c.created_at.isoformat()}
            for c in Channel.objects.filter(user=user)],
    }
    for seat in Seat.objects.filter(user=user).select_related("game").order_by("game_id"):
        game = seat.game
        viewer = visibility.viewer_for(user, game)
        seat_data = visibility.seat_projection(viewer, seat)
        # A superuser is classed as master everywhere: still export only what his own seat's player may see.
        if viewer.seat is None and not viewer.revealed:
            seat_data["private"] = game.game_module.own_seat_data(seat.data)
        orders = [
            {"phase": o.phase.ordinal, "phase_kind": o.phase.kind, "version": o.version, "payload": o.payload,
             "created_at": o.created_at.isoformat()}
            for o in visibility.orders(viewer).filter(seat=seat).order_by("phase__ordinal", "version")]
        data["seats"].append({"game": {"id": game.pk, "title": game.title, "module": game.module,
                                       "status": game.status},
                              "seat": seat_data, "orders": orders})
    games = Game.objects.filter(pk__in=Post.objects.filter(author=user).values("game_id"))
    for game in games.order_by("pk"):
        viewer = visibility.viewer_for(user, game)
        own = visibility.posts(viewer).filter(author=user)
        for item in visibility.thread_items(viewer, own):
            private = item["private"]
            data["posts"].append({
                "game": game.pk, "id": item["id"], "author": item["author"], "body": item["body"],
                "comment": item["comment"], "created_at": item["created_at"].isoformat(),
                "private": None if private is None else {"recipient": private["recipient"],
                                                         "text": private["text"]},
            })
    return data
