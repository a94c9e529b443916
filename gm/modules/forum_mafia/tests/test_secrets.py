"""Secrets of role abilities reach only their owner and the master (FM-1.2, FM-3.1, FM-3.3; issue 6): the joker's
knowledge of the dead, the hero's mark and goal notices, the Mafia message — through the one visibility layer, on
every channel (the game page, the log API, the Atom feed, notification recipients) and for every viewer kind.

The game: Night 1 set up by the master; Alice (sheriff) shoots Boris (mafia boss, one card) dead; the hero names Eva
as the Mafia advisor (right: marked); Eva sends the Mafia message to Dmitri. Day 1: the Veche executes Eva (6 damage,
three cards): a marked mafioso dies as a result of a day — the hero's goal (b).
"""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import translation

from gm.core import services, visibility
from gm.core.models import LogEntry, Phase
from gm.modules.forum_mafia.services.overrides import game_setup_override
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db
NAMES = ["Alice", "Boris", "Hero", "Jo", "Eva", "Dmitri", "Clara"]


@pytest.fixture
def table(frozen, master, make_user):
    users = {n: make_user(n.lower()) for n in NAMES}
    game = services.game_create(master=master, module="forum_mafia", title="Secrets", options={}, rng_seed=5)
    tails = ["tail", "tail", "tail"]
    spec = {"Alice": ("sheriff", ["pistol", *tails]), "Boris": ("mafia_boss", ["tail"]), "Hero": ("hero", tails),
            "Jo": ("joker", tails), "Eva": ("mafia_advisor", tails), "Dmitri": ("mafia_killer", tails),
            "Clara": ("doctor", tails)}
    players = [{"user": users[n], "name": n, "public_role": {"custom": f"R{n}"}, "secret_role": spec[n][0],
                "hand": spec[n][1], "sleeve": [], "deck": ["coffee"] * 4,
                **({"colours": ["damage", "recon"]} if n == "Jo" else {})} for n in NAMES]
    game_setup_override(game=game, actor=master, players=players, start_kind="night", start_number=1)
    game.refresh_from_db()
    return game, users


def _seat(game, name):
    return game.seats.get(display_name=name)


def _resolve(game, frozen):
    phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    frozen.shift(timedelta(days=3))
    assert services.phase_resolve_due(phase_id=phase.pk) is not None


def _play_out(game, users, frozen):
    ids = {n: _seat(game, n).pk for n in NAMES}
    night = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    services.order_submit(phase=night, user=users["Alice"],
                          payload={"plays": [{"card": "pistol", "from": "hand", "target": ids["Boris"]}]})
    services.order_submit(phase=night, user=users["Hero"], payload={"abilities": [
        {"ability": "hero", "mode": "mark", "target": ids["Eva"], "guess": "mafia_advisor"}]})
    services.order_submit(phase=night, user=users["Eva"], payload={"abilities": [
        {"ability": "mafia_advisor", "mode": "message", "target": ids["Dmitri"], "text": "ждём до среды"}]})
    _resolve(game, frozen)
    day = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    assert (day.kind, day.number) == ("day", 1)
    for voter in ("Alice", "Hero", "Jo", "Clara"):
        services.order_submit(phase=day, user=users[voter],
                              payload={"vote": {"for": ids["Eva"], "punishment": "execution"}})
    _resolve(game, frozen)
    game.refresh_from_db()


def test_ability_secrets_reach_only_their_owner_and_the_master(table, frozen, master, spectator):
    game, users = table
    _play_out(game, users, frozen)
    assert not _seat(game, "Boris").alive and not _seat(game, "Eva").alive
    owners = {"fm.joker_knows": "Jo", "fm.hero_named": "Hero", "fm.hero_goal": "Hero", "fm.mafia_message": "Dmitri"}
    entries = {kind: list(LogEntry.objects.filter(game=game, kind=kind)) for kind in owners}
    assert len(entries["fm.joker_knows"]) == 2  # Boris and Eva
    assert entries["fm.hero_goal"][0].data == {"goal": "mark"}
    assert entries["fm.mafia_message"][0].data == {"text": "ждём до среды"}  # no sender's name in it
    viewers = {**users, "master": master, "spectator": spectator, "anonymous": None}
    for kind, owner in owners.items():
        for entry in entries[kind]:
            for who, user in viewers.items():
                viewer = visibility.viewer_for(user, game)
                sees = visibility.log_entries(viewer).filter(pk=entry.pk).exists()
                assert sees == (who in (owner, "master")), (kind, who, viewer.kind)
            recipients = {u.pk for u in visibility.entry_recipients(entry)}
            assert recipients <= {users[owner].pk, master.pk}, (kind, recipients)
    # The same on the page, in the log API and in the feed, as the words a reader would see.
    with translation.override("en"):
        texts = {kind: [e.text() for e in entries[kind]] for kind in owners}
    feed = client_for(None).get(f"/games/{game.pk}/feed/").content.decode()
    for who, user in viewers.items():
        client = client_for(user)
        page = client.get(f"/games/{game.pk}/").content.decode()
        status, log = api(client, "get", f"/api/games/{game.pk}/log/", {"page_size": 500})
        listed = " ".join(str(item) for item in (log or {}).get("results", [])) if status == 200 else ""
        for kind, owner in owners.items():
            for text in texts[kind]:
                allowed = who in (owner, "master")
                assert (text in page) == allowed or (allowed and text not in page and text in listed), (kind, who)
                if not allowed:
                    assert text not in listed and text not in feed, (kind, who)


def test_the_hero_is_not_told_whether_his_guess_was_right(table, frozen):
    game, users = table
    _play_out(game, users, frozen)
    [named] = LogEntry.objects.filter(game=game, kind="fm.hero_named")
    assert set(named.data) == {"target", "guess"}  # no right/wrong in what he reads
    with translation.override("en"):
        assert "right" not in named.text().lower() and "wrong" not in named.text().lower()
