"""Live pages: the game page's phase card, the thread's "N new posts — show" bar and the header's inbox badge ask
the server for news (htmx polling) through small endpoints that answer 204 while nothing changed, cost a few
queries, and read through the visibility layer."""
from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gm.core import services
from gm.inbox.models import Notification
from gm.inbox.services import unread_count
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def _attr(html: str, element_id: str, attr: str) -> str:
    tag = re.search(rf'<[^>]*id="{element_id}"[^>]*>', html).group(0)
    return re.search(rf'{attr}="([^"]*)"', tag).group(1).replace("&amp;", "&")


def test_phase_card_polls_and_changes_after_resolution(running_game, master, players):
    client = client_for(players[0])
    page = client.get(running_game.get_absolute_url()).content.decode()
    poll = _attr(page, "phase-live", "hx-get")
    assert _attr(page, "phase-live", "hx-trigger") == "every 30s"
    assert poll.startswith(f"/games/{running_game.pk}/phase/?v=")
    with CaptureQueriesContext(connection) as queries:
        unchanged = client.get(poll, HTTP_HX_REQUEST="true")
    assert unchanged.status_code == 204 and len(queries) <= 6, [q["sql"] for q in queries]
    label = running_game.phases.get(status="open").label
    services.phase_resolve_now(game=running_game, actor=master)
    changed = client.get(poll, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200
    card = changed.content.decode()
    assert "The phase has changed." in card and 'id="phase-live"' in card and "<html" not in card
    new_phase = running_game.phases.get(status="open")
    assert new_phase.label in card and new_phase.label != label
    assert client.get(_attr(card, "phase-live", "hx-get"), HTTP_HX_REQUEST="true").status_code == 204


def test_phase_card_is_read_through_visibility(master, signup_game, running_game):
    draft = services.game_create(master=master, module="tally", title="Draft", options={"rounds": 3}, rng_seed=3)
    assert client_for(None).get(f"/games/{draft.pk}/phase/?v=x").status_code == 404
    assert client_for(master).get(f"/games/{draft.pk}/phase/?v=x").status_code == 200
    # the master's overdue flag is the master's
    phase = running_game.phases.get(status="open")
    phase.overdue_at = phase.deadline
    phase.save(update_fields=["overdue_at"])
    assert "Overdue" in client_for(master).get(f"/games/{running_game.pk}/phase/?v=x").content.decode()
    assert "Overdue" not in client_for(None).get(f"/games/{running_game.pk}/phase/?v=x").content.decode()


def test_new_posts_bar_counts_posts_since_the_page(running_game, master, players):
    client = client_for(players[1])
    services.post_create(game=running_game, user=master, body="Welcome")
    page = client.get(running_game.get_absolute_url()).content.decode()
    poll = _attr(page, "thread-news", "hx-get")
    assert poll == f"/games/{running_game.pk}/thread/news/?seen=1"
    with CaptureQueriesContext(connection) as queries:
        assert client.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    assert len(queries) <= 6, [q["sql"] for q in queries]
    services.post_create(game=running_game, user=players[0], body="Hello")
    services.post_create(game=running_game, user=players[2], body="Hi")
    bar = client.get(poll, HTTP_HX_REQUEST="true")
    assert bar.status_code == 200
    text = bar.content.decode()
    assert "2 new posts — show" in text and "Hello" not in text
    assert f'hx-get="/games/{running_game.pk}/thread/?page=last"' in text and 'hx-target="#thread"' in text
    # the thread it shows carries the new count, so the bar goes away
    thread = client.get(f"/games/{running_game.pk}/thread/?page=last", HTTP_HX_REQUEST="true").content.decode()
    assert _attr(thread, "thread-news", "hx-get").endswith("?seen=3")


@pytest.mark.parametrize("seen", ["x", "-", "1.5"])
def test_new_posts_bad_count_is_refused(running_game, seen):
    response = client_for(None).get(f"/games/{running_game.pk}/thread/news/?seen={seen}")
    assert response.status_code == 400 and "whole number" in response.content.decode()


def test_inbox_badge_polls_every_minute(running_game, players):
    client = client_for(players[0])
    page = client.get("/").content.decode()
    assert _attr(page, "inbox-unread", "hx-get") == "/inbox/badge/"
    assert _attr(page, "inbox-unread", "hx-trigger") == "every 60s"
    before = unread_count(players[0])
    Notification.objects.create(user=players[0], game=running_game, kind=Notification.Kind.PHASE_RESULTS, body="Test",
                                created_at=timezone.now())
    assert unread_count(players[0]) == before + 1
    badge = client.get("/inbox/badge/", HTTP_HX_REQUEST="true").content.decode()
    assert f'<span class="flag">{before + 1}</span>' in badge and 'hx-trigger="every 60s"' in badge
    assert client_for(None).get("/inbox/badge/").status_code == 204
