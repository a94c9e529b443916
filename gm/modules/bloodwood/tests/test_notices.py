"""Bloodwood's notifications (issue 20 item 6, BW-24): "your move" / "answer now" to a step's actors only, in the
inbox and by e-mail for those who opted in, a reminder at half the step's time to the actors who have not answered,
and nothing to a player who has nothing to do. The canary: no card, no entity in any notification. Database-backed."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from gm.chatpush.models import PHASE_OPENED, RESULTS, YOUR_MOVE, Delivery
from gm.chatpush.services import channels, fanout
from gm.core.models import Phase
from gm.core.scenario import resolve_at_deadline
from gm.inbox import selectors as inbox_selectors
from gm.inbox import services as inbox
from gm.inbox.models import Notification, NotificationSettings
from tests.helpers import client_for

from ..module import MODULE
from .test_shell import POSITION, game, open_phase  # noqa: F401  (the shared five-player game)

pytestmark = pytest.mark.django_db

DISCORD = "https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz0123456789"

#: Every card and entity of the position, in slugs and in the names a page would show: none may reach a notification.
CANARIES = ("bite", "leshy", "vaccine", "amulet", "keys", "thief", "vampire", "alpha", "werewolf", "Leshy", "Amulet",
            "Vampire", "Alpha", "Werewolf", "Vaccine", "Thief")


def _rendered(user) -> str:
    notes = inbox_selectors.present(list(inbox_selectors.notifications_for(user)), user)
    return " ".join(f"{n.title} {n.text} {n.data}" for n in notes)


def _attack(game):  # noqa: F811
    """P1 bites P2: the turn closes at once (BW-24) and the reaction step opens for P2 alone."""
    turn = open_phase(game)
    target = game.seats.get(position=1)
    r = client_for(game.users[0]).post(reverse("bloodwood:order", args=[game.pk]),
                                       {"line": "play", "card": "bite", "target": target.pk})
    assert r.status_code == 302
    turn.refresh_from_db()
    resolve_at_deadline(turn)
    return turn, open_phase(game)


def test_BW_24_your_move_goes_to_the_first_turns_actor_only(game, master):  # noqa: F811
    first = open_phase(game)
    inbox.notify_step_opened(phase_id=first.pk)
    inbox.notify_step_opened(phase_id=first.pk)  # idempotent
    rows = Notification.objects.filter(game=game, kind=Notification.Kind.YOUR_MOVE)
    assert list(rows.values_list("user_id", flat=True)) == [game.users[0].pk]
    assert not Notification.objects.filter(game=game).exclude(user=game.users[0]).exists()


def test_BW_24_the_game_start_announces_the_first_step_after_commit(master, make_user,
                                                                   django_capture_on_commit_callbacks):
    from gm.core import services as core

    users = [make_user(f"bwn{i}") for i in range(5)]
    g = core.game_create(master=master, module="bloodwood", title="BW", options={"position": POSITION}, rng_seed=3)
    core.game_open_signup(game=g, actor=master)
    for i, u in enumerate(users):
        core.seat_join(game=g, user=u, display_name=f"P{i + 1}")
    with django_capture_on_commit_callbacks(execute=True):
        core.game_start(game=g, actor=master)
    assert list(Notification.objects.filter(game=g, kind=Notification.Kind.YOUR_MOVE)
                .values_list("user_id", flat=True)) == [users[0].pk]


def test_BW_24_answer_now_goes_to_the_reaction_actor_and_nobody_else_hears_of_the_step(game, master):  # noqa: F811
    NotificationSettings.objects.create(user=game.users[1], email=True)
    NotificationSettings.objects.create(user=game.users[2], email=True)
    turn, reaction = _attack(game)
    assert reaction.kind == "reaction"
    mail.outbox.clear()
    inbox.notify_phase_results(phase_id=turn.pk)
    moves = Notification.objects.filter(game=game, kind=Notification.Kind.YOUR_MOVE, phase=reaction)
    assert list(moves.values_list("user_id", flat=True)) == [game.users[1].pk]
    for quiet in (game.users[2], game.users[3], game.users[4]):  # nothing to do: nothing at all
        assert not Notification.objects.filter(game=game, user=quiet).exists()
    assert Notification.objects.filter(game=game, user=master, kind=Notification.Kind.PHASE_RESULTS).exists()
    # the e-mail copy reaches the actor who opted in, not the opted-in player with nothing to do
    assert [m.to for m in mail.outbox] == [[game.users[1].email]]
    # canary: the notification and its e-mail name the step and the deadline, no card and no entity
    page = client_for(game.users[1], language="en").get(reverse("inbox:list"))
    assert page.status_code == 200
    text = _rendered(game.users[1]) + mail.outbox[0].subject + mail.outbox[0].body + page.content.decode()
    assert "your move" in text and "It is your move" in page.content.decode()
    assert "Ваш ход" in client_for(game.users[1], language="ru").get(reverse("inbox:list")).content.decode()
    for word in CANARIES:
        assert word not in text, word


def test_BW_24_chat_and_push_tell_only_the_steps_actors(game, master):  # noqa: F811
    for i, user in enumerate([master] + game.users):
        url = DISCORD.replace("123456789012345678", str(123456789012345600 + i))
        channels.channel_add_apprise(user=user, url=url, label="", events=[RESULTS, PHASE_OPENED, YOUR_MOVE])
    turn, reaction = _attack(game)
    fanout.phase_results(phase_id=turn.pk)
    assert not Delivery.objects.filter(channel__user__in=[game.users[0]] + game.users[2:]).exists()
    told = Delivery.objects.filter(channel__user=game.users[1])
    assert list(told.values_list("event", flat=True)) == [YOUR_MOVE]
    assert Delivery.objects.filter(channel__user=master, event=RESULTS).exists()


def test_BW_24_reminder_at_half_the_steps_time_to_actors_who_have_not_answered(game, master):  # noqa: F811
    assert MODULE.reminder_lead(kind="reaction", length=timedelta(hours=4)) == timedelta(hours=2)
    turn, reaction = _attack(game)
    half = reaction.opens_at + (reaction.base_deadline - reaction.opens_at) / 2
    assert inbox.reminders_sweep(clock=lambda: half - timedelta(minutes=1)).sent == []
    report = inbox.reminders_sweep(clock=lambda: half + timedelta(minutes=1))
    assert report.sent == [(reaction.pk, game.seats.get(position=1).pk)]
    assert inbox.reminders_sweep(clock=lambda: half + timedelta(minutes=2)).sent == []  # once
    reminders = Notification.objects.filter(game=game, kind=Notification.Kind.DEADLINE_REMINDER)
    assert list(reminders.values_list("user_id", flat=True)) == [game.users[1].pk]
    text = _rendered(game.users[1])
    for word in CANARIES:
        assert word not in text, word


def test_BW_24_no_reminder_to_an_actor_who_answered(game, master):  # noqa: F811
    turn, reaction = _attack(game)
    r = client_for(game.users[1]).post(reverse("bloodwood:order", args=[game.pk]), {"line": "react", "react": "pass"})
    assert r.status_code == 302
    half = reaction.opens_at + (reaction.base_deadline - reaction.opens_at) / 2
    assert inbox.reminders_sweep(clock=lambda: half + timedelta(minutes=1)).sent == []


def test_BW_24_the_masters_reminder_setting_wins_over_half_the_step(game, master):  # noqa: F811
    inbox.reminder_set(game=game, actor=master, hours=0)  # the master turned reminders off
    turn, reaction = _attack(game)
    half = reaction.opens_at + (reaction.base_deadline - reaction.opens_at) / 2
    assert inbox.reminders_sweep(clock=lambda: half + timedelta(minutes=1)).sent == []
    assert Phase.objects.filter(pk=reaction.pk, status=Phase.Status.OPEN).exists()
