"""DOC"""
from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import registry, signals
from ..engine import Event, RuleViolation
from ..models import Game, LogEntry, Phase, Seat
from .anonymity import assign
from .base import (
    Clock,
    ServiceError,
    add_groups,
    audit_write,
    can_host,
    log_entry,
    phase_open,
    require_master,
    seat_info,
    violation_errors,
)


def game_create(
    *,
    master,
    module: str,
    title: str,
    description: str = "",
    options: Mapping[str, Any] | None = None,
    durations: Mapping[str, float] | None = None,
    rng_seed: int | None = None,
    starts_at: datetime | None = None,
) -> Game:
    """Create a ``draft`` game of ``module`` mastered by ``master``.

    ``durations`` maps phase kinds to seconds (positive, at most 30 days). ``rng_seed`` defaults to a fresh
    random 63-bit seed (recorded, so dealing and every phase can be reproduced). Raises :class:`ServiceError`
    when the user may not host, the module is unknown, or options/durations are invalid.
    """
    if not can_host(master):
        raise ServiceError(_("You may not host games. Ask an administrator for the “can host games” permission."),
                           code="forbidden")
    try:
        game_module = registry.get(module)
    except registry.UnknownModule:
        raise ServiceError({"module": [_("Unknown game “%(slug)s”.") % {"slug": module}]}) from None
    errors: dict[str, list[str]] = {}
    if not title or not title.strip():
        errors["title"] = [_("Give the game a title.")]
    try:
        clean_options = game_module.validate_options(options or {})
    except RuleViolation as exc:
        for key, msgs in violation_errors(exc).items():
            errors.setdefault("options" if key == "__all__" else f"options.{key}", []).extend(msgs)
        clean_options = {}
    clean_durations: dict[str, float] = {}
    for kind, seconds in (durations or {}).items():
        if kind not in game_module.phase_kinds:
            errors.setdefault("durations", []).append(_("Unknown phase kind “%(kind)s”.") % {"kind": kind})
            continue
        try:
            value = float(seconds)
        except (TypeError, ValueError, OverflowError):
            value = -1
        if not 0 < value <= 30 * 86400:
            errors.setdefault("durations", []).append(
                _("The duration of “%(kind)s” must be between 1 second and 30 days.") % {"kind": kind}
            )
            continue
        clean_durations[kind] = value
    if errors:
        raise ServiceError(errors)
    return Game.objects.create(
        module=module,
        title=title.strip(),
        description=description,
        master=master,
        options=clean_options,
        durations=clean_durations,
        rng_seed=rng_seed if rng_seed is not None else random.SystemRandom().getrandbits(63),
        starts_at=starts_at,
    )


def game_open_signup(*, game: Game, actor) -> Game:
    """Move a ``draft`` game to ``signup`` (master only). Raises :class:`ServiceError`. When the site reviews
    setups (``GM_SETUP_REVIEW``, issue 24) and no reviewer approved this one yet, the setup is sent for review
    instead and the answer is a ``review`` refusal saying so: the signups open when a reviewer approves."""
    from .comaster_review import approved, review_request, review_required

    if review_required() and not approved(game):
        review_request(game=game, actor=actor)
        raise ServiceError(_("This site reviews every setup before signups open: yours was sent for review. The "
                             "signups open when a reviewer approves it."), code="review")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.status != Game.Status.DRAFT:
            raise ServiceError(_("Signups can only be opened for a draft game."), code="state")
        game.status = Game.Status.SIGNUP
        game.save(update_fields=["status"])
        return game


def game_close_signup(*, game: Game, actor, closed: bool = True) -> Game:
    """Close (or, with ``closed=False``, reopen) signups of a game in ``signup`` (master only, FM-2.5)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.status != Game.Status.SIGNUP:
            raise ServiceError(_("Signups can only be closed or reopened before the game starts."), code="state")
        game.signups_closed = closed
        game.save(update_fields=["signups_closed"])
        return game


def seat_join(*, game: Game, user, display_name: str, accept: Collection[str] = ()) -> Seat:
    """Give ``user`` a seat at the end of the ring of a game in ``signup``.

    ``accept``: the keys of the module's ``signup_consents`` for the game's options that the player accepts (a
    code of honour, BV-15.15); every one must be there. Raises :class:`ServiceError` if signups are closed, the user
    already has a seat, the name is empty or taken, the module's seat limit is reached, or a consent is missing
    (``invalid``, field ``accept``, each with its rule ID; the API's error body lists the consents under
    ``consents``: ``key``, ``title``, ``label``, ``text``, ``rule``).
    """
    display_name = (display_name or "").strip()
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in to sign up."), code="forbidden")
    if not display_name:
        raise ServiceError({"display_name": [_("Choose a name for your character.")]})
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.SIGNUP or game.signups_closed:
            raise ServiceError(_("Signups for this game are closed."), code="state")
        if user.pk == game.master_id:
            raise ServiceError(_("The master can't take a seat in their own game."), code="not_allowed")
        if game.co_masters.filter(user=user).exists():
            raise ServiceError(_("A co-master can't take a seat in the game."), code="not_allowed")
        seats = list(game.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise ServiceError(_("You already have a seat in this game."), code="duplicate")
        if any(s.display_name.casefold() == display_name.casefold() for s in seats):
            taken = _("The name “%(name)s” is taken in this game.") % {"name": display_name}
            raise ServiceError({"display_name": [taken]})
        if len(seats) >= game.game_module.max_seats:
            raise ServiceError(_("The game is full."), code="full")
        _check_consents(game, accept)
        # Apps may refuse (gm.community: the game's minimum reliability record, an active sanction).
        signals.seat_joining.send(sender=Game, game=game, user=user)
        position = max((s.position for s in seats), default=-1) + 1
        seat = Seat.objects.create(game=game, user=user, display_name=display_name, position=position)
        assign(game)  # an anonymous game: the seat is known by an alias from the start (issue 23)
        seat.refresh_from_db(fields=["display_name"])
        return seat


def _check_consents(game: Game, accept: Collection[str]) -> None:
    """Refuse a signup that does not accept every one of the module's ``signup_consents`` (``invalid``, field
    ``accept``)."""
    consents = list(game.game_module.signup_consents(game.options or {}))
    given = {str(k) for k in accept or ()} if not isinstance(accept, str) else {accept}
    missing = [c for c in consents if c.key not in given]
    if missing:
        raise ServiceError(
            {"accept": [_("To sign up, accept: %(label)s") % {"label": c.label}
                        + (f" ({c.rule})" if c.rule else "") for c in missing]},
            extra={"consents": [{"key": c.key, "title": str(c.title), "label": str(c.label), "text": str(c.text),
                                 "rule": c.rule} for c in consents]})


def seat_leave(*, game: Game, user) -> None:
    """Withdraw ``user``'s signup before the game starts. Raises :class:`ServiceError`."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.SIGNUP:
            raise ServiceError(_("You can only withdraw before the game starts."), code="state")
        deleted, _rows = Seat.objects.filter(game=game, user=user).delete()
        if not deleted:
            raise ServiceError(_("You have no seat in this game."), code="not_found")


def game_start(*, game: Game, actor, clock: Clock = timezone.now) -> Phase:
    """Deal the game with the module's ``setup`` from the recorded seed and open its first phase.

    Allowed from ``signup`` (master only). Raises :class:`ServiceError` (with the module's reasons) if the game
    can't start, e.g. too few seats.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.status != Game.Status.SIGNUP:
            raise ServiceError(_("Only a game with open signups can be started."), code="state")
        module = game.game_module
        assign(game)  # an anonymous game: every seat has its alias before anything is dealt or shown
        seats = list(game.seats.order_by("position"))
        if len(seats) < module.min_seats:
            raise ServiceError(
                _("This game needs at least %(min)s players; %(count)s signed up.")
                % {"min": module.min_seats, "count": len(seats)},
                code="state",
            )
        # Ring positions are compacted so that withdrawals leave no gaps.
        for index, seat in enumerate(seats):
            if seat.position != index:
                seat.position = index + 1000
                seat.save(update_fields=["position"])
        for index, seat in enumerate(seats):
            if seat.position != index:
                seat.position = index
                seat.save(update_fields=["position"])
        try:
            result = module.setup(seats=[seat_info(s) for s in seats], options=game.options,
                                  rng=random.Random(game.rng_seed))
        except RuleViolation as exc:
            raise ServiceError(violation_errors(exc), code="state") from None
        now = clock()
        by_id = {s.pk: s for s in seats}
        for seat_id, data in result.seat_data.items():
            by_id[seat_id].data = data
        Seat.objects.bulk_update(seats, ["data"])
        add_groups(game, result.groups)
        game.state = result.state
        game.started_at = now
        # Apps add what the game must carry from its start (e.g. the card collection snapshot) to game.state.
        signals.game_started.send(sender=Game, game=game, module=module)
        LogEntry.objects.bulk_create(
            [log_entry(game, None, Event("core.game_started"), now)]
            + [log_entry(game, None, e, now) for e in result.events]
        )
        phase = phase_open(game, result.first_phase, ordinal=1, now=now)
        game.save(update_fields=["state", "started_at", "status"])
        return phase


def game_abort(*, game: Game, actor, reason: str, clock: Clock = timezone.now) -> Game:
    """Abort a game that has not finished (master only, audited as ``abort`` with ``reason``); the open phase is
    closed unresolved.

    A result held for the master's review (``gm.core.review``) is discarded: it will never be published, so the
    phase stops being held (``held_at``/``publish_at`` cleared) and its stored result is dropped (the phase keeps its
    input snapshot, so ``gm_replay`` can still recompute it). The audit entry says so: its ``phase`` is that phase
    and its ``data`` ``{"discarded_result": {"phase", "ordinal", "held_at", "result_digest"}}``. Raises
    :class:`ServiceError` ``forbidden`` (not the master) or ``state`` (the game is over)."""
    with transaction.atomic():
        # Phase rows first (the services' lock order): the open one, and a held one (no phase is open behind it).
        Phase.objects.select_for_update().filter(game_id=game.pk, status=Phase.Status.OPEN).first()
        held = (Phase.objects.select_for_update()
                .filter(game_id=game.pk, held_at__isnull=False, published_at__isnull=True).first())
        game = Game.objects.select_for_update().get(pk=game.pk)
        require_master(game, actor)
        if game.is_over:
            raise ServiceError(_("The game is already over."), code="state")
        now = clock()
        game.status = Game.Status.ABORTED
        game.finished_at = now
        game.save(update_fields=["status", "finished_at"])
        data = {}
        if held is not None:
            data["discarded_result"] = {"phase": held.pk, "ordinal": held.ordinal,
                                        "held_at": held.held_at.isoformat(), "result_digest": held.result_digest}
            held.held_at = held.publish_at = None
            held.result, held.result_digest = {}, ""
            held.save(update_fields=["held_at", "publish_at", "result", "result_digest"])
        audit_write(game=game, actor=actor, action="abort", reason=reason, phase=held, data=data, now=now)
        return game
