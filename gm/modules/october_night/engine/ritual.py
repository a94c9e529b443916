"""Week starts (OC-3.3), the chosen's reveal (OC-8.1, OC-1.3, OC-1.4), admission to the ritual (OC-8.2–OC-8.4),
the ritual — the sum or the deadly fight (OC-9) — and every end of the game (OC-10).
"""
from __future__ import annotations

from typing import Any

from gm.core.engine import Outcome

from .checks import Ctx, fight_skill, fight_value, roll_dice
from .data import distance
from .items import put_out
from .state import SIDES, by_slug, in_game, joined_side, settings, week_of


def week_start(ctx: Ctx) -> None:
    """OC-3.3: every player in the game gets +``weekly_experience`` (4) and his abilities' weekly uses are reset;
    at the start of week 5 the chosen are revealed (OC-8.1)."""
    st = settings(ctx.state)
    week = week_of(ctx.state["day"] + 1)
    for sid in ctx.state["seats"]:
        if in_game(ctx.state, sid):
            p = ctx.player(sid)
            p["experience"] += int(st["weekly_experience"])
            p["used"] = []
    ctx.public("week", week=week, experience=int(st["weekly_experience"]))
    if week == int(st.get("weeks", 5)):
        reveal_chosen(ctx)


def reveal_chosen(ctx: Ctx) -> None:
    """OC-1.3/OC-1.4/OC-8.1: the chosen still in the game, in seat order, each get their declared side unless an
    earlier chosen took it (then the other side); one who declared nothing gets the side no earlier chosen took, or
    a random one (the phase's RNG; said publicly). Their names and sides become public."""
    taken: list[str] = []
    for sid in ctx.state["seats"]:
        if ctx.state["sides"][sid] != "chosen" or not in_game(ctx.state, sid):
            continue
        declared = ctx.state["declared"].get(sid)
        if declared and declared not in taken:
            side, random_ = declared, False
        elif declared:
            side, random_ = [s for s in SIDES if s != declared][0], False
        else:
            free = [s for s in SIDES if s not in taken]
            side = free[0] if len(free) == 1 else ctx.game_rng().choice(list(SIDES))
            random_ = len(free) != 1
        taken.append(side)
        ctx.state["joined"][sid] = side
        ctx.public("chosen", player=ctx.name(sid), sid=sid, side=side, random=random_)


def contribution(ctx: Ctx, sid: str, dist: int) -> int:
    """OC-9.1: experience + the ``ritual`` values of his ingredients and assets; halved (rounded down) at distance
    1–2."""
    p = ctx.player(sid)
    items = {**by_slug(ctx.data, "assets"), **by_slug(ctx.data, "ingredients")}
    total = p["experience"] + sum(int(items.get(c, {}).get("ritual", 0)) for c in p["ingredients"] + p["assets"])
    return total // 2 if dist > 0 else total


def admission(ctx: Ctx) -> bool:
    """OC-8.2–OC-8.4 and OC-9.0: each player in the game with experience ≥ 8 and distance ≤ 2 from the ritual place
    is admitted (full at 0, half at 1–2); the others drop out. Every side is revealed and both sides' sums are
    public. Returns whether anybody was admitted."""
    st = settings(ctx.state)
    place = ctx.state["ritual_place"]
    dist: dict[str, int] = {}
    dropped: list[str] = []
    for sid in ctx.state["seats"]:
        if not in_game(ctx.state, sid):
            continue
        d = distance(ctx.data, ctx.player(sid)["location"], place)
        if ctx.player(sid)["experience"] >= int(st["ritual_min_experience"]) and d <= int(st["ritual_half_distance"]):
            dist[sid] = d
        else:
            dropped.append(sid)
            ctx.public("dropped", player=ctx.name(sid), sid=sid, distance=d,
                       experience=ctx.player(sid)["experience"])
            put_out(ctx, sid)
    sums = {side: 0 for side in SIDES}
    for sid, d in dist.items():
        side = joined_side(ctx.state, sid)
        if side in sums:
            sums[side] += contribution(ctx, sid, d)
    ctx.state["ritual"] = {"distance": dist, "dropped": dropped, "sums": sums,
                           "admitted": {sid: ("full" if d == 0 else "half") for sid, d in dist.items()}}
    return bool(dist)


def ritual_opening(ctx: Ctx) -> None:
    """OC-9.0: the ritual phase's opening line — every side card, the admitted with their distance, the sums."""
    r = ctx.state["ritual"]
    ctx.public("ritual_open", place=ctx.state["ritual_place"],
               sides={ctx.name(s): joined_side(ctx.state, s) for s in ctx.state["seats"]},
               admitted={ctx.name(s): r["admitted"][s] for s in r["admitted"]}, sums=r["sums"])


def resolve_ritual(ctx: Ctx, orders: dict[str, dict[str, Any]]) -> Outcome:
    """OC-9.2–OC-9.5: with a ``deadly_fight`` line from an admitted player at distance 0 the deadly fight decides
    (each side's fighters at distance 0: fight values + two dice if it has a fighter, the summoners' dice first;
    a tie goes to the summoners); otherwise the higher sum wins (a tie goes to the keepers). The winners are the
    winning side's admitted players."""
    r = ctx.state["ritual"]
    dist = r["distance"]
    breaking = [sid for sid, o in orders.items() if o.get("deadly_fight") and dist.get(sid) == 0]
    if breaking:
        values = {}
        for side in SIDES:
            fighters = [s for s in ctx.state["seats"] if dist.get(s) == 0 and joined_side(ctx.state, s) == side]
            value = sum(fight_value(ctx.state, s) for s in fighters)
            if fighters:
                rolled = roll_dice(ctx, None)
                value += sum(rolled["dice"])
                ctx.public("check", side=side, player=side, sid=None, **{"for": "deadly_fight"},
                           skill=fight_skill(ctx.state, fighters[0]), **rolled, total=value,
                           members=[ctx.name(s) for s in fighters], success=None, successes=0)
            values[side] = value
        winner = "summoners" if values["summoners"] >= values["keepers"] else "keepers"
        r.update(mode="deadly_fight", values=values, breakers=[ctx.name(s) for s in breaking])
        ctx.public("deadly_fight", breakers=[ctx.name(s) for s in breaking], values=values, winner=winner)
    else:
        sums = r["sums"]
        winner = "summoners" if sums["summoners"] > sums["keepers"] else "keepers"
        r.update(mode="sum")
        ctx.public("ritual_sum", sums=sums, winner=winner)
    winners = [s for s in ctx.state["seats"] if s in dist and joined_side(ctx.state, s) == winner]
    return end_game(ctx, winner, winners)


def end_game(ctx: Ctx, winner: str, winners: list[str], why: str = "ritual") -> Outcome:
    """OC-10: the game ends — ``winner`` a side or ``nobody``, ``winners`` the winning seats (never a player out or
    not admitted, OC-10.5). Every side card becomes public (OC-10.7)."""
    ctx.state["stage"] = "over"
    ctx.state["winner"] = winner
    ctx.state["winners"] = list(winners)
    ctx.public("end", winner=winner, winners=[ctx.name(s) for s in winners], why=why)
    if winner == "nobody":
        return Outcome(winners=[], winning_seats=[])
    return Outcome(winners=[winner], winning_seats=[int(s) for s in winners])
