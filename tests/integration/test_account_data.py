"""Account deletion (anonymised, history kept), the personal data export (own data only, through the visibility
layer), notification e-mails (settings link, ``List-Unsubscribe``), the API token page and the bot guide."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.authtoken.models import Token

from accounts.models import Profile
from gm.core import services
from gm.core.models import AuditEntry, Order, Post

pytestmark = pytest.mark.django_db


@pytest.fixture
def p0(players):
    return players[0]


@pytest.fixture
def played(running_game, p0, players):
    """The running tally game with an order and a post by p0 and an order by p1."""
    phase = running_game.phases.get(status="open")
    services.order_submit(phase=phase, user=p0, payload={"number": 4})
    services.order_submit(phase=phase, user=players[1], payload={"number": 9})
    services.post_create(game=running_game, user=p0, body="Hello [b]all[/b]")
    return running_game


def test_deletion_anonymises_and_keeps_history(client, played, p0, master):
    Profile.objects.update_or_create(user=p0, defaults={"display_name": "Alice Real", "messengers": "@alice"})
    Token.objects.create(user=p0)
    client.force_login(p0)
    bad = client.post(reverse("account_delete"), {"password": "wrong", "confirm": "on"})
    assert bad.status_code == 200 and get_user_model().objects.get(pk=p0.pk).is_active

    response = client.post(reverse("account_delete"), {"password": "pw-p0-123", "confirm": "on"})
    assert response.status_code == 302
    user = get_user_model().objects.get(pk=p0.pk)
    assert not user.is_active and not user.has_usable_password()
    assert user.email == "" and user.username == f"deleted-player-{p0.pk}"
    profile = Profile.objects.get(user=p0)
    assert profile.display_name == "" and profile.messengers == "" and profile.name == f"deleted-player-{p0.pk}"
    assert not Token.objects.filter(user=p0).exists()
    assert not client.login(username="p0", password="pw-p0-123")
    # The session that deleted the account is over; history stays under the character's name.
    assert client.get(reverse("profile")).status_code == 302
    assert Post.objects.filter(author=p0).count() == 1 and Order.objects.filter(submitted_by=p0).count() == 1
    page = client.get(played.get_absolute_url())
    assert "Seat0" in page.content.decode()
    # The running game's seat is kept and flagged for the master.
    assert played.seats.filter(user=p0, display_name="Seat0").exists()
    flag = AuditEntry.objects.get(game=played, action="account_deleted")
    assert flag.data["display_name"] == "Seat0"


def test_export_holds_own_data_and_no_other_seats_secret(client, played, p0, players):
    client.force_login(p0)
    response = client.get(reverse("account_export"))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["profile"]["email"] == "p0@example.com"
    own = played.seats.get(user=p0)
    assert [s["seat"]["id"] for s in data["seats"]] == [own.pk]
    assert data["seats"][0]["seat"]["private"]["secret"] == own.data["secret"]
    assert [o["payload"] for o in data["seats"][0]["orders"]] == [{"number": 4}]
    assert [p["body"] for p in data["posts"]] == ["Hello [b]all[/b]"]
    text = response.content.decode()
    for other in played.seats.exclude(user=p0):
        assert f'"id": {other.pk}' not in text
    assert '"number": 9' not in text


def test_export_and_delete_need_login(client):
    for name in ("account_export", "account_delete", "api_token"):
        assert client.get(reverse(name)).status_code == 302


def test_reminder_email_has_settings_link_and_list_unsubscribe(running_game, p0, settings):
    from gm.inbox.services import reminder_message

    settings.SITE_URL = "https://games.example.org"
    seat = running_game.seats.get(user=p0)
    message = reminder_message(phase=running_game.phases.get(status="open"), seat=seat)
    url = "https://games.example.org" + reverse("inbox:settings")
    assert message.extra_headers["List-Unsubscribe"] == f"<{url}>"
    assert url in message.body and running_game.get_absolute_url() in message.body
    assert "List-Unsubscribe" in message.message().as_string()
    Profile.objects.update_or_create(user=p0, defaults={"language": "ru"})
    seat.user.refresh_from_db()
    russian = reminder_message(phase=running_game.phases.get(status="open"), seat=running_game.seats.get(user=p0))
    assert "Отключить их можно здесь: " + url in russian.body


def test_phase_result_email_has_settings_link_and_header(running_game, master):
    from gm.core import notifications

    phase = running_game.phases.get(status="open")
    services.phase_resolve_now(game=running_game, actor=master)
    messages = notifications.phase_result_messages(phase=running_game.phases.get(pk=phase.pk))
    assert messages
    for message in messages:
        assert reverse("inbox:settings") in message.body
        assert message.extra_headers["List-Unsubscribe"].endswith(reverse("inbox:settings") + ">")


def test_token_page_shows_rotates_and_revokes(client, p0):
    client.force_login(p0)
    page = client.get(reverse("api_token"))
    assert page.status_code == 200 and not Token.objects.filter(user=p0).exists()
    client.post(reverse("api_token"), {"action": "rotate"})
    first = Token.objects.get(user=p0).key
    assert first in client.get(reverse("api_token")).content.decode()
    client.post(reverse("api_token"), {"action": "rotate"})
    second = Token.objects.get(user=p0).key
    assert second != first
    # the old key no longer authenticates, the new one does
    client.logout()
    assert client.get("/api/games/", HTTP_AUTHORIZATION=f"Token {first}").status_code in (401, 403)
    assert client.get("/api/games/", HTTP_AUTHORIZATION=f"Token {second}").status_code == 200
    client.force_login(p0)
    assert client.post(reverse("api_token"), {"action": "explode"}).status_code == 400
    assert Token.objects.get(user=p0).key == second
    client.post(reverse("api_token"), {"action": "revoke"})
    assert not Token.objects.filter(user=p0).exists()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_bot_guide_names_the_endpoints(client, language):
    client.cookies["django_language"] = language
    body = client.get(reverse("bot_guide")).content.decode()
    assert "/api/games/&lt;id&gt;/order-options/" in body and "/api/auth/token/" in body
    assert "Authorization: Token" in body
    translated = "Получите токен" if language == "ru" else "Get a token"
    assert translated in body
