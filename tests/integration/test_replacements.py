"""Replacements (issue 23 item 2), through the site's pages and API on frozen time, for forum Mafia and ONUW: a
player's private request (withdrawable until the master acknowledges it), the master's flag, the public standby board
(public facts only), a volunteer approved by the master through the existing handover, the "B replaces A" system
post, each tenure's own record, and the deadline moved out to ``replacement_min_time``."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gm.core.models import AuditEntry, LogEntry, Phase, Post
from gm.core.models_life import ReplacementRequest, SeatStatus, Tenure, Volunteer
from gm.core.services import activity, replacements
from tests.helpers import api, client_for, page_part
from tests.integration import fm_table
from tests.integration.test_prods import onuw_game

pytestmark = pytest.mark.django_db

SECRET_REASON = "my-boss-sends-me-abroad-7731"


def test_request_withdraw_acknowledge_board_volunteer_approve_forum_mafia(frozen, master, make_user):
    game, users = fm_table.build(master, make_user)
    seat = game.seats.get(display_name="Alice")
    night = fm_table.open_phase(game)
    fm_table.resolve(game, frozen)  # Night 1 passes without an order from Alice: her missed phase
    alice = client_for(users["Alice"])
    # Ask, take back, ask again (page form, then the API).
    response = alice.post(f"/games/{game.pk}/replacement/", {"reason": SECRET_REASON, "confirm": "on"})
    assert response.status_code == 302
    assert "the master has not acknowledged it yet" in alice.get(f"/games/{game.pk}/").content.decode()
    assert alice.post(f"/games/{game.pk}/replacement/withdraw/").status_code == 302
    assert ReplacementRequest.objects.get().withdrawn_at is not None
    status, body = api(alice, "post", f"/api/games/{game.pk}/replacement/", {"reason": SECRET_REASON})
    assert status == 200 and body["acknowledged"] is False
    status, body = api(alice, "post", f"/api/games/{game.pk}/replacement/", {"reason": "again"})
    assert status == 409  # one live request
    # Nobody but the master reads the reason; the board is empty until he acknowledges.
    console_life = reverse("gm:console_life", args=[game.pk])  # the console's activity part
    assert SECRET_REASON in client_for(master).get(console_life).content.decode()
    for viewer in (users["Boris"], make_user("outsider"), None):
        assert SECRET_REASON not in client_for(viewer).get(f"/games/{game.pk}/").content.decode()
        assert client_for(viewer).get(console_life).status_code in (302, 403)
    assert "Alice" not in page_part(client_for(None).get("/standby/").content.decode(), "standby")
    # The master acknowledges from the console: irrevocable, the seat is on the board.
    req = ReplacementRequest.objects.get(withdrawn_at__isnull=True)
    response = client_for(master).post(f"/games/{game.pk}/life/ack/", {"request": req.pk, "reason": "ok"})
    assert response.status_code == 302
    status, body = api(alice, "post", f"/api/games/{game.pk}/replacement/withdraw/")
    assert status == 409
    assert SeatStatus.objects.get(seat=seat).flag == "request"
    board = client_for(None).get("/standby/").content.decode()
    assert "Alice" in page_part(board, "standby") and "Log in to volunteer" in board
    assert SECRET_REASON not in board
    status, rows = api(client_for(None), "get", "/api/standby/")
    assert status == 200 and [(r["display_name"], r["game"]) for r in rows] == [("Alice", game.pk)]
    assert rows[0]["left_seconds"] > 0 and SECRET_REASON not in str(rows)
    # Who may volunteer: not a player of the game, not its master.
    status, _body = api(client_for(users["Boris"]), "post", f"/api/games/{game.pk}/standby/{seat.pk}/volunteer/")
    assert status == 403
    status, _body = api(client_for(master), "post", f"/api/games/{game.pk}/standby/{seat.pk}/volunteer/")
    assert status == 403
    vera = make_user("vera")
    assert client_for(vera).post(f"/games/{game.pk}/standby/{seat.pk}/volunteer/").status_code == 302
    assert "Withdraw my offer" in client_for(vera).get("/standby/").content.decode()
    status, _body = api(client_for(vera), "post", f"/api/games/{game.pk}/standby/{seat.pk}/volunteer/")
    assert status == 409
    offer = Volunteer.objects.get(user=vera)
    # Approval needs the confirmation box; then the handover runs.
    day = fm_table.open_phase(game)
    Phase.objects.filter(pk=day.pk).update(deadline=timezone.now() + timedelta(hours=2))
    client_for(master).post(f"/games/{game.pk}/life/approve/", {"volunteer": offer.pk})
    seat.refresh_from_db()
    assert seat.user == users["Alice"]
    response = client_for(master).post(f"/games/{game.pk}/life/approve/", {"volunteer": offer.pk, "confirm": "on"})
    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.user == vera
    assert AuditEntry.objects.filter(game=game, action="replace").count() == 1
    # The thread's system post, in the reader's language.
    post = Post.objects.get(game=game, system__isnull=False)
    thread = page_part(client_for(None).get(f"/games/{game.pk}/").content.decode(), "thread")
    assert "vera replaces alice as Alice." in thread
    ru = client_for(None, language="ru").get(f"/games/{game.pk}/").content.decode()
    assert "vera заменяет alice в роли Alice." in ru
    status, posts = api(client_for(None), "get", f"/api/games/{game.pk}/posts/")
    assert any(p["id"] == post.pk and p["system"] for p in posts["results"])
    # Less than replacement_min_time (24 h) was left: the deadline moves out, publicly.
    day.refresh_from_db()
    assert day.deadline == timezone.now() + timedelta(hours=24)
    moved = LogEntry.objects.get(phase=day, kind="core.deadline_replacement")
    assert moved.visibility == "public"
    # Vera sees the seat's secrets now; Alice is a spectator.
    from gm.core import visibility

    game.refresh_from_db()
    assert visibility.viewer_for(vera, game).seat == seat
    assert visibility.viewer_for(users["Alice"], game).kind == "spectator"
    status, own = api(client_for(vera), "get", f"/api/games/{game.pk}/seats/")
    assert status == 200 and [s["private"]["secret_role"] for s in own if s["id"] == seat.pk] == ["sheriff"]
    status, theirs = api(client_for(users["Alice"]), "get", f"/api/games/{game.pk}/seats/")
    assert status == 200 and all(s.get("private") is None for s in theirs)
    # Each tenure keeps its own record: Night 1's missed order is Alice's.
    status, life = api(client_for(master), "get", f"/api/games/{game.pk}/console/life/")
    mine = [t for t in life["tenures"] if t["seat"] == seat.pk]
    assert [(t["user"], t["missed"], t["ended_at"] is None) for t in mine] == [("alice", 1, False),
                                                                               ("vera", 0, True)]
    assert Tenure.objects.filter(seat=seat).count() == 2
    assert SeatStatus.objects.get(seat=seat).flagged_at is None
    assert "Alice" not in page_part(client_for(None).get("/standby/").content.decode(), "standby")
    assert night.pk != day.pk


def test_master_flags_an_ONUW_seat_and_approves_a_volunteer_through_the_api(frozen, master, make_user):
    game, users = onuw_game(master, make_user)
    seat = game.seats.get(display_name="On2")
    night = game.phases.get(status="open")
    status, body = api(client_for(users[0]), "post", f"/api/games/{game.pk}/console/seats/{seat.pk}/flag/",
                       {"flagged": True})
    assert status == 403
    status, body = api(client_for(master), "post", f"/api/games/{game.pk}/console/seats/{seat.pk}/flag/",
                       {"flagged": True, "reason": "silent"})
    assert status == 200 and [s["flag"] for s in body["seats"] if s["seat"] == seat.pk] == ["master"]
    # The board: the module's name, the seat's public facts only (ONUW has none) — never the dealt card.
    status, rows = api(client_for(None), "get", "/api/standby/")
    assert [(r["display_name"], r["module"], r["public"]) for r in rows] == [("On2", "onuw", [])]
    board = client_for(None).get("/standby/").content.decode()
    assert "robber" not in board.lower()
    zed = make_user("zed")
    status, _body = api(client_for(zed), "post", f"/api/games/{game.pk}/standby/{seat.pk}/volunteer/")
    assert status == 200
    offer = Volunteer.objects.get(user=zed)
    deadline = night.deadline
    status, body = api(client_for(master), "post", f"/api/games/{game.pk}/console/life/approve/",
                       {"volunteer": offer.pk})
    assert status == 200
    seat.refresh_from_db()
    assert seat.user == zed
    night.refresh_from_db()
    # ONUW's night lasts a day by default: more than replacement_min_time is left, the deadline stays.
    left = deadline - timezone.now()
    assert (night.deadline == deadline) == (left >= timedelta(hours=24))
    # The new player orders for the seat (the robber) through the API.
    status, _order = api(client_for(zed), "post", f"/api/games/{game.pk}/orders/",
                         {"phase": night.pk, "payload": {"swap_with": game.seats.get(display_name="On0").pk}})
    assert status in (200, 201)
    # A refused approval changes nothing: the offer is used up.
    status, body = api(client_for(master), "post", f"/api/games/{game.pk}/console/life/approve/",
                       {"volunteer": offer.pk})
    assert status == 404


def test_bad_requests_change_nothing(frozen, master, make_user):
    game, users = fm_table.build(master, make_user)
    seat = game.seats.get(display_name="Boris")
    seat.alive = False
    seat.save()
    status, body = api(client_for(users["Boris"]), "post", f"/api/games/{game.pk}/replacement/", {})
    assert status == 409  # the dead have nothing to hand over
    status, body = api(client_for(master), "post", f"/api/games/{game.pk}/console/seats/{seat.pk}/flag/",
                       {"flagged": True})
    assert status == 409
    status, body = api(client_for(master), "post", f"/api/games/{game.pk}/console/life/ack/", {"request": 999})
    assert status == 404
    status, body = api(client_for(make_user("x")), "post",
                       f"/api/games/{game.pk}/standby/{game.seats.get(display_name='Clara').pk}/volunteer/")
    assert status == 409  # not flagged
    assert not ReplacementRequest.objects.exists() and not Volunteer.objects.exists()
    assert not SeatStatus.objects.filter(flagged_at__isnull=False).exists()
    activity.activity_options_set(game=game, actor=master, changes={"replacement_min_time": 0})


def test_the_board_and_the_console_part_in_both_languages(frozen, master, make_user):
    from tests.integration.test_page_languages import english_leftovers, russian_leftovers, visible_text

    game, users = fm_table.build(master, make_user)
    seat = game.seats.get(display_name="Clara")
    replacements.seat_flag(game=game, actor=master, seat_id=seat.pk, flagged=True)
    api(client_for(users["Alice"]), "post", f"/api/games/{game.pk}/replacement/", {"reason": "r"})
    replacements.volunteer(game=game, user=make_user("vic"), seat_id=seat.pk)
    problems = []
    for language, leftovers in (("en", russian_leftovers), ("ru", english_leftovers)):
        for user, url in ((None, "/standby/"), (make_user(f"w{language}"), "/standby/"),
                          (master, f"/games/{game.pk}/"), (users["Alice"], f"/games/{game.pk}/")):
            html = client_for(user, language=language).get(url).content.decode()
            problems += [f"{language} {url}: {x!r}" for x in leftovers(visible_text(html))]
    assert not problems, problems


@pytest.mark.soak  # minutes of 2.5-second deadlines; bin/playtest-soak runs it
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_playtest_flaky_players_are_prodded_and_replaced_by_standby_bots(tmp_path, settings, card_collection):
    """``gm_playtest --flaky-players 3``'s runner against a real gunicorn, worker and beat (an activity-option hour
    lasts one deadline): three bots go quiet after deck building; the activity sweep prods them and flags their
    seats, standby bots volunteer from the standby board over HTTP, the master approves, and the game still ends."""
    from gm.core.playtest.stack import Stack
    from gm.modules.forum_mafia.playtest.runner import play_game
    from tests.integration.worker_utils import forget_queue, routed_to, skip_reason, worker_database_url

    why = skip_reason()
    if why:
        pytest.skip(why)
    deadline = 2.5
    queue = f"gm-playtest-flaky-{id(tmp_path)}"
    with routed_to(queue, settings):
        stack = Stack(env={"DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": worker_database_url(),
                           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "GM_ACTIVITY_HOUR": str(deadline)},
                      queue=queue, log_dir=tmp_path)
        try:
            stack.start()
            report = play_game(base_url=stack.base_url, players=10, seed=3, deadline=deadline, phase_cap=60,
                               resolve_timeout=30, log=print, flaky=3)
        finally:
            stack.stop()
            print(stack.report())
            forget_queue(queue)
    print("\n".join(report.lines()))
    assert not report.failures, report.failures
    assert report.finished and (report.winners or report.draw), report.lines()[0]
    assert report.prodded >= 3 and report.replaced >= 1, report.notes
    assert report.tally.done["volunteer"] == report.replaced
    assert Tenure.objects.filter(ended_at__isnull=False).count() == report.replaced
