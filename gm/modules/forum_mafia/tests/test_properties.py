"""Hypothesis stateful tests of the forum Mafia resolution engine (``gm/modules/forum_mafia/engine/``).

A :class:`FMTableMachine` deals a random table — 5 to 16 seats, secret roles from the FM-3.4 table or at random
(Mafia, Law, maniac, traitor, joker, hero), random public roles (FM-8 slugs and a few custom ones), random Hands,
Sleeves (role cards included) and decks (empty ones too, so draws give ``mulligan``), a few seats already dead
and some pending carry-over state (poison, jail, handcuffs) — then plays phase after phase. Each step gives every
living seat a random order built from :func:`order_options` (plus deliberately illegal ones that must
be refused with :class:`RuleViolation`), resolves the phase with a seeded ``random.Random`` and applies the
:class:`Resolution` the way the shell does (seat data, deaths, state, the next phase) until the game ends.

After every phase the named invariants check the last transition:

* ``cards_are_conserved`` (FM-4.6, FM-4.7, §11 ``pickpocket``): a seat's instances change only by steals (the
  victim loses exactly the stolen card, the thief gains it) and by draws from an empty deck (each creates one
  ``mulligan``, counted from the draw trace); the grand total grows by exactly the mulligans created;
* ``dead_characters_never_act`` (FM-6.2): no order, play, trace step or message for a seat dead before the phase,
  and its data does not change;
* ``armour_never_carries_over`` (FM-6 L5): the armour of every ``fm.t_damage`` is the sum of this phase's
  ``fm.t_armour`` for that player — 0 in a phase without armour;
* ``published_hand_counts_are_real`` (FM-5.1): the public ``fm.hand_counts`` lists exactly the living seats with
  their real Hand sizes;
* ``resolution_is_deterministic`` (FM-3.5, reproducibility): the same snapshot, orders and seed give the same
  :class:`Resolution`, and ``resolve`` does not change its inputs;
* ``deaths_are_empty_hands`` (FM-6.2), ``accepted_orders_are_not_voided`` (L0 agrees with submission) and
  ``phase_sequence`` (FM-1.3).

"A phase never resolves twice" is a property of the shell: ``test_resolution_worker.py``.

Default run: 50 tables × up to 10 phases. ``HYPOTHESIS_PROFILE=soak`` runs 1000 × 30 (about 7 minutes).
"""
from __future__ import annotations

import copy
import dataclasses
import os
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from cards.collection_data import default_collection
from cards.containers import Containers
from cards.deckrules import ROLE_COLOURS
from gm.core.engine import PhaseInfo, Resolution, RuleViolation, SeatInfo
from gm.modules.forum_mafia.engine import opening, resolution, table
from gm.modules.forum_mafia.engine.orders import order_options, validate_order
from gm.modules.forum_mafia.engine.roles import PUBLIC_ROLES, SECRET_ROLES

COLLECTION = default_collection()
ALL_KINDS = sorted(COLLECTION.kinds)
#: Decks are built from the collection (FM-4.3): no ``special`` kinds, so every ``mulligan`` drawn was created.
DECK_KINDS = [k.slug for k in COLLECTION.buildable()]
PUBLIC_SLUGS = [r.slug for r in PUBLIC_ROLES]
SECRET_SLUGS = sorted(SECRET_ROLES)
TEXTS = ["Meet me at dawn.", "Я знаю, кто ты.", "  trust no one  "]
LINK_TEXTS = ["see https://example.com", "write to boss@mafia.ru", "see page 12"]
#: Trace steps that record draws (the ``mulligan`` entries among them are the instances a draw created).
DRAW_STEPS = {"fm.t_losses": "drawn", "fm.t_draw": "cards"}
#: Trace fields that name an acting player (a dead one never appears in them).
ACTOR_FIELDS = ("player", "by", "guard")

#: A table and its phases are big inputs by nature (every seat's cards and orders).
SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
PROFILES = {
    "default": settings(max_examples=50, stateful_step_count=10, deadline=None, suppress_health_check=SLOW_IS_FINE),
    "soak": settings(max_examples=1000, stateful_step_count=30, deadline=None, suppress_health_check=SLOW_IS_FINE),
}


# -- the table --------------------------------------------------------------------------------------------------


def deal_table(r: random.Random) -> tuple[list[SeatInfo], dict, PhaseInfo]:
    """Random seats (ring order), game state and the phase to start with, from the Hypothesis-driven ``r``."""
    n = r.randint(5, 16)
    if r.random() < 0.7:
        roles = opening.composition(n, hero=r.random() < 0.3, rng=random.Random(r.randint(0, 2**32)))
    else:
        roles = [r.choice(SECRET_SLUGS) for _ in range(n)]
    publics = r.sample(PUBLIC_SLUGS, n)
    seats = []
    for i, secret in enumerate(roles):
        public: Any = publics[i] if r.random() < 0.75 else {"custom": f"Baker {i}"}
        sleeve = None
        if r.random() < 0.6:
            sleeve = [r.choice(ALL_KINDS) if r.random() < 0.8 else {"card": r.choice(ALL_KINDS), "from_role": True}
                      for _ in range(r.randint(0, 4))]
        data = table.seat_data(
            public_role=public, secret_role=secret, collection=COLLECTION,
            hand=[r.choice(ALL_KINDS) for _ in range(r.randint(1, 7))], sleeve=sleeve,
            deck=[r.choice(DECK_KINDS) for _ in range(r.choice([0, 0, 1, 3, 6, 12]))],
            joker_colours=r.sample(ROLE_COLOURS, 2) if secret == "joker" else None,
        )
        alive = r.random() > 0.1
        seats.append(SeatInfo(id=100 + 7 * i, name=f"P{i}·{secret}", position=i, alive=alive, data=data))
    if not any(s.alive for s in seats):
        seats[0] = dataclasses.replace(seats[0], alive=True)
    number = r.choice([1, 1, 1, 2, 3])
    kind = r.choice(["night", "night", "day"])
    ordinal = 2 * number + (kind == "day")
    fm: dict[str, Any] = {}
    living = [s.id for s in seats if s.alive]
    if r.random() < 0.3:  # some carry-over from an earlier phase (§11 poison, FM-7.5 jail, handcuffs)
        fm["poison"] = [{"target": r.choice(living), "source": r.choice([s.id for s in seats]), "amount": 1,
                         "first": ordinal, "last": ordinal + 1}]
        fm["jail"] = {str(r.choice(living)): r.randint(1, 4)}
        fm["handcuffs"] = {str(r.choice(living)): number}
        fm["last_night"] = {str(r.choice(living)): [r.choice(DECK_KINDS)]}
    state = {"collection": COLLECTION.snapshot(), "collection_version": COLLECTION.version, "fm": fm}
    return seats, state, PhaseInfo(kind, number, ordinal)


# -- orders -----------------------------------------------------------------------------------------------------


def _target_keys(r: random.Random, card: dict, opts: dict) -> dict | None:
    """Legal target keys for an option ``card`` (``None``: no legal target exists)."""
    out: dict[str, Any] = {}
    target = card["target"]
    if target == "dead":
        if not opts["dead_targets"]:
            return None
        out["target"] = r.choice(opts["dead_targets"])["id"]
    elif target == "two":
        if len(opts["targets"]) < 2:
            return None
        out["targets"] = [t["id"] for t in r.sample(opts["targets"], 2)]
    elif target != "none":
        if not opts["targets"]:
            return None
        out["target"] = r.choice(opts["targets"])["id"]
    if target == "one_card":
        out["named_card"] = r.choice(opts["named_cards"])
    if target == "one_text":
        out["text"] = r.choice(TEXTS)
    return out


def _play(r: random.Random, card: dict, opts: dict) -> dict | None:
    keys = _target_keys(r, card, opts)
    if keys is None:
        return None
    play = {"card": card["kind"], "from": card["from"], **keys}
    if card["needs_cards"]:
        others = [h["uid"] for h in opts["hand"] if h["uid"] != card["uid"]]
        if not others:
            return None
        play["cards"] = r.sample(others, min(len(others), r.randint(1, 2)))
    if card["payers"] and r.random() < 0.3:
        play["pay"] = list(card["payers"])
    # By slug the play takes the first such card; other cards it names by uid are then chosen for that one.
    if r.random() < 0.7 or "cards" in play or "pay" in play:
        play["uid"] = card["uid"]
    return play


def legal_single(r: random.Random, opts: dict) -> dict | None:
    """One playable card with a legal target: :func:`validate_order` must accept it."""
    playable = [c for c in opts["cards"] if c["playable"]]
    r.shuffle(playable)
    for card in playable:
        play = _play(r, card, opts)
        if play is not None:
            return {"plays": [play]}
    return None


def combo(r: random.Random, opts: dict) -> dict:
    """Up to one Hand and one Sleeve play plus free ones (may still be refused: shared price cards)."""
    plays = []
    taken: set[str] = set()
    for card in sorted((c for c in opts["cards"] if c["playable"]), key=lambda _c: r.random()):
        slot = "free" if card["free"] else card["from"]
        if slot in taken or len(plays) >= 4:
            continue
        play = _play(r, card, opts)
        if play is not None:
            plays.append(play)
            if slot != "free":
                taken.add(slot)
    return {"plays": plays} if plays else {}


def discard_two(r: random.Random, opts: dict) -> dict | None:
    hand = opts["hand"]
    if len(hand) < 2:
        return None
    picked = r.sample(hand, 2)
    return {"discard": [h["uid"] if r.random() < 0.5 else h["kind"] for h in picked]}


def illegal(r: random.Random, seat: SeatInfo, opts: dict, seats: list[SeatInfo], phase: PhaseInfo) -> dict | None:
    """An order :func:`validate_order` must refuse (``None`` if this seat can't make that mistake)."""
    cards = opts["cards"]
    targeted = [c for c in cards if c["target"] in ("one", "one_card", "one_text")]
    dead = [s for s in seats if not s.alive]
    held = {c["kind"] for c in cards if c["from"] == "hand"}
    choice = r.choice(["self", "dead", "unknown_target", "unknown_card", "not_held", "abilities", "extra_key",
                       "bad_plays", "discard_one", "discard_day", "unplayable", "link", "two_hand", "no_target"])
    if choice == "self" and targeted:
        card = r.choice(targeted)
        return {"plays": [{"card": card["kind"], "from": card["from"], "target": seat.id, "named_card": "pistol",
                           "text": "hi"}]}
    if choice == "dead" and targeted and dead:
        card = r.choice(targeted)
        return {"plays": [{"card": card["kind"], "from": card["from"], "target": r.choice(dead).id,
                           "named_card": "pistol", "text": "hi"}]}
    if choice == "unknown_target" and targeted:
        card = r.choice(targeted)
        return {"plays": [{"card": card["kind"], "from": card["from"], "target": 987654, "named_card": "pistol",
                           "text": "hi"}]}
    if choice == "no_target" and targeted:
        card = r.choice(targeted)
        return {"plays": [{"card": card["kind"], "from": card["from"]}]}
    if choice == "unknown_card":
        return {"plays": [{"card": "golden_gun", "from": "hand"}]}
    if choice == "not_held":
        missing = [k for k in ALL_KINDS if k not in held]
        return {"plays": [{"card": r.choice(missing), "from": "hand"}]} if missing else None
    if choice == "abilities":
        return {"abilities": [{"name": "anything"}]}
    if choice == "extra_key":
        return {"plays": [], "vote": seat.id}
    if choice == "bad_plays":
        return r.choice([{"plays": "pistol"}, {"plays": [42]}, {"discard": "two"}])
    if choice == "discard_one" and opts["hand"]:
        return {"discard": [opts["hand"][0]["uid"]]}
    if choice == "discard_day" and phase.kind == "day" and len(opts["hand"]) >= 2:
        return {"discard": [h["uid"] for h in opts["hand"][:2]]}
    if choice == "unplayable":
        blocked = [c for c in cards if not c["playable"] and c["reason"]]
        if blocked:
            card = r.choice(blocked)
            keys = _target_keys(r, card, opts)
            if keys is not None and not card["needs_cards"]:
                return {"plays": [{"card": card["kind"], "from": card["from"], "uid": card["uid"], **keys}]}
    if choice == "link":
        texts = [c for c in cards if c["target"] == "one_text" and c["playable"]]
        if texts and opts["targets"]:
            card = r.choice(texts)
            return {"plays": [{"card": card["kind"], "from": card["from"], "target": opts["targets"][0]["id"],
                               "text": r.choice(LINK_TEXTS)}]}
    if choice == "two_hand":
        hand = [c for c in cards if c["from"] == "hand" and c["playable"] and not c["free"]]
        plays = [p for p in (_play(r, c, opts) for c in hand[:2]) if p is not None]
        if len(plays) == 2:
            return {"plays": plays}
    return None


# -- one transition ---------------------------------------------------------------------------------------------


@dataclass
class Transition:
    """One resolved phase: the seats, state and phase before, the orders given, the result."""

    seats: list[SeatInfo]
    state: dict
    phase: PhaseInfo
    orders: dict[int, dict]
    seed: int
    result: Resolution
    accepted: set[int] = field(default_factory=set)

    @property
    def by_name(self) -> dict[str, SeatInfo]:
        return {s.name: s for s in self.seats}

    def events(self, kind: str) -> list[dict]:
        return [dict(e.data) for e in self.result.events if e.kind == kind]

    def before(self, seat: SeatInfo) -> Containers:
        return Containers.from_dict(seat.data["cards"])

    def after(self, seat: SeatInfo) -> Containers:
        return Containers.from_dict(self.result.seat_data.get(seat.id, seat.data)["cards"])

    def alive_after(self, seat: SeatInfo) -> bool:
        return seat.alive and self.result.alive.get(seat.id, True)


def _instances(c: Containers) -> dict[int, Any]:
    return {inst.uid: inst for _name, inst in c.instances()}


class FMTableMachine(RuleBasedStateMachine):
    """A random forum Mafia table played phase after phase (see the module docstring)."""

    def __init__(self):
        super().__init__()
        self.seats: list[SeatInfo] = []
        self.state: dict = {}
        self.phase: PhaseInfo | None = None
        self.over = False
        self.last: Transition | None = None

    @initialize(r=st.randoms(use_true_random=False, note_method_calls=False))
    def deal(self, r):
        self.seats, self.state, self.phase = deal_table(r)

    @rule(r=st.randoms(use_true_random=False, note_method_calls=False),
          seed=st.integers(min_value=0, max_value=2**63 - 1))
    def play_phase(self, r, seed):
        if self.over:  # the game ended (FM-10): play on at a new table
            self.seats, self.state, self.phase = deal_table(r)
            self.over = False
        seats, state, phase = self.seats, self.state, self.phase
        orders: dict[int, dict] = {}
        accepted: set[int] = set()
        for seat in seats:
            if not seat.alive:
                if r.random() < 0.3:  # a stale order of a dead seat: the engine must ignore it (FM-6.2, L0)
                    hand = seat.data["cards"]["hand"]
                    living = [s.id for s in seats if s.alive and s.id != seat.id]
                    if hand and living:
                        orders[seat.id] = {"plays": [{"card": hand[0]["kind"], "from": "hand",
                                                      "target": r.choice(living)}]}
                continue
            opts = order_options(state=state, phase=phase, seat=seat, seats=seats)
            assert opts["can_order"]
            mode = r.choice(["nothing", "single", "single", "combo", "combo", "combo", "discard", "illegal"])
            must_accept = False
            payload: dict | None
            if mode == "nothing":
                payload, must_accept = {}, True
            elif mode == "single":
                payload = legal_single(r, opts)
                must_accept = payload is not None
            elif mode == "combo":
                payload = combo(r, opts)
            elif mode == "discard":
                payload = discard_two(r, opts)
                must_accept = payload is not None and phase.kind == "night"
            else:
                bad = illegal(r, seat, opts, seats, phase)
                if bad is not None:
                    try:
                        validate_order(state=state, phase=phase, seat=seat, seats=seats, payload=bad)
                    except RuleViolation as exc:
                        assert exc.errors and all(e.rule for e in exc.errors), exc.errors
                    else:
                        raise AssertionError(f"illegal order accepted for {seat.name}: {bad}")
                payload = combo(r, opts)
            if payload is None:
                continue
            try:
                clean = validate_order(state=state, phase=phase, seat=seat, seats=seats, payload=payload)
            except RuleViolation as exc:
                assert not must_accept, f"{seat.name}: order_options offered {payload}, refused: {exc}"
                continue
            # Normalisation is idempotent: the stored order validates to itself.
            again = validate_order(state=state, phase=phase, seat=seat, seats=seats, payload=clean)
            assert again == clean, (clean, again)
            orders[seat.id] = clean
            accepted.add(seat.id)
        frozen = copy.deepcopy((state, [s.data for s in seats], orders))
        result = resolution.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=random.Random(seed))
        assert copy.deepcopy((state, [s.data for s in seats], orders)) == frozen, "resolve changed its inputs"
        self.last = Transition(seats=seats, state=state, phase=phase, orders=orders, seed=seed, result=result,
                               accepted=accepted)
        kinds = {e.kind for e in result.events}  # --hypothesis-show-statistics: what the run covered
        for kind in ("fm.t_steal", "fm.death", "fm.t_armour", "fm.t_cancel", "fm.t_redirect", "fm.t_void"):
            if kind in kinds:
                event(kind)
        if any("mulligan" in e.data.get("drawn", e.data.get("cards", [])) for e in result.events
               if e.kind in DRAW_STEPS):
            event("mulligan created")
        if result.outcome is not None:
            event(f"game over: {','.join(result.outcome.winners) or 'nobody'}")
        # Apply the result as the shell does (gm.core.services.phase_resolve).
        self.seats = [dataclasses.replace(s, data=result.seat_data.get(s.id, s.data),
                                          alive=result.alive.get(s.id, s.alive)) for s in seats]
        self.state = result.state
        if result.outcome is not None:
            self.over = True
        else:
            nxt = result.next_phase
            self.phase = PhaseInfo(nxt.kind, nxt.number, phase.ordinal + 1, nxt.actors)

    # -- invariants ---------------------------------------------------------------------------------------------

    @invariant()
    def cards_are_conserved(self):
        t = self.last
        if t is None:
            return
        stolen_from: dict[str, Counter] = {s.name: Counter() for s in t.seats}
        stolen_by: dict[str, Counter] = {s.name: Counter() for s in t.seats}
        for e in t.events("fm.t_steal"):
            stolen_by[e["player"]].update(e["cards"])
            stolen_from[e["target"]].update(e["cards"])
        created = Counter()
        for kind, key in DRAW_STEPS.items():
            for e in t.events(kind):
                created[e["player"]] += e[key].count("mulligan")
        total_before = total_after = 0
        for seat in t.seats:
            before, after = t.before(seat), t.after(seat)
            b, a = _instances(before), _instances(after)
            total_before += len(b)
            total_after += len(a)
            came = stolen_by[seat.name] + Counter({"mulligan": created[seat.name]})
            went = stolen_from[seat.name]
            # As multisets of kinds: before + came == after + went (a card stolen twice passes through).
            assert Counter(i.kind for i in b.values()) + came == Counter(i.kind for i in a.values()) + went, \
                (seat.name, came, went)
            lost = Counter(b[u].kind for u in b.keys() - a.keys())
            gained = Counter(a[u].kind for u in a.keys() - b.keys())
            assert not lost - went, (seat.name, "lost without a steal", lost - went)
            assert not gained - came, (seat.name, "gained without a steal or a draw", gained - came)
            for uid in a.keys() & b.keys():  # kept instances only move: same kind and provenance
                assert (a[uid].kind, a[uid].provenance) == (b[uid].kind, b[uid].provenance), (seat.name, uid)
            assert all(u >= before.next_uid for u in a.keys() - b.keys()), "a uid was reused"
            assert after.next_uid >= before.next_uid
            if created[seat.name]:
                assert not after.deck, f"{seat.name} got a mulligan while his deck held cards"
        assert total_after == total_before + sum(created.values())

    @invariant()
    def dead_characters_never_act(self):
        t = self.last
        if t is None:
            return
        dead = {s.id: s for s in t.seats if not s.alive}
        dead_names = {s.name for s in dead.values()}
        for e in t.result.events:
            if e.visibility == "seat":
                assert e.seat not in dead, f"the dead get no messages (FM-6.2): {e}"
            if e.kind == "fm.t_order":
                assert e.data["seat"] not in dead, f"a dead seat's order was taken: {e}"
            if e.visibility == "master":
                for key in ACTOR_FIELDS:
                    assert e.data.get(key) not in dead_names, f"a dead seat acts: {e}"
                if e.kind != "fm.t_damage":
                    assert e.data.get("source") not in dead_names, f"a dead seat acts: {e}"
        for seat_id, seat in dead.items():
            data = dict(t.result.seat_data.get(seat_id, seat.data))
            if t.result.outcome is not None:  # the end of the game gives every seat its result, the dead too
                assert data.pop("result") in ("won", "lost", "draw")
            assert data == seat.data, f"{seat.name}'s data changed"
            assert seat_id not in t.result.alive

    @invariant()
    def armour_never_carries_over(self):
        t = self.last
        if t is None:
            return
        armour = Counter()
        for e in t.events("fm.t_armour"):
            armour[e["player"]] += e["amount"]
        for e in t.events("fm.t_damage"):
            assert e["armour"] == armour[e["player"]], (e, armour)
            if not armour:
                assert e["armour"] == 0
        assert not any("armour" in k for k in t.result.state.get("fm", {})), "armour kept in the state"

    @invariant()
    def published_hand_counts_are_real(self):
        t = self.last
        if t is None:
            return
        published = [e for e in t.result.events if e.kind == "fm.hand_counts"]
        assert len(published) == 1 and published[0].visibility == "public"
        counts = {c["player"]: c["count"] for c in published[0].data["counts"]}
        living = [s for s in t.seats if t.alive_after(s)]
        assert [c["player"] for c in published[0].data["counts"]] == [s.name for s in living]
        for seat in living:
            assert counts[seat.name] == len(t.after(seat).hand), seat.name

    @invariant()
    def resolution_is_deterministic(self):
        t = self.last
        if t is None:
            return
        again = resolution.resolve(state=copy.deepcopy(t.state), phase=t.phase, seats=copy.deepcopy(t.seats),
                                   orders=copy.deepcopy(t.orders), rng=random.Random(t.seed))
        assert dataclasses.asdict(again) == dataclasses.asdict(t.result)

    @invariant()
    def deaths_are_empty_hands(self):
        t = self.last
        if t is None:
            return
        alive_before = {s.id: s.alive for s in t.seats}
        assert all(v is False and alive_before[k] for k, v in t.result.alive.items()), t.result.alive
        for seat in t.seats:
            if not seat.alive:
                continue
            hand = t.after(seat).hand
            if t.alive_after(seat):
                assert hand, f"{seat.name} lives with an empty Hand"
            else:
                assert not hand, f"{seat.name} died holding {hand}"
        deaths = {e["player"] for e in t.events("fm.death")}
        assert deaths == {s.name for s in t.seats if s.alive and not t.alive_after(s)}

    @invariant()
    def accepted_orders_are_not_voided(self):
        t = self.last
        if t is None:
            return
        voided = [e for e in t.events("fm.t_void") if e["seat"] in t.accepted]
        assert not voided, f"L0 voided orders that submission accepted: {voided}"
        assert {e["seat"] for e in t.events("fm.t_order")} == {sid for sid in t.orders
                                                               if t.by_name[_name(t, sid)].alive}

    @invariant()
    def phase_sequence(self):
        t = self.last
        if t is None:
            return
        res = t.result
        if res.outcome is not None:
            assert res.next_phase is None
            # A game ends with a winner (FM-10) or, after the stalemate count runs out, as a draw (FM-10.H1).
            ending = "fm.draw" if res.outcome.draw else "fm.victory"
            assert any(e.kind == ending for e in res.events)
        else:
            nxt = res.next_phase
            expected = ("day", t.phase.number) if t.phase.kind == "night" else ("night", t.phase.number + 1)
            assert (nxt.kind, nxt.number) == expected


def _name(t: Transition, seat_id: int) -> str:
    return next(s.name for s in t.seats if s.id == seat_id)


TestFMTable = FMTableMachine.TestCase
TestFMTable.settings = PROFILES.get(os.environ.get("HYPOTHESIS_PROFILE", ""), PROFILES["default"])
