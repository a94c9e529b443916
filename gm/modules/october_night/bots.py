"""October Night's playtest bots (``OctoberNightModule.bot_policy``, ``manage.py gm_playtest --game october_night``):
each bot joins over the core's join API and in every phase picks one of the choices
``GET /api/games/<id>/order-options/`` offers (an action, a contact line, the deadly fight) and sends it.

To exercise the refusals a bot sometimes sends an illegal order first (an unknown action, itself as the target) and
checks that the site refuses it; it sometimes misses a deadline (no action, OC-11.4; the contact is played ``auto``).
"""
from __future__ import annotations

from typing import Any

from gm.core.playtest.client import ChoiceBot
from gm.core.playtest.policy import Policy

CHANCES = {"miss": 0.1, "late": 0.03, "illegal": 0.2, "change_mind": 0.2}


class OctoberNightBot(ChoiceBot):
    """One October Night player choosing among the offered orders."""

    chances = CHANCES

    def changes_mind(self, options: dict) -> bool:
        return False  # an October Night bot keeps its first action

    def illegal(self, options: dict) -> None:
        """One deliberately illegal order."""
        menu: list[tuple[str, Any]] = [("order: unknown action", {"action": {"kind": "dance"}})]
        if self.seat_id:
            menu.append(("order: self target", {"action": {"kind": "heal", "target": self.seat_id}}))
        what, body = self.rng.choice(menu)
        self.expect_refusal(what, "POST", "/api/games/<id>/orders/", {"phase": options["phase"], "payload": body})


class OctoberNightPolicy(Policy):
    """October Night for 3–5 bots; every phase lasts ``deadline`` seconds."""

    bot_class = OctoberNightBot
    min_players = 3
    max_players = 5
    default_players = 4
    death_kinds = ("oc.out",)
    #: OC-3.1, OC-11.1: a whole game is 5 weeks × 7 days × (action + contact) = 70 phases, then the ritual; a game
    #: that runs to the end needs 71, more than the core's default cap of 60 (why the bots used to "run long").
    phase_cap = 72

    def create_game(self, *, master: Any, title: str, seed: int, deadline: float, players: int) -> Any:
        from gm.core import services

        game = services.game_create(master=master, module="october_night", title=title, rng_seed=seed,
                                    durations={"action": deadline, "contact": deadline, "ritual": deadline})
        services.game_open_signup(game=game, actor=master)
        return game

    def death_name(self, data: dict) -> str:
        """The player of an ``oc.out`` entry."""
        return str(data.get("player", "?"))
