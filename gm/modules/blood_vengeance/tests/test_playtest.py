"""``manage.py gm_playtest --game blood_vengeance``: bots join a game over the core's join API and play it to the
end over HTTP against a real gunicorn, Celery worker and beat — every order composed from the core's order-options
API (``BloodVengeanceModule.order_options``), deliberate illegal orders refused with a reason, each phase resolved
exactly once (BV-5, BV-6, BV-14.2, BV-16).

Run with PostgreSQL + Redis (skipped otherwise)."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from gm.core.models import Game
from tests.integration.worker_utils import playtest_stack, skip_reason


@pytest.fixture
def stack(tmp_path, settings):
    why = skip_reason()
    if why:
        pytest.skip(why)
    with playtest_stack(tmp_path, settings, "blood_vengeance") as stack:
        yield stack


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
#: 12 and 20 players take minutes each: they run with the soak tests (bin/playtest-soak), 6 players in every CI run.
@pytest.mark.parametrize("players", [6, pytest.param(12, marks=pytest.mark.soak),
                                     pytest.param(20, marks=pytest.mark.soak)])
def test_BV_14_2_bots_play_games_to_a_winner(stack, players):
    out = StringIO()
    call_command("gm_playtest", "--game", "blood_vengeance", "--players", str(players), "--seeds", "1-2",
                 "--deadline", "2",
                 "--base-url", stack.base_url, stdout=out)
    text = out.getvalue()
    print(text)
    assert "2 games" in text and "2 ended with a winner and passed every check, 0 failed" in text, text
    games = list(Game.objects.filter(module="blood_vengeance"))
    assert len(games) == 2 and all(g.status == Game.Status.FINISHED and g.outcome for g in games)


def test_BV_7_the_playtest_summary_names_the_dead_and_skips_a_nightfall_without_deaths():
    """The summary's deaths per phase: an execution and a nightfall name their dead from the line's ``names``; a
    nightfall nobody died at names nobody (it showed "?")."""
    from gm.modules.blood_vengeance.bots import BloodVengeancePolicy

    policy = BloodVengeancePolicy()
    assert policy.death_name({"seats": ["3", "5"], "names": {"3": "Bot 3", "5": "Bot 5"}}) == "Bot 3, Bot 5"
    assert policy.death_name({"seat": "4", "names": {"4": "Bot 4"}}) == "Bot 4"
    assert policy.death_name({"seats": [], "cards": {}, "names": {}}) == ""
