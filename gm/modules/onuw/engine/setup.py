"""The deal (ON-1, ON-2, ON-3): the recommended sets, the master's multiset of cards checked, the seeded shuffle,
and the state right after the deal. Pure: chance comes from the caller's seeded :class:`random.Random`."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gm.core.engine import Event, PhaseSpec, RuleError, RuleViolation, SeatInfo, SetupResult

from .events import core_events, learned, seat_order
from .night import knowledge
from .state import (
    BOX,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RECOMMENDED_3,
    RECOMMENDED_EXTRA,
    ROLES,
    OnuwError,
    _,
    fail,
    violation,
)

#: The options a master may set (``deal`` is for scenarios and replays).
OPTION_KEYS = ("roles", "deal", "lone_wolf", "series")


def recommended_roles(players: int) -> list[str]:
    """The recommended set for ``players`` (3–10): ON-2 for 3–5 players, the house extension beyond. Sorted.
    Raises :class:`OnuwError` (ON-1) outside 3–10."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise fail("roles", _("One Night Ultimate Werewolf takes 3 to 10 players, not %(n)s."), "ON-1", n=players)
    return sorted(RECOMMENDED_3 + RECOMMENDED_EXTRA[:players - 3])


def check_roles(roles: Sequence[str], players: int | None = None) -> list[tuple[str, dict]]:
    """Check a master's multiset of cards (ON-1, ON-2). Returns the warnings as ``(message, params)``; raises
    :class:`OnuwError` for an unknown role, more than one doppelganger (the doppelganger step serves one), or a
    count other than ``players + 3`` (when ``players`` is known)."""
    unknown = [r for r in roles if r not in ROLES]
    if unknown:
        raise fail("roles", _("Unknown role “%(role)s”; the roles are: %(roles)s."), "ON-2",
                    role=unknown[0], roles=", ".join(ROLES))
    counts = Counter(roles)
    if counts["doppelganger"] > 1:
        raise fail("roles", _("Only one doppelganger can be in play."), "ON-2")
    if players is not None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise fail("roles", _("One Night Ultimate Werewolf takes 3 to 10 players, not %(n)s."), "ON-1",
                        n=players)
        if len(roles) != players + 3:
            raise fail("roles", _("%(players)s players need exactly %(need)s cards (players + 3), not %(n)s."),
                        "ON-1", players=players, need=players + 3, n=len(roles))
    warnings: list[tuple[str, dict]] = []
    if counts["mason"] == 1:
        warnings.append((_("Masons are always used as a pair; there is only one mason."), {}))
    if counts["insomniac"] and not (counts["robber"] or counts["troublemaker"] or counts["doppelganger"]):
        warnings.append((_("The insomniac is only useful with a robber or a troublemaker in play."), {}))
    for role in ROLES:
        if counts[role] > BOX[role]:
            warnings.append((_("%(count)s × %(role)s: the box holds only %(box)s."),
                             {"count": counts[role], "role": role, "box": BOX[role]}))
    return warnings


def deal(seat_ids: Sequence[int], roles: Sequence[str], rng: random.Random) -> tuple[dict[str, str], list[str]]:
    """Shuffle ``roles`` with ``rng`` and deal one card to each seat (ring order) and three to the center (ON-3).
    Returns ``(cards, center)`` with seat ids as strings."""
    deck = sorted(roles)
    rng.shuffle(deck)
    cards = {str(sid): deck[i] for i, sid in enumerate(seat_ids)}
    return cards, deck[len(seat_ids):]


def initial_state(cards: Mapping[str, str], center: Sequence[str], *, lone_wolf: bool = True) -> dict:
    """The state right after the deal: the night, or the doppelganger step first when a doppelganger is in play
    (ON-14 — also when he lies in the center, so the step's existence tells nobody where he is)."""
    roles = sorted([*cards.values(), *center])
    return {"roles": roles, "lone_wolf": lone_wolf, "dealt": dict(cards), "cards": dict(cards),
            "center": list(center), "copy": None, "copied_from": None,
            "stage": "doppelganger" if "doppelganger" in roles else "night", "votes": {}, "dead": []}


def validate_options(options: Mapping[str, Any]) -> dict:
    """The master's options checked and normalised (ON-1–ON-3, ON-4.2, ON-16): ``roles`` (a list of role slugs, or
    one string of them separated by spaces or commas; empty: the recommended set), ``deal`` (instead of ``roles``: a
    fixed deal, one card per seat in ring order then the three center cards), ``lone_wolf`` (bool, default true),
    ``series`` (a tournament series name, at most 60 characters). Raises :class:`~gm.core.engine.RuleViolation`
    with every error found."""
    errors = []
    for key in sorted(set(options) - set(OPTION_KEYS)):
        errors.append(RuleError(_("Unknown option “%(key)s”."), field=key, params={"key": key}))
    roles = options.get("roles") or []
    if isinstance(roles, str):
        roles = [r.strip() for r in roles.replace(",", " ").split() if r.strip()]
    if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
        errors.append(RuleError(_("Give the roles as a list of role slugs."), field="roles", rule="ON-2"))
        roles = []
    else:
        try:
            check_roles(roles)
        except OnuwError as exc:
            errors += violation(exc).errors
    deal_ = options.get("deal") or []
    if not isinstance(deal_, list) or not all(isinstance(r, str) for r in deal_):
        errors.append(RuleError(_("Give the deal as a list of role slugs."), field="deal", rule="ON-3"))
        deal_ = []
    elif deal_:
        try:
            check_roles(deal_)
        except OnuwError as exc:
            errors += [RuleError(err.message, field="deal", rule=err.rule, params=err.params)
                       for err in violation(exc).errors]
        if roles:
            errors.append(RuleError(_("Give either the roles or a fixed deal, not both."), field="deal"))
    lone_wolf = options.get("lone_wolf", True)
    if not isinstance(lone_wolf, bool):
        errors.append(RuleError(_("The lone wolf option is true or false."), field="lone_wolf", rule="ON-4.2"))
    series = options.get("series", "")
    if not isinstance(series, str) or len(series) > 60:
        errors.append(RuleError(_("The series is a short name (at most 60 characters)."), field="series",
                                rule="ON-16"))
    if errors:
        raise RuleViolation(errors)
    clean: dict[str, Any] = {"lone_wolf": lone_wolf}
    if roles:
        clean["roles"] = sorted(roles)
    if deal_:
        clean["deal"] = list(deal_)
    if series.strip():
        clean["series"] = series.strip()
    return clean


def setup(*, seats: Iterable[SeatInfo], options: Mapping[str, Any], rng: random.Random) -> SetupResult:
    """The deal as the core stores it (ON-1–ON-3): the options' fixed deal or the roles (default: the recommended
    set) shuffled with ``rng``; the public roles in play, the master's warnings and deal, each player's card, and —
    when no doppelganger step comes first — what the werewolves, minion and masons learn (ON-4.2–ON-4.4). The first
    phase is the doppelganger step (ON-14) or the night. Raises :class:`~gm.core.engine.RuleViolation` for a set of
    cards that does not fit the seats."""
    seats = list(seats)
    fixed = list(options.get("deal") or [])
    try:
        roles = fixed or list(options.get("roles") or recommended_roles(len(seats)))
        warnings = check_roles(roles, len(seats))
    except OnuwError as exc:
        raise violation(exc) from None
    ordered = sorted(seats, key=lambda s: s.position)
    if fixed:  # the master fixed the deal (seats in ring order, then the center): scenarios, replays
        cards = {str(s.id): fixed[i] for i, s in enumerate(ordered)}
        center = fixed[len(ordered):]
    else:
        cards, center = deal([s.id for s in ordered], roles, rng)
    state = initial_state(cards, center, lone_wolf=options.get("lone_wolf", True))
    names = {str(s.id): s.name for s in seats}
    events = [Event("onuw.roles_in_play", {"roles": state["roles"]})]
    events += [Event("onuw.warning", {"text": message, "params": params}, visibility="master")
               for message, params in warnings]
    events.append(Event("onuw.deal", {"cards": cards, "center": center, "names": names}, visibility="master"))
    events += [Event("onuw.your_card", {"role": cards[str(s.id)]}, visibility="seat", seat=s.id) for s in ordered]
    if state["stage"] == "night":
        events += core_events(knowledge(state, seat_order(seats)), names)
    known = learned(events)
    return SetupResult(
        state=state, first_phase=PhaseSpec(state["stage"], 1),
        seat_data={s.id: {"card": cards[str(s.id)], **({"learned": known[s.id]} if s.id in known else {})}
                   for s in seats},
        events=events,
    )
