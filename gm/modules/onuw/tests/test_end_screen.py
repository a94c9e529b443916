"""The ONUW end screen tells each seat the card it ended the night with (ON-5): a player's team and result follow his
final card, never the card he was dealt (ON-9–ON-12). For each kind of swap — robber (ON-4.6), troublemaker
(ON-4.7), drunk (ON-4.8), doppelganger-robber (ON-4.1) — the player's own "you won/lost" line, the spectator's and
the master's reveal and the Atom feed name the final card, the dealt card beside it ("dealt Werewolf → ended
Robber"), and the team and result of the final card."""
from __future__ import annotations

import html as htmllib
import re

import pytest

from gm.core.models import Game
from gm.modules.onuw.tests.test_shell import NAMES, post_order, resolve, seat, start
from tests.helpers import client_for, page_part

pytestmark = pytest.mark.django_db

#: swap kind → (deal: seats in ring order then the center, the doppelganger's copy, night orders, day votes, the
#: seat whose card moved, what it reads at the end: cards, team, result, and the result its dealt card would give).
SWAPS = {
    "robber": (["robber", "werewolf", "villager", "seer", "villager", "troublemaker", "drunk"], None,
               {"Alice": {"swap_with": "Boris"}}, {"Alice": "Clara", "Boris": "Clara", "Clara": "Alice",
                                                   "Dima": "Clara"},
               "Boris", ("dealt Werewolf → ended Robber", "village", "lost")),
    "troublemaker": (["troublemaker", "werewolf", "villager", "seer", "villager", "robber", "drunk"], None,
                     {"Alice": {"swap": ["Boris", "Clara"]}}, {"Alice": "Dima", "Boris": "Dima", "Clara": "Dima",
                                                              "Dima": "Alice"},
                     "Boris", ("dealt Werewolf → ended Villager", "village", "lost")),
    "drunk": (["drunk", "seer", "villager", "villager", "werewolf", "robber", "troublemaker"], None,
              {"Alice": {"take": "center1"}}, {"Alice": "Boris", "Boris": "Alice", "Clara": "Boris",
                                               "Dima": "Boris"},
              "Alice", ("dealt Drunk → ended Werewolf", "werewolves", "won")),
    "doppelganger-robber": (["doppelganger", "werewolf", "robber", "villager", "villager", "seer", "troublemaker"],
                            "Clara", {"Alice": {"swap_with": "Boris"}},
                            {"Alice": "Dima", "Boris": "Dima", "Clara": "Dima", "Dima": "Alice"},
                            "Boris", ("dealt Werewolf → ended Doppelganger (Robber)", "village", "lost")),
}


def _ids(payload: dict, ids: dict[str, int]) -> dict:
    def ref(v):
        return ids.get(v, v) if isinstance(v, str) else v

    return {k: [ref(v) for v in value] if isinstance(value, list) else ref(value) for k, value in payload.items()}


def play(master, players, kind: str) -> tuple[Game, dict[str, int]]:
    deal, copy, night, votes, _moved, _expected = SWAPS[kind]
    game = start(master, players, deal=deal)
    ids = {name: seat(game, name).pk for name in NAMES}
    user = dict(zip(NAMES, players, strict=True))
    if copy:
        post_order(user["Alice"], game, {"copy": ids[copy]})
        resolve(game)
    for name, payload in night.items():
        post_order(user[name], game, _ids(payload, ids))
    resolve(game)
    for voter, target in votes.items():
        post_order(user[voter], game, {"vote": ids[target]})
    resolve(game)
    assert game.status == Game.Status.FINISHED
    return game, ids


def text_of(html: str) -> str:
    """The words of an HTML fragment, tags dropped and spaces collapsed."""
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def page(user, game, language="en") -> str:
    response = client_for(user, language=language).get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def seats_row(html: str, seat_id: int) -> str:
    match = re.search(rf'<tr id="seat-{seat_id}".*?</tr>', html, re.S)
    return text_of(match.group(0)) if match else ""


@pytest.mark.parametrize("kind", SWAPS)
def test_ON_5_end_screen_reads_the_final_card_for_every_swap_kind(master, players, spectator, kind):
    game, ids = play(master, players, kind)
    _deal, _copy, _night, _votes, moved, (cards, team, result) = SWAPS[kind]
    owner = dict(zip(NAMES, players, strict=True))[moved]
    team_name = {"village": "village", "werewolves": "werewolves"}[team]
    you = "You won." if result == "won" else "You lost."
    # the player himself: his result and final card, the dealt card beside it — not "Your card: <dealt>"
    mine = page(owner, game)
    verdict = text_of(page_part(mine, "onuw-result"))
    assert you in verdict and cards in verdict and f"Team: {team_name}" in verdict, verdict
    dealt = cards.split(" → ")[0].removeprefix("dealt ")
    assert f"Your card: {dealt}" not in text_of(page_part(mine, "onuw-panel")), kind
    # the spectator's and the master's reveal, and the master's seats table
    for viewer in (spectator, master, None):
        reveal = text_of(page_part(page(viewer, game), f"reveal-seat-{ids[moved]}"))
        assert f"Card {cards}" in reveal and f"Team {team_name}" in reveal and f"Result {result}" in reveal, \
            (viewer, reveal)
    row = seats_row(page(master, game), ids[moved])
    assert f"Card: {cards}" in row and f"Team: {team_name}" in row and f"Result: {result}" in row, row
    # the "Every card" table every viewer reads: dealt, final, team, result
    table = text_of(page_part(page(spectator, game), "onuw-cards"))
    final = cards.split(" → ended ")[1]
    assert f"{moved} {dealt} {final} {team_name} {result}" in table, table
    # the Atom feed: the same words in the public reveal line
    feed = htmllib.unescape(client_for(None).get(f"/games/{game.pk}/feed/").content.decode())
    assert f"{moved}: {cards} ({team_name}, {result})" in feed, kind
    # a line once written for one seat names that seat, so "Your card: <dealt>" is not read as anyone's result
    assert f"<title>[only {moved}] Your card: {dealt.split(' (')[0]}.</title>" in feed, kind
    assert re.search(r"<title>Your card: ", feed) is None, kind


def test_ON_5_end_screen_in_russian(master, players):
    game, _ids = play(master, players, "robber")
    verdict = text_of(page_part(page(players[1], game, language="ru"), "onuw-result"))
    assert "Вы проиграли." in verdict and "при раздаче: Оборотень → к концу ночи: Грабитель" in verdict, verdict
    assert "Оборотень" not in verdict.replace("при раздаче: Оборотень", ""), verdict
