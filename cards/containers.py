"""A character's card containers — Hand, Sleeve, deck, discard pile — and every card movement between them.

Pure Python (no Django import, no I/O, no clock, no global random): randomness only through an injected
:class:`random.Random`. Every card game of the project keeps one :class:`Containers` per seat, stored as the JSON of
:meth:`Containers.to_dict` in one column and read back with :meth:`Containers.from_dict`.

Conventions
-----------
* **In place.** Operations mutate the :class:`Containers` they are called on and return the instances they moved
  or created. Every operation validates all of its arguments *before* touching anything, so an operation that
  raises :class:`ContainerError` leaves the containers exactly as they were (strong exception guarantee). Use
  :meth:`Containers.copy` to keep a previous state (instances are immutable, so the copy is cheap and independent).
* **Order.** ``hand`` is the ordered Hand, front (index 0) first (FM-4.6, FM-6.1); ``sleeve`` is in Sleeve order,
  first first (FM-5.7, ``arson``); ``deck`` is top first; ``discard`` is the personal discard pile, most recent
  last. A card that *arrives* in the Hand, the Sleeve or the discard pile goes to the end.
* **Uids.** Every instance has a ``uid`` unique among its owner's containers. New instances take ``next_uid``,
  which only grows, so a uid is never reused by the same owner (log lines can name cards by uid).
* **Conservation law.** The number of card instances (and the set of their uids) changes only through:
  :meth:`~Containers.draw` from an empty deck (each such draw creates one ``mulligan``, FM-4.7),
  :meth:`~Containers.add`, :meth:`~Containers.take_from` (one instance leaves the other owner and a fresh one
  arrives here; the sum over both owners is constant), :meth:`~Containers.new_deck` and
  :meth:`~Containers.rebuild`. Every other operation only moves or reorders instances (or, for
  :meth:`~Containers.set_free`, replaces one by the same uid with another ``free`` flag). Nothing ever destroys an
  instance: played and discarded cards go to the discard pile (FM-4.6).
* **Secrecy** is not this module's job: the deck's order and content are secret even to its owner (only counts,
  and for ``psychic`` :meth:`~Containers.peek`, may be shown); the visibility layer must enforce it.
* **Errors** are :class:`ContainerError` with a stable ``code`` (see :data:`ERROR_CODES`), an English message and
  the params it names; the engine maps codes to its own translatable rule errors.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cards.domain import MULLIGAN, PROVENANCES, CardInstance, Collection

#: The four containers, in the order used by :meth:`Containers.to_dict`, :meth:`Containers.counts` and
#: :meth:`Containers.find`.
CONTAINERS: tuple[str, ...] = ("hand", "sleeve", "deck", "discard")
#: Where :meth:`Containers.move`, :meth:`Containers.add` and :meth:`Containers.take_from` may put a card.
DESTINATIONS: tuple[str, ...] = ("hand", "sleeve", "deck_top", "deck_bottom", "discard")
#: Where a card may be drawn to (FM-4.6).
DRAW_TARGETS: tuple[str, ...] = ("hand", "sleeve")

#: Every error code this module raises.
ERROR_CODES: tuple[str, ...] = (
    "bad_container",  # a container / destination name that is not allowed for this operation
    "bad_count",  # a count that is not a non-negative integer
    "bad_order",  # reorder_hand: not a permutation of the Hand's uids
    "duplicate_uid",  # discard_many: the same uid twice
    "unknown_uid",  # no instance with this uid in these containers
    "not_in_hand",  # the uid exists but is not in the Hand (likewise not_in_sleeve, not_in_deck, not_in_discard)
    "not_in_sleeve",
    "not_in_deck",
    "not_in_discard",
    "not_in_hand_or_sleeve",  # discard_card / discard_many without a source: the card is in the deck or discard
    "empty",  # random_uid: the container holds no card
    "deck_not_empty",  # new_deck / rebuild while cards remain in the deck (FM-4.7)
    "unknown_kind",  # a slug not in the collection
    "bad_provenance",  # add: not one of PROVENANCES
    "bad_guaranteed",  # new_deck: a guaranteed slug not in the deck list, or more than ``within`` of them
    "same_owner",  # take_from: the other containers are these very containers
    "bad_data",  # from_dict / constructor: malformed data or duplicate uids
)


def hide_deck_order(data: Mapping[str, Any]) -> dict:
    """A seat's module data as its own player may see it: the deck becomes ``deck_count`` (nobody looks into his
    own deck, FM-4.6). ``data["cards"]`` is a :meth:`Containers.to_dict`; other keys are kept."""
    cards = data.get("cards")
    if not isinstance(cards, Mapping) or "deck" not in cards:
        return dict(data)
    visible = {k: v for k, v in cards.items() if k != "deck"}
    visible["deck_count"] = len(cards["deck"])
    return {**data, "cards": visible}


class ContainerError(Exception):
    """A refused container operation: ``code`` (stable, one of :data:`ERROR_CODES`), ``message`` (English, with
    ``%(name)s`` placeholders) and ``params`` (the values it names)."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        self.message = message
        self.params = params
        super().__init__(self.render())

    def render(self) -> str:
        """The message with its params filled in."""
        return self.message % self.params if self.params else self.message

    def __repr__(self) -> str:
        return f"ContainerError({self.code!r}, {self.render()!r})"


def _count(n: Any, name: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ContainerError("bad_count", "%(name)s must be a non-negative integer, got %(value)r", name=name, value=n)
    return n


def _choice(value: str, allowed: tuple[str, ...], name: str) -> str:
    if value not in allowed:
        raise ContainerError("bad_container", "%(name)s must be one of %(allowed)s, got %(value)r", name=name,
                             allowed=", ".join(allowed), value=value)
    return value


#: Card instances read by :meth:`Containers.from_dict`, by their stored fields. Instances are immutable, so equal
#: stored data can share one object; building them was the largest cost of reading a table (a resolution reads
#: every seat's containers). Bounded, so a long-running worker never grows it without limit.
_INTERNED: dict[tuple, CardInstance] = {}
_INTERNED_MAX = 100_000


def _instance(data: Mapping[str, Any]) -> CardInstance:
    """:meth:`CardInstance.from_dict`, shared through :data:`_INTERNED` (same result, same errors)."""
    try:
        key = (data["uid"], data["kind"], data.get("provenance", "deck"), data.get("free", False))
        inst = _INTERNED.get(key)
    except (TypeError, KeyError, AttributeError):  # malformed or unhashable: let from_dict report it
        return CardInstance.from_dict(data)
    if inst is None:
        inst = CardInstance.from_dict(data)
        if inst.provenance not in PROVENANCES:  # checked once, when an instance is first read
            raise ContainerError("bad_data", "unknown provenance %(value)r", value=inst.provenance)
        if len(_INTERNED) < _INTERNED_MAX:
            _INTERNED[key] = inst
    return inst


def _mulligan(uid: int) -> CardInstance:
    return CardInstance(uid=uid, kind=MULLIGAN, provenance="rule", free=True)


@dataclass
class Containers:
    """One character's Hand, Sleeve, deck and discard pile (FM-5.1, FM-4.6), plus the uid counter.

    Construct empty (``Containers()``) or from stored data (:meth:`from_dict`). The constructor copies the lists,
    refuses duplicate uids (``bad_data``) and raises ``next_uid`` above every uid present if needed.
    """

    hand: list[CardInstance] = field(default_factory=list)
    sleeve: list[CardInstance] = field(default_factory=list)
    deck: list[CardInstance] = field(default_factory=list)
    discard: list[CardInstance] = field(default_factory=list)
    next_uid: int = 1

    def __post_init__(self) -> None:
        # Every resolution reads each seat's containers, so the common (valid) case is checked in bulk; the loop that
        # names the fault only runs when something is wrong.
        self.hand, self.sleeve, self.deck, self.discard = (list(self.hand), list(self.sleeve), list(self.deck),
                                                           list(self.discard))
        every = [*self.hand, *self.sleeve, *self.deck, *self.discard]
        if not all(isinstance(inst, CardInstance) for inst in every):
            for name in CONTAINERS:
                for inst in getattr(self, name):
                    if not isinstance(inst, CardInstance):
                        raise ContainerError("bad_data", "%(container)s holds a non-card %(value)r", container=name,
                                             value=inst)
        seen = {inst.uid for inst in every}
        if len(seen) != len(every):
            counted: set[int] = set()
            for inst in every:
                if inst.uid in counted:
                    raise ContainerError("bad_data", "uid %(uid)s occurs twice", uid=inst.uid)
                counted.add(inst.uid)
        if isinstance(self.next_uid, bool) or not isinstance(self.next_uid, int):
            raise ContainerError("bad_data", "next_uid must be an integer, got %(value)r", value=self.next_uid)
        self.next_uid = max(self.next_uid, max(seen, default=0) + 1)

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict:
        """JSON-compatible data: ``{"hand": [...], "sleeve": [...], "deck": [...], "discard": [...],
        "next_uid": int}``, each card as :meth:`CardInstance.to_dict`. :meth:`from_dict` reads it back losslessly."""
        data: dict[str, Any] = {name: [inst.to_dict() for inst in getattr(self, name)] for name in CONTAINERS}
        data["next_uid"] = self.next_uid
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Containers:
        """Rebuild from :meth:`to_dict` output. Missing containers are empty; ``None`` or ``{}`` give empty
        containers. Raises ``bad_data`` for malformed data, an unknown provenance or duplicate uids."""
        data = data or {}
        try:
            lists = {name: [_instance(d) for d in data.get(name) or []] for name in CONTAINERS}
            next_uid = int(data.get("next_uid", 1))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ContainerError("bad_data", "malformed containers data: %(error)s", error=str(exc)) from exc
        for items in lists.values():  # interned instances were checked when first read; the rest here
            for inst in items:
                if inst.provenance not in PROVENANCES:
                    raise ContainerError("bad_data", "unknown provenance %(value)r", value=inst.provenance)
        return cls(**lists, next_uid=next_uid)

    def copy(self) -> Containers:
        """An independent copy (instances are immutable and shared)."""
        return Containers(list(self.hand), list(self.sleeve), list(self.deck), list(self.discard), self.next_uid)

    # ------------------------------------------------------------------ queries

    def counts(self) -> dict[str, int]:
        """``{"hand": n, "sleeve": n, "deck": n, "discard": n}`` (FM-5.1: only the Hand count is public)."""
        return {name: len(getattr(self, name)) for name in CONTAINERS}

    def total(self) -> int:
        """The number of instances in all four containers."""
        return sum(self.counts().values())

    def hand_kinds(self) -> list[str]:
        """The Hand's card slugs, front first (``wiretap`` shows this)."""
        return [inst.kind for inst in self.hand]

    def sleeve_kinds(self) -> list[str]:
        """The Sleeve's card slugs, in Sleeve order."""
        return [inst.kind for inst in self.sleeve]

    def instances(self) -> Iterator[tuple[str, CardInstance]]:
        """Every instance as ``(container name, instance)``, containers in :data:`CONTAINERS` order."""
        for name in CONTAINERS:
            for inst in getattr(self, name):
                yield name, inst

    def uids(self) -> list[int]:
        """Every uid, containers in :data:`CONTAINERS` order."""
        return [inst.uid for _, inst in self.instances()]

    def __contains__(self, uid: object) -> bool:
        return self._locate(uid) is not None

    def find(self, uid: int) -> tuple[str, int]:
        """``(container name, index)`` of the instance ``uid``; raises ``unknown_uid``."""
        where = self._locate(uid)
        if where is None:
            raise ContainerError("unknown_uid", "no card with uid %(uid)s", uid=uid)
        return where

    def get(self, uid: int) -> CardInstance:
        """The instance ``uid``; raises ``unknown_uid``."""
        name, index = self.find(uid)
        return getattr(self, name)[index]

    def peek(self, n: int = 3) -> list[CardInstance]:
        """The top ``n`` cards of the deck, top first, without moving them (FM-8 ``psychic``: top 3). Fewer if
        the deck is shorter. Raises ``bad_count``."""
        return list(self.deck[: _count(n)])

    def random_uid(self, rng: random.Random, container: str = "hand") -> int:
        """A uniformly random uid from ``container`` (one of :data:`CONTAINERS`) using ``rng`` (FM-8/§11
        ``pickpocket`` takes a random Hand card). Raises ``bad_container`` or ``empty``."""
        items = getattr(self, _choice(container, CONTAINERS, "container"))
        if not items:
            raise ContainerError("empty", "the %(container)s is empty", container=container)
        return rng.choice(items).uid

    # ------------------------------------------------------------------ internals

    def _locate(self, uid: object) -> tuple[str, int] | None:
        for name in CONTAINERS:
            for index, inst in enumerate(getattr(self, name)):
                if inst.uid == uid:
                    return name, index
        return None

    def _source(self, uid: int, source: str | None, allowed: tuple[str, ...] = CONTAINERS) -> tuple[str, int]:
        """Locate ``uid`` and check it is in ``source`` (or, with ``source=None``, in one of ``allowed``)."""
        if source is not None:
            _choice(source, allowed, "source")
        where = self.find(uid)
        if source is not None and where[0] != source:
            raise ContainerError(f"not_in_{source}", "card %(uid)s is not in the %(source)s", uid=uid, source=source)
        if source is None and where[0] not in allowed:
            raise ContainerError("not_in_" + "_or_".join(allowed), "card %(uid)s is not in the %(allowed)s", uid=uid,
                                 allowed=" or ".join(allowed))
        return where

    def _new_uid(self) -> int:
        uid = self.next_uid
        self.next_uid += 1
        return uid

    def _put(self, inst: CardInstance, to: str) -> None:
        if to == "deck_top":
            self.deck.insert(0, inst)
        elif to == "deck_bottom":
            self.deck.append(inst)
        else:
            getattr(self, to).append(inst)

    def _pop(self, where: tuple[str, int]) -> CardInstance:
        return getattr(self, where[0]).pop(where[1])

    # ------------------------------------------------------------------ draws

    def draw(self, to: str = "hand", n: int = 1) -> list[CardInstance]:
        """Draw ``n`` cards (FM-4.6): each takes the top card of the deck to the **end** of the Hand (``to="hand"``)
        or the Sleeve (``to="sleeve"``). When the deck is empty, each draw instead creates a new ``mulligan``
        instance (provenance ``"rule"``, free) at the same place (FM-4.7) — the only way a draw adds an instance.
        Returns the drawn instances in draw order. Raises ``bad_container``, ``bad_count``."""
        _choice(to, DRAW_TARGETS, "to")
        drawn = [self.deck.pop(0) if self.deck else _mulligan(self._new_uid()) for _ in range(_count(n))]
        getattr(self, to).extend(drawn)
        return drawn

    def deal_opening_hand(self, n: int = 6) -> list[CardInstance]:
        """Draw the opening Hand: ``n`` cards into the Hand (FM-4.5: 6; FM-8 ``geek``: 5). Same as
        ``draw("hand", n)``. Raises ``bad_count``."""
        return self.draw("hand", n)

    # ------------------------------------------------------------------ discards

    def discard_front(self, n: int, to_sleeve: int = 0) -> list[CardInstance]:
        """Lose ``n`` cards from the **front** of the Hand, in Hand order (FM-6.1 damage losses, after the owed
        replacement draws have absorbed their share — that bookkeeping is the engine's). With fewer than ``n``
        Hand cards, all are lost. The first ``to_sleeve`` lost cards go to the end of the Sleeve instead of the
        discard pile (FM-8 ``warrior``: his first two damage discards of the game; the engine tracks how many he
        has left). Returns every lost card in Hand order (the first ``min(to_sleeve, len(result))`` went to the
        Sleeve). Raises ``bad_count``."""
        k = min(_count(n), len(self.hand))
        divert = min(_count(to_sleeve, "to_sleeve"), k)
        lost = self.hand[:k]
        del self.hand[:k]
        self.sleeve.extend(lost[:divert])
        self.discard.extend(lost[divert:])
        return lost

    def discard_card(self, uid: int, source: str | None = None) -> CardInstance:
        """Discard the named card from the Hand or the Sleeve to the discard pile (a played card, FM-4.6; a Hand
        discard instead of plays, FM-5.3; a price card chosen in the order, FM-5.7). ``source`` ``"hand"`` or
        ``"sleeve"`` insists on that container; ``None`` accepts either. Returns the instance. Raises
        ``bad_container``, ``unknown_uid``, ``not_in_hand``, ``not_in_sleeve``, ``not_in_hand_or_sleeve``.

        (Named ``discard_card`` because ``discard`` is the discard-pile field.)"""
        inst = self._pop(self._source(uid, source, ("hand", "sleeve")))
        self.discard.append(inst)
        return inst

    def discard_many(self, uids: Sequence[int], source: str | None = None) -> list[CardInstance]:
        """Discard several named cards at once, in the given order, all or nothing (FM-5.3 two Hand cards; FM-5.7
        price cards). Every uid is checked as in :meth:`discard_card` before anything moves. Raises the same
        errors plus ``duplicate_uid``."""
        uids = list(uids)
        if len(set(uids)) != len(uids):
            raise ContainerError("duplicate_uid", "a card is named twice: %(uids)s", uids=uids)
        for uid in uids:
            self._source(uid, source, ("hand", "sleeve"))
        return [self.discard_card(uid, source) for uid in uids]

    def discard_first_from_sleeve(self, n: int) -> list[CardInstance]:
        """Discard the first ``n`` Sleeve cards, in Sleeve order (§11 ``arson``: 2; FM-5.7 default price cards).
        With fewer, all. Returns them. Raises ``bad_count``."""
        k = min(_count(n), len(self.sleeve))
        lost = self.sleeve[:k]
        del self.sleeve[:k]
        self.discard.extend(lost)
        return lost

    def mill_deck(self, n: int) -> list[CardInstance]:
        """Discard the top ``n`` deck cards, top first (§11 ``hack``: 3). With fewer, all; an empty deck mills
        nothing (no mulligans: milling is not drawing). Returns them. Raises ``bad_count``."""
        k = min(_count(n), len(self.deck))
        lost = self.deck[:k]
        del self.deck[:k]
        self.discard.extend(lost)
        return lost

    # ------------------------------------------------------------------ moves

    def move(self, uid: int, to: str, source: str | None = None) -> CardInstance:
        """Move the instance ``uid`` to ``to`` — ``"hand"`` / ``"sleeve"`` / ``"discard"`` (the end),
        ``"deck_top"``, ``"deck_bottom"`` (§11 ``stash`` Hand→Sleeve, ``reserve`` deck→Sleeve, ``last_stand``
        discard→Hand). ``source`` (one of :data:`CONTAINERS`) insists on where it is now. Moving within the same
        container puts it at the end / top / bottom. Returns the instance. Raises ``bad_container``,
        ``unknown_uid``, ``not_in_<source>``."""
        _choice(to, DESTINATIONS, "to")
        inst = self._pop(self._source(uid, source))
        self._put(inst, to)
        return inst

    def take_from(self, other: Containers, uid: int, to: str = "hand", source: str | None = None) -> CardInstance:
        """Move the instance ``uid`` out of ``other`` (another owner's containers) into these, at ``to`` (one of
        :data:`DESTINATIONS`, default the end of the Hand) — §11 ``pickpocket`` (pick the uid with
        ``other.random_uid(rng)``; the victim does not replace it). The card keeps its kind, provenance and free
        flag but gets a fresh uid here (uids are per owner); ``other`` loses one instance, these gain one. Returns
        the new instance. Raises ``same_owner``, ``bad_container``, ``unknown_uid``, ``not_in_<source>``."""
        if other is self:
            raise ContainerError("same_owner", "cannot take a card from oneself")
        _choice(to, DESTINATIONS, "to")
        where = other._source(uid, source)
        inst = replace(other._pop(where), uid=self._new_uid())
        self._put(inst, to)
        return inst

    def reorder_hand(self, uids: Sequence[int]) -> None:
        """Put the Hand in the order ``uids`` (FM-4.6: the player may reorder it at any time). ``uids`` must be a
        permutation of the current Hand's uids (each exactly once, nothing else), else ``bad_order`` and nothing
        changes."""
        current = [inst.uid for inst in self.hand]
        given = list(uids) if isinstance(uids, Iterable) and not isinstance(uids, (str, bytes, Mapping)) else None
        if (given is None or len(given) != len(current)
                or any(isinstance(u, bool) or not isinstance(u, int) for u in given)
                or sorted(given) != sorted(current)):
            raise ContainerError("bad_order", "the new order %(given)r must list every Hand card exactly once",
                                 given=uids, expected=current)
        by_uid = {inst.uid: inst for inst in self.hand}
        self.hand = [by_uid[u] for u in given]

    def shuffle_deck(self, rng: random.Random) -> None:
        """Shuffle the deck with ``rng`` (FM-4.5; the same seed gives the same order)."""
        rng.shuffle(self.deck)

    def set_free(self, uid: int, free: bool = True) -> CardInstance:
        """Replace the instance ``uid`` in place by one with the given ``free`` flag (FM-4.4; roles that make cards
        free: ``magician`` — see :meth:`rebuild` — ``spendthrift``). Returns the new instance. Raises
        ``unknown_uid``."""
        name, index = self.find(uid)
        items = getattr(self, name)
        items[index] = items[index].with_free(bool(free))
        return items[index]

    def set_provenance(self, uid: int, provenance: str) -> CardInstance:
        """Replace the instance ``uid`` in place by one with the given ``provenance`` (a card a role drew into the
        Sleeve counts as the role's, FM-8 ``cardsharp``). Raises ``unknown_uid``, ``bad_provenance``."""
        _choice(provenance, PROVENANCES, "provenance")
        name, index = self.find(uid)
        items = getattr(self, name)
        items[index] = replace(items[index], provenance=provenance)
        return items[index]

    # ------------------------------------------------------------------ new instances

    def add(self, kind: str, to: str, provenance: str, free: bool = False,
            collection: Collection | None = None) -> CardInstance:
        """Create a new instance of ``kind`` at ``to`` (one of :data:`DESTINATIONS`): role start cards and
        ``dummy``/``ace`` (provenance ``"role"``, FM-8), ``geek``'s and ``looter``'s cards (``"ability"``).
        With ``collection`` the kind must be in it (``unknown_kind``) and the instance is also free when the kind
        is. Returns the instance. Raises ``bad_container``, ``bad_provenance``, ``unknown_kind``."""
        _choice(to, DESTINATIONS, "to")
        if provenance not in PROVENANCES:
            raise ContainerError("bad_provenance", "provenance must be one of %(allowed)s, got %(value)r",
                                 allowed=", ".join(PROVENANCES), value=provenance)
        if not isinstance(kind, str) or not kind or (collection is not None and kind not in collection):
            raise ContainerError("unknown_kind", "unknown card kind %(kind)r", kind=kind)
        if collection is not None:
            free = free or collection[kind].free
        inst = CardInstance(uid=self._new_uid(), kind=kind, provenance=provenance, free=bool(free))
        self._put(inst, to)
        return inst

    def new_deck(self, deck_slugs: Sequence[str], rng: random.Random, collection: Collection,
                 guaranteed: Sequence[str] = (), within: int = 6) -> list[CardInstance]:
        """Build the initial deck from the submitted slug list (validated by the deck rules, FM-4.3) and shuffle it
        with ``rng`` (FM-4.5); then call :meth:`deal_opening_hand`. Each instance has provenance ``"deck"`` and
        is free when its kind is. ``guaranteed`` (FM-8 ``engineer``: two slugs of the list) places one instance of
        each at random positions among the top ``within`` cards, so they are among his first draws. Only allowed
        with an empty deck. Returns the deck, top first. Raises ``deck_not_empty``, ``unknown_kind``,
        ``bad_guaranteed``, ``bad_count``."""
        return self._build(deck_slugs, rng, collection, guaranteed=guaranteed, within=within)

    def rebuild(self, deck_slugs: Sequence[str], rng: random.Random, collection: Collection,
                free_bottom: int = 0) -> list[CardInstance]:
        """Rebuild an exhausted deck (FM-4.7: allowed only when the deck is empty, else ``deck_not_empty``) from a
        slug list already validated under FM-4.3, shuffled with ``rng``. Hand, Sleeve and the old discard pile
        stay as they are. ``free_bottom=2`` makes the bottom two cards of the new deck free (FM-8 ``magician``,
        after his first rebuild — the engine decides when). Recharges (FM-4.8, ``banker``'s Sleeve draw) are the
        engine's. Returns the new deck, top first. Raises ``deck_not_empty``, ``unknown_kind``, ``bad_count``."""
        return self._build(deck_slugs, rng, collection, free_bottom=free_bottom)

    def redeal(self, rng: random.Random, n: int = 6) -> list[CardInstance]:
        """FM-8 ``lucky``: return every Hand card to the deck, shuffle it with ``rng`` and draw ``n`` again.
        Returns the new Hand cards. Raises ``bad_count``."""
        _count(n)
        self.deck.extend(self.hand)
        self.hand = []
        self.shuffle_deck(rng)
        return self.draw("hand", n)

    def _build(self, deck_slugs: Sequence[str], rng: random.Random, collection: Collection, *,
               guaranteed: Sequence[str] = (), within: int = 6, free_bottom: int = 0) -> list[CardInstance]:
        _count(within, "within")
        _count(free_bottom, "free_bottom")
        if self.deck:
            raise ContainerError("deck_not_empty", "the deck still holds %(count)s cards", count=len(self.deck))
        slugs = list(deck_slugs)
        unknown = sorted({s for s in slugs if not isinstance(s, str) or s not in collection}, key=repr)
        if unknown:
            raise ContainerError("unknown_kind", "unknown card kinds %(kinds)s", kinds=unknown)
        pool = list(slugs)
        for slug in guaranteed:
            if slug not in pool:
                raise ContainerError("bad_guaranteed", "guaranteed card %(kind)r is not in the deck", kind=slug)
            pool.remove(slug)
        if len(guaranteed) > min(within, len(slugs)):
            raise ContainerError("bad_guaranteed", "at most %(within)s guaranteed cards", within=within)
        made = [CardInstance(uid=self._new_uid(), kind=s, provenance="deck", free=collection[s].free) for s in slugs]
        picked: list[CardInstance] = []
        rest = list(made)
        for slug in guaranteed:
            inst = next(i for i in rest if i.kind == slug)
            rest.remove(inst)
            picked.append(inst)
        rng.shuffle(rest)
        if picked:
            rng.shuffle(picked)
            for pos, inst in zip(sorted(rng.sample(range(min(within, len(made))), len(picked))), picked, strict=True):
                rest.insert(pos, inst)
        if free_bottom:
            rest[-free_bottom:] = [i.with_free(True) for i in rest[-free_bottom:]]
        self.deck = rest
        return list(self.deck)

