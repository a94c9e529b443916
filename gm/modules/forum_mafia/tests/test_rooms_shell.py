"""Chat rooms in the shell (FM-9.3; FM-8 ``manager``, ``conspirator``, ``avenger``): proposals written in the comment
field of day posts become the ``rooms`` part of the day's orders; the day's resolution (``phase_resolve_due`` past
the deadline) opens the rooms; a room is a private thread its members and the master read — on the room page, in the
API, and nowhere else (not the game page of others, the Atom feed, the log, notifications); it closes after the next
night (read-only, a post refused with the reason), except the conspirator's.

The table (forum Mafia, the master's override, Day 1; ring order = list order)::

    0 Anna    sheriff                      alive
    1 Boris   mafia_boss                   alive
    2 Clara   doctor                       alive
    3 Dmitri  agent        conspirator     alive
    4 Eva     judge        manager         alive
    5 Fyodor  maniac       avenger         dead
    6 Gleb    commissioner                 alive   (never in a room: the non-member)
    7 Hanna   policeman                    alive
    8 Ivan    detective                    dead    (the dead player)

Day 1: Anna, Boris and Clara agree on a room; Dmitri's conspiracy takes Anna and the dead avenger Fyodor; Eva (the
manager) and Hanna agree on a room of two. Rooms: ``room:1-1`` the conspiracy (conspiracies first), ``room:1-2``
Anna–Boris–Clara, ``room:1-3`` Eva–Hanna.
"""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from gm.core import services, visibility
from gm.core.models import GroupMembership, LogEntry, Order, Phase, Post, Seat
from gm.core.services import ServiceError
from gm.inbox.models import Notification
from gm.modules.forum_mafia.models import RoomPost, RoomProposal
from gm.modules.forum_mafia.services import rooms as room_services
from gm.modules.forum_mafia.services.orders import latest_payload, order_part_submit
from gm.modules.forum_mafia.services.overrides import game_setup_override
from gm.modules.forum_mafia.tests.test_orders import HTMX, element
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

HAND = ["pistol", "witness", "advice", "tail", "bluff", "coffee"]
DECK = ["coffee", "pistol", "bunker", "witness", "advice", "tail", "hack", "bluff", "reserve", "dossier"]
TABLE = [
    ("Anna", {"custom": "Baker"}, "sheriff", True),
    ("Boris", {"custom": "Miller"}, "mafia_boss", True),
    ("Clara", {"custom": "Smith"}, "doctor", True),
    ("Dmitri", "conspirator", "agent", True),
    ("Eva", "manager", "judge", True),
    ("Fyodor", "avenger", "maniac", False),
    ("Gleb", {"custom": "Tailor"}, "commissioner", True),
    ("Hanna", {"custom": "Weaver"}, "policeman", True),
    ("Ivan", {"custom": "Cooper"}, "detective", False),
]
NAMES = [row[0] for row in TABLE]
ROOM_SECRET = "ROOM-7731 the mill at midnight"
CONSPIRACY_SECRET = "CONSP-4410 the avenger knows"
PAIR_SECRET = "PAIR-2208 two of us"
CONSPIRACY, TRIO, PAIR = "room:1-1", "room:1-2", "room:1-3"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


class Table:
    def __init__(self, game, users, frozen):
        self.game = game
        self.users = users
        self.frozen = frozen

    def seat(self, name: str) -> Seat:
        return self.game.seats.get(display_name=name)

    def ids(self, *names: str) -> list[int]:
        return [self.seat(n).pk for n in names]

    def phase(self) -> Phase:
        return self.game.phases.exclude(status=Phase.Status.RESOLVED).get()

    def post(self, who: str, comment: str, body: str = "My post.") -> Post:
        return services.post_create(game=self.game, user=self.users[who], body=body, comment=comment)

    def rooms_part(self, who: str, phase: Phase | None = None):
        return latest_payload(phase or self.phase(), self.seat(who)).get("rooms")

    def resolve(self) -> Phase:
        """Resolve the open phase through ``phase_resolve_due`` with a clock past its deadline; the next phase."""
        phase = self.phase()
        self.frozen.move_to(phase.deadline + timedelta(seconds=1))
        now = phase.deadline + timedelta(seconds=1)
        assert services.phase_resolve_due(phase_id=phase.pk, clock=lambda: now) is not None
        self.game.refresh_from_db()
        return self.phase()

    def room_post(self, who: str, room: str, body: str) -> RoomPost:
        return room_services.room_post_create(game=self.game, user=self.users[who], room=room, body=body)

    def client(self, who: str | None):
        return client_for(self.users[who] if who else None)


@pytest.fixture
def table(frozen, master, spectator, make_user) -> Table:
    users = {name: make_user(name.lower()) for name in NAMES}
    game = services.game_create(master=master, module="forum_mafia", title="Rooms", rng_seed=11)
    players = [{"user": users[name], "name": name, "public_role": public, "secret_role": secret, "alive": alive,
                "hand": list(HAND), "deck": list(DECK)} for name, public, secret, alive in TABLE]
    game_setup_override(game=game, actor=master, players=players, start_kind="day", start_number=1)
    game.refresh_from_db()
    return Table(game, {**users, "master": master, "spectator": spectator}, frozen)


def _agree_day_1(t: Table) -> None:
    t.post("Anna", "комната: Boris, Clara")
    t.post("Boris", "room: Anna, Clara")
    t.post("Clara", "Room: clara, anna; BORIS.")  # naming oneself is fine
    t.post("Dmitri", "заговор: Fyodor, Anna")
    t.post("Eva", "room: Hanna")
    t.post("Hanna", "комната: Eva")


@pytest.fixture
def night(table) -> Table:
    """Night 2, after the rooms of Day 1 were formed."""
    _agree_day_1(table)
    phase = table.resolve()
    assert (phase.kind, phase.number) == ("night", 2)
    return table


def _note(t: Table, post: Post) -> str:
    return " ".join(room_services.post_notes(visibility.viewer_for(post.author, t.game), [post]).get(post.pk, []))


# -- proposals from the comment field -----------------------------------------------------------------------------


def test_FM_9_3_a_comment_proposal_becomes_the_rooms_part_of_the_day_order(table):
    t = table
    t.post("Anna", "комната: Boris, Clara")
    anna, boris, clara = t.ids("Anna", "Boris", "Clara")
    assert t.rooms_part("Anna") == [{"members": [anna, boris, clara], "conspiracy": False}]
    # A post without a proposal changes nothing; the master's comment is no proposal at all.
    versions = Order.objects.filter(seat=t.seat("Anna")).count()
    t.post("Anna", "just talking")
    services.post_create(game=t.game, user=t.users["master"], body="Master here", comment="room: Anna, Boris")
    assert Order.objects.filter(seat=t.seat("Anna")).count() == versions
    assert RoomProposal.objects.filter(post__author=t.users["master"]).count() == 0


def test_FM_9_3_the_order_holds_the_proposals_of_all_his_posts_of_the_day_and_follows_edits(table):
    t = table
    anna, boris, clara, gleb = t.ids("Anna", "Boris", "Clara", "Gleb")
    first = t.post("Anna", "room: Boris, Gleb")
    t.post("Anna", "room: Boris, Clara")
    t.post("Anna", "room: Clara, Boris")  # the same set again: once
    assert t.rooms_part("Anna") == [{"members": [anna, boris, gleb], "conspiracy": False},
                                    {"members": [anna, boris, clara], "conspiracy": False}]
    services.post_edit(post=first, user=t.users["Anna"], body=first.body, comment="changed my mind")
    assert t.rooms_part("Anna") == [{"members": [anna, boris, clara], "conspiracy": False}]
    assert not RoomProposal.objects.filter(post=first).exists()
    # The other parts of the order are kept (order_part_submit replaces only "rooms"), and kept when rooms go.
    order_part_submit(phase=t.phase(), user=t.users["Anna"], key="vote",
                      value={"for": gleb, "punishment": "execution"})
    t.post("Anna", "room: Boris, Gleb")
    payload = latest_payload(t.phase(), t.seat("Anna"))
    assert payload["vote"]["for"] == gleb and len(payload["rooms"]) == 2
    for post in Post.objects.filter(seat=t.seat("Anna")):
        services.post_edit(post=post, user=t.users["Anna"], body=post.body, comment="")
    payload = latest_payload(t.phase(), t.seat("Anna"))
    assert "rooms" not in payload and payload["vote"]["for"] == gleb


def test_FM_9_3_at_most_four_proposals_a_day_are_recorded(table):
    t = table
    posts = [t.post("Anna", f"room: {a}, {b}") for a, b in
             (("Boris", "Clara"), ("Boris", "Gleb"), ("Clara", "Gleb"), ("Hanna", "Gleb"), ("Boris", "Hanna"))]
    assert len(t.rooms_part("Anna")) == 4
    assert "At most four room proposals a day are recorded. (FM-9.3)" in _note(t, posts[4])
    services.post_edit(post=posts[0], user=t.users["Anna"], body=posts[0].body, comment="no more")
    assert "recorded in the day's order" in _note(t, posts[4])  # the fifth takes the freed place
    assert t.ids("Anna", "Boris", "Hanna") in [p["members"] for p in t.rooms_part("Anna")]


def test_FM_9_3_refusals_are_shown_with_the_post_to_its_author_and_never_lose_it(table):
    t = table
    size = t.post("Gleb", "room: Anna, Boris, Hanna", body="Four of us?")
    unknown = t.post("Gleb", "room: Anna, Nobody", body="Who?")
    twice = t.post("Gleb", "room: Anna, Boris room: Clara", body="Two rooms")
    dead = t.post("Anna", "room: Boris, Ivan", body="With the dead")
    conspiracy = t.post("Gleb", "заговор: Anna", body="Not mine")
    assert Post.objects.filter(pk__in=[size.pk, unknown.pk, twice.pk, dead.pk, conspiracy.pk]).count() == 5
    assert "A room has three members (two to four with a manager). (FM-9.3)" in _note(t, size)
    assert "Nobody in this game is called “Nobody”. (FM-9.3)" in _note(t, unknown)
    assert "one room" in _note(t, twice)
    assert "A room lists living characters" in _note(t, dead)
    assert "Only the conspirator" in _note(t, conspiracy) and "(FM-8)" in _note(t, conspiracy)
    assert t.rooms_part("Gleb") is None and t.rooms_part("Anna") is None
    assert not Order.objects.filter(seat=t.seat("Gleb")).exists()
    # Shown under the post on the game page — to its author and the master only.
    for who, sees in (("Gleb", True), ("master", True), ("Anna", False), ("spectator", False), (None, False)):
        page = t.client(who).get(reverse("gm:game", args=[t.game.pk])).content.decode()
        assert ("Chat-room proposal not recorded" in element(page, f"post-{size.pk}")) == sees, who
        assert "Four of us?" in page  # the post itself is public
    status, data = api(t.client("Gleb"), "get", f"/api/games/{t.game.pk}/posts/")
    assert status == 200
    mine = next(p for p in data["results"] if p["id"] == size.pk)
    assert any("not recorded" in n for n in mine["notes"])
    status, data = api(t.client("Anna"), "get", f"/api/games/{t.game.pk}/posts/")
    assert next(p for p in data["results"] if p["id"] == size.pk)["notes"] == []


def test_FM_9_3_recorded_proposals_are_noted_and_a_dead_avenger_gives_no_orders(table):
    t = table
    ok = t.post("Anna", "room: Boris, Clara")
    assert "Chat-room proposal recorded in the day's order: Anna, Boris, Clara (FM-9.3)." in _note(t, ok)
    avenger = t.post("Fyodor", "room: Anna, Boris", body="I speak after death")  # FM-9.7: he may post
    assert "The dead give no orders" in _note(t, avenger)
    assert not Order.objects.filter(seat=t.seat("Fyodor")).exists()


def test_FM_9_3_proposals_by_night_are_refused_with_the_reason(night):
    t = night
    post = t.post("Hanna", "room: Eva, Anna", body="By night")
    assert "Chat rooms are agreed by day. (FM-9.3)" in _note(t, post)
    assert Post.objects.filter(pk=post.pk).exists()
    assert not Order.objects.filter(seat=t.seat("Hanna"), phase=t.phase()).exists()


def test_FM_9_3_a_proposal_after_the_deadline_is_not_recorded(table):
    t = table
    t.frozen.move_to(t.phase().deadline + timedelta(seconds=5))
    post = t.post("Anna", "room: Boris, Clara", body="Too late")
    assert "No day was open for it" in _note(t, post)
    assert not Order.objects.filter(seat=t.seat("Anna")).exists()


# -- rooms formed at the end of the day -------------------------------------------------------------------------


def test_FM_9_3_three_who_agree_get_a_room_at_day_end_with_the_conspiracy_and_the_managers_pair(night):
    t = night
    anna, boris, clara, dmitri, eva, fyodor, hanna = t.ids("Anna", "Boris", "Clara", "Dmitri", "Eva", "Fyodor",
                                                           "Hanna")
    assert t.game.state["fm"]["rooms"] == {
        CONSPIRACY: {"members": [anna, dmitri, fyodor], "until": None},
        TRIO: {"members": [anna, boris, clara], "until": t.phase().ordinal},
        PAIR: {"members": [eva, hanna], "until": t.phase().ordinal},
    }
    groups = {}
    for m in GroupMembership.objects.filter(game=t.game, group__startswith="room:"):
        groups.setdefault(m.group, set()).add(m.seat_id)
    assert groups == {CONSPIRACY: {anna, dmitri, fyodor}, TRIO: {anna, boris, clara}, PAIR: {eva, hanna}}
    # Room log entries reach the members only (the core's group and seat visibility).
    created = LogEntry.objects.filter(game=t.game, kind="fm.room_created")
    assert {e.seat_id for e in created} == {anna, boris, clara, dmitri, eva, fyodor, hanna}


def test_FM_8_the_managers_room_of_four_and_the_conspiracy_once(night):
    t = night
    day = t.resolve()
    assert (day.kind, day.number) == ("day", 2)
    again = t.post("Dmitri", "conspiracy: Gleb, Hanna")
    assert "Only the conspirator creates a room of any size, once per game. (FM-8)" in _note(t, again)
    t.post("Eva", "room: Anna, Gleb, Hanna")
    t.post("Anna", "room: Eva, Gleb, Hanna")
    t.post("Gleb", "room: Eva, Anna, Hanna")
    t.post("Hanna", "room: Eva, Anna, Gleb")
    t.post("Boris", "room: Clara, Gleb, Hanna")  # four without the manager: refused, no room
    t.resolve()
    rooms = t.game.state["fm"]["rooms"]
    assert rooms["room:2-1"]["members"] == t.ids("Anna", "Eva", "Gleb", "Hanna")
    assert set(rooms) == {CONSPIRACY, TRIO, PAIR, "room:2-1"}


# -- room threads ---------------------------------------------------------------------------------------------------


VIEWERS = ("master", "Anna", "Boris", "Fyodor", "Gleb", "Ivan", "spectator", None)
# who reads which room: members who may speak (the living, the dead avenger) and the master.
READERS = {CONSPIRACY: {"master", "Anna", "Dmitri", "Fyodor"}, TRIO: {"master", "Anna", "Boris", "Clara"},
           PAIR: {"master", "Eva", "Hanna"}}
SECRETS = {TRIO: ROOM_SECRET, CONSPIRACY: CONSPIRACY_SECRET, PAIR: PAIR_SECRET}


def _write_secrets(t: Table) -> None:
    t.room_post("Anna", "1-2", f"[b]{ROOM_SECRET}[/b]")
    t.room_post("Fyodor", "1-1", CONSPIRACY_SECRET)  # FM-8: the dead avenger talks in his rooms
    t.room_post("Hanna", "1-3", PAIR_SECRET)


def test_FM_9_3_room_posts_reach_only_the_members_and_the_master_on_every_channel(night):
    t = night
    _write_secrets(t)
    from gm.core.tasks import phase_notify_task

    resolved_day = t.game.phases.filter(kind="day", number=1).get()
    phase_notify_task(resolved_day.pk)  # the inbox: results and room invitations
    feed = t.client(None).get(reverse("gm:game_feed", args=[t.game.pk])).content.decode()
    for secret in SECRETS.values():
        assert secret not in feed
    assert "room:" not in feed
    master_view = visibility.viewer_for(t.users["master"], t.game)
    labels = {r.slug: r.label for r in room_services.room_list(master_view)}
    assert labels == {CONSPIRACY: "Conspiracy of Day 1", TRIO: "Room 2 of Day 1", PAIR: "Room 3 of Day 1"}
    nowhere = api(t.client("Anna"), "get", f"/api/games/{t.game.pk}/rooms/9-9/posts/")
    assert nowhere[0] == 404
    # Who is in a room is the members' news too: "A chat room is open for you with …" reaches the members only.
    news = {}
    for entry in LogEntry.objects.filter(game=t.game, kind="fm.room_created"):
        news.setdefault(entry.data["room"], set()).add(entry.text())
    assert set(news) == set(SECRETS)
    assert news[CONSPIRACY] == {"A chat room is open for you with Anna, Dmitri, Fyodor (to the end of the game)."}
    kinds = set()
    for who in VIEWERS:
        client = t.client(who)
        user = t.users[who] if who else None
        kind = visibility.viewer_for(user, t.game).kind
        kinds.add(kind)
        page = client.get(reverse("gm:game", args=[t.game.pk])).content.decode()
        status, listed = api(client, "get", f"/api/games/{t.game.pk}/rooms/")
        assert status == 200
        readable = {r for r, readers in READERS.items() if who in readers}
        assert {r["group"] for r in listed} == readable, (who, kind)
        for room, secret in SECRETS.items():
            key = room.removeprefix("room:")
            sees = room in readable
            assert (labels[room] in element(page, "fm-rooms")) == sees, (who, room)
            assert secret not in page  # the game page lists rooms, never their posts
            response = client.get(reverse("forum_mafia:room", args=[t.game.pk, key]))
            assert response.status_code == (200 if sees else 404), (who, room)
            assert (secret in response.content.decode()) == sees
            status, posts = api(client, "get", f"/api/games/{t.game.pk}/rooms/{key}/posts/")
            assert status == (200 if sees else 404), (who, room)
            assert (secret in str(posts)) == sees
            if not sees:
                assert (status, posts) == nowhere  # the same answer as a room that never was: not even that it exists
            # The log API: nothing of a room's posts; room news only for the members.
            status, log = api(client, "get", f"/api/games/{t.game.pk}/log/", {"page_size": 500})
            assert secret not in str(log)
            member = who in READERS[room] and who != "master"
            for text in news[room]:
                if member or who == "master":
                    assert text in str(log), (who, room)
                else:
                    assert text not in page and text not in str(log) and text not in feed, (who, room)
        if who != "master" and not readable:
            assert 'id="fm-rooms"' not in page
        if user is not None:
            inbox = client.get(reverse("inbox:list")).content.decode()
            assert not any(secret in inbox for secret in SECRETS.values())
            assert ("new chat room" in inbox) == bool(readable and who != "master"), who
    assert kinds == set(visibility.VIEWER_KINDS)
    # Notifications: room invitations reach exactly the members, and no notification holds a room's words.
    invited = {}
    for note in Notification.objects.filter(game=t.game, kind=Notification.Kind.ROOM_INVITATION):
        invited.setdefault(note.data["group"], set()).add(note.user.username)
    assert invited == {room: {r.lower() for r in readers - {"master"}} for room, readers in READERS.items()}
    for note in Notification.objects.filter(game=t.game):
        assert not any(s in (note.body + str(note.data)) for s in SECRETS.values())
    for user in [t.users[n] for n in NAMES] + [t.users["master"]]:
        from gm.inbox import selectors

        shown = " ".join(str(n.__dict__) for n in selectors.present(selectors.notifications_for(user), user))
        assert not any(s in shown for s in SECRETS.values())


def test_FM_9_3_a_member_who_dies_loses_the_room_but_the_avenger_keeps_his(night):
    t = night
    _write_secrets(t)
    Seat.objects.filter(pk=t.seat("Boris").pk).update(alive=False)  # Boris dies (no avenger): FM-9.7
    client = t.client("Boris")
    assert client.get(reverse("forum_mafia:room", args=[t.game.pk, "1-2"])).status_code == 404
    assert api(client, "get", f"/api/games/{t.game.pk}/rooms/")[1] == []
    with pytest.raises(ServiceError) as err:
        t.room_post("Boris", "1-2", "from the grave")
    assert err.value.code == "not_found"
    # Fyodor, the dead avenger, reads and writes in the conspiracy (FM-8).
    assert t.client("Fyodor").get(reverse("forum_mafia:room", args=[t.game.pk, "1-1"])).status_code == 200


def test_FM_9_3_members_post_the_master_reads_others_are_told_nothing(night):
    t = night
    post = t.room_post("Anna", "1-2", "[url=javascript:alert(1)]x[/url] [b]bold[/b]")
    assert post.room == TRIO and post.seat == t.seat("Anna")
    html = room_services.room_posts(visibility.viewer_for(t.users["master"], t.game),
                                    room_services.room_get(visibility.viewer_for(t.users["master"], t.game), "1-2"))
    assert "<strong>bold</strong>" in html[0]["html"] and "javascript" not in html[0]["html"]  # the thread's renderer
    with pytest.raises(ServiceError) as err:
        t.room_post("master", "1-2", "the master speaks")
    assert err.value.code == "forbidden"
    for who in ("Gleb", "Ivan", "spectator"):
        with pytest.raises(ServiceError) as err:
            t.room_post(who, "1-2", "let me in")
        assert err.value.code == "not_found"
    with pytest.raises(ServiceError) as err:
        t.room_post("Anna", "9-9", "no such room")
    assert err.value.code == "not_found"
    with pytest.raises(ServiceError) as err:
        t.room_post("Anna", "1-2", "   ")
    assert err.value.code == "invalid" and "body" in err.value.errors
    # The API: 201 for a member, 404 for anyone else, 403 for the master.
    status, data = api(t.client("Boris"), "post", f"/api/games/{t.game.pk}/rooms/1-2/posts/", {"body": "hi all"})
    assert status == 201 and data["author"] == "Boris" and data["html"] == "hi all"
    assert api(t.client("Gleb"), "post", f"/api/games/{t.game.pk}/rooms/1-2/posts/", {"body": "hi"})[0] == 404
    assert api(t.client(None), "post", f"/api/games/{t.game.pk}/rooms/1-2/posts/", {"body": "hi"})[0] in (401, 403,
                                                                                                          404)
    assert api(t.client("master"), "post", f"/api/games/{t.game.pk}/rooms/1-2/posts/", {"body": "hi"})[0] == 403
    assert RoomPost.objects.filter(room=TRIO).count() == 2
    # The page: no-JS post redirects back; htmx re-renders the room thread.
    url = reverse("forum_mafia:room", args=[t.game.pk, "1-2"])
    response = t.client("Clara").post(url, {"body": "plain form"})
    assert response.status_code == 302 and response["Location"] == url
    response = t.client("Clara").post(url, {"body": "htmx form"}, **HTMX)
    assert response.status_code == 200 and "htmx form" in response.content.decode()
    assert 'id="room-thread"' in response.content.decode()


def test_FM_9_3_rooms_close_after_the_next_night_and_the_conspiracy_lasts(night):
    t = night
    _write_secrets(t)
    day = t.resolve()
    assert (day.kind, day.number) == ("day", 2)
    with pytest.raises(ServiceError) as err:
        t.room_post("Anna", "1-2", "still there?")
    assert err.value.code == "state"
    assert "This room closed when Night 2 ended: it is read-only now (FM-9.3)." in str(err.value)
    status, data = api(t.client("Anna"), "post", f"/api/games/{t.game.pk}/rooms/1-2/posts/", {"body": "hello?"})
    assert status == 409 and "read-only" in str(data["errors"])
    page = t.client("Anna").get(reverse("forum_mafia:room", args=[t.game.pk, "1-2"])).content.decode()
    assert ROOM_SECRET in page and 'id="room-post-form"' not in page and "read-only now" in page
    listed = {r["group"]: r for r in api(t.client("Anna"), "get", f"/api/games/{t.game.pk}/rooms/")[1]}
    assert listed[TRIO]["open"] is False and listed[TRIO]["may_post"] is False
    assert listed[CONSPIRACY]["open"] is True and listed[CONSPIRACY]["lasting"] is True
    t.room_post("Anna", "1-1", "the conspiracy goes on")  # FM-8: to the end of the game
    t.resolve()
    t.room_post("Dmitri", "1-1", "and on")
    assert RoomPost.objects.filter(room=CONSPIRACY).count() == 3

