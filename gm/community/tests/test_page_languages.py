"""Every community page in both languages: no Cyrillic on English pages, no English run or catalogue phrase on
Russian ones, no raw ``snake_case`` slug (the checks of ``tests/integration/test_page_languages.py``)."""
from __future__ import annotations

import random
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse

from gm.community import services
from gm.community.models import PlayerGame, SetupStat
from gm.core import services as core
from tests.integration.test_page_languages import english_leftovers, russian_leftovers, visible_text

from .botgames import T0, play_onuw

pytestmark = pytest.mark.django_db


def test_community_pages_in_both_languages(master, make_user):
    pool = [make_user(f"bot{i}") for i in range(8)]
    rng = random.Random(12)
    for _i in range(3):
        play_onuw(master=master, pool=pool, rng=rng, start=T0, abort_p=0, kill_p=0)
    staff = make_user("mod")
    staff.is_staff = True
    staff.save()
    player = PlayerGame.objects.first().user
    services.warning_give(actor=staff, user=player, points=3, reason="Late again", clock=lambda: T0)
    game = core.game_create(master=master, module="onuw", title="Open table", rng_seed=4)
    core.game_open_signup(game=game, actor=master)
    services.requirement_set(game=game, actor=master, min_finished=5, max_missed_percent=20, max_modkilled=1,
                             no_sanction=True)
    setup = SetupStat.objects.filter(module="onuw", kind="game").first()
    urls = [reverse("community:stats"), reverse("community:stats") + "?module=onuw",
            reverse("community:stats") + "?" + urlencode({"module": "onuw", "setup": f"{setup.players}:{setup.setup}"}),
            reverse("community:player", args=[player.username]), reverse("community:sanctions"),
            reverse("community:warnings"), reverse("community:requirements", args=[game.pk]), reverse("profile")]
    problems = []
    for viewer in (player, staff, master):
        for language, leftovers in (("en", russian_leftovers), ("ru", english_leftovers)):
            client = Client()
            client.force_login(viewer)
            client.cookies["django_language"] = language
            for url in urls:
                response = client.get(url)
                if response.status_code != 200:
                    continue
                text = [t for t in visible_text(response.content.decode()) if t not in ("Late again", "CSV", "JSON")]
                problems += [f"{viewer} {language} {url}: {x!r}" for x in leftovers(text)]
    assert problems == []
