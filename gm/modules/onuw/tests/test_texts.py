"""ONUW secrets in words (the ``seat_facts`` and ``order_lines`` hooks): the master reads every seat's dealt card,
what it learned and every order as sentences during the game (seats table, console); the owner reads his own order;
other players, spectators and visitors read none of it before the end (ON-3, ON-13); after the game every viewer
reads the full reveal in words — dealt and final card, team and result of the final card, every order version (ON-5,
ON-9–ON-12)."""
from __future__ import annotations

import pytest

from gm.modules.onuw.module import MODULE
from gm.modules.onuw.tests.test_shell import NAMES, page, post_order, resolve, seat, start, viewers

pytestmark = pytest.mark.django_db

SEER_ORDER = "Look at center card 1 and center card 3."
ROBBER_ORDER = "Swap cards with Dima."


def test_ON_3_master_reads_orders_and_seats_in_words_others_read_nothing(master, players, spectator):
    game = start(master, players)  # Alice seer, Boris lone wolf, Clara robber, Dima troublemaker
    post_order(players[0], game, {"look": "center1+center3"})
    post_order(players[2], game, {"swap_with": seat(game, "Dima").pk})
    for kind, user in viewers(game, master, players, spectator).items():
        html = page(user, game)
        assert (SEER_ORDER in html) == (kind in ("master", "owner")), kind  # the owner: his own order
        assert (ROBBER_ORDER in html) == (kind == "master"), kind
        assert ("Dealt card: Seer" in html) == (kind == "master"), kind  # the seats table's secret column
        assert ("Dealt card: Werewolf" in html) == (kind == "master"), kind
        assert '{"look"' not in html and "'look'" not in html, kind  # no raw JSON anywhere
    assert "Your order:</strong> " + SEER_ORDER in page(players[0], game)
    resolve(game)
    learned = "Learned: You saw: center card 1: Villager, center card 3: Drunk."
    for kind, user in viewers(game, master, players, spectator).items():
        html = page(user, game)
        assert (learned in html) == (kind == "master"), kind
        assert ("Learned: You took Dima's card and looked at it: Troublemaker" in html) == (kind == "master"), kind
        assert ("Card at the end of the night" in html) is False, kind  # nobody's final card before the end (ON-5)


def test_ON_13_full_reveal_in_words_for_every_viewer_after_the_game(master, players, spectator):
    game = start(master, players)
    ids = {name: seat(game, name).pk for name in NAMES}
    post_order(players[0], game, {"look": "center1+center3"})
    post_order(players[2], game, {"swap_with": ids["Boris"]})  # Clara takes the werewolf, Boris becomes robber
    post_order(players[3], game, {"swap": [ids["Alice"], ids["Boris"]]})
    resolve(game)
    for voter, target in (("Alice", "Clara"), ("Boris", "Clara"), ("Clara", "Boris"), ("Dima", "Clara")):
        post_order(players[NAMES.index(voter)], game, {"vote": ids[target]})
    post_order(players[1], game, {"vote": ids["Dima"]})  # a second version
    resolve(game)
    assert game.is_over
    for kind, user in {**viewers(game, master, players, spectator), "dead": players[2]}.items():
        html = page(user, game)
        reveal = html[html.index('id="reveal"'):]
        clara = reveal[reveal.index(f'id="reveal-seat-{ids["Clara"]}"'):]
        clara = clara[:clara.index("</div>")]
        assert "<dt>Card</dt><dd>dealt Robber → ended Werewolf</dd>" in clara, kind
        assert "<dt>Learned</dt><dd>You took Boris's card and looked at it: Werewolf. You are now Werewolf.</dd>" \
            in clara, kind
        assert "<dt>Team</dt><dd>werewolves</dd>" in clara and "<dt>Result</dt><dd>lost</dd>" in clara, kind
        for line in (SEER_ORDER, "Swap cards with Boris.", "Swap the cards of Alice and Boris.",
                     "Vote for Clara.", "Vote for Dima."):
            assert line in reveal, (kind, line)
        assert "version 2" in reveal, kind


def test_ON_4_every_order_shape_in_words():
    names = {1: "Alice", 2: "Boris", 3: "Clara"}

    def lines(payload):
        return MODULE.order_lines(payload=payload, seat_data={}, seat_names=names)

    assert lines({"copy": 2}) == ["Copy Boris's card."]
    assert lines({"look": [3]}) == ["Look at Clara's card."]
    assert lines({"look": ["center2"]}) == ["Look at center card 2."]
    assert lines({"look": ["center1", "center3"]}) == [SEER_ORDER]
    assert lines({"swap_with": 1}) == ["Swap cards with Alice."]
    assert lines({"swap": [1, 3]}) == ["Swap the cards of Alice and Clara."]
    assert lines({"take": "center3"}) == ["Take center card 3."]
    assert lines({"vote": 2}) == ["Vote for Boris."]
    facts = dict(MODULE.seat_facts({"card": "doppelganger", "copy": "seer", "final": "doppelganger",
                                    "final_as": "seer", "team": "village", "won": True}, secret=True))
    assert facts == {"Card": "dealt Doppelganger (Seer) → ended Doppelganger (Seer)", "Team": "village",
                     "Result": "won"}
    assert MODULE.seat_facts({"card": "doppelganger", "copy": "seer"}, secret=True) == [
        ("Dealt card", "Doppelganger (Seer)")]  # while the game runs: the dealt card only (ON-5)
    assert MODULE.seat_facts({"card": "seer"}, secret=False) == []  # every card is secret until the end (ON-3)
