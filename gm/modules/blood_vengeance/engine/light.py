"""The light time (dawn, day, dusk) as one phase whose actions apply in call order (BV-6, BV-8, BV-13, BV-14.2,
BV-14.3), then nightfall: the kills settled together, the dead announced, victory checked (BV-7.3–BV-7.5, BV-10).

Pure. Each ability's behaviour comes from its row of the role table in the state (``effect``, ``targets``, ``self``,
``must_act``…, BV-13.1); chance (``missed_action: random``) comes from ``rng``.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, MutableMapping
from typing import Any

from .night import end, open_night
from .state import GATHERING, GATHERING_ORDER, Ev, Step, is_alive, living, row, side_of
from .table import acts
from .victory import die, winner

INFO_EFFECTS = ("type", "killer_check", "watch", "count_hunters", "vampire_check")


def gathering_members(state: Mapping[str, Any]) -> list[str]:
    """The living hunters who vote in the gathering (BV-6.3): the hunters' group (not an undercover hunter, BV-3.5)
    whose card has ``gathering``."""
    return [s for s in state.get("hunters") or [] if is_alive(state, s) and row(state, s).get("gathering")]


def legal_targets(state: Mapping[str, Any], sid: str, role: str) -> list[str]:
    """The players ``sid`` may name with ``role``'s ability now (BV-13.1 ``self``, ``repeat``; living only)."""
    r = state["table"][role] if role != GATHERING else {"self": "no", "repeat": True}
    out = []
    last = (state.get("last_targets") or {}).get(f"{sid}:{role}", [])
    for t in living(state):
        used = sid in (state.get("self_used") or [])
        if t == sid and (r.get("self", "no") == "no" or (r.get("self") == "once" and used)):
            continue
        if not r.get("repeat", True) and t in last:
            continue
        out.append(t)
    return out


def _missed(state: MutableMapping[str, Any], sid: str, role: str, rng: random.Random) -> dict | None:
    """BV-14.3 ``missed_action: random``: a legal action drawn for a must-act ability (the lamia invites; the
    revenant's targets drawn)."""
    r = state["table"][role]
    targets = legal_targets(state, sid, role)
    if not targets:
        return None
    k = min(int(r.get("targets", 1)), len(targets))
    picked = rng.sample(targets, k)
    action: dict[str, Any] = {"role": role, "targets": picked}
    if r.get("effect") == "lamia":
        action["mode"] = "invite"
    return action


def _neighbour(state: Mapping[str, Any], sid: str) -> str | None:
    """BV-3.4: the nearest living player clockwise (down the ring) from ``sid``, other than him."""
    ring = state["ring"]
    i = ring.index(sid)
    for k in range(1, len(ring)):
        cand = ring[(i + k) % len(ring)]
        if is_alive(state, cand):
            return cand
    return None


def resolve_light(state: MutableMapping[str, Any], orders: Mapping[str, Mapping[str, Any]], rng: random.Random,
                  names: Mapping[str, str]) -> Step:
    """Resolve light ``N`` from every living seat's latest order (seat id string → ``{"actions": [...]}``), in call
    order (BV-6.1, BV-14.2), then nightfall: kills settled together (BV-7.3, BV-7.4, BV-8), linked deaths (BV-7.7),
    the dead announced with their cards (BV-7.5), the victory check (BV-9–BV-11, BV-10 at nightfall) and night N+1
    opened. Results reach only their holder (BV-14.6); the public log says only that the hunters struck (BV-14.5)."""
    step = Step()
    ev = step.events
    opts = state["options"]
    n = int(state["light"])
    alive_now = living(state)
    table = state["table"]
    # -- the calls, in call order (BV-6.1) --------------------------------------------------------------
    calls: list[tuple[int, int, str, dict]] = []
    missed: list[tuple[int, int, str, str]] = []
    gathering_votes: dict[str, str | None] = {}
    for sid in alive_now:
        given = {a["role"]: a for a in (orders.get(sid) or {}).get("actions", [])}
        card = state["cards"][sid]
        if GATHERING in given and sid in gathering_members(state):
            t = given[GATHERING].get("targets") or []
            gathering_votes[sid] = str(t[0]) if t and not given[GATHERING].get("abstain") else None
        r = table[card]
        if not acts(r):
            continue
        action = given.get(card)
        if action is None:
            if not r.get("must_act", True) or (r.get("effect") == "bind" and sid in (state.get("grooms") or {})):
                continue  # a killer's silence is an abstention (BV-14.3); a bride with a groom has nothing to do
            missed.append((int(r.get("order", 0)), state["ring"].index(sid), sid, card))
            continue
        calls.append((int(r.get("order", 0)), state["ring"].index(sid), sid, action))
    for order_no, pos, sid, card in sorted(missed):  # BV-14.3: drawn in call order, from the phase's RNG
        action = _missed(state, sid, card, rng) if opts.get("missed_action") == "random" else None
        if action is None:
            ev.append(Ev("bv.no_action", {"role": card}, to=sid))
            ev.append(Ev("bv.trace_no_action", {"seat": sid, "role": card}, to="master"))
            continue
        ev.append(Ev("bv.trace_random_action", {"seat": sid, "role": card, "targets": action["targets"]},
                     to="master"))
        calls.append((order_no, pos, sid, action))
    calls.append((GATHERING_ORDER, -1, GATHERING, {}))
    calls.sort(key=lambda c: (c[0], c[1]))
    # -- applying them -----------------------------------------------------------------------------------
    blocked: set[str] = {s for s in state.get("paralysed") or [] if is_alive(state, s)}
    protected: set[str] = set()
    drowned: set[str] = set()
    attempts: list[tuple[str, str]] = []  # (attacker seat or "hunters", target), in call order
    chosen_by: dict[str, list[str]] = {}
    hunters_chose: set[str] = set()
    new_no_vote: list[str] = []
    new_weights: dict[str, int] = {}
    new_paralysed: list[str] = []
    new_doom: dict[str, str] = {}
    results: list[tuple[str, Ev]] = []  # (holder, result) — the information results, written at the end
    ambusher: str | None = None
    last_targets: dict[str, list[str]] = {}
    grooms = dict(state.get("grooms") or {})
    new_grooms: dict[str, str] = {}
    self_used = list(state.get("self_used") or [])
    for _order, _pos, sid, action in calls:
        if sid == GATHERING:
            victim = _gathering(state, gathering_votes, drowned, ev)
            if victim is not None:
                attempts.append((GATHERING, victim))
                hunters_chose.add(victim)
            continue
        role = action["role"]
        r = table[role]
        effect = r.get("effect", "none")
        targets = [str(t) for t in action.get("targets") or []]
        mode = action.get("mode")
        if action.get("abstain") or not targets:
            ev.append(Ev("bv.trace_abstain", {"seat": sid, "role": role}, to="master"))
            continue
        last_targets[f"{sid}:{role}"] = targets
        for t in targets:
            chosen_by.setdefault(t, []).append(sid)
        if sid in blocked:
            results.append((sid, Ev("bv.blocked", {"role": role}, to=sid)))
            ev.append(Ev("bv.trace_blocked", {"seat": sid, "role": role, "targets": targets}, to="master"))
            continue
        t = targets[0]
        ev.append(Ev("bv.trace_action", {"seat": sid, "role": role, "targets": targets, "mode": mode or ""},
                     to="master"))
        if effect == "block":
            blocked.add(t)
        elif effect == "protect" or (effect == "lamia" and mode == "invite"):
            protected.add(t)
            if t == sid and r.get("self") == "once":
                self_used.append(sid)
        elif effect == "kill" and mode == "ambush":
            ambusher = sid
        elif effect == "kill" or (effect == "lamia" and mode == "visit"):
            attempts.append((sid, t))
        elif effect == "drown":
            drowned.add(t)
        elif effect == "type":
            results.append((sid, Ev("bv.learned_type", {"target": t, "type": row(state, t)["type"]}, to=sid)))
        elif effect == "killer_check":
            yes = bool(row(state, t).get("killer")) or (t in (state.get("hunters") or [])
                                                        and bool(row(state, t).get("gathering")))
            results.append((sid, Ev("bv.learned_killer", {"target": t, "answer": "yes" if yes else "no"}, to=sid)))
        elif effect == "watch":
            seen = [s for s in chosen_by.get(t, []) if s != sid]
            results.append((sid, Ev("bv.learned_watch", {"target": t, "seats": seen,
                                                         "hunters": t in hunters_chose}, to=sid)))
        elif effect == "count_hunters":
            count = sum(1 for x in targets if side_of(state, x) == "hunters")
            results.append((sid, Ev("bv.learned_count", {"seats": targets, "count": count}, to=sid)))
        elif effect == "vampire_check":
            yes = side_of(state, t) == "vampires" or row(state, t)["type"] == "vampire"
            results.append((sid, Ev("bv.learned_vampire", {"target": t, "answer": "yes" if yes else "no"}, to=sid)))
        elif effect == "bind":
            if sid not in grooms:
                new_grooms[sid] = t
                results.append((sid, Ev("bv.bride_bound", {"target": t}, to=sid)))
        elif effect == "silence_vote":
            new_no_vote.append(t)
        elif effect == "doom":
            new_doom[sid] = t
        elif effect == "paralyse":
            new_paralysed.append(t)
        elif effect == "steal_vote":
            new_no_vote.append(t)
            new_weights[sid] = 2
    step.events.append(Ev("bv.hunters_struck", {"light": n}))
    able = [s for s in alive_now if acts(row(state, s))]
    ev.append(Ev("bv.trace_light", {"protected": [s for s in state["ring"] if s in protected],
                                    "blocked": [s for s in able if s in blocked]}, to="master"))
    # -- nightfall: the kills settled together (BV-7.3, BV-8.5, BV-3.4) -------------------------------------
    if ambusher is not None and ambusher not in blocked:
        comers = [i for i, (a, t) in enumerate(attempts) if t == ambusher]
        if comers:
            i = comers[0]
            attacker = attempts[i][0]
            if attacker == GATHERING:
                near = _neighbour(state, ambusher)
                attempts[i] = (ambusher, near) if near else (ambusher, ambusher)
            else:
                attempts[i] = (ambusher, attacker)
            ev.append(Ev("bv.trace_ambush", {"seat": ambusher, "caught": attacker,
                                             "victim": attempts[i][1]}, to="master"))
    killed: list[str] = []
    for attacker, t in attempts:
        if t in protected:
            ev.append(Ev("bv.trace_protected", {"attacker": attacker, "target": t}, to="master"))
        elif t not in killed and is_alive(state, t):
            ev.append(Ev("bv.trace_kill", {"attacker": attacker, "target": t}, to="master"))
            killed.append(t)
    lives = dict(state.get("lives") or {})
    for t in list(killed):
        if lives.get(t, 0) > 0:  # BV-13.18: the kitsune's spare life
            lives[t] -= 1
            killed.remove(t)
            results.append((t, Ev("bv.lost_tail", {}, to=t)))
            ev.append(Ev("bv.trace_tail", {"seat": t}, to="master"))
    state["lives"] = lives
    grooms.update(new_grooms)
    state["grooms"] = grooms
    state["doom"] = new_doom
    state["self_used"] = sorted(set(self_used), key=state["ring"].index)
    state["last_targets"] = last_targets
    state["no_vote"] = [s for s in dict.fromkeys(new_no_vote)]
    state["weights"] = new_weights
    state["paralysed"] = new_paralysed
    dead, trace = die(state, sorted(killed, key=state["ring"].index), cause="killed")
    ev += trace
    withhold = opts.get("doomed_info") == "withhold"
    for holder, result in results:
        if withhold and holder in dead and result.kind in ("bv.learned_type", "bv.learned_killer",
                                                            "bv.learned_watch", "bv.learned_count",
                                                            "bv.learned_vampire"):
            continue  # BV-6.6: the doomed information role gets crossed arms
        ev.append(result)
    for bride, groom in new_grooms.items():
        if is_alive(state, groom) or groom in dead:
            ev.append(Ev("bv.groom_told", {"bride": bride}, to=groom))
    rage = opts.get("vampire_rage")
    ordered_dead = sorted(dead, key=state["ring"].index)
    step.dead = ordered_dead
    ev.append(Ev("bv.nightfall", {"seats": ordered_dead,
                                  "cards": {} if rage else {s: state["cards"][s] for s in ordered_dead}}))
    side = winner(state, nightfall=True)
    if side:
        return end(state, step, side)
    night_events, spec = open_night(state, n + 1, rng, names)
    ev += night_events
    step.next = spec
    return step


def _gathering(state: MutableMapping[str, Any], votes: Mapping[str, str | None], drowned: set[str],
               ev: list[Ev]) -> str | None:
    """BV-6.3, BV-13.8, BV-13.21, BV-15.2: the hunters' victim. Each living member names one living player or
    abstains; a drowned hunter's vote does not count; the plurality wins, a tie goes to the leader's choice if he
    lives, voted, was not drowned and named one of the tied; under ``lone_hunters`` the victim needs more than half
    of the living members. The hunters' group learns the choice and who slept through it."""
    members = gathering_members(state)
    counted = {s: t for s, t in votes.items() if s in members and s not in drowned and t is not None
               and is_alive(state, t)}
    counts: dict[str, int] = {}
    for t in counted.values():
        counts[t] = counts.get(t, 0) + 1
    victim: str | None = None
    if state["options"].get("lone_hunters"):
        victim = next((t for t, c in counts.items() if c > len(members) / 2), None)
    elif counts:
        best = max(counts.values())
        top = [t for t in state["ring"] if counts.get(t) == best]
        if len(top) == 1:
            victim = top[0]
        else:
            leader = next((s for s in members if state["cards"][s] == "leader"), None)
            if leader is not None and counted.get(leader) in top:
                victim = counted[leader]
    sleepers = [s for s in members if s in drowned]
    data = {"victim": victim, "drowned": sleepers, "votes": [[s, t] for s, t in counted.items()]}
    ev.append(Ev("bv.trace_gathering", data, to="master"))
    if state["options"].get("lone_hunters"):
        for s in members:
            ev.append(Ev("bv.gathering_result", {"victim": victim, "drowned": sleepers}, to=s))
    elif members:
        ev.append(Ev("bv.gathering_result", {"victim": victim, "drowned": sleepers}, to="group:faction:hunters"))
    return victim
