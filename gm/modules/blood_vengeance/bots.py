"""Blood Vengeance's playtest bots (``BloodVengeanceModule.bot_policy``, ``manage.py gm_playtest --game
blood_vengeance``): each bot joins over the core's join API and, in every phase, reads what
``GET /api/games/<id>/order-options/`` offers — a night vote, a verdict, the arbiter's victim, or one choice per
light ability (its card's and the gathering's) — and sends a legal order to the orders API.

To exercise the refusals a bot sometimes misbehaves on purpose (an unknown field, a vote for itself, an ability its
card lacks) and checks that the site refuses it; it sometimes changes its mind and sometimes misses a deadline (a
missed vote is an abstention; a missed ability follows ``missed_action``, BV-14.3).
"""
from __future__ import annotations

import random
from typing import Any

from gm.core.playtest.client import ChoiceBot
from gm.core.playtest.policy import Policy

CHANCES = {"miss": 0.1, "late": 0.03, "illegal": 0.2, "change_mind": 0.2}


class BloodVengeanceBot(ChoiceBot):
    """One Blood Vengeance player choosing among the offered orders."""

    chances = CHANCES

    def compose(self, options: dict) -> dict:
        """A whole order from the offered choices (:func:`compose_order`)."""
        return compose_order(options, self.rng)

    def changes_mind(self, options: dict) -> bool:
        return self.chance("change_mind")

    def illegal(self, options: dict) -> None:
        """One deliberately illegal order."""
        menu: list[tuple[str, Any]] = [("order: unknown field", {"nonsense": 1})]
        if options.get("kind") == "light":
            menu.append(("order: an ability the card lacks", {"actions": [{"role": "vampire"}]}))
        elif self.seat_id:
            menu.append(("order: vote for itself", {"vote": self.seat_id}))
        what, body = self.rng.choice(menu)
        self.expect_refusal(what, "POST", "/api/games/<id>/orders/", {"phase": options["phase"], "payload": body})


def compose_order(options: dict, rng: random.Random) -> dict:
    """A whole order from the offered choices (the ``choices`` and ``groups`` of the order options): one choice per
    group — a light order combines one action per ability; a night order one vote, and the variant's extra ballots
    (``heir``, ``delegate``, ``elect``: only now and then, with the ``change_mind`` chance). Also used by the balance
    report's bots (:mod:`.balance`)."""
    by_key = {c["key"]: c["payload"] for c in options["choices"]}
    groups = options.get("groups") or {}
    if options.get("kind") == "light":
        actions = []
        for keys in groups.values():
            actions += by_key[rng.choice(keys)]["actions"]
        return {"actions": actions}
    payload: dict[str, Any] = {}
    for group, keys in groups.items():
        if group in ("heir", "delegate", "elect") and not rng.random() < CHANCES["change_mind"]:
            continue
        payload.update(by_key[rng.choice(keys)])
    return payload


class BloodVengeancePolicy(Policy):
    """Blood Vengeance with the first-game set for the table (BV-2.1, BV-2.8; a werewolf from 10 players)."""

    bot_class = BloodVengeanceBot
    min_players = 6
    max_players = 20
    default_players = 8
    death_kinds = ("bv.executed", "bv.nightfall", "bv.removed")

    def create_game(self, *, master: Any, title: str, seed: int, deadline: float, players: int) -> Any:
        from gm.core import services

        durations = {k: deadline for k in ("night", "defence", "verdict", "arbiter", "light")}
        options = {"preset": "first_game", "werewolf": players >= 10}
        game = services.game_create(master=master, module="blood_vengeance", title=title, rng_seed=seed,
                                    options=options, durations=durations)
        services.game_open_signup(game=game, actor=master)
        return game

    def death_name(self, data: dict) -> str:
        """The dead of a death line (its ``names`` carry the seats' names); ``""`` for a nightfall nobody died at
        (BV-7: the light time may kill nobody)."""
        names = data.get("names") or {}
        seats = data.get("seats") or ([data["seat"]] if "seat" in data else [])
        return ", ".join(str(names.get(str(s), s)) for s in seats)
