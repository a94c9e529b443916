"""Who masters a game (issue 24 item 5): the master, full co-masters and read-only co-masters, read from the
:class:`~gm.core.models.CoMaster` rows once per game instance. The lowest layer of co-mastering: the visibility
layer and the services' ``require_master`` read it; the writes are in :mod:`gm.core.services.comasters`."""
from __future__ import annotations

from typing import Any

from .models import CoMaster, Game

#: :func:`master_role`'s answers.
MASTER = "master"
FULL = "full"
READ_ONLY = "read_only"

_CACHE = "_gm_comasters"


def comasters_of(game: Game) -> dict[int, CoMaster]:
    """User id → :class:`CoMaster` row of ``game`` (with its user), loaded once per game instance."""
    cached = getattr(game, _CACHE, None)
    if cached is None and getattr(game, "gm_has_comasters", None) is False:  # known from the game's own query
        cached = {}
        setattr(game, _CACHE, cached)
    if cached is None:
        cached = {c.user_id: c for c in CoMaster.objects.filter(game_id=game.pk).select_related("user__profile")}
        setattr(game, _CACHE, cached)
    return cached


def forget(game: Game) -> None:
    """Drop the co-masters :func:`comasters_of` keeps on ``game`` (after a change)."""
    if hasattr(game, _CACHE):
        delattr(game, _CACHE)
    game.gm_has_comasters = None  # the game query's answer is stale too


def master_role(game: Game, user: Any) -> str | None:
    """How ``user`` masters ``game``: :data:`MASTER` (the master, or a superuser), :data:`FULL` (a co-master with
    the console's rights), :data:`READ_ONLY` (a co-master who only reads), or ``None`` (anyone else, anonymous
    or ``None`` included)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if user.pk == game.master_id or user.is_superuser:
        return MASTER
    row = comasters_of(game).get(user.pk)
    if row is None:
        return None
    return READ_ONLY if row.read_only else FULL


def may_master(game: Game, user: Any, *, write: bool = True) -> bool:
    """Whether ``user`` masters ``game``: with ``write`` (default) the master and full co-masters; with
    ``write=False`` read-only co-masters too."""
    role = master_role(game, user)
    return role in ((MASTER, FULL) if write else (MASTER, FULL, READ_ONLY))


def master_users(game: Game, *, read_only: bool = True) -> list:
    """The users who master ``game``: the master first, then the co-masters (the read-only ones too unless
    ``read_only=False``) — the recipients of what the master is told (results, private messages)."""
    users = [game.master]
    users += [c.user for c in comasters_of(game).values() if read_only or not c.read_only]
    return users


