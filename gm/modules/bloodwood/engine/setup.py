"""Options and set-up (BW-1, BW-3, BW-4, BW-5, BW-23c, BW-24a, BW-27): the team sizes by player count, the deal of
entities and cards, the first player, the master's set-up override (a whole position, for scenarios and disputes),
and the state right after the set-up. Pure: chance comes from the caller's seeded :class:`random.Random`."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import RuleError, RuleViolation

from .state import (
    CARDS,
    DNA,
    ENTITIES,
    HAND,
    LEADER,
    LEADERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ORDINARY,
    TEAM_OF,
    TEAMS,
    Ev,
    State,
    _,
    deck_of,
)

#: The options a master may set (BW-27); ``deal`` (entities per seat in seat order: the winner's deal of BW-23c,
#: or a scenario's fixed entities) and ``position`` (the master's set-up override) are never public.
OPTION_KEYS = ("leaders", "inattention", "winner_deals", "turn_minutes", "step_minutes", "first_player",
               "larger_team", "deal", "position", "dealer", "rematch_of")
PUBLIC_OPTION_KEYS = ("leaders", "inattention", "winner_deals", "turn_minutes", "step_minutes")


def team_sizes(players: int, *, leaders: bool = True, larger: str = "vampires") -> dict[str, list[str]]:
    """The entities of each team for ``players`` (5–12) (BW-3, BW-3a, BW-3b): with an even number ⌈N/2⌉ each, a
    leader in each team unless ``leaders`` is false; with an odd number the ``larger`` team (⌈N/2⌉, all ordinary)
    and the other (⌊N/2⌋, a leader and ordinary ones). Returns team → entity list. Raises ``ValueError`` outside 5–12
    or for ``leaders=False`` with an odd number."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Bloodwood takes 5 to 12 players, not {players}")
    if players % 2 == 0:
        half = players // 2
        return {team: ([LEADER[team]] if leaders else []) + [ORDINARY[team]] * (half - (1 if leaders else 0))
                for team in TEAMS}
    if not leaders:
        raise ValueError("the no-leader variant needs an even number of players")
    smaller = next(t for t in TEAMS if t != larger)
    return {larger: [ORDINARY[larger]] * (players // 2 + 1),
            smaller: [LEADER[smaller]] + [ORDINARY[smaller]] * (players // 2 - 1)}


def check_deal(entities: Sequence[str], *, leaders: bool = True) -> None:
    """Check a fixed deal (one entity per seat) makes teams as in BW-3a (BW-3b without leaders). Raises
    :class:`RuleViolation` (field ``deal``)."""
    n = len(entities)
    if any(e not in ENTITIES for e in entities):
        raise _violation("deal", _("Unknown entity in the deal; the entities are: %(all)s."), "BW-3",
                         all=", ".join(ENTITIES))
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise _violation("deal", _("Bloodwood takes 5 to 12 players."), "BW-3a")
    got = Counter(entities)
    fits = []
    for larger in (TEAMS if n % 2 else TEAMS[:1]):
        try:
            want = team_sizes(n, leaders=leaders, larger=larger)
        except ValueError:
            continue
        fits.append(Counter(e for es in want.values() for e in es) == got)
    if not any(fits):
        raise _violation("deal", _("The deal does not make the teams of BW-3a for %(n)s players."), "BW-3a", n=n)


def _violation(field: str, message: str, rule: str, **params: Any) -> RuleViolation:
    return RuleViolation([RuleError(message, field=field, rule=rule, params=params)])


def validate_options(options: Mapping[str, Any], *, players: int | None = None,
                     bounds: Mapping[str, Sequence[int]] | None = None) -> dict:
    """The normalised options (BW-27) or :class:`RuleViolation` naming every bad key. ``bounds`` are the game
    data's deadline bounds in minutes (``turn``/``step`` → ``[low, high]``, BW-24a); ``players`` checks the options
    that depend on the count (no-leader variant only with an even number, ``larger_team`` only with an odd one)."""
    bounds = bounds or {"turn": [10, 4320], "step": [5, 1440]}
    errors: list[RuleError] = []
    out: dict[str, Any] = {}
    for key in options:
        if key not in OPTION_KEYS:
            errors.append(RuleError(_("Unknown option “%(key)s”."), field=key, rule="BW-27", params={"key": key}))
    for key, default in (("leaders", True), ("inattention", False), ("winner_deals", False)):
        value = options.get(key, default)
        if not isinstance(value, bool):
            errors.append(RuleError(_("“%(key)s” is true or false."), field=key, rule="BW-27", params={"key": key}))
        out[key] = value
    for key, slot in (("turn_minutes", "turn"), ("step_minutes", "step")):
        if key in options:
            value = options[key]
            low, high = bounds[slot]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                errors.append(RuleError(_("“%(key)s” is a whole number of minutes from %(low)s to %(high)s."),
                                        field=key, rule="BW-24a", params={"key": key, "low": low, "high": high}))
            out[key] = value
    if "first_player" in options:
        value = options["first_player"]
        if not isinstance(value, int) or isinstance(value, bool) or value < 1 or (players and value > players):
            errors.append(RuleError(_("“first_player” is a seat number (1 = the first seat)."),
                                    field="first_player", rule="BW-5a"))
        out["first_player"] = value
    if "larger_team" in options:
        if options["larger_team"] not in TEAMS:
            errors.append(RuleError(_("“larger_team” is vampires or werewolves."), field="larger_team", rule="BW-3a"))
        elif players is not None and players % 2 == 0:
            errors.append(RuleError(_("“larger_team” applies only to an odd number of players."),
                                    field="larger_team", rule="BW-3a"))
        out["larger_team"] = options["larger_team"]
    if players is not None and players % 2 and out.get("leaders") is False:
        errors.append(RuleError(_("The game without leaders needs an even number of players."), field="leaders",
                                rule="BW-3b"))
    if "deal" in options:
        deal = options["deal"]
        if not isinstance(deal, list) or (players is not None and len(deal) != players):
            errors.append(RuleError(_("The deal names one entity per seat."), field="deal", rule="BW-23c"))
        else:
            try:
                check_deal(deal, leaders=bool(out.get("leaders", True)))
            except RuleViolation as exc:
                errors += exc.errors
        out["deal"] = deal
    for key in ("dealer", "rematch_of"):
        # BW-23c: the rematch's dealer (a seat number) and the finished game it follows (a game id).
        if key in options:
            value = options[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < 1 or (
                    key == "dealer" and players is not None and value > players):
                errors.append(RuleError(_("“%(key)s” is a seat number (1 = the first seat)."), field=key,
                                        rule="BW-23c", params={"key": key}))
            out[key] = value
    if "dealer" in out and not out.get("winner_deals"):
        errors.append(RuleError(_("A dealer deals only with the option “winner deals”."), field="dealer",
                                rule="BW-23c"))
    elif "dealer" in out and players is not None and not options.get("deal"):
        # BW-23c: a rematch starts with the winner's deal, never without it.
        errors.append(RuleError(_("The game waits for the winner's deal."), field="deal", rule="BW-23c"))
    if "position" in options:
        if not isinstance(options["position"], dict):
            errors.append(RuleError(_("The position is an object."), field="position", rule="BW-27"))
        out["position"] = options["position"]
    if errors:
        raise RuleViolation(errors)
    return out


def build_decks(data: Mapping[str, Any], rng: random.Random) -> dict[str, list[str]]:
    """Both decks of the box (BW-1, BW-1d): each card by its copies into its home deck, the special cards half into
    each; each deck shuffled on its own."""
    decks: dict[str, list[str]] = {"night": [], "day": []}
    for card in CARDS:
        copies = int(data["cards"][card]["copies"])
        home = deck_of(data, card)
        if home == "special":
            decks["night"] += [card] * (copies // 2)
            decks["day"] += [card] * (copies - copies // 2)
        else:
            decks[home] += [card] * copies
    rng.shuffle(decks["night"])
    rng.shuffle(decks["day"])
    return decks


def deal_entities(order: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> dict[str, str]:
    """Seat id → entity (BW-3): the options' fixed ``deal`` in seat order, else the team sizes of BW-3a (the larger
    team from ``larger_team`` or drawn) shuffled."""
    if options.get("deal"):
        return {sid: e for sid, e in zip(order, options["deal"], strict=True)}
    larger = options.get("larger_team") or rng.choice(TEAMS)
    sizes = team_sizes(len(order), leaders=options.get("leaders", True), larger=larger)
    pool = [e for team in TEAMS for e in sizes[team]]
    rng.shuffle(pool)
    return dict(zip(order, pool, strict=True))


def base_state(order: Sequence[str], names: Mapping[str, str], data: Mapping[str, Any],
               options: Mapping[str, Any]) -> State:
    """The empty table for ``order`` (seat ids clockwise): game data and options snapshotted, every DNA on
    ``purity`` (BW-2), Day (BW-5), no markers."""
    order = list(order)
    return State(
        data={"cards": {k: dict(v) for k, v in data["cards"].items()}, "deadlines": dict(data["deadlines"])},
        options=dict(options), names={sid: names[sid] for sid in order}, order=order, entities={},
        hands={sid: [] for sid in order}, decks={"night": [], "day": []}, dna={sid: "purity" for sid in order},
        curse={}, fresh=[], chains=[], tranq=[], confessed={sid: [] for sid in order}, discard=[], phase="day",
        direction=1, starter=order[0], turns_done=0, to_move=order[0], extra_turn=False, turn_no=0, step=None,
        agenda=[], seq=0, shuffle_seed=0, reshuffles=0, over=False, winner=None, winners=[],
    )


def deal(order: Sequence[str], names: Mapping[str, str], data: Mapping[str, Any], options: Mapping[str, Any],
         rng: random.Random) -> State:
    """A new game's table (BW-1–BW-5): entities dealt, both decks shuffled, two night and two day cards to each
    player (the night ones first), the first player from ``first_player`` (a seat number) or drawn, Day. The game's
    reshuffle seed is drawn last (BW-24d)."""
    state = base_state(order, names, data, options)
    state["entities"] = deal_entities(state["order"], options, rng)
    decks = build_decks(data, rng)
    for sid in state["order"]:
        state["hands"][sid] = decks["night"][:2] + decks["day"][:2]
        decks["night"], decks["day"] = decks["night"][2:], decks["day"][2:]
    state["decks"] = decks
    if options.get("first_player"):
        first = state["order"][int(options["first_player"]) - 1]
    else:
        first = rng.choice(state["order"])
    state["starter"] = state["to_move"] = first
    state["shuffle_seed"] = rng.getrandbits(63)
    return state


def apply_position(state: State, position: Mapping[str, Any], rng: random.Random) -> State:
    """The master's set-up override (scenario files, BW-22g): ``position`` puts a whole table on the board —
    ``entities`` (seat order), ``dna``, ``hands``, ``curse`` (seat → turns left), ``chains``, ``tranq``,
    ``confessed`` (seat → seats), ``decks`` (``day``/``night`` top first), ``discard`` (top first), ``phase``,
    ``to_move``, ``direction`` (1/-1), ``starter``, ``turns_done``, ``extra_turn``. Seats are named by their seat
    number (``1`` = the first seat), as strings or ints. Raises :class:`RuleViolation` for a shape that is not a
    table (wrong deck, bad DNA, a hand above 4, a Curse Mark on a permanent player, more copies than the box, a
    start that is not a position of BW-7a)."""
    errors: list[str] = []
    order = state["order"]

    def ref(value: Any) -> str:
        try:
            return order[int(value) - 1]
        except (TypeError, ValueError, IndexError):
            errors.append(f"no seat {value!r}")
            return order[0]

    if "entities" in position:
        ents = list(position["entities"])
        try:
            check_deal(ents, leaders=any(e in LEADERS for e in ents) or len(ents) % 2 == 1)
        except RuleViolation:
            errors.append("entities that do not make the teams of BW-3a")
        else:
            state["entities"] = dict(zip(order, ents, strict=True))
    for key, value in (position.get("dna") or {}).items():
        if value not in DNA:
            errors.append(f"dna {value!r}")
        state["dna"][ref(key)] = value
    for key, cards in (position.get("hands") or {}).items():
        if len(cards) > HAND:
            errors.append("a hand of more than 4 cards")
        state["hands"][ref(key)] = list(cards)
    state["curse"] = {ref(k): int(v) for k, v in (position.get("curse") or {}).items() if int(v)}
    if any(state["dna"].get(s) == "permanent" for s in state["curse"]):
        errors.append("a Curse Mark on a permanently mutated player")
    if any(not 1 <= v <= 2 for v in state["curse"].values()):
        errors.append("a Curse Mark count outside 0–2")
    state["chains"] = [ref(s) for s in position.get("chains") or []]
    state["tranq"] = [ref(s) for s in position.get("tranq") or []]
    for key, to in (position.get("confessed") or {}).items():
        state["confessed"][ref(key)] = [ref(x) for x in to]
    decks = position.get("decks") or {}
    state["decks"] = {"night": list(decks.get("night") or []), "day": list(decks.get("day") or [])}
    for kind, cards in state["decks"].items():
        for card in cards:
            if card in CARDS and deck_of(state["data"], card) not in (kind, "special"):
                errors.append(f"{card!r} in the {kind} deck")
    state["discard"] = list(position.get("discard") or [])
    counts: Counter[str] = Counter()
    for cards in [*state["hands"].values(), *state["decks"].values(), state["discard"]]:
        counts.update(cards)
    counts.update("curse_mark" for _s in state["curse"])
    counts.update("chains" for _s in state["chains"])
    counts.update("tranquilizer" for _s in state["tranq"])
    for card, n in counts.items():
        if card not in CARDS:
            errors.append(f"unknown card {card!r}")
        elif n > int(state["data"]["cards"][card]["copies"]):
            errors.append(f"more than {state['data']['cards'][card]['copies']} × {card}")
    state["phase"] = position.get("phase", "day")
    if state["phase"] not in ("day", "night"):
        errors.append(f"phase {state['phase']!r}")
    state["direction"] = 1 if int(position.get("direction", 1)) >= 0 else -1
    to_move = ref(position.get("to_move", 1))
    state["to_move"] = to_move
    state["starter"] = ref(position["starter"]) if "starter" in position else to_move
    state["turns_done"] = int(position.get("turns_done", 0))
    state["extra_turn"] = bool(position.get("extra_turn", False))
    idx = order.index(state["starter"]) + state["direction"] * state["turns_done"]
    if order[idx % len(order)] != state["to_move"] or not 0 <= state["turns_done"] < len(order) or (
            state["extra_turn"] and (state["turns_done"] or state["starter"] != state["to_move"])):
        errors.append("a start that is not a position of BW-7a")
    if errors:
        raise RuleViolation([RuleError(_("The position is not a table: %(what)s."), field="position", rule="BW-22g",
                                       params={"what": "; ".join(errors)})])
    state["shuffle_seed"] = rng.getrandbits(63)
    return state


def setup_events(state: State) -> list[Ev]:
    """The set-up lines (BW-25): public, the first player; private, each player his entity; each leader every other
    player's entity (BW-4)."""
    names = state["names"]
    first = state["to_move"] or state["order"][0]
    evs = [Ev("bw.setup", {"event": "setup", "player": names[first]})]
    for sid in state["order"]:
        entity = state["entities"][sid]
        evs.append(Ev("bw.entity", {"event": "setup", "player": names[sid], "entity": entity,
                                    "team": TEAM_OF[entity]}, to=sid))
        if entity in LEADERS and state["options"].get("leaders") is not False:
            others = [{"player": names[o], "entity": state["entities"][o]} for o in state["order"] if o != sid]
            evs.append(Ev("bw.leader", {"event": "setup", "player": names[sid], "entities": others,
                                        "text": ", ".join(f"{o['player']}: {o['entity']}" for o in others)}, to=sid))
    dealer = state["options"].get("dealer") if state["options"].get("winner_deals") else None
    if dealer and state["options"].get("deal") and 1 <= int(dealer) <= len(state["order"]):
        # BW-23c: the winner who dealt knows every entity, like a leader.
        sid = state["order"][int(dealer) - 1]
        others = [{"player": names[o], "entity": state["entities"][o]} for o in state["order"] if o != sid]
        evs.append(Ev("bw.dealer", {"event": "setup", "player": names[sid], "entities": others,
                                    "text": ", ".join(f"{o['player']}: {o['entity']}" for o in others)}, to=sid))
    return evs
