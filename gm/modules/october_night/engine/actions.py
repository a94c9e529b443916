"""The action phase (OC-4) resolved in its steps (OC-4.11): free lines — learning, using items, abilities, the
chosen's side (OC-14, OC-15.3, OC-1.3) — then foils (OC-12), fights (OC-5), trade, rest, heal and buy (OC-4.3–OC-4.6),
all travels together (OC-4.7); the performed actions are remembered for OC-4.2.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .checks import Ctx, check
from .fights import resolve_fight
from .items import heal, kind_of, put_out, refill_reserve, remove_card
from .orders import holds
from .state import ACTION_FAMILY, by_slug, in_game, settings


def free_step(ctx: Ctx, orders: Mapping[str, Mapping[str, Any]], order: list[str], kind: str) -> None:
    """OC-4.11 step 1 (and OC-6.9 step 1): player by player in turn order — ``learn`` (pays ``ability_cost``
    experience, held from the next phase, OC-14.1), ``use`` (OC-15.3: the card is discarded, heal N), abilities
    (OC-14: marked used, cost paid, heal and insight at once, the other effects marked for the phase) and the
    chosen's secret ``side`` (OC-1.3)."""
    abilities = by_slug(ctx.data, "abilities")
    items = {**by_slug(ctx.data, "assets"), **by_slug(ctx.data, "ingredients")}
    for sid in order:
        o = orders.get(sid) or {}
        if not in_game(ctx.state, sid):
            continue
        p = ctx.player(sid)
        if o.get("learn"):
            p["experience"] -= int(settings(ctx.state)["ability_cost"])
            p["abilities"].append(o["learn"])
            p.setdefault("learned", []).append(o["learn"])
            ctx.public("learn", player=ctx.name(sid), sid=sid, ability=o["learn"])
        for card in o.get("use") or []:
            kind_ = remove_card(p, card)
            if kind_ is None:
                ctx.void(sid, "use", "not_held", card=card)
                continue
            if kind_ == "assets":
                ctx.state["discards"]["assets"].append(card)
            gained = heal(ctx, sid, int(((items.get(card) or {}).get("use") or {}).get("heal", 0)))
            ctx.public("use", player=ctx.name(sid), sid=sid, card=card, health=gained)
        for line in o.get("abilities") or []:
            slug = line["ability"]
            effect = abilities[slug].get("effect") or {}
            if line.get("pay"):
                if remove_card(p, line["pay"]) is None:
                    ctx.void(sid, "ability", "not_held", ability=slug)
                    continue
            target = str(line["target"]) if line.get("target") is not None else None
            if target is not None and not in_game(ctx.state, target):
                ctx.void(sid, "ability", "target_out", ability=slug)
                continue
            p["used"].append(slug)
            mark = ctx.state["effects"].setdefault(sid, {})
            data: dict[str, Any] = {"player": ctx.name(sid), "sid": sid, "ability": slug}
            if "heal" in effect:
                who = target or sid
                data.update(target=ctx.name(who), health=heal(ctx, who, int(effect["heal"])))
            elif "insight" in effect and target is not None:
                side = ctx.state["sides"][target]
                if side == "chosen" and target in ctx.state.get("joined", {}):
                    side = ctx.state["joined"][target]
                ctx.state.setdefault("insight", {}).setdefault(sid, []).append(
                    {"seat": target, "name": ctx.name(target), "side": side})
                ctx.private(sid, "insight", target=ctx.name(target), side=side)
                data["target"] = ctx.name(target)
            elif "check_bonus" in effect:
                mark.setdefault("check_bonus", []).append(dict(effect))
            elif "extra_success" in effect:
                mark.setdefault("extra_success", []).append(dict(effect))
            elif "reroll" in effect:
                mark["reroll"] = mark.get("reroll", 0) + int(effect["reroll"])
            elif "fight_bonus" in effect:
                mark["fight_bonus"] = mark.get("fight_bonus", 0) + int(effect["fight_bonus"])
            else:
                for key in ("ward", "swift", "long_step"):
                    if key in effect:
                        mark[key] = effect[key]
            ctx.public("ability", **data)
        if o.get("side"):
            ctx.state["declared"][sid] = o["side"]
            ctx.private(sid, "declared", side=o["side"])


def resolve_action(ctx: Ctx, orders: Mapping[str, Mapping[str, Any]]) -> None:
    """OC-4.11: the action phase, every step in order. ``orders``: seat id → normalised payload."""
    state = ctx.state
    order = _turn(ctx)
    free_step(ctx, orders, order, "action")
    performed: dict[str, str] = {}
    lines = {sid: (orders.get(sid) or {}).get("action") for sid in order}
    for sid in order:
        if not orders.get(sid):
            ctx.public("no_action", player=ctx.name(sid), sid=sid)
    # Step 2: foils (OC-12.1).
    for sid in order:
        line = lines.get(sid)
        if not line or line["kind"] != "foil":
            continue
        target = str(line["target"])
        if not in_game(state, sid):
            continue
        if not in_game(state, target):
            ctx.void(sid, "foil", "target_out")
            continue
        p = ctx.player(sid)
        if not holds(p, [line["discard"]]):
            ctx.void(sid, "foil", "card_gone")
            continue
        kind_ = remove_card(p, line["discard"])
        if kind_ == "assets":
            state["discards"]["assets"].append(line["discard"])
        state["foils"].setdefault(target, []).append(sid)
        performed[sid] = "foil"
        ctx.public("foil", player=ctx.name(sid), sid=sid, target=ctx.name(target), card=line["discard"])
    # Step 3: fights in the attackers' turn order (OC-5.9).
    allies = {sid: str(line["with"]) for sid, line in lines.items() if line and line["kind"] == "ally"}
    used: set[str] = set()
    for sid in order:
        line = lines.get(sid)
        if line and line["kind"] == "fight":
            if resolve_fight(ctx, sid, line, allies, used, order) is not None:
                performed[sid] = "fight"
    for sid in allies:
        if sid in used:
            performed[sid] = "fight"
        elif in_game(state, sid):
            ctx.void(sid, "ally", "no_fight")
    # Step 4: trade, rest, heal, buy, one player after another.
    accepts = {sid: (orders.get(sid) or {}).get("accept_trades") or [] for sid in order}
    for sid in order:
        line = lines.get(sid)
        if not line or line["kind"] not in ("trade", "rest", "heal", "buy"):
            continue
        if not in_game(state, sid):
            ctx.void(sid, line["kind"], "out_of_game")
            continue
        p = ctx.player(sid)
        if line["kind"] == "rest":
            ctx.public("rest", player=ctx.name(sid), sid=sid, health=heal(ctx, sid, 1))
            performed[sid] = "rest"
        elif line["kind"] == "heal":
            target = str(line["target"])
            if not in_game(state, target):
                ctx.void(sid, "heal", "target_out")
                continue
            ctx.public("heal", player=ctx.name(sid), sid=sid, target=ctx.name(target), health=heal(ctx, target, 1))
            performed[sid] = "heal"
        elif line["kind"] == "trade":
            partner = str(line["with"])
            if not in_game(state, partner):
                ctx.void(sid, "trade", "target_out")
                continue
            match = any(str(a["from"]) == sid and sorted(a["give"]) == sorted(line["get"])
                        and sorted(a["get"]) == sorted(line["give"]) for a in accepts.get(partner, []))
            if not match:
                ctx.void(sid, "trade", "no_trade", partner=ctx.name(partner))
                continue
            q = ctx.player(partner)
            if not holds(p, line["give"]) or not holds(q, line["get"]):
                ctx.void(sid, "trade", "card_gone")
                continue
            for card in line["give"]:
                remove_card(p, card)
                q[kind_of(ctx, card)].append(card)
            for card in line["get"]:
                remove_card(q, card)
                p[kind_of(ctx, card)].append(card)
            performed[sid] = "trade"
            ctx.public("trade", player=ctx.name(sid), sid=sid, partner=ctx.name(partner), give=line["give"],
                       get=line["get"])
        elif line["kind"] == "buy":
            buy(ctx, sid, line["cards"])
            performed[sid] = "buy"
    # Step 5: all travels together (OC-4.7).
    for sid in order:
        line = lines.get(sid)
        if line and line["kind"] == "travel":
            if not in_game(state, sid):
                ctx.void(sid, "travel", "out_of_game")
                continue
            frm = ctx.player(sid)["location"]
            ctx.player(sid)["location"] = line["to"]
            performed[sid] = "travel"
            ctx.public("travel", player=ctx.name(sid), sid=sid, frm=frm, to=line["to"])
    # OC-4.2: what each player performed today (a day without one breaks the chain).
    for sid in state["seats"]:
        p = ctx.player(sid)
        if sid in performed:
            p["last_action"] = ACTION_FAMILY.get(performed[sid], performed[sid])
            p["last_day"] = state["day"]
        elif not p.get("out"):
            p["last_action"] = "none"
            p["last_day"] = state["day"]
    for sid in state["seats"]:
        if in_game(state, sid) and (ctx.player(sid)["health"] <= 0 or ctx.player(sid)["experience"] <= 0):
            put_out(ctx, sid)


def buy(ctx: Ctx, sid: str, wanted: list[str]) -> None:
    """OC-4.6: a communication check; on success a budget equal to the total buys, down the list, every wanted card
    still in the reserve whose price fits what is left; the emptied slots are refilled from the asset deck."""
    result = check(ctx, sid, "buy", "communication")
    bought: list[str] = []
    if result["success"]:
        budget = result["total"]
        assets = by_slug(ctx.data, "assets")
        reserve = ctx.state["reserve"]
        for card in wanted:
            price = int(assets[card].get("price", 0))
            if card in reserve and price <= budget:
                reserve[reserve.index(card)] = None
                ctx.player(sid)["assets"].append(card)
                bought.append(card)
                budget -= price
        refill_reserve(ctx)
    ctx.public("buy", player=ctx.name(sid), sid=sid, cards=bought, success=result["success"], budget=result["total"])


def _turn(ctx: Ctx) -> list[str]:
    from .state import turn_order

    return turn_order(ctx.state)
