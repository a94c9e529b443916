"""The spectator's view of a forum Mafia game (issue 8 item 4), for every viewer kind: the public log phase by phase
(deaths, Hand counts, vote results), the living and the dead; secret roles, orders and the trace hidden while the
game runs (FM-1.2: only the joker learns the dead's roles, FM-3.3); after the game a full reveal — every role,
every order version, every trace step — for everyone.

The table: Night 1 — Alice (sheriff) shoots Boris (mafia boss, one card) dead; the hero names Eva. Day 1 — the
Veche executes Eva. Night 2 is open.
"""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import translation

from gm.core import services
from gm.core.models import Phase
from gm.modules.forum_mafia.module import secret_role_name
from gm.modules.forum_mafia.override_services import game_setup_override
from tests.helpers import client_for

pytestmark = pytest.mark.django_db
NAMES = ["Alice", "Boris", "Harry", "Jo", "Eva", "Dmitri", "Clara"]
ROLES = {"Alice": "sheriff", "Boris": "mafia_boss", "Harry": "hero", "Jo": "joker", "Eva": "mafia_advisor",
         "Dmitri": "mafia_killer", "Clara": "doctor"}
MAFIA = {"Boris", "Eva", "Dmitri"}
#: viewer → whose secret roles he may know while the game runs (his own; the Mafia know each other, FM-3.1; the
#: joker learns the roles of the dead, FM-3.3)
KNOWS = {"master": set(NAMES), "Alice": {"Alice"}, "Clara": {"Clara"}, "Boris": MAFIA, "Jo": {"Jo", "Boris", "Eva"},
         "spectator": set(), "anonymous": set()}
VIEWERS = list(KNOWS)


@pytest.fixture
def table(frozen, master, make_user, spectator):
    users = {n: make_user(n.lower()) for n in NAMES}
    game = services.game_create(master=master, module="forum_mafia", title="Spectated", options={}, rng_seed=5)
    tails = ["tail", "tail", "tail"]
    hands = {"Alice": ["pistol", *tails], "Boris": ["tail"]}
    players = [{"user": users[n], "name": n, "public_role": {"custom": f"Public{n}"}, "secret_role": ROLES[n],
                "hand": hands.get(n, tails), "sleeve": [], "deck": ["coffee"] * 4,
                **({"colours": ["damage", "recon"]} if n == "Jo" else {})} for n in NAMES]
    game_setup_override(game=game, actor=master, players=players, start_kind="night", start_number=1)
    ids = {s.display_name: s.pk for s in game.seats.all()}
    night = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    services.order_submit(phase=night, user=users["Alice"],
                          payload={"plays": [{"card": "tail", "from": "hand", "target": ids["Clara"]}]})
    services.order_submit(phase=night, user=users["Alice"],  # version 2: the shot
                          payload={"plays": [{"card": "pistol", "from": "hand", "target": ids["Boris"]}]})
    services.order_submit(phase=night, user=users["Harry"], payload={"abilities": [
        {"ability": "hero", "mode": "mark", "target": ids["Eva"], "guess": "mafia_advisor"}]})
    frozen.shift(timedelta(days=3))
    assert services.phase_resolve_due(phase_id=night.pk) is not None
    day = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    for voter in ("Alice", "Harry", "Jo", "Clara"):
        services.order_submit(phase=day, user=users[voter],
                              payload={"vote": {"for": ids["Eva"], "punishment": "execution"}})
    frozen.shift(timedelta(days=3))
    assert services.phase_resolve_due(phase_id=day.pk) is not None
    game.refresh_from_db()
    assert not game.seats.get(display_name="Boris").alive and not game.seats.get(display_name="Eva").alive
    viewers = {**{n: users[n] for n in NAMES}, "master": master, "spectator": spectator, "anonymous": None}
    return game, viewers


def _page(game, user) -> str:
    response = client_for(user).get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def _part(html: str, element_id: str) -> str:
    match = re.search(rf'<(section|div)[^>]*id="{element_id}".*?</\1>', html, re.S)
    return match.group(0) if match else ""


def _roles_en() -> dict[str, str]:
    with translation.override("en"):
        return {n: secret_role_name(r) for n, r in ROLES.items()}


@pytest.mark.parametrize("who", VIEWERS)
def test_public_log_living_and_dead_for_every_viewer(table, who):
    game, viewers = table
    html = _page(game, viewers[who])
    dead, living = _part(html, "people-dead"), _part(html, "people-living")
    assert "Boris" in dead and "Eva" in dead and "Alice" not in dead
    assert all(n in living for n in NAMES if n not in ("Boris", "Eva"))
    log = _part(html, "log")
    assert "Boris has died." in log and "Eva has died." in log  # deaths (FM-6.2)
    assert "Cards in Hand:" in log  # Hand counts (FM-5.1)
    assert "The Veche: Eva is executed" in log and "Votes: Eva 4 (Alice, Harry, Jo, Clara)" in log  # the tally (FM-7)
    # grouped phase by phase, newest first
    assert log.index("Day 1") < log.index("Night 1")
    assert "Public0" not in html and "PublicAlice" in _part(html, "seats")  # public roles for all


@pytest.mark.parametrize("who", VIEWERS)
def test_secrets_hidden_while_the_game_runs(table, who):
    """FM-1.2, FM-3.3: a viewer reads only the secret roles he may know; no orders but his own; no trace."""
    game, viewers = table
    html = _page(game, viewers[who])
    roles = _roles_en()
    seats_and_log = _part(html, "seats") + _part(html, "log")
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
    html = _page(game, viewers[who])
    reveal = _part(html, "reveal")
    assert reveal, who
    roles = _roles_en()
    for name, role in roles.items():  # every role
        seat = _part(reveal, f"reveal-seat-{game.seats.get(display_name=name).pk}")
        assert name in seat and role in seat and f"Public{name}" in seat, (who, name)
    # every order, every version: Alice's first tail on Clara and then the pistol on Boris; the hero's mark; votes
    assert "Tail (Hand) → Clara" in reveal and "Pistol (Hand) → Boris" in reveal
    assert "version 1" in reveal and "version 2" in reveal
    assert "Ability: Hero (mark) → Eva · as Mafia advisor" in reveal
    assert reveal.count("Veche: for Eva (execution)") == 4  # the four votes of Day 1
    # every trace: the master's layer-by-layer steps for each phase
    trace = _part(html, "fm-trace")
    assert "Alice orders: Pistol → Boris" in trace and "Harry (hero) names Eva as Mafia advisor: right." in trace
    assert "Veche count — Eva is executed" in trace
    assert "seat-secret" in _part(html, "seats")
