"""Forum Mafia write services of the abilities used at once, outside orders: the instant abilities (FM-3.3 the
maniac's Hand↔Sleeve swap and the joker's mapping guess, FM-8 the looter's copies and the geek's card) and the rebuild
of an exhausted deck (FM-4.7, FM-4.8). Phase abilities are not here: they are part of an order (``payload
["abilities"]``, through ``gm.core.services.order_submit``) and resolve with the phase.

Each service is keyword-only and atomic, locks the open phase row first (through
:func:`gm.core.services.phase_accepting_for_update`, which locks the game row with it) and then every seat row of the
game in ring order (the order ``phase_resolve`` takes them in, so nothing deadlocks and no Hand reorder is lost),
checks everything before it changes anything, and applies the pure engine (:mod:`.abilities`). A refusal is a
:class:`~gm.core.services.ServiceError` with field errors (the engine's reason with its rule ID, card and role names in
the reader's language), ``details`` (every problem as ``{"rule", "code", "field", "params", "message"}``) and a
``code``: ``forbidden`` (no seat), ``not_allowed`` (not his ability, spent, dead or left), ``state`` (not a running
night or day, or a deck that is not empty), ``late`` (past the deadline), ``invalid`` (bad input). Nothing changes
then.

Reproducible: the engine's RNG is ``random.Random(f"{phase.rng_seed}:instant:{n}")`` with ``n`` the game's count of
instant actions so far (``state["fm"]["instant_seq"]``, bumped by each accepted one).

An accepted use bumps the ``version`` of every seat it changes (an open Hand-reorder form from before is refused as
a conflict), writes the engine's events as log entries of the open phase (the player's result for his seat only, the
master's trace ``fm.t_*``, public ones such as the joker leaving) and then checks victory at once (FM-10.6): if the
game is won, it is finished as a resolution finishes it (:func:`gm.core.services.game_finish`) and the open phase is
closed.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from cards import deckrules
from cards.containers import Containers
from cards.services import card_namer, collection_for_game, deck_check, deck_error_details, render_deck_errors
from gm.core import services as core
from gm.core.engine import Event, PhaseInfo
from gm.core.models import Game, LogEntry, Phase, Seat
from gm.core.services import Clock, ServiceError

from ..engine import abilities
from ..engine.orders import REASONS
from ..engine.state import DAY, NIGHT, game_collection
from ..engine.victory import check_victory
from ..texts import ability_name

MODULE = "forum_mafia"
#: The engine's refusals that mean "not yours, or no longer" (403) rather than bad input (400).
NOT_ALLOWED = ("not_your_ability", "ability_spent", "ability_left")


@dataclass
class AbilityResult:
    """What an accepted instant ability or rebuild did: the player's ``seat`` (fresh from the database), the log
    ``entries`` written, and ``finished`` if the game ended right after it (FM-10.6)."""

    seat: Seat
    entries: list[LogEntry] = field(default_factory=list)
    finished: bool = False


def role_name(slug: str) -> str:
    """A role ability's name (its secret or public role) in the active language."""

    return ability_name(slug) if isinstance(slug, str) else str(slug)


def problem_message(code: str, params: Mapping[str, Any], name: Callable[[str], str]) -> str:
    """The engine's reason ``code`` (:data:`..engine.orders.REASONS`) as a sentence in the active language with its rule
    ID: card slugs (``card``) as card names, role slugs (``ability``, ``role``) as role names."""
    rule, text = REASONS.get(code, ("", code))
    shown = dict(params)
    for key, value in params.items():
        if key == "card" and isinstance(value, str):
            shown[key] = name(value)
        elif key in ("ability", "role", "guess") and isinstance(value, str):
            shown[key] = role_name(value)
    try:
        message = _(text) % shown
    except (KeyError, TypeError, ValueError):
        message = _(text)
    return f"{message} ({rule})" if rule else message


def _refusal(problems: Sequence[tuple[str, str, dict]], name: Callable[[str], str]) -> ServiceError:
    errors: dict[str, list[str]] = {}
    details = []
    for code, fld, params in problems:
        message = problem_message(code, params, name)
        errors.setdefault(fld or "__all__", []).append(message)
        details.append({"rule": REASONS.get(code, ("",))[0], "code": code, "field": fld,
                        "params": dict(params), "message": message})
    codes = {p[0] for p in problems}
    code = "state" if "no_instant_now" in codes else "not_allowed" if codes & set(NOT_ALLOWED) else "invalid"
    return ServiceError(errors, code=code, details=details)


def _locked(game: Game, user, now, phase_id: int | None = None) -> tuple[Phase, Game, list[Seat], Seat]:
    """Lock the open night or day of ``game`` (phase and game rows), then every seat in ring order; return the phase,
    the fresh game, the seats and ``user``'s own living seat. ``phase_id``: the phase the request was made for
    (``stale`` when it has ended, the core's check)."""
    if game.module != MODULE:
        raise ServiceError(_("This is not a forum Mafia game."), code="not_allowed")
    if not user or not user.is_authenticated:
        raise ServiceError(_("Log in first."), code="forbidden")
    closed = _("Abilities are used and decks rebuilt during a night or a day (FM-4.7, FM-8); none is open now.")
    phase = core.phase_accepting_for_update(game=game, now=now, wrong_stage=closed, phase_id=phase_id)
    game = phase.game
    if game.status != Game.Status.RUNNING or phase.kind not in (NIGHT, DAY):
        raise ServiceError(closed, code="state")
    seats = list(Seat.objects.select_for_update().filter(game=game).order_by("position"))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    if abilities.has_left(game.state.get("fm") or {}, seat.pk):
        raise ServiceError(_("You have left the game (FM-3.3)."), code="not_allowed")
    if not seat.alive:
        raise ServiceError(_("The dead take no part in the game (FM-6.2)."), code="not_allowed")
    return phase, game, seats, seat


def _rng(game: Game, phase: Phase) -> tuple[random.Random, int]:
    n = int((game.state.get("fm") or {}).get("instant_seq", 0))
    return random.Random(f"{phase.rng_seed}:instant:{n}"), n


def _phase_info(phase: Phase) -> PhaseInfo:
    return PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)


def _write(*, game: Game, phase: Phase, seats: list[Seat], seat: Seat, result: abilities.InstantResult, seq: int,
           now, victory: bool) -> AbilityResult:
    """Write an accepted :class:`.abilities.InstantResult`: changed seats (version bumped), the new state with the
    bumped instant counter, the events as log entries; with ``victory``, check FM-10 at once and finish a won game."""
    by_id = {s.pk: s for s in seats}
    changed: dict[int, Seat] = {}
    for seat_id, data in result.seat_data.items():
        by_id[seat_id].data = data
        changed[seat_id] = by_id[seat_id]
    for seat_id, alive in result.alive.items():
        by_id[seat_id].alive = alive
        changed[seat_id] = by_id[seat_id]
    if changed:
        for s in changed.values():
            s.version = F("version") + 1
        Seat.objects.bulk_update(list(changed.values()), ["data", "alive", "version"])
    state = dict(result.state)
    state["fm"] = {**(state.get("fm") or {}), "instant_seq": seq + 1}
    game.state = state
    events = list(result.events)
    outcome = None
    if victory:
        infos = [core.seat_info(s) for s in seats]
        alive = {s.pk: s.alive for s in seats}
        winner, outcome = check_victory(infos, alive, state["fm"])
        if result.alive or outcome is not None:
            events.append(Event("fm.t_victory_check", {"layer": "instant", "step": "victory_check", "winner": winner,
                                                       "alive": [s.display_name for s in seats if s.alive]},
                                visibility="master"))
        if outcome is not None:
            events.append(Event("fm.victory", {"winner": winner, "players": [
                by_id[sid].display_name for sid in outcome.winning_seats if sid in by_id]}))
    entries = [core.log_entry(game, phase, e, now) for e in events]
    if outcome is not None:
        entries.append(core.game_finish(game=game, outcome=outcome, phase=phase, now=now))
    LogEntry.objects.bulk_create(entries)
    game.save(update_fields=["state", "status", "finished_at", "outcome"])
    if outcome is not None:
        from gm.core.tasks import phase_notify_task

        phase_notify_task.delay_on_commit(phase.pk)
    seat.refresh_from_db()
    return AbilityResult(seat=seat, entries=entries, finished=outcome is not None)


def ability_use(*, game: Game, user, payload: Any, phase_id: int | None, clock: Clock = timezone.now) -> AbilityResult:
    """Use an instant ability now, outside orders (FM-3.3, FM-8), during an open night or day.

    ``phase_id`` is the phase the form or API body was made for: once that phase has ended the use is refused
    (``stale``, naming it and the phase open now) and nothing changes. ``None`` only for trusted callers that act in
    whatever phase is open (none does today; the scenario runner passes the phase it plays).

    ``payload`` (the engine's shape, :func:`.abilities.apply_instant`): the maniac's swap ``{"ability": "maniac",
    "mode": "swap", "hand_card": uid|slug, "sleeve_card": uid|slug}`` (any number of times; the cards change
    places); the joker's guess ``{"ability": "joker", "mode": "guess", "mapping": {seat id: secret role slug}}``
    naming every other player (right: he wins and leaves the game, which goes on; any wrong: he leaves and loses,
    and every ``ace`` in the game vanishes); the looter ``{"ability": "looter", "target": dead seat id}`` (once per
    game: copies of every card of that Sleeve into his, as role cards that pay no price); the geek ``{"ability":
    "geek", "card": slug}`` (once per game: that collection card into his Sleeve).

    Afterwards victory is checked at once (FM-10.6); a won game is finished and its open phase closed. Raises
    :class:`ServiceError` (see the module docstring) and changes nothing when the engine refuses.
    """
    if not isinstance(payload, Mapping):
        raise ServiceError({"payload": [_("An ability is given as a JSON object.")]})
    with transaction.atomic():
        now = clock()
        phase, game, seats, seat = _locked(game, user, now, phase_id)
        collection = game_collection(game.state)
        rng, seq = _rng(game, phase)
        result = abilities.apply_instant(state=game.state, phase=_phase_info(phase), seat=core.seat_info(seat),
                                         seats=[core.seat_info(s) for s in seats], payload=payload,
                                         collection=collection, rng=rng)
        if result.problems:
            raise _refusal(result.problems, card_namer(collection_for_game(game)))
        return _write(game=game, phase=phase, seats=seats, seat=seat, result=result, seq=seq, now=now, victory=True)


def deck_rebuild(*, game: Game, user, deck: Any, clock: Clock = timezone.now) -> AbilityResult:
    """FM-4.7: rebuild an exhausted deck from the collection during an open night or day (until then every draw
    gives a ``mulligan``); FM-4.8 recharges the abilities that say so.

    Refused (``state``) while the deck still holds cards. ``deck`` is a deck list as for deck building (card slugs,
    or ``{"kind": slug, "count_as": "non_free"}``), checked by the FM-4.3 rules of this seat's roles: every broken
    rule at once (``errors["deck"]`` sentences, ``details`` structured). The new deck is shuffled with the instant
    RNG; then the engine (:func:`.abilities.apply_rebuild`) recharges the Mafia message (FM-3.1), makes the bottom
    two cards free after the ``magician``'s first rebuild and draws one card of it into the ``banker``'s Sleeve
    (FM-8). The seat's ``deck_list`` becomes the new list. Logged for the player (``fm.rebuilt``) and the master.
    """
    with transaction.atomic():
        now = clock()
        phase, game, seats, seat = _locked(game, user, now)
        left = len(Containers.from_dict(seat.data.get("cards")).deck)
        if left:
            code, _field, params = "deck_not_empty", "deck", {"count": left}
            raise ServiceError({"deck": [problem_message(code, params, str)]}, code="state", details=[
                {"rule": "FM-4.7", "code": code, "field": "deck", "params": params,
                 "message": problem_message(code, params, str)}])
        errors = deck_check(game=game, seat=seat, entries=deck)
        if errors:
            collection = collection_for_game(game)
            raise ServiceError({"deck": render_deck_errors(errors, collection)},
                               details=deck_error_details(errors, collection))
        entries = deckrules.normalise_deck(deck)
        rng, seq = _rng(game, phase)
        result = abilities.apply_rebuild(state=game.state, seat=core.seat_info(seat),
                                         deck_list=[e["kind"] for e in entries],
                                         collection=game_collection(game.state), rng=rng)
        if result.problems:  # pragma: no cover - the deck was found empty above, under the lock
            raise _refusal(result.problems, card_namer(collection_for_game(game)))
        result.seat_data[seat.pk] = {**result.seat_data[seat.pk], "deck_list": entries}
        return _write(game=game, phase=phase, seats=seats, seat=seat, result=result, seq=seq, now=now,
                      victory=False)
