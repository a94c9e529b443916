"""Forum Mafia orders, pure: intake, legality and price of a night or day order (FM-5.2–FM-5.7, FM-9.4).

The core calls :func:`validate_order` when a player submits (or changes) an order and :func:`order_options` to
show him what he may do now. Order payload (one per seat and phase; every key optional; ``{}`` is a valid "I do
nothing")::

    {"plays": [{"card": slug, "from": "hand"|"sleeve", "uid": int,           # uid: the exact instance (optional)
                "target": seat_id, "targets": [seat_id, seat_id],          # targets: redirect
                "named_card": slug, "text": str,                           # accusation; letter, unlimited_plan
                "cards": [uid|slug, ...],                                  # stash: up to 2 Hand cards
                "pay": [uid|slug, ...], "pay_hand": [uid|slug, ...]}],     # FM-5.7 price cards; cultist (FM-8)
     "discard": [uid|slug, uid|slug]}                                      # FM-5.3, night only
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cards.containers import Containers
from cards.domain import CardInstance, CardKind, Collection
from gm.core.engine import PhaseInfo, RuleError, RuleViolation, SeatInfo

from . import abilities, rooms, veche
from .state import (
    CULTIST_HAND_PAY,
    DAY,
    MAX_TEXT,
    NIGHT,
    TARGETED,
    can_pay,
    find_link,
    game_collection,
    public_role,
    untargetable,
)


def _(s: str) -> str:
    return s


_PLAY_KEYS = frozenset({"card", "from", "uid", "target", "targets", "named_card", "text", "cards", "pay", "pay_hand"})

#: Why a play is refused at submission or voided at L0/L1: code → (rule ID, translatable text). The text takes the
#: event's/error's params (``card``, ``price``…).
REASONS: dict[str, tuple[str, str]] = {
    "bad_payload": ("FM-5.2", _("This order is not in the expected form: %(detail)s.")),
    "unknown_card": ("FM-4.2", _("There is no card “%(card)s” in this game.")),
    "not_in_hand": ("FM-5.2", _("You hold no “%(card)s” in your Hand.")),
    "not_in_sleeve": ("FM-5.2", _("You hold no “%(card)s” in your Sleeve.")),
    "sleeve_only": ("FM-5.2", _("“%(card)s” can only be played from the Sleeve.")),
    "wrong_timing_night": ("FM-5.2", _("“%(card)s” can only be played at night.")),
    "wrong_timing_day": ("FM-5.2", _("“%(card)s” can only be played by day.")),
    "hand_slot_used": ("FM-5.2", _("You may play only one card from the Hand per phase (free cards excepted).")),
    "sleeve_slot_used": ("FM-5.2", _("You may play only one card from the Sleeve per phase (free cards excepted).")),
    "discard_instead": ("FM-5.3", _("Discarding two cards replaces both plays: free cards only next to it.")),
    "discard_by_day": ("FM-5.3", _("Discarding two cards instead of playing is only allowed at night.")),
    "discard_two": ("FM-5.3", _("Name exactly two different cards of your Hand to discard.")),
    "discard_played": ("FM-5.3", _("A card you play cannot also be discarded.")),
    "needs_target": ("FM-5.5", _("“%(card)s” needs a target.")),
    "needs_two_targets": ("FM-5.5", _("“%(card)s” needs two different targets.")),
    "no_target": ("FM-5.5", _("“%(card)s” takes no target.")),
    "unknown_target": ("FM-5.5", _("There is no such character in this game.")),
    "self_target": ("FM-5.5", _("You cannot target yourself with “%(card)s”.")),
    "dead_target": ("FM-5.5", _("%(target)s is dead: only living characters can be targeted.")),
    "living_target": ("FM-5.5", _("“%(card)s” targets a dead character; %(target)s is alive.")),
    "untargetable": ("FM-7.6", _("%(target)s (sociopath) cannot be targeted during Night 1 and Day 1.")),
    "jailed": ("FM-7.5", _("You are in jail: no targeted cards for %(left)s more phases.")),
    "handcuffed": ("FM-6", _("You are handcuffed: no targeted cards this night.")),
    "needs_named_card": ("FM-5.5", _("Name the card kind you accuse the target of playing.")),
    "needs_text": ("FM-9.4", _("Write the message text.")),
    "text_too_long": ("FM-9.4", _("The message is longer than %(max)s characters.")),
    "text_link": ("FM-9.4", _("Messages may not contain links or references (found “%(found)s”): remove it.")),
    "stash_cards": ("FM-5.2", _("Name one or two other cards of your Hand to move to the Sleeve.")),
    "price_unpaid": ("FM-5.7",
                     _("“%(card)s” costs %(price)s and your Sleeve has only %(have)s cards that can pay it.")),
    "bad_pay": ("FM-5.7", _("Name exactly %(price)s Sleeve cards that can pay the price of “%(card)s”.")),
    "bad_pay_hand": ("FM-8", _("Only the cultist pays with Hand cards, at most two per phase.")),
    "too_many_plays": ("FM-5.2", _("Too many plays in one order.")),
}
REASONS.update(abilities.REASONS)
REASONS.update(veche.REASONS)
REASONS.update(rooms.REASONS)


# ---------------------------------------------------------------------------------------------- order checking


@dataclass
class Play:
    """One card play of an order, as checked: ``seat`` plays instance ``uid`` of ``kind`` from ``source``.

    ``target``/``targets`` are as ordered; ``final_target`` after ``redirect`` (L3); ``void`` the reason code if
    the play was refused at L0/L1; ``cancelled`` true after an ``arrest`` (L2) — a cancelled play still used its
    slot and its replacement draw (FM-6 L2)."""

    seat: int
    index: int
    kind: str
    source: str
    uid: int
    card: CardKind
    free: bool
    provenance: str = "deck"
    target: int | None = None
    targets: list[int] = field(default_factory=list)
    named_card: str = ""
    text: str = ""
    cards: list[int] = field(default_factory=list)
    pay: list[int] | None = None
    pay_hand: list[int] = field(default_factory=list)
    void: str = ""
    void_params: dict = field(default_factory=dict)
    cancelled: bool = False
    final_target: int | None = None

    def __post_init__(self) -> None:
        # Read in every layer for every play: a plain attribute, not a property.
        self.effect: Mapping[str, Any] = self.card.effect

    @property
    def live(self) -> bool:
        """Takes effect: not voided, not cancelled."""
        return not self.void and not self.cancelled

    @property
    def targeted(self) -> bool:
        return self.card.target in TARGETED


@dataclass
class Problem:
    """A refused play or order part: ``index`` of the play (``None``: the order as a whole), ``field`` of the
    payload, reason ``code`` (key of :data:`REASONS`) and its ``params``."""

    index: int | None
    field: str
    code: str
    params: dict = dataclasses.field(default_factory=dict)  # qualified: the ``field`` attribute shadows the name
    group: str = "plays"  # or "abilities": which list ``index`` points into

    def rule_error(self) -> RuleError:
        rule, message = REASONS[self.code]
        name = f"{self.group}.{self.index}.{self.field}" if self.index is not None else self.field
        return RuleError(message, field=name.rstrip("."), rule=rule, params=self.params)


@dataclass
class CheckedOrder:
    """An order after :func:`check_order`: the legal ``plays`` (uids resolved), the voided ones in ``voided``,
    ``discard`` uids (FM-5.3) and every ``problems`` found."""

    plays: list[Play] = field(default_factory=list)
    voided: list[Play] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    abilities: list[abilities.AbilityUse] = field(default_factory=list)
    vote: dict | None = None  # FM-7: the Veche vote, normalised
    rooms: list[dict] = field(default_factory=list)  # FM-9.3: chat-room proposals


def _as_list(value: Any) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError("a list is expected")
    return value


def _pick(containers: Containers, source: str, ref: Any, used: set[int]) -> CardInstance | None:
    """The instance of ``source`` named by ``ref`` (a uid, or a slug: its first unused instance in order)."""
    items = containers.hand if source == "hand" else containers.sleeve
    if isinstance(ref, int) and not isinstance(ref, bool):
        return next((i for i in items if i.uid == ref and i.uid not in used), None)
    return next((i for i in items if i.kind == ref and i.uid not in used), None)


def _is_free(inst: CardInstance, card: CardKind, seat: SeatInfo) -> bool:
    """FM-4.4 free; FM-8 ``spendthrift``: his cards with price ≥ 2 are free too."""
    return inst.free or card.free or (public_role(seat) == "spendthrift" and card.price >= 2
                                      and inst.provenance == "deck")


class _Checker:
    """Checks one seat's order against the current state (submission and L0 share it)."""

    def __init__(self, *, state: Mapping[str, Any], phase: PhaseInfo, seat: SeatInfo,
                 seats: Sequence[SeatInfo], collection: Collection, containers: Containers):
        self.state, self.phase, self.seat, self.collection, self.c = state, phase, seat, collection, containers
        self.by_id = {s.id: s for s in seats}
        fm = state.get("fm") or {}
        self.jail_left = int(fm.get("jail", {}).get(str(seat.id), 0))
        self.handcuffed = phase.kind == NIGHT and int(fm.get("handcuffs", {}).get(str(seat.id), 0)) == phase.number
        self.reserved: set[int] = set()  # Sleeve cards this order plays: not taken as a default price (FM-5.7)

    def target_problem(self, card: CardKind, target: Any, *, dead_ok: bool = False) -> tuple[str, dict] | None:
        other = self.by_id.get(target) if isinstance(target, int) and not isinstance(target, bool) else None
        name = {"card": card.slug}
        if other is None:
            return "unknown_target", name
        name["target"] = other.name
        if card.target == "dead":
            return None if not other.alive else ("living_target", name)
        if other.id == self.seat.id:
            return "self_target", name
        if not other.alive and not dead_ok:
            return "dead_target", name
        if untargetable(other, self.phase):
            return "untargetable", name
        return None

    def check(self, payload: Mapping[str, Any]) -> CheckedOrder:
        out = CheckedOrder()
        if not isinstance(payload, Mapping):
            out.problems.append(Problem(None, "", "bad_payload", {"detail": "not an object"}))
            return out
        unknown = sorted(set(payload) - {"plays", "discard", "abilities", "vote", "rooms"})
        if unknown:
            out.problems.append(Problem(None, unknown[0], "bad_payload", {"detail": "unknown key " + unknown[0]}))
            return out
        try:
            raw_plays = _as_list(payload.get("plays"))
            raw_discard = _as_list(payload.get("discard"))
            for raw in raw_plays:
                if isinstance(raw, Mapping) and raw.get("from") == "sleeve" and isinstance(raw.get("card"), str):
                    inst = _pick(self.c, "sleeve", raw.get("uid", raw["card"]), self.reserved)
                    if inst is None or inst.kind != raw["card"]:
                        inst = _pick(self.c, "sleeve", raw["card"], self.reserved)
                    if inst is not None:
                        self.reserved.add(inst.uid)
        except ValueError:
            out.problems.append(Problem(None, "plays", "bad_payload", {"detail": "plays and discard are lists"}))
            return out
        if len(raw_plays) > 12:
            out.problems.append(Problem(None, "plays", "too_many_plays"))
            return out
        used: set[int] = set()
        slots = {"hand": False, "sleeve": False}
        cultist_paid = 0
        for index, raw in enumerate(raw_plays):
            play, problem = self._play(index, raw, used)
            if play is None:
                assert problem is not None  # _play returns a problem whenever it returns no play
                out.problems.append(problem)
                continue
            used.add(play.uid)
            if problem is None and not play.free:
                if slots[play.source]:
                    problem = Problem(index, "card", f"{play.source}_slot_used")
                elif raw_discard:
                    problem = Problem(index, "card", "discard_instead")
                else:
                    slots[play.source] = True
            if problem is None:
                problem = self._price(play, used, cultist_paid)
                if problem is None:
                    cultist_paid += len(play.pay_hand)
            if problem is not None:
                play.void, play.void_params = problem.code, problem.params
                out.voided.append(play)
                out.problems.append(problem)
                used.discard(play.uid)
                continue
            used.update(play.pay or [])
            used.update(play.pay_hand)
            used.update(play.cards)
            out.plays.append(play)
        if raw_discard:
            problem = self._discard(raw_discard, used, out)
            if problem:
                out.problems.append(problem)
            used.update(out.discard)
        if payload.get("vote") is not None:
            vote, vote_problem = veche.check_vote(payload["vote"], phase=self.phase, seat=self.seat,
                                                  by_id=self.by_id, fm=self.state.get("fm") or {})
            if vote_problem:
                out.problems.append(Problem(None, vote_problem[1], vote_problem[0], vote_problem[2]))
            out.vote = vote
        if payload.get("rooms"):
            proposals, rooms_problem = rooms.check_rooms(payload["rooms"], phase=self.phase, seat=self.seat,
                                                         by_id=self.by_id, fm=self.state.get("fm") or {})
            if rooms_problem:
                out.problems.append(Problem(None, rooms_problem[1], rooms_problem[0], rooms_problem[2]))
            out.rooms = proposals
        if payload.get("abilities") is not None:
            sleeve_played = any(p.source == "sleeve" for p in out.plays)
            uses, problems = abilities.check_phase_abilities(self, payload.get("abilities"), used, sleeve_played,
                                                             out.plays)
            out.abilities = uses
            out.problems += [Problem(p.index, p.field, p.code, p.params, group="abilities") for p in problems]
        return out

    def hand_of(self, seat_id: int) -> list:
        """The Hand of another seat now (the assassin's "exactly 1 Hand card", FM-8)."""
        seat = self.by_id[seat_id]
        if seat_id == self.seat.id:
            return self.c.hand
        return list((seat.data.get("cards") or {}).get("hand") or [])

    def text_problem(self, text: str) -> tuple[str, dict] | None:
        """FM-9.4: a message needs text, at most :data:`MAX_TEXT` characters and no link of any kind."""
        text = (text or "").strip()
        if not text:
            return "needs_text", {}
        if len(text) > MAX_TEXT:
            return "text_too_long", {"max": MAX_TEXT}
        link = find_link(text)
        if link:
            return "text_link", {"found": link}
        return None

    def _play(self, index: int, raw: Any, used: set[int]) -> tuple[Play | None, Problem | None]:
        def bad(detail: str, fld: str = "") -> tuple[None, Problem]:
            return None, Problem(index, fld, "bad_payload", {"detail": detail})

        if not isinstance(raw, Mapping):
            return bad("each play is an object")
        if not _PLAY_KEYS.issuperset(raw):
            extra = sorted(set(raw) - _PLAY_KEYS)
            return bad("unknown key " + extra[0], extra[0])
        slug, source = raw.get("card"), raw.get("from", "hand")
        if not isinstance(slug, str) or slug not in self.collection:
            return None, Problem(index, "card", "unknown_card", {"card": str(slug)})
        if source not in ("hand", "sleeve"):
            return bad("“from” is hand or sleeve", "from")
        card = self.collection[slug]
        ref = raw.get("uid", slug)
        inst = _pick(self.c, source, ref, used)
        if inst is None or inst.kind != slug:
            inst = _pick(self.c, source, slug, used)
        if inst is None:
            return None, Problem(index, "card", f"not_in_{source}", {"card": slug})
        play = Play(seat=self.seat.id, index=index, kind=slug, source=source, uid=inst.uid, card=card,
                    free=_is_free(inst, card, self.seat), provenance=inst.provenance)
        try:
            play.target = raw.get("target")
            play.targets = list(_as_list(raw.get("targets")))
            play.named_card = raw.get("named_card") or ""
            play.text = raw.get("text") or ""
            taken = used | {inst.uid}
            try:
                play.cards = self._refs(_as_list(raw.get("cards")), "hand", taken)
            except LookupError:  # not a price problem: the cards to move (stash) are not in the Hand
                return play, Problem(index, "cards", "stash_cards", {"card": slug})
            play.pay = None if raw.get("pay") is None else self._refs(_as_list(raw.get("pay")), "sleeve", taken)
            play.pay_hand = self._refs(_as_list(raw.get("pay_hand")), "hand", taken)
        except ValueError as exc:
            return None, Problem(index, "", "bad_payload", {"detail": str(exc)})
        except LookupError:
            return play, Problem(index, "pay", "bad_pay", {"card": slug, "price": card.price})
        if not isinstance(play.named_card, str) or not isinstance(play.text, str):
            return bad("named_card and text are strings")
        return play, self._legality(play)

    def _refs(self, refs: list, source: str, used: set[int]) -> list[int]:
        """Uids of the instances named by ``refs`` in ``source`` (each once); ``LookupError`` if one is missing."""
        if not refs:
            return []
        uids: list[int] = []
        # A slug takes the first instance that no uid of ``refs`` names: ["coffee", 12] with 12 a coffee too.
        named = {ref for ref in refs if isinstance(ref, int) and not isinstance(ref, bool)}
        for ref in refs:
            if not isinstance(ref, (int, str)) or isinstance(ref, bool):
                raise ValueError("cards are named by uid or slug")
            inst = _pick(self.c, source, ref, used | set(uids) | (named if isinstance(ref, str) else set()))
            if inst is None:
                raise LookupError(ref)
            uids.append(inst.uid)
        return uids

    def _legality(self, play: Play) -> Problem | None:
        card, i = play.card, play.index
        params = {"card": card.slug}
        if self.seat.data.get("secret_role") == "hero" and (
                card.effect.get("damage") or card.effect.get("if") == "target_played_named_card_last_night"):
            return Problem(i, "card", "hero_no_damage", params)  # FM-3.3: the hero never deals damage
        if card.effect.get("sleeve_only") and play.source != "sleeve":
            return Problem(i, "from", "sleeve_only", params)
        if card.timing == NIGHT and self.phase.kind != NIGHT:
            return Problem(i, "card", "wrong_timing_night", params)
        if card.timing == DAY and self.phase.kind != DAY:
            return Problem(i, "card", "wrong_timing_day", params)
        if card.target in TARGETED:
            if self.jail_left > 0:
                return Problem(i, "card", "jailed", {"left": self.jail_left})
            if self.handcuffed:
                return Problem(i, "card", "handcuffed", params)
        if card.target == "none":
            if play.target is not None or play.targets:
                return Problem(i, "target", "no_target", params)
        elif card.target == "two":
            ts = play.targets
            if len(ts) != 2 or ts[0] == ts[1]:
                return Problem(i, "targets", "needs_two_targets", params)
            for t in ts:
                found = self.target_problem(card, t)
                if found:
                    return Problem(i, "targets", *found)
        else:
            if play.target is None:
                return Problem(i, "target", "needs_target", params)
            found = self.target_problem(card, play.target)
            if found:
                return Problem(i, "target", *found)
        if card.target == "one_card" and play.named_card not in self.collection:
            return Problem(i, "named_card", "needs_named_card", params)
        if card.target == "one_text":
            found = self.text_problem(play.text)
            if found:
                return Problem(i, "text", found[0], {**params, **found[1]})
            play.text = play.text.strip()
        if card.effect.get("move") and card.effect.get("from") == "hand":
            if not 1 <= len(play.cards) <= int(card.effect["move"]):
                return Problem(i, "cards", "stash_cards", params)
        elif play.cards:
            return Problem(i, "cards", "bad_payload", {"detail": "only stash takes cards"})
        return None

    def _price(self, play: Play, used: set[int], cultist_paid: int) -> Problem | None:
        price = play.card.price
        params = {"card": play.kind, "price": price}
        if play.pay_hand and (public_role(self.seat) != "cultist"
                              or cultist_paid + len(play.pay_hand) > CULTIST_HAND_PAY or len(play.pay_hand) > price):
            return Problem(play.index, "pay_hand", "bad_pay_hand", params)
        need = price - len(play.pay_hand)
        taken = used | {play.uid} | set(play.pay_hand)
        if play.pay is not None:
            ok = len(play.pay) == need and all(
                can_pay(self.c.get(u), self.collection) and u not in taken for u in play.pay)
            return None if ok else Problem(play.index, "pay", "bad_pay", params)
        payers = [i.uid for i in self.c.sleeve if i.uid not in taken and can_pay(i, self.collection)]
        spare = [u for u in payers if u not in self.reserved]
        if len(spare) >= need:
            payers = spare
        if len(payers) < need:
            return Problem(play.index, "pay", "price_unpaid", {**params, "have": len(payers)})
        play.pay = payers[:need]
        return None

    def _discard(self, raw: list, used: set[int], out: CheckedOrder) -> Problem | None:
        if self.phase.kind != NIGHT:
            return Problem(None, "discard", "discard_by_day")
        try:
            uids = self._refs(raw, "hand", set())
        except (LookupError, ValueError):
            return Problem(None, "discard", "discard_two")
        if len(uids) != 2:
            return Problem(None, "discard", "discard_two")
        if set(uids) & used:
            return Problem(None, "discard", "discard_played")
        out.discard = uids
        return None


def _checker(state, phase, seat, seats) -> _Checker:
    collection = game_collection(state)
    return _Checker(state=state, phase=phase, seat=seat, seats=seats, collection=collection,
                    containers=Containers.from_dict(seat.data.get("cards")))


def validate_order(*, state: Mapping[str, Any], phase: PhaseInfo, seat: SeatInfo, seats: Sequence[SeatInfo],
                   payload: Mapping[str, Any]) -> dict:
    """FM-5.2–FM-5.7, FM-9.4: the normalised order (plays with their card ``uid`` fixed, price cards fixed when
    named) or :class:`RuleViolation` with every problem found (field ``plays.N.target`` etc., the rule ID and the
    numbers). ``seats``: every seat of the game."""
    checked = _checker(state, phase, seat, seats).check(payload)
    if checked.problems:
        raise RuleViolation([p.rule_error() for p in checked.problems])
    clean: dict[str, Any] = {}
    raw_plays = list(payload.get("plays") or [])
    if checked.plays:
        clean["plays"] = []
        for play in checked.plays:
            raw = dict(raw_plays[play.index])
            item: dict[str, Any] = {"card": play.kind, "from": play.source, "uid": play.uid}
            for key in ("target", "targets", "named_card", "text", "cards", "pay_hand"):
                value = getattr(play, key)
                if value not in (None, "", []):
                    item[key] = value
            if raw.get("pay") is not None:
                item["pay"] = play.pay
            clean["plays"].append(item)
    if checked.discard:
        clean["discard"] = checked.discard
    if checked.vote:
        clean["vote"] = checked.vote
    if checked.rooms:
        clean["rooms"] = checked.rooms
    if checked.abilities:
        clean["abilities"] = [use.payload() for use in checked.abilities]
    return clean


def order_options(*, state: Mapping[str, Any], phase: PhaseInfo, seat: SeatInfo,
                  seats: Sequence[SeatInfo]) -> dict:
    """What ``seat`` may do in ``phase`` now (FM-5.2, FM-5.3, FM-5.5, FM-5.7), for the order form:
    ``{"can_order", "why_not", "cards": [{"uid", "kind", "from", "free", "price", "timing", "target",
    "needs_cards", "playable", "reason", "reason_params", "payers"}], "targets": [{"id", "name"}],
    "dead_targets": [...], "can_discard_two", "hand": [{"uid", "kind"}], "sleeve": [{"uid", "kind", "can_pay"}],
    "named_cards"}``. ``reason`` is a msgid (the shell translates it) whose ``%(…)s`` come from ``reason_params``
    (card slugs under ``card``)."""
    checker = _checker(state, phase, seat, seats)
    c, collection = checker.c, checker.collection
    playing = phase.kind in (NIGHT, DAY) and seat.alive
    targets: list[dict[str, Any]] = [{"id": s.id, "name": s.name} for s in sorted(seats, key=lambda s: s.position)
                                     if s.alive and s.id != seat.id and not untargetable(s, phase)]
    dead: list[dict[str, Any]] = [{"id": s.id, "name": s.name} for s in sorted(seats, key=lambda s: s.position)
                                  if not s.alive]
    cards = []
    for source, items in (("hand", c.hand), ("sleeve", c.sleeve)):
        for inst in items:
            card = collection.kinds.get(inst.kind)
            if card is None:
                continue
            play = Play(seat=seat.id, index=0, kind=inst.kind, source=source, uid=inst.uid, card=card,
                        free=_is_free(inst, card, seat))
            # Check legality with a stand-in target so the only reasons left are the card's own.
            if card.target == "dead":
                play.target = dead[0]["id"] if dead else -1
            elif card.target == "two":
                play.targets = [t["id"] for t in targets[:2]]
            elif card.target != "none":
                play.target = targets[0]["id"] if targets else -1
            play.named_card = "pistol" if card.target == "one_card" else ""
            play.text = "…" if card.target == "one_text" else ""
            play.cards = [i.uid for i in c.hand if i.uid != inst.uid][:1] if card.effect.get("move") and \
                card.effect.get("from") == "hand" else []
            problem = checker._legality(play)
            if problem is None:
                problem = checker._price(play, set(), 0)
            if problem and problem.code in ("unknown_target", "needs_two_targets", "stash_cards"):
                problem = Problem(0, "target", "needs_target", {"card": card.slug}) if card.target != "none" \
                    else problem
            cards.append({"uid": inst.uid, "kind": inst.kind, "from": source, "free": play.free, "price": card.price,
                          "timing": card.timing, "target": card.target,
                          "needs_cards": bool(card.effect.get("move") and card.effect.get("from") == "hand"),
                          "playable": playing and problem is None,
                          "reason": REASONS[problem.code][1] if problem else "",
                          "reason_params": dict(problem.params) if problem else {},
                          "payers": list(play.pay or [])})
    return {
        "can_order": playing,
        "why_not": "" if playing else _("There is nothing to order in this phase."),
        "cards": cards,
        "targets": targets,
        "dead_targets": dead,
        "can_discard_two": playing and phase.kind == NIGHT and len(c.hand) >= 2,
        "hand": [{"uid": i.uid, "kind": i.kind} for i in c.hand],
        "sleeve": [{"uid": i.uid, "kind": i.kind, "can_pay": can_pay(i, collection)} for i in c.sleeve],
        "named_cards": [k.slug for k in collection.buildable()],
    }

