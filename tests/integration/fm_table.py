"""A seven-player forum Mafia table for the page tests (dashboard, spectator view): set up by the master's override
in Night 1, then played a night and a day on demand.

Ring: Alice (sheriff), Boris (mafia boss, one card), Harry (hero), Jo (joker), Eva (mafia advisor), Dmitri (mafia
killer), Clara (doctor); public roles ``Public<name>`` (custom). Night 1 (:func:`play_night`): Alice orders a tail
on Clara, then changes her order to a pistol on Boris (two versions); Harry marks Eva as the Mafia advisor. Boris
dies. Day 1 (:func:`play_day`): Alice, Harry, Jo and Clara vote to execute Eva; she dies.
"""
from __future__ import annotations

from datetime import timedelta

from gm.core import services
from gm.core.models import Phase

NAMES = ["Alice", "Boris", "Harry", "Jo", "Eva", "Dmitri", "Clara"]
ROLES = {"Alice": "sheriff", "Boris": "mafia_boss", "Harry": "hero", "Jo": "joker", "Eva": "mafia_advisor",
         "Dmitri": "mafia_killer", "Clara": "doctor"}
MAFIA = {"Boris", "Eva", "Dmitri"}


def build(master, make_user):
    """The game in Night 1 and ``{name: user}``."""
    from gm.modules.forum_mafia.services.overrides import game_setup_override

    users = {n: make_user(n.lower()) for n in NAMES}
    game = services.game_create(master=master, module="forum_mafia", title="Spectated", options={}, rng_seed=5)
    tails = ["tail", "tail", "tail"]
    hands = {"Alice": ["pistol", *tails], "Boris": ["tail"]}
    players = [{"user": users[n], "name": n, "public_role": {"custom": f"Public{n}"}, "secret_role": ROLES[n],
                "hand": hands.get(n, tails), "sleeve": [], "deck": ["coffee"] * 4,
                **({"colours": ["damage", "recon"]} if n == "Jo" else {})} for n in NAMES]
    game_setup_override(game=game, actor=master, players=players, start_kind="night", start_number=1)
    game.refresh_from_db()
    return game, users


def ids(game) -> dict[str, int]:
    return {s.display_name: s.pk for s in game.seats.all()}


def open_phase(game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def resolve(game, frozen) -> None:
    phase = open_phase(game)
    frozen.shift(timedelta(days=3))
    assert services.phase_resolve_due(phase_id=phase.pk) is not None


def night_orders(game, users) -> None:
    seat = ids(game)
    night = open_phase(game)
    services.order_submit(phase=night, user=users["Alice"],
                          payload={"plays": [{"card": "tail", "from": "hand", "target": seat["Clara"]}]})
    services.order_submit(phase=night, user=users["Alice"],  # version 2: the shot
                          payload={"plays": [{"card": "pistol", "from": "hand", "target": seat["Boris"]}]})
    services.order_submit(phase=night, user=users["Harry"], payload={"abilities": [
        {"ability": "hero", "mode": "mark", "target": seat["Eva"], "guess": "mafia_advisor"}]})


def play_night(game, users, frozen) -> None:
    night_orders(game, users)
    resolve(game, frozen)


def play_day(game, users, frozen) -> None:
    seat = ids(game)
    day = open_phase(game)
    assert (day.kind, day.number) == ("day", 1)
    for voter in ("Alice", "Harry", "Jo", "Clara"):
        services.order_submit(phase=day, user=users[voter],
                              payload={"vote": {"for": seat["Eva"], "punishment": "execution"}})
    resolve(game, frozen)
    game.refresh_from_db()
