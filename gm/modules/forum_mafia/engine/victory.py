"""Forum Mafia victory, pure: the goals of FM-10.1–10.6, the avenger, each seat's result and the stalemate
(FM-10.H1: ``stalemate_phases`` phases in a row with no death and nothing left that can harm — :func:`harm_sources`
— end as a draw, counted in ``state["fm"]["quiet_phases"]``)."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cards.containers import Containers
from cards.domain import CardInstance, CardKind, Collection
from gm.core.engine import Event, Outcome, RuleError, RuleViolation, SeatInfo

from .roles import LAW, MAFIA, SECRET_ROLES
from .state import STALEMATE_PHASES, can_pay, fm_state, public_role, used


def _(s: str) -> str:
    return s



# ---------------------------------------------------------------------------------------------- stalemate

STALEMATE_RULE = "FM-10.H1"
#: The most a master may set (the playtest's phase cap is 60).
STALEMATE_MAX = 60


def stalemate_limit(state: Mapping[str, Any]) -> int:
    """FM-10.H1: the game's ``stalemate_phases`` option (0 = the rule is off), :data:`STALEMATE_PHASES` for a game
    whose state does not name it."""
    value = state.get("stalemate_phases", STALEMATE_PHASES)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else STALEMATE_PHASES


def harmful_card(card: CardKind | None, *, hero: bool = False) -> bool:
    """FM-10.H1: whether a card kind can deal damage (``damage``, delayed damage, the accusation's 4) or kill (the
    pickpocket takes a Hand card the target does not replace, so it can take a last one). For the hero (FM-3.3:
    "can never deal damage in any way") only a card that kills without damage counts."""
    return card is not None and harmful_effect(card.effect, hero=hero)


def harmful_effect(effect: Mapping[str, Any], *, hero: bool = False) -> bool:
    """:func:`harmful_card` on a card kind's ``effect`` mapping (as the collection API gives it)."""
    damages = bool(effect.get("damage") or effect.get("delayed_damage"))
    return bool(effect.get("steal")) or (damages and not hero)


def harm_sources(seats: Sequence[SeatInfo], alive: Mapping[int, bool], fm: Mapping[str, Any],
                 collection: Collection, containers: Mapping[int, Containers] | None = None,
                 first: bool = False) -> list[tuple[int, str]]:
    """FM-10.H1: what can still harm someone, as ``(seat id, what)`` in ring order (``seat id`` 0 for the table as
    a whole); empty means nothing can. ``what`` is a card slug, ``maniac`` (FM-3.3: his Sleeve discard deals 2
    damage and he may swap any Hand card into the Sleeve first), ``assassin`` (FM-8, unused), ``veche`` (three or
    more alive: the Veche can execute, FM-7.4), ``poison``/``stimulant`` (harm already under way).

    A living character can harm if a harmful card (:func:`harmful_card`) whose price he can pay is in his Hand,
    Sleeve or deck, or he has one of those abilities. A price can be paid when his Sleeve holds enough cards able to
    pay it (FM-5.7: not role cards; the cultist adds two from the Hand), or when he holds a card that fills the
    Sleeve (:func:`sleeve_filler`). The discard pile does not count (a rebuild, FM-4.7, takes a new deck from the
    collection, not the pile), nor does a rebuild he could make: the phases FM-10.H1 waits are his time to make
    it, and a rebuilt deck with a harmful card stops the count. Nor does a deck when the table is frozen
    (:func:`can_act` false for every living character): a card is drawn only after a play or a discard
    (FM-5.4), so nobody will ever draw it.

    ``containers``: seat id → the seat's cards now (default: read from the seat data); ``first``: stop at the
    first source found (the count needs no more)."""
    found: list[tuple[int, str]] = []
    living = [s for s in sorted(seats, key=lambda s: s.position) if alive.get(s.id)]
    if len(living) >= 3:
        found.append((0, "veche"))
    ids = {s.id for s in living}
    loaded: dict[int, Containers] = {}

    def cards_of(s: SeatInfo) -> Containers:  # read once, and only for the seats the walk reaches
        if s.id not in loaded:
            loaded[s.id] = (containers or {}).get(s.id) or Containers.from_dict(s.data.get("cards"))
        return loaded[s.id]

    frozen: bool | None = None  # worked out only if a deck is looked at
    if any(int(e.get("target", 0)) in ids for e in fm.get("poison") or []):
        found.append((0, "poison"))
    if any(int(e.get("seat", 0)) in ids for e in fm.get("stimulant") or []):
        found.append((0, "stimulant"))
    for seat in living:
        if first and found:
            break
        role = seat.data.get("secret_role", "")
        if role == "maniac":
            found.append((seat.id, "maniac"))
            continue
        if seat.data.get("public_role") == "assassin" and "assassin" not in used(fm, seat.id):
            found.append((seat.id, "assassin"))
            continue
        c = cards_of(seat)
        if c.deck and frozen is None:
            frozen = not any(can_act(s, cards_of(s), collection, len(living)) for s in living)
        held = (*c.hand, *c.sleeve, *(() if frozen else c.deck))
        # FM-5.7: a card whose price can never be paid can never be played. The Sleeve only grows through cards
        # that fill it (stash, reserve, a returning unlimited_plan); the cultist pays up to two from the Hand.
        fills = any(sleeve_filler(collection.kinds.get(i.kind)) for i in held)
        for inst in held:
            card = collection.kinds.get(inst.kind)
            if card is None or not harmful_card(card, hero=role == "hero"):
                continue
            if fills or _payable(seat, c, inst, card, collection):
                found.append((seat.id, inst.kind))
                break
    return found[:1] if first else found


def can_act(seat: SeatInfo, c: Containers, collection: Collection, living: int) -> bool:
    """FM-10.H1: whether a living character may still make a move that draws him a card or gives one to someone
    (``c``: his cards now; ``living``: characters alive). He may when he is a ``monk`` (FM-8: he draws with one or
    two Hand cards), holds two Hand cards (FM-5.3's discard at night), or holds a Hand or Sleeve card whose price
    his Sleeve (or, for the cultist, his Hand) can pay (FM-5.7) and that has what it needs: ``stash`` another Hand
    card to move, a two-target card two others alive. Generous on purpose (a card's own timing and target rules
    are not checked): a false "may act" only delays a stalemate, a false "may not" would end a game early."""
    if public_role(seat) == "monk" or len(c.hand) >= 2:
        return True
    for inst in (*c.hand, *c.sleeve):
        card = collection.kinds.get(inst.kind)
        if card is None:
            continue
        if card.target == "two" and living < 3:
            continue
        if card.effect.get("move") and card.effect.get("from") == "hand" and len(c.hand) < 2:
            continue
        if _payable(seat, c, inst, card, collection):
            return True
    return False


def _payable(seat: SeatInfo, c: Containers, inst: CardInstance, card: CardKind, collection: Collection) -> bool:
    """FM-5.7: whether the character's Sleeve (``c``: his cards now) holds enough other cards able to pay ``card``'s
    price for the instance ``inst``; the cultist (FM-8) pays up to two more from the Hand."""
    payers = sum(1 for i in c.sleeve if i.uid != inst.uid and can_pay(i, collection))
    return card.price <= payers + (2 if public_role(seat) == "cultist" else 0)


def sleeve_filler(card: CardKind | None) -> bool:
    """FM-10.H1: whether playing a card kind puts cards into its player's Sleeve, where they can pay a price
    (FM-5.7): a move to the Sleeve (``stash`` from the Hand, ``reserve`` from the deck) or a card that returns
    there itself (``unlimited_plan``)."""
    if card is None:
        return False
    return card.effect.get("to") == "sleeve" or bool(card.effect.get("returns_to_sleeve"))


def stalemate_count(state: Mapping[str, Any]) -> int:
    """FM-10.H1: how many quiet phases in a row have passed so far (0 after a phase that was not quiet)."""
    return int((state.get("fm") or {}).get("quiet_phases", 0))


def stalemate_reset(state: Mapping[str, Any]) -> tuple[dict, list[Event]]:
    """FM-10.H1: the master extends the game — the quiet count starts again from 0. Returns the new state and the
    master's log line (players are not told: the count says what nobody holds). Raises :class:`RuleViolation` when
    there is nothing to reset (no quiet phase counted, or the rule is off)."""
    count, limit = stalemate_count(state), stalemate_limit(state)
    if not count or not limit:
        raise RuleViolation([RuleError(_("There is no stalemate count to reset: no quiet phase has passed."),
                                       field="stalemate", rule=STALEMATE_RULE)])
    fm = fm_state(state)
    fm["quiet_phases"] = 0
    return {**state, "fm": fm}, [Event("fm.stalemate_reset", {"count": count, "limit": limit}, visibility="master")]


def seat_result(outcome: Outcome | Mapping[str, Any], seat_id: int) -> str:
    """A seat's result at the end of the game: ``won`` (FM-6.2: the dead win with their side), ``lost``, or
    ``draw`` for every seat when the game is drawn (FM-10.H1). ``outcome``: the engine's, or ``Game.outcome``'s
    dict (``{"winners", "winning_seats", "draw"?}``)."""
    if isinstance(outcome, Outcome):
        draw, winning = outcome.draw, outcome.winning_seats
    else:
        draw, winning = bool(outcome.get("draw")), outcome.get("winning_seats") or ()
    if draw:
        return "draw"
    return "won" if seat_id in winning else "lost"


def check_victory(seats: Sequence[SeatInfo], alive: Mapping[int, bool], fm: Mapping[str, Any],
                  rng: random.Random | None = None) -> tuple[str | None, Outcome | None]:
    """FM-10.1–10.5 for the living characters (``alive``: seat id → bool; a character who left the game through
    his ability counts as gone). Returns ``(winner, outcome)``: ``winner`` is ``law``, ``mafia``, ``maniac``,
    ``none`` or ``None`` (the game goes on). The outcome's winners start with that faction, then ``hero`` (FM-3.3:
    with Law if alive or with a goal met, or on his own after both goals) and ``joker`` (a right mapping);
    ``winning_seats`` are every winner's seats, the dead included (FM-6.2: the dead still win).

    FM-8/FM-10.4 ``avenger``: when every character but the avengers is dead, the winner is ``avenger`` with the
    team of his secret role (``law``/``mafia``/``maniac``/``joker``/``hero``'s Law); with several avengers the one
    who died last (a living one is "last"), a tie decided by ``rng`` (dice), or the first in ring order without
    one **[house]**."""
    roles = {s.id: s.data.get("secret_role", "") for s in seats}
    left = dict(fm.get("left") or {})
    goals = dict(fm.get("hero_goals") or {})
    living = [s for s in seats if alive.get(s.id)]

    def faction(s: SeatInfo) -> str:
        role = roles[s.id]
        return SECRET_ROLES[role].faction if role in SECRET_ROLES else ""

    avengers = [s for s in seats if s.data.get("public_role") == "avenger"]
    if avengers and not [s for s in living if s not in avengers] and len(avengers) < len(seats):
        return _avenger_victory(seats, avengers, alive, fm, rng, faction, roles)
    law = [s for s in living if faction(s) == LAW]
    mafia = [s for s in living if faction(s) == MAFIA or roles[s.id] == "traitor"]
    maniac = [s for s in living if roles[s.id] == "maniac"]
    winner = None
    if not living:
        winner = "none"
    elif not mafia and not maniac and law:
        winner = "law"
    elif not law and not maniac and mafia:
        winner = "mafia"
    elif maniac and len(living) == 1:
        winner = "maniac"
    elif not law and not mafia and not maniac:
        winner = "none"  # [house] only characters who can't win on their own are left
    if winner is None:
        return None, None
    if winner == "law":
        won = [s.id for s in seats if faction(s) == LAW]
    elif winner == "mafia":
        won = [s.id for s in seats if faction(s) == MAFIA or roles[s.id] == "traitor"]
    elif winner == "maniac":
        won = [s.id for s in seats if roles[s.id] == "maniac"]
    else:
        won = []
    winners = [winner] if winner != "none" else []
    for s in seats:
        if roles[s.id] == "hero" and (left.get(str(s.id)) == "won" or (
                winner == "law" and (alive.get(s.id) or goals.get(str(s.id))))):
            winners.append("hero")
            won.append(s.id)
        if roles[s.id] == "joker" and left.get(str(s.id)) == "won":
            winners.append("joker")
            won.append(s.id)
    return winner, Outcome(list(dict.fromkeys(winners)), won)


def _avenger_victory(seats, avengers, alive, fm, rng, faction, roles) -> tuple[str, Outcome]:
    died = {int(seat_id): int(ordinal) for ordinal, seat_id in fm.get("death_order") or []}
    last = max(10**9 if alive.get(a.id) else died.get(a.id, -1) for a in avengers)
    tied = [a for a in sorted(avengers, key=lambda a: a.position)
            if (10**9 if alive.get(a.id) else died.get(a.id, -1)) == last]
    chosen = rng.choice(tied) if rng is not None and len(tied) > 1 else tied[0]
    role = roles[chosen.id]
    team = {"maniac": "maniac", "joker": "joker", "traitor": "mafia", "hero": "law"}.get(role, faction(chosen))
    if team == "law":
        won = [s.id for s in seats if faction(s) == LAW or roles[s.id] == "hero"]
    elif team == "mafia":
        won = [s.id for s in seats if faction(s) == MAFIA or roles[s.id] == "traitor"]
    else:
        won = [s.id for s in seats if roles[s.id] == role]
    if chosen.id not in won:
        won.append(chosen.id)
    return "avenger", Outcome(["avenger", team], won)
