"""Declarations and every end of the game (BW-22, BW-22a–g): a pure player names the whole opposing team; right
(exactly the enemies, every one mutated) his team wins, wrong the other team wins; the deadlock of BW-22d ends with
no winner (:func:`.markers.make_permanent`); the master may end a game with no winner. Pure."""
from __future__ import annotations

from collections.abc import Sequence

from .orders import validate_declaration
from .state import TEAMS, BwError, Ev, State, team_of


def judge(state: State, declarer: str, named: Sequence[str]) -> tuple[bool, str]:
    """Whether the declaration is right (BW-22: the named players are exactly the opposing team and each is
    ``mutated`` or ``permanent``) and the winning team."""
    mine = team_of(state, declarer)
    enemy = next(t for t in TEAMS if t != mine)
    enemies = {s for s in state["order"] if team_of(state, s) == enemy}
    right = set(named) == enemies and all(state["dna"][s] in ("mutated", "permanent") for s in enemies)
    return right, (mine if right else enemy)


def finish(state: State, winner: str) -> list[str]:
    """End the game with ``winner`` (a team or ``none``): no step open, nobody to move. Returns the winning seats."""
    winners = [s for s in state["order"] if winner in TEAMS and team_of(state, s) == winner]
    state["over"], state["winner"], state["winners"] = True, winner, winners
    state["step"], state["agenda"], state["to_move"] = None, [], None
    return winners


def declare(state: State, declarer: str, named: object) -> list[Ev]:
    """A declaration by ``declarer`` naming ``named`` (seat ids) at any moment (BW-22b), judged at once against the
    state (a card waiting for an answer has not happened). Raises :class:`~.state.BwError` (``game_over``,
    ``mutated``, ``bad_declaration``). Changes ``state`` in place; returns the declaration and result lines."""
    seats = validate_declaration(state, declarer, named)
    right, winner = judge(state, declarer, seats)
    names = state["names"]
    winners = finish(state, winner)
    return [
        Ev("bw.declaration", {"event": "declaration", "player": names[declarer],
                              "named": [names[s] for s in seats], "right": right,
                              "text": ", ".join(names[s] for s in seats)}),
        Ev("bw.result", {"event": "end", "winner": winner, "winners": [names[s] for s in winners],
                         "text": ", ".join(names[s] for s in winners)}),
    ]


def pend_declaration(state: State, declarer: str, named: object) -> dict:
    """A declaration made now (BW-22b), checked at once (``game_over``, ``mutated``, ``bad_declaration``) and kept in
    ``state["declaration"]`` until the open step closes, which it does at once: the step's resolution judges it
    before anything else, so it is judged against the state at the moment it was made (nothing happens in between:
    a pending declaration refuses every other declaration with ``game_over``). Returns the pending record."""
    if state.get("declaration"):
        raise BwError("game_over")
    seats = validate_declaration(state, declarer, named)
    record = {"player": declarer, "named": seats}
    state["declaration"] = record
    return record


def master_end(state: State) -> list[Ev]:
    """The master ends the game with no winner (BW-22d; audited by the shell). Changes ``state``; returns the public
    result line (``bw.master_end``)."""
    finish(state, "none")
    return [Ev("bw.master_end", {"event": "end", "winner": "none", "winners": []})]
