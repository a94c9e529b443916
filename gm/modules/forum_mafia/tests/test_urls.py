"""Forum Mafia's URLs: the paths first published outside ``fm/`` (``legacy_…`` names) answer as their canonical
paths do, and say they are deprecated (RFC 9745 ``Deprecation``, the date the paths moved) and where they went (RFC
8288 ``Link`` with ``rel="successor-version"``); the canonical paths carry neither header."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import URLPattern, reverse

from gm.core import services as core
from gm.modules.forum_mafia import urls
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

#: 2026-11-26 00:00 UTC, the day the paths moved under ``fm/``, as RFC 9745 writes a date.
DEPRECATION = "@1795651200"


@pytest.fixture
def game(master):
    game = core.game_create(master=master, module="forum_mafia", title="FM paths", description="Rules.",
                            rng_seed=7, starts_at=datetime(2026, 12, 1, 18, 0, tzinfo=UTC))
    core.game_open_signup(game=game, actor=master)
    game.refresh_from_db()
    return game


def test_the_deprecation_date_is_the_day_the_paths_moved():
    assert int(datetime(2026, 11, 26, tzinfo=UTC).timestamp()) == 1795651200
    assert urls.DEPRECATED_AT == datetime(2026, 11, 26, tzinfo=UTC)


def test_every_legacy_path_has_a_canonical_successor_under_fm():
    legacy = [p for p in urls.urlpatterns if isinstance(p, URLPattern) and p.name.startswith("legacy_")]
    assert len(legacy) == 15  # the five signup pages and the ten API paths published before fm/
    for pattern in legacy:
        canonical = next(p for p in urls.urlpatterns if p.name == pattern.name.removeprefix("legacy_"))
        assert str(canonical.pattern) == str(pattern.pattern).replace("<int:pk>/", "<int:pk>/fm/", 1)


def test_legacy_page_answers_as_before_with_deprecation_and_successor(game, players):
    client = client_for(players[0])
    old = client.get(f"/games/{game.pk}/signup/")
    new = client.get(f"/games/{game.pk}/fm/signup/")
    assert old.status_code == new.status_code == 200
    assert old.content.decode().count("<form") == new.content.decode().count("<form") > 0
    assert old["Deprecation"] == DEPRECATION
    assert old["Link"] == f'</games/{game.pk}/fm/signup/>; rel="successor-version"'
    assert "Deprecation" not in new and "Link" not in new


def test_legacy_api_answers_as_before_with_deprecation_and_successor(game, master, players):
    client = client_for(players[0])
    old = client.get(f"/api/games/{game.pk}/signups/")
    new = client.get(f"/api/games/{game.pk}/fm/signups/")
    assert old.status_code == new.status_code == 200
    assert old.json() == new.json()
    assert old["Deprecation"] == DEPRECATION
    assert old["Link"] == f'</api/games/{game.pk}/fm/signups/>; rel="successor-version"'
    assert "Deprecation" not in new and "Link" not in new


def test_legacy_refusals_and_writes_carry_the_headers_with_every_path_argument(game, master, players):
    # A write through a legacy API path: the same service, the same answer.
    status, _body = api(client_for(players[0]), "post", f"/api/games/{game.pk}/signups/",
                        {"public_role": "paranoid", "pledges": True})
    assert status == 201
    refused = client_for(master).post(f"/api/games/{game.pk}/signups/999/reject/", {"reason": "no"},
                                      content_type="application/json")
    assert refused.status_code == 404
    assert refused["Deprecation"] == DEPRECATION
    assert refused["Link"] == f'</api/games/{game.pk}/fm/signups/999/reject/>; rel="successor-version"'
    page = client_for(master).post(f"/games/{game.pk}/signup/999/reject/", {"reason": "no"})
    assert page.status_code == 302 and page["Location"] == reverse("forum_mafia:signup", args=[game.pk])
    assert page["Deprecation"] == DEPRECATION
    assert page["Link"] == f'</games/{game.pk}/fm/signup/999/reject/>; rel="successor-version"'
