"""Forum Mafia: what the master may edit in a seat from his console, and his kill / revive — pure (no Django).

Editable (:func:`seat_fields`): the four containers as card slugs — ``hand`` (front first, so the Hand order is
edited by reordering), ``sleeve``, ``deck`` (top first), ``discard`` — and the seat's flags kept in the game state:
``jail`` (phases left in jail, FM-7.5; 0 = free) and ``handcuffs`` (the night number the handcuffs apply to, or
``None``), and the claimed public role (FM-2: an FM-8 slug or ``{"custom": name}``, public, so a change of it is
announced). Card conservation (FM-4.6) need not hold for a master's edit, but every slug must be a kind of the game's
collection snapshot. Cards the edit keeps keep their instance (uid, provenance, free flag): the slugs of the edit
are matched with the seat's existing instances of that kind, the same container first; new ones are created as deck
cards (free when their kind is), so uids are never reused.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cards.containers import CONTAINERS, Containers
from cards.domain import CardInstance
from gm.core.engine import Event, Outcome, PhaseInfo, RuleError, RuleViolation, SeatInfo

from .roles import PUBLIC_ROLE_BY_SLUG
from .state import fm_state, game_collection
from .victory import check_victory

#: Every key :func:`seat_edit` takes.
FIELDS: tuple[str, ...] = (*CONTAINERS, "jail", "handcuffs", "public_role")
#: Longest custom public role name (FM-2.3, as at signup).
MAX_CUSTOM_ROLE = 80
#: Longest a master may jail someone (phases); the rules' own jail is 4 (FM-7.5).
MAX_JAIL = 99


def _(s: str) -> str:
    """Marks a msgid for ``makemessages`` (pure: the shell translates when it renders the error)."""
    return s


def seat_fields(state: Mapping[str, Any], seat: SeatInfo) -> dict:
    """The editable part of ``seat`` (see the module docstring for the shape)."""
    containers = Containers.from_dict((seat.data or {}).get("cards") or {})
    fm = state.get("fm") or {}
    cuffs = (fm.get("handcuffs") or {}).get(str(seat.id))
    return {**{name: [i.kind for i in getattr(containers, name)] for name in CONTAINERS},
            "jail": int((fm.get("jail") or {}).get(str(seat.id), 0)),
            "handcuffs": int(cuffs) if cuffs is not None else None,
            "public_role": (seat.data or {}).get("public_role")}


def _valid_public_role(value: Any) -> bool:
    if isinstance(value, str):
        return value in PUBLIC_ROLE_BY_SLUG
    if isinstance(value, Mapping) and set(value) == {"custom"}:
        name = value["custom"]
        return isinstance(name, str) and 0 < len(name.strip()) <= MAX_CUSTOM_ROLE
    return False


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def seat_edit(state: Mapping[str, Any], seat: SeatInfo, changes: Mapping[str, Any]) -> tuple[dict, dict]:
    """Apply the master's ``changes`` (any keys of :data:`FIELDS`) to ``seat``; returns ``(seat_data, state)``.

    Raises :class:`RuleViolation` with one error per bad key: an unknown key, a container that is not a list of
    slugs, an unknown card slug (named), a jail that is not 0…99 phases, handcuffs that are not a night number or
    ``None``, or an empty edit."""
    errors: list[RuleError] = []
    if not isinstance(changes, Mapping) or not changes:
        raise RuleViolation([RuleError(_("Change at least one of: %(fields)s."), field="changes",
                                       params={"fields": ", ".join(FIELDS)})])
    for key in sorted(set(changes) - set(FIELDS)):
        errors.append(RuleError(_("Unknown field “%(key)s”; the fields are %(fields)s."), field=str(key),
                                params={"key": key, "fields": ", ".join(FIELDS)}))
    collection = game_collection(state)
    for name in CONTAINERS:
        if name not in changes:
            continue
        value = changes[name]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            errors.append(RuleError(_("Give the cards of “%(key)s” as a list of card slugs."), field=name,
                                    params={"key": name}))
            continue
        unknown = [v for v in value if v not in collection]
        if unknown:
            errors.append(RuleError(_("Unknown card %(slugs)s."), field=name,
                                    params={"slugs": ", ".join(repr(v) for v in dict.fromkeys(unknown))}))
    if "jail" in changes and not (_is_int(changes["jail"]) and 0 <= changes["jail"] <= MAX_JAIL):
        errors.append(RuleError(_("Jail is a number of phases from 0 (free) to %(max)s."), field="jail",
                                rule="FM-7.5", params={"max": MAX_JAIL}))
    cuffs = changes.get("handcuffs")
    if cuffs is not None and not (_is_int(cuffs) and cuffs >= 1):
        errors.append(RuleError(_("Handcuffs take the number of the night they apply to, or nothing."),
                                field="handcuffs"))
    if "public_role" in changes and not _valid_public_role(changes["public_role"]):
        errors.append(RuleError(_("Choose one of the public roles of FM-8, or a custom name of at most %(max)s "
                                  "characters."), field="public_role", rule="FM-2.3", params={"max": MAX_CUSTOM_ROLE}))
    if errors:
        raise RuleViolation(errors)

    data = dict(seat.data or {})
    old = Containers.from_dict(data.get("cards") or {})
    new = old.copy()
    edited = [name for name in CONTAINERS if name in changes]
    if edited:
        # Instances of the edited containers are the pool; a slug takes an instance of its kind from its own
        # container first, then from any other edited container; what is left over leaves the seat.
        pool: dict[str, list[tuple[str, CardInstance]]] = {}
        for name in edited:
            for inst in getattr(old, name):
                pool.setdefault(inst.kind, []).append((name, inst))
        for name in edited:
            setattr(new, name, [])
        for name in edited:
            items = []
            for slug in changes[name]:
                candidates = pool.get(slug, [])
                pick = next((c for c in candidates if c[0] == name), candidates[0] if candidates else None)
                if pick is not None:
                    candidates.remove(pick)
                    items.append(pick[1])
                else:
                    items.append(CardInstance(uid=new._new_uid(), kind=slug, provenance="deck",
                                              free=collection[slug].free))
            setattr(new, name, items)
        data["cards"] = new.to_dict()
    if "public_role" in changes:
        role = changes["public_role"]
        data["public_role"] = role if isinstance(role, str) else {"custom": role["custom"].strip()}
    fm = fm_state(state)
    if "jail" in changes:
        if changes["jail"]:
            fm["jail"][str(seat.id)] = changes["jail"]
        else:
            fm["jail"].pop(str(seat.id), None)
    if "handcuffs" in changes:
        if cuffs is None:
            fm["handcuffs"].pop(str(seat.id), None)
        else:
            fm["handcuffs"][str(seat.id)] = cuffs
    return data, {**state, "fm": fm}


def set_alive(state: Mapping[str, Any], phase: PhaseInfo | None, seat: SeatInfo, seats: Sequence[SeatInfo],
              alive: bool) -> tuple[dict, list, Outcome | None]:
    """The master kills or revives ``seat`` (``seats``: every seat before the change). A death is announced as the
    rules announce one (``fm.death``, FM-6.2) and enters the death order that victory reads; a revival leaves the
    death order and is announced by the core's ``core.seat_revived`` line (the rules have no revival). Victory is
    checked at once, as after an instant ability (FM-10.6): a won game gets its ``fm.victory`` line and outcome."""
    fm = fm_state(state)
    if alive:
        fm["death_order"] = [d for d in fm["death_order"] if int(d[1]) != seat.id]
        events = [Event("core.seat_revived", {"player": seat.name})]
    else:
        fm["death_order"].append([phase.ordinal if phase is not None else 0, seat.id])
        events = [Event("fm.death", {"player": seat.name})]
        if phase is not None:  # the player himself is told, and what being dead means (his seat only)
            events.append(Event("fm.you_died", {"phase_kind": phase.kind, "number": phase.number, "cause": "master"},
                                visibility="seat", seat=seat.id))
    living = {s.id: (alive if s.id == seat.id else s.alive) for s in seats}
    winner, outcome = check_victory(seats, living, fm)
    if outcome is not None:
        names = {s.id: s.name for s in seats}
        events.append(Event("fm.victory", {"winner": winner, "players": [
            names[sid] for sid in outcome.winning_seats if sid in names]}))
    return {**state, "fm": fm}, events, outcome

