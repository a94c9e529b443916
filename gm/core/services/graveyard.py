"""The graveyard (issue 23, item 9), per game option ``GameLife.graveyard`` (off by default).

On death (a resolution's deaths, a held result published, the master's kill) a seat leaves every group it was in
(its faction, its chat rooms: their later lines no longer reach it) and joins the game's ``graveyard`` group, whose
room (:class:`~gm.core.models.GraveyardPost`) only the dead write in and read. Options: ``dead_see_everything``
(the dead read the game as the master does, through ``visibility.Viewer.sees_everything``; a module whose dead may
still speak forbids it, ``GameModule.forbidden_options``) and ``spectators_read_graveyard``. The living never read
the graveyard (the canary test in ``tests/integration/test_graveyard.py``); once the game is over it opens to all.
"""
from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import visibility
from ..models import Game, GameLife, GraveyardPost, GroupMembership, Phase, Seat, life_of
from .base import Clock, ServiceError, audit_write, require_master

GROUP = "graveyard"
MAX_BODY = 5000


def bury(game: Game, seats: Iterable[Seat]) -> None:
    """Move the dead among ``seats`` out of their groups into the graveyard (only with the ``graveyard`` option;
    idempotent). Call it with the rows locked, after the deaths are written."""
    dead = [s.pk for s in seats if not s.alive]
    if not dead or not life_of(game).graveyard:
        return
    GroupMembership.objects.filter(game=game, seat_id__in=dead).exclude(group=GROUP).delete()
    GroupMembership.objects.bulk_create([GroupMembership(game=game, seat_id=pk, group=GROUP) for pk in dead],
                                        ignore_conflicts=True)


def may_read(viewer: visibility.Viewer) -> bool:
    """Whether ``viewer`` reads the graveyard room: the master; everyone once the game is over; a dead player of a
    game with the graveyard; a spectator (not an anonymous visitor) when ``spectators_read_graveyard``. Never a
    living player."""
    life = life_of(viewer.game)
    if viewer.is_master or viewer.revealed:
        return True
    if not life.graveyard:
        return False
    if viewer.kind == visibility.DEAD_PLAYER:
        return True
    return viewer.kind == visibility.SPECTATOR and life.spectators_read_graveyard


def may_write(viewer: visibility.Viewer) -> bool:
    """Whether ``viewer`` writes in the graveyard room now: a dead player (and the master) while the game runs."""
    return (life_of(viewer.game).graveyard and not viewer.game.is_over
            and (viewer.is_master or viewer.kind == visibility.DEAD_PLAYER))


def posts(viewer: visibility.Viewer) -> list[dict]:
    """The graveyard room as ``viewer`` may read it: ``[{"id", "author", "body", "created_at"}]`` oldest first,
    ``[]`` when he may not read it."""
    if not may_read(viewer):
        return []
    rows = GraveyardPost.objects.filter(game=viewer.game).select_related("seat").order_by("created_at", "id")
    return [{"id": p.pk, "author": p.seat.display_name if p.seat is not None else _("Master"), "body": p.body,
             "created_at": p.created_at} for p in rows]


def graveyard_post(*, game: Game, user, body: str, clock: Clock = timezone.now) -> GraveyardPost:
    """Write ``body`` (plain text, 1–5000 characters) in the graveyard room. Raises :class:`ServiceError`:
    ``forbidden`` for anyone but a dead player or the master of a running game with the graveyard, ``invalid``
    (field ``body``) for an empty or too long text. Nothing is saved on error."""
    body = (body or "").strip()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        viewer = visibility.viewer_for(user, game)
        if not may_write(viewer):
            raise ServiceError(_("Only the dead write in the graveyard."), code="forbidden")
        if not body or len(body) > MAX_BODY:
            raise ServiceError({"body": [_("Write 1 to %(max)s characters.") % {"max": MAX_BODY}]})
        return GraveyardPost.objects.create(game=game, seat=viewer.seat, author=user, body=body, created_at=clock())


def graveyard_options_set(*, game: Game, actor, graveyard: bool, dead_see_everything: bool = False,
                          spectators_read_graveyard: bool = False, reason: str = "",
                          clock: Clock = timezone.now) -> GameLife:
    """Set the graveyard options (master only; audited as ``graveyard``). Turning it on buries the dead at once.
    Raises :class:`ServiceError` ``forbidden``, ``state`` (game over), field error ``dead_see_everything`` when the
    module forbids it (its dead may still speak)."""
    require_master(game, actor)
    if dead_see_everything and "dead_see_everything" in game.game_module.forbidden_options:
        raise ServiceError({"dead_see_everything": [
            _("This game's rules forbid it: its dead may still speak to the living.")]})
    with transaction.atomic():
        Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.is_over:
            raise ServiceError(_("The game is over."), code="state")
        life, _created = GameLife.objects.get_or_create(game=game)
        life.graveyard = bool(graveyard)
        life.dead_see_everything = bool(graveyard and dead_see_everything)
        life.spectators_read_graveyard = bool(graveyard and spectators_read_graveyard)
        life.save(update_fields=["graveyard", "dead_see_everything", "spectators_read_graveyard"])
        game._life_cache = life
        bury(game, Seat.objects.select_for_update().filter(game=game, alive=False))
        audit_write(game=game, actor=actor, action="graveyard", reason=reason,
                    data={"graveyard": life.graveyard, "dead_see_everything": life.dead_see_everything,
                          "spectators_read_graveyard": life.spectators_read_graveyard}, now=clock())
    return life
