"""``manage.py gm_playtest --game onuw``: five bots join an ONUW game over the core's join API and play it to the
end over HTTP against a real gunicorn, Celery worker and beat — every choice taken from the core's order-options API
(``OnuwModule.order_options``), deliberate illegal orders refused with a reason, each phase resolved exactly once.

Run with PostgreSQL + Redis (skipped otherwise)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gm CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        bin/test tests/integration/test_playtest_onuw.py -s
"""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from gm.core.models import Game

from .worker_utils import playtest_stack, skip_reason


@pytest.fixture
def stack(tmp_path, settings):
    """gunicorn + worker + beat on the test database, on a queue of this test's own."""
    why = skip_reason()
    if why:
        pytest.skip(why)
    with playtest_stack(tmp_path, settings, "onuw") as stack:
        yield stack


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_gm_playtest_plays_an_onuw_game_to_a_winner(stack):
    """ON-4, ON-6, ON-8: the bots play the night (and the doppelganger's step when he is dealt) and the day over
    HTTP; the game ends with its result, with no failure of the exactly-once checks or of the refusals."""
    out = StringIO()
    call_command("gm_playtest", "--game", "onuw", "--players", "5", "--seeds", "1-2", "--deadline", "2",
                 "--base-url", stack.base_url, stdout=out)
    text = out.getvalue()
    print(text)
    assert "2 games" in text and "2 ended with a winner and passed every check, 0 failed" in text, text
    games = list(Game.objects.filter(module="onuw"))
    assert len(games) == 2 and all(g.status == Game.Status.FINISHED and g.outcome for g in games)
    assert "requests accepted: " in text and "order " in text


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "nope"], "Unknown game 'nope'; games with bots: blood_vengeance, bloodwood, forum_mafia, "
                         "october_night, onuw."),
    (["--game", "pig"], "No bots: the game 'pig' has no playtest bots."),
    (["--game", "onuw", "--players", "11"], "--players must be between 3 and 10."),
    (["--players", "4"], "--players must be between 5 and 40."),
])
def test_gm_playtest_refuses_a_game_without_bots_or_a_bad_table(args, message):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError) as refused:
        call_command("gm_playtest", *args, stdout=StringIO())
    assert str(refused.value) == message
