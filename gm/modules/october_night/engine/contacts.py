"""The contact phase (OC-6): the rotation (OC-6.2), drawing and holding a contact card (OC-6.3), search, combat and
personal cards (OC-6.4–OC-6.7), the contact line and its fall-back (OC-6.8, OC-6.8a), checks against enemies (OC-7.4),
and the mysteries: taking one for four clues (OC-13.2), carrying it out (OC-13.3) and the ritual place (OC-13.4).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .checks import Ctx, check
from .items import apply_outcome, at_zero, close_contact, put_out
from .state import DECK_SECTION, ROTATION, by_slug, in_game, settings


def rotation_type(ctx: Ctx, sid: str, position: int) -> str:
    """OC-6.2: the contact type of turn position ``position``; ``personal`` becomes ``search`` for a player who has
    drawn his one personal card (OC-6.6)."""
    kind = ROTATION[position % 3]
    if kind == "personal" and ctx.player(sid).get("personal_drawn"):
        return "search"
    return kind


def draw(ctx: Ctx, sid: str, kind: str) -> bool:
    """OC-6.3: ``sid`` draws the top card of the ``kind`` deck (an empty deck is refilled by shuffling its discard
    pile; both empty: nothing). A combat card puts that many tokens from the bag's front on their locations, face
    down, owned by him (OC-6.5); with none placed the card is discarded. Returns whether he holds a card now."""
    decks = ctx.state["decks"]
    if not decks[kind] and ctx.state["discards"][kind]:
        decks[kind].extend(ctx.state["discards"][kind])
        ctx.state["discards"][kind] = []
        ctx.game_rng().shuffle(decks[kind])
    if not decks[kind]:
        ctx.public("no_card", player=ctx.name(sid), sid=sid, deck=kind)
        return False
    card = decks[kind].pop(0)
    p = ctx.player(sid)
    p["contact"] = {"card": card, "type": kind, "done": []}
    if kind == "personal":
        p["personal_drawn"] = True
    ctx.public("draw", player=ctx.name(sid), sid=sid, deck=kind, card=card)
    if kind == "combat":
        n = int(by_slug(ctx.data, "combat_contacts")[card].get("enemies", 1))
        tokens = by_slug(ctx.data, "enemies")
        placed = []
        for _i in range(n):
            if not ctx.state["bag"]:
                break
            tok = ctx.state["bag"].pop(0)
            ctx.state["enemies"].append({"token": tok, "location": tokens[tok]["location"], "owner": sid,
                                         "health": int(tokens[tok]["health"]), "revealed": False})
            placed.append(tokens[tok]["location"])
        ctx.public("enemies_placed", player=ctx.name(sid), sid=sid, locations=placed)
        if not placed:
            close_contact(ctx, sid)
            return False
    return True


def section_check(ctx: Ctx, sid: str, n: int) -> None:
    """OC-6.4/OC-6.6: section ``n`` of his open search or personal card: success gives its outcome (and 1 clue on a
    search card) and marks it done; failure gives the failure outcome. All three done completes the card (a
    personal card gives +``personal_experience``)."""
    p = ctx.player(sid)
    card = p["contact"]
    sec = by_slug(ctx.data, DECK_SECTION[card["type"]])[card["card"]]["sections"][n - 1]
    result = check(ctx, sid, "section", sec["skill"], against=f"{card['card']}:{n}")
    if result["success"]:
        apply_outcome(ctx, sid, sec.get("success") or {}, why="section")
        card["done"] = sorted(set(card["done"]) | {n})
        if card["type"] == "search":
            p["clues"] += 1
            ctx.public("clue", player=ctx.name(sid), sid=sid, clues=p["clues"], why="section")
        if len(card["done"]) == 3:
            if card["type"] == "personal":
                p["experience"] += int(settings(ctx.state)["personal_experience"])
            ctx.public("completed", player=ctx.name(sid), sid=sid, card=card["card"], deck=card["type"])
            close_contact(ctx, sid)
    else:
        apply_outcome(ctx, sid, sec.get("failure") or {}, why="section_failed")


def enemy_check(ctx: Ctx, sid: str, token: str) -> None:
    """OC-6.5/OC-7.4: engage his enemy ``token`` (turned face up): a check of the token's skill; a modifier above
    the total costs him 1 health; the enemy loses one health per success and is defeated at 0 (back of the bag, +1
    clue). With none of his enemies left the combat card is completed."""
    enemy = next(e for e in ctx.state["enemies"] if e["owner"] == sid and e["token"] == token)
    data = by_slug(ctx.data, "enemies")[token]
    enemy["revealed"] = True
    ctx.public("reveal_enemy", player=ctx.name(sid), sid=sid, token=token, location=enemy["location"],
               health=enemy["health"], modifier=data["modifier"], skill=data["skill"])
    result = check(ctx, sid, "enemy", data["skill"], against=token, target=int(data["modifier"]))
    p = ctx.player(sid)
    hurt = int(data["modifier"]) > result["total"]
    if hurt:
        p["health"] = max(0, p["health"] - 1)
    enemy["health"] = max(0, enemy["health"] - result["successes"])
    defeated = enemy["health"] == 0
    ctx.public("enemy", player=ctx.name(sid), sid=sid, token=token, hurt=hurt, enemy_health=enemy["health"],
               defeated=defeated)
    if defeated:
        ctx.state["enemies"].remove(enemy)
        ctx.state["bag"].append(token)
        p["clues"] += 1
        ctx.public("clue", player=ctx.name(sid), sid=sid, clues=p["clues"], why="enemy")
        if not any(e["owner"] == sid for e in ctx.state["enemies"]) and p.get("contact"):
            ctx.public("completed", player=ctx.name(sid), sid=sid, card=p["contact"]["card"], deck="combat")
            close_contact(ctx, sid)


def mystery_place(ctx: Ctx) -> str | None:
    """The open mystery's location (``None``: anywhere)."""
    open_ = ctx.state["mysteries"]["open"]
    return by_slug(ctx.data, "mysteries")[open_].get("location") if open_ else None


def mystery_attempt(ctx: Ctx, sid: str) -> None:
    """OC-13.3: a check of the open mystery's skill; success solves it (public), gives the card's reward, and the
    fourth solved sets the ritual place (OC-13.4)."""
    slug = ctx.state["mysteries"]["open"]
    card = by_slug(ctx.data, "mysteries")[slug]
    result = check(ctx, sid, "mystery", card["skill"], against=slug)
    if not result["success"]:
        return
    ctx.state["mysteries"]["solved"].append(slug)
    ctx.state["mysteries"]["open"] = None
    ctx.public("mystery_solved", player=ctx.name(sid), sid=sid, mystery=slug,
               solved=len(ctx.state["mysteries"]["solved"]))
    apply_outcome(ctx, sid, card.get("reward") or {}, why="mystery")
    if len(ctx.state["mysteries"]["solved"]) >= int(settings(ctx.state)["mysteries_needed"]):
        bag = ctx.state["bag"]
        if bag:
            token = bag.pop(0)
            bag.append(token)
        else:
            token = ctx.game_rng().choice([e["slug"] for e in ctx.data["enemies"]])
        place = by_slug(ctx.data, "enemies")[token]["location"]
        ctx.state["ritual_place"] = place
        ctx.public("ritual_place", token=token, location=place)


def can_attempt_mystery(ctx: Ctx, sid: str) -> bool:
    """Whether a mystery is open and ``sid`` stands on its location (or it has none)."""
    if not ctx.state["mysteries"]["open"]:
        return False
    where = mystery_place(ctx)
    return where is None or where == ctx.player(sid)["location"]


def auto_contact(ctx: Ctx, sid: str, position: int) -> None:
    """OC-6.8 ``auto``: draw if he holds no card (rotation type, OC-6.2), then the first section of his card not
    done on his location; else the first of his enemies, in placing order, on his location; else the open mystery
    if he may attempt it; else nothing."""
    p = ctx.player(sid)
    if not p.get("contact"):
        draw(ctx, sid, rotation_type(ctx, sid, position))
    card = p.get("contact")
    if card and card["type"] in ("search", "personal"):
        sections = by_slug(ctx.data, DECK_SECTION[card["type"]])[card["card"]]["sections"]
        for i, sec in enumerate(sections, 1):
            if i not in card["done"] and sec["location"] == p["location"]:
                section_check(ctx, sid, i)
                return
    for e in list(ctx.state["enemies"]):
        if e["owner"] == sid and e["location"] == p["location"]:
            enemy_check(ctx, sid, e["token"])
            return
    if can_attempt_mystery(ctx, sid):
        mystery_attempt(ctx, sid)
        return
    ctx.public("no_contact", player=ctx.name(sid), sid=sid)


def contact_turn(ctx: Ctx, sid: str, line: Mapping[str, Any] | None, position: int) -> None:
    """OC-6.8/OC-6.8a: one player's contact; a chosen encounter made impossible by his turn falls back to a full
    ``auto``."""
    kind = (line or {}).get("kind", "auto")
    p = ctx.player(sid)
    if kind == "abandon":
        if p.get("contact"):
            ctx.public("abandon", player=ctx.name(sid), sid=sid, card=p["contact"]["card"])
            close_contact(ctx, sid)
            return
    elif kind == "mystery":
        if can_attempt_mystery(ctx, sid):
            mystery_attempt(ctx, sid)
            return
    elif kind == "section":
        card = p.get("contact")
        n = int((line or {}).get("section", 0))
        if card and card["type"] in ("search", "personal") and n not in card["done"]:
            section_check(ctx, sid, n)
            return
    elif kind == "enemy":
        token = (line or {}).get("enemy")
        if any(e["owner"] == sid and e["token"] == token and e["location"] == p["location"]
               for e in ctx.state["enemies"]):
            enemy_check(ctx, sid, str(token))
            return
    auto_contact(ctx, sid, position)


def resolve_contacts(ctx: Ctx, orders: Mapping[str, Mapping[str, Any]], order: list[str]) -> None:
    """OC-6.9 step 2: each player's contact in turn order (position p of the turn order gives the rotation type);
    a player brought to 0 health or experience leaves the game at once (OC-2.6)."""
    for position, sid in enumerate(order):
        if not in_game(ctx.state, sid):
            continue
        contact_turn(ctx, sid, (orders.get(sid) or {}).get("contact"), position)
        if at_zero(ctx, sid):
            put_out(ctx, sid)


def take_mystery(ctx: Ctx, order: list[str]) -> None:
    """OC-13.2: at the end of a phase, with fewer than four solved and none open, the first player in turn order
    with ``clues_per_mystery`` (4) clues gives them back and turns up the top mystery card (public)."""
    st = settings(ctx.state)
    ms = ctx.state["mysteries"]
    if len(ms["solved"]) >= int(st["mysteries_needed"]) or ms["open"] or not ctx.state["decks"]["mysteries"]:
        return
    need = int(st["clues_per_mystery"])
    for sid in order:
        if in_game(ctx.state, sid) and ctx.player(sid)["clues"] >= need:
            ctx.player(sid)["clues"] -= need
            ms["open"] = ctx.state["decks"]["mysteries"].pop(0)
            ctx.public("mystery_open", player=ctx.name(sid), sid=sid, mystery=ms["open"],
                       location=mystery_place(ctx))
            return
