"""Deck-building rules of forum Mafia (FM-4.3 with the role variants of §3 and §8), pure Python.

* :func:`rules_for` turns a player's secret role (+ the Joker's chosen colours) and public role into a
  :class:`DeckRules`.
* :func:`validate_deck` checks a submitted deck against a :class:`~cards.domain.Collection` and returns **every**
  broken rule at once as :class:`DeckError` values (an empty list means the deck is valid).
* :func:`random_valid_deck` builds a seeded random valid deck (FM-4.5 [house]: for players without a valid deck at
  the build deadline).

Deck entries (the JSON shape stored and sent by the API): ``{"kind": slug}``, or ``{"kind": slug, "count_as":
"non_free"}`` for a ``spendthrift``'s card of price ≥ 2 that he wants counted among his non-free cards; a plain slug
string is shorthand for ``{"kind": slug}``.

Translations: this module must not import Django, so user-facing messages are plain English msgids marked with a
local no-op ``_`` (:func:`gettext_noop`), which ``makemessages`` (xgettext) picks up like Django's own
``gettext_noop``. The shell translates when it renders: ``error.render(gettext, card_name=...)`` calls
``translate(msgid) % params`` — the params are filled in *after* translation, so msgids keep their ``%(name)s``
placeholders. Colour names in params are translated the same way (:data:`COLOUR_NAMES`).

How the rules combine (the seed ``seeds/004_666f92ca90d279a9.txt``, Russian, wins over the digest):

* Base (seed, «Колода»): «15 несвободных карт; 0-3 свободных карт. Не больше 2 копий одной карты. Карт цветов, не
  соответствующих роли и не нейтральных, можно взять не более 2 в сумме.» The colour limits count every card of the
  deck, free ones included ("карт ... можно взять" — cards taken into the deck, whatever their freeness).
* ``policeman``/``detective``: «нельзя брать карты других цветов, кроме Нейтральных» — a prohibition, so the
  off-colour limit is 0 and it stays 0 for a ``croupier`` too: the croupier's «Лимит карт не своего цвета в колоде -
  4, вместо 2» replaces the general limit of 2, not the role's ban.
* ``traitor``: «Не может брать в колоду более трёх карт одного цвета»; ``hero``: «более четырёх карт одного цвета»
  and «Не может брать карты Урона». "One colour" includes Neutral: the seed lists «Нейтральный» among the colours
  every card has («Каждая карта обладает одним из цветов: ... Нейтральный»).
* ``croupier`` as ``traitor``: «Если является Предателем, может брать до 4 карт каждого цвета» → 4 per colour. Any
  other croupier gets only the off-colour limit 4; a croupier ``hero`` keeps 4 per colour and no Damage (the Damage
  ban is not an off-colour limit the croupier could lift).
* A card of a forbidden colour (the hero's Damage) is reported once, as ``forbidden_colour``; it is not also counted
  as off-colour nor in the per-colour limit.
* ``genius``: «Его колода должна содержать 12 несвободных карт и до 5 свободных.»
* ``spendthrift``: «Его карты с ценой 2 и более являются Свободными. (Набирать их можно как несвободные)» — a card of
  price ≥ 2 counts as free unless its entry says ``"count_as": "non_free"``; in play it is free either way
  (:meth:`DeckRules.plays_free`). ``count_as`` anywhere else is refused (``bad_count_as``).
* ``joker``: «Выбирает два любых цвета в начале игры» — exactly two distinct colours; Neutral is not a choice (it is
  allowed to everyone anyway), so :func:`rules_for` refuses it.
* ``magician`` («После первой пересборки Колоды нижние две карты в ней становятся Свободными») and ``engineer`` do
  not change which decks are valid: the magician's cards become free after the rebuilt deck is accepted (a container
  matter), the engineer picks two cards of an already valid deck.
* The rules are the same when a player rebuilds an empty deck (FM-4.7: «как набрал бы в начале игры»).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from cards.domain import COLOURS, NEUTRAL, CardKind, Collection


def gettext_noop(s: str) -> str:
    """Mark ``s`` as a translatable msgid for ``makemessages`` without translating it (no Django import here)."""
    return s


_ = gettext_noop

#: The six non-neutral colours (FM-4.1).
ROLE_COLOURS: tuple[str, ...] = tuple(c for c in COLOURS if c != NEUTRAL)

#: Colours of every secret role (FM-3.1 … FM-3.3), in the seed's order. The Joker's are chosen at game start.
SECRET_ROLE_COLOURS: dict[str, tuple[str, ...]] = {
    # FM-3.1 Mafia
    "mafia_boss": ("control", "recon"),
    "mafia_advisor": ("support", "protection"),
    "mafia_killer": ("damage", "sabotage"),
    # FM-3.2 Law
    "sheriff": ("damage", "recon"),
    "commissioner": ("recon", "protection"),
    "doctor": ("protection", "sabotage"),
    "agent": ("sabotage", "control"),
    "judge": ("control", "support"),
    "vigilante": ("support", "damage"),
    "policeman": ("damage", "protection", "control"),
    "detective": ("recon", "sabotage", "support"),
    # FM-3.3 Neutrals
    "maniac": ROLE_COLOURS,
    "joker": (),
    "traitor": ROLE_COLOURS,
    "hero": ("recon", "protection", "sabotage", "control", "support"),
}
#: Roles that may take no off-colour card at all (FM-3.2: "may take no other colours except Neutral").
NEUTRAL_ONLY_ROLES: frozenset[str] = frozenset({"policeman", "detective"})
#: Public roles (FM-8) that change the deck rules.
DECK_RULE_PUBLIC_ROLES: frozenset[str] = frozenset({"croupier", "genius", "spendthrift"})

#: The only accepted value of an entry's ``count_as`` and the keys an entry may have.
NON_FREE = "non_free"
ENTRY_KEYS: frozenset[str] = frozenset({"kind", "count_as"})
#: A spendthrift's cards of at least this price are free (FM-8).
SPENDTHRIFT_MIN_PRICE = 2

#: Display names of the colours (msgids), used when an error is rendered.
COLOUR_NAMES: dict[str, str] = {
    "damage": _("Damage"),
    "recon": _("Recon"),
    "protection": _("Protection"),
    "sabotage": _("Sabotage"),
    "control": _("Control"),
    "support": _("Support"),
    "neutral": _("Neutral"),
    "special": _("Special"),
}

RULE = "FM-4.3"
COLLECTION_RULE = "FM-4.2"

MESSAGES: dict[str, str] = {
    "not_a_list": _("The deck must be a list of cards."),
    "not_a_card": _("Deck entry %(position)s is not a card: give a card name or an object with “kind”."),
    "no_kind": _("Deck entry %(position)s names no card."),
    "bad_count_as": _("Deck entry %(position)s: “count_as” can only be “non_free”."),
    "extra_keys": _("Deck entry %(position)s has unknown fields: %(fields)s."),
    "unknown_card": _("There is no card “%(card)s” in the collection (%(count)s in the deck)."),
    "special_card": _("“%(card)s” can't be put in a deck: it enters play only through roles or rules."),
    "count_as_refused": _("“%(card)s” can't be counted as non-free: only the spendthrift's cards with price "
                          "%(price)s or more can."),
    "non_free_count": _("Non-free cards: %(count)s of %(required)s."),
    "free_count": _("Free cards: %(count)s of at most %(max)s."),
    "copies": _("At most %(max)s copies of “%(card)s”; the deck has %(count)s."),
    "forbidden_colour": _("Your role may take no %(colour)s cards; the deck has %(count)s."),
    "off_colour": _("Off-colour cards (neither your role's colours nor neutral): %(count)s of at most %(max)s."),
    "off_colour_none": _("Your role may take no cards of other colours except neutral; the deck has %(count)s."),
    "per_colour": _("At most %(max)s cards of one colour: %(colour)s has %(count)s."),
}


class RandomLike(Protocol):
    def choice(self, seq: Any) -> Any: ...

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class DeckRules:
    """What a valid deck of one player looks like (FM-4.3).

    ``role_colours`` are the secret role's colours (the Joker's chosen two); Neutral is always allowed. A card is
    *off-colour* when its colour is neither a role colour, nor Neutral, nor forbidden. ``per_colour_max`` is ``None``
    when there is no per-colour limit. ``spendthrift``: price ≥ 2 cards are free unless counted as non-free.
    """

    secret_role: str
    public_role: str | None
    role_colours: tuple[str, ...]
    non_free_required: int = 15
    free_max: int = 3
    copies_max: int = 2
    off_colour_max: int = 2
    per_colour_max: int | None = None
    forbidden_colours: frozenset[str] = frozenset()
    spendthrift: bool = False

    def is_off_colour(self, colour: str) -> bool:
        return colour != NEUTRAL and colour not in self.role_colours and colour not in self.forbidden_colours

    def can_count_as_non_free(self, kind: CardKind) -> bool:
        """Whether ``kind`` may carry ``"count_as": "non_free"`` (a spendthrift's price ≥ 2, not free by itself)."""
        return self.spendthrift and not kind.free and kind.price >= SPENDTHRIFT_MIN_PRICE

    def plays_free(self, kind: CardKind) -> bool:
        """Whether a card of this kind from this player's deck is free in play (FM-4.4, FM-8 ``spendthrift``)."""
        return kind.free or (self.spendthrift and kind.price >= SPENDTHRIFT_MIN_PRICE)

    def counts_as_free(self, kind: CardKind, count_as: str | None = None) -> bool:
        """Whether a deck entry of this kind counts among the free cards when building."""
        if count_as == NON_FREE and self.can_count_as_non_free(kind):
            return False
        return self.plays_free(kind)

    def to_dict(self) -> dict:
        return {
            "secret_role": self.secret_role, "public_role": self.public_role,
            "role_colours": list(self.role_colours), "non_free_required": self.non_free_required,
            "free_max": self.free_max, "copies_max": self.copies_max, "off_colour_max": self.off_colour_max,
            "per_colour_max": self.per_colour_max, "forbidden_colours": sorted(self.forbidden_colours),
            "spendthrift": self.spendthrift,
        }


def _joker_colours(joker_colours: Iterable[str] | None) -> tuple[str, ...]:
    if joker_colours is None or isinstance(joker_colours, str | bytes):
        raise ValueError("The joker must choose exactly two colours (a pair of colour slugs).")
    chosen = list(joker_colours)
    if len(chosen) != 2 or len(set(chosen)) != 2:
        raise ValueError(f"The joker must choose exactly two distinct colours, got {chosen!r}.")
    bad = [c for c in chosen if c not in ROLE_COLOURS]
    if bad:
        raise ValueError(f"Not a colour the joker can choose: {bad!r} (choose from {', '.join(ROLE_COLOURS)}).")
    return tuple(c for c in ROLE_COLOURS if c in chosen)


def rules_for(*, secret_role: str, public_role: str | None,
              joker_colours: Iterable[str] | None = None) -> DeckRules:
    """The deck rules of a player (FM-4.3). ``public_role`` may be any slug, a custom name or ``None``; only
    :data:`DECK_RULE_PUBLIC_ROLES` matter. ``joker_colours`` is required for (and only allowed with) the joker.

    Raises ``ValueError`` for an unknown secret role or bad joker colours.
    """
    if secret_role not in SECRET_ROLE_COLOURS:
        raise ValueError(f"Unknown secret role {secret_role!r}.")
    if secret_role == "joker":
        colours = _joker_colours(joker_colours)
    elif joker_colours is not None:
        raise ValueError(f"Only the joker chooses colours, not {secret_role!r}.")
    else:
        colours = SECRET_ROLE_COLOURS[secret_role]

    genius = public_role == "genius"
    croupier = public_role == "croupier"
    # Croupier: «Лимит карт не своего цвета в колоде - 4, вместо 2»; the policeman's/detective's ban stays.
    off_colour_max = 0 if secret_role in NEUTRAL_ONLY_ROLES else (4 if croupier else 2)
    per_colour_max = {"traitor": 3, "hero": 4}.get(secret_role)
    if croupier and secret_role == "traitor":
        per_colour_max = 4  # «Если является Предателем, может брать до 4 карт каждого цвета.»
    return DeckRules(
        secret_role=secret_role,
        public_role=public_role,
        role_colours=colours,
        non_free_required=12 if genius else 15,
        free_max=5 if genius else 3,
        copies_max=2,
        off_colour_max=off_colour_max,
        per_colour_max=per_colour_max,
        forbidden_colours=frozenset({"damage"}) if secret_role == "hero" else frozenset(),
        spendthrift=public_role == "spendthrift",
    )


def _identity(s: str) -> str:
    return s


@dataclass(frozen=True)
class DeckError:
    """One broken deck rule.

    ``rule`` is the rule ID (``FM-4.3``; ``FM-4.2`` for cards that are not in the collection or are special);
    ``code`` a stable machine code (``non_free_count``, ``free_count``, ``copies``, ``off_colour``, ``per_colour``,
    ``forbidden_colour``, ``unknown_card``, ``special_card``, ``bad_count_as``, ``bad_entry``); ``message`` an
    English msgid with ``%(name)s`` placeholders; ``params`` the numbers (and ``card``/``colour`` slugs,
    ``position`` — 1-based — of a bad entry); ``card`` the card slug concerned, if any.
    """

    rule: str
    code: str
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    card: str | None = None

    def render(self, translate: Callable[[str], str] = _identity,
               card_name: Callable[[str], str] | None = None) -> str:
        """The message in the reader's language: ``translate`` is e.g. Django's ``gettext``; ``card_name`` maps a
        card slug to its display name (default: the slug; never called for an unknown card)."""
        params = dict(self.params)
        if "colour" in params:
            params["colour"] = translate(COLOUR_NAMES.get(params["colour"], params["colour"]))
        if "fields" in params:
            params["fields"] = ", ".join(str(f) for f in params["fields"])
        if self.card is not None and card_name is not None and self.code != "unknown_card":
            params["card"] = card_name(self.card)
        return translate(self.message) % params

    def to_dict(self) -> dict:
        return {"rule": self.rule, "code": self.code, "message": self.message, "params": dict(self.params),
                "card": self.card}


def _error(code: str, message_key: str, *, rule: str = RULE, card: str | None = None, **params: Any) -> DeckError:
    if card is not None:
        params = {"card": card, **params}
    return DeckError(rule=rule, code=code, message=MESSAGES[message_key], params=params, card=card)


def _parse_entry(raw: object, position: int) -> tuple[str, str | None] | DeckError:
    """``(slug, count_as)`` of one entry, or its ``bad_entry`` error."""
    if isinstance(raw, str):
        raw = {"kind": raw}
    if not isinstance(raw, Mapping):
        return _error("bad_entry", "not_a_card", position=position)
    extra = sorted(str(k) for k in raw if k not in ENTRY_KEYS)
    if extra:
        return _error("bad_entry", "extra_keys", position=position, fields=extra)
    kind = raw.get("kind")
    if not isinstance(kind, str) or not kind.strip():
        return _error("bad_entry", "no_kind", position=position)
    if "count_as" in raw and raw["count_as"] != NON_FREE:
        return _error("bad_entry", "bad_count_as", position=position)
    return kind, raw.get("count_as")


def validate_deck(entries: Any, *, collection: Collection, rules: DeckRules) -> list[DeckError]:
    """Every rule the deck breaks (FM-4.3; empty list = valid), in a stable order: malformed entries, unknown and
    special cards, refused ``count_as``, then the deck-wide counts.

    Malformed entries, unknown cards and special cards are left out of the counts (each is reported on its own);
    a refused ``count_as`` is ignored for counting (the card counts as it would without it).
    """
    if isinstance(entries, str | bytes | Mapping) or not isinstance(entries, Iterable):
        return [_error("bad_entry", "not_a_list")]

    errors: list[DeckError] = []
    unknown: Counter[str] = Counter()
    special: Counter[str] = Counter()
    refused_count_as: Counter[str] = Counter()
    cards: list[tuple[CardKind, bool]] = []  # (kind, counts as free)
    for position, raw in enumerate(entries, start=1):
        parsed = _parse_entry(raw, position)
        if isinstance(parsed, DeckError):
            errors.append(parsed)
            continue
        slug, count_as = parsed
        if slug not in collection:
            unknown[slug] += 1
            continue
        kind = collection[slug]
        if kind.special:
            special[slug] += 1
            continue
        if count_as is not None and not rules.can_count_as_non_free(kind):
            refused_count_as[slug] += 1
        cards.append((kind, rules.counts_as_free(kind, count_as)))

    errors += [_error("unknown_card", "unknown_card", rule=COLLECTION_RULE, card=s, count=n)
               for s, n in unknown.items()]
    errors += [_error("special_card", "special_card", rule=COLLECTION_RULE, card=s, count=n)
               for s, n in special.items()]
    errors += [_error("bad_count_as", "count_as_refused", card=s, count=n, price=SPENDTHRIFT_MIN_PRICE)
               for s, n in refused_count_as.items()]

    free = sum(1 for _kind, is_free in cards if is_free)
    non_free = len(cards) - free
    if non_free != rules.non_free_required:
        errors.append(_error("non_free_count", "non_free_count", count=non_free, required=rules.non_free_required))
    if free > rules.free_max:
        errors.append(_error("free_count", "free_count", count=free, max=rules.free_max))

    copies = Counter(kind.slug for kind, _free in cards)
    errors += [_error("copies", "copies", card=s, count=n, max=rules.copies_max)
               for s, n in copies.items() if n > rules.copies_max]

    colours = Counter(kind.colour for kind, _free in cards)
    order = [c for c in COLOURS if c in colours] + sorted(c for c in colours if c not in COLOURS)
    for colour in order:
        if colour in rules.forbidden_colours:
            errors.append(_error("forbidden_colour", "forbidden_colour", colour=colour, count=colours[colour]))
    off = sum(n for c, n in colours.items() if rules.is_off_colour(c))
    if off > rules.off_colour_max:
        key = "off_colour_none" if rules.off_colour_max == 0 else "off_colour"
        errors.append(_error("off_colour", key, count=off, max=rules.off_colour_max))
    if rules.per_colour_max is not None:
        errors += [_error("per_colour", "per_colour", colour=c, count=colours[c], max=rules.per_colour_max)
                   for c in order if c not in rules.forbidden_colours and colours[c] > rules.per_colour_max]
    return errors


def normalise_deck(entries: Iterable[str | Mapping[str, Any]]) -> list[dict]:
    """The canonical dict form of a deck that :func:`validate_deck` accepted (shorthand strings expanded)."""
    out = []
    for raw in entries:
        entry = {"kind": raw} if isinstance(raw, str) else {"kind": raw["kind"]}
        if not isinstance(raw, str) and "count_as" in raw:
            entry["count_as"] = raw["count_as"]
        out.append(entry)
    return out


class _Tally:
    """Running counts while :func:`random_valid_deck` builds a deck."""

    def __init__(self, rules: DeckRules) -> None:
        self.rules = rules
        self.copies: Counter[str] = Counter()
        self.colours: Counter[str] = Counter()
        self.off = 0

    def fits(self, kind: CardKind) -> bool:
        rules = self.rules
        return (kind.colour not in rules.forbidden_colours
                and self.copies[kind.slug] < rules.copies_max
                and (rules.per_colour_max is None or self.colours[kind.colour] < rules.per_colour_max)
                and (not rules.is_off_colour(kind.colour) or self.off < rules.off_colour_max))

    def add(self, kind: CardKind) -> None:
        self.copies[kind.slug] += 1
        self.colours[kind.colour] += 1
        self.off += self.rules.is_off_colour(kind.colour)


def _max_non_free(kinds: list[CardKind], rules: DeckRules) -> int:
    """How many non-free cards the collection allows at most under ``rules`` (exact: the limits nest — copies
    within a colour, colours within the off-colour group — so capping bottom-up gives the maximum)."""
    per_colour: Counter[str] = Counter()
    for kind in kinds:
        if not kind.free and kind.colour not in rules.forbidden_colours:
            per_colour[kind.colour] += rules.copies_max
    cap = rules.per_colour_max
    capped = {c: n if cap is None else min(n, cap) for c, n in per_colour.items()}
    on = sum(n for c, n in capped.items() if not rules.is_off_colour(c))
    off = sum(n for c, n in capped.items() if rules.is_off_colour(c))
    return on + min(off, rules.off_colour_max)


def random_valid_deck(*, collection: Collection, rules: DeckRules, rng: RandomLike) -> list[dict]:
    """A random deck that satisfies :func:`validate_deck` (FM-4.5 [house]), reproducible from ``rng`` (pass
    ``random.Random(seed)``).

    First the non-free cards: each is drawn uniformly among the kinds that still fit every limit (a spendthrift's
    price ≥ 2 cards enter as ``count_as: non_free``). Any fitting choice keeps the deck completable: it lowers the
    achievable maximum (:func:`_max_non_free`) by exactly one, as it lowers the remaining need. Then a random number
    (0 … ``free_max``) of free cards, as long as some still fit. Entries are returned sorted by colour and slug.

    Raises ``ValueError`` if the collection cannot make a valid deck for these rules at all.
    """
    kinds = collection.buildable()
    if _max_non_free(kinds, rules) < rules.non_free_required:
        raise ValueError(f"The collection cannot make a valid deck for {rules.secret_role!r}"
                         f" / {rules.public_role!r}.")
    tally = _Tally(rules)
    deck: list[dict] = []
    for _i in range(rules.non_free_required):
        options = [k for k in kinds if not k.free and tally.fits(k)]
        kind = rng.choice(options)
        tally.add(kind)
        entry: dict = {"kind": kind.slug}
        if rules.plays_free(kind):  # a spendthrift's price ≥ 2 card taken as non-free
            entry["count_as"] = NON_FREE
        deck.append(entry)
    wanted = rng.randint(0, rules.free_max)
    for _i in range(wanted):
        options = [k for k in kinds if rules.plays_free(k) and tally.fits(k)]
        if not options:
            break
        kind = rng.choice(options)
        tally.add(kind)
        deck.append({"kind": kind.slug})

    rank = {c: i for i, c in enumerate(COLOURS)}
    deck.sort(key=lambda e: (rank.get(collection[e["kind"]].colour, len(rank)), e["kind"], "count_as" in e))
    errors = validate_deck(deck, collection=collection, rules=rules)
    if errors:  # pragma: no cover - guarded by the capacity argument above
        raise RuntimeError(f"random_valid_deck built an invalid deck: {[e.render() for e in errors]}")
    return deck
