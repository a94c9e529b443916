"""Bot players of a forum Mafia playtest. A bot is an HTTP client with a user's API token: it talks to the site only
through the REST API a person's client would use (signups FM-2, the deck API FM-4, the order-options API and the
orders API FM-5, the Veche API FM-7), and chooses among the legal options the site itself offers (``GET
/api/games/<id>/order-options/``, the deck rules of ``GET /api/games/<id>/deck/``) rather than keeping a second copy
of the rules.

To exercise the refusals, a bot sometimes misbehaves on purpose (an invalid deck first, an illegal order, an order
after the deadline, an order from a dead character) and checks that the site refuses it with a reason; it sometimes
changes its mind and sometimes misses a deadline. Every refusal is recorded in a :class:`Tally` by reason.
"""
from __future__ import annotations

import random
from typing import Any

from gm.core.playtest.client import Client, Tally

from ..engine.victory import harmful_effect

#: The probabilities of the bots' misbehaviour (per bot and phase).
CHANCES = {
    "invalid_deck_first": 0.3,  # submit a deck breaking FM-4.3 before the valid one
    "skip_deck": 0.1,  # build no deck: the site deals a random valid one (FM-4.5)
    "claim_taken_role": 0.2,  # claim a public role someone already holds (FM-2.2)
    "miss": 0.07,  # send nothing this phase
    "late": 0.05,  # send the order after the deadline
    "illegal": 0.15,  # send an illegal order first
    "change_mind": 0.25,  # send a second, different order later in the phase
    "discard_two": 0.1,  # FM-5.3 at night
    "discard_stuck": 0.8,  # FM-5.3 at night when no Hand card can be played (prices it can't pay): cycle the Hand
    "dead_tries": 0.5,  # per phase: one dead bot tries to order
}
#: How the bots vote by day (FM-7), as forum players do: most follow the leader of the public tally (FM-7.1), few
#: vote for peace, most ask for execution. Random scattered votes with random punishments rarely punish anybody,
#: and a Veche that never executes leaves games running to the phase cap.
VOTING = {
    "bandwagon": 0.75,  # vote for the current leader of the public tally (if there is one and it is not oneself)
    "peace": 0.05,  # vote for peace
    "jail": 0.1,  # ask for jail instead of execution
}
#: Random valid decks a bot builds when it rebuilds (FM-4.7); it keeps the one with the most weapons.
REBUILD_TRIES = 10
#: A card moving Hand cards to the Sleeve (``stash``) shrinks the Hand for good (FM-5.4 replaces only the played
#: card); below this Hand size a bot keeps its cards, else the last two can end with one unplayable card each.
MOVE_MIN_HAND = 4
class Bot(Client):
    """One forum Mafia player (:class:`gm.core.playtest.client.Client` with the game's choices)."""

    chances = CHANCES

    def __init__(self, *, base_url: str, game_id: int, index: int, token: str, rng: random.Random, tally: Tally,
                 timeout: float = 20):
        super().__init__(base_url=base_url, game_id=game_id, index=index, token=token, rng=rng, tally=tally,
                         timeout=timeout)
        self.cards: list[dict] = []  # the game's collection, from the collection API
        self.weapons: frozenset[str] = frozenset()  # slugs of the cards that can harm (:func:`weapons`)

    # -- signup (FM-2) ---------------------------------------------------------------------------------------
    def sign_up(self, role_slugs: list[str]) -> None:
        """Claim a free public role (sometimes a taken one first, which must be refused), as character
        ``Bot N``; when every tried role is taken, a custom role."""
        ok, signups = self.attempt("signup list", "GET", "/api/games/<id>/fm/signups/")
        taken = {s["public_role"] for s in signups} if ok else set()
        if taken - {"custom"} and self.chance("claim_taken_role"):
            role = self.rng.choice(sorted(taken - {"custom"}))
            self.expect_refusal("signup", "POST", "/api/games/<id>/fm/signups/", self._signup(role))
        free = [r for r in role_slugs if r not in taken]
        self.rng.shuffle(free)
        for role in free[:3]:
            ok, _body = self.attempt("signup", "POST", "/api/games/<id>/fm/signups/", self._signup(role))
            if ok:
                return
        ok, body = self.attempt("signup", "POST", "/api/games/<id>/fm/signups/",
                                self._signup("custom", custom=f"Bot role {self.index + 1}"))
        if not ok:
            self.tally.fail(f"{self.name} could not sign up: {body}")

    def _signup(self, role: str, custom: str = "") -> dict:
        return {"public_role": role, "custom_role": custom, "character_name": self.name,
                "messengers": f"bot{self.index + 1}@example.com", "pledges": True}

    # -- deck building (FM-4) --------------------------------------------------------------------------------
    def build_deck(self, deadline: float) -> None:
        """Build a random valid deck from the rules and collection the site gives (``cards.deckrules`` builds it,
        the site checks it); sometimes an invalid deck first, sometimes none at all."""
        if self.chance("skip_deck"):
            self.tally.count("deck skipped")
            return
        self.sleep_into(deadline, 0.3)
        status, body = self.call("GET", "/api/games/<id>/deck/")
        if status == 409:  # the joker chooses two colours first (FM-3.3)
            from cards.deckrules import ROLE_COLOURS

            ok, _seat = self.attempt("joker colours", "POST", "/api/games/<id>/fm/joker-colours/",
                                     {"colours": self.rng.sample(list(ROLE_COLOURS), 2)})
            status, body = self.call("GET", "/api/games/<id>/deck/")
        if status != 200:
            self.tally.refusal(deliberate=False, what="deck rules", status=status, body=body)
            return
        if not self._collection():
            return
        deck = random_deck(self.cards, body["rules"], self.rng)
        if self.chance("invalid_deck_first"):
            broken = deck[:-3] if self.rng.random() < 0.5 else deck + [deck[0], deck[0]]
            self.expect_refusal("deck", "POST", "/api/games/<id>/deck/", {"deck": broken})
        self.attempt("deck", "POST", "/api/games/<id>/deck/", {"deck": deck})

    def _collection(self) -> bool:
        """Fetch the game's card collection once (``GET /api/cards/?game=<id>``)."""
        if not self.cards:
            ok, collection = self.attempt("collection", "GET", f"/api/cards/?game={self.game_id}")
            if not ok:
                return False
            self.cards = collection["cards"]
            self.weapons = weapons(self.cards)
        return True

    def _rebuild_if_exhausted(self, options: dict) -> dict:
        """FM-4.7: a Hand holding a ``mulligan`` means the deck ran out; with an empty deck (``GET
        /api/games/<id>/cards/``) rebuild it, as a player would, from the random valid deck (of
        ``REBUILD_TRIES``) with the most damage cards, and return the order options after it (else the game of the
        last two players never ends)."""
        if not any(c["kind"] == "mulligan" for c in options.get("hand", [])):
            return options
        ok, seats = self.attempt("cards", "GET", "/api/games/<id>/cards/")
        own = next((s for s in seats if s.get("seat") == self.seat_id), None) if ok else None
        if own is None or own.get("deck_count") != 0:
            return options
        status, body = self.call("GET", "/api/games/<id>/deck/")
        if status != 200 or not self._collection():
            return options
        # Late in the game a player rebuilds to fight: the most damage cards of a few random valid decks.
        decks = [random_deck(self.cards, body["rules"], self.rng) for _ in range(REBUILD_TRIES)]
        deck = max(decks, key=lambda d: sum(e["kind"] in self.weapons for e in d))
        ok, _result = self.attempt("deck rebuild", "POST", "/api/games/<id>/fm/deck/rebuild/", {"deck": deck})
        if ok:
            ok, options = self.attempt("order options", "GET", "/api/games/<id>/order-options/")
        return options if ok else {}

    # -- nights and days (FM-5, FM-7) ------------------------------------------------------------------------
    def play_phase(self, *, kind: str, ordinal: int, deadline: float, phase_id: int) -> None:
        """One night or day (``phase_id``, named in every order and vote) of a living bot: maybe nothing, maybe too
        late, maybe an illegal order first; then a random legal order (and by day a vote), perhaps changed later."""
        self.sleep_into(deadline, 0.25)
        if self.chance("miss"):
            self.tally.count("missed phase")
            return
        if self.chance("late"):
            self.late_order(ordinal, deadline, phase_id)
            return
        ok, options = self.attempt("order options", "GET", "/api/games/<id>/order-options/")
        if not ok:
            return
        options = self._rebuild_if_exhausted(options)
        if not options:
            return
        if self.chance("illegal"):
            self._illegal(options, kind)
        self._order(options, kind)
        if kind == "day":
            self._vote(options)
        if self.chance("change_mind"):
            self.sleep_into(deadline, 0.6)
            ok, options = self.attempt("order options", "GET", "/api/games/<id>/order-options/")
            if ok:
                self._order(options, kind, what="changed order")
                if kind == "day" and self.rng.random() < 0.5:
                    self._vote(options, what="changed vote")

    def _order(self, options: dict, kind: str, what: str = "order") -> None:
        payload = choose_order(options, kind, self.rng, self.weapons)
        phase = options.get("phase")
        ok, body = self.attempt(what, "POST", "/api/games/<id>/orders/", {"phase": phase, "payload": payload})
        if not ok and payload.get("plays") and len(payload["plays"]) > 1:
            # A combination order-options can't judge (prices paid from the same Sleeve): one card only.
            self.attempt(what + " (retry)", "POST", "/api/games/<id>/orders/",
                         {"phase": phase, "payload": {"plays": payload["plays"][:1]}})

    def _vote(self, options: dict, what: str = "vote") -> None:
        """Vote in the open day (FM-7.1–7.2) for a target ``order-options`` offers: usually the leader of the public
        tally (``GET /api/games/<id>/fm/veche/``) or, when that is oneself or nobody, the next candidate; else any
        target; rarely peace. Mostly execution."""
        targets = [t["id"] for t in options.get("targets", [])]
        target: Any = None
        roll = self.rng.random()
        if roll < VOTING["peace"] or not targets:
            target = "peace"
        elif roll < VOTING["peace"] + VOTING["bandwagon"]:
            target = self._tally_leader(options)
        if target is None:
            target = self.rng.choice(targets)
        vote = {"phase": options.get("phase"), "for": target,
                "punishment": "jail" if self.rng.random() < VOTING["jail"] else "execution"}
        self.attempt(what, "POST", "/api/games/<id>/fm/veche/vote/", vote)

    def _tally_leader(self, options: dict) -> int | None:
        """The seat id of the strongest candidate of the public tally this bot may vote for (a target of
        ``options``), or ``None`` when the tally names none."""
        ok, veche = self.attempt("veche", "GET", "/api/games/<id>/fm/veche/")
        if not ok or not veche.get("open") or veche.get("phase") != options.get("phase"):
            return None
        ids = {t["name"]: t["id"] for t in options.get("targets", []) if t.get("name")}
        for candidate in veche["tally"].get("candidates", []):  # strongest first (FM-7.4)
            if candidate.get("player") in ids:
                return ids[candidate["player"]]
        return None

    def _illegal(self, options: dict, kind: str) -> None:
        """One deliberately illegal order or vote, chosen among those this bot can make now."""
        cards = options.get("cards", [])
        targeted = [c for c in cards if c["playable"] and c["target"] == "one"]
        hand = [c for c in cards if c["from"] == "hand" and not c["free"] and c["playable"]]
        held = {c["kind"] for c in options.get("hand", [])}
        foreign = sorted(set(options.get("named_cards", [])) - held)
        menu: list[tuple[str, Any]] = [("order: malformed", {"plays": "pistol"})]
        if foreign:
            menu.append(("order: card not held", {"plays": [{"card": self.rng.choice(foreign), "from": "hand",
                                                             "uid": 987654}]}))
        if targeted and self.seat_id:
            c = targeted[0]
            menu.append(("order: self target", {"plays": [{"card": c["kind"], "from": c["from"], "uid": c["uid"],
                                                           "target": self.seat_id}]}))
        if len(hand) >= 2:
            menu.append(("order: two Hand plays", {"plays": [_play(c, options, self.rng) for c in hand[:2]]}))
        if kind == "day":
            menu.append(("vote: no such character", {"phase": options.get("phase"), "for": 99_999_999,
                                                      "punishment": "execution"}))
        what, body = self.rng.choice(menu)
        if what.startswith("vote"):
            self.expect_refusal(what, "POST", "/api/games/<id>/fm/veche/vote/", body)
        else:
            self.expect_refusal(what, "POST", "/api/games/<id>/orders/", {"phase": options.get("phase"),
                                                                          "payload": body})


def random_deck(cards: list[dict], rules: dict, rng: random.Random) -> list[dict]:
    """A random deck valid under ``rules`` (the ``rules`` of ``GET /api/games/<id>/deck/``) from ``cards`` (``GET
    /api/cards/?game=<id>``), built by the cards library's own ``random_valid_deck``."""
    from cards.deckrules import DeckRules, random_valid_deck
    from cards.domain import CardKind, Collection

    kinds = [CardKind(slug=c["slug"], colour=c["colour"], price=c["price"], free=c["free"], timing=c["timing"],
                      target=c["target"], effect=c["effect"]) for c in cards]
    deck_rules = DeckRules(**{**rules, "role_colours": tuple(rules["role_colours"]),
                              "forbidden_colours": frozenset(rules["forbidden_colours"])})
    return random_valid_deck(collection=Collection.from_kinds(kinds), rules=deck_rules, rng=rng)


def _play(card: dict, options: dict, rng: random.Random, used: set[int] = frozenset()) -> dict | None:
    """A play of ``card`` (an ``order-options`` card) with random legal targets from ``options``; ``None`` when
    there is no target for it."""
    play: dict[str, Any] = {"card": card["kind"], "from": card["from"], "uid": card["uid"]}
    targets = [t["id"] for t in options.get("targets", [])]
    kind = card["target"]
    if kind in ("one", "one_card", "one_text"):
        if not targets:
            return None
        play["target"] = rng.choice(targets)
        if kind == "one_card":
            play["named_card"] = rng.choice(options.get("named_cards") or ["pistol"])
        if kind == "one_text":
            play["text"] = rng.choice(["I know who you are.", "Meet me at the docks.", "Trust nobody."])
    elif kind == "two":
        if len(targets) < 2:
            return None
        play["targets"] = rng.sample(targets, 2)
    elif kind == "dead":
        dead = [t["id"] for t in options.get("dead_targets", [])]
        if not dead:
            return None
        play["target"] = rng.choice(dead)
    if card.get("needs_cards"):
        others = [h["uid"] for h in options.get("hand", []) if h["uid"] != card["uid"] and h["uid"] not in used]
        if not others:
            return None
        play["cards"] = rng.sample(others, min(len(others), rng.choice([1, 2])))
    return play


def weapons(cards) -> frozenset[str]:
    """The slugs of the cards a bot treats as weapons, from the collection API's cards (``[{"slug", "effect"},
    …]``): those that can harm as FM-10.H1 counts it (damage, delayed damage, a steal), whatever their colour
    (``breach`` is sabotage, ``accusation`` control) — a bot that never plays them leaves the last two for ever."""
    return frozenset(c["slug"] for c in cards if harmful_effect(c.get("effect") or {}))


def choose_order(options: dict, kind: str, rng: random.Random, weapons: frozenset[str] = frozenset()) -> dict:
    """A random order among the plays ``order-options`` marks playable (FM-5.2: at most one non-free card from the
    Hand and one from the Sleeve; free cards besides, FM-4.4), or at night sometimes the FM-5.3 discard of two
    Hand cards. At most one card with a price, and never a Sleeve card its default price would take (FM-5.7).
    ``weapons`` (card slugs, :func:`weapons`) makes the bot aggressive: a playable weapon is always played, before
    the others, so games end."""
    hand_uids = [h["uid"] for h in options.get("hand", [])]
    # A Hand of cards the bot can't play (a price its Sleeve can't pay, day cards at night) is cycled, as a player
    # would: else the last two may hold damage cards for ever without using them.
    def damage(card: dict) -> bool:
        return card["kind"] in weapons and not card["free"]

    cards = options.get("cards", [])
    stuck = not any(c["playable"] and c["from"] == "hand" and not c["free"] for c in cards)
    # With one or two others left, a Hand without a playable damage card is cycled too: a player digs for a weapon.
    endgame = len(options.get("targets", [])) <= 2 and not any(c["playable"] and damage(c) for c in cards)
    # A damage card waiting for a price its Sleeve can't pay (FM-5.7) is paid for by stashing other Hand cards.
    blocked = any(damage(c) and c["price"] and not c["playable"] for c in cards)
    movers = {c["uid"] for c in cards if c["playable"] and c.get("needs_cards")}
    spare = [u for u in hand_uids if u not in movers and not any(damage(c) for c in cards if c["uid"] == u)]
    stash = blocked and bool(movers) and bool(spare)
    chance = CHANCES["discard_stuck"] if stuck or endgame else CHANCES["discard_two"]
    if stash:
        chance = 0
    if kind == "night" and options.get("can_discard_two") and len(hand_uids) >= 2 and rng.random() < chance:
        # Keep damage cards (their price may be payable later); discard the others first.
        keep = {c["uid"] for c in cards if damage(c) and c["from"] == "hand"}
        order = sorted(hand_uids, key=lambda u: (u in keep, rng.random()))
        return {"discard": order[:2]}
    playable = [c for c in cards if c["playable"]
                and not (c.get("needs_cards") and len(hand_uids) < MOVE_MIN_HAND and not stash)]

    # A player holding a playable damage card uses it, and before anything else (or the stash paying for one).
    playable.sort(key=lambda c: rng.random() - (1 if damage(c) or (stash and c.get("needs_cards")) else 0))
    chosen: list[dict] = []
    slots = {slot: any((damage(c) or (stash and c.get("needs_cards"))) and c["from"] == slot for c in playable)
             or rng.random() < odds
             for slot, odds in (("hand", 0.85), ("sleeve", 0.5))}
    payers: set[int] = set()
    for card in playable:
        if card["free"]:
            if rng.random() >= 0.3:
                continue
        elif not slots.get(card["from"]):
            continue
        if card["price"] and (payers or any(c["_price"] for c in chosen)):
            continue
        if card["uid"] in payers or (card["price"] and set(card.get("payers", [])) & {c["uid"] for c in chosen}):
            continue
        keep = {c["uid"] for c in cards if damage(c)} if stash else set()
        play = _play(card, options, rng, used={u for c in chosen for u in c.get("cards", [])} | {c["uid"] for c in
                                                                                                 chosen} | keep)
        if play is None:
            continue
        if not card["free"]:
            slots[card["from"]] = False
        payers |= set(card.get("payers", [])) if card["price"] else set()
        chosen.append({**play, "_price": card["price"]})
    # A card another play moves to the Sleeve can't be played itself.
    moved = {u for c in chosen for u in c.get("cards", [])}
    plays = [{k: v for k, v in c.items() if k != "_price"} for c in chosen if c["uid"] not in moved]
    return {"plays": plays} if plays else {}
