"""Health, experience, items and leaving the game: the floors and caps (OC-2.2, OC-2.3, OC-2.3a), a section's
outcome (OC-6.4), using an item (OC-15.3), the asset reserve (OC-4.6, OC-15.4), enemy tokens back to the bag
(OC-16.4) and a player out of the game (OC-2.6).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .checks import Ctx
from .state import SKILLS, by_slug, settings


def heal(ctx: Ctx, sid: str, n: int) -> int:
    """OC-2.2: ``sid`` gains ``n`` health, never above ``health_max`` (10). Returns the health gained."""
    p = ctx.player(sid)
    before = p["health"]
    p["health"] = min(int(settings(ctx.state)["health_max"]), before + n)
    return p["health"] - before


def lose(ctx: Ctx, sid: str, *, health: int = 0, experience: int = 0) -> None:
    """OC-2.2/OC-2.3a: ``sid`` loses health and experience, never below 0 (the caller puts him out at 0)."""
    p = ctx.player(sid)
    p["health"] = max(0, p["health"] - health)
    p["experience"] = max(0, p["experience"] - experience)


def at_zero(ctx: Ctx, sid: str) -> bool:
    """OC-2.6: whether ``sid`` has 0 health or 0 experience."""
    p = ctx.player(sid)
    return not p.get("out") and (p["health"] <= 0 or p["experience"] <= 0)


def holding(p: Mapping[str, Any]) -> list[tuple[str, str]]:
    """OC-2.5: the holding order — ``(kind, card)`` of the assets in order, then the ingredients."""
    return [("assets", a) for a in p["assets"]] + [("ingredients", i) for i in p["ingredients"]]


def discard_item(ctx: Ctx, kind: str, card: str) -> None:
    """OC-15.4: a discarded asset goes to the asset discard pile; an ingredient back to the supply."""
    if kind == "assets":
        ctx.state["discards"]["assets"].append(card)


def remove_card(p: dict[str, Any], card: str) -> str | None:
    """Take ``card`` from a player's holding; returns its kind (``assets``/``ingredients``) or ``None``."""
    for kind in ("assets", "ingredients"):
        if card in p[kind]:
            p[kind].remove(card)
            return kind
    return None


def kind_of(ctx: Ctx, card: str) -> str:
    """``assets`` or ``ingredients`` by the data."""
    return "assets" if card in by_slug(ctx.data, "assets") else "ingredients"


def apply_outcome(ctx: Ctx, sid: str, outcome: Mapping[str, Any], *, why: str) -> None:
    """OC-6.4/OC-17.6: a section's (or mystery's) outcome — an ingredient or asset from the supply, experience or
    health (+/−, health capped at 10, both floored at 0), or an improvement (+1 skill, at most ``skill_max``).
    Writes one public ``oc.outcome`` line."""
    p = ctx.player(sid)
    if not outcome:
        return
    if outcome.get("ingredient"):
        p["ingredients"].append(outcome["ingredient"])
    if outcome.get("asset"):
        p["assets"].append(outcome["asset"])
    if outcome.get("experience"):
        p["experience"] = max(0, p["experience"] + int(outcome["experience"]))
    if outcome.get("health"):
        n = int(outcome["health"])
        if n > 0:
            heal(ctx, sid, n)
        else:
            lose(ctx, sid, health=-n)
    if outcome.get("improve") in SKILLS:
        skill = outcome["improve"]
        p["skills"][skill] = min(int(settings(ctx.state)["skill_max"]), p["skills"][skill] + 1)
    ctx.public("outcome", player=ctx.name(sid), sid=sid, outcome=dict(outcome), why=why)


def refill_reserve(ctx: Ctx) -> None:
    """OC-4.6/OC-15.4: every empty reserve slot takes the top of the asset deck; an empty deck is first refilled
    by shuffling the asset discard pile (the phase's RNG); with both empty the slot stays empty."""
    reserve = ctx.state["reserve"]
    size = int(settings(ctx.state)["reserve_size"])
    while len(reserve) < size:
        reserve.append(None)
    for i, card in enumerate(reserve):
        if card is None:
            deck = ctx.state["decks"]["assets"]
            if not deck and ctx.state["discards"]["assets"]:
                deck.extend(ctx.state["discards"]["assets"])
                ctx.state["discards"]["assets"] = []
                ctx.game_rng().shuffle(deck)
            if deck:
                reserve[i] = deck.pop(0)


def enemies_to_bag(ctx: Ctx, sid: str) -> None:
    """OC-16.4: every enemy token owned by ``sid`` goes back to the back of the bag."""
    keep = []
    for e in ctx.state["enemies"]:
        if e["owner"] == sid:
            ctx.state["bag"].append(e["token"])
        else:
            keep.append(e)
    ctx.state["enemies"] = keep


def close_contact(ctx: Ctx, sid: str) -> None:
    """OC-6.3: the open contact card goes to its deck's discard pile (its enemies back to the bag)."""
    p = ctx.player(sid)
    card = p.get("contact")
    if card:
        ctx.state["discards"][card["type"]].append(card["card"])
        enemies_to_bag(ctx, sid)
        p["contact"] = None


def put_out(ctx: Ctx, sid: str, *, items_dealt: bool = False) -> None:
    """OC-2.6: ``sid`` leaves the game at once: his token leaves the board, his open card is discarded (its enemies
    back to the bag), and — unless a fight already dealt them (OC-5.8) — his items go to the discard and his clues
    are lost. Writes the public ``oc.out`` line."""
    p = ctx.player(sid)
    if p.get("out"):
        return
    p["out"] = True
    where = p["location"]
    p["location"] = None
    close_contact(ctx, sid)
    if not items_dealt:
        for kind, card in holding(p):
            discard_item(ctx, kind, card)
        p["assets"], p["ingredients"], p["clues"] = [], [], 0
    ctx.state["foils"].pop(sid, None)
    ctx.public("out", player=ctx.name(sid), sid=sid, location=where, health=p["health"], experience=p["experience"])
