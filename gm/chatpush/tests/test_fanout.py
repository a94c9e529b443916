"""Who gets which message, checked on what really arrives at the local HTTP endpoint: the per-event filter, the
secret canary (no seat's secret — its role — in any delivered payload, nor a private message's text), anonymous
games (aliases only), mentions, private messages, prods, a master's line for one seat, and the whole path from the
core's ``phase_notify_task`` through the signal, the receiver and the tasks (Celery eager)."""
from __future__ import annotations

import json
import re

import pytest
from django.utils import translation

from gm.chatpush.models import (
    DEADLINE,
    EVENTS,
    MENTION,
    PHASE_OPENED,
    PROD,
    RESULTS,
    YOUR_MOVE,
    Delivery,
)
from gm.chatpush.services import channels, fanout
from gm.chatpush.tasks import deliver_task
from gm.core import services, tasks, visibility
from gm.core.models import LogEntry, Phase, Post, PostPrivate, Seat
from gm.core.services.anonymity import anonymity_set

pytestmark = pytest.mark.django_db

HOUR = 3600
SECRETS = {0: 481516, 1: 623342, 2: 704938, 3: 857261}
ROLES = {0: "Werewolf", 1: "Seer", 2: "Doppelganger", 3: "Insomniac"}
PRIVATE_TEXT = "meet me at the old mill"


def deliver_all() -> list[str]:
    return [deliver_task.apply(args=[pk]).get() for pk in
            Delivery.objects.filter(status=Delivery.Status.PENDING).order_by("pk").values_list("pk", flat=True)]


def shows(text: str, value) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(str(value))}(?![\w])", text) is not None


def link_all(users, endpoint, language: str = "en") -> None:
    """A ``json://`` channel with every event for each of ``users``, who read English (the site's default is
    Russian)."""
    from accounts.models import Profile

    for user in users:
        Profile.objects.update_or_create(user=user, defaults={"language": language})
        channels.channel_add_apprise(user=user, url=endpoint.url(f"/u{user.pk}", scheme="json"), events=list(EVENTS))


def received(endpoint, user) -> list[dict]:
    return [json.loads(r.body) for r in endpoint.to(f"/u{user.pk}")]


def seat_up(game) -> dict[int, Seat]:
    for seat in game.seats.all():
        Seat.objects.filter(pk=seat.pk).update(
            data={"secret": SECRETS[seat.position], "score": 0, "role": ROLES[seat.position]})
    return {s.position: s for s in game.seats.all()}


def play_round(game, players, frozen) -> Phase:
    phase = game.phases.get(status=Phase.Status.OPEN)
    for i, user in enumerate(players):
        services.order_submit(phase=phase, user=user, payload={"number": i + 1})
    frozen.shift(HOUR)
    assert services.phases_sweep().resolved == [phase.pk]
    return phase


def test_only_the_events_a_channel_chose_reach_it(frozen, running_game, players, endpoint):
    user = players[0]
    results = channels.channel_add_apprise(user=user, url=endpoint.url("/results", scheme="json"), events=[RESULTS])
    other = channels.channel_add_apprise(user=user, url=endpoint.url("/other", scheme="json"),
                                         events=[DEADLINE, MENTION])
    phase = play_round(running_game, players, frozen)
    created = fanout.phase_results(phase_id=phase.pk)  # results, then round 2 opened and "your move"
    assert [(d.channel_id, d.event) for d in created] == [(results.pk, RESULTS)]
    assert fanout.phase_results(phase_id=phase.pk) == []  # run twice: nothing new
    channels.channel_set_events(user=user, channel_id=other.pk, events=[PHASE_OPENED, YOUR_MOVE])
    opened = fanout.phase_opened(phase_id=running_game.phases.get(status=Phase.Status.OPEN).pk)
    assert sorted(d.event for d in opened) == [PHASE_OPENED, YOUR_MOVE] and {d.channel_id for d in opened} == {
        other.pk}
    deliver_all()
    assert len(endpoint.to("/results")) == 1 and len(endpoint.to("/other")) == 2


def test_canary_no_secret_in_any_delivered_payload(frozen, running_game, master, players, spectator, endpoint):
    """A seat's secret and role reach no chat or push payload — not another player's, not the master's, and not
    even the seat's own (its text stays on the site, where the visibility layer shows it to him alone); nor does
    a private message's text. The canary is live: each secret is in its own player's log lines."""
    seats = seat_up(running_game)
    link_all([master, *players, spectator], endpoint)
    round1 = play_round(running_game, players, frozen)
    for pos, user in enumerate(players):  # the secret exists, and only its owner may read it
        own = " ".join(e.text() for e in visibility.log_entries(visibility.viewer_for(user, running_game)))
        assert shows(own, SECRETS[pos])
        assert not any(shows(own, SECRETS[p]) for p in SECRETS if p != pos)
    post = Post.objects.create(game=running_game, author=players[1], seat=seats[1],
                               phase=running_game.phases.get(status=Phase.Status.OPEN), body="Hi @Seat2")
    PostPrivate.objects.create(post=post, recipient=seats[2], text=PRIVATE_TEXT)
    fanout.phase_results(phase_id=round1.pk)
    fanout.post_created(post_id=post.pk)
    fanout.seat_told(entry_ids=LogEntry.objects.filter(phase=round1, visibility="seat").values_list("pk", flat=True))
    fanout.prod(seat_id=seats[3].pk, prods=1, hours=48)
    deliver_all()
    assert not endpoint.to(f"/u{spectator.pk}")  # no seat: nothing
    everything = ""
    for user in [master, *players]:
        bodies = " ".join(r.body.decode() for r in endpoint.to(f"/u{user.pk}"))
        assert bodies, f"{user} received nothing"
        everything += bodies
    for pos in SECRETS:
        assert not shows(everything, SECRETS[pos]), f"seat {pos}'s secret was delivered"
        assert ROLES[pos] not in everything, f"seat {pos}'s role was delivered"
    assert PRIVATE_TEXT not in everything
    titles = [m["title"] for m in received(endpoint, players[2])]
    assert any("private message from Seat1" in t for t in titles)
    assert any("Seat1 mentioned you" in t for t in titles)
    assert not any("private message" in m["title"] for m in received(endpoint, players[3]))
    assert not any("private message" in m["title"] for m in received(endpoint, master))  # he reads the thread


def test_results_copy_public_lines_and_count_private_ones(frozen, running_game, players, endpoint):
    seat_up(running_game)
    link_all(players[:1], endpoint)
    round1 = play_round(running_game, players, frozen)
    fanout.phase_results(phase_id=round1.pk)
    deliver_all()
    [results] = [m for m in received(endpoint, players[0]) if "is over" in m["title"]]
    with translation.override("en"):
        public = [e.text() for e in LogEntry.objects.filter(phase=round1, visibility="public")]
    public = [line for line in public if "Deadline" not in line]  # a time: in the recipient's zone, not the test's
    assert public and all(line in results["message"] for line in public)
    assert "for your eyes only" in results["message"]


def test_anonymous_game_shows_aliases_only(frozen, signup_game, master, players, endpoint):
    anonymity_set(game=signup_game, actor=master, anonymous=True)
    services.game_start(game=signup_game, actor=master)
    game = signup_game
    game.refresh_from_db()
    seats = {s.position: s for s in game.seats.all()}
    aliases = {pos: s.display_name for pos, s in seats.items()}
    assert not any(a.startswith("Seat") for a in aliases.values())
    link_all(players, endpoint)
    post = services.post_create(game=game, user=players[0], body=f"@{aliases[1]} what do you think, @{aliases[3]}?")
    created = fanout.post_created(post_id=post.pk)
    assert sorted(d.channel.user_id for d in created) == sorted([players[1].pk, players[3].pk])
    deliver_all()
    for user in (players[1], players[3]):
        [message] = received(endpoint, user)
        assert message["title"].endswith(f"{aliases[0]} mentioned you")
        text = json.dumps(message)
        for pos, user_ in enumerate(players):
            assert f"Seat{pos}" not in text and not shows(text, user_.username)


def test_mentions_name_living_seats_not_the_author(frozen, running_game, master, players, endpoint):
    link_all([master, *players], endpoint)
    post = services.post_create(game=running_game, user=players[1], body="[b]@Seat1[/b] @seat3, and @Seat22 too")
    created = fanout.post_created(post_id=post.pk)
    assert [d.channel.user_id for d in created] == [players[3].pk]  # not himself; "@Seat22" is nobody
    deliver_all()
    [message] = received(endpoint, players[3])
    assert message["title"] == f"{running_game.title}: Seat1 mentioned you"
    assert "[b]" not in message["message"] and f"#post-{post.pk}" in message["message"]


def test_prod_and_game_start(signup_game, master, players, endpoint):
    link_all(players, endpoint)
    services.game_start(game=signup_game, actor=master)
    created = fanout.game_started(game_id=signup_game.pk)
    assert sorted(d.event for d in created if d.channel.user_id == players[0].pk) == [PHASE_OPENED, YOUR_MOVE]
    seat = signup_game.seats.get(user=players[2])
    [row] = fanout.prod(seat_id=seat.pk, prods=1, hours=36)
    assert row.event == PROD and fanout.prod(seat_id=seat.pk, prods=1, hours=36) == []
    deliver_all()
    assert any("36 hours" in m["message"] for m in received(endpoint, players[2]))


def test_dead_seat_gets_no_your_move(frozen, running_game, players, endpoint):
    link_all(players, endpoint)
    Seat.objects.filter(game=running_game, user=players[0]).update(alive=False)
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    created = fanout.phase_opened(phase_id=phase.pk)
    moves = {d.channel.user_id for d in created if d.event == YOUR_MOVE}
    assert moves == {u.pk for u in players[1:]}


def test_messages_follow_the_recipients_language(frozen, running_game, players, endpoint):
    link_all(players[:1], endpoint, language="ru")
    link_all(players[1:2], endpoint, language="en")
    fanout.prod(seat_id=running_game.seats.get(user=players[0]).pk, prods=1, hours=12)
    fanout.prod(seat_id=running_game.seats.get(user=players[1]).pk, prods=1, hours=12)
    deliver_all()
    [ru] = received(endpoint, players[0])
    [en] = received(endpoint, players[1])
    assert "we miss you" in en["title"] and "we miss you" not in ru["title"]
    assert re.search("[а-яА-Я]", ru["title"])


@pytest.fixture
def eager():
    from gm.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = previous


def test_from_the_core_signal_to_the_endpoint(frozen, running_game, players, endpoint, eager,
                                              django_capture_on_commit_callbacks):
    """``phase_notify_task`` → ``phase_results_ready`` → the receiver's task (after commit) → the fan-out → each
    delivery's task → the HTTP endpoint, with Celery eager: the way a worker runs it."""
    link_all(players[:1], endpoint)
    round1 = play_round(running_game, players, frozen)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.phase_notify_task(round1.pk)
    titles = sorted(m["title"] for m in received(endpoint, players[0]))
    assert any("is over" in t for t in titles) and any("your move" in t for t in titles)
    assert Delivery.objects.filter(status=Delivery.Status.SENT).count() == len(titles)


def test_game_start_and_posts_reach_channels_through_the_signals(signup_game, master, players, endpoint, eager,
                                                                 settings, django_capture_on_commit_callbacks):
    """``game_started`` (on commit of the start) and ``post_created`` (after the post committed) → the receivers'
    tasks → the endpoint: the first phase and "your move", then a mention."""
    # The deadline task runs eagerly too: with one countdown for the whole round it finds the phase not due and
    # stops (a capped countdown would "hop" forever when eager).
    settings.GM_ETA_MAX = 10 * HOUR
    link_all(players[:2], endpoint)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_start(game=signup_game, actor=master)
    signup_game.refresh_from_db()
    titles = [m["title"] for m in received(endpoint, players[0])]
    assert any("has begun" in t for t in titles) and any("your move" in t for t in titles)
    with django_capture_on_commit_callbacks(execute=True):
        services.post_create(game=signup_game, user=players[1], body="What do you say, @Seat0?")
    assert received(endpoint, players[0])[-1]["title"] == f"{signup_game.title}: Seat1 mentioned you"
    assert not any("mentioned" in m["title"] for m in received(endpoint, players[1]))
