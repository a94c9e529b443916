"""Chat rooms as players meet them (issue 17, item 14): the thread's composer explains the proposal syntax (FM-9.3,
FM-8), and once the day is over a recorded proposal says whether its room opened or why it lapsed; the rooms list says
why a room is read-only. The table of ``test_rooms_shell`` (Day 1)."""
from __future__ import annotations

import re

import pytest

from gm.core.engine import PhaseInfo, SeatInfo
from gm.modules.forum_mafia.engine import rooms
from gm.modules.forum_mafia.tests.test_rooms_shell import _note, english, table  # noqa: F401 - fixtures
from tests.helpers import client_for, page_part

pytestmark = pytest.mark.django_db


def test_FM_9_3_the_composer_explains_the_room_syntax(table):  # noqa: F811 - fixture imported above
    t = table
    html = t.client("Anna").get(t.game.get_absolute_url()).content.decode()
    helptext = page_part(html, "thread")
    assert '<details class="comment-help" id="comment-help"><summary>How to propose a chat room</summary>' in helptext
    assert "“room: Name, Name”" in helptext  # the keyword of the reader's language (both are read)
    assert 'href="/rules/forum-mafia/#FM-9.3">FM-9.3</a>' in helptext
    assert "conspiracy: Name" not in helptext  # only the conspirator is told about his room
    assert "conspiracy: Name" in page_part(t.client("Dmitri").get(t.game.get_absolute_url()).content.decode(),
                                           "thread")
    ru = page_part(client_for(t.users["Anna"], language="ru").get(t.game.get_absolute_url()).content.decode(),
                   "thread")
    assert "<summary>Как предложить комнату</summary>" in ru and "«комната: Имя, Имя»" in ru
    for who in ("master", "spectator", "Ivan"):  # no composer help where there are no proposals to write
        assert "comment-help" not in t.client(who).get(t.game.get_absolute_url()).content.decode()


def test_FM_9_3_a_lapsed_proposal_says_why_and_a_formed_one_says_it_opened(table):  # noqa: F811
    t = table
    trio = [t.post("Anna", "room: Boris, Clara"), t.post("Boris", "room: Anna, Clara"),
            t.post("Clara", "room: Anna, Boris")]
    lonely = t.post("Gleb", "room: Hanna, Anna")  # neither Hanna nor Anna proposes this set
    pair = t.post("Eva", "room: Anna")  # the manager's pair: Anna agrees, but the trio comes first in ring order
    t.post("Anna", "room: Eva")
    conspiracy = t.post("Dmitri", "заговор: Fyodor, Anna")
    assert "recorded in the day's order" in _note(t, lonely) and "did not open" not in _note(t, lonely)
    t.resolve()
    assert _note(t, trio[0]).endswith("The room opened at the end of Day 1.")
    assert _note(t, conspiracy).endswith("The room opened at the end of Day 1.")
    assert _note(t, lonely).endswith("This room did not open at the end of Day 1: Anna, Hanna did not propose the "
                                     "same members (FM-9.3: every member proposes it).")
    assert _note(t, pair).endswith("This room did not open at the end of Day 1: Anna had joined another room of the "
                                   "day first (one agreed room a day, taken in ring order).")
    # on the page, to the author, with the rule linked
    html = t.client("Gleb").get(t.game.get_absolute_url()).content.decode()
    assert re.search(r'<p class="post-note muted">This room did not open at the end of Day 1: Anna, Hanna did not '
                     r'propose the same members \(<a class="rule-link" href="/rules/forum-mafia/#FM-9.3">', html)
    assert "did not open" not in t.client("Hanna").get(t.game.get_absolute_url()).content.decode()  # not his post


def test_FM_9_3_lapse_reasons_pure():
    seats = [SeatInfo(i, f"S{i}", i, alive=True, data={"public_role": "conspirator" if i == 4 else "x"})
             for i in range(6)]
    day = PhaseInfo(kind="day", number=1, ordinal=2)
    proposals = {0: [{"members": [0, 1, 2], "conspiracy": False}], 1: [{"members": [0, 1, 2], "conspiracy": False}],
                 2: [{"members": [0, 1, 2], "conspiracy": False}], 3: [{"members": [1, 3, 5], "conspiracy": False}],
                 4: [{"members": [4, 5], "conspiracy": True}]}
    alive = {s.id: s.id != 5 for s in seats}  # S5 dies during the day
    formed = {r["slug"]: r["members"] for r in rooms.form_rooms(seats=seats, proposals=proposals, alive=alive,
                                                                  phase=day)}
    assert list(formed.values()) == [[0, 1, 2]]

    def why(members, proposer, conspiracy=False):
        return rooms.lapse_reason(members, conspiracy=conspiracy, proposer=proposer, seats=seats,
                                  proposals=proposals, alive=alive, formed=formed)

    assert why([0, 1, 2], 0) is None
    assert why([1, 3, 5], 3) == ("died", {"players": [5]})
    assert why([4, 5], 4, conspiracy=True) == ("too_few", {"players": [5]})
    alive[4] = False
    assert why([4, 5], 4, conspiracy=True) == ("conspirator_dead", {"players": [4]})
    alive[5] = True
    assert why([1, 3, 5], 3) == ("not_proposed", {"players": [1, 5]})


def test_rooms_list_says_why_a_room_is_read_only(table):  # noqa: F811
    t = table
    t.post("Anna", "room: Boris, Clara")
    t.post("Boris", "room: Anna, Clara")
    t.post("Clara", "room: Anna, Boris")
    t.resolve()  # Night 2: the room is open
    t.resolve()  # Day 2: it closed when Night 2 ended
    rooms_part = page_part(t.client("Anna").get(t.game.get_absolute_url()).content.decode(), "fm-rooms")
    assert "read-only: This room closed when Night 2 ended: it is read-only now (" in rooms_part
