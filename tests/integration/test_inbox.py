"""Notifications (issue 7, item 7): the in-site inbox, the e-mail opt-in, deadline reminders and the Atom feed.

The ``tally`` game has four seats (ring positions 0–3; odd positions share the group ``team:odd``). In round 1
seat 0 orders 0 and dies. Each seat's secret is a distinctive six-digit number (it is in the seat's own log lines),
so a leak through the inbox page, the API, an e-mail or the feed shows up as that number.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core import mail
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from gm.core import services, tasks
from gm.core.metrics import email_failures
from gm.core.models import AuditEntry, Game, GroupMembership, LogEntry, Phase, Seat
from gm.core.services import ServiceError
from gm.core.visibility import DEAD_PLAYER, MASTER, PLAYER, SPECTATOR
from gm.inbox import services as inbox
from gm.inbox.context_processors import inbox as inbox_context
from gm.inbox.models import GameReminder, Notification, NotificationSettings, PhaseReminder
from gm.inbox.tasks import reminders_sweep_task
from gm.modules.forum_mafia.bench import table as fm_night
from tests.helpers import api, client_for, running_tally_games

pytestmark = pytest.mark.django_db

SECRETS = {0: 481516, 1: 623342, 2: 704938, 3: 857261}
ROUND1 = {0: 0, 1: 5, 2: 2, 3: 3}  # position → number ordered (0 kills seat 0)
HOUR = 3600


def shows(text: str, number: int) -> bool:
    return re.search(rf"(?<![\w.]){number}(?![\w])", text) is not None


def secrets_shown(text: str) -> set[int]:
    return {pos for pos, secret in SECRETS.items() if shows(text, secret)}


def opt_in(*users, email: bool = True):
    for user in users:
        NotificationSettings.objects.update_or_create(user=user, defaults={"email": email})


def notes(user, **filters):
    return Notification.objects.filter(user=user, **filters)


@dataclass
class Table:
    game: Game
    round1: Phase
    round2: Phase
    users: dict  # name → user
    seats: dict  # position → Seat


@pytest.fixture
def table(frozen, running_game, master, players, spectator) -> Table:
    """Round 1 resolved (seat 0 dead) and its results notified; round 2 open."""
    game = running_game
    for seat in game.seats.all():
        Seat.objects.filter(pk=seat.pk).update(data={"secret": SECRETS[seat.position], "score": 0})
    round1 = game.phases.get(status=Phase.Status.OPEN)
    for pos, number in ROUND1.items():
        services.order_submit(phase=round1, user=players[pos], payload={"number": number})
    frozen.shift(HOUR)
    assert services.phases_sweep().resolved == [round1.pk]
    tasks.phase_notify_task(round1.pk)
    seats = {s.position: s for s in game.seats.all()}
    users = {"master": master, "spectator": spectator, **{f"p{i}": u for i, u in enumerate(players)}}
    return Table(game, round1, game.phases.get(status=Phase.Status.OPEN), users, seats)


@dataclass(frozen=True)
class Row:
    name: str
    kind: str
    user: str | None
    own: int | None  # own ring position
    group: bool  # member of team:odd


TABLE = [
    Row("master", MASTER, "master", None, False),
    Row("own", PLAYER, "p1", 1, True),
    Row("other", PLAYER, "p2", 2, False),
    Row("teammate", PLAYER, "p3", 3, True),
    Row("dead", DEAD_PLAYER, "p0", 0, False),
    Row("spectator", SPECTATOR, "spectator", None, False),
]
by_viewer = pytest.mark.parametrize("row", TABLE, ids=[r.name for r in TABLE])


def addressed_entries(table: Table, row: Row) -> set[int]:
    """The private log lines of round 1 (and round 2's opening) meant for this viewer alone or his group."""
    phases = [table.round1, table.round2]
    if row.own is None:
        return set()
    ids = set(LogEntry.objects.filter(phase__in=phases, visibility="seat", seat=table.seats[row.own])
              .values_list("pk", flat=True))
    if row.group:
        ids |= set(LogEntry.objects.filter(phase__in=phases, visibility="group", group="team:odd")
                   .values_list("pk", flat=True))
    return ids


# -- phase results ----------------------------------------------------------------------------------------------


@by_viewer
def test_phase_results_reach_each_viewer_kind(table, row):
    user = table.users[row.user]
    if row.kind == SPECTATOR:
        assert not notes(user).exists()  # no seat: nothing, private or public
        return
    results = notes(user, kind="phase_results")
    assert results.count() == 1 and results.get().phase == table.round1
    private = set(notes(user, kind="result").values_list("entry_id", flat=True))
    assert private == addressed_entries(table, row)
    if row.own is not None:
        assert private, "a player's own round-1 line reaches him (living or dead)"
        assert all(e.visibility == "seat" and e.seat == table.seats[row.own]
                   or e.visibility == "group" and row.group
                   for e in LogEntry.objects.filter(pk__in=private))
    counts = results.get().data
    if row.kind == MASTER:  # he reads everything: the trace and every seat's lines count in his summary
        assert counts["private"] == LogEntry.objects.filter(phase__in=[table.round1, table.round2]).exclude(
            visibility="public").count()
    else:
        assert counts["private"] == len(addressed_entries(table, row))


@by_viewer
def test_inbox_page_and_api_show_only_the_viewers_own_secrets(table, row):
    user = table.users[row.user]
    client = client_for(user)
    html = client.get(reverse("inbox:list")).content.decode()
    status, data = api(client, "get", "/api/inbox/", {"limit": 500})
    assert status == 200
    text = str(data)
    expected = {row.own} if row.own is not None else set()
    if row.kind == MASTER:
        expected = set()  # his inbox summarises; the secrets are on the game page
    assert secrets_shown(html) == expected
    assert secrets_shown(text) == expected
    assert len(data["results"]) == notes(user).count()
    assert {n["id"] for n in data["results"]} == set(notes(user).values_list("pk", flat=True))


def test_anonymous_has_no_inbox(table):
    client = client_for(None)
    response = client.get(reverse("inbox:list"))
    assert response.status_code == 302 and "login" in response["Location"]
    status, data = api(client, "get", "/api/inbox/")
    assert status in (401, 403) and data["code"] == "not_authenticated"
    html = client.get("/").content.decode()
    assert reverse("inbox:list") not in html


def test_results_arrive_through_the_resolution_and_its_task(frozen, running_game, players, monkeypatch,
                                                            django_capture_on_commit_callbacks):
    """phase_resolve → (after commit) phase_notify_task → the core's signal → the inbox."""
    monkeypatch.setattr(tasks.phase_notify_task, "delay", lambda phase_id: tasks.phase_notify_task(phase_id))
    monkeypatch.setattr(tasks.phase_deadline_task, "apply_async", lambda *a, **k: None)
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    frozen.shift(HOUR)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.phases_sweep().resolved == [phase.pk]
    for user in players + [running_game.master]:
        assert notes(user, kind="phase_results", phase=phase).count() == 1


def test_notifying_twice_adds_nothing(table):
    before = Notification.objects.count()
    assert inbox.notify_phase_results(phase_id=table.round1.pk) == 0
    tasks.phase_notify_task(table.round1.pk)
    assert Notification.objects.count() == before
    assert inbox.notify_phase_results(phase_id=table.round2.pk) == 0  # not resolved yet: nothing
    assert Notification.objects.count() == before


def test_finished_game_reveals_the_log_but_no_one_gets_anothers_lines(table, frozen):
    for _ in range(2):
        frozen.shift(2 * HOUR)
        for phase_id in services.phases_sweep().resolved:
            tasks.phase_notify_task(phase_id)
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    p2 = table.users["p2"]
    own = table.seats[2]
    for note in notes(p2, kind="result").select_related("entry"):
        assert note.entry.visibility == "seat" and note.entry.seat_id == own.pk
    # the last phase's summary counts every line (the log is public now), and the page shows them all
    last = table.game.phases.order_by("-ordinal").first()
    assert notes(p2, kind="phase_results", phase=last).get().data["private"] > 0
    assert secrets_shown(client_for(p2).get(reverse("inbox:list")).content.decode()) == {2}


# -- e-mail -----------------------------------------------------------------------------------------------------


def test_email_only_to_those_who_opted_in_in_their_language_and_zone(frozen, running_game, players, master):
    p0, p1, p2, p3 = players
    opt_in(master, p1, p2)
    opt_in(p3, email=False)
    p2.email = ""
    p2.save()
    Profile.objects.filter(user=p1).update(language="en", time_zone="Asia/Tokyo")
    Profile.objects.filter(user=master).update(language="ru", time_zone="Europe/Moscow")
    for seat in running_game.seats.all():
        Seat.objects.filter(pk=seat.pk).update(data={"secret": SECRETS[seat.position], "score": 0})
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    for user in players:
        services.order_submit(phase=phase, user=user, payload={"number": 4})
    frozen.shift(HOUR)
    services.phases_sweep()
    assert tasks.phase_notify_task(phase.pk) == 2
    by_rcpt = {m.to[0]: m for m in mail.outbox}
    assert set(by_rcpt) == {master.email, p1.email}  # p2 has no address, p0/p3 did not opt in
    assert "is over" in by_rcpt[p1.email].subject and "Asia/Tokyo" in by_rcpt[p1.email].body
    assert "завершена" in by_rcpt[master.email].subject and "Europe/Moscow" in by_rcpt[master.email].body
    assert secrets_shown(by_rcpt[p1.email].body) == {1}
    assert secrets_shown(by_rcpt[master.email].body) == {0, 1, 2, 3}
    # exactly once: a second run of the task (late acknowledgement) sends nothing more
    assert tasks.phase_notify_task(phase.pk) == 0 and len(mail.outbox) == 2
    assert notes(p1, kind="phase_results").get().emailed_at is not None


def test_failed_email_is_given_back_for_a_retry(frozen, running_game, players, monkeypatch):
    opt_in(players[0])
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    frozen.shift(HOUR)
    services.phases_sweep()

    def broken(**kwargs):
        raise ConnectionError("smtp down")

    monkeypatch.setattr(inbox, "send_phase_results", broken)
    failures = email_failures()
    with pytest.raises(ConnectionError):
        inbox.notify_phase_results(phase_id=phase.pk)
    assert notes(players[0], kind="phase_results").get().emailed_at is None
    assert email_failures() == failures + 1  # /metrics: gm_email_failures_total
    monkeypatch.undo()
    assert inbox.notify_phase_results(phase_id=phase.pk) == 1 and len(mail.outbox) == 1


def test_settings_on_the_inbox_and_profile_pages(players):
    user = players[0]
    client = client_for(user)
    assert 'name="email"' in client.get(reverse("inbox:list")).content.decode()
    assert 'name="email"' in client.get(reverse("profile")).content.decode()
    assert not inbox.email_enabled(user)  # off by default
    response = client.post(reverse("inbox:settings"), {"email": "on", "next": reverse("profile")})
    assert response.status_code == 302 and response["Location"] == reverse("profile")
    assert inbox.email_enabled(user)
    response = client.post(reverse("inbox:settings"), {"next": "https://evil.example/"})
    assert response["Location"] == reverse("inbox:list")  # no open redirect
    assert not inbox.email_enabled(user)


# -- private messages and rooms ---------------------------------------------------------------------------------


def test_private_message_text_reaches_only_its_recipient(table):
    game, seats, users = table.game, table.seats, table.users
    message = SimpleNamespace(pk=77, post=SimpleNamespace(pk=5, game=game, seat=seats[1]), recipient=seats[2],
                              text="meet me at the mill 913377")
    note = inbox.notify_private(message)
    assert note.user == users["p2"] and note.body.endswith("913377") and note.key == "private:77"
    assert inbox.notify_private(message) is None  # the same message again: nothing new
    for name, user in users.items():
        html = client_for(user).get(reverse("inbox:list")).content.decode()
        status, data = api(client_for(user), "get", "/api/inbox/")
        assert (("913377" in html), ("913377" in str(data))) == ((name == "p2"),) * 2, name
    html = client_for(users["p2"]).get(reverse("inbox:list")).content.decode()
    assert "Seat1" in html and "#post-5" in html  # the sender is public (FM-9.2); the link goes to the post
    # keyword form; a recipient outside the game is refused
    assert inbox.notify_private(game=game, recipient=users["master"], text="hi", sender="Seat3").user == users["master"]
    other = services.game_create(master=users["master"], module="tally", title="Other", options={}, rng_seed=1)
    with pytest.raises(ValueError):
        inbox.notify_private(game=other, recipient=seats[2], text="leak")
    with pytest.raises(ValueError):
        inbox.notify_private(game=game, recipient=users["spectator"], text="leak")


def test_room_invitation_reaches_only_the_members(table):
    game, seats, users = table.game, table.seats, table.users
    created = inbox.notify_room(game, "room:1", [seats[1].pk, seats[3].pk])
    assert {n.user for n in created} == {users["p1"], users["p3"]}
    assert inbox.notify_room(game, "room:1", [seats[1].pk, seats[3].pk]) == []  # once per room
    for name in ("master", "p0", "p2", "spectator"):
        assert not notes(users[name], kind="room_invitation").exists()
    html = client_for(users["p1"]).get(reverse("inbox:list")).content.decode()
    assert "Seat3" in html and "chat room" in html
    with pytest.raises(ValueError):
        inbox.notify_room(game, "room:2", [seats[1].pk, 999999])
    with pytest.raises(ValueError):
        inbox.notify_room(game, "", [seats[1].pk])


# -- reading: unread counts, marking read, permissions ---------------------------------------------------------


def test_unread_count_in_header_and_marking_read(table):
    user = table.users["p1"]
    client = client_for(user)
    unread = notes(user, read_at__isnull=True).count()
    assert unread >= 3  # phase results, own line, group line
    html = client.get("/").content.decode()
    assert re.search(rf'id="inbox-unread">\s*<span class="flag">{unread}</span>', html)
    first = notes(user).order_by("id").first()
    response = client.post(reverse("inbox:read", args=[first.pk]), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and f'id="note-{first.pk}"' in body
    assert 'hx-swap-oob="true"' in body and f">{unread - 1}<" in body
    assert inbox.unread_count(user) == unread - 1
    # the list shows unread ones first
    status, data = api(client, "get", "/api/inbox/")
    flags = [n["unread"] for n in data["results"]]
    assert flags == sorted(flags, reverse=True) and flags[-1] is False
    status, data = api(client, "get", "/api/inbox/", {"unread": "1"})
    assert len(data["results"]) == unread - 1
    response = client.post(reverse("inbox:read_all"), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="inbox-list"' in response.content.decode()
    assert inbox.unread_count(user) == 0
    assert 'class="flag"' not in client.get("/").content.decode().split("</header>")[0]


def test_unread_count_costs_no_query_until_shown(rf, table):
    from django.contrib.auth.models import AnonymousUser

    request = rf.get("/")
    request.user = AnonymousUser()
    with CaptureQueriesContext(connection) as ctx:
        context = inbox_context(request)
        assert context["inbox_unread"]() == 0
    assert len(ctx.captured_queries) == 0
    request.user = table.users["p2"]
    context = inbox_context(request)
    assert context["inbox_unread"]() == notes(table.users["p2"], read_at__isnull=True).count()


def test_api_read_and_permissions(table):
    p1, p2 = table.users["p1"], table.users["p2"]
    mine = notes(p1).first()
    theirs = notes(p2).first()
    client = client_for(p1)
    status, data = api(client, "post", f"/api/inbox/{mine.pk}/read/")
    assert status == 200 and data["id"] == mine.pk and data["unread"] is False and data["read_at"]
    status, data = api(client, "post", f"/api/inbox/{theirs.pk}/read/")
    assert status == 404 and data["code"] == "not_found"
    theirs.refresh_from_db()
    assert theirs.read_at is None
    for url in ("/api/inbox/999999/read/", "/api/inbox/abc/read/"):
        assert api(client, "post", url)[0] == 404
    assert client.post(reverse("inbox:read", args=[theirs.pk])).status_code == 404
    status, data = api(client, "get", "/api/inbox/")
    assert theirs.pk not in {n["id"] for n in data["results"]}
    assert api(client, "get", f"/api/inbox/{theirs.pk}/")[0] in (404, 405)
    status, data = api(client, "post", "/api/inbox/read-all/")
    assert status == 200 and data["marked"] == notes(p1).count() - 1
    assert inbox.unread_count(p2) == notes(p2).count()
    assert api(client_for(None), "post", f"/api/inbox/{mine.pk}/read/")[0] in (401, 403)


def test_openapi_schema_lists_the_inbox():
    from django.test import Client

    body = Client().get("/api/schema/").content.decode()
    assert "/api/inbox/:" in body and "/api/inbox/{id}/read/:" in body


# -- deadline reminders -----------------------------------------------------------------------------------------


@pytest.fixture
def long_game(frozen, master, players):
    """A running ``tally`` game with 6-hour rounds whose master asked for a reminder 2 hours before deadlines."""
    game = services.game_create(master=master, module="tally", title="Long", options={"rounds": 3}, rng_seed=7,
                                durations={"round": 6 * HOUR})
    services.game_open_signup(game=game, actor=master)
    for i, user in enumerate(players):
        services.seat_join(game=game, user=user, display_name=f"Seat{i}")
    services.game_start(game=game, actor=master)
    inbox.reminder_set(game=game, actor=master, hours=2)
    game.refresh_from_db()
    return game


def reminded(game) -> set[int]:
    """Ring positions reminded so far in ``game``."""
    return set(PhaseReminder.objects.filter(phase__game=game).values_list("seat__position", flat=True))


def test_reminders_go_once_to_players_without_an_order(long_game, players, frozen):
    phase = long_game.phases.get(status=Phase.Status.OPEN)
    services.order_submit(phase=phase, user=players[0], payload={"number": 1})
    services.order_submit(phase=phase, user=players[1], payload={"number": 2})
    services.order_withdraw(phase=phase, user=players[1])  # withdrawn counts as not ordered
    services.order_submit(phase=phase, user=players[3], payload={"number": 3})
    frozen.move_to(phase.deadline - timedelta(hours=2, seconds=1))
    assert inbox.reminders_sweep().sent == []  # not yet
    frozen.move_to(phase.deadline - timedelta(hours=2))
    report = inbox.reminders_sweep()
    assert {seat for _, seat in report.sent} == {s.pk for s in long_game.seats.filter(position__in=[1, 2])}
    assert reminded(long_game) == {1, 2}
    assert reminders_sweep_task() == {"sent": 0, "emailed": 0}  # once per phase and player
    frozen.shift(HOUR)
    assert inbox.reminders_sweep().sent == []
    note = notes(players[2], kind="deadline_reminder").get()
    assert note.phase == phase and not notes(players[0], kind="deadline_reminder").exists()
    assert "ends soon" in client_for(players[2]).get(reverse("inbox:list")).content.decode()
    with pytest.raises(IntegrityError), transaction.atomic():  # the database backs "once"
        PhaseReminder.objects.create(phase=phase, seat=note.phase.game.seats.get(position=2), sent_at=phase.deadline)


def test_reminder_email_only_when_opted_in(long_game, players, frozen):
    opt_in(players[2])
    Profile.objects.filter(user=players[2]).update(language="en", time_zone="America/New_York")
    phase = long_game.phases.get(status=Phase.Status.OPEN)
    frozen.move_to(phase.deadline - timedelta(hours=1))
    report = inbox.reminders_sweep(clock=lambda: phase.deadline - timedelta(hours=1))
    assert len(report.sent) == 4 and report.emailed == 1
    [message] = mail.outbox
    assert message.to == [players[2].email] and "ends soon" in message.subject
    # 12:00 UTC + 6 h = 18:00 UTC = 1 p.m. in New York
    assert "1 p.m." in message.body and "not given your order" in message.body


def test_no_reminders_when_paused_off_dead_or_after_the_deadline(long_game, players, master, frozen):
    phase = long_game.phases.get(status=Phase.Status.OPEN)
    frozen.move_to(phase.deadline - timedelta(hours=2, minutes=30))
    services.game_pause(game=long_game, actor=master)
    frozen.move_to(phase.deadline - timedelta(hours=1))  # past the reminder time, but paused
    assert inbox.reminders_sweep().sent == []  # paused games get no reminders
    services.game_resume(game=long_game, actor=master)  # the deadline moves by the 1.5 h spent paused
    phase.refresh_from_db()
    assert phase.deadline - timedelta(hours=2) > timezone.now()
    assert inbox.reminders_sweep().sent == []
    frozen.move_to(phase.deadline - timedelta(hours=2))
    assert len(inbox.reminders_sweep().sent) == 4
    # round 2: seat 0 dies in round 1 (orders 0); the master turns reminders off, then on again too late
    for pos in range(4):
        services.order_submit(phase=phase, user=players[pos], payload={"number": 0 if pos == 0 else 1})
    frozen.move_to(phase.deadline)
    services.phases_sweep()
    round2 = long_game.phases.get(status=Phase.Status.OPEN)
    inbox.reminder_set(game=long_game, actor=master, hours=0)
    frozen.move_to(round2.deadline - timedelta(hours=1))
    assert inbox.reminders_sweep().sent == []  # off
    inbox.reminder_set(game=long_game, actor=master, hours=2)
    frozen.move_to(round2.deadline + timedelta(seconds=1))  # past the deadline, not resolved yet
    assert inbox.reminders_sweep().sent == []
    frozen.move_to(round2.deadline - timedelta(minutes=5))
    sent = {seat for _, seat in inbox.reminders_sweep().sent}
    assert sent == set(long_game.seats.filter(position__in=[1, 2, 3]).values_list("pk", flat=True))  # not the dead


def test_reminders_respect_the_phase_actors_and_short_phases(long_game, players, frozen):
    phase = long_game.phases.get(status=Phase.Status.OPEN)
    only = long_game.seats.get(position=3)
    Phase.objects.filter(pk=phase.pk).update(actors=[only.pk])
    frozen.move_to(phase.deadline - timedelta(hours=2))
    assert [seat for _, seat in inbox.reminders_sweep().sent] == [only.pk]
    # a phase shorter than N hours is not reminded (its opening was just announced)
    GameReminder.objects.filter(game=long_game).update(hours=7)
    Phase.objects.filter(pk=phase.pk).update(actors=None)
    PhaseReminder.objects.all().delete()
    frozen.move_to(phase.deadline - timedelta(hours=1))
    assert inbox.reminders_sweep().sent == []


def test_acted_checks_count_other_actions(long_game, players, frozen, monkeypatch):
    phase = long_game.phases.get(status=Phase.Status.OPEN)
    voter = long_game.seats.get(position=1)
    monkeypatch.setattr(inbox, "_ACTED_CHECKS", [])
    inbox.register_acted_check(lambda p: {voter.pk} if p.pk == phase.pk else set())
    frozen.move_to(phase.deadline - timedelta(hours=2))
    assert voter.pk not in {seat for _, seat in inbox.reminders_sweep().sent}


def test_master_sets_the_reminder_on_the_game_page(long_game, master, players):
    page = client_for(master).get(long_game.get_absolute_url()).content.decode()
    assert 'id="reminder-form"' in page and 'name="hours"' in page and 'value="2"' in page
    assert 'id="reminder-form"' not in client_for(players[0]).get(long_game.get_absolute_url()).content.decode()
    url = reverse("inbox:reminder", args=[long_game.pk])
    assert client_for(master).post(url, {"hours": "5"}).status_code == 302
    assert inbox.reminder_hours(long_game) == 5
    assert AuditEntry.objects.filter(game=long_game, action="reminder", data={"hours": 5}).exists()
    client_for(master).post(url, {"hours": "999"})  # out of range: refused by the form
    client_for(players[0]).post(url, {"hours": "1"})  # not the master
    assert inbox.reminder_hours(long_game) == 5
    with pytest.raises(ServiceError) as exc:
        inbox.reminder_set(game=long_game, actor=players[0], hours=1)
    assert exc.value.code == "forbidden"
    for bad in (-1, 169, 1.5, True, "3"):
        with pytest.raises(ServiceError) as exc:
            inbox.reminder_set(game=long_game, actor=master, hours=bad)
        assert exc.value.code == "invalid" and "hours" in exc.value.errors


def test_beat_schedules_the_reminder_sweep():
    entry = settings.CELERY_BEAT_SCHEDULE["gm-inbox-deadline-reminders"]
    assert entry["task"] == reminders_sweep_task.name == "gm.inbox.tasks.reminders_sweep_task"
    assert entry["schedule"] == settings.GM_REMINDER_INTERVAL > 0


# -- the Atom feed, and a forum Mafia game ----------------------------------------------------------------------


def feed_entries(client, game) -> tuple[str, set[int]]:
    response = client.get(reverse("gm:game_feed", args=[game.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/atom+xml")
    xml = response.content.decode()
    ids = {int(pk) for pk in re.findall(r"#log-(\d+)", xml)}
    assert 'xmlns="http://www.w3.org/2005/Atom"' in xml and xml.count("<entry>") == len(ids)
    return xml, ids


def test_feed_shows_only_public_entries_of_a_running_game(table):
    public = set(LogEntry.objects.filter(game=table.game, visibility="public").values_list("pk", flat=True))
    for user in (None, table.users["master"], table.users["p1"]):  # the feed is the same for everyone
        xml, ids = feed_entries(client_for(user), table.game)
        assert ids == public and secrets_shown(xml) == set()
    page = client_for(None).get(table.game.get_absolute_url()).content.decode()
    assert f'href="{reverse("gm:game_feed", args=[table.game.pk])}"' in page  # linked from the game page


@pytest.fixture
def fm_users(make_user):
    return [make_user(f"fm{i}") for i in range(5)]


def test_forum_mafia_night_feed_and_inbox(frozen, master, fm_users, spectator):
    game, phase = fm_night.db_night(master, fm_users)
    fm_night.submit_orders(game, phase)
    frozen.move_to(phase.deadline)
    assert services.phases_sweep().resolved == [phase.pk]
    tasks.phase_notify_task(phase.pk)
    public = set(LogEntry.objects.filter(game=game, visibility="public").values_list("pk", flat=True))
    xml, ids = feed_entries(client_for(None), game)
    assert ids == public
    private_kinds = set(LogEntry.objects.filter(game=game).exclude(visibility="public")
                        .values_list("kind", flat=True))
    assert any(k.startswith("fm.t_") for k in private_kinds)
    assert "fm.t_" not in xml
    # each player's private results reach him and his groups only; the master's trace reaches no inbox line
    groups = {}
    for seat_id, group in GroupMembership.objects.filter(game=game).values_list("seat_id", "group"):
        groups.setdefault(seat_id, set()).add(group)
    seats = {s.user_id: s for s in game.seats.all()}
    for user in fm_users:
        own = seats[user.pk]
        lines = LogEntry.objects.filter(pk__in=notes(user, kind="result").values("entry_id"))
        assert lines.filter(visibility="seat").exists()
        for entry in lines:
            assert (entry.visibility == "seat" and entry.seat_id == own.pk) or \
                   (entry.visibility == "group" and entry.group in groups.get(own.pk, set())), entry.kind
        assert notes(user, kind="phase_results").count() == 1
    assert not notes(master, kind="result").exists() and notes(master, kind="phase_results").count() == 1
    assert not notes(spectator).exists()
    assert not Notification.objects.filter(entry__visibility="master").exists()


def _reminded_games(count: int, master, players) -> list:
    """``count`` running games like ``long_game``, started at the same moment (so their deadlines tie)."""
    games = running_tally_games(master, players, count, title="Batch", round_seconds=6 * HOUR)
    for game in games:
        inbox.reminder_set(game=game, actor=master, hours=2)
    return games


def test_reminder_sweep_walks_every_due_phase_in_batches(master, players, frozen, settings):
    """More phases in their reminder window than one batch holds: the sweep goes on after the last phase of each
    batch (ties of deadline broken by id) until every phase was looked at, instead of looking at the nearest batch
    again and again while the others are never reminded (issue 25 goal 4)."""
    games = _reminded_games(5, master, players)
    phases = [g.phases.get(status=Phase.Status.OPEN) for g in games]
    assert len({p.deadline for p in phases}) == 1  # one deadline for all: the cursor's id breaks the tie
    frozen.move_to(phases[0].deadline - timedelta(hours=2))
    seats = len(players)
    first = inbox.reminders_sweep(limit=2)
    assert len(first.sent) == 2 * seats and first.resume_after is not None
    again = inbox.reminders_sweep(limit=2)  # the same first batch: nothing more to send there
    assert again.sent == [] and again.resume_after == first.resume_after
    second = inbox.reminders_sweep(limit=2, after=first.resume_after)
    third = inbox.reminders_sweep(limit=2, after=second.resume_after)
    assert len(second.sent) == 2 * seats and len(third.sent) == seats and third.resume_after is None
    batches = [{phase for phase, _seat in r.sent} for r in (first, second, third)]
    assert set().union(*batches) == {p.pk for p in phases} and sum(map(len, batches)) == 5
    assert all(reminded(g) == set(range(seats)) for g in games)
    with pytest.raises(ValueError):
        inbox.reminders_sweep(after=["not a date", 1])
    # The task follows the cursor by itself: one beat tick, batches of 2, reminds the phases of a new window.
    settings.GM_SWEEP_BATCH = 2
    later = _reminded_games(3, master, players)
    frozen.move_to(later[0].phases.get(status=Phase.Status.OPEN).deadline - timedelta(hours=2))
    assert reminders_sweep_task() == {"sent": 2 * seats, "emailed": 0}  # the first batch; the rest is queued
    assert sum(reminded(g) == set(range(seats)) for g in later) == 2
