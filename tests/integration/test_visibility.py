"""What every kind of viewer sees through every channel: the game page, the API, the lobby and game list, the
public feed and the notification recipients — during the game, for drafts, and after the game is over.

The ``tally`` game has four seats (ring positions 0–3). Seat 1 is the "own" seat of the table below; odd
positions (1, 3) share the group ``team:odd``. In round 1 seat 0 orders 0 and dies; in round 2 (left open)
seats 1 and 2 order and the master extends the deadline with a reason (an audit entry). Each seat's secret is a
distinctive six-digit number, so a leak anywhere shows up as that number.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from django.test import Client
from django.urls import reverse

from gm.core import services, visibility
from gm.core.models import AuditEntry, Game, LogEntry, Order, Phase, Seat
from gm.core.visibility import ANONYMOUS, DEAD_PLAYER, MASTER, PLAYER, SPECTATOR, VIEWER_KINDS

pytestmark = pytest.mark.django_db

SECRETS = {0: 481516, 1: 623342, 2: 704938, 3: 857261}
ALL = frozenset(SECRETS)
AUDIT_REASON = "audit-reason-kx47"
ROUND1 = {0: 0, 1: 5, 2: 2, 3: 3}  # position → number ordered in round 1 (0 kills seat 0)
ROUND2 = {1: [7, 8], 2: [6]}  # position → order versions in the open round 2


@dataclass(frozen=True)
class Row:
    name: str
    kind: str
    user: str | None  # key into Scenario.users; None = anonymous
    own: frozenset  # positions whose secret, seat log entries and orders this viewer sees
    group: bool  # sees the team:odd group entry
    master: bool  # sees master-only log entries and the audit log


# viewer          kind         user         own                 group  master-only
TABLE = [
    Row("master", MASTER, "master", ALL, True, True),
    Row("own", PLAYER, "p1", frozenset({1}), True, False),
    Row("other", PLAYER, "p2", frozenset({2}), False, False),
    Row("teammate", PLAYER, "p3", frozenset({3}), True, False),
    Row("dead", DEAD_PLAYER, "p0", frozenset({0}), False, False),
    Row("spectator", SPECTATOR, "spectator", frozenset(), False, False),
    Row("anonymous", ANONYMOUS, None, frozenset(), False, False),
]
by_viewer = pytest.mark.parametrize("row", TABLE, ids=[r.name for r in TABLE])


@dataclass
class Scenario:
    game: Game
    users: dict
    seats: dict  # position → Seat
    seat_entries: dict = field(default_factory=dict)  # position → ids of its seat-visible log entries
    group_entries: set = field(default_factory=set)
    master_entries: set = field(default_factory=set)
    public_entries: set = field(default_factory=set)

    def refresh_entries(self):
        entries = list(LogEntry.objects.filter(game=self.game).values_list("pk", "visibility", "seat_id"))
        by_seat = {s.pk: pos for pos, s in self.seats.items()}
        self.seat_entries = {pos: {pk for pk, vis, seat in entries if vis == "seat" and by_seat[seat] == pos}
                             for pos in self.seats}
        self.group_entries = {pk for pk, vis, _ in entries if vis == "group"}
        self.master_entries = {pk for pk, vis, _ in entries if vis == "master"}
        self.public_entries = {pk for pk, vis, _ in entries if vis == "public"}
        assert all(self.seat_entries.values()) and self.group_entries and self.master_entries

    def expected_log(self, row: Row) -> set:
        ids = set(self.public_entries)
        for pos in row.own:
            ids |= self.seat_entries[pos]
        if row.group:
            ids |= self.group_entries
        if row.master:
            ids |= self.master_entries
        return ids

    def client(self, row: Row) -> Client:
        client = Client()
        if row.user is not None:
            client.force_login(self.users[row.user])
        return client

    def api(self, row: Row, what: str):
        response = self.client(row).get(f"/api/games/{self.game.pk}/{what}/", {"limit": 500})
        assert response.status_code == 200, response.content
        return response

    def finish(self, frozen):
        for _ in range(2):
            frozen.shift(2 * 3600)
            services.phases_sweep()
        self.game.refresh_from_db()
        assert self.game.status == Game.Status.FINISHED
        self.refresh_entries()


def shows(text: str, number: int) -> bool:
    """``number`` appears in ``text`` as a whole number (not inside a CSRF token or a longer number)."""
    return re.search(rf"(?<![\w.]){number}(?![\w])", text) is not None


def secrets_shown(text: str) -> set:
    return {pos for pos, secret in SECRETS.items() if shows(text, secret)}


def payload_html(number: int) -> str:
    return f"{{&#x27;number&#x27;: {number}}}"


def order_words_html(number: int) -> str:
    """An order as the master's console shows it: the module's ``order_lines`` (tally has none: the JSON)."""
    return f"{{&quot;number&quot;: {number}}}"


@pytest.fixture
def scenario(frozen, running_game, master, players, spectator) -> Scenario:
    game = running_game
    seats = {s.position: s for s in game.seats.all()}
    assert [seats[pos].user for pos in range(4)] == players
    for pos, seat in seats.items():
        Seat.objects.filter(pk=seat.pk).update(data={"secret": SECRETS[pos], "score": 0})
    round1 = game.phases.get(status=Phase.Status.OPEN)
    for pos, number in ROUND1.items():
        services.order_submit(phase=round1, user=players[pos], payload={"number": number})
    frozen.shift(3600)
    assert services.phases_sweep().resolved == [round1.pk]
    round2 = game.phases.get(status=Phase.Status.OPEN)
    for pos, numbers in ROUND2.items():
        for number in numbers:
            services.order_submit(phase=round2, user=players[pos], payload={"number": number})
    services.phase_extend(game=game, actor=master, minutes=30, reason=AUDIT_REASON)
    game.refresh_from_db()
    seats = {s.position: s for s in game.seats.all()}
    assert not seats[0].alive and all(seats[pos].alive for pos in (1, 2, 3))
    users = {"master": master, "spectator": spectator, **{f"p{i}": u for i, u in enumerate(players)}}
    result = Scenario(game=game, users=users, seats=seats)
    result.refresh_entries()
    return result


def test_table_covers_every_viewer_kind():
    assert {row.kind for row in TABLE} == set(VIEWER_KINDS)


@by_viewer
def test_game_page(scenario, row):
    user = scenario.users[row.user] if row.user else None
    viewer = visibility.viewer_for(user, scenario.game)
    assert viewer.kind == row.kind
    assert (viewer.seat.position if viewer.seat else None) == (min(row.own) if len(row.own) == 1 else None)
    response = scenario.client(row).get(reverse("gm:game", args=[scenario.game.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert secrets_shown(html) == row.own
    assert set(map(int, re.findall(r'id="log-(\d+)"', html))) == scenario.expected_log(row)
    shown_orders = {n for n in (6, 7, 8) if payload_html(n) in html or order_words_html(n) in html}
    assert shown_orders == {n for pos in row.own for n in ROUND2.get(pos, [])}
    assert (AUDIT_REASON in html) is row.master


def check_api_seats(scenario, row):
    response = scenario.api(row, "seats")
    seats = {item["position"]: item for item in response.json()}
    assert set(seats) == set(ALL)
    assert {pos for pos, item in seats.items() if "private" in item} == row.own
    for pos in row.own:
        assert seats[pos]["private"]["secret"] == SECRETS[pos]
    assert all("score" in item["public"] and "secret" not in item["public"] for item in seats.values())
    assert not seats[0]["alive"]
    assert secrets_shown(response.content.decode()) == row.own


def check_api_log(scenario, row):
    response = scenario.api(row, "log")
    results = response.json()["results"]
    assert {entry["id"] for entry in results} == scenario.expected_log(row)
    assert secrets_shown(response.content.decode()) == row.own
    kinds = {entry["kind"] for entry in results}
    assert ("tally.trace" in kinds) is row.master and ("tally.group_note" in kinds) is row.group


def check_api_orders(scenario, row):
    results = scenario.api(row, "orders").json()["results"]
    seen = {(o["seat"], o["phase"], o["version"]) for o in results}
    expected = {(f"Seat{pos}", 1, 1) for pos in row.own}
    expected |= {(f"Seat{pos}", 2, v + 1) for pos in row.own for v in range(len(ROUND2.get(pos, [])))}
    assert seen == expected
    if row.master:
        assert len(results) == Order.objects.count() == 7


def check_api_audit(scenario, row):
    results = scenario.api(row, "audit").json()["results"]
    assert AuditEntry.objects.filter(game=scenario.game, reason=AUDIT_REASON).exists()
    assert [a["reason"] for a in results] == ([AUDIT_REASON] if row.master else [])


def check_api_phase_actors(scenario, row):
    """A phase's actors can betray roles: only the master sees them all, a player only himself."""
    acting = {1, 3}
    Phase.objects.filter(game=scenario.game, status=Phase.Status.OPEN).update(
        actors=[scenario.seats[pos].pk for pos in acting]
    )
    phases = scenario.api(row, "phases").json()["results"]
    assert phases[0]["actors"] is None  # "everyone" is public
    by_id = {s.pk: pos for pos, s in scenario.seats.items()}
    assert {by_id[sid] for sid in phases[-1]["actors"]} == acting & row.own


@by_viewer
def test_api(scenario, row):
    check_api_seats(scenario, row)
    check_api_log(scenario, row)
    check_api_orders(scenario, row)
    check_api_audit(scenario, row)
    check_api_phase_actors(scenario, row)


@by_viewer
def test_lobby_game_list_and_public_feed(scenario, row):
    client = scenario.client(row)
    lobby = client.get(reverse("gm:lobby"))
    assert lobby.status_code == 200 and scenario.game.title in lobby.content.decode()
    listing = client.get("/api/games/")
    assert scenario.game.pk in {g["id"] for g in listing.json()["results"]}
    detail = client.get(f"/api/games/{scenario.game.pk}/")
    assert detail.status_code == 200 and "state" not in detail.json()
    feed = client.get(reverse("gm:game_feed", args=[scenario.game.pk]))
    assert feed.status_code == 200
    assert len(scenario.public_entries) < 50  # the feed holds the latest 50
    assert {int(pk) for pk in re.findall(r"#log-(\d+)", feed.content.decode())} == scenario.public_entries
    for response in (lobby, listing, detail, feed):
        assert secrets_shown(response.content.decode()) == set(), response


@by_viewer
def test_notification_recipients(scenario, row):
    user = scenario.users[row.user] if row.user else None
    seated_or_master = row.kind in (MASTER, PLAYER, DEAD_PLAYER)
    expected = scenario.expected_log(row)
    private = LogEntry.objects.filter(game=scenario.game).exclude(visibility="public")
    for entry in [*private, LogEntry.objects.get(pk=min(scenario.public_entries))]:
        receives = user is not None and user in visibility.entry_recipients(entry)
        assert receives == (seated_or_master and entry.pk in expected), entry


def test_notification_recipients_by_entry(scenario, master, players):
    def recipients(pk):
        return set(visibility.entry_recipients(LogEntry.objects.get(pk=pk)))

    round1 = scenario.game.phases.get(ordinal=1)
    own_entry = LogEntry.objects.get(phase=round1, kind="tally.your_number", seat=scenario.seats[1])
    assert str(SECRETS[1]) in own_entry.text()
    assert recipients(own_entry.pk) == {master, players[1]}
    assert all(recipients(pk) == {master, players[1], players[3]} for pk in scenario.group_entries)
    assert all(recipients(pk) == {master} for pk in scenario.master_entries)
    assert all(recipients(pk) == {master, *players} for pk in scenario.public_entries)


def test_log_readers_in_one_query_give_each_viewer_what_log_entries_gives_him(scenario, frozen,
                                                                             django_assert_num_queries):
    """``visibility.log_readers`` (the inbox's one query for every recipient of a resolved phase) gives each viewer
    kind exactly his ``log_entries`` of those phases, in the same order — running, and once the game is over."""
    game = scenario.game
    phases = list(game.phases.order_by("ordinal")[:2])

    def check():
        viewers = [visibility.viewer_for(scenario.users[r.user] if r.user else None, game) for r in TABLE]
        assert [v.sees_everything for v in viewers]  # the game's long-game options (the dead's rule), read once
        with django_assert_num_queries(1):
            readable = visibility.log_readers(viewers, phases, ("pk", "visibility"))
        for row, viewer, got in zip(TABLE, viewers, readable, strict=True):
            want = list(visibility.log_entries(viewer).filter(phase__in=phases).values_list("pk", "visibility"))
            assert got == want, row.name
        return dict(zip((r.name for r in TABLE), readable, strict=True))

    running = check()
    assert len(running["master"]) > len(running["own"]) > len(running["spectator"]) > 0  # the check can fail
    scenario.finish(frozen)
    finished = check()
    # revealed to everyone: each reads what the master reads (Round 2 resolved meanwhile: more than before)
    assert all(finished[r.name] == finished["master"] for r in TABLE)
    assert len(finished["spectator"]) > len(running["master"])
    assert visibility.log_readers([], phases) == []


# -- drafts ---------------------------------------------------------------------------------------------


@by_viewer
def test_draft_is_invisible_to_all_but_its_master(scenario, row):
    draft = services.game_create(master=scenario.users["master"], module="tally", title="Draft-title-wq93")
    client = scenario.client(row)
    visible = row.kind == MASTER
    page = client.get(reverse("gm:game", args=[draft.pk]))
    assert page.status_code == (200 if visible else 404)
    for what in ("", "seats/", "log/", "orders/", "audit/", "phases/", "posts/"):
        response = client.get(f"/api/games/{draft.pk}/{what}")
        assert response.status_code == (200 if visible else 404), what
        if not visible:
            assert response.json()["code"] == "not_found" and draft.title not in response.content.decode()
    assert (draft.title in client.get(reverse("gm:lobby")).content.decode()) is visible
    assert (draft.pk in {g["id"] for g in client.get("/api/games/").json()["results"]}) is visible
    if not visible:
        assert client.get(reverse("gm:game_feed", args=[draft.pk])).status_code == 404
        if row.user is not None:  # a logged-in non-master can't act on it either
            assert client.post(f"/api/games/{draft.pk}/join/", {"display_name": "x"},
                               content_type="application/json").status_code == 404
            assert client.post(f"/api/games/{draft.pk}/open-signup/").status_code == 404


# -- after the game: everything is revealed (the audit log stays the master's) ---------------------------


@by_viewer
def test_finished_game_reveals_everything(scenario, row, frozen):
    scenario.finish(frozen)
    client = scenario.client(row)
    everything = scenario.expected_log(TABLE[0])
    assert everything == set(LogEntry.objects.filter(game=scenario.game).values_list("pk", flat=True))
    # the page
    html = client.get(reverse("gm:game", args=[scenario.game.pk])).content.decode()
    assert secrets_shown(html) == set(ALL)
    assert set(map(int, re.findall(r'id="log-(\d+)"', html))) == everything
    assert (AUDIT_REASON in html) is row.master
    # the API
    seats = scenario.api(row, "seats").json()
    assert {s["position"]: s["private"]["secret"] for s in seats} == SECRETS
    log = scenario.api(row, "log")
    assert {e["id"] for e in log.json()["results"]} == everything
    assert secrets_shown(log.content.decode()) == set(ALL)
    orders = scenario.api(row, "orders").json()["results"]
    assert len(orders) == Order.objects.filter(phase__game=scenario.game).count() == 7
    audit = scenario.api(row, "audit").json()["results"]
    assert [a["reason"] for a in audit] == ([AUDIT_REASON] if row.master else [])  # the master's notes
    # the public feed
    xml = client.get(reverse("gm:game_feed", args=[scenario.game.pk])).content.decode()
    assert len(everything) <= 50
    assert {int(pk) for pk in re.findall(r"#log-(\d+)", xml)} == everything
    assert secrets_shown(xml) == set(ALL)
    # notifications
    if row.kind in (MASTER, PLAYER, DEAD_PLAYER):
        user = scenario.users[row.user]
        for entry in LogEntry.objects.filter(phase__ordinal=1).exclude(visibility="public"):  # round 1's secrets
            assert user in visibility.entry_recipients(entry), entry
