"""Forum Mafia's own signup (FM-2.1) goes through the core's ``seat_join``, so a game's signup requirements and an
active sanction (issue 24, ``gm.community``) refuse it too, with the reason, and nothing is stored."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import translation

from gm.community import services as community
from gm.community.models import Reliability
from gm.core import services as core
from gm.core.models import Seat
from gm.modules.forum_mafia.models import Signup
from gm.modules.forum_mafia.services import signup as fm_signup

pytestmark = pytest.mark.django_db


def test_FM_2_1_signup_refused_by_the_games_requirements(master, players, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    game = core.game_create(master=master, module="forum_mafia", title="Veterans only", rng_seed=7,
                            starts_at=datetime(2026, 3, 1, 18, 0, tzinfo=UTC))
    core.game_open_signup(game=game, actor=master)
    community.requirement_set(game=game, actor=master, min_finished=3)
    with translation.override("en"), pytest.raises(core.ServiceError) as refused:
        fm_signup.signup_create(game=game, user=players[0], public_role="paranoid", character_name="Rookie",
                                pledges=True)
    assert "requires at least 3 finished games; you have 0" in str(refused.value)
    assert not Seat.objects.filter(game=game).exists() and not Signup.objects.filter(game=game).exists()
    Reliability.objects.create(user=players[1], finished=4)
    fm_signup.signup_create(game=game, user=players[1], public_role="paranoid", character_name="Veteran",
                            pledges=True)
    assert Seat.objects.filter(game=game, user=players[1]).exists()
