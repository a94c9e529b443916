"""Pure builders of a forum Mafia table in a given position: one seat's module data from role and card lists.

Used by the master's setup override (scenario files, ``gm_scenario``) and by the engine's unit tests, so both build
exactly the data the engine reads (``seat.data``: roles, faction and the :class:`cards.containers.Containers`).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cards.containers import Containers
from cards.domain import Collection

from .roles import PUBLIC_ROLE_BY_SLUG, SECRET_ROLES

#: A Sleeve entry: a slug, or ``{"card": slug, "from_role": bool}`` (a card the public role gave, FM-8).
SleeveEntry = str | Mapping[str, Any]


def start_sleeve(public_role: Any, secret_role: str) -> list[SleeveEntry]:
    """The Sleeve a role starts with (FM-3.3 joker ``ace`` / hero ``oracle``, FM-8 start cards), as role cards."""
    cards: list[SleeveEntry] = []
    role = SECRET_ROLES.get(secret_role)
    if role:
        cards += [{"card": k, "from_role": True} for k in role.start_sleeve]
    public = PUBLIC_ROLE_BY_SLUG.get(public_role) if isinstance(public_role, str) else None
    if public:
        cards += [{"card": k, "from_role": True} for k in public.start_sleeve]
    return cards


def seat_data(*, public_role: Any, secret_role: str, hand: Sequence[str], collection: Collection,
              sleeve: Sequence[SleeveEntry] | None = None, deck: Sequence[str] = (),
              joker_colours: Sequence[str] | None = None) -> dict:
    """One seat's ``data``: ``public_role`` (slug or ``{"custom": name}``), ``secret_role`` slug, ``hand`` (front
    first), ``sleeve`` (``None``: the roles' start cards), ``deck`` (top first). Raises ``KeyError`` for an unknown
    secret role and :class:`cards.containers.ContainerError` (``unknown_kind``) for an unknown card slug."""
    role = SECRET_ROLES[secret_role]
    c = Containers()
    for kind in hand:
        c.add(kind, "hand", "deck", collection=collection)
    for entry in start_sleeve(public_role, secret_role) if sleeve is None else sleeve:
        if isinstance(entry, Mapping):
            c.add(entry["card"], "sleeve", "role" if entry.get("from_role") else "deck", collection=collection)
        else:
            c.add(entry, "sleeve", "deck", collection=collection)
    for kind in deck:
        c.add(kind, "deck_bottom", "deck", collection=collection)
    data: dict[str, Any] = {"public_role": public_role, "secret_role": secret_role, "faction": role.faction,
                            "cards": c.to_dict(), "deck_list": [{"kind": k} for k in deck]}
    if joker_colours is not None:
        data["joker_colours"] = list(joker_colours)
    return data
