"""A forum Mafia Night 1 where every player plays two cards — a Hand card and a Sleeve card, a mix of targeted
damage, armour and recon — for the resolution integration tests and the benchmarks (``manage.py gm_bench``).

Pure at import (no Django): :func:`players` and :func:`orders` describe the table and the orders; :func:`engine_night`
builds the engine's own input (for the pure benchmark); :func:`db_night` sets a real game up through the master's
setup override (``override_services.game_setup_override``) and :func:`submit_orders` sends the orders through
``services.order_submit``.

With N players, player ``i`` plays from his Hand (``i % 3``) a ``pistol`` on ``i+1``, a ``surveillance_camera`` on
``i+1`` or a ``body_armour`` on ``i+1``, and from his Sleeve a ``body_armour`` on ``i+2``, a ``pistol`` on ``i+2``
or a ``tail`` on ``i+3``. Nobody takes more than 4 damage and everybody holds 6 cards, so nobody dies and Day 1
follows.
"""
from __future__ import annotations

import random
from typing import Any

from ..engine import opening
from ..engine.orders import validate_order

HAND = ["pistol", "surveillance_camera", "body_armour", "advice", "witness", "tail"]
DECK = ["coffee", "pistol", "bunker", "witness", "advice", "tail", "hack", "bluff", "reserve", "dossier"]
HAND_PLAY = ["pistol", "surveillance_camera", "body_armour"]
SLEEVE_PLAY = [("body_armour", 2), ("pistol", 2), ("tail", 3)]


def roles(n: int) -> list[str]:
    """A legal FM-3.4 composition for ``n`` players (fixed seed)."""

    return opening.composition(n, hero=False, rng=random.Random(n))


def players(n: int) -> list[dict[str, Any]]:
    """The player descriptions of ``override_services.game_setup_override`` (without ``user``)."""
    out = []
    for i, secret in enumerate(roles(n)):
        sleeve_card = SLEEVE_PLAY[i % 3][0]
        out.append({
            "name": f"P{i + 1}", "public_role": {"custom": f"Baker {i + 1}"}, "secret_role": secret,
            "colours": ["damage", "recon"] if secret == "joker" else None,
            "hand": list(HAND), "sleeve": [sleeve_card, "bluff"], "deck": list(DECK),
        })
    for p in out:
        if p["colours"] is None:
            del p["colours"]
    return out


def orders(seat_ids: list[int]) -> dict[int, dict]:
    """Seat id → order payload (seats in ring order)."""
    n = len(seat_ids)
    out = {}
    for i, seat_id in enumerate(seat_ids):
        sleeve_card, step = SLEEVE_PLAY[i % 3]
        out[seat_id] = {"plays": [
            {"card": HAND_PLAY[i % 3], "from": "hand", "target": seat_ids[(i + 1) % n]},
            {"card": sleeve_card, "from": "sleeve", "target": seat_ids[(i + step) % n]},
        ]}
    return out


def engine_night(n: int):
    """``(state, phase, seats, orders)`` for :func:`gm.modules.forum_mafia.resolution.resolve` — the same table as
    :func:`db_night`, built without a database (orders already validated)."""
    from cards.collection_data import default_collection
    from gm.core.engine import PhaseInfo, SeatInfo

    from ..engine import table

    col = default_collection()
    state = {"collection": col.snapshot(), "collection_version": col.version, "fm": {}, "hero": False}
    seats = []
    for i, p in enumerate(players(n)):
        data = table.seat_data(public_role=p["public_role"], secret_role=p["secret_role"], hand=p["hand"],
                               sleeve=p["sleeve"], deck=p["deck"], collection=col, joker_colours=p.get("colours"))
        seats.append(SeatInfo(id=1000 + i, name=p["name"], position=i, data=data))
    phase = PhaseInfo("night", 1, 2)
    given = orders([s.id for s in seats])
    clean = {sid: validate_order(state=state, phase=phase, seat=next(s for s in seats if s.id == sid),
                                            seats=seats, payload=payload) for sid, payload in given.items()}
    return state, phase, seats, clean


def db_night(master, users, *, title: str = "FM night"):
    """A forum Mafia game with ``len(users)`` seats in Night 1 (the master's setup override); returns
    ``(game, phase)``."""
    from gm.core import services

    from ..services.overrides import game_setup_override

    game = services.game_create(master=master, module="forum_mafia", title=title, rng_seed=len(users))
    described = [{**p, "user": u} for p, u in zip(players(len(users)), users, strict=True)]
    phase = game_setup_override(game=game, actor=master, players=described, start_kind="night", start_number=1)
    game.refresh_from_db()
    return game, phase


def submit_orders(game, phase) -> dict[int, Any]:
    """Every player's order through ``services.order_submit``; returns seat id → the stored order."""
    from gm.core import services

    seats = list(game.seats.select_related("user").order_by("position"))
    given = orders([s.pk for s in seats])
    return {s.pk: services.order_submit(phase=phase, user=s.user, payload=given[s.pk]) for s in seats}
