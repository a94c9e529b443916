"""Delivery to a real local HTTP endpoint (conftest's ``endpoint``): apprise's ``json://`` and Web Push with
pywebpush's encryption — what arrives, the TTL and Topic headers, the deadline warning's collapse, retries with
exponential backoff, and disabling a channel after N failures in a row (the user told in his inbox and on his
profile)."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest

from gm.chatpush.models import DEADLINE, EVENTS, RESULTS, YOUR_MOVE, Channel, Delivery
from gm.chatpush.services import channels, delivery, fanout
from gm.chatpush.tasks import deliver_task
from gm.core import services
from gm.core.models import Phase
from gm.inbox.models import GameReminder, Notification
from gm.inbox.services import reminders_sweep
from tests.helpers import client_for, running_tally_games

pytestmark = pytest.mark.django_db

HOUR = 3600


def deliver_all() -> list[str]:
    """Run every pending delivery's task in this process (Celery's eager ``apply``: its retries run at once)."""
    return [deliver_task.apply(args=[pk]).get() for pk in
            Delivery.objects.filter(status=Delivery.Status.PENDING).order_by("pk").values_list("pk", flat=True)]


def resolve_round(game, players, frozen) -> Phase:
    phase = game.phases.get(status=Phase.Status.OPEN)
    for i, user in enumerate(players):
        services.order_submit(phase=phase, user=user, payload={"number": i + 1})
    frozen.shift(HOUR)
    services.phases_sweep()
    phase.refresh_from_db()
    assert phase.status == Phase.Status.RESOLVED
    return phase


def json_channel(user, endpoint, events=None, path=None) -> Channel:
    from accounts.models import Profile

    Profile.objects.update_or_create(user=user, defaults={"language": "en"})
    return channels.channel_add_apprise(user=user, url=endpoint.url(path or f"/u{user.pk}", scheme="json"),
                                        events=list(EVENTS) if events is None else events)


def test_apprise_json_message_carries_title_and_absolute_link(frozen, running_game, players, endpoint):
    json_channel(players[0], endpoint, events=[RESULTS])
    phase = resolve_round(running_game, players, frozen)
    assert len(fanout.phase_results(phase_id=phase.pk)) == 1
    assert deliver_all() == [Delivery.Status.SENT]
    [request] = endpoint.to(f"/u{players[0].pk}")
    payload = json.loads(request.body)
    assert running_game.title in payload["title"]
    assert f"https://gm.example/games/{running_game.pk}/#log-h" in payload["message"]
    row = Delivery.objects.get()
    assert row.status == Delivery.Status.SENT and row.attempts == 1 and row.sent_at is not None


def test_webpush_arrives_encrypted_with_ttl_and_topic(frozen, running_game, players, endpoint, browser):
    channels.channel_add_webpush(user=players[1], subscription=browser.subscription(endpoint.url("/push/1")),
                                 events=[DEADLINE])
    GameReminder.objects.create(game=running_game, hours=1)
    frozen.shift(HOUR // 2)  # inside the last hour of round 1
    assert reminders_sweep().sent
    [row] = fanout.deadline_sweep()
    assert deliver_all() == [Delivery.Status.SENT]
    [request] = endpoint.to("/push/1")
    assert request.headers["content-encoding"] == "aes128gcm"
    assert request.headers["topic"] == f"deadline-{running_game.pk}"
    assert int(request.headers["ttl"]) == row.ttl == HOUR // 2  # kept until the deadline, no longer
    assert request.headers["authorization"].startswith("vapid t=")
    # Encrypted: nothing of the message is readable on the wire. Its tag (10+ bytes) is looked for, not a 2-letter
    # user name, which random ciphertext of a few hundred bytes contains about once in 200 runs.
    assert f"deadline-{running_game.pk}".encode() not in request.body
    message = json.loads(browser.decrypt(request.body))
    assert message["tag"] == f"deadline-{running_game.pk}"
    assert running_game.title in message["title"]
    assert message["url"] == f"https://gm.example/games/{running_game.pk}/"


def test_a_new_deadline_warning_replaces_the_previous_one(frozen, running_game, players, endpoint, browser):
    """Collapse: the same deadline is warned once however many sweeps run; a moved deadline is warned again with
    the same Topic and tag (the push service and the device replace the old one) and says it replaces it; a warning
    still waiting for its retry is dropped for the newer one."""
    push = channels.channel_add_webpush(user=players[1], subscription=browser.subscription(endpoint.url("/push/1")),
                                        events=[DEADLINE])
    chat = json_channel(players[1], endpoint, events=[DEADLINE])
    GameReminder.objects.create(game=running_game, hours=1)
    frozen.shift(HOUR // 2)
    reminders_sweep()
    first = fanout.deadline_sweep()
    assert {d.channel_id for d in first} == {push.pk, chat.pk}
    assert fanout.deadline_sweep() == [] and reminders_sweep().sent == []  # no second warning for the same one
    deliver_all()
    assert len(endpoint.requests) == 2

    phase = running_game.phases.get(status=Phase.Status.OPEN)
    Phase.objects.filter(pk=phase.pk).update(deadline=phase.deadline + timedelta(hours=1))  # an extension
    phase.refresh_from_db()
    second = fanout.deadline_sweep()
    assert {d.channel_id for d in second} == {push.pk, chat.pk}
    third = fanout.deadline_sweep()
    assert third == []
    # A third deadline before the second warning went out: the second is superseded, only the newest is sent.
    Phase.objects.filter(pk=phase.pk).update(deadline=phase.deadline + timedelta(minutes=30))
    newest = fanout.deadline_sweep()
    assert all(Delivery.objects.get(pk=d.pk).status == Delivery.Status.SUPERSEDED for d in second)
    deliver_all()
    pushes = endpoint.to("/push/1")
    assert len(pushes) == 2 and {p.headers["topic"] for p in pushes} == {f"deadline-{running_game.pk}"}
    last = json.loads(browser.decrypt(pushes[-1].body))
    assert last["tag"] == f"deadline-{running_game.pk}" and last["renotify"] is True
    chat_posts = endpoint.to(f"/u{players[1].pk}")
    assert len(chat_posts) == 2
    assert "replaces the previous one" in json.loads(chat_posts[-1].body)["message"]
    assert {d.pk for d in newest} == set(Delivery.objects.filter(status=Delivery.Status.SENT, key__in=[
        d.key for d in newest]).values_list("pk", flat=True))


def test_retries_back_off_exponentially_then_succeed(running_game, players, endpoint, settings):
    settings.GM_CHATPUSH_BACKOFF = 30
    settings.GM_CHATPUSH_BACKOFF_MAX = 100
    channel = json_channel(players[0], endpoint, events=[YOUR_MOVE])
    endpoint.fail_next = 3
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    [row] = [d for d in fanout.phase_opened(phase_id=phase.pk) if d.event == YOUR_MOVE]
    assert deliver_task.apply(args=[row.pk]).get() == Delivery.Status.SENT
    row.refresh_from_db()
    assert len(endpoint.requests) == 4
    assert row.attempts == 4 and row.status == Delivery.Status.SENT
    assert row.delays == [30, 60, 100]  # doubled each time, capped at GM_CHATPUSH_BACKOFF_MAX
    channel.refresh_from_db()
    assert channel.failures == 0 and channel.enabled  # a success resets the count


def test_backoff_doubles_from_the_setting(settings):
    settings.GM_CHATPUSH_BACKOFF = 30
    settings.GM_CHATPUSH_BACKOFF_MAX = 3600
    assert [delivery.backoff(n) for n in range(1, 9)] == [30, 60, 120, 240, 480, 960, 1920, 3600]


def test_channel_failing_n_times_in_a_row_is_disabled_and_user_told(running_game, players, endpoint, settings):
    settings.GM_CHATPUSH_MAX_ATTEMPTS = 3
    settings.GM_CHATPUSH_DISABLE_AFTER = 5
    user = players[0]
    channel = json_channel(user, endpoint)
    endpoint.fail_always = True
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    opened, move = fanout.phase_opened(phase_id=phase.pk)
    assert deliver_task.apply(args=[opened.pk]).get() == Delivery.Status.FAILED  # 3 attempts, then gives up
    channel.refresh_from_db()
    assert channel.failures == 3 and channel.enabled
    assert deliver_task.apply(args=[move.pk]).get() == Delivery.Status.FAILED  # the 5th failure in a row
    channel.refresh_from_db()
    assert len(endpoint.requests) == 5
    assert not channel.enabled and channel.failures == 5 and channel.disabled_at is not None
    note = Notification.objects.get(user=user, kind=Notification.Kind.CHANNEL_DISABLED)
    assert note.data["channel"] == channel.label and note.data["failures"] == 5
    assert fanout.prod(seat_id=running_game.seats.get(user=user).pk, prods=1, hours=24) == []  # no more queued
    page = client_for(user).get("/accounts/profile/").content.decode()
    assert "chatpush-profile" in page and channel.disabled_reason in page
    inbox = client_for(user).get("/inbox/").content.decode()
    assert channel.label in inbox
    # The user enables it again: the count starts over and messages flow.
    channels.channel_enable(user=user, channel_id=channel.pk)
    endpoint.fail_always = False
    assert [d.status for d in fanout.prod(seat_id=running_game.seats.get(user=user).pk, prods=2, hours=24)] == [
        Delivery.Status.PENDING]
    assert deliver_all() == [Delivery.Status.SENT]


def test_success_between_failures_resets_the_count(running_game, players, endpoint, settings):
    settings.GM_CHATPUSH_MAX_ATTEMPTS = 4
    settings.GM_CHATPUSH_DISABLE_AFTER = 5
    channel = json_channel(players[0], endpoint)
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    opened, move = fanout.phase_opened(phase_id=phase.pk)
    endpoint.fail_next = 3
    assert deliver_task.apply(args=[opened.pk]).get() == Delivery.Status.SENT
    endpoint.fail_next = 3
    assert deliver_task.apply(args=[move.pk]).get() == Delivery.Status.SENT
    channel.refresh_from_db()
    assert channel.enabled and channel.failures == 0  # 6 failures in all, never 5 in a row


def test_push_subscription_gone_disables_at_once(running_game, players, endpoint, browser):
    channel = channels.channel_add_webpush(user=players[2], subscription=browser.subscription(endpoint.url("/gone")),
                                           events=[YOUR_MOVE])
    endpoint.fail_always, endpoint.fail_status = True, 410
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    [row] = fanout.phase_opened(phase_id=phase.pk)
    assert deliver_task.apply(args=[row.pk]).get() == Delivery.Status.FAILED
    channel.refresh_from_db()
    assert len(endpoint.requests) == 1 and not channel.enabled
    assert Notification.objects.filter(user=players[2], kind=Notification.Kind.CHANNEL_DISABLED).count() == 1


def test_a_delivery_runs_once_even_if_its_task_runs_twice(running_game, players, endpoint):
    json_channel(players[0], endpoint, events=[YOUR_MOVE])
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    [row] = fanout.phase_opened(phase_id=phase.pk)
    assert deliver_task.apply(args=[row.pk]).get() == Delivery.Status.SENT
    assert deliver_task.apply(args=[row.pk]).get() == Delivery.Status.SENT  # late acknowledgement: no resend
    assert len(endpoint.requests) == 1


def test_deadline_warnings_reach_every_reminded_phase_batch_by_batch(frozen, master, players, endpoint):
    """More reminded phases than one batch: each batch ends with the cursor of the next (deadlines tied, ids
    break the tie), the batches together warn every phase once, and ``deadline_sweep`` walks them all (issue 25
    goal 4: no phase waits behind the same first batch)."""
    json_channel(players[0], endpoint, events=[DEADLINE])
    games = running_tally_games(master, players, 3, title="Warn", rounds=2)
    for game in games:
        GameReminder.objects.create(game=game, hours=1)
    frozen.shift(HOUR // 2)
    assert len(reminders_sweep().sent) == 3 * len(players)
    first, after = fanout.deadline_sweep_batch(limit=2)
    second, last = fanout.deadline_sweep_batch(limit=2, after=after)
    assert after is not None and last is None
    assert sorted(d.game_id for d in first + second) == sorted(g.pk for g in games)  # one warning each
    assert fanout.deadline_sweep(limit=1) == []  # the whole sweep again: every warning was sent already
