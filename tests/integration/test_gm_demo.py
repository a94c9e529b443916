"""``manage.py gm_demo``: the demo users and games are created once (idempotent), ``--reset`` recreates them, and
the One Night Ultimate Werewolf demo game is in its night with a long deadline, each of its five players with a
night choice on the game page (ON-4, ON-13)."""
from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from gm.core.management.commands import gm_demo
from gm.core.models import Game, Phase
from gm.modules.blood_vengeance import demo as bv_demo
from gm.modules.bloodwood import demo as bw_demo
from gm.modules.forum_mafia import demo as fm_demo
from gm.modules.october_night import demo as oc_demo
from gm.modules.onuw import demo as onuw_demo
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

TITLES = [gm_demo.SIGNUP_TITLE, gm_demo.RUNNING_TITLE, gm_demo.CARDS_TITLE, fm_demo.SIGNUP_TITLE,
          fm_demo.NIGHT_TITLE, onuw_demo.TITLE, bw_demo.TITLE, bv_demo.TITLE, oc_demo.TITLE]


def demo(*args) -> str:
    out = StringIO()
    call_command("gm_demo", *args, stdout=out)
    return out.getvalue()


def test_gm_demo_creates_every_demo_game_once_and_reset_recreates_them(monkeypatch):
    monkeypatch.delenv("GM_COMMAND_LANGUAGE", raising=False)
    assert "Demo data loaded (9 games created)." in demo()
    assert sorted(Game.objects.values_list("title", flat=True)) == sorted(TITLES)
    ids = set(Game.objects.values_list("pk", flat=True))
    assert "nothing changed" in demo()  # idempotent
    assert set(Game.objects.values_list("pk", flat=True)) == ids
    Game.objects.get(title=onuw_demo.TITLE).delete()  # an older demo database: only the missing game is made
    assert "Demo data loaded (1 game created)." in demo()
    assert Game.objects.filter(title=onuw_demo.TITLE).count() == 1 and Game.objects.count() == 9
    out = demo("--reset")
    assert "Deleted 9 demo games." in out and Game.objects.count() == 9 and not ids & set(
        Game.objects.values_list("pk", flat=True))
    # The counts in Russian (GM_COMMAND_LANGUAGE), with their plural forms.
    monkeypatch.setenv("GM_COMMAND_LANGUAGE", "ru")
    Game.objects.get(title=onuw_demo.TITLE).delete()
    assert "Демо-данные загружены (создана 1 игра)." in demo()
    assert "Удалено 9 демо-игр." in demo("--reset")


def test_ON_13_demo_onuw_game_is_in_its_night_and_every_player_has_a_choice():
    demo()
    game = Game.objects.get(title=onuw_demo.TITLE)
    assert game.module == "onuw" and game.status == Game.Status.RUNNING and game.seats.count() == 5
    phase = game.phases.get(status=Phase.Status.OPEN)
    assert phase.kind == "night" and phase.deadline > timezone.now() + timedelta(days=6)
    fields = {"player1": "look", "player2": "look", "player3": "swap_with", "player4": "swap",
              "player5": "take"}  # seer, lone werewolf (ON-4.2), robber, troublemaker, drunk
    for seat in game.seats.select_related("user"):
        html = client_for(seat.user).get(game.get_absolute_url()).content.decode()
        name = fields[seat.user.username]
        assert re.search(rf'name="{name}" value="', html), seat.user.username
    assert "Deal:" not in client_for(None).get(game.get_absolute_url()).content.decode()  # the deal stays secret


def test_OC_11_5_demo_october_night_game_is_in_its_first_action_phase():
    demo()
    game = Game.objects.get(title=oc_demo.TITLE)
    assert game.module == "october_night" and game.status == Game.Status.RUNNING and game.seats.count() == 4
    phase = game.phases.get(status=Phase.Status.OPEN)
    assert (phase.kind, phase.number) == ("action", 1)
    for seat in game.seats.select_related("user"):
        html = client_for(seat.user).get(game.get_absolute_url()).content.decode()
        assert 'name="main" value="rest"' in html and 'id="oc-my-side"' in html, seat.user.username
