"""Forum Mafia's bots for the balance report (``ForumMafiaModule.balance_policy``, ``gm.core.balance``): the playtest
bots' choices (:mod:`.playtest.bots`) played straight on the pure engine, with no HTTP and no database.

* Signups (FM-2): every seat claims a different public role at random (a custom role once they run out).
* Deck building (FM-4.5): nobody submits a deck, so the deck builder deals each seat a random valid deck.
* Nights and days (FM-5): each living seat orders :func:`.playtest.bots.choose_order` among the plays the engine's
  :func:`.engine.orders.order_options` marks playable; by day it also votes (FM-7) as the playtest bots do — mostly
  for the leader of the public tally so far (the seats vote one after another in a random order), rarely for peace,
  mostly for execution — a vote the engine's :func:`.engine.veche.check_vote` refuses is replaced by peace.
* A seat whose deck ran out rebuilds it at once (FM-4.7, :func:`.engine.abilities.apply_rebuild`) from the random
  valid deck with the most weapons (:func:`.playtest.bots.weapons`), as the playtest bots do.

Sides: ``law``, ``mafia``, ``maniac``, ``avenger`` (FM-10); a game counts for its main winner (the joker's and the
hero's own wins are in the report's ``winners``). End kinds: ``law``/``mafia``/``maniac``/``avenger`` (the side that
won), ``stalemate`` (FM-10.H1), ``nobody`` (no winner left).
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from cards.collection_data import default_collection
from cards.deckrules import DeckRules, random_valid_deck, rules_for
from cards.domain import Collection
from gm.core.balance import SimPolicy
from gm.core.engine import Outcome, PhaseInfo, Resolution, SeatInfo

from .engine import abilities, veche
from .engine.orders import order_options
from .engine.roles import PUBLIC_ROLES
from .engine.state import DAY, DECKBUILDING, NIGHT, fm_state
from .playtest.bots import REBUILD_TRIES, VOTING, choose_order, weapons

SIDES = ("law", "mafia", "maniac", "avenger")


#: Random valid decks kept per set of deck rules in one report: a bot's deck is one of them, so the deck builder's
#: random search (a few milliseconds a deck) runs a few hundred times per report instead of for every seat of
#: every game.
DECK_POOL = 20


class Context:
    """What every game of one report shares: the collection (the shipped §11 one, as a new game snapshots it,
    FM-4.2), its snapshot, each card's colour, and the pools of random valid decks by deck rules."""

    def __init__(self, collection: Collection):
        self.collection = collection
        self.snapshot = collection.snapshot()
        self.version = collection.version
        self.weapons = weapons([{"slug": slug, "effect": kind.effect} for slug, kind in collection.kinds.items()])
        self.pools: dict[DeckRules, dict[int, list[str]]] = {}

    def deck(self, seat: SeatInfo, rng: random.Random) -> list[str]:
        """A random valid deck (slugs) for ``seat``'s FM-4.3 deck rules: deck ``i`` (chosen with ``rng`` among
        :data:`DECK_POOL`) of its rules' pool, made on first use from a seed of its own (the rules and ``i``), so the
        same game gets the same deck whatever was played before it."""
        public = seat.data.get("public_role")
        rules = rules_for(secret_role=seat.data["secret_role"], public_role=public if isinstance(public, str) else None,
                          joker_colours=seat.data.get("joker_colours"))
        # The role names only label the rules (the limits and colours decide): equal limits share one pool.
        key = dataclasses.replace(rules, secret_role="", public_role=None)
        index = rng.randrange(DECK_POOL)
        pool = self.pools.setdefault(key, {})
        if index not in pool:
            # Sorted, not the frozenset's own order: string hashes (and so set order) differ between processes.
            fields = [sorted(v) if isinstance(v, frozenset) else v for v in dataclasses.astuple(key)]
            maker = random.Random(f"decks:{fields}:{index}")
            pool[index] = [e["kind"] for e in random_valid_deck(collection=self.collection, rules=rules, rng=maker)]
        return pool[index]


class ForumMafiaSim(SimPolicy):
    """Forum Mafia's balance bots (see the module docstring)."""

    sides = SIDES
    default_players = 16
    phase_cap = 60  # the playtest's cap (gm.core.playtest.runner.DEFAULT_PHASE_CAP)
    #: The engine checks every order again at its intake (FM-6 L0) and voids what is illegal, as it would a refused
    #: order; checking each first would only double the time of a report.
    validate = False

    def prepare(self, *, players: int, options: Mapping[str, Any]) -> Context:
        return Context(default_collection())

    def seats(self, *, players: int, rng: random.Random, context: Any = None) -> list[SeatInfo]:
        """FM-2: a different public role for each seat while there are any, then custom roles."""
        roles: list[Any] = [r.slug for r in PUBLIC_ROLES]
        rng.shuffle(roles)
        roles += [{"custom": f"Bot role {i + 1}"} for i in range(max(0, players - len(roles)))]
        return [SeatInfo(id=i + 1, name=f"Bot {i + 1}", position=i, data={"public_role": roles[i]})
                for i in range(players)]

    def start(self, *, state: dict, context: Any = None) -> dict:
        return {**state, "collection": context.snapshot, "collection_version": context.version}

    def instant(self, *, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo], rng: random.Random,
                context: Any = None) -> tuple[dict, dict[int, dict]] | None:
        """Deck building (FM-4.5): every seat but a joker (who would choose his colours first) submits a random valid
        deck. Nights and days (FM-4.7): every living seat whose deck is empty while a ``mulligan`` sits in its Hand
        rebuilds it now, with the deck of most weapons among :data:`.playtest.bots.REBUILD_TRIES`."""
        if phase.kind == DECKBUILDING:
            return dict(state), {s.id: {**s.data, "deck_list": [{"kind": k} for k in context.deck(s, rng)]}
                                 for s in seats if s.data.get("secret_role") != "joker"}
        if phase.kind not in (NIGHT, DAY):
            return None
        new_state: dict | None = None
        changed: dict[int, dict] = {}
        for seat in seats:
            if not seat.alive:
                continue
            cards = seat.data.get("cards") or {}
            if cards.get("deck") or not any(c.get("kind") == "mulligan" for c in cards.get("hand", [])):
                continue
            decks = [context.deck(seat, rng) for _ in range(REBUILD_TRIES)]
            deck = max(decks, key=lambda d: sum(k in context.weapons for k in d))
            result = abilities.apply_rebuild(state=new_state or state, seat=seat, deck_list=deck,
                                             collection=context.collection, rng=rng)
            if not result.problems:
                new_state = result.state
                changed.update(result.seat_data)
        return (new_state or dict(state), changed) if changed else None

    def orders(self, *, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo], rng: random.Random,
               context: Any = None) -> dict[int, dict]:
        if phase.kind not in (NIGHT, DAY):
            return {}
        living = [s for s in seats if s.alive]
        if phase.kind == DAY:
            rng.shuffle(living)  # the order the votes come in; the count each seat sees is the public tally so far
        by_id = {s.id: s for s in seats}
        fm = fm_state(state)
        out: dict[int, dict] = {}
        votes: dict[int, dict] = {}
        for seat in living:
            options = order_options(state=state, phase=phase, seat=seat, seats=seats)
            payload = choose_order(options, phase.kind, rng, context.weapons)
            if phase.kind == DAY:
                vote = self._vote(options, seats, votes, rng)
                clean, problem = veche.check_vote(vote, phase=phase, seat=seat, by_id=by_id, fm=fm)
                if problem is not None:
                    clean = {"for": veche.PEACE}
                votes[seat.id] = clean
                payload = {**payload, "vote": clean}
            if payload:
                out[seat.id] = payload
        return out

    @staticmethod
    def _vote(options: dict, seats: Sequence[SeatInfo], votes: Mapping[int, dict], rng: random.Random) -> dict:
        """A vote as the playtest bots give it (:data:`.playtest.bots.VOTING`): the strongest candidate of the tally so
        far it may vote for, else a random target; rarely peace; mostly execution."""
        targets = [t["id"] for t in options.get("targets", [])]
        target: Any = None
        roll = rng.random()
        if roll < VOTING["peace"] or not targets:
            target = veche.PEACE
        elif roll < VOTING["peace"] + VOTING["bandwagon"] and votes:
            allowed = set(targets)
            count = veche.tally(seats=seats, votes=votes)
            target = next((c["seat"] for c in count["candidates"] if c["seat"] in allowed), None)
        if target is None:
            target = rng.choice(targets)
        if target == veche.PEACE:
            return {"for": veche.PEACE}
        return {"for": target, "punishment": veche.JAIL if rng.random() < VOTING["jail"] else veche.EXECUTION}

    def side(self, outcome: Outcome) -> str | None:
        """The main winner (FM-10: ``law``, ``mafia``, ``maniac`` or ``avenger``); the joker's or the hero's own win
        alone, a draw (FM-10.H1) or nobody left count as no side."""
        if outcome.draw:
            return None
        return next((w for w in outcome.winners if w in SIDES), None)

    def end_kind(self, *, state: Mapping[str, Any], resolution: Resolution) -> str:
        outcome = resolution.outcome
        if outcome is None or outcome.draw:
            return "stalemate"
        return self.side(outcome) or "nobody"

