"""A phase resolved in the core's terms (BV-5–BV-12, BV-14): the night's rounds by :mod:`.night`, the light time
by :mod:`.light`, their events addressed and named, the dead marked (cards opened, BV-7), the results kept in the
seats' data, and at the end the outcome with every seat's points (BV-12). Also the set-up in the core's terms. Pure."""
from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import Event, Outcome, Resolution, SeatInfo, SetupResult

from .events import core_events, learned, seat_order
from .light import resolve_light
from .night import end, resolve_night_round
from .orders import validate_order
from .setup import setup as deal
from .setup import validate_options
from .state import BvError, Ev, Step, _, fail, living, refuse, violation


def setup(*, seats: Sequence[SeatInfo], options: Mapping[str, Any], rng: random.Random,
          table: Mapping[str, Any]) -> SetupResult:
    """:func:`.setup.setup` with its events in the core's terms (see there: BV-2, BV-3, BV-4)."""
    result = deal(seats=seats, options=options, rng=rng, table=table)
    names = {str(s.id): s.name for s in seats}
    result.events = core_events(result.events, names)  # type: ignore[arg-type]
    for sid, items in learned(result.events).items():
        result.seat_data[sid]["learned"] = items
    return result


def resolve(*, state: Mapping[str, Any], kind: str, seats: Sequence[SeatInfo],
            orders: Mapping[Any, Mapping[str, Any]], rng: random.Random) -> Resolution:
    """Resolve the phase of ``kind`` (``night``, ``defence``, ``verdict``, ``arbiter``, ``light``) from every seat's
    latest order (``orders``: seat id → validated payload). Returns the next phase, or the outcome (BV-9–BV-12)."""
    new: dict[str, Any] = copy.deepcopy(dict(state))
    names = {str(s.id): s.name for s in seats}
    by_str = {str(k): v for k, v in orders.items() if v}
    if kind == "light":
        step = resolve_light(new, by_str, rng, names)
    else:
        step = resolve_night_round(new, kind, by_str, rng)
    events = core_events(step.events, names)
    by_id = {s.id: s for s in seats}
    seat_data: dict[int, dict] = {}
    for sid, items in learned(events).items():
        if sid in by_id:
            seat_data[sid] = {**by_id[sid].data, "learned": [*(by_id[sid].data.get("learned") or []), *items]}
    rage = new["options"].get("vampire_rage")
    for s in step.dead:
        base = seat_data.get(int(s)) or dict(by_id[int(s)].data)
        if not rage:
            base["revealed"] = new["cards"][s]
        seat_data[int(s)] = base
    alive = {int(s): False for s in step.dead}
    groups = {slug: [int(s) for s in members] for slug, members in step.groups.items()}
    outcome = None
    if step.winner:
        pts = new.get("points") or {}
        for key in seat_order(seats):
            base = seat_data.get(int(key)) or dict(by_id[int(key)].data)
            base.update(won=bool(pts.get(key)), points=int(pts.get(key, 0)), revealed=new["cards"][key])
            seat_data[int(key)] = base
        outcome = Outcome([step.winner], [int(s) for s, p in pts.items() if p])
    return Resolution(new, events, seat_data=seat_data, alive=alive, groups=groups, next_phase=step.next,
                      outcome=outcome)


def check_options(options: Mapping[str, Any], *, table: Mapping[str, Any]) -> dict:
    """:func:`.setup.validate_options` raising the core's ``RuleViolation`` (each error with its rule ID)."""
    try:
        return validate_options(options, table=table)
    except BvError as exc:
        raise violation(exc) from None


def start(*, seats: Sequence[SeatInfo], options: Mapping[str, Any], rng: random.Random,
          table: Mapping[str, Any]) -> SetupResult:
    """:func:`setup` raising the core's ``RuleViolation`` for a set BV-2.4 refuses."""
    try:
        return setup(seats=seats, options=options, rng=rng, table=table)
    except BvError as exc:
        raise violation(exc) from None


def check_order(state: Mapping[str, Any], *, kind: str, sid: str, payload: Mapping[str, Any]) -> dict:
    """:func:`.orders.validate_order` raising the core's ``RuleViolation``: its params carry the BV-16 ``code``."""
    try:
        return validate_order(state, kind=kind, sid=sid, payload=payload)
    except BvError as exc:
        raise violation(exc) from None


def master_set_alive(state: Mapping[str, Any], *, seat: SeatInfo, alive: bool) -> tuple[dict, list[Event], None]:
    """The master kills (BV-15.12's ``remove``; a scenario's dead start position) or revives ``seat``: the player
    dies at once with his card opened (BV-7.7; not under BV-15.4). No victory check follows: victory is checked
    only after an execution round and at nightfall (BV-9.3). Returns the new state, the public line, no outcome."""
    new: dict[str, Any] = copy.deepcopy(dict(state))
    sid = str(seat.id)
    names = {sid: seat.name}
    if alive:
        new["dead"] = [s for s in new.get("dead") or [] if s != sid]
        return new, core_events([Ev("bv.revived", {"seat": sid})], names), None
    if sid not in (new.get("dead") or []):
        new["dead"] = [*(new.get("dead") or []), sid]
    cards = {} if new["options"].get("vampire_rage") else {sid: new["cards"][sid]}
    return new, core_events([Ev("bv.removed", {"seat": sid, "cards": cards})], names), None


def enchantable(state: Mapping[str, Any]) -> list[str]:
    """BV-15.12: the seats (ids, ring order) the master may put under the spell of silence now: none when the
    variant is off; every living player not yet silenced; and, in a game of a series (option ``series``), the dead
    ones too — "a dead offender is silent from the start of the next game"."""
    if not state["options"].get("enchanted"):
        return []
    dead = set(state.get("dead") or [])
    silenced = set(state.get("silenced") or [])
    series = bool(state["options"].get("series"))
    return [s for s in state["ring"] if s not in silenced and (s not in dead or series)]


def enchant(state: Mapping[str, Any], *, seat: SeatInfo) -> tuple[dict, list[Event]]:
    """BV-15.12: the master's spell of silence on ``seat`` for the rest of the game (he loses his vote and may not
    post; he may still pass his vote to a delegate). A dead player may be silenced only in a game of a series: his
    silence starts the next game of the series (:func:`carry_silence`). Raises :class:`BvError` (rule BV-15.12)
    when the variant is off, the player is dead outside a series (``dead``) or already silenced. Returns the new
    state and the public line naming him (``bv.enchanted``, or ``bv.enchanted_next`` for a dead one)."""
    sid = str(seat.id)
    if not state["options"].get("enchanted"):
        raise fail("seat", _("The spell of silence is not in play in this game (BV-15.12)."), rule="BV-15.12")
    dead = sid in (state.get("dead") or [])
    if sid not in state["cards"] or (dead and not state["options"].get("series")):
        raise refuse("dead", "BV-15.12", "seat")
    if sid in (state.get("silenced") or []):
        raise fail("seat", _("This player is already silenced."), rule="BV-15.12")
    new: dict[str, Any] = copy.deepcopy(dict(state))
    new["silenced"] = [*(new.get("silenced") or []), sid]
    kind = "bv.enchanted_next" if dead else "bv.enchanted"
    return new, core_events([Ev(kind, {"seat": sid})], {sid: seat.name})


def carry_silence(state: Mapping[str, Any], *, seats: Sequence[SeatInfo], sids: Sequence[str]
                  ) -> tuple[dict, list[Event]]:
    """BV-15.12: the players ``sids`` (seat ids of this game) were silenced when the previous game of the series
    ended; they start this game silenced — no vote (they pass it to a delegate) and no word, whether or not this game
    plays the variant. ``seats`` every seat, for the names. Returns the new state (``silenced`` extended in ring
    order) and one public line naming them (``bv.silence_carried``; none when there is nobody to silence)."""
    new: dict[str, Any] = copy.deepcopy(dict(state))
    wanted = {str(s) for s in sids}
    added = [s for s in new["ring"] if s in wanted and s not in (new.get("silenced") or [])]
    if not added:
        return new, []
    new["silenced"] = [*(new.get("silenced") or []), *added]
    names = {str(s.id): s.name for s in seats}
    return new, core_events([Ev("bv.silence_carried", {"seats": added})], names)


def declare_hunters(state: Mapping[str, Any], *, seats: Sequence[SeatInfo]) -> tuple[dict, list[Event], Outcome]:
    """BV-10.1: the master ends the game by declaring the hunters' win (their victory being obvious). Raises
    :class:`BvError` (rule BV-10.1) when no hunter is alive. Returns the new state, the result line (BV-14.9a) and
    the outcome with every hunter's points (BV-12)."""
    new: dict[str, Any] = copy.deepcopy(dict(state))
    if not any(new["table"][new["cards"][s]]["side"] == "hunters" for s in living(new)):
        raise fail("game", _("No hunter is alive: the hunters can't be declared the winners."), rule="BV-10.1")
    step = end(new, Step(), "hunters")
    names = {str(s.id): s.name for s in seats}
    pts = new["points"]
    return new, core_events(step.events, names), Outcome(["hunters"], [int(s) for s, p in pts.items() if p])
