"""The Veche, the day vote of forum Mafia (FM-7), pure (functional core).

A vote is part of a character's order for the day (``payload["vote"]``), so it changes with the order until the
deadline and resolves with the day, from the same stored versions and seed (exactly once, replayable):
``{"for": seat id | "peace", "punishment": "execution" | "jail", "prosecutor_bonus": bool, "keep": uid | slug}``
(``punishment`` is required with a vote for a character; ``keep`` is the Sleeve card a ``maniac`` keeps if he is
jailed, FM-7.5). Votes are public (FM-7.1): :func:`tally` computes the public count the vote panel shows and the
engine uses at L5.

Strength (FM-7.3): 1; ``authority`` 2; ``politician`` 1.5; ``prosecutor`` +2 once per game when he declares it with
his vote; ``negotiation`` (§11) +1 today — a secret card, so it counts in the result but not in the live count.
Result (FM-7.4): if peace has a strict majority of the strength cast, or only two characters are alive, nothing
happens; otherwise the character with the most strength is the leader, ties broken by hanging priority (the FM-8
list order, custom roles after them alphabetically **[house reading]**); he is executed (6 damage at L5, with armour
and other damage) or jailed (FM-7.5) by the punishment with the most strength among the votes for characters (tie:
jail, FM-7.2); the ``politician``'s first lead is jail (FM-7.6).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import PhaseInfo, SeatInfo

from .roles import PUBLIC_ROLES


def _(s: str) -> str:
    return s


PEACE = "peace"
EXECUTION, JAIL = "execution", "jail"
PUNISHMENTS = (EXECUTION, JAIL)
EXECUTION_DAMAGE = 6  # FM-7.5
STRENGTH = {"authority": 2.0, "politician": 1.5}  # FM-7.3
PROSECUTOR_BONUS = 2.0
_PRIORITY = {r.slug: i for i, r in enumerate(PUBLIC_ROLES)}

REASONS: dict[str, tuple[str, str]] = {
    "vote_by_night": ("FM-7.1", _("The Veche votes by day only.")),
    "vote_for": ("FM-7.1", _("Vote for a living character or for peace.")),
    "vote_punishment": ("FM-7.2", _("Choose the punishment: execution or jail.")),
    "vote_sociopath": ("FM-7.6", _("%(target)s (sociopath) cannot be voted for on Day 1.")),
    "vote_prosecutor": ("FM-7.3", _("Only the prosecutor adds +2, once per game.")),
    "vote_bad": ("FM-7.1", _("A vote is an object: for, punishment, prosecutor_bonus.")),
}


def _public(seat: SeatInfo) -> Any:
    return seat.data.get("public_role")


def hanging_priority(seat: SeatInfo) -> tuple[int, str]:
    """FM-7.4: lower hangs first — the FM-8 list order, then custom roles alphabetically (by their name)."""
    public = _public(seat)
    if isinstance(public, str) and public in _PRIORITY:
        return _PRIORITY[public], ""
    name = public.get("custom", "") if isinstance(public, Mapping) else str(public or "")
    return len(_PRIORITY), name.casefold()


def check_vote(vote: Any, *, phase: PhaseInfo, seat: SeatInfo, by_id: Mapping[int, SeatInfo],
               fm: Mapping[str, Any]) -> tuple[dict | None, tuple[str, str, dict] | None]:
    """The normalised vote, or ``(None, (code, field, params))`` (FM-7.1–7.3, FM-7.6)."""
    if phase.kind != "day":
        return None, ("vote_by_night", "vote", {})
    if not isinstance(vote, Mapping) or not set(vote) <= {"for", "punishment", "prosecutor_bonus", "keep"}:
        return None, ("vote_bad", "vote", {})
    target = vote.get("for")
    clean: dict[str, Any] = {}
    if target == PEACE:
        clean["for"] = PEACE
    else:
        other = by_id.get(target) if isinstance(target, int) and not isinstance(target, bool) else None
        if other is None or not other.alive:
            return None, ("vote_for", "vote.for", {})
        if _public(other) == "sociopath" and phase.number == 1:
            return None, ("vote_sociopath", "vote.for", {"target": other.name})
        clean["for"] = other.id
        if vote.get("punishment") not in PUNISHMENTS:
            return None, ("vote_punishment", "vote.punishment", {})
    if vote.get("punishment") in PUNISHMENTS:
        clean["punishment"] = vote["punishment"]
    if vote.get("prosecutor_bonus"):
        used = (fm.get("used") or {}).get(str(seat.id), [])
        if _public(seat) != "prosecutor" or "prosecutor" in used:
            return None, ("vote_prosecutor", "vote.prosecutor_bonus", {})
        clean["prosecutor_bonus"] = True
    if vote.get("keep") is not None:
        clean["keep"] = vote["keep"]
    return clean, None


def strength(seat: SeatInfo, vote: Mapping[str, Any], extra: float = 0.0) -> float:
    """FM-7.3: a voter's strength today (``extra``: +1 per ``negotiation`` he played today)."""
    base = STRENGTH.get(_public(seat) if isinstance(_public(seat), str) else "", 1.0)
    return base + (PROSECUTOR_BONUS if vote.get("prosecutor_bonus") else 0.0) + extra


def tally(*, seats: Sequence[SeatInfo], votes: Mapping[int, Mapping[str, Any]],
          extra: Mapping[int, float] | None = None) -> dict:
    """FM-7.1–7.4: the count of ``votes`` (voter seat id → normalised vote) of living voters. Returns
    ``{"votes": [{"voter", "for", "punishment", "strength"}] (ring order), "candidates": [{"player", "seat",
    "strength", "voters"}] (most first, ties by hanging priority), "peace": float, "cast": float,
    "leader": seat id | None, "punishment": "execution" | "jail" | None, "outcome": "peace" | "two_alive" |
    "no_votes" | "leader"}``. ``extra``: secret strength added at resolution (negotiation)."""
    extra = extra or {}
    by_id = {s.id: s for s in seats}
    living = [s for s in sorted(seats, key=lambda s: s.position) if s.alive]
    rows: list[dict] = []
    for_seat: dict[int, list[str]] = {}
    totals: dict[int, float] = {}
    peace = cast = 0.0
    punish = {EXECUTION: 0.0, JAIL: 0.0}
    for voter in living:
        vote = votes.get(voter.id)
        if not vote:
            continue
        power = strength(voter, vote, extra.get(voter.id, 0.0))
        cast += power
        target = vote["for"]  # a normalised vote always names a seat id or PEACE (check_vote)
        rows.append({"voter": voter.name, "seat": voter.id,
                     "for": PEACE if target == PEACE else by_id[target].name,
                     "punishment": vote.get("punishment"), "strength": power})
        if target == PEACE:
            peace += power
            continue
        for_seat.setdefault(target, []).append(voter.name)
        totals[target] = totals.get(target, 0.0) + power
        punish[vote["punishment"]] += power
    order = sorted(totals, key=lambda t: (-totals[t], hanging_priority(by_id[t])))
    candidates = [{"player": by_id[t].name, "seat": t, "strength": totals[t], "voters": for_seat[t]} for t in order]
    result = {"votes": rows, "candidates": candidates, "peace": peace, "cast": cast, "leader": None,
              "punishment": None}
    if cast == 0 or not candidates:
        result["outcome"] = "no_votes" if cast == 0 else "peace"
    elif peace * 2 > cast:
        result["outcome"] = "peace"
    elif len(living) <= 2:
        result["outcome"] = "two_alive"
    else:
        result["outcome"] = "leader"
        result["leader"] = order[0]
        result["punishment"] = EXECUTION if punish[EXECUTION] > punish[JAIL] else JAIL
    return result


def hammer(*, seats: Sequence[SeatInfo], votes: Mapping[int, Mapping[str, Any]]) -> int | None:
    """FM-7.H1 **[house]** (the ``hammer`` option): the seat id of the character whose public vote strength (FM-7.3,
    the live count of :func:`tally`: secret ``negotiation`` not counted) is more than half of the strength of all
    living characters (each at his FM-7.3 strength, a declared prosecutor's +2 included), else ``None``. Peace never
    hammers, and nothing does with only two characters alive (FM-7.4)."""
    living = [s for s in seats if s.alive]
    if len(living) <= 2:
        return None
    total = sum(strength(s, votes.get(s.id) or {}) for s in living)
    count = tally(seats=seats, votes=votes)
    top = count["candidates"][0] if count["candidates"] else None
    if top is not None and top["strength"] * 2 > total:
        return top["seat"]
    return None


def day_hammer(*, phase_kind: str, seats: Sequence[SeatInfo], orders: Mapping[int, Any]) -> int | None:
    """FM-7.H1 **[house]** for the core's ``hammer`` hook: :func:`hammer` over the day's stored vote orders (seat id
    → order payload, as the core passes them); ``None`` outside a day."""
    if phase_kind != "day":
        return None
    votes = {sid: o["vote"] for sid, o in orders.items() if isinstance(o, Mapping) and o.get("vote")}
    return hammer(seats=seats, votes=votes)


def explain(count: Mapping[str, Any], seats: Sequence[SeatInfo]) -> list[tuple[str, dict]]:
    """Why the count ``count`` (a :func:`tally` result) stands as it does, as ``(code, params)`` facts the shell puts
    into words, in this order:

    * ``peace`` ``{"peace", "cast"}`` — peace has a strict majority: nobody is punished (FM-7.4);
    * ``two_alive`` — only two characters live: nobody is punished (FM-7.4);
    * ``peace_half`` ``{"peace", "cast"}`` — peace has exactly half: no strict majority (FM-7.4);
    * ``tie`` ``{"players": [seat ids in hanging priority order], "strength"}`` — the most strength is shared, the
      hanging priority picks the first (FM-7.4);
    * ``leads`` ``{"player": seat id, "strength"}`` — one character has the most strength;
    * ``punishment_tie`` ``{"strength"}`` — execution and jail got the same strength: jail (FM-7.2);
    * ``punishment`` ``{"punishment", "execution", "jail"}`` — the punishment with the most strength (FM-7.2);
    * ``politician`` ``{"player"}`` — the leader is the politician: his first lead is jail (FM-7.6).

    Empty when nobody voted. Pure: reads only ``count`` and the seats' public roles."""
    facts: list[tuple[str, dict]] = []
    outcome = count.get("outcome")
    peace, cast = count.get("peace", 0.0), count.get("cast", 0.0)
    if outcome == "peace" and cast:
        return [("peace", {"peace": peace, "cast": cast})]
    if outcome == "two_alive":
        return [("two_alive", {})]
    if outcome != "leader":
        return facts
    if peace and peace * 2 == cast:
        facts.append(("peace_half", {"peace": peace, "cast": cast}))
    candidates = list(count.get("candidates") or [])
    top = candidates[0]["strength"]
    tied = [c["seat"] for c in candidates if c["strength"] == top]
    if len(tied) > 1:
        facts.append(("tie", {"players": tied, "strength": top}))
    else:
        facts.append(("leads", {"player": tied[0], "strength": top}))
    punish = {EXECUTION: 0.0, JAIL: 0.0}
    for row in count.get("votes") or []:
        if row.get("for") != PEACE and row.get("punishment") in punish:
            punish[row["punishment"]] += row.get("strength", 0.0)
    if punish[EXECUTION] == punish[JAIL]:
        facts.append(("punishment_tie", {"strength": punish[JAIL]}))
    else:
        facts.append(("punishment", {"punishment": count.get("punishment"), "execution": punish[EXECUTION],
                                     "jail": punish[JAIL]}))
    leader = next((s for s in seats if s.id == count.get("leader")), None)
    if leader is not None and _public(leader) == "politician":
        facts.append(("politician", {"player": leader.id}))
    return facts
