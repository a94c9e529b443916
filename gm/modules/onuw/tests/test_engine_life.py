"""ONUW's answer to the core's "has this seat anything to do?" (issue 23: automatic extensions never wait for a seat
without one): pure, on a dealt state."""
from __future__ import annotations

from gm.modules.onuw import engine


def _state(cards: list[str], *, lone_wolf: bool = True) -> dict:
    dealt = {str(i + 1): card for i, card in enumerate(cards[:-3])}
    return engine.initial_state(dealt, cards[-3:], lone_wolf=lone_wolf)


def test_ON_4_only_the_cards_that_choose_have_a_night_action():
    state = _state(["villager", "werewolf", "seer", "robber", "werewolf", "troublemaker", "drunk"])
    order = ["1", "2", "3", "4"]
    has = {sid: engine.has_action(state, kind="night", sid=sid, order=order) for sid in order}
    assert has == {"1": False, "2": True, "3": True, "4": True}  # the lone werewolf looks at a center card (ON-4.2)
    quiet = _state(["villager", "werewolf", "seer", "robber", "werewolf", "troublemaker", "drunk"], lone_wolf=False)
    assert engine.has_action(quiet, kind="night", sid="2", order=order) is False


def test_ON_6_and_ON_14_everyone_votes_and_only_the_doppelganger_copies():
    state = _state(["doppelganger", "werewolf", "seer", "villager", "werewolf", "robber", "drunk"])
    order = ["1", "2", "3", "4"]
    assert [engine.has_action(state, kind="day", sid=s, order=order) for s in order] == [True] * 4
    assert [engine.has_action(state, kind="doppelganger", sid=s, order=order) for s in order] == [
        True, False, False, False]
