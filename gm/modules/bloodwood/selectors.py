"""The reads of Bloodwood: the default game data (``data/game.yaml``, BW-1, BW-24a), the open step, the table as the
viewer may see it (BW-25: through ``gm.core.visibility``), what the viewer may do now (his hand with each card
enabled or greyed with the reason, legal targets, the answer, the Leshy/Hunter/keep/refill choices), the caller's
order options for bots and clients (``GET /api/games/<id>/order-options/``) and what the dashboard asks of him.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml
from django.utils.translation import gettext as _

from gm.core import visibility
from gm.core.dashboard import ACT, DONE, Need
from gm.core.models import Game, Phase
from gm.core.services import ServiceError

from . import engine
from .texts import NEED, NEED_DONE, STEP_NAMES, card_name, entity_name, refusal_text

DATA_FILE = Path(__file__).resolve().parent / "data" / "game.yaml"


@functools.cache
def game_data() -> dict:
    """The default game data (card copies, step deadlines and their bounds), read once per process. The engine's
    set-up snapshots it into the game's state, so a running game never changes when the file does."""
    return yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))


def open_phase(game: Game) -> Phase | None:
    """The game's step not yet resolved (open or resolving), or ``None``."""
    return game.phases.exclude(status=Phase.Status.RESOLVED).first()


def seat_names(game: Game) -> dict[str, str]:
    """Seat id (string) → display name, in ring order."""
    return {str(s.pk): s.display_name for s in game.seats.order_by("position")}


def _why(code: str) -> str:
    rule, message = engine.REFUSALS[code]
    return f"{refusal_text(code, message)} ({rule})"


def hand_options(state: dict, sid: str) -> list[dict]:
    """The viewer's hand card by card: ``card``, ``name``, ``playable`` (on his own turn now), ``why`` (the reason
    when not, BW-6a) and ``targets`` (the legal ones, BW-21a)."""
    out = []
    step = state.get("step") or {}
    my_turn = step.get("kind") == "turn" and sid in (step.get("actors") or [])
    names = state.get("names") or {}
    for i, card in enumerate(state["hands"].get(sid, [])):
        code = engine.playable(state, sid, card) if my_turn else "not_your_turn"
        out.append({"index": i, "card": card, "name": card_name(card), "playable": code is None,
                    "why": "" if code is None else _why(code),
                    "targets": [{"id": int(t), "name": names.get(t, t)}
                                for t in engine.legal_targets(state, sid, card)] if code is None else []})
    return out


def table_context(viewer: visibility.Viewer) -> dict:
    """The public table for every viewer (BW-25): the seat ring with direction, phase, who is to move and the open
    step's kind and actors, each player's DNA, markers and card count, deck counts, the pile and confessions; plus,
    for a seated player, his own hand."""
    state = visibility.game_state(viewer)
    if not state.get("order"):
        return {}
    names = state.get("names") or {}
    step = state.get("step") or {}
    actors = set(step.get("actors") or [])
    counts = state.get("hand_counts") or {sid: len(h) for sid, h in (state.get("hands") or {}).items()}
    seats = []
    n = len(state["order"])
    for i, sid in enumerate(state["order"]):
        seats.append({
            "sid": sid, "name": names.get(sid, sid), "dna": state["dna"][sid],
            "curse": (state.get("curse") or {}).get(sid, 0), "chains": sid in (state.get("chains") or []),
            "tranq": sid in (state.get("tranq") or []), "cards": counts.get(sid, 0),
            "to_move": sid == state.get("to_move"), "acting": sid in actors,
            "confessed_to": [names.get(t, t) for t in (state.get("confessed") or {}).get(sid, [])],
            "angle": round(360 * i / n), "entity": entity_name((state.get("entities") or {}).get(sid, "")) if (
                state.get("entities") or {}).get(sid) else "",
        })
    decks = state.get("deck_counts") or {k: len(v) for k, v in (state.get("decks") or {}).items()}
    return {"seats": seats, "phase": state.get("phase"), "direction": state.get("direction", 1),
            "starter": names.get(state.get("starter") or "", ""), "turns_done": state.get("turns_done", 0),
            "to_move": names.get(state.get("to_move") or "", ""), "step_kind": step.get("kind"),
            "step_name": STEP_NAMES.get(step.get("kind") or "", ""),
            "step_actors": [names.get(a, a) for a in step.get("actors") or []],
            "attack": ({"attacker": names.get(step.get("attacker"), ""), "target": names.get(step.get("target"), ""),
                        "card": card_name(step.get("card") or "")} if step.get("kind") == "reaction" else None),
            "deck_counts": decks, "discard": [card_name(c) for c in state.get("discard") or []],
            "over": state.get("over"), "winner": state.get("winner"), "full": "hands" in state}


def my_context(game: Game, viewer: visibility.Viewer) -> dict:
    """What the seated viewer holds and may do now: his hand with reasons, the open step if he is its actor (with
    the attack he answers, the pool he keeps from, the number due and the valid splits), whether he may declare."""
    if viewer.seat is None or game.status not in (Game.Status.RUNNING, Game.Status.FINISHED):
        return {}
    state = game.state or {}
    sid = str(viewer.seat.pk)
    if sid not in (state.get("hands") or {}):
        return {}
    step = state.get("step") or {}
    acting = sid in (step.get("actors") or []) and not state.get("over")
    ctx: dict[str, Any] = {"hand": hand_options(state, sid), "acting": acting, "step_kind": step.get("kind")}
    if acting and step.get("kind") == "reaction":
        ctx["answers"] = [a for a in ("amulet", "mirror") if a in state["hands"][sid]
                          and not (a == "mirror" and sid in state["chains"])]
    if acting and step.get("kind") == "keep":
        ctx["pool"] = [{"card": c, "name": card_name(c)} for c in step["pool"]]
        ctx["keep_due"] = engine.keep_due(state)
    if acting and step.get("kind") == "refill":
        ctx["due"] = step["due"]
        ctx["splits"] = [d for d in range(step["due"] + 1) if engine.split_possible(state, d, step["due"] - d)]
        # the night counts of the same splits, so the first option of each select is one valid split
        ctx["night_splits"] = [step["due"] - d for d in ctx["splits"]]
    ctx["may_declare"] = not state.get("over") and state["dna"].get(sid) == "purity"
    ctx["others"] = [{"id": int(s), "name": state["names"][s]} for s in state["order"] if s != sid]
    return ctx


def legal_payloads(state: dict, sid: str) -> list[dict]:
    """Every legal line of ``sid`` in the open step, as whole payloads (small steps enumerate all; a keep offers the
    default and each swap of one card, a Leshy discard every pair)."""
    step = state.get("step") or {}
    if state.get("over") or sid not in (step.get("actors") or []):
        return []
    kind = step["kind"]
    hand = state["hands"][sid]
    out: list[dict] = []
    if kind == "turn":
        for card in dict.fromkeys(hand):
            out.append({"move": "discard", "cards": [card]})
            if engine.playable(state, sid, card) is None:
                targets = engine.legal_targets(state, sid, card)
                if card in engine.TARGETED:
                    out += [{"move": "play", "card": card, "target": int(t)} for t in targets]
                else:
                    out.append({"move": "play", "card": card})
    elif kind == "reaction":
        out.append({"react": "pass"})
        for card in ("amulet", "mirror"):
            if card in hand and not (card == "mirror" and sid in state["chains"]):
                out.append({"react": card})
    elif kind == "discard":
        seen = set()
        for i in range(len(hand)):
            for j in range(i + 1, len(hand)):
                pair = tuple(sorted((hand[i], hand[j])))
                if pair not in seen:
                    seen.add(pair)
                    out.append({"discard": list(pair)})
    elif kind == "give":
        out += [{"give": c} for c in dict.fromkeys(hand)]
    elif kind == "keep":
        due = engine.keep_due(state)
        pool = list(step["pool"])
        out.append({"keep": pool[:due]})
        out.append({"keep": pool[-due:]})
    elif kind == "refill":
        due = step["due"]
        out += [{"refill": {"day": d, "night": due - d}} for d in range(due + 1)
                if engine.split_possible(state, d, due - d)]
    return out


def order_options(*, game: Game, viewer) -> dict:
    """The caller's legal lines now (the core's shape: ``phase``, ``kind``, ``can_order``, ``why_not``,
    ``targets``, ``choices``; plus ``may_declare`` and ``declare_targets``). Raises :class:`ServiceError`
    ``forbidden`` (no seat) or ``state`` (no step open)."""
    if viewer.seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    phase = game.phases.filter(status=Phase.Status.OPEN).first() if not game.is_over else None
    if phase is None:
        raise ServiceError(_("No step is open now."), code="state")
    state = game.state
    sid = str(viewer.seat.pk)
    names = state["names"]
    payloads = legal_payloads(state, sid)
    choices = [{"key": f"{i}", "label": str(p), "payload": p} for i, p in enumerate(payloads)]
    return {
        "phase": phase.pk, "kind": phase.kind, "can_order": bool(choices),
        "why_not": "" if choices else _("You are not an actor of the open step."),
        "targets": [{"id": int(s), "name": names[s]} for s in state["order"] if s != sid],
        "choices": choices,
        "may_declare": state["dna"].get(sid) == "purity" and not state.get("over"),
    }


def player_needs(*, game: Game, phase: Phase, seat, payload) -> list[Need] | None:
    """What the open step asks of ``seat`` (BW-24): its actors are asked by the step's kind; nobody else is asked
    anything (``[]``)."""
    actors = phase.actors or []
    if seat.pk not in actors:
        return []
    label = phase.label
    if payload is not None:
        return [Need(NEED_DONE % {"phase": label}, DONE, phase.deadline)]
    return [Need(NEED[phase.kind] % {"phase": label}, ACT, phase.deadline)]


# -- the rematch where the winner deals (BW-23c) -------------------------------------------------------------------

def rematch_info(game: Game) -> dict:
    """What the rematch page of the finished ``game`` shows (BW-23c): ``winner`` (the winning team or ``none``),
    ``declarer`` (the seat of the successful declarer, or ``None``), ``candidates`` (the seats of the winning team:
    the master picks the dealer among them after a failed declaration), ``rematches`` (the games made as its
    rematch). Only for a finished game; everything here is public once the game is over (BW-22e)."""
    state = game.state or {}
    winner = state.get("winner") or "none"
    seats = list(game.seats.order_by("position"))
    by_name = {s.display_name: s for s in seats}
    declarer = None
    entry = game.log_entries.filter(kind="bw.declaration").order_by("-pk").first()
    if entry is not None and (entry.data or {}).get("right"):
        declarer = by_name.get(entry.data.get("player"))
    winners = {str(s) for s in state.get("winners") or []}
    return {"winner": winner, "declarer": declarer, "candidates": [s for s in seats if str(s.pk) in winners],
            "seats": seats,
            "rematches": list(Game.objects.filter(module=game.module, options__rematch_of=game.pk).order_by("pk"))}


def dealer_seat(game: Game):
    """The seat that deals the rematch ``game`` (BW-23c: option ``dealer``, a seat number), or ``None``."""
    dealer = (game.options or {}).get("dealer")
    if not (game.options or {}).get("winner_deals") or not dealer:
        return None
    return game.seats.filter(position=int(dealer) - 1).first()
