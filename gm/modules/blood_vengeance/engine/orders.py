"""Order validation with BV-16's refusal codes in BV-16a's check order (BV-5.5, BV-6.2, BV-13, BV-14.4, BV-15).

Night orders (``night``/``defence``): ``{"vote": seat}`` (festival panic: a list), ``{"black", "red"}`` (flowers),
``{"elect"}``, ``{"heir"}``, ``{"delegate"}`` — any of them together. Verdict: ``{"verdict": "yes"|"no"}``. Arbiter:
``{"vote": seat}``. Light: ``{"actions": [{"role", "target" | "targets", "mode", "abstain"}]}``, checked action by
action (:func:`validate_action`, BV-14.4a). Seats are int ids in payloads, string ids in the state. Pure.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .light import gathering_members
from .night import has_vote, variant_on
from .state import GATHERING, ROLE_RULES, ROLES, WEREWOLVES, BvError, _, is_alive, living, refuse
from .table import acts

NIGHT_KEYS = ("vote", "black", "red", "elect", "heir", "delegate")
ACTION_KEYS = ("role", "target", "targets", "mode", "abstain")


def _seat(state: Mapping[str, Any], value: Any, rule: str, field: str) -> str:
    """A named seat as a string id: ``no_target`` when missing, ``unknown_target`` when not a seat of this game."""
    if value is None or value == "":
        raise refuse("no_target", rule, field)
    sid = str(value)
    if sid not in state["cards"] or isinstance(value, bool):
        raise refuse("unknown_target", rule, field)
    return sid


def _living_other(state: Mapping[str, Any], sid: str, value: Any, rule: str, field: str, *,
                  self_code: str = "self_vote") -> str:
    t = _seat(state, value, rule, field)
    if not is_alive(state, t):
        raise refuse("dead_target", rule, field)
    if t == sid:
        raise refuse(self_code, rule, field)
    return t


def validate_order(state: Mapping[str, Any], *, kind: str, sid: str, payload: Mapping[str, Any]) -> dict:
    """The normalised payload of seat ``sid`` in a phase of ``kind``, or :class:`BvError` with the first BV-16 code
    in BV-16a's order (``dead``, ``wrong_phase``, ``no_ability``, ``not_arbiter``, ``no_vote``…)."""
    if not isinstance(payload, Mapping):
        raise refuse("wrong_phase", "BV-14.4")
    if not is_alive(state, sid):
        raise refuse("dead", "BV-7.6")
    if kind == "light":
        if "actions" not in payload or set(payload) - {"actions"}:
            raise refuse("wrong_phase", "BV-14.2")
        actions = payload["actions"]
        if not isinstance(actions, list):
            raise refuse("wrong_phase", "BV-14.2")
        out = [validate_action(state, sid=sid, action=a) for a in actions]
        roles = [a["role"] for a in out]
        if len(set(roles)) != len(roles):
            raise BvError([("actions", _("One action per ability in a light order."), {})], rule="BV-14.4a",
                          code="invalid")
        return {"actions": out}
    if "actions" in payload:
        raise refuse("wrong_phase", "BV-14.2")
    if kind == "verdict":
        return _verdict(state, sid, payload)
    if kind == "arbiter":
        if set(payload) - {"vote"}:
            raise refuse("wrong_phase", "BV-15.8")
        if sid != str(state.get("arbiter")):
            raise refuse("not_arbiter", "BV-15.8")
        if "vote" not in payload:
            raise refuse("no_target", "BV-15.8", "vote")
        return {"vote": int(_living_other(state, sid, payload["vote"], "BV-15.8", "vote",
                                          self_code="self_target"))}
    if "verdict" in payload or set(payload) - set(NIGHT_KEYS):
        raise refuse("wrong_phase", "BV-5.6")
    return _night(state, kind, sid, payload)


def _verdict(state: Mapping[str, Any], sid: str, payload: Mapping[str, Any]) -> dict:
    if set(payload) == {"delegate"}:  # BV-15.12: a silenced player names a delegate in every round
        if sid not in (state.get("silenced") or []):
            raise refuse("no_ability", "BV-15.12", "delegate")
        return {"delegate": int(_living_other(state, sid, payload["delegate"], "BV-15.12", "delegate",
                                              self_code="self_target"))}
    if set(payload) - {"verdict"} or payload.get("verdict") not in ("yes", "no"):
        raise refuse("wrong_phase", "BV-5.6")
    if not has_vote(state, sid):
        raise refuse("no_vote", "BV-13.23")
    return {"verdict": payload["verdict"]}


def _night(state: Mapping[str, Any], kind: str, sid: str, payload: Mapping[str, Any]) -> dict:
    opts = state["options"]
    out: dict[str, Any] = {}
    if "heir" in payload and state.get("hoh") != sid:
        raise refuse("no_ability", "BV-15.7", "heir")
    if "elect" in payload and not (opts.get("hunter_of_hunters") and state.get("elect") and kind == "night"):
        raise refuse("wrong_phase", "BV-15.7", "elect")
    if "delegate" in payload and sid not in (state.get("silenced") or []):
        raise refuse("no_ability", "BV-15.12", "delegate")
    votes = [k for k in ("vote", "black", "red", "elect") if k in payload]
    if sid in (state.get("silenced") or []) and votes:
        raise refuse("no_vote", "BV-15.12")
    if votes and not has_vote(state, sid):
        raise refuse("no_vote", "BV-13.23")
    festival = kind == "night" and variant_on(state, "festival_panic")
    flowers = kind == "night" and variant_on(state, "flowers")
    if ("black" in payload or "red" in payload) and not flowers:
        raise refuse("wrong_phase", "BV-15.5")
    if "vote" in payload and flowers:
        raise refuse("wrong_phase", "BV-15.5")
    if "vote" in payload and payload["vote"] is not None:
        value = payload["vote"]
        if festival:
            values = value if isinstance(value, list) else [value]
            targets = [_living_other(state, sid, v, "BV-15.9", "vote") for v in values]
            for t in targets:
                _candidate(state, kind, t)
            out["vote"] = sorted({int(t) for t in targets})
        else:
            if isinstance(value, list):
                raise refuse("targets_count", "BV-5.5", "vote", n=1)
            t = _living_other(state, sid, value, "BV-5.5", "vote")
            _candidate(state, kind, t)
            out["vote"] = int(t)
    for key in ("black", "red"):
        if payload.get(key) is not None:
            t = _living_other(state, sid, payload[key], "BV-15.5", key)
            _candidate(state, kind, t)
            out[key] = int(t)
    if "black" in out and out.get("black") == out.get("red"):
        raise refuse("not_candidate", "BV-15.5", "red")
    if payload.get("elect") is not None:
        out["elect"] = int(_seat(state, payload["elect"], "BV-15.7", "elect"))
        if not is_alive(state, str(out["elect"])):
            raise refuse("dead_target", "BV-15.7", "elect")
    if payload.get("heir") is not None:
        out["heir"] = int(_living_other(state, sid, payload["heir"], "BV-15.7", "heir", self_code="self_target"))
    if payload.get("delegate") is not None:
        out["delegate"] = int(_living_other(state, sid, payload["delegate"], "BV-15.12", "delegate",
                                            self_code="self_target"))
    return out


def _candidate(state: Mapping[str, Any], kind: str, t: str) -> None:
    """``not_candidate``: a revote outside the tied (BV-5.2), blood vengeance (BV-15.6), last night's arbiter
    (BV-15.8)."""
    if kind == "defence" and t not in (state.get("tied") or []):
        raise refuse("not_candidate", "BV-5.2", "vote")
    if kind == "night":
        vengeance = state.get("vengeance")
        if vengeance and t not in vengeance:
            raise refuse("not_candidate", "BV-15.6", "vote")
        last_night = int(state.get("last_arbiter_night") or 0) == int(state.get("night") or 0) - 1
        if variant_on(state, "arbiter_of_fates") and t == state.get("last_arbiter") and last_night:
            raise refuse("not_candidate", "BV-15.8", "vote")


def validate_action(state: Mapping[str, Any], *, sid: str, action: Any) -> dict:
    """One light action of seat ``sid`` normalised to ``{"role", "targets": [int], "mode"?, "abstain"?}``, or
    :class:`BvError` with its BV-16 code (BV-16a order). ``role`` is the card slug whose ability is used, or
    ``hunters`` for the gathering vote (BV-6.3)."""
    if not isinstance(action, Mapping) or set(action) - set(ACTION_KEYS):
        raise refuse("wrong_phase", "BV-14.2")
    role = action.get("role")
    if not is_alive(state, sid):
        raise refuse("dead", "BV-6.5")
    card = state["cards"][sid]
    table = state["table"]
    if role == GATHERING:
        if sid not in gathering_members(state):
            raise refuse("no_ability", "BV-6.3")
        if action.get("abstain"):
            return {"role": GATHERING, "targets": [], "abstain": True}
        raw = action.get("target", (action.get("targets") or [None])[0])
        t = _living_other(state, sid, raw, "BV-6.3", "target", self_code="self_target")
        return {"role": GATHERING, "targets": [int(t)]}
    if role not in ROLES or role != card or not acts(table[card]):
        raise refuse("no_ability", "BV-16a")
    r = table[card]
    rule = ROLE_RULES.get(card, "BV-13")
    effect = r.get("effect", "none")
    mode = action.get("mode")
    modes = list(r.get("modes") or [])
    if card in WEREWOLVES and state["options"].get("wolf_pits") and card == "werewolf":
        modes = ["kill", "ambush"]
    if mode is not None and mode not in modes:
        raise refuse("bad_mode", "BV-3.4" if mode == "ambush" else rule, "mode")
    if effect == "lamia" and mode is None and not action.get("abstain"):
        raise refuse("bad_mode", rule, "mode")
    if action.get("abstain"):
        if r.get("must_act", True):
            raise refuse("must_act", "BV-6.2a")
        return {"role": card, "targets": [], "abstain": True}
    if mode == "ambush":
        return {"role": card, "targets": [int(sid)], "mode": "ambush"}
    raw = action.get("targets")
    if raw is None:
        raw = [action["target"]] if action.get("target") is not None else []
    if not isinstance(raw, list):
        raw = [raw]
    if not raw:
        raise refuse("no_target", rule, "target")
    targets = [_seat(state, v, rule, "targets") for v in raw]
    others = [s for s in living(state) if s != sid]
    want = min(int(r.get("targets", 1)), max(1, len(others))) if int(r.get("targets", 1)) > 1 else 1
    if len(targets) != want or len(set(targets)) != len(targets):
        raise refuse("targets_count", rule, "targets", n=want)
    for t in targets:
        if not is_alive(state, t):
            raise refuse("dead_target", rule, "targets")
    for t in targets:
        if t == sid and r.get("self", "no") == "no":
            raise refuse("self_target", rule, "targets")
        if t == sid and r.get("self") == "once" and sid in (state.get("self_used") or []):
            raise refuse("self_used", rule, "targets")
    if effect == "bind" and sid in (state.get("grooms") or {}):
        raise refuse("groom_chosen", "BV-13.12")
    if not r.get("repeat", True):
        last = (state.get("last_targets") or {}).get(f"{sid}:{card}", [])
        if any(t in last for t in targets):
            raise refuse("not_candidate", "BV-13.1", "targets")
    out: dict[str, Any] = {"role": card, "targets": [int(t) for t in targets]}
    if mode is not None:
        out["mode"] = mode
    return out
