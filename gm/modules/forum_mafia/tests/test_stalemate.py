"""FM-10.H1 [house] stalemate through the shell: the draw announced publicly with its reason, every seat's result
"draw" (the game's outcome, the log, the result card, the reveal, each player's own line, in English and Russian),
and the master's extension from his console (audited; refused without a reason or to anyone else)."""
from __future__ import annotations

from datetime import timedelta

import pytest

from gm.core import services
from gm.core.models import AuditEntry, Game, LogEntry, Phase
from gm.modules.forum_mafia.services.overrides import game_setup_override
from tests.helpers import client_for, game_page, page_part

pytestmark = pytest.mark.django_db

ROLES = {"Ann": "commissioner", "Bob": "mafia_advisor", "Gleb": "mafia_killer", "Vera": "doctor"}


def _quiet_game(master, make_user, limit: int, hands=None):
    """Ann (Law) and Bob (Mafia) are the last two alive with nothing that can harm: a stalemate from Night 1
    (``hands``: other Hands by name)."""
    users = {n: make_user(n.lower()) for n in ROLES}
    game = services.game_create(master=master, module="forum_mafia", title="Stalemate",
                                options={"stalemate_phases": limit}, rng_seed=3)
    players = [{"user": users[n], "name": n, "public_role": {"custom": f"P{n}"}, "secret_role": role,
                "hand": (hands or {}).get(n, ["tail", "bunker", "tail"]), "sleeve": [], "deck": [],
                "alive": n in ("Ann", "Bob")}
               for n, role in ROLES.items()]
    game_setup_override(game=game, actor=master, players=players, start_kind="night", start_number=1)
    game.refresh_from_db()
    return game, users


def _resolve(game, frozen) -> None:
    phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    frozen.shift(timedelta(days=3))
    assert services.phase_resolve_due(phase_id=phase.pk) is not None
    game.refresh_from_db()


def test_FM_10_H1_the_draw_is_announced_publicly_and_every_seat_draws(master, make_user, spectator, frozen):
    game, users = _quiet_game(master, make_user, 2)
    _resolve(game, frozen)
    assert game.status == Game.Status.RUNNING and game.state["fm"]["quiet_phases"] == 1
    _resolve(game, frozen)
    assert game.status == Game.Status.FINISHED
    assert game.outcome == {"winners": [], "winning_seats": [], "draw": True}
    public = LogEntry.objects.filter(game=game, visibility="public")
    draw = public.get(kind="fm.draw")
    assert draw.data == {"phases": 2, "rule": "FM-10.H1"}
    assert public.get(kind="core.game_finished").data == {"winners": [], "draw": True}
    assert not public.filter(kind="fm.victory").exists()
    assert {s.display_name: s.data["result"] for s in game.seats.all()} == {n: "draw" for n in ROLES}

    watched = game_page(game, spectator)
    result = page_part(watched, "main") or watched
    assert "A draw: nobody wins or loses." in result and "Winners: nobody" not in watched
    assert ("The game ends in a draw (FM-10.H1): 2 phases in a row passed with no death, and nobody alive can deal "
            "damage or kill any more. Nobody wins or loses.") in watched
    assert "The game is over: a draw, nobody wins or loses." in watched
    reveal = page_part(watched, "reveal")
    assert reveal.count("<dt>Result</dt><dd>draw</dd>") == 4  # every seat, the dead too
    for name in ("Ann", "Gleb"):
        own = page_part(game_page(game, users[name]), "fm-panel")
        assert "The game ended in a draw (FM-10.H1): nobody won or lost." in own
        assert "You lost." not in own and "You won." not in own

    ru = client_for(users["Bob"], language="ru").get(f"/games/{game.pk}/").content.decode()
    assert "Игра закончилась ничьей (FM-10.H1): никто не победил и не проиграл." in ru
    assert "Ничья: никто не победил и не проиграл." in ru
    assert "Игра заканчивается ничьей (FM-10.H1): фаз подряд без смертей — 2" in ru


def test_FM_10_H1_a_won_game_tells_each_player_won_or_lost(master, make_user, frozen):
    game, users = _quiet_game(master, make_user, 2, hands={"Ann": ["breach", "tail"], "Bob": ["tail"]})
    bob = game.seats.get(display_name="Bob")
    services.order_submit(phase=Phase.objects.get(game=game, status=Phase.Status.OPEN), user=users["Ann"],
                          payload={"plays": [{"card": "breach", "from": "hand", "target": bob.pk}]})
    _resolve(game, frozen)
    assert game.status == Game.Status.FINISHED and game.outcome["winners"] == ["law"]
    assert "draw" not in game.outcome
    assert "You won." in page_part(game_page(game, users["Vera"]), "fm-panel")  # the dead win with their side
    assert "You lost." in page_part(game_page(game, users["Bob"]), "fm-panel")
    assert page_part(game_page(game, users["Ann"]), "reveal").count("<dt>Result</dt><dd>won</dd>") == 2


def test_FM_10_H1_the_master_extends_the_game_from_his_console(master, make_user, spectator, frozen):
    game, users = _quiet_game(master, make_user, 3)
    _resolve(game, frozen)
    assert game.state["fm"]["quiet_phases"] == 1
    panel = page_part(game_page(game, master), "fm-stalemate")
    assert "Quiet phases in a row: 1 of 3." in panel and "Extend the game" in panel
    for user in (users["Ann"], spectator, None):  # the count tells what nobody holds: the master's only
        assert 'id="fm-stalemate"' not in game_page(game, user)
    url = f"/games/{game.pk}/fm/stalemate/extend/"

    refused = client_for(master).post(url, {"reason": "  "}, follow=True).content.decode()
    assert "Give a reason" in refused
    client_for(users["Ann"]).post(url, {"reason": "let us go on"})
    game.refresh_from_db()
    assert game.state["fm"]["quiet_phases"] == 1 and not AuditEntry.objects.filter(action="stalemate_reset").exists()

    done = client_for(master).post(url, {"reason": "They promised to rebuild"}, follow=True).content.decode()
    assert "The stalemate count (1 quiet phases) starts again from 0." in done
    game.refresh_from_db()
    assert game.state["fm"]["quiet_phases"] == 0
    audit = AuditEntry.objects.get(game=game, action="stalemate_reset")
    assert audit.reason == "They promised to rebuild" and audit.data == {"count": 1} and audit.actor == master
    line = LogEntry.objects.get(game=game, kind="fm.stalemate_reset")
    assert line.visibility == "master" and line.data == {"count": 1, "limit": 3}
    again = client_for(master).post(url, {"reason": "twice"}, follow=True).content.decode()
    assert "There is no stalemate count to reset" in again
    assert AuditEntry.objects.filter(action="stalemate_reset").count() == 1
    for _phase in range(2):
        _resolve(game, frozen)
    assert game.status == Game.Status.RUNNING  # 2 of 3 after the reset
    _resolve(game, frozen)
    assert game.status == Game.Status.FINISHED and game.outcome["draw"] is True
