"""Linking channels: bad input (a malformed apprise URL, an unknown or refused service, a local host, bad
subscription JSON, unknown events) is refused with a clear reason and changes nothing; the pages (channels,
profile), another user's channel, the service worker and the VAPID key command."""
from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.utils import translation

from gm.chatpush.models import DEFAULT_EVENTS, EVENTS, MENTION, RESULTS, Channel
from gm.chatpush.services import channels
from gm.core.services import ServiceError
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

DISCORD = "https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz0123456789"


def refused(field: str, **kwargs) -> str:
    """The message of the refusal of ``channel_add_*`` for ``field``; asserts nothing was saved."""
    before = list(Channel.objects.values_list("pk", "target", "events"))
    add = channels.channel_add_webpush if "subscription" in kwargs else channels.channel_add_apprise
    with pytest.raises(ServiceError) as caught:
        add(**kwargs)
    assert list(Channel.objects.values_list("pk", "target", "events")) == before
    assert field in caught.value.errors, caught.value.errors
    return " ".join(caught.value.errors[field])


@pytest.mark.parametrize("url, says", [
    ("", "Paste the address"),
    ("not a url", "not a valid address"),
    ("discord.com/api/webhooks/1/x", "must start with a service name"),
    ("foo://bar/baz", "not one of a supported service"),
    ("discord://", "not one of a supported service"),
    ("mailto://user:pass@example.com", "does not send to"),
    ("json://127.0.0.1 /x", "not a valid address"),
])
def test_bad_apprise_urls_are_refused_and_change_nothing(players, url, says):
    with translation.override("en"):
        assert says in refused("url", user=players[0], url=url)


def test_generic_services_and_local_hosts_need_the_settings(players, settings):
    settings.GM_CHATPUSH_APPRISE_SERVICES = ["discord", "slack", "tgram", "matrix", "matrixs"]
    with translation.override("en"):
        assert "does not send to" in refused("url", user=players[0], url="json://example.com/hook")
        settings.GM_CHATPUSH_ALLOW_LOCAL = False
        assert "not reachable" in refused("url", user=players[0], url="matrixs://u:p@127.0.0.1/#room")
        assert "not reachable" in refused("url", user=players[0], url="matrixs://u:p@10.1.2.3/#room")


def test_a_discord_webhook_links_with_default_events(players):
    channel = channels.channel_add_apprise(user=players[0], url=DISCORD, label="")
    assert channel.kind == Channel.Kind.APPRISE and channel.label == "Discord"
    assert channel.events == DEFAULT_EVENTS and channel.enabled
    with pytest.raises(ServiceError) as caught:
        channels.channel_add_apprise(user=players[0], url=DISCORD)
    assert caught.value.code == "duplicate" and Channel.objects.count() == 1


def test_unknown_events_are_refused(players):
    with translation.override("en"):
        assert "Unknown event" in refused("events", user=players[0], url=DISCORD, events=[RESULTS, "gossip"])
    channel = channels.channel_add_apprise(user=players[0], url=DISCORD, events=[RESULTS])
    with pytest.raises(ServiceError):
        channels.channel_set_events(user=players[0], channel_id=channel.pk, events=["gossip"])
    channel.refresh_from_db()
    assert channel.events == [RESULTS]


def good_subscription(browser, endpoint="https://push.example.net/send/abc") -> dict:
    return browser.subscription(endpoint)


@pytest.mark.parametrize("mangle, says", [
    (lambda s: "{not json", "not valid JSON"),
    (lambda s: json.dumps([s]), "must be an object"),
    (lambda s: {**s, "keys": "x"}, "must be an object"),
    (lambda s: {**s, "endpoint": "ftp://push.example.net/x"}, "not a valid https address"),
    (lambda s: {**s, "endpoint": 42}, "not a valid https address"),
    (lambda s: {**s, "keys": {"auth": s["keys"]["auth"]}}, "lacks its keys"),
    (lambda s: {**s, "keys": {**s["keys"], "p256dh": "AAAA"}}, "keys are not valid"),
    (lambda s: {**s, "keys": {**s["keys"], "auth": "!!!"}}, "keys are not valid"),
    (lambda s: "x" * 3000, "too long"),
])
def test_bad_subscriptions_are_refused_and_change_nothing(players, browser, mangle, says):
    with translation.override("en"):
        assert says in refused("subscription", user=players[0], subscription=mangle(good_subscription(browser)))


def test_plain_http_push_endpoints_need_the_setting(players, browser, settings):
    settings.GM_CHATPUSH_ALLOW_LOCAL = False
    with translation.override("en"):
        assert "https" in refused("subscription", user=players[0],
                                  subscription=good_subscription(browser, "http://push.example.net/x"))


def test_the_same_browser_again_renews_its_keys(players, browser):
    first = channels.channel_add_webpush(user=players[0], subscription=json.dumps(good_subscription(browser)))
    Channel.objects.filter(pk=first.pk).update(enabled=False, failures=5)
    again = channels.channel_add_webpush(user=players[0], subscription=good_subscription(browser))
    assert again.pk == first.pk and again.enabled and again.failures == 0 and Channel.objects.count() == 1


def test_bad_input_in_the_page_is_shown_in_russian_by_default(players):
    client = client_for(players[0], language=None)
    response = client.post("/accounts/notifications/channels/chat/", {"url": "foo://bar", "events": [RESULTS]})
    assert response.status_code == 400
    with translation.override("ru"):
        expected = channels.parse_apprise.__globals__["_"](
            "This address is not one of a supported service, or it is incomplete (%(scheme)s://).") % {
                "scheme": "foo"}
    assert expected != "This address is not one of a supported service, or it is incomplete (foo://)."
    assert expected in response.content.decode()
    assert not Channel.objects.exists()


def test_pages_link_manage_and_hide_other_users_channels(players, browser):
    client = client_for(players[0])
    response = client.post("/accounts/notifications/channels/chat/",
                           {"url": DISCORD, "label": "My server", "events": [RESULTS, MENTION]})
    assert response.status_code == 302
    channel = Channel.objects.get()
    assert channel.label == "My server" and channel.events == [RESULTS, MENTION]
    page = client.get("/accounts/notifications/channels/").content.decode()
    assert "My server" in page and "abcdefghijklmnopqrstuvwxyz0123456789" not in page  # the token stays hidden
    assert 'src="/static/js/chatpush.js"' in page and "<script>" not in page  # CSP: script files only
    response = client.post(f"/accounts/notifications/channels/{channel.pk}/", {"label": "Renamed",
                                                                               "events": [RESULTS]})
    channel.refresh_from_db()
    assert response.status_code == 302 and channel.label == "Renamed" and channel.events == [RESULTS]
    response = client.post("/accounts/notifications/channels/push/",
                           {"subscription": json.dumps(good_subscription(browser))})
    assert response.status_code == 302 and Channel.objects.filter(kind=Channel.Kind.WEBPUSH).count() == 1
    other = client_for(players[1])
    for path in (f"{channel.pk}/", f"{channel.pk}/enable/", f"{channel.pk}/remove/"):
        assert other.post(f"/accounts/notifications/channels/{path}", {"events": []}).status_code == 404
    assert "Renamed" not in other.get("/accounts/notifications/channels/").content.decode()
    assert "Renamed" in client.get("/accounts/profile/").content.decode()
    assert client.post(f"/accounts/notifications/channels/{channel.pk}/remove/").status_code == 302
    assert not Channel.objects.filter(pk=channel.pk).exists()


def test_anonymous_visitors_are_sent_to_log_in():
    response = client_for(None).get("/accounts/notifications/channels/")
    assert response.status_code == 302 and "login" in response["Location"]


def test_service_worker_is_served_at_the_root():
    response = client_for(None).get("/chatpush-sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert "showNotification" in response.content.decode() and "tag" in response.content.decode()


def test_subscribe_button_needs_vapid_keys(players, settings):
    page = client_for(players[0]).get("/accounts/notifications/channels/").content.decode()
    assert f'data-key="{settings.GM_WEBPUSH_VAPID_PUBLIC_KEY}"' in page
    settings.GM_WEBPUSH_VAPID_PRIVATE_KEY = ""
    page = client_for(players[0]).get("/accounts/notifications/channels/").content.decode()
    assert "chatpush-subscribe" not in page and "not configured" in page


def test_vapid_key_command_prints_a_usable_pair(capsys):
    import base64

    from py_vapid import Vapid

    call_command("gm_vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    private, public = lines["GM_WEBPUSH_VAPID_PRIVATE_KEY"], lines["GM_WEBPUSH_VAPID_PUBLIC_KEY"]
    assert len(base64.urlsafe_b64decode(public + "==")) == 65
    assert Vapid.from_string(private).public_key is not None


def test_every_event_has_a_label():
    assert set(DEFAULT_EVENTS) <= set(EVENTS) and len(EVENTS) == 7


def test_account_deletion_removes_channels_and_export_lists_them(players, browser):
    from accounts.services import account_delete, personal_data

    channels.channel_add_apprise(user=players[0], url=DISCORD, label="Team", events=[RESULTS])
    channels.channel_add_webpush(user=players[0], subscription=good_subscription(browser))
    exported = personal_data(user=players[0])["chat_channels"]
    assert [(c["kind"], c["label"], c["events"]) for c in exported][0] == ("apprise", "Team", [RESULTS])
    assert DISCORD not in json.dumps(exported)  # addresses are not exported
    account_delete(user=players[0])
    assert not Channel.objects.filter(user=players[0]).exists()
