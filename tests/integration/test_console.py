"""The master's console (issue 8 item 3): interventions as services — seat edit, kill/revive, replace player, and the
reason the existing extend/pause/resume/resolve-now now need on the console — each with its happy path, a refusal
that changes nothing, a non-master refused and the audit row with its reason; the what-if preview writes nothing.

The table: ``console_table.py``.
"""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gm.core import interventions, services, visibility
from gm.core.models import AuditEntry, Game, LogEntry, Order, Phase, Post, PostPrivate
from gm.core.services import ServiceError
from tests.integration.console_table import build_table, seat, shoot_boris, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(frozen, master, make_user, card_collection):
    return build_table(master, make_user)


# -- seat edit -----------------------------------------------------------------------------------------------------


def test_seat_edit_changes_hand_order_sleeve_and_jail_and_audits_the_reason(table, master):
    game, _users = table
    clara = seat(game, "Clara")
    before_uids = {c["kind"]: c["uid"] for c in clara.data["cards"]["hand"]}
    interventions.seat_edit(game=game, actor=master, seat_id=clara.pk, reason="misdeal fixed",
                            changes={"hand": ["coffee", "tail"], "sleeve": ["pistol"], "jail": 2})
    clara.refresh_from_db()
    game.refresh_from_db()
    hand = clara.data["cards"]["hand"]
    assert [c["kind"] for c in hand] == ["coffee", "tail"]
    assert {c["kind"]: c["uid"] for c in hand} == before_uids  # the kept cards keep their instances
    assert [c["kind"] for c in clara.data["cards"]["sleeve"]] == ["pistol"]
    assert game.state["fm"]["jail"][str(clara.pk)] == 2
    audit = AuditEntry.objects.get(game=game, action="seat_edit")
    assert audit.reason == "misdeal fixed" and audit.actor == master
    assert audit.data["before"]["sleeve"] == [] and audit.data["after"]["sleeve"] == ["pistol"]


def test_seat_edit_refuses_unknown_slugs_and_keys_and_changes_nothing(table, master):
    game, _users = table
    clara = seat(game, "Clara")
    before = snapshot(game)
    with pytest.raises(ServiceError) as exc:
        interventions.seat_edit(game=game, actor=master, seat_id=clara.pk, reason="typo",
                                changes={"hand": ["tail", "no_such_card"], "colour": 1, "jail": -1})
    assert "no_such_card" in " ".join(exc.value.errors["changes.hand"])
    assert "changes.colour" in exc.value.errors and "changes.jail" in exc.value.errors
    with pytest.raises(ServiceError) as exc:
        interventions.seat_edit(game=game, actor=master, seat_id=clara.pk, reason="  ", changes={"jail": 1})
    assert "reason" in exc.value.errors
    assert snapshot(game) == before


def test_seat_edit_by_a_player_is_refused(table):
    game, users = table
    before = snapshot(game)
    with pytest.raises(ServiceError) as exc:
        interventions.seat_edit(game=game, actor=users["Alice"], seat_id=seat(game, "Alice").pk, reason="mine",
                                changes={"hand": ["pistol"] * 5})
    assert exc.value.code == "forbidden"
    assert snapshot(game) == before


# -- kill / revive --------------------------------------------------------------------------------------------------


def test_FM_6_2_master_kill_is_announced_as_a_death_and_revive_undoes_it(table, master, spectator):
    game, _users = table
    eva = seat(game, "Eva")
    interventions.seat_set_alive(game=game, actor=master, seat_id=eva.pk, alive=False, reason="left the forum")
    eva.refresh_from_db()
    game.refresh_from_db()
    assert not eva.alive
    assert [eva.pk] == [d[1] for d in game.state["fm"]["death_order"]]
    public = visibility.log_entries(visibility.viewer_for(spectator, game)).filter(kind="fm.death")
    assert [e.data for e in public] == [{"player": "Eva"}]  # FM-6.2's public death line, for everyone
    assert AuditEntry.objects.get(game=game, action="kill").reason == "left the forum"
    interventions.seat_set_alive(game=game, actor=master, seat_id=eva.pk, alive=True, reason="came back")
    eva.refresh_from_db()
    game.refresh_from_db()
    assert eva.alive and game.state["fm"]["death_order"] == []
    assert LogEntry.objects.filter(game=game, kind="core.seat_revived", visibility="public").count() == 1
    assert AuditEntry.objects.get(game=game, action="revive").reason == "came back"


def test_FM_10_6_a_master_kill_that_leaves_no_mafioso_ends_the_game_at_once(table, master):
    game, _users = table
    interventions.seat_set_alive(game=game, actor=master, seat_id=seat(game, "Boris").pk, alive=False, reason="a")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    interventions.seat_set_alive(game=game, actor=master, seat_id=seat(game, "Dmitri").pk, alive=False, reason="b")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.outcome["winners"][0] == "law"
    assert not Phase.objects.filter(game=game).exclude(status=Phase.Status.RESOLVED).exists()
    assert LogEntry.objects.filter(game=game, kind="fm.victory", visibility="public").count() == 1


def test_kill_refusals_change_nothing(table, master):
    game, users = table
    eva = seat(game, "Eva")
    before = snapshot(game)
    for kwargs in ({"actor": users["Eva"], "alive": False, "reason": "x"},     # not the master
                   {"actor": master, "alive": True, "reason": "x"},            # already alive
                   {"actor": master, "alive": "no", "reason": "x"},            # not a boolean
                   {"actor": master, "alive": False, "reason": ""}):           # no reason
        with pytest.raises(ServiceError):
            interventions.seat_set_alive(game=game, seat_id=eva.pk, **kwargs)
    with pytest.raises(ServiceError) as exc:
        interventions.seat_set_alive(game=game, actor=master, seat_id=999999, alive=False, reason="x")
    assert exc.value.code == "not_found"
    assert snapshot(game) == before


# -- replace player -------------------------------------------------------------------------------------------------


def test_replacement_player_gets_everything_the_seat_knew_and_the_old_one_loses_it(table, master, make_user, frozen):
    from gm.inbox.models import Notification
    from gm.modules.forum_mafia.views.orders import private_results

    game, users = table
    newcomer = make_user("newcomer")
    night = shoot_boris(game, users)
    frozen.shift(timedelta(days=2))
    services.phase_resolve_due(phase_id=night.pk)
    from gm.inbox.services import notify_phase_results

    notify_phase_results(phase_id=night.pk)
    alice = seat(game, "Alice")
    # Day 1: Boris is dead; Clara sends Alice (her neighbour? no: Alice is Boris's) — Eva is Alice's neighbour.
    post = services.post_create(game=game, user=users["Eva"], body='Hi [private="Alice"]psst[/private]')
    services.post_create(game=game, user=users["Alice"], body='Back [private="Eva"]hello Eva[/private]')
    old_told = [e["text"] for p in private_results(visibility.viewer_for(users["Alice"], game)) for e in p["entries"]]
    old_notes = Notification.objects.filter(user=users["Alice"], game=game).count()
    assert old_told and old_notes

    interventions.seat_replace_player(game=game, actor=master, seat_id=alice.pk, user="newcomer",
                                      reason="Alice asked to be replaced")
    new_viewer = visibility.viewer_for(newcomer, game)
    old_viewer = visibility.viewer_for(users["Alice"], game)
    assert new_viewer.seat == alice and old_viewer.kind == visibility.SPECTATOR
    mine = next(s for s in visibility.seats(new_viewer) if s["id"] == alice.pk)
    assert mine["private"]["secret_role"] == "sheriff"
    assert "private" not in next(s for s in visibility.seats(old_viewer) if s["id"] == alice.pk)
    assert [e["text"] for p in private_results(new_viewer) for e in p["entries"]] == old_told
    assert private_results(old_viewer) == []
    items = {i["id"]: i for i in visibility.thread_items(new_viewer, visibility.posts(new_viewer))}
    assert items[post.pk]["private"]["text"] == "psst"
    sent = next(i for i in items.values() if i["seat"] == alice.pk)
    assert sent["private"]["recipient"] == "Eva"  # he knows whom his seat wrote to
    old_items = {i["id"]: i for i in visibility.thread_items(old_viewer, visibility.posts(old_viewer))}
    assert old_items[post.pk]["private"]["text"] is None
    assert Notification.objects.filter(user=newcomer, game=game).count() == old_notes
    assert not Notification.objects.filter(user=users["Alice"], game=game).exists()
    assert game.fm_signups.filter(seat=alice).first() is None or game.fm_signups.get(seat=alice).user == newcomer
    audit = AuditEntry.objects.get(game=game, action="replace")
    assert audit.reason == "Alice asked to be replaced"
    assert audit.data["old_user"] == "alice" and audit.data["new_user"] == "newcomer"
    assert LogEntry.objects.filter(game=game, kind="core.seat_replaced", visibility="public").count() == 1
    assert PostPrivate.objects.filter(post__game=game).count() == 2 and Post.objects.filter(game=game).count() == 2


def test_replace_refusals_change_nothing(table, master, make_user):
    game, users = table
    alice = seat(game, "Alice")
    before = snapshot(game)
    for user, code in ((users["Boris"], "invalid"), ("nobody-here", "invalid"), (master, "invalid"),
                       (users["Alice"], "invalid")):
        with pytest.raises(ServiceError) as exc:
            interventions.seat_replace_player(game=game, actor=master, seat_id=alice.pk, user=user, reason="x")
        assert exc.value.code == code and "user" in exc.value.errors
    with pytest.raises(ServiceError) as exc:
        interventions.seat_replace_player(game=game, actor=users["Boris"], seat_id=alice.pk,
                                          user=make_user("other"), reason="x")
    assert exc.value.code == "forbidden"
    assert snapshot(game) == before


# -- extend / pause / resume / resolve now: audited with the reason --------------------------------------------------


def test_existing_master_actions_record_their_reason(table, master):
    game, _users = table
    services.phase_extend(game=game, actor=master, minutes=30, reason="holiday")
    services.game_pause(game=game, actor=master, reason="server move")
    services.game_resume(game=game, actor=master, reason="done")
    services.phase_resolve_now(game=game, actor=master, reason="everyone ordered")
    reasons = dict(AuditEntry.objects.filter(game=game).values_list("action", "reason"))
    assert reasons["extend"] == "holiday" and reasons["pause"] == "server move"
    assert reasons["resume"] == "done" and reasons["resolve_now"] == "everyone ordered"


# -- what-if preview -------------------------------------------------------------------------------------------------


def test_preview_resolves_the_open_phase_and_writes_nothing(table, master, frozen):
    game, users = table
    night = shoot_boris(game, users)
    before = snapshot(game)
    orders = Order.objects.count()
    with CaptureQueriesContext(connection) as queries:
        preview = interventions.phase_preview(game=game, actor=master)
    writes = [q["sql"] for q in queries.captured_queries
              if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE", "SELECT ... FOR UPDATE"))
              or "FOR UPDATE" in q["sql"].upper()]
    assert writes == []
    assert snapshot(game) == before and Order.objects.count() == orders
    assert Phase.objects.get(pk=night.pk).status == Phase.Status.OPEN
    assert seat(game, "Boris").pk in [k for k, v in preview.result.alive.items() if v is False]
    assert any(e.visibility == "master" for e in preview.result.events)
    # The deadline gives exactly the previewed result (same snapshot, orders and seed).
    frozen.shift(timedelta(days=2))
    services.phase_resolve_due(phase_id=night.pk)
    night.refresh_from_db()
    assert night.result_digest == services.canonical_digest(preview.result, game.game_module.constant_state_keys)


def test_preview_is_for_the_master_only(table):
    game, users = table
    with pytest.raises(ServiceError) as exc:
        interventions.phase_preview(game=game, actor=users["Alice"])
    assert exc.value.code == "forbidden"
