"""Setup review and the takeover of an inactive master's game (issue 24 item 5): with ``GM_SETUP_REVIEW`` the
signups stay closed until a reviewer approves (pages and API), the master is told; a master inactive for
``GM_MASTER_INACTIVE_DAYS`` days is offered to his co-masters or the standby masters by beat's sweep (time-machine
clock), and one of them takes over (audited, announced in the thread)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission

from gm.core import services
from gm.core.models import AuditEntry, CoMaster, Game, Post, SetupReview, TakeoverOffer
from gm.core.services import comaster_takeover, comasters
from gm.inbox.models import Notification
from tests.helpers import api, client_for, game_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(master):
    return services.game_create(master=master, module="tally", title="Reviewed", options={"rounds": 2}, rng_seed=7)


@pytest.fixture
def reviewer(make_user):
    user = make_user("reviewer")
    user.user_permissions.add(Permission.objects.get(codename="review_setup"))
    return type(user).objects.get(pk=user.pk)


def test_review_blocks_signup_until_approved(settings, draft, master, reviewer, players,
                                             django_capture_on_commit_callbacks):
    settings.GM_SETUP_REVIEW = True
    client = client_for(master)
    response = client.post(f"/games/{draft.pk}/signup/open/", follow=True)
    assert "sent for review" in response.content.decode()
    draft.refresh_from_db()
    assert draft.status == Game.Status.DRAFT
    assert SetupReview.objects.get(game=draft).status == "pending"
    with pytest.raises(services.ServiceError):
        services.seat_join(game=draft, user=players[0], display_name="Early")
    status, body = api(client, "post", f"/api/games/{draft.pk}/open-signup/")
    assert status == 409 and body["code"] == "review" and "sent for review" in body["errors"]["__all__"][0]
    # the reviewers' page lists it (a player is refused), and the draft shows to the reviewer
    page = client_for(reviewer).get("/reviews/").content.decode()
    assert "Reviewed" in page
    denied = client_for(players[0])
    denied.raise_request_exception = False
    assert denied.get("/reviews/").status_code == 403
    assert client_for(reviewer).get(f"/games/{draft.pk}/").status_code == 200
    # reject with a comment: still closed, the master is told why
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(reviewer).post(f"/reviews/{draft.pk}/", {"decision": "reject",
                                                                       "comment": "too many roles"})
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.status == Game.Status.DRAFT
    note = Notification.objects.get(user=master, kind="notice")
    assert note.data == {"what": "review_rejected", "comment": "too many roles"}
    inbox = client_for(master).get("/inbox/").content.decode()
    assert "too many roles" in inbox
    # the master asks again; the reviewer approves through the API: signups open
    client.post(f"/games/{draft.pk}/review/request/")
    status, body = api(client_for(reviewer), "get", "/api/reviews/")
    assert status == 200 and [r["game"] for r in body] == [draft.pk]
    with django_capture_on_commit_callbacks(execute=True):
        status, body = api(client_for(reviewer), "post", f"/api/reviews/{draft.pk}/", {"decision": "approve"})
    assert status == 200 and body["status"] == "signup"
    services.seat_join(game=draft, user=players[0], display_name="Now")
    assert Notification.objects.filter(user=master, kind="notice", data__what="review_approved").exists()
    assert AuditEntry.objects.filter(game=draft, action="setup_review", actor=reviewer).count() == 2


def test_review_off_by_default_and_nobody_reviews_himself(draft, master, make_user, settings):
    from gm.core.services.comaster_review import review_decide

    services.game_open_signup(game=draft, actor=master)  # GM_SETUP_REVIEW defaults to off
    assert Game.objects.get(pk=draft.pk).status == Game.Status.SIGNUP
    settings.GM_SETUP_REVIEW = True
    staff = make_user("staffer", host=True)
    staff.is_staff = True
    staff.save()
    other = services.game_create(master=staff, module="tally", title="Mine", options={"rounds": 1}, rng_seed=2)
    with pytest.raises(services.ServiceError):
        services.game_open_signup(game=other, actor=staff)
    with pytest.raises(services.ServiceError) as exc:
        review_decide(game=other, actor=staff, approve=True)
    assert exc.value.code == "not_allowed"
    with pytest.raises(services.ServiceError) as exc:
        review_decide(game=other, actor=master, approve=True)
    assert exc.value.code == "forbidden"
    assert Game.objects.get(pk=other.pk).status == Game.Status.DRAFT


def test_takeover_after_n_days_by_the_co_master(frozen, running_game, master, make_user, settings,
                                                django_capture_on_commit_callbacks):
    settings.GM_MASTER_INACTIVE_DAYS = 3
    game = running_game
    helper = make_user("helper")
    comasters.comaster_add(game=game, actor=master, username="helper")  # an audited master action: now
    frozen.shift(timedelta(days=2).total_seconds())
    assert comaster_takeover.takeover_sweep().offered == []
    frozen.shift(timedelta(days=1, minutes=1).total_seconds())
    with django_capture_on_commit_callbacks(execute=True):
        report = comaster_takeover.takeover_sweep()
    assert report.offered == [game.pk]
    assert comaster_takeover.takeover_sweep().offered == []  # one open offer per game
    assert Notification.objects.filter(user=helper, kind="notice", data__what="takeover_offer").count() == 1
    page = game_page(game, helper)
    assert "you may take this game over" in page
    # a player can't take it
    outsider = client_for(game.seats.first().user)
    outsider.raise_request_exception = False
    assert outsider.post(f"/games/{game.pk}/takeover/", {"confirm": "on"}).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(helper).post(f"/games/{game.pk}/takeover/", {"confirm": "on",
                                                                           "reason": "he vanished"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.master == helper
    assert CoMaster.objects.filter(game=game, user=master, read_only=False).exists()
    assert not CoMaster.objects.filter(game=game, user=helper).exists()
    entry = AuditEntry.objects.get(game=game, action="takeover")
    assert entry.actor == helper and entry.reason == "he vanished"
    post = Post.objects.get(game=game, system__kind="core.master_takeover")
    assert post.system["data"] == {"old": "master", "new": "helper"}
    thread = game_page(game, None)
    assert "helper takes the game over" in thread
    assert Notification.objects.filter(user=master, kind="notice", data__what="taken_over").exists()
    assert TakeoverOffer.objects.get(game=game).taken_by == helper


def test_standby_masters_are_offered_when_no_co_master_and_the_offer_closes_when_the_master_returns(
        frozen, running_game, master, make_user):
    game = running_game
    standby = make_user("standby")
    standby.user_permissions.add(Permission.objects.get(codename="standby_master"))
    frozen.shift(timedelta(days=4).total_seconds())
    assert comaster_takeover.takeover_sweep().offered == [game.pk]
    offer = TakeoverOffer.objects.get(game=game)
    assert offer.candidates == [standby.pk]
    # the master comes back (a post in the thread): the offer closes, nobody can take over
    frozen.shift(60)
    services.post_create(game=game, user=master, body="Back, sorry.")
    frozen.shift(60)
    status, body = api(client_for(standby), "post", f"/api/games/{game.pk}/takeover/", {"reason": "x"})
    assert status == 409, body
    assert comaster_takeover.takeover_sweep().closed == [game.pk]
    assert Game.objects.get(pk=game.pk).master == master
