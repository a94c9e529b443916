"""Forum Mafia write services of the start stretch (deck building and Night 1): the joker's colours (FM-3.3), the
engineer's guaranteed cards and the lucky's redeals (FM-8).

Every service is keyword-only and atomic, locks the open phase row first and then the player's seat (the order the
core and the cards app use, so nothing deadlocks), checks everything before it changes anything, and raises
:class:`~gm.core.services.ServiceError` with field errors (``colours``, ``picks``) or a ``code``: ``forbidden`` (no
seat), ``not_allowed`` (not this role, or dead), ``state`` (not the right stage), ``late`` (its deadline passed),
``invalid`` (bad input). Each accepted action bumps the seat's ``version`` (so an open Hand-reorder form from before
is refused as a conflict) and writes a log entry only its player (and the master) can read.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.containers import Containers
from cards.deckrules import COLOUR_NAMES, ROLE_COLOURS
from gm.core.models import Game, LogEntry, Phase, Seat
from gm.core.services import Clock, ServiceError, phase_accepting_for_update

from ..engine.state import DECKBUILDING, NIGHT

#: The lucky's redeals during Night 1 (FM-8).
LUCKY_REDEALS = 2
#: The engineer's guaranteed cards (FM-8).
ENGINEER_PICKS = 2


def _open_phase_locked(game: Game, *, kind: str, number: int | None, closed_message: str, now) -> Phase:
    """Lock the game's unresolved phase and check it is ``kind`` (and ``number``), open and before its deadline."""
    if game.module != "forum_mafia":
        raise ServiceError(_("This is not a forum Mafia game."), code="not_allowed")
    return phase_accepting_for_update(game=game, now=now, kind=kind, number=number, wrong_stage=closed_message)


def _own_seat_locked(game: Game, user) -> Seat:
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in first."), code="forbidden")
    seat = Seat.objects.select_for_update().filter(game_id=game.pk, user=user).first()
    if seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    if not seat.alive:
        raise ServiceError(_("The dead take no part in the game (FM-6.2)."), code="not_allowed")
    return seat


def _save(seat: Seat, data: dict, *, phase: Phase, kind: str, log: dict, now) -> Seat:
    seat.data = data
    seat.version = F("version") + 1
    seat.save(update_fields=["data", "version"])
    seat.refresh_from_db(fields=["version"])
    LogEntry.objects.create(game_id=seat.game_id, phase=phase, visibility=LogEntry.Visibility.SEAT, seat=seat,
                            kind=kind, data=log, created_at=now)
    return seat


def joker_colours_choose(*, game: Game, user, colours: Any, clock: Clock = timezone.now) -> Seat:
    """FM-3.3: the ``joker`` chooses his two role colours during the deck-building stage (FM-4.5).

    ``colours``: exactly two distinct slugs of :data:`cards.deckrules.ROLE_COLOURS` (Neutral is everyone's anyway,
    so it is no choice). Only the joker may choose, only while the deck-building stage is open; he may change them
    until its deadline (a joker who never chooses gets two at random when the stage ends [house]). The colours are
    stored in ``seat.data["joker_colours"]`` in rulebook order, where the deck rules read them (FM-4.3); a deck
    he submitted for other colours is checked again when the stage ends. Logged for the joker
    (``fm.joker_colours``).
    """
    with transaction.atomic():
        now = clock()
        phase = _open_phase_locked(
            game, kind=DECKBUILDING, number=None, now=now,
            closed_message=_("The joker chooses his colours during the deck-building stage before Night 1 "
                             "(FM-3.3); it is over."))
        seat = _own_seat_locked(game, user)
        if seat.data.get("secret_role") != "joker":
            raise ServiceError(_("Only the joker chooses his colours (FM-3.3)."), code="not_allowed")
        chosen = _clean_colours(colours)
        data = {**seat.data, "joker_colours": chosen}
        return _save(seat, data, phase=phase, kind="fm.joker_colours", log={"colours": chosen}, now=now)


def _clean_colours(colours: Any) -> list[str]:
    if not isinstance(colours, list | tuple) or not all(isinstance(c, str) for c in colours):
        raise ServiceError({"colours": [_("Choose two colours.")]})
    unknown = [c for c in colours if c not in ROLE_COLOURS]
    if unknown:
        raise ServiceError({"colours": [
            _("Not a colour the joker can choose: %(colours)s. Choose two of: %(allowed)s (FM-3.3).")
            % {"colours": ", ".join(unknown), "allowed": ", ".join(_(COLOUR_NAMES[c]) for c in ROLE_COLOURS)}]})
    if len(colours) != 2 or len(set(colours)) != 2:
        chosen = ", ".join(_(COLOUR_NAMES[c]) for c in colours) or _("none")
        raise ServiceError({"colours": [
            _("Choose exactly two different colours (FM-3.3); you chose: %(colours)s.") % {"colours": chosen}]})
    return [c for c in ROLE_COLOURS if c in colours]


def engineer_picks_set(*, game: Game, user, picks: Any, clock: Clock = timezone.now) -> Seat:
    """FM-8 ``engineer``: when building his deck, he picks two of its cards that are guaranteed among his first 6.

    ``picks``: two card slugs of the deck list he has submitted (the same kind twice only if the list holds two
    copies). Only the engineer, only during the deck-building stage; changeable until its deadline. Stored in
    ``seat.data["engineer_picks"]``; the opening (FM-4.5) places one card of each among the top six of his shuffled
    deck. A pick his final deck no longer holds is ignored then. Logged for him (``fm.engineer_picks``).
    """
    with transaction.atomic():
        now = clock()
        phase = _open_phase_locked(
            game, kind=DECKBUILDING, number=None, now=now,
            closed_message=_("The engineer picks his cards during the deck-building stage before Night 1 (FM-8); "
                             "it is over."))
        seat = _own_seat_locked(game, user)
        if seat.data.get("public_role") != "engineer":
            raise ServiceError(_("Only the engineer picks guaranteed cards (FM-8)."), code="not_allowed")
        deck = Counter(e.get("kind") for e in seat.data.get("deck_list") or [] if isinstance(e, dict))
        if not deck:
            raise ServiceError({"picks": [_("Submit your deck first: the two cards are picked from it (FM-8).")]})
        if (not isinstance(picks, list | tuple) or len(picks) != ENGINEER_PICKS
                or not all(isinstance(p, str) and p for p in picks)):
            raise ServiceError({"picks": [_("Pick exactly two cards of your deck (FM-8).")]})
        wanted = Counter(picks)
        missing = sorted(slug for slug, n in wanted.items() if deck[slug] < n)
        if missing:
            raise ServiceError({"picks": [
                _("Your deck doesn't hold these picks: %(cards)s. Pick two cards of your submitted deck (a kind "
                  "twice only if it has two copies) (FM-8).") % {"cards": ", ".join(missing)}]})
        chosen = list(picks)
        data = {**seat.data, "engineer_picks": chosen}
        return _save(seat, data, phase=phase, kind="fm.engineer_picks", log={"cards": chosen}, now=now)


def lucky_redeal(*, game: Game, user, clock: Clock = timezone.now) -> Seat:
    """FM-8 ``lucky``: during Night 1, up to twice, he puts his Hand back into his deck, the deck is reshuffled and he
    draws the same number of cards again.

    Reproducible: the shuffle uses ``random.Random(f"{game.rng_seed}:lucky:{seat.pk}:{k}")`` with ``k`` 0 for the
    first redeal and 1 for the second. ``seat.data["lucky_redeals_left"]`` (2 from the opening) counts down; a third
    redeal, or one outside Night 1, is refused and changes nothing. Logged for him (``fm.lucky_redeal`` with the new
    Hand and the redeals left).
    """
    with transaction.atomic():
        now = clock()
        phase = _open_phase_locked(
            game, kind=NIGHT, number=1, now=now,
            closed_message=_("The lucky redeals his Hand only during Night 1 (FM-8)."))
        seat = _own_seat_locked(game, user)
        if seat.data.get("public_role") != "lucky":
            raise ServiceError(_("Only the lucky may redeal his Hand (FM-8)."), code="not_allowed")
        left = seat.data.get("lucky_redeals_left", 0)
        if not isinstance(left, int) or left <= 0:
            raise ServiceError(_("You have used both of your redeals (FM-8)."), code="not_allowed")
        containers = Containers.from_dict(seat.data.get("cards") or {})
        rng = random.Random(f"{game.rng_seed}:lucky:{seat.pk}:{LUCKY_REDEALS - left}")
        containers.redeal(rng, len(containers.hand))
        data = {**seat.data, "cards": containers.to_dict(), "lucky_redeals_left": left - 1}
        return _save(seat, data, phase=phase, kind="fm.lucky_redeal",
                     log={"hand": containers.hand_kinds(), "left": left - 1}, now=now)
