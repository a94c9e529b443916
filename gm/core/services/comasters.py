"""Co-masters (issue 24 item 5, BV-15.14): who may act as a game's master, and the master's console actions that
add and remove them.

A game has one master (``Game.master``) and any number of :class:`~gm.core.models.CoMaster` rows. A full co-master
has the master's console rights (every service that calls :func:`~gm.core.services.base.require_master` lets him
act, and the audit trail records him as the actor); a ``read_only`` one sees everything the master sees and can't
act. :func:`master_role` is the one place that classifies a user; ``visibility.viewer_for`` and ``require_master``
read it. The co-masters of a game are loaded once per game row (:func:`comasters_of` keeps them on the instance),
so a page that asks about several users costs one query.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..comaster_roles import (  # noqa: F401 - re-exported: the services' public names
    FULL,
    MASTER,
    READ_ONLY,
    comasters_of,
    forget,
    master_role,
    master_users,
    may_master,
)
from ..models import CoMaster, Game, Seat
from .base import Clock, ServiceError, audit_write, require_master


def public_comasters(game: Game, viewer_may_master: bool) -> list[dict]:
    """The co-masters a viewer may know of, for the game page and the API: every one (with ``read_only``) for
    someone who masters the game or once it is over; otherwise only the public ones — a hidden read-only
    co-master stays unknown to the players."""
    rows = [c for c in comasters_of(game).values() if c.public or viewer_may_master or game.is_over]
    return [{"username": c.user.get_username(), "name": _display(c.user),
             "read_only": c.read_only if (viewer_may_master or game.is_over or c.public) else None}
            for c in rows]


def _display(user) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "name", "") or user.get_username()


def comaster_add(*, game: Game, actor, username: str, read_only: bool = False, public: bool = True,
                 reason: str = "", clock: Clock = timezone.now) -> CoMaster:
    """The master (or a full co-master) makes ``username`` a co-master of ``game`` (audited ``comaster_add``).
    ``read_only``: he only reads; ``public``: the players may know it. Refused (``ServiceError``): not a master
    (``forbidden``), an unknown user, the master himself, a user with a seat in the game (``not_allowed``: a
    co-master sees every secret), one already a co-master (``duplicate``), a game that is over (``state``)."""
    username = (username or "").strip()
    User = get_user_model()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.is_over:
            raise ServiceError(_("The game is over."), code="state")
        user = User.objects.filter(**{User.USERNAME_FIELD: username}).first() if username else None
        if user is None or not user.is_active:
            raise ServiceError({"username": [_("No user “%(name)s”.") % {"name": username}]})
        if user.pk == game.master_id:
            raise ServiceError({"username": [_("He is the game's master.")]}, code="not_allowed")
        if Seat.objects.filter(game=game, user=user).exists():
            raise ServiceError({"username": [_("He plays in this game: a co-master sees every secret.")]},
                               code="not_allowed")
        if CoMaster.objects.filter(game=game, user=user).exists():
            raise ServiceError({"username": [_("He is a co-master already.")]}, code="duplicate")
        now = clock()
        row = CoMaster.objects.create(game=game, user=user, read_only=bool(read_only), public=bool(public),
                                      added_by=actor, created_at=now)
        audit_write(game=game, actor=actor, action="comaster_add", reason=reason, now=now,
                    data={"player": user.get_username(), "read_only": bool(read_only), "public": bool(public)})
    forget(game)
    return row


def comaster_remove(*, game: Game, actor, username: str, reason: str = "", clock: Clock = timezone.now) -> None:
    """The master (or a full co-master) removes the co-master ``username`` of ``game`` (audited
    ``comaster_remove``); ``not_found`` when he is none."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        row = CoMaster.objects.filter(game=game, user__username=(username or "").strip()).select_related("user").first()
        if row is None:
            raise ServiceError({"username": [_("He is not a co-master of this game.")]}, code="not_found")
        row.delete()
        audit_write(game=game, actor=actor, action="comaster_remove", reason=reason, now=clock(),
                    data={"player": row.user.get_username()})
    forget(game)


def module_comasters_sync(*, game: Game, seats, state: Any, now: datetime) -> list[int]:
    """Make the players of the seats the game's module names (``GameModule.read_only_co_masters(state)``:
    BV-15.14's first executed player) read-only co-masters, public (the rules announce it), in the caller's
    transaction (a resolution's, the game row locked). Returns the user ids added; a seat already co-mastering is
    left as it is. Costs no query when the module names nobody."""
    seat_ids = game.game_module.read_only_co_masters(state)
    if not seat_ids:
        return []
    wanted = {int(s) for s in seat_ids}
    users = {s.user_id for s in seats if s.pk in wanted and s.user_id is not None}
    have = set(CoMaster.objects.filter(game=game, user_id__in=users).values_list("user_id", flat=True))
    new = sorted(users - have)
    CoMaster.objects.bulk_create([CoMaster(game=game, user_id=uid, read_only=True, public=True, source="module",
                                           created_at=now) for uid in new])
    forget(game)
    return new
