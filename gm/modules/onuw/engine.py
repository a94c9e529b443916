"""One Night Ultimate Werewolf: the pure rules engine (functional core, rule IDs ``ON-…``).

No Django import, no I/O, no clock, no global ``random``: every function takes plain data and a seeded
:class:`random.Random` where chance is involved. ``gm.modules.onuw.module`` wraps it in the core's
:class:`~gm.core.engine.GameModule` interface.

State (a JSON object; seat ids are **string** keys, as JSON stores them):

``roles``        the multiset of cards in play, sorted (public, ON-3)
``lone_wolf``    whether a lone werewolf may look at a center card (ON-4.2)
``dealt``        seat id → the card dealt to that seat (each player acts by it, ON-4)
``cards``        seat id → the card in front of that seat now
``center``       the three center cards, ``center1``..``center3``
``copy``         the role the doppelganger copied (``None`` until the doppelganger step, or if he did not copy)
``copied_from``  seat id whose card he copied
``stage``        ``doppelganger`` | ``night`` | ``day`` | ``over``
``votes``        voter seat id → voted seat id (after the day)
``dead``         seat ids that died (after the day)

Order payloads (the scenario format's keys, with seat ids for players and ``center1``..``center3``):
doppelganger step ``{"copy": seat}`` (ON-14); night: seer ``{"look": [seat]}`` or ``{"look": [centerA, centerB]}``,
robber ``{"swap_with": seat}``, troublemaker ``{"swap": [seat, seat]}``, drunk ``{"take": centerN}``, lone werewolf
``{"look": [centerN]}``, and a doppelganger who copied one of these the same shape (ON-4.1); day ``{"vote": seat}``.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def _(s: str) -> str:
    """Marks a msgid for ``makemessages``; the shell translates it when it renders the error."""
    return s


#: The twelve roles (ON-2) in the order the rules list them.
ROLES = ("villager", "werewolf", "seer", "robber", "troublemaker", "tanner", "drunk", "hunter", "mason",
         "insomniac", "minion", "doppelganger")
#: How many of each card the physical box holds (ON-2); more are allowed with a warning (house rule).
BOX = {"villager": 3, "werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "tanner": 1, "drunk": 1,
       "hunter": 1, "mason": 2, "insomniac": 1, "minion": 1, "doppelganger": 1}
#: Wake order of the roles that wake (ON-4.1–4.9); villager, tanner and hunter never wake (ON-4.10).
WAKE_ORDER = ("doppelganger", "werewolf", "minion", "mason", "seer", "robber", "troublemaker", "drunk", "insomniac")
#: Roles whose holder chooses something at night (the form offers a choice).
CHOOSING = ("seer", "robber", "troublemaker", "drunk")
WEREWOLF_TEAM = ("werewolf", "minion")
TANNER = "tanner"
CENTER = ("center1", "center2", "center3")
MIN_PLAYERS, MAX_PLAYERS = 3, 10
SERIES_TOKENS = 5
#: ON-2 recommended sets for 3, 4, 5 players; for 6–10 players **[house]** one card more per player in this order,
#: all within the box: hunter, tanner, minion, drunk, insomniac.
RECOMMENDED_3 = ("werewolf", "werewolf", "seer", "robber", "troublemaker", "villager")
RECOMMENDED_EXTRA = ("villager", "villager", "hunter", "tanner", "minion", "drunk", "insomniac")


class OnuwError(Exception):
    """Invalid input to the engine: ``errors`` is a list of ``(field, message, params)``; the module turns them into
    the core's ``RuleError`` with rule ``rule``."""

    def __init__(self, errors: Sequence[tuple[str, str, Mapping[str, Any]]], rule: str = ""):
        self.errors = list(errors)
        self.rule = rule
        super().__init__("; ".join(m % dict(p) if p else m for _f, m, p in self.errors))


def _fail(field: str, message: str, rule: str = "", **params) -> OnuwError:
    return OnuwError([(field, message, params)], rule=rule)


@dataclass
class Ev:
    """An engine event: ``kind`` (``onuw.*``), ``data``, and ``to``: ``"public"``, ``"master"`` or a seat id."""

    kind: str
    data: dict = field(default_factory=dict)
    to: Any = "public"


# -- setup (ON-1, ON-2, ON-3) ----------------------------------------------------------------------------------


def recommended_roles(players: int) -> list[str]:
    """The recommended set for ``players`` (3–10): ON-2 for 3–5 players, the house extension beyond. Sorted.
    Raises :class:`OnuwError` (ON-1) outside 3–10."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise _fail("roles", _("One Night Ultimate Werewolf takes 3 to 10 players, not %(n)s."), "ON-1", n=players)
    return sorted(RECOMMENDED_3 + RECOMMENDED_EXTRA[:players - 3])


def check_roles(roles: Sequence[str], players: int | None = None) -> list[tuple[str, dict]]:
    """Check a master's multiset of cards (ON-1, ON-2). Returns the warnings as ``(message, params)``; raises
    :class:`OnuwError` for an unknown role, more than one doppelganger (the doppelganger step serves one), or a
    count other than ``players + 3`` (when ``players`` is known)."""
    unknown = [r for r in roles if r not in ROLES]
    if unknown:
        raise _fail("roles", _("Unknown role “%(role)s”; the roles are: %(roles)s."), "ON-2",
                    role=unknown[0], roles=", ".join(ROLES))
    counts = Counter(roles)
    if counts["doppelganger"] > 1:
        raise _fail("roles", _("Only one doppelganger can be in play."), "ON-2")
    if players is not None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise _fail("roles", _("One Night Ultimate Werewolf takes 3 to 10 players, not %(n)s."), "ON-1",
                        n=players)
        if len(roles) != players + 3:
            raise _fail("roles", _("%(players)s players need exactly %(need)s cards (players + 3), not %(n)s."),
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


# -- roles as they act and count ----------------------------------------------------------------------------------


def effective(card: str, state: Mapping[str, Any]) -> str:
    """The role a card counts as (ON-5): the doppelganger card is the role it copied (if any)."""
    if card == "doppelganger" and state.get("copy"):
        return state["copy"]
    return card


def team(role: str) -> str:
    """``werewolf`` (werewolf, minion), ``tanner``, or ``village`` (every other role; an uncopied doppelganger)."""
    if role in WEREWOLF_TEAM:
        return "werewolf"
    return TANNER if role == TANNER else "village"


def doppelganger_seat(state: Mapping[str, Any]) -> str | None:
    """The seat (string id) dealt the doppelganger, or ``None`` when it lies in the center."""
    return next((sid for sid, card in state["dealt"].items() if card == "doppelganger"), None)


def acting_role(state: Mapping[str, Any], sid: str) -> str:
    """The role a seat acts as at night: its dealt card (ON-4), or for the doppelganger the role he copied."""
    card = state["dealt"][sid]
    return (state.get("copy") or "doppelganger") if card == "doppelganger" else card


def wakers(state: Mapping[str, Any], role: str, order: Sequence[str]) -> list[str]:
    """Seats that wake as ``role`` (dealt it, or the doppelganger who copied it), in ``order`` (seat ring order);
    the doppelganger last, as he joins the others."""
    dealt = [sid for sid in order if state["dealt"][sid] == role]
    dop = doppelganger_seat(state)
    if dop is not None and state.get("copy") == role and role != "doppelganger":
        dealt.append(dop)
    return dealt


def night_choice(state: Mapping[str, Any], sid: str, order: Sequence[str]) -> str | None:
    """What a seat may choose at night: ``seer``/``robber``/``troublemaker``/``drunk`` (its acting role), ``lone_wolf``
    (the only werewolf among players with the option on, ON-4.2), or ``None`` (nothing to choose)."""
    role = acting_role(state, sid)
    if role in CHOOSING:
        return role
    if role == "werewolf" and state.get("lone_wolf") and len(wakers(state, "werewolf", order)) == 1:
        return "lone_wolf"
    return None


# -- order validation (ON-4, ON-6, ON-14) --------------------------------------------------------------------------


def _seat_ref(value: Any, field: str, ids: Sequence[str], sid: str, rule: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)) or str(value) not in ids:
        raise _fail(field, _("Choose one of the players."), rule)
    if str(value) == sid:
        raise _fail(field, _("Choose another player, not yourself."), rule)
    return str(value)


def _center_ref(value: Any, field: str, rule: str) -> str:
    if value not in CENTER:
        raise _fail(field, _("Choose a center card: center1, center2 or center3."), rule)
    return value


def _only(payload: Mapping[str, Any], keys: Sequence[str], rule: str) -> None:
    extra = sorted(set(payload) - set(keys))
    if extra:
        raise _fail(extra[0], _("Unknown field “%(key)s”."), rule, key=extra[0])
    missing = [k for k in keys if k not in payload]
    if missing:
        raise _fail(missing[0], _("This field is required."), rule)


def validate_night(state: Mapping[str, Any], sid: str, payload: Mapping[str, Any], order: Sequence[str]) -> dict:
    """Check seat ``sid``'s night order (ON-4) against its dealt card; ``order`` are all seat ids (strings) in ring
    order. Returns the normalised payload (seat ids as ints); raises :class:`OnuwError` with the reason."""
    choice = night_choice(state, sid, order)
    role = acting_role(state, sid)
    if choice is None:
        if role == "werewolf":
            raise _fail("", _("You are not the only werewolf among the players: werewolves only see each other."),
                        "ON-4.2")
        looking = {"minion": "ON-4.3", "mason": "ON-4.4", "insomniac": "ON-4.9"}
        if role in looking:
            raise _fail("", _("Your role only looks; there is nothing to choose."), looking[role])
        if role == "doppelganger":
            raise _fail("", _("You copied nobody, so you have nothing to do tonight."), "ON-4.1")
        raise _fail("", _("Your card does not wake at night."), "ON-4.10")
    if choice == "lone_wolf":
        _only(payload, ["look"], "ON-4.2")
        look = payload["look"]
        if not isinstance(look, list) or len(look) != 1:
            raise _fail("look", _("A lone werewolf looks at exactly one center card."), "ON-4.2")
        return {"look": [_center_ref(look[0], "look", "ON-4.2")]}
    if choice == "seer":
        _only(payload, ["look"], "ON-4.5")
        look = payload["look"]
        if not isinstance(look, list) or len(look) not in (1, 2):
            raise _fail("look", _("The seer looks at one other player's card or at two center cards."), "ON-4.5")
        if len(look) == 1:
            if look[0] in CENTER:
                raise _fail("look", _("The seer looks at two center cards, not one."), "ON-4.5")
            return {"look": [int(_seat_ref(look[0], "look", order, sid, "ON-4.5"))]}
        centers = [_center_ref(v, "look", "ON-4.5") for v in look]
        if centers[0] == centers[1]:
            raise _fail("look", _("Choose two different center cards."), "ON-4.5")
        return {"look": centers}
    if choice == "robber":
        _only(payload, ["swap_with"], "ON-4.6")
        return {"swap_with": int(_seat_ref(payload["swap_with"], "swap_with", order, sid, "ON-4.6"))}
    if choice == "troublemaker":
        _only(payload, ["swap"], "ON-4.7")
        pair = payload["swap"]
        if not isinstance(pair, list) or len(pair) != 2:
            raise _fail("swap", _("The troublemaker swaps exactly two other players' cards."), "ON-4.7")
        a, b = (_seat_ref(v, "swap", order, sid, "ON-4.7") for v in pair)
        if a == b:
            raise _fail("swap", _("Choose two different players."), "ON-4.7")
        return {"swap": [int(a), int(b)]}
    # drunk
    _only(payload, ["take"], "ON-4.8")
    return {"take": _center_ref(payload["take"], "take", "ON-4.8")}


def validate_copy(state: Mapping[str, Any], sid: str, payload: Mapping[str, Any], order: Sequence[str]) -> dict:
    """Check the doppelganger step's order ``{"copy": seat}`` (ON-4.1, ON-14)."""
    if state["dealt"].get(sid) != "doppelganger":
        raise _fail("", _("Only the doppelganger acts in this step."), "ON-14")
    _only(payload, ["copy"], "ON-4.1")
    return {"copy": int(_seat_ref(payload["copy"], "copy", order, sid, "ON-4.1"))}


def validate_vote(sid: str, payload: Mapping[str, Any], order: Sequence[str]) -> dict:
    """Check a day vote ``{"vote": seat}``: every player votes for another player (ON-6)."""
    _only(payload, ["vote"], "ON-6")
    return {"vote": int(_seat_ref(payload["vote"], "vote", order, sid, "ON-6"))}


# -- what players learn as the night opens (ON-4.2–4.4) -------------------------------------------------------------


def knowledge(state: Mapping[str, Any], order: Sequence[str]) -> list[Ev]:
    """Private events as the night opens: the werewolves see each other (a lone one learns he may peek, ON-4.2),
    the minion sees the werewolves (ON-4.3), the masons see each other (ON-4.4). Includes the doppelganger when he
    copied one of these roles (ON-4.1)."""
    events: list[Ev] = []
    wolves = wakers(state, "werewolf", order)
    for sid in wolves:
        others = [w for w in wolves if w != sid]
        if others:
            events.append(Ev("onuw.werewolves", {"seats": [int(w) for w in others]}, to=int(sid)))
        else:
            events.append(Ev("onuw.lone_wolf" if state.get("lone_wolf") else "onuw.lone_wolf_no_peek", {},
                             to=int(sid)))
    for sid in wakers(state, "minion", order):
        if wolves:
            events.append(Ev("onuw.minion_sees", {"seats": [int(w) for w in wolves]}, to=int(sid)))
        else:
            events.append(Ev("onuw.minion_no_wolves", {}, to=int(sid)))
    masons = wakers(state, "mason", order)
    for sid in masons:
        others = [m for m in masons if m != sid]
        events.append(Ev("onuw.masons", {"seats": [int(m) for m in others]}, to=int(sid)) if others
                      else Ev("onuw.lone_mason", {}, to=int(sid)))
    return events


# -- the doppelganger step (ON-4.1, ON-14) --------------------------------------------------------------------------


def resolve_doppelganger(state: Mapping[str, Any], orders: Mapping[str, Mapping[str, Any]],
                         order: Sequence[str]) -> tuple[dict, list[Ev]]:
    """Apply the doppelganger's copy (``orders``: seat id string → payload): he looks at the chosen player's card
    and becomes that role (ON-4.1); he learns it at once (ON-14). Then the night opens with what the werewolves,
    minion and masons learn. A doppelganger who does not order copies nothing (an uncopied doppelganger is
    village). Returns ``(state, events)``."""
    new = {**state, "stage": "night"}
    events: list[Ev] = []
    dop = doppelganger_seat(state)
    target = orders.get(dop, {}).get("copy") if dop is not None else None
    if dop is not None and target is not None and str(target) in state["dealt"]:
        role = state["dealt"][str(target)]
        new["copy"], new["copied_from"] = role, str(target)
        events.append(Ev("onuw.copied", {"seat": int(target), "role": role}, to=int(dop)))
        events.append(Ev("onuw.trace_copy", {"seat": int(dop), "target": int(target), "role": role}, to="master"))
    elif dop is not None:
        events.append(Ev("onuw.copied_nothing", {}, to=int(dop)))
        events.append(Ev("onuw.trace_no_copy", {"seat": int(dop)}, to="master"))
    events += knowledge(new, order)
    return new, events


# -- the night (ON-4, ON-5, ON-13) ------------------------------------------------------------------------------------


def _card_at(cards: Mapping[str, str], center: Sequence[str], ref: str) -> str:
    return center[CENTER.index(ref)] if ref in CENTER else cards[ref]


def resolve_night(state: Mapping[str, Any], orders: Mapping[str, Mapping[str, Any]], order: Sequence[str],
                  rng: random.Random) -> tuple[dict, list[Ev]]:
    """Apply the night's actions in wake order against the real card positions (ON-4, ON-13), each seat acting by
    its dealt card: the doppelganger's copied seer/robber/troublemaker/drunk action first (ON-4.1), the lone
    werewolf's peek, seer, robber, troublemaker, drunk, then the insomniac (and a doppelganger-insomniac after
    her). ``orders`` maps seat id strings to validated payloads; a seat without an order does nothing, except a
    drunk, whose swap is made at random (logged to the master). Returns ``(state, events)``."""
    cards = dict(state["cards"])
    center = list(state["center"])
    events: list[Ev] = []
    dop = doppelganger_seat(state)
    copy = state.get("copy")

    def show(ref: str) -> dict:
        return {"center": ref} if ref in CENTER else {"seat": int(ref)}

    def act(sid: str, role: str) -> None:
        payload = orders.get(sid) or {}
        if role == "seer" and payload.get("look"):
            seen = [{**show(str(r)), "card": _card_at(cards, center, str(r))} for r in payload["look"]]
            events.append(Ev("onuw.seer_saw", {"seen": seen}, to=int(sid)))
            events.append(Ev("onuw.trace_seer", {"seat": int(sid), "seen": seen}, to="master"))
        elif role == "lone_wolf" and payload.get("look"):
            ref = payload["look"][0]
            events.append(Ev("onuw.wolf_saw", {"center": ref, "card": center[CENTER.index(ref)]}, to=int(sid)))
            events.append(Ev("onuw.trace_wolf", {"seat": int(sid), "center": ref,
                                                 "card": center[CENTER.index(ref)]}, to="master"))
        elif role == "robber" and payload.get("swap_with") is not None:
            other = str(payload["swap_with"])
            cards[sid], cards[other] = cards[other], cards[sid]
            got = cards[sid]
            events.append(Ev("onuw.robbed", {"seat": int(other), "card": got, "as": effective(got, state)},
                             to=int(sid)))
            events.append(Ev("onuw.trace_robber", {"seat": int(sid), "target": int(other), "card": got},
                             to="master"))
        elif role == "troublemaker" and payload.get("swap"):
            a, b = (str(x) for x in payload["swap"])
            cards[a], cards[b] = cards[b], cards[a]
            events.append(Ev("onuw.swapped", {"seats": [int(a), int(b)]}, to=int(sid)))
            events.append(Ev("onuw.trace_troublemaker", {"seat": int(sid), "seats": [int(a), int(b)]},
                             to="master"))
        elif role == "drunk":
            ref = payload.get("take")
            randomly = ref is None
            if randomly:
                ref = rng.choice(CENTER)
            i = CENTER.index(ref)
            cards[sid], center[i] = center[i], cards[sid]
            events.append(Ev("onuw.drunk_took", {"center": ref}, to=int(sid)))
            events.append(Ev("onuw.trace_drunk_random" if randomly else "onuw.trace_drunk",
                             {"seat": int(sid), "center": ref}, to="master"))
        elif role == "insomniac":
            card = cards[sid]
            events.append(Ev("onuw.insomniac_saw", {"card": card, "as": effective(card, state)}, to=int(sid)))
            events.append(Ev("onuw.trace_insomniac", {"seat": int(sid), "card": card}, to="master"))

    if dop is not None and copy in CHOOSING:
        act(dop, copy)  # ON-4.1: the copied action is done at once, before everyone else wakes
    wolves = wakers(state, "werewolf", order)
    if state.get("lone_wolf") and len(wolves) == 1:
        act(wolves[0], "lone_wolf")
    for role in ("seer", "robber", "troublemaker", "drunk", "insomniac"):
        for sid in order:
            if state["dealt"][sid] == role:
                act(sid, role)
    if dop is not None and copy == "insomniac":
        act(dop, "insomniac")  # ON-4.1: a doppelganger-insomniac wakes after the insomniac
    events.append(Ev("onuw.night_over", {}))
    return {**state, "cards": cards, "center": center, "stage": "day"}, events


# -- the day and victory (ON-6–ON-12) --------------------------------------------------------------------------------


def deaths(votes: Mapping[str, str], final_roles: Mapping[str, str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Who dies (ON-7, ON-8): the most-voted players, all of them on a tie; nobody if no player has more than one
    vote; then each dead hunter's vote target, in a chain. ``votes``: voter → voted (seat id strings); ``final_roles``
    every seat's role at the end of the night. Returns ``(dead in order, hunter kills as (hunter, victim))``."""
    counts = Counter(votes.values())
    top = max(counts.values(), default=0)
    dead = [sid for sid in final_roles if top > 1 and counts[sid] == top]
    shots = []
    queue = list(dead)
    while queue:
        sid = queue.pop(0)
        target = votes.get(sid)
        if final_roles[sid] == "hunter" and target is not None and target not in dead:
            dead.append(target)
            shots.append((sid, target))
            queue.append(target)
    return dead, shots


def victory(final_roles: Mapping[str, str], dead: Sequence[str]) -> tuple[list[str], list[str]]:
    """Winning teams and seats (ON-9–ON-12) from every seat's final role and the dead.

    Village wins if a werewolf dies, or if no player is a werewolf and nobody dies (ON-9). The werewolf team
    (werewolves and minion) wins if a player is a werewolf and none dies — unless a tanner died (ON-10, ON-11); a
    dead minion does not stop it (ON-12). With no werewolf among the players the minion wins if anyone other than
    him dies (ON-12). A dead tanner wins, whoever else does (ON-11). Returns ``(teams, seat ids)``."""
    dead_set = set(dead)
    wolves = [s for s, r in final_roles.items() if r == "werewolf"]
    wolf_died = any(s in dead_set for s in wolves)
    tanner_died = any(final_roles[s] == TANNER for s in dead_set)
    teams: list[str] = []
    seats: list[str] = []
    if (wolves and wolf_died) or (not wolves and not dead_set):
        teams.append("village")
        seats += [s for s, r in final_roles.items() if team(r) == "village"]
    if wolves and not wolf_died and not tanner_died:
        teams.append("werewolf")
        seats += [s for s, r in final_roles.items() if team(r) == "werewolf"]
    if not wolves:
        minions = [s for s, r in final_roles.items() if r == "minion" and any(d != s for d in dead_set)]
        if minions:
            teams.append("werewolf")
            seats += minions
    if tanner_died:
        teams.append(TANNER)
        seats += [s for s in final_roles if s in dead_set and final_roles[s] == TANNER]
    return teams, [s for s in final_roles if s in set(seats)]


def resolve_day(state: Mapping[str, Any], orders: Mapping[str, Mapping[str, Any]],
                order: Sequence[str]) -> tuple[dict, list[Ev], list[str], list[str]]:
    """Count the votes (ON-7), apply the hunter (ON-8), reveal the dead's cards and then every card (the game is
    over) — dealt and final, with each seat's team and result by its final card (ON-5) — and decide the winners
    (ON-9–ON-12). Returns ``(state, events, winning teams, winning seat ids)``."""
    votes = {sid: str(p["vote"]) for sid, p in orders.items() if p.get("vote") is not None}
    final = {sid: effective(state["cards"][sid], state) for sid in order}
    dead, shots = deaths(votes, final)
    events: list[Ev] = [Ev("onuw.votes", {"votes": [[int(v), int(t)] for v, t in sorted(
        votes.items(), key=lambda kv: order.index(kv[0]))]})]
    counts = Counter(votes.values())
    if not dead:
        events.append(Ev("onuw.nobody_died", {"top": max(counts.values(), default=0)}))
    shot_victims = {victim: hunter for hunter, victim in shots}
    for sid in dead:
        # The dead reveal the card in front of them (ON-7); the dealt card beside it, as the game is over anyway.
        data = {"seat": int(sid), "card": state["cards"][sid], "as": final[sid], "dealt": state["dealt"][sid]}
        if sid in shot_victims:
            events.append(Ev("onuw.hunter_shot", {**data, "hunter": int(shot_victims[sid])}))
        else:
            events.append(Ev("onuw.died", {**data, "count": counts[sid]}))
    teams, winners = victory(final, dead)
    events.append(Ev("onuw.final_cards", {
        "seats": [{"seat": int(s), "dealt": state["dealt"][s], "card": state["cards"][s], "as": final[s],
                   "team": team(final[s]), "won": s in winners}
                  for s in order],
        "center": list(state["center"]), "copy": state.get("copy")}))
    events.append(Ev("onuw.winners", {"teams": teams, "seats": [int(s) for s in winners]}))
    new = {**state, "votes": votes, "dead": dead, "stage": "over", "winners": winners, "winning_teams": teams}
    return new, events, teams, winners


# -- tournament series (ON-16) -----------------------------------------------------------------------------------


def series_standings(games: Sequence[Sequence[Any]], goal: int = SERIES_TOKENS) -> tuple[dict[Any, int], Any]:
    """Tokens per player over a series (ON-16): ``games`` lists, per finished game in order, the players who won it;
    each winner gets a token. Returns ``(tokens, champion)`` — the first player to reach ``goal`` tokens (in game
    order; ties within one game go to the first listed), or ``None``."""
    tokens: dict[Any, int] = {}
    champion = None
    for winners in games:
        for player in winners:
            tokens[player] = tokens.get(player, 0) + 1
            if champion is None and tokens[player] >= goal:
                champion = player
    return tokens, champion
