"""The day and victory (ON-6–ON-12): the vote count, the hunter's chain, the full reveal and the winners. Pure."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .roles import effective, team
from .state import TANNER, Ev


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
