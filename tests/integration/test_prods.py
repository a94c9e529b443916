"""Activity and prods (issue 23 item 1), through the site's pages and API on frozen time, for forum Mafia and ONUW:
a living player quiet for ``prod_after`` hours is prodded (inbox, e-mail when on, "prodded" on the master's console),
flagged "needs replacement" after ``prod_grace`` (never killed unless ``idle_kill``); a post or an order resets the
clock; "I have read my role" and the master's list of who has not; the options' defaults, validation and audit."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from gm.core import services
from gm.core.models import AuditEntry, Game, LogEntry
from gm.core.models_life import SeatStatus
from gm.core.services import activity
from gm.core.tasks import activity_sweep_task
from gm.inbox import services as inbox
from gm.inbox.models import Notification
from tests.helpers import api, client_for, page_part, running_tally_games
from tests.integration import fm_table

pytestmark = pytest.mark.django_db


def onuw_game(master, make_user):
    game = services.game_create(master=master, module="onuw", title="ONUW life", rng_seed=9, options={
        "deal": ["seer", "werewolf", "robber", "troublemaker", "villager", "villager", "drunk"]})
    services.game_open_signup(game=game, actor=master)
    users = [make_user(f"on{i}") for i in range(4)]
    for i, user in enumerate(users):
        services.seat_join(game=game, user=user, display_name=f"On{i}")
    services.game_start(game=game, actor=master)
    return game, users


def test_activity_options_defaults_and_master_change_through_the_console(frozen, master, make_user):
    game, users = fm_table.build(master, make_user)
    assert activity.game_activity_options(game) == {
        "prod_after": 48, "prod_grace": 24, "idle_kill": False, "replacement_min_time": 24,
        "extensions_per_player": 0, "extension_length": 24, "extension_cap": 72, "emergency_pause": False}
    # The page form (console), then the API; a player is refused; bad values change nothing.
    response = client_for(master).post(f"/games/{game.pk}/life/activity/", {
        "prod_after": 12, "prod_grace": 6, "replacement_min_time": 24, "extensions_per_player": 1,
        "extension_length": 24, "extension_cap": 72, "reason": "short game"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert activity.game_activity_options(game)["prod_after"] == 12
    assert AuditEntry.objects.filter(game=game, action="activity_options").count() == 1
    status, body = api(client_for(master), "post", f"/api/games/{game.pk}/console/life/",
                       {"options": {"prod_grace": 0, "nonsense": 1}})
    assert status == 400 and set(body["errors"]) == {"prod_grace", "nonsense"}
    game.refresh_from_db()
    assert activity.game_activity_options(game)["prod_grace"] == 6
    status, body = api(client_for(users["Alice"]), "post", f"/api/games/{game.pk}/console/life/",
                       {"options": {"prod_after": 1}})
    assert status == 403
    status, body = api(client_for(master), "get", f"/api/games/{game.pk}/console/life/")
    assert status == 200 and body["options"]["prod_after"] == 12 and len(body["seats"]) == 7


def test_role_read_confirmation_and_the_masters_list(frozen, master, make_user):
    game, users = fm_table.build(master, make_user)
    # The console loads its activity part after the page (htmx); without JS it is a page of its own.
    page = client_for(master).get(f"/games/{game.pk}/").content.decode()
    assert reverse("gm:console_life", args=[game.pk]) in page_part(page, "console-life-part")
    html = client_for(master).get(reverse("gm:console_life", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert "Not yet confirmed reading their role:" in html and "Alice" in page_part(html, "console-life")
    assert client_for(users["Alice"]).get(reverse("gm:console_life", args=[game.pk])).status_code == 403
    alice = client_for(users["Alice"])
    assert "I have read my role" in page_part(alice.get(f"/games/{game.pk}/").content.decode(), "life")
    assert alice.post(f"/games/{game.pk}/role-read/").status_code == 302
    assert "You have confirmed that you read your role." in alice.get(f"/games/{game.pk}/").content.decode()
    status, _body = api(client_for(users["Boris"]), "post", f"/api/games/{game.pk}/role-read/")
    assert status == 200
    status, body = api(client_for(master), "get", f"/api/games/{game.pk}/console/life/")
    read = {s["display_name"] for s in body["seats"] if s["role_read_at"]}
    assert read == {"Alice", "Boris"}
    # A spectator has no seat: refused, nothing written.
    status, body = api(client_for(make_user("watcher")), "post", f"/api/games/{game.pk}/role-read/")
    assert status == 403 and SeatStatus.objects.filter(role_read_at__isnull=False).count() == 2
    # Others never see who has confirmed.
    assert "Not yet confirmed" not in client_for(users["Clara"]).get(f"/games/{game.pk}/").content.decode()


def test_quiet_player_is_prodded_then_flagged_and_a_post_resets_the_clock(frozen, master, make_user,
                                                                         django_capture_on_commit_callbacks):
    game, users = fm_table.build(master, make_user)
    inbox.settings_set(user=users["Jo"], email=True)
    frozen.shift(timedelta(hours=1))
    for name, user in users.items():
        if name not in ("Jo", "Dmitri"):  # they stay quiet
            services.post_create(game=game, user=user, body=f"{name} here")
    frozen.shift(timedelta(hours=47))
    # 48 h after the start Jo and Dmitri are prodded; the others posted an hour in.
    with django_capture_on_commit_callbacks(execute=True):  # the prod reaches the inbox once the sweep commits
        report = activity.activity_sweep()
    seats = {s.display_name: s.pk for s in game.seats.all()}
    assert sorted(report["prodded"]) == sorted([seats["Jo"], seats["Dmitri"]])
    frozen.shift(timedelta(hours=1, seconds=1))
    # Now everyone else is 48 h quiet too.
    with_mail = len(mail.outbox)
    assert with_mail == 1
    with django_capture_on_commit_callbacks(execute=True):
        report = activity_sweep_task.run()
    assert report["prodded"] == 5
    jo = game.seats.get(display_name="Jo")
    assert Notification.objects.filter(user=users["Jo"], kind="prod").count() == 1
    assert len(mail.outbox) == with_mail  # Jo's e-mail went with his prod an hour ago
    assert mail.outbox[-1].to == ["jo@example.com"]
    assert "48 ч." in mail.outbox[-1].body  # in his language (the site default, Russian)
    inbox_page = client_for(users["Jo"]).get("/inbox/").content.decode()
    assert "we miss you" in inbox_page
    console = page_part(client_for(master).get(reverse("gm:console_life", args=[game.pk])).content.decode(),
                        "console-life")
    assert console.count(">prodded<") == 7
    # Nobody but the master sees who was prodded.
    assert "prodded" not in client_for(users["Alice"]).get(f"/games/{game.pk}/").content.decode()
    assert not LogEntry.objects.filter(kind="core.prodded").exclude(visibility="master").exists()
    # Alice posts: her prod is cleared; the others stay prodded, and after the grace they are flagged.
    frozen.shift(timedelta(hours=1))
    services.post_create(game=game, user=users["Alice"], body="still here")
    frozen.shift(timedelta(hours=23))
    report = activity.activity_sweep()
    assert report["prodded"] == [] and seats["Alice"] not in report["flagged"]
    assert jo.pk in report["flagged"] and len(report["flagged"]) == 6
    assert report["killed"] == []  # idle_kill is off: nobody dies for being quiet
    assert game.seats.filter(alive=False).count() == 0
    row = SeatStatus.objects.get(seat=jo)
    assert row.flag == "idle" and row.prods == 1
    # A second sweep changes nothing (no second prod, no second flag).
    assert activity.activity_sweep() == {"prodded": [], "flagged": [], "killed": [], "resumed": []}
    assert Notification.objects.filter(user=users["Jo"], kind="prod").count() == 1


def test_idle_kill_kills_a_seat_quiet_past_the_grace_when_the_master_turned_it_on(frozen, master, make_user):
    game, users = fm_table.build(master, make_user)
    activity.activity_options_set(game=game, actor=master, changes={"prod_after": 1, "prod_grace": 1,
                                                                     "idle_kill": True})
    jo = game.seats.get(display_name="Jo")
    for _hour in range(2):
        frozen.shift(timedelta(minutes=30))
        for name, user in users.items():
            if name != "Jo":
                services.post_create(game=game, user=user, body="here")
        frozen.shift(timedelta(minutes=30))
        report = activity.activity_sweep()
    assert report["flagged"] == [jo.pk] and report["killed"] == [jo.pk]
    jo.refresh_from_db()
    game.refresh_from_db()
    assert not jo.alive and game.status == Game.Status.RUNNING
    assert game.seats.filter(alive=False).count() == 1
    assert LogEntry.objects.filter(game=game, visibility="public", data__player="Jo").exists()


def test_ONUW_an_order_counts_as_activity_and_the_away_player_is_not_prodded(frozen, master, make_user):
    game, users = onuw_game(master, make_user)
    activity.activity_options_set(game=game, actor=master, changes={"prod_after": 2, "prod_grace": 1})
    night = game.phases.get(status="open")
    frozen.shift(timedelta(hours=1))
    # On0 (the seer) orders through the API; On3 declares himself away on his page.
    status, _body = api(client_for(users[0]), "post", f"/api/games/{game.pk}/orders/",
                        {"phase": night.pk, "payload": {"look": ["center1", "center2"]}})
    assert status in (200, 201)
    client_for(users[3]).post("/away/", {"action": "away", "starts_on": "2026-01-01", "ends_on": "2026-01-05"})
    frozen.shift(timedelta(hours=1, seconds=1))
    prodded = activity.activity_sweep()["prodded"]
    seats = {s.display_name: s.pk for s in game.seats.all()}
    assert sorted(prodded) == sorted([seats["On1"], seats["On2"]])
    frozen.shift(timedelta(hours=1))
    assert activity.activity_sweep()["prodded"] == [seats["On0"]]


def test_nobody_is_prodded_in_deck_building_and_the_first_night_starts_the_clock(frozen, master, make_user,
                                                                                 card_collection):
    from gm.modules.forum_mafia.services import signup as fm_signup

    game = services.game_create(master=master, module="forum_mafia", title="Decks", options={"hero": False},
                                rng_seed=2, durations={"deckbuilding": 3 * 3600, "night": 86400, "day": 86400})
    services.game_open_signup(game=game, actor=master)
    for i, role in enumerate(["geek", "guard", "secretary", "jock", "rich_man", "paranoid", "strongman"]):
        fm_signup.signup_create(game=game, user=make_user(f"d{i}"), public_role=role, character_name=f"D{i}",
                                pledges=True)
    services.game_start(game=game, actor=master)
    activity.activity_options_set(game=game, actor=master, changes={"prod_after": 1, "prod_grace": 1})
    building = game.phases.get(status="open")
    assert building.setup
    frozen.shift(timedelta(hours=2))
    assert activity.activity_sweep()["prodded"] == []  # the thread is closed in deck building (FM-1.4)
    frozen.move_to(building.deadline + timedelta(seconds=1))
    assert services.phase_resolve_due(phase_id=building.pk) is not None
    night = game.phases.get(status="open")
    assert night.kind == "night"
    assert activity.activity_sweep()["prodded"] == []  # quiet since the night opened, not since the start
    frozen.shift(timedelta(hours=1))
    assert len(activity.activity_sweep()["prodded"]) == game.seats.filter(alive=True).count()


def test_activity_sweep_walks_every_running_game_in_batches(frozen, master, players):
    """More running games than one batch: each batch ends with the id of the next one's start, so the games after
    the first batch are swept too — a sweep that took the first N games each time never prodded anyone in the
    others (issue 25 goal 4) — and the whole sweep, batch by batch, prods each quiet seat once."""
    games = running_tally_games(master, players, 3, title="Quiet", rounds=2, round_seconds=100 * 3600)
    for game in games:
        activity.activity_options_set(game=game, actor=master, changes={"prod_after": 1, "prod_grace": 1})
    frozen.shift(timedelta(hours=1, seconds=1))
    first, after = activity.activity_sweep_batch(limit=2)
    second, last = activity.activity_sweep_batch(limit=2, after=after)
    assert after == games[1].pk and last is None
    seats_of = {g.pk: set(g.seats.values_list("pk", flat=True)) for g in games}
    assert set(first["prodded"]) == seats_of[games[0].pk] | seats_of[games[1].pk]
    assert set(second["prodded"]) == seats_of[games[2].pk]
    frozen.shift(timedelta(hours=1, seconds=1))
    flagged = activity.activity_sweep(limit=1)["flagged"]  # the whole sweep in one call, one game a batch
    assert sorted(flagged) == sorted(set().union(*seats_of.values()))
    assert activity.activity_sweep(limit=1) == {"prodded": [], "flagged": [], "killed": [], "resumed": []}
    with pytest.raises(ValueError):
        activity.activity_sweep_batch(after="not an id")


def test_activity_sweep_ticks_go_round_the_games(frozen, master, players):
    """Beat's ticks: each sweeps the next batch of games after the one the tick before ended on, and a tick that
    reaches the last game goes on from the first, so with 3 games and batches of 2 every game is swept in every
    2 ticks (issue 25 goal 4), each quiet seat prodded once."""
    from django.core.cache import cache

    cache.delete(activity.ACTIVITY_CURSOR_KEY)
    games = running_tally_games(master, players, 3, title="Round", rounds=2, round_seconds=100 * 3600)
    for game in games:
        activity.activity_options_set(game=game, actor=master, changes={"prod_after": 1, "prod_grace": 24})
    seats_of = [set(g.seats.values_list("pk", flat=True)) for g in games]
    frozen.shift(timedelta(hours=1, seconds=1))
    assert set(activity.activity_sweep_tick(limit=2)["prodded"]) == seats_of[0] | seats_of[1]
    assert cache.get(activity.ACTIVITY_CURSOR_KEY) == games[1].pk
    # The next tick: game 3, then round to game 1 (nothing new there), and it stops where this round began.
    assert set(activity.activity_sweep_tick(limit=2)["prodded"]) == seats_of[2]
    assert cache.get(activity.ACTIVITY_CURSOR_KEY) == games[0].pk
    cache.set(activity.ACTIVITY_CURSOR_KEY, "not ours")  # a stale or foreign cursor starts the round again
    assert activity_sweep_task.run() == {"prodded": 0, "flagged": 0, "killed": 0, "resumed": 0}
