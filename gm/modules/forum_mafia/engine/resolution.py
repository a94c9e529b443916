"""Forum Mafia night/day resolution: the layers L0–L8 (FM-6) and every card of §11.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cards.containers import ContainerError, Containers
from cards.deckrules import SECRET_ROLE_COLOURS
from cards.domain import CardInstance
from gm.core.engine import Event, Outcome, PhaseInfo, PhaseSpec, Resolution, SeatInfo

from . import abilities, rooms, veche
from .orders import REASONS, Play, _Checker
from .roles import LAW, MAFIA, SECRET_ROLES
from .state import (
    DAY,
    HIGHLANDER_CAP,
    IDLER_ARMOUR,
    JAIL_PHASES,
    NIGHT,
    REDIRECTABLE,
    ROLE_PROVENANCES,
    WARRIOR_DIVERTS,
    fm_state,
    game_collection,
    public_role,
    used,
)
from .victory import STALEMATE_RULE, check_victory, harm_sources, seat_result, stalemate_limit


def _(s: str) -> str:
    return s



# ---------------------------------------------------------------------------------------------- resolution


def _aim(play: Play) -> int:
    """The seat a one-target play's effect lands on after L3, for the effects that need a seat to act on (steal,
    discard, recon, interrogation). The collection's effect spec puts them on the target of a card that has one: L0
    refused such a play without a target and L3 only moves it to another seat, so it is never missing here."""
    assert play.final_target is not None, play.kind
    return play.final_target


def _on(use: abilities.AbilityUse) -> int:
    """The target of a phase ability of :data:`.abilities.TARGETED_ABILITIES` (L0 refused such a use without one)."""
    assert use.target is not None, use.ability
    return use.target


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
            raws: dict[str, list] = {}
            for group in ("plays", "abilities"):
                raw_group = payload.get(group)
                raws[group] = raw_group if isinstance(raw_group, list) else []
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
                paid_card = c.discard_card(use.pay, "sleeve")
                self.trace("L1", "price", player=self.name(use.seat), card=None, cards=[paid_card.kind])
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
            if self.night and seat.alive and public_role(seat) == "idler" and seat.id not in idlers:
                self.armour[seat.id] += IDLER_ARMOUR
                self.trace("L4", "armour", player=seat.name, amount=IDLER_ARMOUR, card=None, source="idler")
        for use in self.abilities_of("maniac", "armour"):
            self.armour[use.seat] += abilities.MANIAC_ARMOUR
            self.trace("L4", "armour", player=self.name(use.seat), amount=abilities.MANIAC_ARMOUR, card=None,
                       source="maniac")
        for use in self.abilities_of("hero", "armour"):
            self.armour[_on(use)] += abilities.HERO_ARMOUR
            self.hero_armour[_on(use)] = (use.seat, abilities.HERO_ARMOUR)
            self.trace("L4", "armour", player=self.name(use.target), amount=abilities.HERO_ARMOUR, card=None,
                       source=self.name(use.seat))
        for play in self.plays:
            if not play.live:
                continue
            eff = play.effect
            to = play.seat if eff.get("self") else play.final_target
            if to is None:  # neither on its player nor on a target (redirect, no-target cards): protects nobody
                continue
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
            if eff.get("block"):
                self.jammed.add(to)

    # -- L5 damage ----------------------------------------------------------------------------------------
    def _targeted_by(self, seat_id: int) -> set[int]:
        return {p.final_target for p in self.plays if p.seat == seat_id and p.targeted and p.final_target}

    def l5_damage(self) -> None:
        for entry in self.fm["poison"]:  # delayed damage of earlier phases (§11 poison)
            poisoned = int(entry["target"])
            if self.alive.get(poisoned) and int(entry["first"]) <= self.phase.ordinal <= int(entry["last"]):
                self.hits.append(_Hit(int(entry["source"]), poisoned, int(entry["amount"]), False, "poison"))
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
            if target is None:  # a damage card of the snapshot without a target hits nobody
                continue
            amount = int(eff["damage"])
            bonus = eff.get("bonus_damage")
            if bonus and bonus.get("if") == "target_targeted_you" and play.seat in self._targeted_by(target):
                amount += int(bonus["amount"])
            self.hits.append(_Hit(play.seat, target, amount, bool(eff.get("pierce")), play.kind))
        if self.phase.kind == DAY:
            self._veche()
        for use in self.abilities_of("maniac", "damage"):
            self.hits.append(_Hit(use.seat, _on(use), abilities.MANIAC_DAMAGE, False, "maniac", card=False))
        for use in self.abilities_of("assassin"):
            self.killed[_on(use)] = use.seat
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
            if public_role(seat) == "highlander" and self.night:  # FM-8: at most 6 from others' cards a night
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
        played = self.fm["last_night"].get(str(target), [])  # keyed by seat id: no entry for a missing target
        hit = play.named_card in played
        if hit and target is not None:
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
            victim, thief = self.c[_aim(play)], self.c[play.seat]
            if not victim.hand:
                self.trace("L6", "steal_nothing", player=self.name(play.seat), target=self.name(play.final_target))
                continue
            taken = thief.take_from(victim, victim.random_uid(self.rng, "hand"), "hand", "hand")
            self.trace("L6", "steal", player=self.name(play.seat), target=self.name(play.final_target),
                       cards=[taken.kind])
            self.tell(play.seat, "fm.stole", target=self.name(play.final_target), cards=[taken.kind])
            self.tell(_aim(play), "fm.stolen_from", cards=[taken.kind])
        for play in self.live():
            eff = play.effect
            if not (eff.get("discard") and eff.get("from") in ("sleeve", "deck")):
                continue
            target = _aim(play)
            if eff["from"] == "sleeve":
                lost = self.c[target].discard_first_from_sleeve(int(eff["discard"]))
                self.trace("L6", "sleeve_discard", player=self.name(target), cards=[i.kind for i in lost],
                           card=play.kind)
                self.tell(target, "fm.sleeve_lost", cards=[i.kind for i in lost])
            else:
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
            self.c[_on(use)].add("ace", "sleeve", "role", collection=self.collection)
            self.trace("L6", "ace", player=self.name(use.seat), target=self.name(use.target))
            self.tell(_on(use), "fm.ace_received", cards=["ace"])

    @staticmethod
    def _in(c: Containers, uid: int, container: str) -> bool:
        return any(i.uid == uid for i in getattr(c, container))

    # -- L7 information -----------------------------------------------------------------------------------
    def l7_information(self) -> list[tuple[Play, dict]]:
        """Recon results now; ``wiretap`` reads the Hand at the end of the phase, so it is only noted here."""
        deferred: list[tuple[Play, dict]] = []
        for play in self.plays:
            learn = play.effect.get("learn")
            if not learn or not play.live:
                continue
            if learn == "hand":
                deferred.append((play, {}))
                continue
            target = _aim(play)
            result = self._learn(learn, play, target)
            self._deliver_recon(play, target, result)
        for use in self.abilities_of("joker", "hr"):  # FM-3.3: the hr_department effect, outside the slots
            stand_in = Play(seat=use.seat, index=use.index, kind="hr_department", source="", uid=0,
                            card=self.collection["hr_department"], free=True, final_target=use.target)
            self._deliver_recon(stand_in, _on(use), self._learn("role_colours", stand_in, _on(use)))
        for use in self.abilities_of("hero", "mark"):  # FM-3.3: a right guess marks the target, silently
            right = self.by_id[_on(use)].data.get("secret_role") == use.guess
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
            target = _aim(play)
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
        if public_role(seat) == "warrior":  # FM-8: his first two damage discards go to the Sleeve
            done = int(self.fm["warrior_diverted"].get(str(seat.id), 0))
            diverted = max(0, WARRIOR_DIVERTS - done)
        lost = c.discard_front(discard, to_sleeve=diverted) if discard else []
        if public_role(seat) == "warrior" and lost:
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
            if who is None or not self.alive.get(who):
                continue
            drawn = self.c[who].draw("hand", int(eff["draw"]))
            self.trace("L8" if after_damage else "L6", "draw", player=self.name(who), card=play.kind,
                       cards=[i.kind for i in drawn], source=self.name(play.seat))
            self.tell(who, "fm.drew", cards=[i.kind for i in drawn])

    def _monks(self) -> None:
        for seat in self.seats:  # FM-8 monk: ends a phase with 1 or 2 Hand cards → draws 1
            if seat.alive and public_role(seat) == "monk" and 1 <= len(self.c[seat.id].hand) <= 2:
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
                marked_by = (self.fm.get("hero_marks") or {}).get(str(dead))
                if marked_by is not None and SECRET_ROLES.get(self.by_id[dead].data.get("secret_role", ""), None) \
                        and SECRET_ROLES[self.by_id[dead].data["secret_role"]].faction == MAFIA:
                    met.append((int(marked_by), "mark"))
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
            target = _on(use)
            if not self.alive.get(target) or target in self.jammed:
                self.trace("L8", "message_lost", player=self.name(use.seat), target=self.name(target),
                           card=None, dead=not self.alive.get(target))
                continue
            self.tell(target, "fm.mafia_message", text=use.text)
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
            if punishment == veche.EXECUTION and "politician_led" not in used(self.fm, leader):
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
                c = self.c[_aim(play)]
                self.public("fm.interrogation", target=self.name(play.final_target), sleeve_count=len(c.sleeve),
                            deck_count=len(c.deck))

    def _messages(self) -> None:
        for play in self.live():
            if not play.effect.get("message"):
                continue
            target = play.final_target
            if target is None or not self.alive.get(target) or target in self.jammed:
                self.trace("L8", "message_lost", player=self.name(play.seat), target=self.name(target),
                           card=play.kind, dead=target is None or not self.alive.get(target))
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
            target = play.final_target
            if delayed and target is not None and self.alive.get(target):
                poison.append({"target": target, "source": play.seat, "amount": int(delayed["amount"]),
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
