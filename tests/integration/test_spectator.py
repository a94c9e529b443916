"""The spectator's view of a forum Mafia game (issue 8 item 4), for every viewer kind: the public log phase by phase
(deaths, Hand counts, vote results), the living and the dead; secret roles, orders and the trace hidden while the
game runs (FM-1.2: only the joker learns the dead's roles, FM-3.3); after the game a full reveal — every role,
every order version, every trace step — for everyone.

The table: Night 1 — Alice (sheriff) shoots Boris (mafia boss, one card) dead; the hero names Eva. Day 1 — the
Veche executes Eva. Night 2 is open.
"""
from __future__ import annotations

import pytest
from django.utils import translation

from gm.core import services
from gm.modules.forum_mafia.texts import secret_role_name
from tests.helpers import game_page, page_part
from tests.integration import fm_table
from tests.integration.fm_table import MAFIA, NAMES, ROLES

pytestmark = pytest.mark.django_db
#: viewer → whose secret roles he may know while the game runs (his own; the Mafia know each other, FM-3.1; the
#: joker learns the roles of the dead, FM-3.3)
KNOWS = {"master": set(NAMES), "Alice": {"Alice"}, "Clara": {"Clara"}, "Boris": MAFIA, "Jo": {"Jo", "Boris", "Eva"},
         "spectator": set(), "anonymous": set()}
VIEWERS = list(KNOWS)


@pytest.fixture
def table(frozen, master, make_user, spectator):
    game, users = fm_table.build(master, make_user)
    fm_table.play_night(game, users, frozen)
    fm_table.play_day(game, users, frozen)
    assert not game.seats.get(display_name="Boris").alive and not game.seats.get(display_name="Eva").alive
    viewers = {**users, "master": master, "spectator": spectator, "anonymous": None}
    return game, viewers




def _roles_en() -> dict[str, str]:
    with translation.override("en"):
        return {n: secret_role_name(r) for n, r in ROLES.items()}


@pytest.mark.parametrize("who", VIEWERS)
def test_FM_6_2_FM_5_1_FM_7_1_public_log_living_and_dead_for_every_viewer(table, who):
    game, viewers = table
    html = game_page(game, viewers[who])
    dead, living = page_part(html, "people-dead"), page_part(html, "people-living")
    assert "Boris" in dead and "Eva" in dead and "Alice" not in dead
    assert all(n in living for n in NAMES if n not in ("Boris", "Eva"))
    log = page_part(html, "log")
    assert "Boris has died." in log and "Eva has died." in log  # deaths (FM-6.2)
    assert "Cards in Hand:" in log  # Hand counts (FM-5.1)
    assert "The Veche: Eva is executed" in log and "Votes: Eva 4 (Alice, Harry, Jo, Clara)" in log  # the tally (FM-7)
    # grouped phase by phase, newest first
    assert log.index("Day 1") < log.index("Night 1")
    assert "Public0" not in html and "PublicAlice" in page_part(html, "seats")  # public roles for all


@pytest.mark.parametrize("who", VIEWERS)
def test_FM_1_2_FM_3_3_secrets_hidden_while_the_game_runs(table, who):
    """FM-1.2, FM-3.3: a viewer reads only the secret roles he may know; no orders but his own; no trace."""
    game, viewers = table
    html = game_page(game, viewers[who])
    roles = _roles_en()
    seats_and_log = page_part(html, "seats") + page_part(html, "log")
    for name, role in roles.items():
        if name not in KNOWS[who]:
            assert role not in seats_and_log, (who, name, role)
            if who in ("spectator", "anonymous"):
                assert role not in html, (who, name, role)
    assert 'id="reveal"' not in html
    assert ('id="fm-trace"' in html) == (who == "master")
    assert ("Alice orders:" in html) == (who == "master")  # her order, in the master's trace only
    if who == "Jo":  # the joker learns the dead's roles, and only he (FM-3.3)
        assert f"Boris was {roles['Boris']}." in html and f"Eva was {roles['Eva']}." in html
    else:
        assert f"Boris was {roles['Boris']}." not in html or who == "master"


@pytest.mark.parametrize("who", VIEWERS)
def test_full_reveal_after_the_game(table, who, master):
    game, viewers = table
    services.game_abort(game=game, actor=master, reason="enough")
    html = game_page(game, viewers[who])
    reveal = page_part(html, "reveal")
    assert reveal, who
    roles = _roles_en()
    for name, role in roles.items():  # every role
        seat = page_part(reveal, f"reveal-seat-{game.seats.get(display_name=name).pk}")
        assert name in seat and role in seat and f"Public{name}" in seat, (who, name)
    # every order, every version: Alice's first tail on Clara and then the pistol on Boris; the hero's mark; votes
    assert "Tail (Hand) → Clara" in reveal and "Pistol (Hand) → Boris" in reveal
    assert "version 1" in reveal and "version 2" in reveal
    assert "Ability: Hero (mark) → Eva · as Mafia advisor" in reveal
    assert reveal.count("Veche: for Eva (execution)") == 4  # the four votes of Day 1
    # every trace: the master's layer-by-layer steps for each phase
    trace = page_part(html, "fm-trace")
    assert "Alice orders: Pistol → Boris" in trace and "Harry (hero) names Eva as Mafia advisor: right." in trace
    assert "Veche count — Eva is executed" in trace
    assert "seat-secret" in page_part(html, "seats")
