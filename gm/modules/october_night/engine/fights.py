"""Fights between players (OC-5): sides with allies (OC-5.2), values from two dice plus fight values (OC-5.3,
OC-5.3a), the winner (OC-5.4), losses (OC-5.6), spoils (OC-5.7), leaving the game in a fight (OC-5.8) and several
fights in one phase (OC-5.9).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .checks import Ctx, fight_skill, fight_value, roll_dice
from .items import at_zero, discard_item, holding, lose, put_out, remove_card
from .state import in_game, settings


def fight_bonus(ctx: Ctx, sid: str) -> int:
    """OC-14: the ``fight_bonus`` of the abilities ``sid`` used this phase (``hex``)."""
    return int((ctx.state["effects"].get(sid) or {}).get("fight_bonus", 0))


def warded(ctx: Ctx, sid: str) -> bool:
    """OC-5.9/OC-14: whether ``sid`` used a ``ward`` ability (``disguise``) this phase."""
    return bool((ctx.state["effects"].get(sid) or {}).get("ward"))


def side_roll(ctx: Ctx, leader: str, members: list[str], role: str) -> dict[str, Any]:
    """OC-5.3: a side's check — the leader's two dice (rerolls and foils apply) plus every member's fight value and
    ``fight_bonus``. Writes the leader's public ``oc.check`` (``for: fight``) with the side's value as total."""
    rolled = roll_dice(ctx, leader)
    parts = {ctx.name(m): fight_value(ctx.state, m) for m in members}
    bonus = sum(fight_bonus(ctx, m) for m in members)
    total = sum(rolled["dice"]) + sum(parts.values()) + bonus
    skill = fight_skill(ctx.state, leader)
    data = {"player": ctx.name(leader), "sid": leader, "for": "fight", "skill": skill,
            "skill_value": fight_value(ctx.state, leader), "members": parts, "bonus": bonus, **rolled,
            "total": total, "successes": sum(1 for d in rolled["dice"] if d in settings(ctx.state)["success_faces"]),
            "success": None, "role": role}
    ctx.public("check", **data)
    return data


def _receivers(ctx: Ctx, side: list[str], alive: set[str]) -> list[str]:
    return [m for m in side if m in alive]


def deal_items(ctx: Ctx, sid: str, receivers: list[str]) -> None:
    """OC-5.8: ``sid``'s item cards dealt one at a time in holding order round ``receivers``; his clues all to the
    first; nobody to receive: items to the discard, clues lost."""
    p = ctx.player(sid)
    cards = holding(p)
    dealt: dict[str, list[str]] = {r: [] for r in receivers}
    for i, (kind, card) in enumerate(cards):
        if receivers:
            r = receivers[i % len(receivers)]
            ctx.player(r)[kind].append(card)
            dealt[r].append(card)
        else:
            discard_item(ctx, kind, card)
    clues = p["clues"]
    if receivers and clues:
        ctx.player(receivers[0])["clues"] += clues
    p["assets"], p["ingredients"], p["clues"] = [], [], 0
    ctx.public("items_dealt", player=ctx.name(sid), sid=sid,
               to={ctx.name(r): cards_ for r, cards_ in dealt.items()},
               clues=clues, clues_to=ctx.name(receivers[0]) if receivers and clues else None)


def resolve_fight(ctx: Ctx, attacker: str, line: Mapping[str, Any], allies: dict[str, str],
                  used_allies: set[str], order: list[str]) -> dict[str, Any] | None:
    """OC-5: one fight of ``attacker`` (his line ``{target, take}``); ``allies`` maps each ally line's seat to the
    player he helps, ``used_allies`` collects those who joined (the first fight of X only, OC-5.2). Void lines:
    attacker out (``out_of_game``), victim out (``target_out``), victim warded (``warded``). Returns the fight's
    public record, or ``None`` when void."""
    victim = str(line["target"])
    if not in_game(ctx.state, attacker):
        ctx.void(attacker, "fight", "out_of_game")
        return None
    if not in_game(ctx.state, victim):
        ctx.void(attacker, "fight", "target_out")
        return None
    if warded(ctx, victim):
        ctx.void(attacker, "fight", "warded", target=ctx.name(victim))
        return None

    def helpers(leader: str, opponent: str) -> list[str]:
        found = [a for a in order if allies.get(a) == leader and a not in used_allies and a != opponent
                 and in_game(ctx.state, a)]
        used_allies.update(found)
        return found

    a_side = [attacker] + helpers(attacker, victim)
    v_side = [victim] + helpers(victim, attacker)
    a_roll = side_roll(ctx, attacker, a_side, "attacker")
    v_roll = side_roll(ctx, victim, v_side, "victim")
    attacker_won = a_roll["total"] > v_roll["total"]  # OC-5.4: a tie goes to the victim
    winners, losers = (a_side, v_side) if attacker_won else (v_side, a_side)
    losses = settings(ctx.state)["fight_losses"]
    for m in winners:
        lose(ctx, m, health=int(losses["winner"]), experience=int(losses["winner"]))
    for m in losers:
        lose(ctx, m, health=int(losses["loser"]), experience=int(losses["loser"]))
    record = {
        "attacker": ctx.name(attacker), "victim": ctx.name(victim), "a_sid": attacker, "v_sid": victim,
        "allies": {"attacker": [ctx.name(a) for a in a_side[1:]], "victim": [ctx.name(a) for a in v_side[1:]]},
        "values": {"attacker": a_roll["total"], "victim": v_roll["total"]},
        "winner": "attacker" if attacker_won else "victim",
        "losses": {ctx.name(m): ctx.player(m)["health"] for m in a_side + v_side},
    }
    ctx.public("fight", **record)
    down = {m for m in a_side + v_side if at_zero(ctx, m)}
    # OC-5.7: spoils only to a winning attacker, with both leaders still in the game.
    if attacker_won and attacker not in down and victim not in down:
        vp = ctx.player(victim)
        take = line.get("take")
        n = int(settings(ctx.state)["spoils_cards"])
        if take:
            wanted = [c for c in take][:n]
        else:
            wanted = [c for _k, c in holding(vp)][:n]
        taken = []
        for card in wanted:
            kind = remove_card(vp, card)
            if kind:
                ctx.player(attacker)[kind].append(card)
                taken.append(card)
        clue = 0
        if vp["clues"] > 0:
            n_clues = min(vp["clues"], int(settings(ctx.state).get("spoils_clues", 1)))
            vp["clues"] -= n_clues
            ctx.player(attacker)["clues"] += n_clues
            clue = n_clues
        ctx.public("spoils", player=ctx.name(attacker), victim=ctx.name(victim), cards=taken, clues=clue)
    # OC-5.8: items of those who left in the fight.
    alive = {m for m in a_side + v_side if m not in down}
    both_leaders = attacker in down and victim in down
    for m in [x for x in a_side + v_side if x in down]:
        own, opp = (a_side, v_side) if m in a_side else (v_side, a_side)
        if both_leaders:
            receivers = _receivers(ctx, own, alive)
        else:
            receivers = _receivers(ctx, opp, alive) or _receivers(ctx, own, alive)
        deal_items(ctx, m, receivers)
        put_out(ctx, m, items_dealt=True)
    return record

