"""Forum Mafia master override: set a game up exactly as the master describes it, skipping signups, the deal and
deck building — who sits where with which roles, Hand, Sleeve and deck — and open Night N or Day N.

It is what scenario files (``manage.py gm_scenario``) build games with, and a master's tool to reproduce a disputed
position ("what if"). Everything after the setup goes through the ordinary services (orders, votes, the deadline
resolution). The seat data it writes has the shape the engine reads after deck building (FM-4.5):
``public_role``, ``secret_role``, ``faction``, ``cards`` (:class:`cards.containers.Containers` as a dict),
``deck_list`` and, for the joker, ``joker_colours``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.deckrules import ROLE_COLOURS
from cards.domain import Collection
from cards.models import current_collection
from gm.core import services as core
from gm.core.engine import PhaseSpec
from gm.core.models import Game, LogEntry, Phase, Seat
from gm.core.services import Clock, ServiceError
from gm.core.services.anonymity import assign as assign_aliases

from ..engine import table
from ..engine.roles import CUSTOM, MAFIA, PUBLIC_ROLE_BY_SLUG, SECRET_ROLES
from ..engine.state import DAY, MAFIA_GROUP, NIGHT, STALEMATE_PHASES

#: Keys of one player's description (see :func:`game_setup_override`).
PLAYER_KEYS = ("user", "name", "public_role", "secret_role", "colours", "hand", "sleeve", "deck", "alive")
START_KINDS = (NIGHT, DAY)


def start_ordinal(kind: str, number: int) -> int:
    """The phase ordinal Night/Day ``number`` has in a game that began with deck building (ordinal 1): Night N is
    2N, Day N is 2N+1 — so the phase's RNG seed is the one a real game of the same seed would use."""
    return 2 * number + (1 if kind == DAY else 0)


def _slug_errors(value: Any, collection: Collection, *, many: bool = True) -> list[str]:
    items = value if many else [value]
    if many and not isinstance(value, list):
        return [_("Give a list of card slugs.")]
    bad = [v for v in items if not isinstance(v, str) or v not in collection]
    return [_("Unknown card %(slugs)s.") % {"slugs": ", ".join(repr(v) for v in bad)}] if bad else []


def player_errors(player: Mapping[str, Any], collection: Collection) -> dict[str, list[str]]:
    """Field → messages for one player description (empty: valid). Checks the keys, the public role (an FM-8 slug
    or ``{"custom": name}``), the secret role (FM-3), the joker's colours (two distinct role colours, FM-3.3), and
    that every Hand, Sleeve and deck card is a kind of ``collection``. Pure given ``collection``."""
    errors: dict[str, list[str]] = {}
    for key in player:
        if key not in PLAYER_KEYS:
            errors.setdefault(key, []).append(_("Unknown key “%(key)s”.") % {"key": key})
    name = player.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        errors.setdefault("name", []).append(_("A name of 1 to 80 characters is required."))
    public = player.get("public_role")
    if public is not None:
        if isinstance(public, dict):
            if set(public) != {CUSTOM} or not isinstance(public[CUSTOM], str) or not public[CUSTOM].strip():
                errors.setdefault("public_role", []).append(_("A custom public role is {custom: name}."))
        elif public not in PUBLIC_ROLE_BY_SLUG:
            errors.setdefault("public_role", []).append(_("Unknown public role %(slug)r.") % {"slug": public})
    secret = player.get("secret_role")
    if secret not in SECRET_ROLES:
        errors.setdefault("secret_role", []).append(_("Unknown secret role %(slug)r.") % {"slug": secret})
    colours = player.get("colours")
    if colours is not None:
        if secret != "joker":
            errors.setdefault("colours", []).append(_("Only the joker chooses colours (FM-3.3)."))
        elif (not isinstance(colours, list) or len(colours) != 2 or len(set(map(str, colours))) != 2
              or any(c not in ROLE_COLOURS for c in colours)):
            errors.setdefault("colours", []).append(
                _("The joker's colours are two different ones of %(colours)s (FM-3.3).")
                % {"colours": ", ".join(ROLE_COLOURS)})
    for key in ("hand", "deck"):
        if player.get(key) is not None:
            errors.setdefault(key, []).extend(_slug_errors(player[key], collection))
    sleeve = player.get("sleeve")
    if sleeve is not None:
        if not isinstance(sleeve, list):
            errors.setdefault("sleeve", []).append(_("Give a list of card slugs."))
        else:
            for item in sleeve:
                if isinstance(item, dict):
                    if set(item) - {"card", "from_role"} or not isinstance(item.get("from_role", False), bool):
                        errors.setdefault("sleeve", []).append(_("A Sleeve card is a slug or {card: slug, "
                                                                 "from_role: true}."))
                        continue
                    item = item.get("card")
                errors.setdefault("sleeve", []).extend(_slug_errors(item, collection, many=False))
    if not isinstance(player.get("alive", True), bool):
        errors.setdefault("alive", []).append(_("“alive” is true or false."))
    return {k: v for k, v in errors.items() if v}


def seat_data(player: Mapping[str, Any], collection: Collection) -> dict:
    """The engine's seat data for a valid player description (:func:`.table.seat_data`): Hand and deck cards come
    from the deck (deck top first), the Sleeve is the given list or else the roles' start cards (FM-3.3, FM-8)."""
    colours = player.get("colours")
    data = table.seat_data(public_role=player.get("public_role"), secret_role=player["secret_role"],
                           hand=player.get("hand") or [], sleeve=player.get("sleeve"), deck=player.get("deck") or [],
                           collection=collection,
                           joker_colours=sorted(colours, key=ROLE_COLOURS.index) if colours is not None else None)
    if player.get("public_role") is None:
        data.pop("public_role")
    return data


def game_setup_override(
    *, game: Game, actor, players: Sequence[Mapping[str, Any]], start_kind: str, start_number: int,
    clock: Clock = timezone.now,
) -> Phase:
    """Seat ``players`` in a forum Mafia game that has not started, give them the described roles and cards, and open
    ``start_kind`` ``start_number`` (Night N or Day N) at once (master only; atomic; audited as ``setup_override``).

    ``players`` (ring order = list order, FM-9.2): dicts with ``user`` (a user without a seat here, not the master),
    ``name`` (display name), ``secret_role`` (FM-3 slug), optional ``public_role`` (FM-8 slug or ``{"custom":
    name}``), ``colours`` (joker only: two role colours), ``hand`` (slugs, front first), ``deck`` (slugs, top
    first; empty means draws give mulligans, FM-4.7), ``sleeve`` (``None``: the roles' start cards; else exactly
    these: a slug is a deck card, ``{"card": slug, "from_role": true}`` a card a role gave) and ``alive`` (default
    true). The game state gets the collection snapshot (FM-4.2), the hero option, the stalemate limit (FM-10.H1) and
    an empty ``fm`` part; the mafiosi join ``faction:mafia`` (FM-3.1). A lucky starting on Night 1 has his two
    redeals (FM-8).

    Raises :class:`ServiceError`: ``forbidden`` (not the master), ``not_allowed`` (not forum Mafia), ``state`` (the
    game has started, has seats or phases), ``invalid`` with errors keyed ``players.<index>.<key>``, ``start`` or
    ``players``. Returns the opened phase.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        core.require_master(game, actor)
        if game.module != "forum_mafia":
            raise ServiceError(_("This is not a forum Mafia game."), code="not_allowed")
        if game.status not in (Game.Status.DRAFT, Game.Status.SIGNUP) or game.phases.exists() or game.seats.exists():
            raise ServiceError(_("Only a game that has not started and has no seats can be set up this way."),
                               code="state")
        errors: dict[str, list[str]] = {}
        if start_kind not in START_KINDS or isinstance(start_number, bool) or not isinstance(start_number, int) \
                or start_number < 1:
            errors["start"] = [_("The game starts at night N or day N (N ≥ 1).")]
        if not players:
            errors["players"] = [_("Give at least one player.")]
        elif len(players) > game.game_module.max_seats:  # the seat limit holds for a set-up position too
            errors["players"] = [_("A game of forum Mafia seats at most %(max)s players; this set-up has %(count)s.")
                                 % {"max": game.game_module.max_seats, "count": len(players)}]
        collection = current_collection()
        names: set[str] = set()
        users: set[int] = set()
        for index, player in enumerate(players):
            for key, messages in player_errors(player, collection).items():
                errors[f"players.{index}.{key}"] = messages
            name = player.get("name")
            if isinstance(name, str):
                if name.strip().casefold() in names:
                    errors.setdefault(f"players.{index}.name", []).append(
                        _("The name “%(name)s” is taken in this game.") % {"name": name})
                names.add(name.strip().casefold())
            user = player.get("user")
            if user is None or not getattr(user, "pk", None) or user.pk == game.master_id or user.pk in users:
                errors.setdefault(f"players.{index}.user", []).append(
                    _("Each player needs a user of his own, not the master."))
            else:
                users.add(user.pk)
        if errors:
            raise ServiceError(errors)
        now = clock()
        seats = []
        for position, player in enumerate(players):
            data = seat_data(player, collection)
            if player.get("public_role") == "lucky" and start_kind == NIGHT and start_number == 1:
                data["lucky_redeals_left"] = 2
            seats.append(Seat.objects.create(game=game, user=player["user"], display_name=player["name"].strip(),
                                             position=position, alive=player.get("alive", True), data=data))
        assign_aliases(game)  # an anonymous game (the core's option, issue 23): the seats get their aliases
        for seat in seats:
            seat.refresh_from_db(fields=["display_name"])
        mafia = [s.pk for s in seats if s.data["faction"] == MAFIA]
        core.add_groups(game, {MAFIA_GROUP: mafia})
        for seat in seats:  # FM-3.1: each mafioso knows the others (his role card), as after a deal
            if seat.pk in mafia:
                seat.data["mafia_seats"] = [other for other in mafia if other != seat.pk]
                seat.save(update_fields=["data"])
        game.state = {**game.state, "hero": bool(game.options.get("hero", False)), "fm": {},
                      "stalemate_phases": game.options.get("stalemate_phases", STALEMATE_PHASES),
                      "collection": collection.snapshot(), "collection_version": collection.version}
        game.started_at = now
        LogEntry.objects.create(game=game, visibility="public", kind="core.game_started", created_at=now)
        phase = core.phase_open(game, PhaseSpec(start_kind, start_number),
                                 ordinal=start_ordinal(start_kind, start_number), now=now)
        game.save(update_fields=["state", "started_at", "status"])
        core.audit_write(game=game, actor=actor, action="setup_override", phase=phase, now=now, data={
            "start": f"{start_kind} {start_number}",
            "seats": [{"seat": s.pk, "name": s.display_name, "alive": s.alive,
                       **{k: s.data[k] for k in ("public_role", "secret_role") if k in s.data}} for s in seats],
        })
        return phase



def stalemate_extend(*, game: Game, actor, reason: str, clock: Clock = timezone.now) -> int:
    """FM-10.H1: the master extends a game heading for a stalemate draw — the quiet-phase count starts again from
    0 (:func:`..engine.victory.stalemate_reset`), audited as ``stalemate_reset`` with his reason and the count it had,
    logged for the master only. Locks the open phase and the game. Raises :class:`ServiceError` ``forbidden`` (not
    the master), ``invalid`` (no reason, nothing to reset), ``state`` (the game is not running). Returns the count
    that was reset."""
    from gm.core.engine import RuleViolation

    from ..engine.victory import stalemate_count, stalemate_reset

    core.require_master(game, actor)
    text = reason.strip() if isinstance(reason, str) else ""
    if not text or len(text) > 500:
        raise ServiceError({"reason": [_("Give a reason (at most 500 characters); it goes into the audit log.")]})
    with transaction.atomic():
        phase = Phase.objects.select_for_update().filter(game_id=game.pk).exclude(
            status=Phase.Status.RESOLVED).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.module != "forum_mafia" or game.status != Game.Status.RUNNING or game.is_over:
            raise ServiceError(_("Only a running forum Mafia game can be extended."), code="state")
        count = stalemate_count(game.state)
        try:
            game.state, events = stalemate_reset(game.state)
        except RuleViolation as exc:
            raise ServiceError({"stalemate": [_(str(e.message)) for e in exc.errors]}) from None
        now = clock()
        game.save(update_fields=["state"])
        LogEntry.objects.bulk_create([core.log_entry(game, phase, e, now) for e in events])
        core.audit_write(game=game, actor=actor, action="stalemate_reset", reason=text, phase=phase, now=now,
                    data={"count": count})
    return count
