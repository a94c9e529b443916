"""``gm_playtest --all-ready`` (:meth:`gm.core.playtest.policy.Policy.dispatch`): a bot that played a phase presses
"done"; one that missed it or sent its order late does not, so that phase waits for its deadline (issue 23's
``all_ready``). No HTTP: the bots' requests are recorded."""
from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor, wait
from types import SimpleNamespace

import pytest

from gm.core.playtest.client import Client, Tally
from gm.core.playtest.policy import Policy


class Recorded(Client):
    chances = {"miss": 0.0, "late": 0.0}

    def call(self, method, path, json=None):
        self.sent.append((method, path, json))
        return 200, {"closed": False}

    def play_phase(self, *, kind, ordinal, deadline, phase_id):
        if self.chance("miss") or self.chance("late"):
            return
        self.call("POST", "/api/games/<id>/orders/", {"phase": phase_id})


def bots(*chances):
    out = []
    for i, (miss, late) in enumerate(chances):
        bot = Recorded(base_url="http://x", game_id=1, index=i, token="t", rng=random.Random(i), tally=Tally())
        bot.chances, bot.seat_id, bot.sent = {"miss": miss, "late": late}, i + 1, []
        out.append(bot)
    return out


class Game:
    def __init__(self, seats):
        self.seats = SimpleNamespace(values_list=lambda *fields: [(s, True) for s in seats])


def dispatch(policy, table):
    phase = SimpleNamespace(kind="night", ordinal=2, pk=7, actors=None)
    with ThreadPoolExecutor(2) as pool:
        wait(policy.dispatch(pool, table, Game([b.seat_id for b in table]), phase, 0.0, random.Random(0)))


def test_all_ready_bots_that_played_press_done_and_the_others_do_not():
    played, missed, late = table = bots((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))
    policy = Policy()
    policy.all_ready = True
    dispatch(policy, table)
    done = ("POST", "/api/games/<id>/ready/", {"phase": 7, "done": True})
    assert played.sent[-1] == done and played.tally.done["done"] == 1
    assert done not in missed.sent and done not in late.sent


def test_without_all_ready_nobody_presses_done():
    table = bots((0.0, 0.0), (0.0, 0.0))
    dispatch(Policy(), table)
    assert all(path != "/api/games/<id>/ready/" for bot in table for _m, path, _j in bot.sent)
    assert all(bot.sent for bot in table)


def test_all_ready_is_refused_for_bots_with_their_own_dispatch():
    """Forum Mafia's bots dispatch their own way and would never press "done": a clear error, nothing started."""
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="--all-ready"):
        call_command("gm_playtest", "--game", "forum_mafia", "--all-ready")
