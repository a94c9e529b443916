"""A whole forum Mafia game played by 10 bots over HTTP (``gm_playtest``'s runner) against a real gunicorn, Celery
worker and beat on the PostgreSQL test database and a per-session Redis queue, with deadlines of a few seconds
resolved by the worker: signups claiming public roles (FM-2), random valid decks (FM-4), random legal orders and
votes from the order-options API (FM-5, FM-7), and deliberate illegal requests that must be refused with a reason.

Run with PostgreSQL + Redis (skipped otherwise)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gm CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        bin/test tests/integration/test_playtest.py -s
"""
from __future__ import annotations

import pytest

from gm.core.playtest.client import reason
from gm.modules.forum_mafia.playtest.bots import choose_order
from gm.modules.forum_mafia.playtest.runner import play_game

from .worker_utils import playtest_stack, skip_reason

#: A seed whose game ends well within the phase cap (the deal and the bots' choices follow it; the bots' timing
#: does not, so the game differs a little from run to run).
SEED = 3
DEADLINE = 2.5


@pytest.fixture
def stack(tmp_path, settings, card_collection):
    """gunicorn + worker + beat on the test database, on a queue of this test's own."""
    reason_ = skip_reason()
    if reason_:
        pytest.skip(reason_)
    with playtest_stack(tmp_path, settings, "test") as stack:
        yield stack


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_ten_bots_play_a_whole_game_over_http_to_a_winner(stack):
    """FM-1.3, FM-2, FM-4.5, FM-5, FM-7, FM-10: ten bots play a game to its end over HTTP; the worker resolves
    every deadline exactly once (one claim, one ``core.phase_resolved`` and one ``core.trace`` entry per phase,
    contiguous ordinals), the game ends — someone wins, or it is drawn by FM-10.H1 when nothing alive can harm
    anyone — every deliberately illegal request is refused with a reason, and no request gets a server error."""
    report = play_game(base_url=stack.base_url, players=10, seed=SEED, deadline=DEADLINE, phase_cap=60,
                       resolve_timeout=30, log=print)
    print("\n".join(report.lines()))
    assert not report.failures, report.failures
    assert report.finished and (report.winners or report.draw), report.lines()[0]
    assert len(report.phases) >= 3
    assert [p.ordinal for p in report.phases] == list(range(1, len(report.phases) + 1))
    for phase in report.phases:
        assert phase.resolved_at is not None, phase.label
        assert (phase.claims, phase.resolved_entries, phase.trace_entries) == (1, 1, 1), phase
        assert phase.latency is not None and phase.latency >= 0, phase  # never before the deadline
    assert report.phases[0].kind == "deckbuilding" and report.phases[1].kind == "night"
    deliberate = {key: n for key, n in report.tally.refused.items() if key[0]}
    assert deliberate, "no bot sent an illegal request"
    assert all(400 <= status < 500 for (_d, _w, status, _c, _r) in deliberate), deliberate
    assert report.tally.without_reason() == 0
    assert report.tally.done["signup"] == 10 and report.tally.done["order"] > 0 and report.tally.done["vote"] > 0


def test_bots_choose_only_among_the_playable_cards():
    """FM-5.2: a bot's order plays only cards order-options marks playable, at most one non-free card from the
    Hand and one from the Sleeve, with targets among the offered ones."""
    import random

    options = {
        "cards": [
            {"uid": 1, "kind": "pistol", "from": "hand", "free": False, "price": 0, "target": "one",
             "needs_cards": False, "playable": True, "payers": []},
            {"uid": 2, "kind": "body_armour", "from": "hand", "free": False, "price": 0, "target": "one",
             "needs_cards": False, "playable": True, "payers": []},
            {"uid": 3, "kind": "bunker", "from": "hand", "free": False, "price": 0, "target": "none",
             "needs_cards": False, "playable": False, "payers": []},
            {"uid": 4, "kind": "tail", "from": "sleeve", "free": False, "price": 0, "target": "one",
             "needs_cards": False, "playable": True, "payers": []},
        ],
        "targets": [{"id": 10, "name": "A"}, {"id": 11, "name": "B"}],
        "dead_targets": [], "hand": [{"uid": 1, "kind": "pistol"}, {"uid": 2, "kind": "body_armour"},
                                     {"uid": 3, "kind": "bunker"}],
        "sleeve": [{"uid": 4, "kind": "tail", "can_pay": True}], "can_discard_two": False, "named_cards": [],
    }
    for seed in range(200):
        order = choose_order(options, "day", random.Random(seed))
        plays = order.get("plays", [])
        assert 3 not in [p["uid"] for p in plays]
        assert sum(p["from"] == "hand" for p in plays) <= 1 and sum(p["from"] == "sleeve" for p in plays) <= 1
        assert all(p["target"] in (10, 11) for p in plays)


def test_refusal_reasons_name_the_rule_or_the_message():
    """The summary groups refusals by the rule IDs their messages name, else by the message without its
    variable parts."""
    assert reason({"errors": {"plays.0.target": ["You can't target yourself (FM-5.5)."]}, "code": "invalid"}) \
        == "FM-5.5"
    assert reason({"errors": {"__all__": ["The deadline of Day 3 has passed (Nov. 24, 12:00)."]}, "code": "late"}) \
        == "The deadline of Day … has passed …."
    assert reason({"code": "invalid"}) == ""


def test_bots_play_a_playable_damage_card_first():
    """FM-5.2: a bot holding a playable damage card always plays it (a legal play, on an offered target), so games
    reach an end instead of the phase cap."""
    import random

    options = {
        "cards": [
            {"uid": 1, "kind": "pistol", "from": "hand", "free": False, "price": 0, "target": "one",
             "needs_cards": False, "playable": True, "payers": []},
            {"uid": 2, "kind": "body_armour", "from": "hand", "free": False, "price": 0, "target": "one",
             "needs_cards": False, "playable": True, "payers": []},
        ],
        "targets": [{"id": 10, "name": "A"}, {"id": 11, "name": "B"}],
        "dead_targets": [], "hand": [{"uid": 1, "kind": "pistol"}, {"uid": 2, "kind": "body_armour"}],
        "sleeve": [], "can_discard_two": False, "named_cards": [],
    }
    weapons = frozenset({"pistol"})
    for seed in range(200):
        plays = choose_order(options, "night", random.Random(seed), weapons)["plays"]
        assert [(p["uid"], p["target"] in (10, 11)) for p in plays] == [(1, True)], plays


def test_bots_vote_mostly_with_the_public_leader_and_for_execution():
    """FM-7.1–7.2: a bot reads the public tally and mostly joins its strongest candidate it may vote for (never
    itself: the tally's leader is the bot, so it joins the runner-up), rarely votes for peace, mostly asks for
    execution — every vote among the offered targets or peace."""
    import random
    from collections import Counter

    from gm.modules.forum_mafia.playtest.bots import Bot, Tally

    options = {"phase": 7, "targets": [{"id": 10, "name": "A"}, {"id": 11, "name": "B"}, {"id": 12, "name": "C"}]}
    veche = {"phase": 7, "open": True, "tally": {"candidates": [
        {"player": "Me", "strength": 3.0, "voters": []}, {"player": "B", "strength": 2.0, "voters": []},
        {"player": "A", "strength": 1.0, "voters": []}]}}
    votes: list[dict] = []

    class FakeBot(Bot):
        def call(self, method, path, json=None):
            if method == "GET":
                return 200, veche
            votes.append(json)
            return 200, {}

    bot = FakeBot(base_url="http://x", game_id=1, index=0, token="t", rng=random.Random(5), tally=Tally())
    for _ in range(400):
        bot._vote(options)
    assert {v["phase"] for v in votes} == {7}
    targets = Counter(v["for"] for v in votes)
    punishments = Counter(v["punishment"] for v in votes)
    assert set(targets) <= {10, 11, 12, "peace"}
    assert targets[11] > 0.7 * len(votes), targets  # the runner-up B: bandwagon plus its share of the random votes
    assert 0 < targets["peace"] < 0.1 * len(votes), targets
    assert punishments["execution"] > 0.8 * len(votes), punishments
    veche["open"] = False  # a resolved day's tally is no guide: random targets
    votes.clear()
    for _ in range(300):
        bot._vote(options)
    assert min(Counter(v["for"] for v in votes)[t] for t in (10, 11, 12)) > 50


def _hand_options(*cards: tuple[str, int, bool]) -> dict:
    """``order-options`` for a seat holding ``cards`` in its Hand — each ``(slug, price, playable)``, uids 1, 2, …
    in order — with one other character left to target and no Sleeve."""
    targets = {"stash": "none"}
    listed = [{"uid": i, "kind": kind, "from": "hand", "free": False, "price": price,
               "target": targets.get(kind, "one"), "needs_cards": kind == "stash", "playable": playable,
               "payers": []} for i, (kind, price, playable) in enumerate(cards, start=1)]
    return {"cards": listed, "targets": [{"id": 10, "name": "A"}], "dead_targets": [],
            "hand": [{"uid": c["uid"], "kind": c["kind"]} for c in listed], "sleeve": [], "can_discard_two": True,
            "named_cards": []}


def test_bots_keep_a_small_hand_and_dig_for_damage_in_the_endgame():
    """FM-5.4, FM-5.3: a bot never plays a card moving Hand cards to the Sleeve (not replaced) from a Hand below
    ``MOVE_MIN_HAND``; with one other character left and no playable damage card it usually discards two at night,
    non-damage cards first."""
    import random

    from gm.modules.forum_mafia.playtest.bots import MOVE_MIN_HAND

    weapons = frozenset()
    small = _hand_options(("stash", 0, True), ("tail", 0, True), ("first_aid", 0, True))
    assert len(small["hand"]) < MOVE_MIN_HAND
    discards = 0
    for seed in range(300):
        day = choose_order(small, "day", random.Random(seed), weapons)
        assert 1 not in [p["uid"] for p in day.get("plays", [])], day
        night = choose_order(small, "night", random.Random(seed), weapons)
        if "discard" in night:
            discards += 1
        else:
            assert 1 not in [p["uid"] for p in night.get("plays", [])], night
    assert discards > 200, discards


def test_bots_stash_to_pay_for_a_damage_card_they_cannot_afford():
    """FM-5.7, FM-10.H1: a damage card whose price the Sleeve can't pay is paid for as a player would — a ``stash``
    moves a spare Hand card into the Sleeve, whatever the Hand's size — and the damage card is kept."""
    import random

    weapons = frozenset({"sniper_rifle"})
    small = _hand_options(("stash", 0, True), ("sniper_rifle", 1, False), ("first_aid", 0, True))
    for seed in range(100):
        for kind in ("day", "night"):
            order = choose_order(small, kind, random.Random(seed), weapons)
            assert order == {"plays": [{"card": "stash", "from": "hand", "uid": 1, "cards": [3]}]}, order
    # Only the rifle to keep: nothing spare to stash, so the Hand is cycled at night as before.
    alone = _hand_options(("stash", 0, True), ("sniper_rifle", 1, False))
    nights = [choose_order(alone, "night", random.Random(seed), weapons) for seed in range(100)]
    assert sum("discard" in n for n in nights) > 50
