"""Forum Mafia signups (FM-2): write services and the selectors the signup page and the API read.

Every service is keyword-only and atomic, checks everything before it changes anything, and raises
:class:`~gm.core.services.ServiceError` with field errors (``pledges``, ``public_role``, ``custom_role``,
``character_name``, ``messengers``, ``avatar``, ``reason``) or a whole-request ``code``: ``forbidden`` (not logged
in, not the master), ``not_allowed`` (the master signing up for his own game, not a forum Mafia game), ``state``
(signups closed, the game started or over), ``duplicate`` (already signed up), ``not_found`` (no such signup).

Concurrency: a service that checks the public-role and name uniqueness locks the game row first (the same lock the
core's ``seat_join`` takes), so two signups for one role are serialised and the second sees the first. The partial
unique constraints of :class:`~.models.Signup` back this up at the database; their ``IntegrityError`` is turned into
the same clear error.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.validators import validate_avatar
from gm.core import services as core
from gm.core.models import AuditEntry, Game, Seat
from gm.core.services import ServiceError
from gm.core.services.comasters import may_master

from ..engine.roles import CUSTOM, PUBLIC_ROLE_BY_SLUG, PUBLIC_ROLES, listed_role_for_name, public_role_key
from ..models import Signup
from ..texts import public_role_name
from .orders import latest_payload, order_part_submit

MODULE = "forum_mafia"
NAME_MAX = 80
MESSENGERS_MAX = 500
REASON_MAX = 1000

Clock = Callable[[], datetime]


# -- helpers --------------------------------------------------------------------------------------------------


def is_master(game: Game, user, *, write: bool = True) -> bool:
    """Whether ``user`` masters ``game``: the master, a full co-master or a superuser; with ``write=False`` a
    read-only co-master too (issue 24: he reads the signups, he does not act on them)."""
    return may_master(game, user, write=write)


def _locked_game(game: Game) -> Game:
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.module != MODULE:
        raise ServiceError(_("This is not a forum Mafia game."), code="not_allowed")
    return game


def _require_login(user) -> None:
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in to sign up."), code="forbidden")


def _clean_text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _name_errors(name: Any) -> list[str]:
    if not isinstance(name, str) or not name.strip():
        return [_("Choose a name for your character.")]
    if len(name.strip()) > NAME_MAX:
        return [_("The character name is at most %(max)s characters long.") % {"max": NAME_MAX}]
    return []


def _messengers_errors(messengers: Any) -> list[str]:
    if not isinstance(messengers, str):
        return [_("Write your messenger identifiers as text.")]
    if len(messengers.strip()) > MESSENGERS_MAX:
        return [_("Messenger identifiers are at most %(max)s characters long.") % {"max": MESSENGERS_MAX}]
    return []


def _avatar_errors(avatar) -> list[str]:
    try:
        validate_avatar(avatar)
    except ValidationError as exc:
        return list(exc.messages)
    except (AttributeError, TypeError):  # not a file at all
        return [_("The avatar must be an image (JPEG, PNG, GIF or WebP).")]
    return []


def _name_taken(game: Game, name: str, *, except_seat: int | None = None) -> bool:
    wanted = name.casefold()
    return any(s.display_name.casefold() == wanted for s in game.seats.all() if s.pk != except_seat)


def _default_name(user) -> str:
    """The character name of a player who left it empty (FM-2.1): his profile's display name, else his user name,
    cut to :data:`NAME_MAX`."""
    profile = getattr(user, "profile", None)
    name = (getattr(profile, "display_name", "") or "").strip() or user.get_username()
    return name[:NAME_MAX]


def _free_name(game: Game, name: str) -> str:
    """``name``, or the first of "``name`` 2", "``name`` 3"… no seat of ``game`` holds (ignoring case)."""
    taken = {s.display_name.casefold() for s in game.seats.all()}
    number = 2
    candidate = name
    while candidate.casefold() in taken:
        suffix = f" {number}"
        candidate = name[:NAME_MAX - len(suffix)] + suffix
        number += 1
    return candidate


def _taken_message(role_name: str, holder: str) -> str:
    return _("The role “%(role)s” is already claimed: %(name)s has it.") % {"role": role_name, "name": holder}


def _holder(game: Game, key: str) -> Signup | None:
    return Signup.objects.filter(game=game, role_key=key, status=Signup.Status.ACTIVE).select_related("seat").first()


def _holder_name(signup: Signup) -> str:
    return signup.seat.display_name if signup.seat else signup.character_name


def clean_claim(public_role: Any, custom_role: Any = "") -> tuple[str, str, str, dict[str, list[str]]]:
    """Check a claimed public role without the database: ``(slug, custom name, role key, field errors)``.

    FM-2.3: ``public_role`` is an FM-8 slug or ``"custom"``; a custom name is required, at most 80 characters,
    and may not be a listed role's slug or Russian/English name (in any case and spacing).
    """
    if not isinstance(public_role, str) or (public_role not in PUBLIC_ROLE_BY_SLUG and public_role != CUSTOM):
        return "", "", "", {"public_role": [_("Choose a public role from the list, or “Other” and write its name.")]}
    if public_role != CUSTOM:
        return public_role, "", public_role_key(public_role), {}
    name = " ".join(custom_role.split()) if isinstance(custom_role, str) else ""
    if not name:
        return CUSTOM, "", "", {"custom_role": [_("Write the name of your role.")]}
    if len(name) > NAME_MAX:
        return CUSTOM, name, "", {"custom_role": [
            _("The role name is at most %(max)s characters long.") % {"max": NAME_MAX}]}
    listed = listed_role_for_name(name)
    if listed is not None:
        return CUSTOM, name, "", {"custom_role": [
            _("“%(name)s” is a role of the list (%(role)s): choose it in the list if it is free, or write another "
              "name.") % {"name": name, "role": public_role_name(listed.slug)}]}
    return CUSTOM, name, public_role_key({CUSTOM: name}), {}


# -- services -------------------------------------------------------------------------------------------------


def signup_create(
    *,
    game: Game,
    user,
    public_role: str,
    custom_role: str = "",
    character_name: str | None = "",
    messengers: str = "",
    avatar=None,
    pledges: bool,
    clock: Clock = timezone.now,
) -> Signup:
    """Sign ``user`` up for a forum Mafia ``game`` in signup (FM-2).

    FM-2.4 ``pledges`` must be ``True`` (the three pledges accepted; the time is kept in ``pledged_at``). FM-2.1:
    ``character_name`` (the seat's display name, optional: empty means the player's display name or user name,
    numbered "Name 2"… if a seat holds it; at most 80 characters, unique in the game ignoring case),
    ``messengers`` («Внешность», free text, at most 500 characters), ``avatar`` (optional image, checked by
    :func:`accounts.validators.validate_avatar`). FM-2.2/FM-2.3: ``public_role`` an FM-8 slug, or ``"custom"``
    with ``custom_role`` a name that is no listed role's; a role another active signup holds is refused with a
    message naming the character who holds it.

    Locks the game row, then checks, then creates the core seat (via :func:`gm.core.services.seat_join`) with
    ``data={"public_role": slug or {"custom": name}}`` and the :class:`~.models.Signup`.

    Raises :class:`ServiceError`: ``forbidden`` (not logged in), ``not_allowed`` (the master; not forum Mafia),
    ``state`` (not in signup, or closed — FM-2.5), ``duplicate`` (already signed up), ``full``, or field errors.
    """
    _require_login(user)
    slug, custom, key, errors = clean_claim(public_role, custom_role)
    if pledges is not True:
        errors["pledges"] = [_("Accept the three pledges to sign up.")]
    chosen = isinstance(character_name, str) and bool(character_name.strip())
    if character_name is None or (isinstance(character_name, str) and not chosen):
        character_name = _default_name(user)  # FM-2.1: the character name is optional
    name_errors = _name_errors(character_name)
    if name_errors:
        errors["character_name"] = name_errors
    name = _clean_text(character_name)
    messengers_errors = _messengers_errors(messengers)
    if messengers_errors:
        errors["messengers"] = messengers_errors
    if avatar:
        avatar_errors = _avatar_errors(avatar)
        if avatar_errors:
            errors["avatar"] = avatar_errors
    with transaction.atomic():
        game = _locked_game(game)
        if game.status != Game.Status.SIGNUP or game.signups_closed:
            raise ServiceError(_("Signups for this game are closed."), code="state")
        if user.pk == game.master_id:
            raise ServiceError(_("The master can't take a seat in their own game."), code="not_allowed")
        if may_master(game, user, write=False):
            raise ServiceError(_("A co-master can't take a seat in the game."), code="not_allowed")
        if Signup.objects.filter(game=game, user=user, status=Signup.Status.ACTIVE).exists() or \
                Seat.objects.filter(game=game, user=user).exists():
            raise ServiceError(_("You have already signed up for this game."), code="duplicate")
        if key:
            holder = _holder(game, key)
            if holder is not None:
                field = "custom_role" if slug == CUSTOM else "public_role"
                role_name = custom if slug == CUSTOM else public_role_name(slug)
                errors[field] = [_taken_message(role_name, _holder_name(holder))]
        if not name_errors and _name_taken(game, name):
            if chosen:
                errors["character_name"] = [_("The name “%(name)s” is taken in this game.") % {"name": name}]
            else:  # the default name: the next free "Name 2", "Name 3"…
                name = _free_name(game, name)
        if errors:
            raise ServiceError(errors)
        try:
            seat = core.seat_join(game=game, user=user, display_name=name)
        except ServiceError as exc:
            raise ServiceError({("character_name" if k == "display_name" else k): v for k, v in exc.errors.items()},
                               code=exc.code) from None
        value = {CUSTOM: custom} if slug == CUSTOM else slug
        seat.data = {**seat.data, "public_role": value}
        seat.save(update_fields=["data"])
        signup = Signup(game=game, user=user, seat=seat, character_name=name, public_role=slug, custom_role=custom,
                        role_key=key, messengers=messengers.strip(), pledged_at=clock())
        try:
            with transaction.atomic():
                signup.save()
        except IntegrityError:
            # A race past the lock (the constraints are the backstop): report it like the check above.
            holder = _holder(game, key)
            if holder is not None and holder.user_id != user.pk:
                field = "custom_role" if slug == CUSTOM else "public_role"
                role_name = custom if slug == CUSTOM else public_role_name(slug)
                raise ServiceError({field: [_taken_message(role_name, _holder_name(holder))]}, code="conflict") \
                    from None
            raise ServiceError(_("You have already signed up for this game."), code="duplicate") from None
        if avatar:
            signup.avatar = avatar
            signup.save(update_fields=["avatar"])
        return signup


def signup_withdraw(*, game: Game, user) -> Signup:
    """Withdraw ``user``'s active signup before the game starts (FM-2): the signup is marked ``withdrawn`` (its
    public role is free again) and the core seat removed (:func:`gm.core.services.seat_leave`).

    Raises :class:`ServiceError`: ``forbidden`` (not logged in), ``not_found`` (no active signup), ``state`` (the
    game has started).
    """
    _require_login(user)
    with transaction.atomic():
        game = _locked_game(game)
        signup = Signup.objects.filter(game=game, user=user, status=Signup.Status.ACTIVE).first()
        if signup is None:
            raise ServiceError(_("You have not signed up for this game."), code="not_found")
        if game.status != Game.Status.SIGNUP:
            raise ServiceError(_("You can only withdraw before the game starts."), code="state")
        signup.status = Signup.Status.WITHDRAWN
        signup.save(update_fields=["status"])
        if signup.seat_id is not None:
            core.seat_leave(game=game, user=user)
            signup.refresh_from_db()  # the seat link was cleared with the seat
        return signup


def signup_reject(*, game: Game, actor, signup_id: int, reason: str, clock: Clock = timezone.now) -> Signup:
    """FM-2.5: the master rejects an active signup before the game starts, giving a ``reason`` (required, at most
    1000 characters). The signup becomes ``rejected`` with the reason kept (shown to its player on the signup
    page), its seat is removed and the role is free again; the master's audit log records it
    (``fm_signup_reject``). The player may sign up again while signups are open.

    Raises :class:`ServiceError`: ``forbidden`` (not the master), ``not_found`` (no such signup in this game),
    ``state`` (not active, or the game has started), or a ``reason`` field error.
    """
    if not is_master(game, actor):
        raise ServiceError(_("Only the game's master may do this."), code="forbidden")
    reason = _clean_text(reason)
    if not reason:
        raise ServiceError({"reason": [_("Give the player a reason.")]})
    if len(reason) > REASON_MAX:
        raise ServiceError({"reason": [_("The reason is at most %(max)s characters long.") % {"max": REASON_MAX}]})
    with transaction.atomic():
        game = _locked_game(game)
        signup = Signup.objects.filter(game=game, pk=signup_id).select_related("seat").first() \
            if isinstance(signup_id, int) else None
        if signup is None:
            raise ServiceError(_("There is no such signup in this game."), code="not_found")
        if signup.status != Signup.Status.ACTIVE:
            raise ServiceError(_("This signup is no longer active."), code="state")
        if game.status != Game.Status.SIGNUP:
            raise ServiceError(_("Signups can only be rejected before the game starts."), code="state")
        signup.status = Signup.Status.REJECTED
        signup.reject_reason = reason
        signup.save(update_fields=["status", "reject_reason"])
        if signup.seat_id is not None:
            core.seat_leave(game=game, user=signup.user)
            signup.refresh_from_db()  # the seat link was cleared with the seat
        AuditEntry.objects.create(game=game, actor=actor, action="fm_signup_reject", reason=reason,
                                  data={"signup": signup.pk, "character": signup.character_name,
                                        "role": signup.role_key}, created_at=clock())
        return signup


def character_update(
    *,
    game: Game,
    user,
    character_name: str | None = None,
    avatar=None,
    messengers: str | None = None,
) -> Signup:
    """FM-2.1: change the character of ``user``'s active signup — also after the game has started, until it is
    over. ``None`` leaves a field as it is; ``avatar=False`` removes the avatar. The name stays unique in the game
    (ignoring case, like the core's seats) and is written to the seat's display name too.

    Raises :class:`ServiceError`: ``forbidden`` (not logged in), ``not_found`` (no active signup), ``state`` (the
    game is over), or field errors (``character_name``, ``avatar``, ``messengers``).
    """
    _require_login(user)
    errors: dict[str, list[str]] = {}
    if character_name is not None and _name_errors(character_name):
        errors["character_name"] = _name_errors(character_name)
    if messengers is not None and _messengers_errors(messengers):
        errors["messengers"] = _messengers_errors(messengers)
    if avatar and _avatar_errors(avatar):
        errors["avatar"] = _avatar_errors(avatar)
    with transaction.atomic():
        game = _locked_game(game)
        signup = Signup.objects.filter(game=game, user=user, status=Signup.Status.ACTIVE).select_related(
            "seat").first()
        if signup is None:
            raise ServiceError(_("You have not signed up for this game."), code="not_found")
        if game.is_over:
            raise ServiceError(_("The game is over; the character can't be changed any more."), code="state")
        name = _clean_text(character_name) if character_name is not None else None
        if name and "character_name" not in errors and _name_taken(game, name, except_seat=signup.seat_id):
            errors["character_name"] = [_("The name “%(name)s” is taken in this game.") % {"name": name}]
        if errors:
            raise ServiceError(errors)
        fields = []
        if name is not None and name != signup.character_name:
            signup.character_name = name
            fields.append("character_name")
            if signup.seat is not None:
                signup.seat.display_name = name
                signup.seat.save(update_fields=["display_name"])
        if messengers is not None:
            signup.messengers = messengers.strip()
            fields.append("messengers")
        old_avatar = signup.avatar.name if signup.avatar else ""
        if avatar is False:
            signup.avatar = None
            fields.append("avatar")
        elif avatar:
            signup.avatar = avatar
            fields.append("avatar")
        if fields:
            signup.save(update_fields=fields)
        if "avatar" in fields and old_avatar and old_avatar != (signup.avatar.name if signup.avatar else ""):
            storage = signup.avatar.storage
            transaction.on_commit(lambda: storage.delete(old_avatar))  # the replaced file, once the change is kept
        return signup


# -- selectors ------------------------------------------------------------------------------------------------


def _entry(signup: Signup) -> dict:
    return {
        "id": signup.pk,
        "character_name": _holder_name(signup),
        "public_role": signup.public_role,
        "public_role_name": public_role_name(signup.public_role_value),
        "custom": signup.public_role == CUSTOM,
        "avatar_url": signup.avatar.url if signup.avatar else "",
    }


def _active(game: Game):
    return (Signup.objects.filter(game=game, status=Signup.Status.ACTIVE)
            .select_related("seat", "user").order_by("seat__position", "created_at", "id"))


def signups_public(game: Game) -> list[dict]:
    """The public signup list (FM-2.2: who claimed which public role), in ring order: ``id``,
    ``character_name``, ``public_role`` (slug or ``custom``), ``public_role_name`` (in the active language; the
    custom name for ``custom``), ``custom``, ``avatar_url``. Never the secret role nor the messengers."""
    return [_entry(s) for s in _active(game)]


def signups_for_master(game: Game) -> list[dict]:
    """The master's list: :func:`signups_public` plus the ``messengers`` (FM-2.1) and ``username`` of each."""
    return [{**_entry(s), "messengers": s.messengers, "username": s.user.get_username()} for s in _active(game)]


def signup_detail(signup: Signup) -> dict:
    """One signup for its own player (or the master): the public entry plus ``status``, ``messengers`` and the
    master's ``reject_reason``."""
    return {**_entry(signup), "status": signup.status, "messengers": signup.messengers,
            "reject_reason": signup.reject_reason}


def signups_for_viewer(game: Game, user) -> list[dict]:
    """The list ``user`` may see: the master's for the master (and superusers), else the public one."""
    return signups_for_master(game) if is_master(game, user, write=False) else signups_public(game)


def taken_roles(game: Game) -> dict[str, str]:
    """Role key → the character name holding it, among active signups (FM-2.2)."""
    return {s.role_key: _holder_name(s) for s in _active(game)}


def role_choices(game: Game) -> list[dict]:
    """The FM-8 roles in list order with who holds each (``holder`` empty when free), for the signup form."""
    taken = taken_roles(game)
    return [{"slug": r.slug, "name": public_role_name(r.slug), "holder": taken.get(r.slug, "")}
            for r in PUBLIC_ROLES]


def own_signup(game: Game, user) -> Signup | None:
    """``user``'s latest signup if it is active or rejected (a rejection's reason is shown to him), else ``None``."""
    if not user or not user.is_authenticated:
        return None
    latest = Signup.objects.filter(game=game, user=user).select_related("seat").order_by("-created_at", "-id").first()
    return latest if latest is not None and latest.status != Signup.Status.WITHDRAWN else None


# -- the Veche (FM-7) ------------------------------------------------------------------------------------------


def vote_submit(*, phase, user, target: int | None, punishment: str | None = "execution",
                prosecutor_bonus: bool = False, keep: Any = None, base_version: int | None = None,
                clock: Clock = timezone.now):
    """Vote in the Veche (FM-7.1–7.3, FM-7.5, FM-7.6): a new version of ``user``'s order for the day ``phase`` with
    its ``vote`` part replaced (``services.orders.order_part_submit``; the cards and room proposals of the order stay).

    ``phase`` is the day the vote form or API body named (a day that has ended is refused, ``stale``).
    ``target``: the seat id voted for, or ``None`` for peace (FM-7.1); ``punishment``: ``execution`` or ``jail``
    (FM-7.2; a vote for peace carries none, it counts only among votes for characters); ``prosecutor_bonus``: the
    ``prosecutor``'s one-time +2 declared with this vote (FM-7.3); ``keep``: the Sleeve card (uid or slug) a
    ``maniac`` keeps if he is jailed (FM-7.5); ``base_version``: the order version the form showed (a vote changed
    elsewhere since is a ``conflict``; ``None``: no check). Votes change until the deadline; the last version counts
    (FM-5.6).

    Raises :class:`ServiceError`: ``stale`` for a day that has ended ("Day 1 has ended; Night 2 is open now — your
    vote was not saved"), ``late`` after the deadline (the core's check, nothing changes), ``not_allowed`` for a
    dead character (FM-6.2), ``forbidden`` without a seat, ``conflict``, ``invalid`` with the engine's reasons (a
    dead or unknown target, the sociopath on Day 1, a bonus that isn't his or is spent, a night…). Nothing is
    stored on error."""
    if user is not None and user.is_authenticated:
        seat = Seat.objects.filter(game_id=phase.game_id, user=user).first()
        if seat is not None and not seat.alive:
            raise ServiceError(_("Dead characters do not vote in the Veche (FM-6.2)."), code="not_allowed")
    vote: dict[str, Any] = {"for": "peace" if target is None else target}
    if target is not None:
        vote["punishment"] = punishment
    if prosecutor_bonus:
        vote["prosecutor_bonus"] = True
    if keep is not None:
        vote["keep"] = keep
    return _vote_part(phase=phase, user=user, value=vote, base_version=base_version, clock=clock)


def vote_withdraw(*, phase, user, base_version: int | None = None, clock: Clock = timezone.now):
    """Take back ``user``'s Veche vote (FM-7.1): a new version of his order without the ``vote`` part (his cards
    and room proposals stay). Errors as :func:`vote_submit`; ``not_found`` when he has no vote."""
    seat = Seat.objects.filter(game_id=phase.game_id, user=user).first() if user and user.is_authenticated else None
    if seat is not None and latest_payload(phase, seat).get("vote") is None:
        if phase.status != phase.Status.OPEN:  # a day that has ended: say so rather than "you have not voted"
            raise core.stale_refusal(phase, subject="vote")
        raise ServiceError(_("You have not voted."), code="not_found")
    return _vote_part(phase=phase, user=user, value=None, base_version=base_version, clock=clock)


def _vote_part(*, phase, user, value, base_version: int | None, clock: Clock):
    """The ``vote`` part of ``user``'s order through ``order_part_submit``; the core's ``stale`` refusal is
    re-worded for a vote (same code and ``extra``)."""
    try:
        return order_part_submit(phase=phase, user=user, key="vote", value=value, base_version=base_version,
                                 clock=clock)
    except ServiceError as exc:
        if exc.code == "stale":
            raise core.stale_refusal(phase, subject="vote") from None
        raise
