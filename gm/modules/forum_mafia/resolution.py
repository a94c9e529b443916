"""Forum Mafia night/day resolution: orders (FM-5), the layers L0–L8 (FM-6), every card of §11 and victory (FM-10).

Pure (functional core): no Django import, no I/O, no clock, randomness only from the injected ``random.Random``
whose seed the core stores with the phase. The core calls :func:`validate_order` when a player submits (or changes)
an order, :func:`order_options` to show him what he may do now, and :func:`resolve` once at the deadline with the
last order version of each living character.

Order payload (one per seat and phase; every key optional; ``{}`` is a valid "I do nothing")::

    {"plays": [{"card": slug, "from": "hand"|"sleeve", "uid": int,           # uid: the exact instance (optional)
                "target": seat_id, "targets": [seat_id, seat_id],          # targets: redirect
                "named_card": slug, "text": str,                           # accusation; letter, unlimited_plan
                "cards": [uid|slug, ...],                                  # stash: up to 2 Hand cards
                "pay": [uid|slug, ...], "pay_hand": [uid|slug, ...]}],     # FM-5.7 price cards; cultist (FM-8)
     "discard": [uid|slug, uid|slug]}                                      # FM-5.3, night only

State kept between phases (``state["fm"]``, seat ids as strings because the state is JSON): ``poison`` (pending
delayed damage), ``stimulant`` (pending discards), ``handcuffs`` (seat → night number it applies to), ``jail``
(seat → phases left, FM-7.5), ``last_night`` (seat → kinds of deck cards played last night, for ``accusation``),
``last_played_on`` (seat → the last card played on him, for ``autopsy``).

Event data names players by display name and cards by slug, so a log line can be rendered in any language and a
scenario can match slugs. The master's resolution trace is the ``fm.t_*`` events (visibility ``master``), each with
its ``layer``; they come out in the order the engine took the steps.

Decisions the references leave open, marked **[house]** in ``docs/rules-coverage.md``: free cards may be played next
to the FM-5.3 discard (they use no slot); information sees orders as given (original targets, cancelled plays
included, voided ones not); several redirects of one character: the first in ring order applies; bodyguards do not
chain and the first in ring order guards; ``last_stand`` returns the last card lost from the Hand this phase;
``reserve`` on a short deck moves what there is (moving is not drawing, so no mulligans); L6 runs stash, reserve,
pickpocket, arson, hack, stimulant draws, returns of ``unlimited_plan``, then the extra draws of ``advice`` and
``coffee`` (the reference's "extra draws" of L6 — ``first_aid`` alone draws "after damage", at L8), each in ring
order; a game where no living character can still meet a goal of FM-10.1–10.3 ends with no winner; a stalemate —
``stalemate_phases`` phases in a row with no death and nothing left that can harm (:func:`harm_sources`) — ends as a
draw (FM-10.H1, counted in ``state["fm"]["quiet_phases"]``). The **[reading]**s of the open points are
``FM-….R<n>`` in ``docs/rules/forum-mafia.md``.
"""
from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cards.containers import ContainerError, Containers
from cards.deckrules import SECRET_ROLE_COLOURS
from cards.domain import CardInstance, CardKind, Collection
from gm.core.engine import Event, Outcome, PhaseInfo, PhaseSpec, Resolution, RuleError, RuleViolation, SeatInfo

from . import abilities, rooms, veche
from .engine import STALEMATE_PHASES
from .roles import LAW, MAFIA, SECRET_ROLES


def _(s: str) -> str:
    return s


NIGHT, DAY = "night", "day"
#: Provenances of cards "a role puts into the Sleeve" (FM-8): they pay no price and ground no accusation.
ROLE_PROVENANCES = ("role", "ability")
TARGETED = ("one", "two", "one_card", "one_text", "dead")
_PLAY_KEYS = frozenset({"card", "from", "uid", "target", "targets", "named_card", "text", "cards", "pay", "pay_hand"})
#: Cards whose one target a ``redirect`` may move (FM-6 L3): every card aimed at one living character.
REDIRECTABLE = ("one", "one_card", "one_text")
MAX_TEXT = 2000
JAIL_PHASES = 4  # FM-7.5
HIGHLANDER_CAP = 6  # FM-8
WARRIOR_DIVERTS = 2  # FM-8
IDLER_ARMOUR = 3  # FM-8
CULTIST_HAND_PAY = 2  # FM-8

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

_LINK = re.compile(
    r"(https?://|ftp://|www\.|\bt\.me/|[\w.+-]+@[\w-]+\.[\w.-]+|\b[\w-]+\.(com|ru|net|org|ua|io|me|info|su|рф|by|kz)"
    r"\b|\b(стр(аница|анице|аницу|аницы|аницах|\.)?|page|p\.)\s*\d+|\[url|\[link)",
    re.IGNORECASE,
)


def find_link(text: str) -> str | None:
    """The first link-like fragment in ``text`` (URL, e-mail address, ``www.``, domain, "page N" cross-reference),
    or ``None`` (FM-9.4: messages may not contain direct or indirect links)."""
    match = _LINK.search(text)
    return match.group(0) if match else None


_COLLECTIONS: dict[str, Collection] = {}


def game_collection(state: Mapping[str, Any]) -> Collection:
    """The game's collection snapshot (FM-4.2) as a :class:`Collection`, cached by its version digest."""
    version = state.get("collection_version") or ""
    cached = _COLLECTIONS.get(version) if version else None
    if cached is None:
        cached = Collection.from_snapshot(state.get("collection") or [])
        if version:
            _COLLECTIONS[version] = cached
    return cached


def fm_state(state: Mapping[str, Any]) -> dict:
    """A deep-enough copy of ``state["fm"]`` with every key present."""
    fm = dict(state.get("fm") or {})
    fm["poison"] = [dict(p) for p in fm.get("poison", [])]
    fm["stimulant"] = [dict(s) for s in fm.get("stimulant", [])]
    fm["death_order"] = [list(d) for d in fm.get("death_order", [])]
    for key in ("handcuffs", "jail", "last_night", "last_played_on", "warrior_diverted"):
        fm[key] = dict(fm.get(key) or {})
    if "rooms" in fm:
        fm["rooms"] = {k: dict(v) for k, v in dict(fm["rooms"] or {}).items()}
    for key in ("used", "hero_goals", "hero_marks", "left", "rebuilds"):  # abilities' memory: never the input's
        if key in fm:
            fm[key] = {k: list(v) if isinstance(v, list) else v for k, v in dict(fm[key] or {}).items()}
    return fm


def is_jailed(state: Mapping[str, Any], seat_id: int) -> bool:
    """Whether ``seat_id`` is still in jail (FM-7.5: no targeted cards for 4 phases)."""
    return int((state.get("fm") or {}).get("jail", {}).get(str(seat_id), 0)) > 0


def _public_role(seat: SeatInfo) -> str:
    value = seat.data.get("public_role")
    return value if isinstance(value, str) else ""


def _untargetable(seat: SeatInfo, phase: PhaseInfo) -> bool:
    """FM-7.6/FM-8 ``sociopath``: no cards or votes on him during Night 1 and Day 1."""
    return _public_role(seat) == "sociopath" and phase.number == 1


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
    params: dict = field(default_factory=dict)
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


def _can_pay(inst: CardInstance, collection: Collection) -> bool:
    """FM-5.7/FM-8: cards a role put into play (start cards, and those its ability gives: geek, looter) can't pay a
    price, except those whose effect says so (``dummy``)."""
    if inst.provenance not in ROLE_PROVENANCES:
        return True
    kind = collection.kinds.get(inst.kind)
    return bool(kind and kind.effect.get("pays_price"))


def _is_free(inst: CardInstance, card: CardKind, seat: SeatInfo) -> bool:
    """FM-4.4 free; FM-8 ``spendthrift``: his cards with price ≥ 2 are free too."""
    return inst.free or card.free or (_public_role(seat) == "spendthrift" and card.price >= 2
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
        if _untargetable(other, self.phase):
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
            vote, problem = veche.check_vote(payload["vote"], phase=self.phase, seat=self.seat, by_id=self.by_id,
                                             fm=self.state.get("fm") or {})
            if problem:
                out.problems.append(Problem(None, problem[1], problem[0], problem[2]))
            out.vote = vote
        if payload.get("rooms"):
            proposals, problem = rooms.check_rooms(payload["rooms"], phase=self.phase, seat=self.seat,
                                                   by_id=self.by_id, fm=self.state.get("fm") or {})
            if problem:
                out.problems.append(Problem(None, problem[1], problem[0], problem[2]))
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
        if play.pay_hand and (_public_role(self.seat) != "cultist"
                              or cultist_paid + len(play.pay_hand) > CULTIST_HAND_PAY or len(play.pay_hand) > price):
            return Problem(play.index, "pay_hand", "bad_pay_hand", params)
        need = price - len(play.pay_hand)
        taken = used | {play.uid} | set(play.pay_hand)
        if play.pay is not None:
            ok = len(play.pay) == need and all(
                _can_pay(self.c.get(u), self.collection) and u not in taken for u in play.pay)
            return None if ok else Problem(play.index, "pay", "bad_pay", params)
        payers = [i.uid for i in self.c.sleeve if i.uid not in taken and _can_pay(i, self.collection)]
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
    targets = [{"id": s.id, "name": s.name} for s in sorted(seats, key=lambda s: s.position)
               if s.alive and s.id != seat.id and not _untargetable(s, phase)]
    dead = [{"id": s.id, "name": s.name} for s in sorted(seats, key=lambda s: s.position) if not s.alive]
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
        "sleeve": [{"uid": i.uid, "kind": i.kind, "can_pay": _can_pay(i, collection)} for i in c.sleeve],
        "named_cards": [k.slug for k in collection.buildable()],
    }


# ---------------------------------------------------------------------------------------------- resolution


@dataclass
class _Hit:
    source: int
    target: int
    amount: int
    pierce: bool
    kind: str
    card: bool = True  # dealt by a card (the highlander's cap counts other characters' cards only)


class _Resolver:
    """One phase's resolution; each ``l*`` method is one layer of FM-6, called in order by :func:`resolve`."""

    def __init__(self, *, state, phase: PhaseInfo, seats: Sequence[SeatInfo], rng: random.Random):
        self.state, self.phase, self.rng = state, phase, rng
        self.night = phase.kind == NIGHT
        self.seats = sorted(seats, key=lambda s: s.position)
        self.by_id = {s.id: s for s in self.seats}
        self.alive = {s.id: s.alive for s in self.seats}
        self.collection = game_collection(state)
        self.c = {s.id: Containers.from_dict(s.data.get("cards")) for s in self.seats}
        # What each seat held before: only seats whose cards moved are written back (instances are immutable and
        # shared, so comparing the lists is cheap).
        self.before = {sid: (list(c.hand), list(c.sleeve), list(c.deck), list(c.discard), c.next_uid)
                       for sid, c in self.c.items()}
        self.fm = fm_state(state)
        self.events: list[Event] = []
        self.plays: list[Play] = []  # not voided at L0/L1, ring order then order index
        self._live: list[Play] | None = None  # set after L2: nothing is cancelled later
        self.abilities: list[abilities.AbilityUse] = []
        self.votes: dict[int, dict] = {}  # FM-7 Veche votes of the day
        self.proposals: dict[int, list[dict]] = {}  # FM-9.3 chat-room proposals of the day
        self.groups: dict[str, list[int]] = {}  # new group memberships (rooms)
        self.jailed_now: int | None = None
        self.hero_armour: dict[int, tuple[int, int]] = {}  # target → (hero seat, armour), FM-3.3 goal (a)
        self.killed: dict[int, int] = {}  # FM-8 assassin: target → assassin
        self.dmg_parts: dict[int, tuple[int, int]] = {}  # seat → (damage subject to armour, piercing damage)
        self.ordered: dict[int, list[Play]] = {}  # every play of the seat as ordered, incl. voided ones
        self.discards: dict[int, list[int]] = {}
        self.owed = {s.id: 0 for s in self.seats}  # FM-5.4 replacement draws
        self.armour = {s.id: 0 for s in self.seats}
        self.immune: set[int] = set()
        self.guard: dict[int, int] = {}
        self.hits: list[_Hit] = []
        self.losses = {s.id: 0 for s in self.seats}
        self.damage_taken: dict[int, int] = {}
        self.left_now: dict[int, bool] = {}
        self.died_now: list[int] = []  # seats that left the game this phase (hero's two goals)
        self.damaged_by: dict[int, list[int]] = {}
        self.lost_this_phase: dict[int, list[CardInstance]] = {s.id: [] for s in self.seats}
        self.jammed: set[int] = set()
        self.data_changes: dict[int, dict] = {}

    # -- helpers ----------------------------------------------------------------------------------------
    def name(self, seat_id: int | None) -> str:
        return self.by_id[seat_id].name if seat_id in self.by_id else ""

    def trace(self, layer: str, step: str, **data) -> None:
        data["layer"], data["step"] = layer, step  # the keyword dict is ours: no copy (a phase traces ~100 steps)
        self.events.append(Event("fm.t_" + step, data, visibility="master"))

    def tell(self, seat_id: int, kind: str, **data) -> None:
        self.events.append(Event(kind, data, visibility="seat", seat=seat_id))

    def public(self, kind: str, **data) -> None:
        self.events.append(Event(kind, data))

    def live(self, kind: str | None = None) -> list[Play]:
        """The plays that take effect (not voided, not cancelled), in order; cached once L2 has cancelled."""
        plays = self._live if self._live is not None else [p for p in self.plays if p.live]
        return plays if kind is None else [p for p in plays if p.kind == kind]

    def with_effect(self, key: str) -> list[Play]:
        return [p for p in self.live() if p.effect.get(key)]

    # -- L0 intake ----------------------------------------------------------------------------------------
    def l0_intake(self, orders: Mapping[int, Mapping[str, Any]]) -> None:
        for seat in self.seats:
            payload = orders.get(seat.id)
            if payload is None or not seat.alive:
                continue
            checker = _Checker(state=self.state, phase=self.phase, seat=seat, seats=self.seats,
                               collection=self.collection, containers=self.c[seat.id])
            checked = checker.check(payload)
            self.ordered[seat.id] = sorted(checked.plays + checked.voided, key=lambda p: p.index)
            self.trace("L0", "order", player=seat.name, seat=seat.id,
                       plays=[self._describe(p) for p in self.ordered[seat.id]],
                       discard=[self.c[seat.id].get(u).kind for u in checked.discard],
                       abilities=[self._describe_ability(u) for u in checked.abilities])
            raws = {group: payload.get(group) if isinstance(payload.get(group), list) else []
                    for group in ("plays", "abilities")}
            for problem in checked.problems:
                items = raws[problem.group]
                raw = items[problem.index] if problem.index is not None and problem.index < len(items) else None
                name = raw.get("ability" if problem.group == "abilities" else "card") if isinstance(raw, Mapping) \
                    else None
                name = name if isinstance(name, str) else None
                data = {"player": seat.name, "seat": seat.id, "card": name if problem.group == "plays" else None,
                        "ability": name if problem.group == "abilities" else None, "reason": problem.code,
                        "reason_params": problem.params, "rule": REASONS[problem.code][0]}
                self.trace("L0", "void", **data)
                self.tell(seat.id, "fm.voided", **data)
            self.plays += checked.plays
            self.abilities += checked.abilities
            if checked.vote:
                self.votes[seat.id] = checked.vote
            if checked.rooms:
                self.proposals[seat.id] = checked.rooms
            if checked.discard:
                self.discards[seat.id] = checked.discard

    def _describe_ability(self, use: abilities.AbilityUse) -> dict:
        d: dict[str, Any] = {"ability": use.slug or use.ability, "mode": use.mode}
        if use.target is not None:
            d["target"] = self.name(use.target)
        if use.guess:
            d["guess"] = use.guess
        return d

    def abilities_of(self, key: str, mode: str | None = None) -> list[abilities.AbilityUse]:
        return [u for u in self.abilities if u.ability == key and (mode is None or u.mode == mode)]

    def mark_used(self, seat_id: int, what: str) -> None:
        self.fm.setdefault("used", {}).setdefault(str(seat_id), [])
        if what not in self.fm["used"][str(seat_id)]:
            self.fm["used"][str(seat_id)].append(what)

    def _describe(self, play: Play) -> dict:
        d: dict[str, Any] = {"card": play.kind, "from": play.source}
        if play.target is not None:
            d["target"] = self.name(play.target)
        if play.targets:
            d["targets"] = [self.name(t) for t in play.targets]
        if play.named_card:
            d["named_card"] = play.named_card
        return d

    # -- L1 price, and the played/discarded cards leave the Hand and Sleeve ------------------------------
    def l1_price(self) -> None:
        for play in self.plays:
            c = self.c[play.seat]
            paid = []
            for uid in (play.pay or []) + play.pay_hand:
                paid.append(c.discard_card(uid).kind)
            if paid:
                self.trace("L1", "price", player=self.name(play.seat), card=play.kind, cards=paid)
                self.tell(play.seat, "fm.paid", card=play.kind, cards=paid)
            c.discard_card(play.uid, play.source)
            if play.source == "hand":
                self.owed[play.seat] += 1
        for seat_id, uids in self.discards.items():
            lost = self.c[seat_id].discard_many(uids, "hand")
            self.owed[seat_id] += len(lost)
            self.trace("L1", "discard_two", player=self.name(seat_id), cards=[i.kind for i in lost])
            self.tell(seat_id, "fm.discarded_two", cards=[i.kind for i in lost])
        for use in self.abilities:
            c = self.c[use.seat]
            if use.pay is not None:  # FM-3.3 maniac: a Sleeve card discarded as his Sleeve play
                paid = c.discard_card(use.pay, "sleeve")
                self.trace("L1", "price", player=self.name(use.seat), card=None, cards=[paid.kind])
            if use.discard:  # FM-8 scientist: two Hand cards discarded and replaced even while playing cards
                lost = c.discard_many(use.discard, "hand")
                self.owed[use.seat] += len(lost)
                self.mark_used(use.seat, "scientist")
                self.trace("L1", "discard_two", player=self.name(use.seat), cards=[i.kind for i in lost])
                self.tell(use.seat, "fm.scientist_discarded", cards=[i.kind for i in lost])

    # -- L2 control ---------------------------------------------------------------------------------------
    def l2_control(self) -> None:
        # Every arrest takes effect, even a cancelled one: cancellations are simultaneous (mutual arrests).
        arrests = [p for p in self.plays if p.effect.get("cancel") == "all_plays"]
        for arrest in arrests:
            for play in self.plays:
                if play.seat == arrest.target:
                    play.cancelled = True
                    self.trace("L2", "cancel", player=self.name(play.seat), card=play.kind,
                               by=self.name(arrest.seat), by_card=arrest.kind)
                    self.tell(play.seat, "fm.cancelled", card=play.kind)

    # -- L3 redirect --------------------------------------------------------------------------------------
    def l3_redirect(self) -> None:
        for play in self.plays:
            play.final_target = play.target
        applied: set[int] = set()
        for red in self.with_effect("redirect"):
            first, second = red.targets
            if first in applied:
                self.trace("L3", "redirect_ignored", player=self.name(red.seat), target=self.name(first))
                continue
            applied.add(first)
            # "(if legal)": L0 already refused a second target that is dead, untargetable or the first target
            # himself, and nobody dies before L8, so every redirected card may go there.
            for play in self.plays:
                # FM-6.R1: an arrest acted at L2, before any redirect: it stays on the character it was played on
                if play.seat != first or play.card.target not in REDIRECTABLE or play.effect.get("cancel"):
                    continue
                play.final_target = second
                self.trace("L3", "redirect", player=self.name(play.seat), card=play.kind,
                           target=self.name(play.target), new_target=self.name(second), by=self.name(red.seat))

    # -- L4 protection ------------------------------------------------------------------------------------
    def l4_protection(self) -> None:
        idlers = {p.seat for p in self.plays}
        for seat in self.seats:  # FM-8 idler: no card played at night → 3 armour
            if self.night and seat.alive and _public_role(seat) == "idler" and seat.id not in idlers:
                self.armour[seat.id] += IDLER_ARMOUR
                self.trace("L4", "armour", player=seat.name, amount=IDLER_ARMOUR, card=None, source="idler")
        for use in self.abilities_of("maniac", "armour"):
            self.armour[use.seat] += abilities.MANIAC_ARMOUR
            self.trace("L4", "armour", player=self.name(use.seat), amount=abilities.MANIAC_ARMOUR, card=None,
                       source="maniac")
        for use in self.abilities_of("hero", "armour"):
            self.armour[use.target] += abilities.HERO_ARMOUR
            self.hero_armour[use.target] = (use.seat, abilities.HERO_ARMOUR)
            self.trace("L4", "armour", player=self.name(use.target), amount=abilities.HERO_ARMOUR, card=None,
                       source=self.name(use.seat))
        for play in self.plays:
            if not play.live:
                continue
            eff = play.effect
            to = play.seat if eff.get("self") else play.final_target
            if eff.get("armour"):
                self.armour[to] += int(eff["armour"])
                self.trace("L4", "armour", player=self.name(to), amount=int(eff["armour"]), card=play.kind,
                           source=self.name(play.seat))
            if eff.get("immune"):
                self.immune.add(to)
                self.trace("L4", "immune", player=self.name(to), card=play.kind, source=self.name(play.seat))
            if eff.get("transfer_damage") and to not in self.guard and to != play.seat:
                self.guard[to] = play.seat
                self.trace("L4", "bodyguard", player=self.name(to), guard=self.name(play.seat))
            if eff.get("block") and to is not None:
                self.jammed.add(to)

    # -- L5 damage ----------------------------------------------------------------------------------------
    def _targeted_by(self, seat_id: int) -> set[int]:
        return {p.final_target for p in self.plays if p.seat == seat_id and p.targeted and p.final_target}

    def l5_damage(self) -> None:
        for entry in self.fm["poison"]:  # delayed damage of earlier phases (§11 poison)
            target = int(entry["target"])
            if self.alive.get(target) and int(entry["first"]) <= self.phase.ordinal <= int(entry["last"]):
                self.hits.append(_Hit(int(entry["source"]), target, int(entry["amount"]), False, "poison"))
        for play in self.plays:
            if not play.live:
                continue
            eff = play.effect
            if eff.get("if") == "target_played_named_card_last_night":
                self._accusation(play)
                continue
            if not eff.get("damage"):
                continue
            target = play.final_target
            if eff.get("if") == "target_plays_targeted":
                # Ambush: the target's own targeted plays count even if cancelled (they still count as played).
                if not any(p.seat == target and p.targeted for p in self.plays):
                    self.trace("L5", "no_trigger", player=self.name(play.seat), card=play.kind,
                               target=self.name(target))
                    continue
            amount = int(eff["damage"])
            bonus = eff.get("bonus_damage")
            if bonus and bonus.get("if") == "target_targeted_you" and play.seat in self._targeted_by(target):
                amount += int(bonus["amount"])
            self.hits.append(_Hit(play.seat, target, amount, bool(eff.get("pierce")), play.kind))
        if self.phase.kind == DAY:
            self._veche()
        for use in self.abilities_of("maniac", "damage"):
            self.hits.append(_Hit(use.seat, use.target, abilities.MANIAC_DAMAGE, False, "maniac", card=False))
        for use in self.abilities_of("assassin"):
            self.killed[use.target] = use.seat
            self.mark_used(use.seat, "assassin")
            self.trace("L5", "assassin", player=self.name(use.seat), target=self.name(use.target))
        for hit in self.hits:
            guard = self.guard.get(hit.target)
            if guard is not None and guard != hit.target:
                self.trace("L5", "transfer", player=self.name(hit.target), guard=self.name(guard), amount=hit.amount,
                           card=hit.kind)
                hit.target = guard
        by_target: dict[int, list[_Hit]] = {}
        for hit in self.hits:
            by_target.setdefault(hit.target, []).append(hit)
        for seat in self.seats:
            mine = by_target.get(seat.id, [])
            if not mine:
                continue
            if seat.id in self.immune:
                blocked = [h for h in mine if not h.pierce]
                mine = [h for h in mine if h.pierce]
                if blocked:
                    self.trace("L5", "immune_blocked", player=seat.name, amount=sum(h.amount for h in blocked))
            normal = sum(h.amount for h in mine if not h.pierce)
            pierce = sum(h.amount for h in mine if h.pierce)
            if _public_role(seat) == "highlander" and self.night:  # FM-8: at most 6 from others' cards a night
                others = sum(h.amount for h in mine if h.card and h.source != seat.id)
                if others > HIGHLANDER_CAP:
                    cut = others - HIGHLANDER_CAP
                    self.trace("L5", "highlander_cap", player=seat.name, amount=others, cap=HIGHLANDER_CAP)
                    # the cut comes off those cards' damage, never off uncapped (non-card or own) damage
                    take = min(cut, sum(h.amount for h in mine if h.card and h.source != seat.id and not h.pierce))
                    normal -= take
                    pierce -= cut - take
            armour = self.armour[seat.id]
            lost = max(0, normal - armour) + pierce
            self.losses[seat.id] = lost
            self.dmg_parts[seat.id] = (normal, pierce)
            self.damage_taken[seat.id] = normal + pierce
            if normal + pierce > 0:  # FM-6.1: armour saves cards, the damage is still taken (``witness``)
                self.damaged_by[seat.id] = sorted({h.source for h in mine if h.amount > 0},
                                                  key=lambda s: self.by_id[s].position if s in self.by_id else 0)
            self.trace("L5", "damage", player=seat.name, damage=normal + pierce, pierce=pierce, armour=armour,
                       losses=lost, sources=[{"player": self.name(h.source), "card": h.kind, "amount": h.amount}
                                             for h in mine])

    def _accusation(self, play: Play) -> None:
        target = play.final_target
        played = self.fm["last_night"].get(str(target), [])
        hit = play.named_card in played
        if hit:
            self.hits.append(_Hit(play.seat, target, int(play.effect.get("damage", 0)), False, play.kind))
        else:
            self.hits.append(_Hit(play.seat, play.seat, int(play.effect.get("else_self_damage", 0)), False, play.kind))
        self.public("fm.accusation", player=self.name(play.seat), target=self.name(target),
                    named_card=play.named_card, hit=hit, amount=self.hits[-1].amount)
        self.trace("L5", "accusation", player=self.name(play.seat), target=self.name(target),
                   named_card=play.named_card, hit=hit, amount=self.hits[-1].amount)

    # -- L6 card movement ---------------------------------------------------------------------------------
    def l6_movement(self) -> None:
        for play in self.live("stash"):
            c = self.c[play.seat]
            moved = [c.move(u, "sleeve", "hand").kind for u in play.cards if self._in(c, u, "hand")]
            self.trace("L6", "move", player=self.name(play.seat), card=play.kind, cards=moved, to="sleeve")
        for play in self.live():
            eff = play.effect
            if eff.get("move") and eff.get("from") == "deck":
                c = self.c[play.seat]
                moved = [c.move(i.uid, "sleeve", "deck").kind for i in c.deck[: int(eff["move"])]]
                self.trace("L6", "move", player=self.name(play.seat), card=play.kind, cards=moved, to="sleeve")
                self.tell(play.seat, "fm.moved", card=play.kind, cards=moved)
        for play in self.with_effect("steal"):
            victim, thief = self.c[play.final_target], self.c[play.seat]
            if not victim.hand:
                self.trace("L6", "steal_nothing", player=self.name(play.seat), target=self.name(play.final_target))
                continue
            taken = thief.take_from(victim, victim.random_uid(self.rng, "hand"), "hand", "hand")
            self.trace("L6", "steal", player=self.name(play.seat), target=self.name(play.final_target),
                       cards=[taken.kind])
            self.tell(play.seat, "fm.stole", target=self.name(play.final_target), cards=[taken.kind])
            self.tell(play.final_target, "fm.stolen_from", cards=[taken.kind])
        for play in self.live():
            eff = play.effect
            target = play.final_target
            if eff.get("discard") and eff.get("from") == "sleeve":
                lost = self.c[target].discard_first_from_sleeve(int(eff["discard"]))
                self.trace("L6", "sleeve_discard", player=self.name(target), cards=[i.kind for i in lost],
                           card=play.kind)
                self.tell(target, "fm.sleeve_lost", cards=[i.kind for i in lost])
            if eff.get("discard") and eff.get("from") == "deck":
                lost = self.c[target].mill_deck(int(eff["discard"]))
                self.trace("L6", "mill", player=self.name(target), cards=[i.kind for i in lost], card=play.kind)
                self.tell(target, "fm.milled", cards=[i.kind for i in lost])
        for play in self.live():
            eff = play.effect
            if eff.get("draw") and eff.get("when") == "now":
                drawn = self.c[play.seat].draw("hand", int(eff["draw"]))
                self.trace("L6", "draw", player=self.name(play.seat), card=play.kind, cards=[i.kind for i in drawn])
                self.tell(play.seat, "fm.drew", cards=[i.kind for i in drawn])
                dd = eff.get("delayed_discard") or {"count": 1, "phases": 1}
                self.fm["stimulant"].append({"seat": play.seat, "due": self.phase.ordinal + int(dd.get("phases", 1)),
                                             "count": int(dd.get("count", 1))})
            if eff.get("returns_to_sleeve"):
                self.c[play.seat].move(play.uid, "sleeve", "discard")
                self.trace("L6", "returns", player=self.name(play.seat), card=play.kind)
        self._extra_draws(after_damage=False)
        if self.jailed_now is not None:
            self._jail(self.jailed_now)
        for use in self.abilities_of("joker", "ace"):  # FM-3.3: one ace per phase into a target's Sleeve
            self.c[use.target].add("ace", "sleeve", "role", collection=self.collection)
            self.trace("L6", "ace", player=self.name(use.seat), target=self.name(use.target))
            self.tell(use.target, "fm.ace_received", cards=["ace"])

    @staticmethod
    def _in(c: Containers, uid: int, container: str) -> bool:
        return any(i.uid == uid for i in getattr(c, container))

    # -- L7 information -----------------------------------------------------------------------------------
    def l7_information(self) -> list[tuple[Play, dict]]:
        """Recon results now; ``wiretap`` reads the Hand at the end of the phase, so it is only noted here."""
        deferred = []
        for play in self.plays:
            learn = play.effect.get("learn")
            if not learn or not play.live:
                continue
            if learn == "hand":
                deferred.append((play, {}))
                continue
            target = play.final_target
            result = self._learn(learn, play, target)
            self._deliver_recon(play, target, result)
        for use in self.abilities_of("joker", "hr"):  # FM-3.3: the hr_department effect, outside the slots
            stand_in = Play(seat=use.seat, index=use.index, kind="hr_department", source="", uid=0,
                            card=self.collection["hr_department"], free=True, final_target=use.target)
            self._deliver_recon(stand_in, use.target, self._learn("role_colours", stand_in, use.target))
        for use in self.abilities_of("hero", "mark"):  # FM-3.3: a right guess marks the target, silently
            right = self.by_id[use.target].data.get("secret_role") == use.guess
            if right:
                self.fm.setdefault("hero_marks", {})[str(use.target)] = use.seat
            self.trace("L7", "hero_mark", player=self.name(use.seat), target=self.name(use.target), guess=use.guess,
                       right=right)
            self.tell(use.seat, "fm.hero_named", target=self.name(use.target), guess=use.guess)
        return deferred

    def _learn(self, learn: str, play: Play, target: int) -> dict:
        seat = self.by_id[target]
        if learn == "played_cards":
            return {"plays": [self._describe(p) for p in self.plays if p.seat == target]}
        if learn == "players_targeting":
            who = [p.seat for p in self.plays if p.seat != play.seat and (p.target == target or target in p.targets)]
            return {"players": [self.name(s) for s in sorted(set(who), key=lambda s: self.by_id[s].position)]}
        if learn == "faction":
            role = seat.data.get("secret_role", "")
            return {"faction": SECRET_ROLES[role].faction if role in SECRET_ROLES else ""}
        if learn == "secret_role":
            return {"role": seat.data.get("secret_role", "")}
        if learn == "damage_sources":
            return {"players": [self.name(s) for s in self.damaged_by.get(target, [])],
                    "damaged": target in self.damaged_by}
        if learn == "role_colours":
            role = seat.data.get("secret_role", "")
            colours = list(seat.data.get("joker_colours") or ()) if role == "joker" else \
                list(SECRET_ROLE_COLOURS.get(role, ()))
            count = int(play.effect.get("count", 2))
            if len(colours) > count:
                colours = sorted(self.rng.sample(colours, count), key=colours.index)
            return {"colours": colours}
        if learn == "secret_role_and_last_card":
            return {"role": seat.data.get("secret_role", ""), "last_card": self.fm["last_played_on"].get(str(target))}
        return {}

    def _deliver_recon(self, play: Play, target: int, result: dict) -> None:
        data = {"card": play.kind, "target": self.name(target), "fact": play.effect.get("learn"), **result}
        if play.seat in self.jammed:
            self.trace("L7", "recon_blocked", player=self.name(play.seat), card=play.kind)
            self.tell(play.seat, "fm.recon_jammed", card=play.kind)
            return
        self.trace("L7", "recon", player=self.name(play.seat), **data)
        self.tell(play.seat, f"fm.recon_{play.effect.get('learn')}", **data)

    # -- L8 end of phase ----------------------------------------------------------------------------------
    def l8_end(self, deferred: list[tuple[Play, dict]]) -> tuple[dict[int, bool], Outcome | None]:
        self._pending_discards()
        for seat in self.seats:
            self._damage_discards(seat)
        self._extra_draws(after_damage=True)
        self._monks()
        deaths = self._deaths()
        self._ability_aftermath(deaths)
        self._interrogations()
        for play, _unused in deferred:
            target = play.final_target
            self._deliver_recon(play, target, {"hand": self.c[target].hand_kinds()})
        self._messages()
        self._mafia_messages()
        if self.phase.kind == DAY:
            self._rooms()
        self._carry_over()
        counts = [{"player": s.name, "count": len(self.c[s.id].hand)} for s in self.seats if self.alive[s.id]]
        self.public("fm.hand_counts", counts=counts)
        self.trace("L8", "hand_counts", counts=counts)
        outcome = self._victory()
        if outcome is None:
            outcome = self._stalemate()
        return deaths, outcome

    def _pending_discards(self) -> None:
        keep = []
        for entry in self.fm["stimulant"]:
            seat_id = int(entry["seat"])
            if int(entry["due"]) > self.phase.ordinal:
                keep.append(entry)
                continue
            if self.alive.get(seat_id):
                lost = self.c[seat_id].discard_front(int(entry.get("count", 1)))
                self.lost_this_phase[seat_id] += lost
                self.trace("L8", "delayed_discard", player=self.name(seat_id), cards=[i.kind for i in lost])
                self.tell(seat_id, "fm.lost_delayed", cards=[i.kind for i in lost])
        self.fm["stimulant"] = keep

    def _damage_discards(self, seat: SeatInfo) -> None:
        """FM-6.1: owed replacement draws absorb losses first; the rest leave the front of the Hand."""
        if not seat.alive or not (self.losses[seat.id] or self.owed[seat.id]):
            return
        c = self.c[seat.id]
        losses, owed = self.losses[seat.id], self.owed[seat.id]
        absorbed = min(losses, owed)
        discard = losses - absorbed
        diverted = 0
        if _public_role(seat) == "warrior":  # FM-8: his first two damage discards go to the Sleeve
            done = int(self.fm["warrior_diverted"].get(str(seat.id), 0))
            diverted = max(0, WARRIOR_DIVERTS - done)
        lost = c.discard_front(discard, to_sleeve=diverted) if discard else []
        if _public_role(seat) == "warrior" and lost:
            self.fm["warrior_diverted"][str(seat.id)] = int(self.fm["warrior_diverted"].get(str(seat.id), 0)) + \
                min(diverted, len(lost))
        self.lost_this_phase[seat.id] += lost
        drawn = c.draw("hand", owed - absorbed) if owed - absorbed else []
        if losses or owed:
            self.trace("L8", "losses", player=seat.name, losses=losses, absorbed=absorbed,
                       cards=[i.kind for i in lost], drawn=[i.kind for i in drawn], to_sleeve=min(diverted, len(lost)))
        if losses:
            self.tell(seat.id, "fm.lost", cards=[i.kind for i in lost], losses=losses,
                      damage=self.damage_taken.get(seat.id, 0), armour=self.armour[seat.id])
        if drawn:
            self.tell(seat.id, "fm.drew", cards=[i.kind for i in drawn])

    def _extra_draws(self, *, after_damage: bool) -> None:
        """§11 ``advice``/``coffee`` draw with the other card movements (L6, "extra draws"), so their cards can be
        lost to this phase's damage; ``first_aid`` draws "after damage" (L8, after the damage discards)."""
        for play in self.live():
            eff = play.effect
            if not eff.get("draw") or eff.get("when") == "now" or (eff.get("after") == "damage") != after_damage:
                continue
            who = play.seat if eff.get("self") else play.final_target
            if not self.alive.get(who):
                continue
            drawn = self.c[who].draw("hand", int(eff["draw"]))
            self.trace("L8" if after_damage else "L6", "draw", player=self.name(who), card=play.kind,
                       cards=[i.kind for i in drawn], source=self.name(play.seat))
            self.tell(who, "fm.drew", cards=[i.kind for i in drawn])

    def _monks(self) -> None:
        for seat in self.seats:  # FM-8 monk: ends a phase with 1 or 2 Hand cards → draws 1
            if seat.alive and _public_role(seat) == "monk" and 1 <= len(self.c[seat.id].hand) <= 2:
                drawn = self.c[seat.id].draw("hand", 1)
                self.trace("L8", "draw", player=seat.name, card=None, cards=[i.kind for i in drawn], source="monk")
                self.tell(seat.id, "fm.drew", cards=[i.kind for i in drawn])

    def _deaths(self) -> dict[int, bool]:
        deaths: dict[int, bool] = {}
        for seat in self.seats:
            if seat.alive and seat.id in self.killed:  # FM-8 assassin: killed whatever his Hand holds
                deaths[seat.id] = False
                self.alive[seat.id] = False
                self.public("fm.death", player=seat.name)
                self.tell(seat.id, "fm.you_died", phase_kind=self.phase.kind, number=self.phase.number,
                          cause="assassin")
                self.trace("L8", "death", player=seat.name)
                continue
            if not seat.alive or self.c[seat.id].hand:
                continue
            stand = [p for p in self.live("last_stand") if p.seat == seat.id]
            lost = self.lost_this_phase[seat.id]
            if stand and lost:
                kept = self.c[seat.id].move(lost[-1].uid, "hand")
                self.trace("L8", "last_stand", player=seat.name, cards=[kept.kind])
                self.tell(seat.id, "fm.last_stand", cards=[kept.kind])
                continue
            deaths[seat.id] = False
            self.alive[seat.id] = False
            self.public("fm.death", player=seat.name)
            self.tell(seat.id, "fm.you_died", phase_kind=self.phase.kind, number=self.phase.number, cause="hand")
            self.trace("L8", "death", player=seat.name)
        self.died_now = list(deaths)
        return deaths

    def _ability_aftermath(self, deaths: Mapping[int, bool]) -> None:
        """After the deaths of L8: the maniac's draws (FM-3.3), the joker's knowledge of the dead (FM-3.3), the
        hero's goals (FM-3.3)."""
        for dead in deaths:
            for maniac in self.seats:
                if (self.night and self.alive[maniac.id] and maniac.data.get("secret_role") == "maniac"
                        and maniac.id in self.damaged_by.get(dead, [])):
                    drawn = self.c[maniac.id].draw("sleeve", abilities.MANIAC_DRAWS)
                    self.trace("L8", "draw", player=maniac.name, card=None, cards=[i.kind for i in drawn],
                               source="maniac")
                    self.tell(maniac.id, "fm.drew_sleeve", cards=[i.kind for i in drawn])
            for joker in self.seats:
                if self.alive[joker.id] and joker.data.get("secret_role") == "joker":
                    self.tell(joker.id, "fm.joker_knows", player=self.name(dead),
                              role=self.by_id[dead].data.get("secret_role", ""))
        self._hero_goals(deaths)

    def _hero_goals(self, deaths: Mapping[int, bool]) -> None:
        met: list[tuple[int, str]] = []
        for target, (hero, armour) in self.hero_armour.items():  # goal (a): his armour saved a Law member
            seat = self.by_id[target]
            if not self.alive[target] or SECRET_ROLES.get(seat.data.get("secret_role", "")) is None or \
                    SECRET_ROLES[seat.data["secret_role"]].faction != LAW or target not in self.dmg_parts:
                continue
            normal, pierce = self.dmg_parts[target]
            without = max(0, normal - (self.armour[target] - armour)) + pierce
            if len(self.c[target].hand) - (without - self.losses[target]) <= 0:
                met.append((hero, "armour"))
        if self.phase.kind == DAY:  # goal (b): a marked mafioso dies as a result of a day
            for dead in deaths:
                hero = (self.fm.get("hero_marks") or {}).get(str(dead))
                if hero is not None and SECRET_ROLES.get(self.by_id[dead].data.get("secret_role", ""), None) \
                        and SECRET_ROLES[self.by_id[dead].data["secret_role"]].faction == MAFIA:
                    met.append((int(hero), "mark"))
        if not met:
            return
        if abilities.mafia_plus_traitor_at_least_rest(self.seats, self.alive):
            self.trace("L8", "hero_goal_not_counted", goals=[g for _h, g in met])
            return
        for hero, goal in met:
            goals = self.fm.setdefault("hero_goals", {}).setdefault(str(hero), [])
            if goal in goals:
                continue
            goals.append(goal)
            self.trace("L8", "hero_goal", player=self.name(hero), goal=goal)
            self.tell(hero, "fm.hero_goal", goal=goal)
            if len(goals) == 2:  # both goals: he wins at once (even if dead) and, if alive, leaves the game
                self.fm.setdefault("left", {})[str(hero)] = "won"
                if not self.alive[hero]:
                    continue
                self.alive[hero] = False
                self.left_now[hero] = False
                self.public("fm.hero_left", player=self.name(hero))

    def _mafia_messages(self) -> None:
        for use in self.abilities_of("mafia", "message"):  # FM-3.1, FM-9.6: once, recharged by a rebuild
            self.mark_used(use.seat, "mafia_message")
            if not self.alive.get(use.target) or use.target in self.jammed:
                self.trace("L8", "message_lost", player=self.name(use.seat), target=self.name(use.target),
                           card=None, dead=not self.alive.get(use.target))
                continue
            self.tell(use.target, "fm.mafia_message", text=use.text)
            self.trace("L8", "message", player=self.name(use.seat), target=self.name(use.target), card=None,
                       text=use.text)

    def _veche(self) -> None:
        """FM-7.1–7.6 at L5: count the day's votes; execute (6 damage, with armour and other damage) or jail."""
        extra: dict[int, float] = {}
        for play in self.live():  # §11 negotiation: +1 strength today (secret, so only in the result)
            if play.effect.get("vote_bonus"):
                extra[play.seat] = extra.get(play.seat, 0.0) + float(play.effect["vote_bonus"])
        result = veche.tally(seats=self.seats, votes=self.votes, extra=extra)
        for seat_id, vote in self.votes.items():
            if vote.get("prosecutor_bonus"):
                self.mark_used(seat_id, "prosecutor")
        leader = result["leader"]
        punishment = result["punishment"]
        if leader is not None and self.by_id[leader].data.get("public_role") == "politician":
            if punishment == veche.EXECUTION and "politician_led" not in abilities.used(self.fm, leader):
                punishment = veche.JAIL  # FM-7.6: the politician's first lead is jail
            self.mark_used(leader, "politician_led")
        public = {"outcome": result["outcome"], "leader": self.name(leader) if leader else None,
                  "punishment": punishment, "peace": result["peace"], "cast": result["cast"],
                  "candidates": [{"player": c["player"], "strength": c["strength"], "voters": c["voters"]}
                                 for c in result["candidates"]]}
        self.public("fm.veche", **public)
        self.trace("L5", "veche", **public)
        if leader is None:
            return
        if punishment == veche.EXECUTION:
            self.hits.append(_Hit(0, leader, veche.EXECUTION_DAMAGE, False, "veche", card=False))
        else:
            self.jailed_now = leader

    def _jail(self, seat_id: int) -> None:
        """FM-7.5 at L6: the Sleeve is emptied except aces and role cards; a maniac keeps one more of his choice
        (his vote's ``keep``, else the first such card **[house]**)."""
        c = self.c[seat_id]
        keep = [i.uid for i in c.sleeve if i.kind == "ace" or i.provenance in ROLE_PROVENANCES]
        if self.by_id[seat_id].data.get("secret_role") == "maniac":
            choice = (self.votes.get(seat_id) or {}).get("keep")
            rest = [i for i in c.sleeve if i.uid not in keep]
            picked = next((i for i in rest if i.uid == choice or i.kind == choice), rest[0] if rest else None)
            if picked is not None:
                keep.append(picked.uid)
        lost = [i for i in list(c.sleeve) if i.uid not in keep]
        for inst in lost:
            c.discard_card(inst.uid, "sleeve")
        self.public("fm.jailed", player=self.name(seat_id), phases=JAIL_PHASES)
        self.trace("L6", "jail", player=self.name(seat_id), cards=[i.kind for i in lost])
        self.tell(seat_id, "fm.sleeve_lost", cards=[i.kind for i in lost])

    def _rooms(self) -> None:
        """FM-9.3 at the end of the day: the agreed rooms open for the members (a group) until the next night ends."""
        for room in rooms.form_rooms(seats=self.seats, proposals=self.proposals, alive=self.alive, phase=self.phase):
            self.groups[room["slug"]] = room["members"]
            self.fm.setdefault("rooms", {})[room["slug"]] = {"members": room["members"], "until": room["until"]}
            if room["conspiracy"]:
                self.mark_used(room["by"], "conspirator")
            names = [self.name(m) for m in room["members"]]
            for m in room["members"]:
                self.tell(m, "fm.room_created", room=room["slug"], players=names, lasting=room["until"] is None)
            self.trace("L8", "room", room=room["slug"], players=names, lasting=room["until"] is None)

    def _interrogations(self) -> None:
        for play in self.live():
            if play.effect.get("publish"):
                c = self.c[play.final_target]
                self.public("fm.interrogation", target=self.name(play.final_target), sleeve_count=len(c.sleeve),
                            deck_count=len(c.deck))

    def _messages(self) -> None:
        for play in self.live():
            if not play.effect.get("message"):
                continue
            target = play.final_target
            if not self.alive.get(target) or target in self.jammed:
                self.trace("L8", "message_lost", player=self.name(play.seat), target=self.name(target),
                           card=play.kind, dead=not self.alive.get(target))
                continue
            self.tell(target, "fm.message", text=play.text, card=play.kind)
            self.trace("L8", "message", player=self.name(play.seat), target=self.name(target), card=play.kind,
                       text=play.text)

    def _carry_over(self) -> None:
        fm = self.fm
        ordinal = self.phase.ordinal
        poison = [e for e in fm["poison"] if int(e["last"]) > ordinal and self.alive.get(int(e["target"]))]
        for play in self.live():
            delayed = play.effect.get("delayed_damage")
            if delayed and self.alive.get(play.final_target):
                poison.append({"target": play.final_target, "source": play.seat, "amount": int(delayed["amount"]),
                               "first": ordinal + 1, "last": ordinal + int(delayed["phases"])})
                self.trace("L8", "poisoned", player=self.name(play.final_target), phases=int(delayed["phases"]))
        fm["poison"] = poison
        fm["jail"] = {k: v - 1 for k, v in fm["jail"].items() if int(v) - 1 > 0}
        if self.jailed_now is not None:  # FM-7.5: no targeted cards for the next 4 phases
            fm["jail"][str(self.jailed_now)] = JAIL_PHASES
        for dead in self.died_now:  # FM-8 avenger: "the one who died last"
            fm.setdefault("death_order", []).append([ordinal, dead])
        fm["handcuffs"] = {k: v for k, v in fm["handcuffs"].items()
                           if not self.night or int(v) > self.phase.number}
        for play in self.live():
            if play.effect.get("forbid") == "targeted_plays":
                number = self.phase.number + (1 if self.phase.kind == DAY else 0)
                fm["handcuffs"][str(play.final_target)] = number
                self.trace("L8", "handcuffs", player=self.name(play.final_target), night=number)
        if self.night:
            fm["last_night"] = {}
            for play in self.plays:  # FM-8: role cards don't ground an accusation
                if play.provenance not in ROLE_PROVENANCES:
                    fm["last_night"].setdefault(str(play.seat), []).append(play.kind)
        for play in self.plays:
            for target in ([play.final_target] if play.final_target is not None else []) + list(play.targets):
                fm["last_played_on"][str(target)] = play.kind

    def _victory(self) -> Outcome | None:
        """FM-10, checked at L8 of every phase (FM-10.6)."""
        winner, outcome = check_victory(self.seats, self.alive, self.fm, self.rng)
        self.trace("L8", "victory_check", winner=winner, alive=[s.name for s in self.seats if self.alive[s.id]])
        if outcome is not None:
            self.public("fm.victory", winner=winner, players=[self.name(s) for s in outcome.winning_seats])
        return outcome

    def _stalemate(self) -> Outcome | None:
        """FM-10.H1 [house]: count the phases in a row that end with no death and nothing left that can harm
        (:func:`harm_sources`); at the game's limit the game is a draw, announced with the reason."""
        limit = stalemate_limit(self.state)
        before = int(self.fm.get("quiet_phases", 0))
        died = bool(self.died_now or self.left_now)
        sources = harm_sources(self.seats, self.alive, self.fm, self.collection, self.c, first=True) \
            if limit and not died else []
        quiet = limit > 0 and not died and not sources
        count = before + 1 if quiet else 0
        self.fm["quiet_phases"] = count
        if quiet or before:  # the master sees the count run and what stopped it; nobody else learns who holds what
            self.trace("L8", "stalemate_count", count=count, limit=limit, death=died,
                       harm=[{"player": self.name(sid), "what": what} for sid, what in sources])
        if not quiet or count < limit:
            return None
        self.public("fm.draw", phases=count, rule=STALEMATE_RULE)
        return Outcome([], [], draw=True)

    def seat_data(self) -> dict[int, dict]:
        """The new data of every seat whose cards changed in this phase (the others keep theirs)."""
        changed = {}
        for s in self.seats:
            c = self.c[s.id]
            if (c.hand, c.sleeve, c.deck, c.discard, c.next_uid) != self.before[s.id]:
                changed[s.id] = {**s.data, "cards": c.to_dict()}
        return changed


def resolve(*, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo],
            orders: Mapping[int, Mapping[str, Any]], rng: random.Random) -> Resolution:
    """Resolve a night or day (FM-5.8, FM-6 L0–L8) from the last order of each living seat (``orders``: seat id →
    payload as returned by :func:`validate_order`). Returns the core's :class:`Resolution` with the new state,
    every seat's data, deaths (FM-6.2), the events in trace order and the next phase — or the outcome (FM-10).
    Never raises for an illegal order: it is voided with its reason (L0/L1)."""
    r = _Resolver(state=state, phase=phase, seats=seats, rng=rng)
    r.l0_intake(orders)
    try:
        r.l1_price()
    except ContainerError as exc:  # pragma: no cover - L0 checked every uid; a bug here must not lose the phase
        r.trace("L1", "error", detail=str(exc))
    r.l2_control()
    r._live = [p for p in r.plays if p.live]
    r.l3_redirect()
    r.l4_protection()
    r.l5_damage()
    r.l6_movement()
    deferred = r.l7_information()
    deaths, outcome = r.l8_end(deferred)
    deaths = {**deaths, **r.left_now}
    new_state = {**state, "fm": r.fm}
    if outcome is not None:
        seat_data = r.seat_data()
        for seat in r.seats:  # every seat's own result, for its owner's page and the reveal
            seat_data[seat.id] = {**seat_data.get(seat.id, seat.data), "result": seat_result(outcome, seat.id)}
        return Resolution(new_state, r.events, seat_data, deaths, groups=r.groups, outcome=outcome)
    nxt = PhaseSpec(DAY, phase.number) if phase.kind == NIGHT else PhaseSpec(NIGHT, phase.number + 1)
    return Resolution(new_state, r.events, r.seat_data(), deaths, groups=r.groups, next_phase=nxt)


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
    if card is None:
        return False
    eff = card.effect
    damages = bool(eff.get("damage") or eff.get("delayed_damage"))
    return bool(eff.get("steal")) or (damages and not hero)


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
    it, and a rebuilt deck with a harmful card stops the count.

    ``containers``: seat id → the seat's cards now (default: read from the seat data); ``first``: stop at the
    first source found (the count needs no more)."""
    found: list[tuple[int, str]] = []
    living = [s for s in sorted(seats, key=lambda s: s.position) if alive.get(s.id)]
    if len(living) >= 3:
        found.append((0, "veche"))
    ids = {s.id for s in living}
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
        if seat.data.get("public_role") == "assassin" and "assassin" not in abilities.used(fm, seat.id):
            found.append((seat.id, "assassin"))
            continue
        c = (containers or {}).get(seat.id) or Containers.from_dict(seat.data.get("cards"))
        held = (*c.hand, *c.sleeve, *c.deck)
        # FM-5.7: a card whose price can never be paid can never be played. The Sleeve only grows through cards
        # that fill it (stash, reserve, a returning unlimited_plan); the cultist pays up to two from the Hand.
        fills = any(sleeve_filler(collection.kinds.get(i.kind)) for i in held)
        extra = 2 if _public_role(seat) == "cultist" else 0
        for inst in held:
            card = collection.kinds.get(inst.kind)
            if not harmful_card(card, hero=role == "hero"):
                continue
            payers = sum(1 for i in c.sleeve if i.uid != inst.uid and _can_pay(i, collection))
            if card.price <= payers + extra or fills:
                found.append((seat.id, inst.kind))
                break
    return found[:1] if first else found


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
