"""The night: its opening, the vote and its rounds, executions (BV-5, BV-7.1, BV-15.3–BV-15.14).

A night is the phase ``night N`` (round 1), then, as the tally asks, ``defence N`` (BV-5.2, BV-5.6), ``verdict N``
(BV-5.3) or ``arbiter N`` (BV-15.8). Every round weighs each vote (1; the hunter of hunters 1.5, BV-15.7; the tricky
warg 2, BV-13.24; a delegate +1 per silenced player who named him, BV-15.12). Pure: chance comes from ``rng``.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, MutableMapping
from typing import Any

from gm.core.engine import PhaseSpec

from .state import SECRETS_NIGHT, Ev, Step, is_alive, living, side_of
from .victory import die, points, winner


def variant_on(state: Mapping[str, Any], slug: str) -> bool:
    """Whether tonight's vote follows variant ``slug``: tonight's die (BV-15.11) or the master's option."""
    if state.get("die") is not None:
        return state.get("variant") == slug
    return bool(state["options"].get(slug))


def open_night(state: MutableMapping[str, Any], n: int, rng: random.Random,
               names: Mapping[str, str]) -> tuple[list[Ev], PhaseSpec]:
    """Open night ``n``: roll the die of BV-15.11 (``rng.randint(1, 6)``, public), set the blood-vengeance
    candidates from the last night's executed vampire (BV-15.6, BV-15.6a), and announce the players without a vote
    tonight (BV-13.23; not who did it). Returns the opening's events and the night's :class:`PhaseSpec` (12 h under
    BV-15.10)."""
    opts = state["options"]
    state.update(stage="night", night=n, tied=[], tally={}, executed=[], arbiter=None)
    state["die"] = None
    state["variant"] = "standard"
    if opts.get("grimaces_of_fate"):
        die_value = rng.randint(1, 6)
        state["die"] = die_value
        state["variant"] = opts.get("grimaces", {}).get(str(die_value), "standard")
    else:
        for slug in ("flowers", "arbiter_of_fates", "festival_panic", "vampire_secrets"):
            if opts.get(slug):
                state["variant"] = slug
                break
    candidates = None
    if variant_on(state, "blood_vengeance") and state.get("for_executed"):
        alive = [s for s in state["for_executed"] if is_alive(state, s)]
        candidates = alive or None
    state["vengeance"] = candidates
    state["for_executed"] = []
    no_vote = [s for s in state.get("no_vote") or [] if is_alive(state, s)]
    state["no_vote"] = no_vote
    events = [Ev("bv.night_opened", {"night": n, "variant": state["variant"], "die": state["die"],
                                     "no_vote": no_vote, "vengeance": candidates or [],
                                     "elect": bool(opts.get("hunter_of_hunters") and state.get("elect"))})]
    duration = SECRETS_NIGHT if variant_on(state, "vampire_secrets") else None
    return events, PhaseSpec("night", n, duration=duration)


def has_vote(state: Mapping[str, Any], sid: str) -> bool:
    """Whether ``sid`` votes tonight: alive, not silenced (BV-15.12), not a co-master (BV-15.14) and not deprived
    (BV-13.23, BV-13.24)."""
    return (is_alive(state, sid) and sid not in (state.get("silenced") or [])
            and sid not in (state.get("co_masters") or []) and sid not in (state.get("no_vote") or []))


def weight(state: Mapping[str, Any], sid: str) -> float:
    """A voter's own weight tonight: 1, the tricky warg 2 (BV-13.24), +0.5 for the hunter of hunters (BV-15.7)."""
    w = float((state.get("weights") or {}).get(sid, 1))
    return w + (0.5 if state.get("hoh") == sid else 0.0)


def total_weight(state: Mapping[str, Any]) -> float:
    """BV-5.6a: the night's total vote weight — every living voter's weight plus 1 per living silenced player."""
    voters = [s for s in living(state) if has_vote(state, s)]
    silenced = [s for s in living(state) if s in (state.get("silenced") or [])
                and s not in (state.get("co_masters") or [])]
    return sum(weight(state, s) for s in voters) + len(silenced)


def entitled_players(state: Mapping[str, Any]) -> int:
    """BV-15.9a: the players entitled to vote tonight (the silenced counted, the deprived not)."""
    return sum(1 for s in living(state) if has_vote(state, s) or (
        s in (state.get("silenced") or []) and s not in (state.get("co_masters") or [])))


def _bonus(state: Mapping[str, Any], orders: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """A delegate's extra weight: +1 per living silenced player who named him this round (BV-15.12)."""
    bonus: dict[str, float] = {}
    for sid, order in orders.items():
        target = order.get("delegate")
        if target is not None and sid in (state.get("silenced") or []) and is_alive(state, sid):
            bonus[str(target)] = bonus.get(str(target), 0) + 1
    return bonus


def _ballots(state: Mapping[str, Any], orders: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, Any, float]]:
    """``(voter, order, weight)`` of every living voter with an order, ring order."""
    bonus = _bonus(state, orders)
    out = []
    for sid in living(state):
        order = orders.get(sid)
        if order and has_vote(state, sid):
            out.append((sid, order, weight(state, sid) + bonus.get(sid, 0)))
    return out


def _top(totals: Mapping[str, float]) -> list[str]:
    """The players with the highest non-zero total (BV-5.5)."""
    best = max((v for v in totals.values() if v > 0), default=0)
    return [s for s, v in totals.items() if v == best and best > 0]


def _tally_event(state: Mapping[str, Any], kind: str, votes: list[list[str]], totals: Mapping[str, float]) -> Ev:
    """BV-14.5: each round's tally — who voted for whom, or only each candidate's total under BV-15.3."""
    shown = [] if state["options"].get("vampire_masquerade") else votes
    return Ev("bv.tally", {"round": kind, "votes": shown, "totals": {k: number(totals[k]) for k in sorted(totals)}})


def number(value: float) -> float | int:
    """A weight as JSON shows it best: 2 rather than 2.0, 1.5 as it is."""
    return int(value) if float(value).is_integer() else value


def execute(state: MutableMapping[str, Any], seats: list[str], rng: random.Random, *, voters: Mapping[str, list[str]],
            kind: str) -> Step:
    """BV-7.1: execute ``seats`` at once (cards opened unless BV-15.4), with their linked deaths; note who voted for
    an executed vampire (BV-15.6, BV-15.6a: ``voters`` maps each executed seat to the voters "for" him); the first
    executed player becomes a co-master under BV-15.14; then check victory (BV-9, BV-11) and open the light time,
    or end guards at the gate (BV-15.13)."""
    step = Step()
    dead, trace = die(state, seats, cause="executed")
    rage = state["options"].get("vampire_rage")
    step.dead = dead
    step.events.append(Ev("bv.executed", {"seats": dead, "round": kind,
                                          "cards": {} if rage else {s: state["cards"][s] for s in dead}}))
    step.events += trace
    state["executed"] = [*(state.get("executed") or []), *dead]
    state["executions"] = int(state.get("executions") or 0) + len(dead)
    for s in seats:
        if side_of(state, s) == "vampires":
            state["for_executed"] = sorted(set(state.get("for_executed") or []) | set(voters.get(s, [])),
                                           key=state["ring"].index)
    if state["options"].get("temporary_master") and not state.get("co_masters") and seats:
        state["co_masters"] = [seats[0]]
        step.events.append(Ev("bv.co_master", {"seat": seats[0]}))
    return finish_night(state, step)


def finish_night(state: MutableMapping[str, Any], step: Step) -> Step:
    """The end of a night (BV-5.8): guards at the gate decided (BV-15.13), else a victory check (BV-9, BV-11),
    else light N opens (the visiting hunters meet at light 1, BV-15.1)."""
    if state["options"].get("guards_at_the_gate"):
        hunter_dead = any(side_of(state, s) == "hunters" for s in state.get("dead") or [])
        return end(state, step, "vampires" if hunter_dead else "hunters")
    side = winner(state, nightfall=False)
    if side:
        return end(state, step, side)
    n = int(state["night"])
    state.update(stage="light", light=n, tied=[], arbiter=None)
    if n == 1 and state["options"].get("visiting_hunters") and state.get("hunters"):
        step.groups["faction:hunters"] = list(state["hunters"])
        for s in state["hunters"]:
            step.events.append(Ev("bv.hunters_met", {"seats": list(state["hunters"])}, to=s))
    step.next = PhaseSpec("light", n)
    return step


def end(state: MutableMapping[str, Any], step: Step, side: str) -> Step:
    """The game ends with ``side``'s victory (BV-9–BV-12): the result lines (BV-14.9a) and every seat's points."""
    state["stage"] = "over"
    state["winner"] = side
    state["points"] = points(state, side)
    step.winner = side
    step.events.append(Ev("bv.victory", {"side": side, "points": dict(state["points"]),
                                         "winners": [s for s, p in state["points"].items() if p]}))
    step.next = None
    return step


def nobody(state: MutableMapping[str, Any], kind: str, rng: random.Random) -> Step:
    """BV-5.4: nobody executed this night — except BV-15.14's night 1, which draws one living player to execute."""
    if state["options"].get("temporary_master") and int(state["night"]) == 1 and not state.get("executed"):
        pick = rng.choice(living(state))
        step = execute(state, [pick], rng, voters={}, kind=kind)
        step.events.insert(0, Ev("bv.trace_drawn", {"seat": pick}, to="master"))
        return step
    step = Step(events=[Ev("bv.nobody_executed", {"round": kind})])
    return finish_night(state, step)


def _elect(state: MutableMapping[str, Any], ballots: list[tuple[str, Any, float]]) -> list[Ev]:
    """BV-15.7: the election of the hunter of hunters (plurality of heads; a tie elects nobody and repeats the next
    night), and the heir he names."""
    events: list[Ev] = []
    hoh = state.get("hoh")
    for sid, order, _w in ballots:
        if sid == hoh and order.get("heir") is not None:
            state["heir"] = str(order["heir"])
    if not (state["options"].get("hunter_of_hunters") and state.get("elect")):
        return events
    counts: dict[str, float] = {}
    for _sid, order, _w in ballots:
        if order.get("elect") is not None:
            counts[str(order["elect"])] = counts.get(str(order["elect"]), 0) + 1
    top = _top(counts)
    if len(top) == 1 and is_alive(state, top[0]):
        state["hoh"] = top[0]
        state["elect"] = False
        events.append(Ev("bv.hoh_elected", {"seat": top[0]}))
    else:
        events.append(Ev("bv.hoh_not_elected", {}))
    return events


def resolve_night_round(state: MutableMapping[str, Any], kind: str, orders: Mapping[str, Mapping[str, Any]],
                        rng: random.Random) -> Step:
    """Resolve one round of the night (``kind``: ``night``, ``defence``, ``verdict`` or ``arbiter``) from each
    seat's latest order (seat id string → validated payload). BV-5.1–BV-5.6a, BV-15.5, BV-15.6, BV-15.8, BV-15.9,
    BV-15.14. Returns the :class:`Step` (next round, light time, or the end)."""
    ballots = _ballots(state, orders)
    if kind == "verdict":
        return _verdict(state, ballots, rng)
    if kind == "arbiter":
        victim = orders.get(str(state.get("arbiter")), {}).get("vote")
        state["last_arbiter"] = state.get("arbiter")
        state["last_arbiter_night"] = int(state["night"])
        if victim is not None and is_alive(state, str(victim)) and is_alive(state, str(state.get("arbiter"))):
            return execute(state, [str(victim)], rng, voters={}, kind=kind)
        return nobody(state, kind, rng)
    pre = _elect(state, ballots) if kind == "night" else []
    ballots = _ballots(state, orders)  # the newly elected hunter of hunters already weighs 1.5 (BV-15.7)
    if kind == "night" and variant_on(state, "festival_panic"):
        step = _festival(state, ballots, rng)
    elif kind == "night" and variant_on(state, "flowers"):
        step = _flowers(state, ballots, rng)
    else:
        step = _plurality(state, kind, ballots, rng)
    step.events[:0] = pre
    return step


def _plurality(state: MutableMapping[str, Any], kind: str, ballots: list[tuple[str, Any, float]],
               rng: random.Random) -> Step:
    """Round 1 or the defence round (BV-5.1, BV-5.2, BV-5.5, BV-5.6): the single highest total is executed (or,
    under BV-15.8, becomes the arbiter of fates); a tie opens the defence, then the verdict."""
    totals: dict[str, float] = {}
    votes: list[list[str]] = []
    voters: dict[str, list[str]] = {}
    for sid, order, w in ballots:
        target = order.get("vote")
        if target is None or isinstance(target, list):
            continue
        target = str(target)
        totals[target] = totals.get(target, 0) + w
        votes.append([sid, target])
        voters.setdefault(target, []).append(sid)
    events = [_tally_event(state, kind, votes, totals)]
    arbiter = variant_on(state, "arbiter_of_fates")
    if kind == "defence":
        tied = list(state.get("tied") or [])
        best = max((totals.get(s, 0) for s in tied), default=0)
        top = [s for s in tied if totals.get(s, 0) == best]
    else:
        top = _top(totals)
    if len(top) == 1:
        if arbiter:
            return _arbiter_elected(state, top[0], events)
        step = execute(state, top, rng, voters=voters, kind=kind)
        step.events[:0] = events
        return step
    if not top:
        step = nobody(state, kind, rng)
        step.events[:0] = events
        return step
    if kind == "night":
        state["tied"] = top
        state["stage"] = "defence"
        events.append(Ev("bv.defence_opened", {"seats": top}))
        return Step(events=events, next=PhaseSpec("defence", int(state["night"])))
    # still tied after the revote (BV-5.3)
    if arbiter:
        step = nobody(state, kind, rng)
    elif state["options"].get("temporary_master") and int(state["night"]) == 1:
        step = execute(state, top, rng, voters=voters, kind=kind)  # BV-15.14: all the tied are executed
    else:
        state["tied"] = top
        state["stage"] = "verdict"
        events.append(Ev("bv.verdict_opened", {"seats": top}))
        return Step(events=events, next=PhaseSpec("verdict", int(state["night"])))
    step.events[:0] = events
    return step


def _arbiter_elected(state: MutableMapping[str, Any], seat: str, events: list[Ev]) -> Step:
    """BV-15.8: the elected arbiter alone names the victim in ``arbiter N``."""
    state["arbiter"] = seat
    state["stage"] = "arbiter"
    events.append(Ev("bv.arbiter_elected", {"seat": seat}))
    # Open to every living seat, so that another player's line is refused ``not_arbiter`` by the rules (BV-16).
    return Step(events=events, next=PhaseSpec("arbiter", int(state["night"])))


def _verdict(state: MutableMapping[str, Any], ballots: list[tuple[str, Any, float]], rng: random.Random) -> Step:
    """BV-5.3, BV-5.6, BV-5.6a: the weighted ``yes`` must exceed half of the night's total vote weight; then every
    tied player is executed at once, else nobody (BV-5.4)."""
    yes = [(sid, w) for sid, order, w in ballots if order.get("verdict") == "yes"]
    total = total_weight(state)
    weight_yes = sum(w for _s, w in yes)
    weight_no = sum(w for _s, order, w in ballots if order.get("verdict") == "no")
    events = [Ev("bv.verdict_tally", {"yes": [s for s, _w in yes], "weight": number(weight_yes),
                                      "weight_no": number(weight_no), "total": number(total),
                                      "seats": list(state.get("tied") or [])})]
    if weight_yes > total / 2:
        tied = [s for s in state.get("tied") or [] if is_alive(state, s)]
        step = execute(state, tied, rng, voters={s: [v for v, _w in yes] for s in tied}, kind="verdict")
    else:
        step = nobody(state, "verdict", rng)
    step.events[:0] = events
    return step


def _festival(state: MutableMapping[str, Any], ballots: list[tuple[str, Any, float]], rng: random.Random) -> Step:
    """BV-15.9, BV-15.9a: everyone marked by more than half of the players entitled to vote is executed at once;
    each mark counts 1 (a delegate's marks also for each silenced player who named him); no tie procedure."""
    marks: dict[str, float] = {}
    voters: dict[str, list[str]] = {}
    votes: list[list[str]] = []
    bonus_of = {sid: w - weight(state, sid) for sid, _o, w in ballots}
    for sid, order, _w in ballots:
        targets = order.get("vote")
        targets = targets if isinstance(targets, list) else ([] if targets is None else [targets])
        for t in targets:
            t = str(t)
            marks[t] = marks.get(t, 0) + 1 + bonus_of.get(sid, 0)
            voters.setdefault(t, []).append(sid)
            votes.append([sid, t])
    need = entitled_players(state) / 2
    events = [_tally_event(state, "night", votes, marks)]
    chosen = [s for s in state["ring"] if marks.get(s, 0) > need]
    if not chosen:
        step = nobody(state, "night", rng)
    else:
        step = execute(state, chosen, rng, voters=voters, kind="night")
    step.events[:0] = events
    return step


def _flowers(state: MutableMapping[str, Any], ballots: list[tuple[str, Any, float]], rng: random.Random) -> Step:
    """BV-15.5: each black rose adds, each red rose takes away the giver's weight; the single highest score is
    executed (even if not positive); a tie for the highest goes to BV-5.2–BV-5.4 with ordinary votes; no roses:
    nobody."""
    score: dict[str, float] = {}
    voters: dict[str, list[str]] = {}
    votes: list[list[str]] = []
    for sid, order, w in ballots:
        if order.get("black") is not None:
            b = str(order["black"])
            score[b] = score.get(b, 0) + w
            voters.setdefault(b, []).append(sid)
            votes.append([sid, b])
        if order.get("red") is not None:
            r = str(order["red"])
            score[r] = score.get(r, 0) - w
    events = [Ev("bv.flowers_tally", {"scores": {k: score[k] for k in sorted(score)},
                                      "votes": [] if state["options"].get("vampire_masquerade") else votes})]
    if not score:
        step = nobody(state, "night", rng)
        step.events[:0] = events
        return step
    best = max(score.values())
    top = [s for s in state["ring"] if score.get(s) == best]
    if len(top) == 1:
        step = execute(state, top, rng, voters=voters, kind="night")
        step.events[:0] = events
        return step
    state["tied"] = top
    state["stage"] = "defence"
    events.append(Ev("bv.defence_opened", {"seats": top}))
    return Step(events=events, next=PhaseSpec("defence", int(state["night"])))
