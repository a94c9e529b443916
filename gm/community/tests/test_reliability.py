"""The reliability record (issue 24 item 2): counted per tenure from events, signup requirements and sanctions."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from gm.community import selectors, services
from gm.community.models import Reliability, Sanction, SignupRequirement
from gm.core import interventions
from gm.core import services as core
from gm.core.models import Game, Phase

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 2, 1, 9, 0, tzinfo=UTC)


def _record(user) -> dict:
    row = Reliability.objects.filter(user=user).first()
    return {c: getattr(row, c) for c in services.COUNTERS} if row else dict.fromkeys(services.COUNTERS, 0)


def _round(game, orders: dict) -> Phase:
    """Give ``orders`` (user → number) in the open round and resolve it at its deadline; returns the phase."""
    phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    at = phase.opens_at + timedelta(minutes=5)
    for user, number in orders.items():
        core.order_submit(phase=phase, user=user, payload={"number": number}, clock=lambda at=at: at)
    due = phase.deadline + timedelta(seconds=1)
    core.phase_resolve_due(phase_id=phase.pk, clock=lambda: due)
    return phase


def test_a_replacement_never_inherits_his_predecessors_missed_orders(signup_game, master, players, make_user):
    """p1 misses round 1 and is replaced; his substitute misses round 2: each keeps his own miss, and only the one
    on the seat at the end has a finished game."""
    p0, p1, p2, p3 = players
    sub = make_user("sub")
    core.game_start(game=signup_game, actor=master, clock=lambda: T0)
    _round(signup_game, {p0: 1, p2: 2, p3: 3})
    opened = Phase.objects.get(game=signup_game, status=Phase.Status.OPEN)
    seat = signup_game.seats.get(user=p1)
    interventions.seat_replace_player(game=signup_game, actor=master, seat_id=seat.pk, user=sub, reason="gone",
                                      clock=lambda: opened.opens_at + timedelta(minutes=1))
    _round(signup_game, {p0: 1, p2: 2, p3: 3})
    _round(signup_game, {p0: 1, sub: 4, p2: 2, p3: 3})
    assert Game.objects.get(pk=signup_game.pk).status == Game.Status.FINISHED
    assert _record(p1) == {"finished": 0, "replaced_out": 1, "modkilled": 0, "missed_orders": 1, "action_phases": 1}
    assert _record(sub) == {"finished": 1, "replaced_out": 0, "modkilled": 0, "missed_orders": 1, "action_phases": 2}
    assert _record(p0) == {"finished": 1, "replaced_out": 0, "modkilled": 0, "missed_orders": 0, "action_phases": 3}
    assert services.reliability_recompute() == services.reliability_stored()


def test_a_master_kill_counts_as_a_modkill_of_the_player_on_the_seat(running_game, master, players):
    seat = running_game.seats.get(user=players[2])
    interventions.seat_set_alive(game=running_game, actor=master, seat_id=seat.pk, alive=False, reason="rules")
    assert _record(players[2])["modkilled"] == 1
    assert services.reliability_recompute()[players[2].pk]["modkilled"] == 1


def test_an_idle_kill_counts_as_a_modkill(running_game, master, players):
    """The activity sweep's idle kill writes ``core.idle_killed`` (the recompute's event) and counts at once."""
    from gm.core.models import LogEntry
    from gm.core.services import activity

    phase = Phase.objects.get(game=running_game, status=Phase.Status.OPEN)
    seat = running_game.seats.get(user=players[1])
    with __import__("django.db", fromlist=["transaction"]).transaction.atomic():
        game = Game.objects.select_for_update().get(pk=running_game.pk)
        activity._kill_idle(game, phase, seat, phase.opens_at + timedelta(hours=1))
    assert LogEntry.objects.filter(game=running_game, kind="core.idle_killed", visibility="master").exists()
    assert _record(players[1])["modkilled"] == 1
    assert services.reliability_recompute() == services.reliability_stored()


def test_signup_refused_with_each_failing_requirement(master, players, make_user):
    """A game asking for 2 finished games, at most 10 % missed orders and no modkill refuses a newcomer whose record
    breaks them, naming each requirement; a player who meets them signs up."""
    game = core.game_create(master=master, module="tally", title="Veterans", options={"rounds": 1}, rng_seed=1)
    core.game_open_signup(game=game, actor=master)
    services.requirement_set(game=game, actor=master, min_finished=2, max_missed_percent=10, max_modkilled=0)
    rookie, veteran = players[0], players[1]
    Reliability.objects.create(user=rookie, finished=1, missed_orders=3, action_phases=10, modkilled=1)
    Reliability.objects.create(user=veteran, finished=5, missed_orders=1, action_phases=20)
    with translation.override("en"), pytest.raises(core.ServiceError) as refused:
        core.seat_join(game=game, user=rookie, display_name="Rookie")
    messages = refused.value.errors["__all__"]
    assert refused.value.code == "requirements" and len(messages) == 3
    assert "at least 2 finished games; you have 1" in messages[0]
    assert "at most 10 %; yours is 30.0 %" in messages[1]
    assert "at most 0 modkills; you have 1" in messages[2]
    assert not game.seats.filter(user=rookie).exists()
    core.seat_join(game=game, user=veteran, display_name="Veteran")
    assert game.seats.filter(user=veteran).exists()


def test_signup_refusal_is_in_russian_by_default(master, players):
    game = core.game_create(master=master, module="tally", title="Veterans", options={"rounds": 1}, rng_seed=1)
    core.game_open_signup(game=game, actor=master)
    services.requirement_set(game=game, actor=master, min_finished=3)
    with translation.override("ru"), pytest.raises(core.ServiceError) as refused:
        core.seat_join(game=game, user=players[0], display_name="Новичок")
    assert "завершённых" in str(refused.value)


def test_requirements_are_the_masters_and_only_before_the_start(running_game, master, players):
    with pytest.raises(core.ServiceError) as other:
        services.requirement_set(game=running_game, actor=players[0], min_finished=1)
    assert other.value.code == "forbidden"
    with pytest.raises(core.ServiceError) as late:
        services.requirement_set(game=running_game, actor=master, min_finished=1)
    assert late.value.code == "state"
    with pytest.raises(core.ServiceError) as bad:
        services.requirement_set(game=running_game, actor=master, max_missed_percent=101)
    assert "max_missed_percent" in bad.value.errors
    assert not SignupRequirement.objects.exists()


def test_warning_points_bring_the_published_sanction_and_expire(sanction_table, master, players, make_user,
                                                                django_user_model):
    """Staff warnings with a reason add up; 3 active points reach the table's "no signups for 30 days": signups are
    refused with the date; the points expire after their period."""
    staff = make_user("mod")
    staff.is_staff = True
    staff.save()
    player = players[0]
    with pytest.raises(core.ServiceError) as not_staff:
        services.warning_give(actor=players[1], user=player, points=1, reason="spam")
    assert not_staff.value.code == "forbidden"
    with pytest.raises(core.ServiceError) as no_reason:
        services.warning_give(actor=staff, user=player, points=1, reason=" ")
    assert "reason" in no_reason.value.errors
    services.warning_give(actor=staff, user=player, points=2, reason="left a game", days=60, clock=lambda: T0)
    probation = Sanction.objects.get(user=player)
    assert probation.kind == "probation" and probation.ends_at == T0 + timedelta(days=14)
    services.warning_give(actor=staff, user=player, points=1, reason="rude", days=10,
                          clock=lambda: T0 + timedelta(days=1))
    ban = Sanction.objects.filter(user=player, kind="no_signup").get()
    assert ban.points == 3 and ban.ends_at == T0 + timedelta(days=31)
    game = core.game_create(master=master, module="tally", title="Open", options={"rounds": 1}, rng_seed=1)
    core.game_open_signup(game=game, actor=master)
    during = T0 + timedelta(days=5)
    with translation.override("en"):
        reasons = selectors.signup_refusals(game=game, user=player, now=during)
    assert len(reasons) == 1 and "may not sign up for games until" in reasons[0]
    assert selectors.active_points(player, during) == 3
    assert selectors.active_points(player, T0 + timedelta(days=20)) == 2  # the 10-day warning expired
    assert selectors.active_points(player, T0 + timedelta(days=61)) == 0
    assert selectors.signup_refusals(game=game, user=player, now=T0 + timedelta(days=32)) == []


def test_no_active_sanction_requirement(sanction_table, master, players, make_user):
    staff = make_user("mod")
    staff.is_staff = True
    staff.save()
    player = players[0]
    services.warning_give(actor=staff, user=player, points=2, reason="late", clock=lambda: T0)
    game = core.game_create(master=master, module="tally", title="Clean", options={"rounds": 1}, rng_seed=1)
    core.game_open_signup(game=game, actor=master)
    now = T0 + timedelta(days=1)
    assert selectors.signup_refusals(game=game, user=player, now=now) == []
    services.requirement_set(game=game, actor=master, no_sanction=True)
    with translation.override("en"):
        reasons = selectors.signup_refusals(game=game, user=player, now=now)
    assert len(reasons) == 1 and "requires no active sanction" in reasons[0]


def test_revoking_a_warning_ends_its_sanction(players, make_user):
    staff = make_user("mod")
    staff.is_staff = True
    staff.save()
    warning = services.warning_give(actor=staff, user=players[0], points=3, reason="x", clock=lambda: T0)
    services.warning_revoke(actor=staff, warning_id=warning.pk, clock=lambda: T0 + timedelta(days=1))
    assert selectors.active_sanctions(players[0], T0 + timedelta(days=2)) == []
    assert selectors.active_points(players[0], T0 + timedelta(days=2)) == 0
