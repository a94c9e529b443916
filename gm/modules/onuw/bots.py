"""ONUW's playtest bots (``OnuwModule.bot_policy``, ``manage.py gm_playtest --game onuw``): each bot joins over the
core's join API, and in every phase picks one of the choices ``GET /api/games/<id>/order-options/`` offers (the
doppelganger's copy, the night action of its role, the day vote) and sends it to the orders API.

To exercise the refusals a bot sometimes misbehaves on purpose — an illegal order first (an unknown field, itself as
the target, a center card that does not exist), an order after the deadline — and checks that the site refuses it
with a reason; it sometimes changes its mind and sometimes misses a deadline (a missed night does nothing, ON-4; a
missed vote is no vote, ON-6).
"""
from __future__ import annotations

from typing import Any

from gm.core.playtest.client import ChoiceBot
from gm.core.playtest.policy import Policy

#: The probabilities of the bots' misbehaviour (per bot and phase).
CHANCES = {
    "miss": 0.1,  # send nothing this phase
    "late": 0.05,  # send the order after the deadline
    "illegal": 0.25,  # send an illegal order first
    "change_mind": 0.3,  # send another choice later in the phase
}


class OnuwBot(ChoiceBot):
    """One ONUW player choosing among the offered orders."""

    chances = CHANCES

    def illegal(self, options: dict) -> None:
        """One deliberately illegal order, made from a legal one."""
        payload = dict(self.rng.choice(options["choices"])["payload"])
        key = next(iter(payload))
        menu: list[tuple[str, Any]] = [("order: unknown field", {**payload, "extra": 1})]
        if key in ("vote", "swap_with", "copy") and self.seat_id:
            menu.append(("order: self target", {key: self.seat_id}))
        if key in ("take", "look"):
            menu.append(("order: no such center card", {key: "center9" if key == "take" else ["center9"]}))
        what, body = self.rng.choice(menu)
        self.expect_refusal(what, "POST", "/api/games/<id>/orders/", {"phase": options["phase"], "payload": body})


class OnuwPolicy(Policy):
    """ONUW with the recommended roles for the table (ON-2); every phase lasts ``deadline`` seconds."""

    bot_class = OnuwBot
    min_players = 3
    max_players = 10
    default_players = 5
    death_kinds = ("onuw.died", "onuw.hunter_shot")

    def create_game(self, *, master: Any, title: str, seed: int, deadline: float, players: int) -> Any:
        from gm.core import services

        game = services.game_create(master=master, module="onuw", title=title, rng_seed=seed,
                                    durations={"doppelganger": deadline, "night": deadline, "day": deadline})
        services.game_open_signup(game=game, actor=master)
        return game

    def death_name(self, data: dict) -> str:
        """The dead player of an ``onuw.died`` entry (its ``names`` carry the seat's name)."""
        return str((data.get("names") or {}).get(str(data.get("seat")), "?"))
