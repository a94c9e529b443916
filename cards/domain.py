"""Card domain types shared by the collection, deck rules and containers (pure: no Django import).

A :class:`CardKind` is one row of the collection (FM-4.2, §11); a :class:`Collection` is the set of kinds a game
plays with (snapshotted when the game starts, so editing the collection never changes a running game); a
:class:`CardInstance` is one physical card in play, remembering where it came from and whether it is free.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

#: FM-4.1 colours, in the rulebook's order.
COLOURS: tuple[str, ...] = ("damage", "recon", "protection", "sabotage", "control", "support", "neutral")
NEUTRAL = "neutral"
#: ``special`` kinds are not offered in deck building (FM-4.2): they enter play through roles or rules.
SPECIAL = "special"
TIMINGS: tuple[str, ...] = ("night", "day", "any")
#: Targeting of §11: ``none`` (none/self), ``one`` living other character, ``two`` characters, ``dead`` one dead
#: character; ``one_card`` one character + a card slug (``accusation``); ``one_text`` one character + a message.
TARGETS: tuple[str, ...] = ("none", "one", "two", "dead", "one_card", "one_text")
#: Where a card instance came from: the player's deck, his public role (FM-8), an ability, or a rule (mulligan).
PROVENANCES: tuple[str, ...] = ("deck", "role", "ability", "rule")
MULLIGAN = "mulligan"


@dataclass(frozen=True)
class CardKind:
    """One kind of card (FM-4.2).

    ``colour`` is one of :data:`COLOURS` or ``"special"``; ``price`` the number of Sleeve cards discarded to play it
    (0–3, FM-5.7); ``free`` whether its play uses no slot (FM-4.4); ``timing`` one of :data:`TIMINGS`; ``target``
    one of :data:`TARGETS`; ``effect`` the machine-readable effect spec the engine reads; names and effect texts
    in Russian and English.
    """

    slug: str
    colour: str
    price: int = 0
    free: bool = False
    timing: str = "night"
    target: str = "one"
    effect: Mapping[str, Any] = field(default_factory=dict)
    name_ru: str = ""
    name_en: str = ""
    text_ru: str = ""
    text_en: str = ""

    @property
    def special(self) -> bool:
        return self.colour == SPECIAL

    def name(self, language: str) -> str:
        return self.name_ru if language.startswith("ru") else self.name_en

    def text(self, language: str) -> str:
        return self.text_ru if language.startswith("ru") else self.text_en


@dataclass(frozen=True)
class Collection:
    """The card kinds a game plays with, by slug, and the ``version`` digest that identifies this exact set."""

    kinds: Mapping[str, CardKind]

    @classmethod
    def from_kinds(cls, kinds: Iterable[CardKind]) -> Collection:
        return cls({k.slug: k for k in kinds})

    @classmethod
    def from_snapshot(cls, data: Iterable[Mapping[str, Any]]) -> Collection:
        """Rebuild from :meth:`snapshot` output (a list of plain dicts)."""
        return cls.from_kinds(CardKind(**dict(d)) for d in data)

    def snapshot(self) -> list[dict]:
        """Plain JSON-compatible data, sorted by slug (stored with a game at its start)."""
        return [asdict(self.kinds[slug]) | {"effect": dict(self.kinds[slug].effect)} for slug in sorted(self.kinds)]

    @property
    def version(self) -> str:
        """sha256 of the canonical snapshot: the same collection always has the same version."""
        body = json.dumps(self.snapshot(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(body.encode()).hexdigest()[:16]

    def __getitem__(self, slug: str) -> CardKind:
        return self.kinds[slug]

    def __contains__(self, slug: object) -> bool:
        return slug in self.kinds

    def buildable(self) -> list[CardKind]:
        """Kinds offered in deck building (every kind that is not ``special``), by slug."""
        return [self.kinds[s] for s in sorted(self.kinds) if not self.kinds[s].special]


@dataclass(frozen=True)
class CardInstance:
    """One card in play: ``uid`` unique within its owner's containers, ``kind`` a slug, ``provenance`` one of
    :data:`PROVENANCES` (role cards can't pay prices nor ground an accusation, FM-8), ``free`` whether this
    instance is free (the kind's flag, or made free by a role such as ``magician``)."""

    uid: int
    kind: str
    provenance: str = "deck"
    free: bool = False

    def to_dict(self) -> dict:
        return {"uid": self.uid, "kind": self.kind, "provenance": self.provenance, "free": self.free}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardInstance:
        return cls(uid=int(data["uid"]), kind=str(data["kind"]), provenance=str(data.get("provenance", "deck")),
                   free=bool(data.get("free", False)))

    def with_free(self, free: bool) -> CardInstance:
        return replace(self, free=free)
