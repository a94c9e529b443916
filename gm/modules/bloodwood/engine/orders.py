"""Validation of every line a player sends (BW-6, BW-6a, BW-8, BW-13a, BW-14, BW-15a, BW-6f, BW-22b, BW-26,
BW-26a): each check raises :class:`~.state.BwError` with its code, in the order BW-26 gives, and returns the
normalised payload (seat ids as strings). Pure; nothing here changes the state."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .decks import split_possible
from .state import (
    ATTACKS,
    INATTENTION_MOVE,
    NOT_PERMANENT,
    NOT_SELF,
    PROTECTION,
    TARGETED,
    BwError,
    State,
    deck_of,
)


def _seat(state: State, value: Any) -> str | None:
    """A payload's seat reference as a seat id of this game, or ``None``."""
    if isinstance(value, bool) or value is None:
        return None
    sid = str(value)
    return sid if sid in state["order"] else None


def _actor(state: State, sid: str, kind: str) -> None:
    if state.get("over") or state.get("declaration"):
        raise BwError("game_over")
    step = state.get("step") or {}
    if step.get("kind") != kind or sid not in (step.get("actors") or []):
        raise BwError("not_your_turn")


def _cards(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return list(value)
    return None


def _holds(hand: Sequence[str], cards: Sequence[str]) -> bool:
    need, have = Counter(cards), Counter(hand)
    return all(have[c] >= n for c, n in need.items())


def target_refusal(state: State, sid: str, card: str, target: str | None) -> str | None:
    """The first refusal of ``card`` played by ``sid`` on ``target`` from ``bad_target`` on (BW-21a, BW-21b, BW-26),
    or ``None`` when the target is legal."""
    if card in TARGETED:
        if target is None:
            return "bad_target"
    elif target is not None:
        return "bad_target"
    if target is None:
        return None
    if card in NOT_SELF and target == sid:
        return "self_target"
    if card in NOT_PERMANENT and state["dna"][target] == "permanent":
        return "permanent"
    if (card == "curse_mark" and target in state["curse"]) or (card == "chains" and target in state["chains"]) or (
            card == "tranquilizer" and target in state["tranq"]):
        return "already_marked"
    if card == "candle" and target not in state["curse"]:
        return "no_curse_mark"
    if card == "keys" and target not in state["chains"]:
        return "no_chains"
    if card == "thief" and not state["hands"][target]:
        return "no_cards"
    if card == "confession" and target in state["confessed"].get(sid, []):
        return "already_confessed"
    return None


def card_refusal(state: State, sid: str, card: str) -> str | None:
    """Whether ``sid`` may play ``card`` now apart from its target (BW-6a, BW-7d, BW-8, BW-11a): the first code of
    ``reaction_only``, ``wrong_phase``, ``chained``, ``two_in_a_row``, or ``None``."""
    kind = deck_of(state["data"], card)
    if card in PROTECTION:
        return "reaction_only"
    if kind in ("day", "night") and kind != state["phase"]:
        return "wrong_phase"
    if kind == "night" and sid in state["chains"]:
        return "chained"
    if kind == "special" and state.get("extra_turn"):
        return "two_in_a_row"
    return None


def legal_targets(state: State, sid: str, card: str) -> list[str]:
    """The seats ``sid`` may play ``card`` on now (BW-21a); ``[]`` for a card that takes no target."""
    if card not in TARGETED:
        return []
    return [t for t in state["order"] if target_refusal(state, sid, card, t) is None]


def playable(state: State, sid: str, card: str) -> str | None:
    """``None`` when ``sid`` may play ``card`` on his turn now with some target (BW-6a), else the refusal code."""
    code = card_refusal(state, sid, card)
    if code:
        return code
    if card in TARGETED and not legal_targets(state, sid, card):
        return "bad_target"
    return None


def validate_move(state: State, sid: str, payload: Mapping[str, Any]) -> dict:
    """A move of the ``turn`` step (BW-6): ``{"move": "play", "card", "target"?}`` or ``{"move": "discard",
    "cards": [card]}``. Checks in BW-26's order."""
    _actor(state, sid, "turn")
    hand = state["hands"][sid]
    if payload.get("move") == "discard":
        cards = _cards(payload.get("cards", payload.get("card")))
        if cards is None or len(cards) != 1:
            raise BwError("bad_discard", "cards")
        if not _holds(hand, cards):
            raise BwError("not_in_hand", "cards")
        return {"move": "discard", "cards": cards}
    if payload.get("move") == "penalty":
        return validate_penalty(state, sid, payload)
    if payload.get("move") != "play":
        raise BwError("bad_order", "move")
    card = payload.get("card")
    if not isinstance(card, str) or card not in hand:
        raise BwError("not_in_hand", "card")
    code = card_refusal(state, sid, card)
    if code:
        raise BwError(code, "card")
    raw = payload.get("target")
    target = _seat(state, raw)
    if raw is not None and target is None:
        raise BwError("bad_target", "target")
    code = target_refusal(state, sid, card, target)
    if code:
        raise BwError(code, "target")
    out: dict[str, Any] = {"move": "play", "card": card}
    if target is not None:
        out["target"] = int(target) if target.isdigit() else target
    return out


def validate_penalty(state: State, sid: str, payload: Mapping[str, Any]) -> dict:
    """The inattention penalty as a move (BW-23a): ``{"move": "penalty", "card", "target"?}`` is accepted only with
    the option on, for a card he holds whose play is refused with one of the codes that cost it
    (:data:`~.state.INATTENTION_MOVE`); the step then closes with the card discarded and his turn over, no refill.
    Any other refusal of the play is raised as it is (it costs nothing)."""
    if not (state.get("options") or {}).get("inattention"):
        raise BwError("bad_order", "move")
    play = {**payload, "move": "play"}
    try:
        validate_move(state, sid, play)
    except BwError as exc:
        if exc.code in INATTENTION_MOVE:
            return {"move": "penalty", "card": payload["card"], "code": exc.code}
        raise
    raise BwError("bad_order", "move")


def validate_react(state: State, sid: str, payload: Mapping[str, Any]) -> dict:
    """An answer (BW-8, BW-8d, BW-11a): ``{"react": "amulet" | "mirror" | "pass"}``, checked whoever sends it and
    whatever step is open: ``game_over``, ``tranquilized``, ``no_attack``, ``not_target``, ``not_in_hand``,
    ``chained``."""
    if state.get("over") or state.get("declaration"):
        raise BwError("game_over")
    answer = payload.get("react")
    if sid in state["tranq"]:
        raise BwError("tranquilized")
    step = state.get("step") or {}
    if step.get("kind") != "reaction":
        raise BwError("no_attack")
    if sid != step.get("target"):
        raise BwError("not_target")
    if answer not in ("amulet", "mirror", "pass"):
        raise BwError("bad_order", "react")
    if answer != "pass" and answer not in state["hands"][sid]:
        raise BwError("not_in_hand", "react")
    if answer == "mirror" and sid in state["chains"]:
        raise BwError("chained", "react")
    return {"react": answer}


def validate_discard(state: State, sid: str, payload: Mapping[str, Any]) -> dict:
    """A Leshy discard (BW-14, BW-26a): exactly two cards he holds."""
    _actor(state, sid, "discard")
    cards = _cards(payload.get("discard"))
    if cards is None or len(cards) != 2:
        raise BwError("bad_discard", "discard")
    if not _holds(state["hands"][sid], cards):
        raise BwError("not_in_hand", "discard")
    return {"discard": cards}


def validate_give(state: State, sid: str, payload: Mapping[str, Any]) -> dict:
    """A give to The Hunter (BW-15a, BW-26a): exactly one card he holds."""
    _actor(state, sid, "give")
    cards = _cards(payload.get("give"))
    if cards is None or len(cards) != 1:
        raise BwError("bad_give", "give")
    if not _holds(state["hands"][sid], cards):
        raise BwError("not_in_hand", "give")
    return {"give": cards[0]}


def keep_due(state: State) -> int:
    """The number of cards the open ``keep`` step keeps: min(4, pool) (BW-13a, BW-15a)."""
    return min(4, len((state.get("step") or {}).get("pool") or []))


def validate_keep(state: State, sid: str, payload: Mapping[str, Any]) -> dict:
    """A keep (BW-13a, BW-15a, BW-26a): exactly min(4, pool) cards, each from the pool (as often as it holds it)."""
    _actor(state, sid, "keep")
    cards = _cards(payload.get("keep"))
    if cards is None or len(cards) != keep_due(state):
        raise BwError("bad_keep", "keep")
    if not _holds(state["step"]["pool"], cards):  # type: ignore[index]
        raise BwError("not_in_hand", "keep")
    return {"keep": cards}


def validate_refill(state: State, sid: str, payload: Mapping[str, Any]) -> dict:
    """A refill split (BW-6b, BW-6f, BW-26a): ``{"refill": {"day": d, "night": n}}`` whose total is the number due and
    which the decks (rebuilt as BW-1a says) can give."""
    _actor(state, sid, "refill")
    split = payload.get("refill")
    if not isinstance(split, Mapping) or set(split) - {"day", "night"}:
        raise BwError("bad_refill", "refill")
    day, night = split.get("day", 0), split.get("night", 0)
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (day, night)):
        raise BwError("bad_refill", "refill")
    if day + night != state["step"]["due"] or not split_possible(state, day, night):  # type: ignore[index]
        raise BwError("bad_refill", "refill")
    return {"refill": {"day": day, "night": night}}


def validate_declaration(state: State, sid: str, named: Any) -> list[str]:
    """A declaration (BW-22, BW-22b, BW-22f): ``game_over``, ``mutated`` (DNA not ``purity``), ``bad_declaration``
    (nobody named, the declarer, a player twice, not a player). Returns the named seat ids."""
    if state.get("over") or state.get("declaration"):
        raise BwError("game_over")
    if state["dna"][sid] != "purity":
        raise BwError("mutated")
    if not isinstance(named, list) or not named:
        raise BwError("bad_declaration", "declare")
    seats = [_seat(state, n) for n in named]
    if any(s is None or s == sid for s in seats) or len(set(seats)) != len(seats):
        raise BwError("bad_declaration", "declare")
    return [s for s in seats if s is not None]


def validate_step(state: State, sid: str, payload: Mapping[str, Any]) -> dict:
    """Any line of the open step, dispatched by the payload's key: ``move``, ``react``, ``discard``, ``give``,
    ``keep``, ``refill``. A line of another kind than the open step is refused ``not_your_turn`` (BW-26)."""
    if not isinstance(payload, Mapping):
        raise BwError("bad_order")
    if "react" in payload:
        return validate_react(state, sid, payload)
    if "move" in payload:
        return validate_move(state, sid, payload)
    for key, check in (("discard", validate_discard), ("give", validate_give), ("keep", validate_keep),
                       ("refill", validate_refill)):
        if key in payload:
            return check(state, sid, payload)
    if state.get("over"):
        raise BwError("game_over")
    raise BwError("bad_order")


def attacked(card: str) -> bool:
    """Whether ``card`` attacks a player directly and may be answered (BW-8a)."""
    return card in ATTACKS
