"""Reading the thread (issue 23, item 6; ``gm.core.services.iso``): ISO pages per author, filterable by phase and
paginated, showing only what the viewer may read; the phase index at the head of the thread; the vote history per
phase with the time of each change — through pages and the API, for tally, forum Mafia and ONUW."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from gm.core import services
from gm.core.models import Phase
from gm.core.services import iso
from tests.helpers import api, client_for, game_page, page_part

pytestmark = pytest.mark.django_db


def open_phase(game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def resolve(game) -> Phase:
    phase = open_phase(game)
    assert services.phase_resolve_due(phase_id=phase.pk, clock=lambda: phase.deadline + timedelta(seconds=1))
    return open_phase(game)


def test_iso_lists_one_authors_posts_by_phase_and_page(frozen, running_game, players, master):
    seat0 = running_game.seats.get(user=players[0])
    for i in range(23):
        services.post_create(game=running_game, user=players[0], body=f"round one post {i}")
    services.post_create(game=running_game, user=players[1], body="someone else")
    services.post_create(game=running_game, user=master, body="the master speaks")
    resolve(running_game)
    services.post_create(game=running_game, user=players[0], body="round two post")

    client = client_for(players[2])
    url = reverse("gm:iso", args=[running_game.pk, seat0.pk])
    first = client.get(url).content.decode()
    assert "ISO: Seat0" in first and "24 posts in this game" in first
    assert "round one post 0" in first and "round one post 19" in first and "round one post 20" not in first
    assert "someone else" not in first and "the master speaks" not in first
    second = client.get(url, {"page": 2}).content.decode()
    assert "round one post 20" in second and "round two post" in second
    only_two = client.get(url, {"phase": 2}).content.decode()
    assert "round two post" in only_two and "round one post" not in only_two and "1 post in this game" in only_two
    assert '<option value="1">Round 1</option>' in first
    master_iso = client.get(reverse("gm:iso", args=[running_game.pk, "master"])).content.decode()
    assert "the master speaks" in master_iso and "round one" not in master_iso

    status, body = api(client, "get", f"/api/games/{running_game.pk}/iso/{seat0.pk}/", {"phase": 1, "page": 2})
    assert status == 200
    assert (body["author"], body["seat"], body["phase"], body["phases"]) == ("Seat0", seat0.pk, 1, [1, 2])
    assert (body["page"], body["pages"], body["count"]) == (2, 2, 23)
    assert [p["body"] for p in body["posts"]] == ["round one post 20", "round one post 21", "round one post 22"]


def test_iso_shows_a_private_part_only_to_who_may_read_it(frozen, master, make_user):
    """FM-9.2: a private part is read by its recipient and the master only — in the ISO as in the thread."""
    from tests.integration.fm_table import build, play_night

    game, users = build(master, make_user)
    play_night(game, users, frozen)
    services.post_create(game=game, user=users["Alice"], body='public words [private="Clara"]CANARY-ISO[/private]')
    alice = game.seats.get(user=users["Alice"])
    url = reverse("gm:iso", args=[game.pk, alice.pk])
    for user, sees in ((users["Clara"], True), (master, True), (users["Jo"], False), (None, False)):
        html = client_for(user).get(url).content.decode()
        assert "public words" in html
        assert ("CANARY-ISO" in html) is sees, user
        status, body = api(client_for(user), "get", f"/api/games/{game.pk}/iso/{alice.pk}/")
        assert status == 200 and ("CANARY-ISO" in str(body)) is sees


def test_iso_links_from_posts_and_the_player_list(frozen, running_game, players):
    seat0 = running_game.seats.get(user=players[0])
    services.post_create(game=running_game, user=players[0], body="hello")
    page = game_page(running_game, players[1])
    link = reverse("gm:iso", args=[running_game.pk, seat0.pk])
    assert page_part(page, "seats").count(link) == 1
    assert page_part(page, f"post-{seat0.posts.get().pk}").count(link) == 1


@pytest.mark.parametrize("query", [{"phase": "x"}, {"phase": 99}])
def test_iso_bad_phase_or_author_is_not_found(running_game, players, make_user, master, query):
    seat0 = running_game.seats.get(user=players[0])
    client = client_for(players[1])
    assert client.get(reverse("gm:iso", args=[running_game.pk, seat0.pk]), query).status_code == 404
    other = services.game_create(master=master, module="tally", title="Other", options={"rounds": 1}, rng_seed=1)
    services.game_open_signup(game=other, actor=master)
    stranger = services.seat_join(game=other, user=make_user("stranger"), display_name="Stranger")
    assert client.get(reverse("gm:iso", args=[running_game.pk, stranger.pk])).status_code == 404
    assert client.get(reverse("gm:iso", args=[running_game.pk, "nobody"])).status_code == 404
    status, _ = api(client, "get", f"/api/games/{running_game.pk}/iso/{seat0.pk}/", query)
    assert status == 404


def test_fm_phase_index_heads_the_thread_and_links_the_veche_history(frozen, master, make_user):
    from tests.integration.fm_table import build, play_day, play_night

    game, users = build(master, make_user)
    services.post_create(game=game, user=users["Alice"], body="night words")
    play_night(game, users, frozen)
    services.post_create(game=game, user=users["Clara"], body="day words")
    play_day(game, users, frozen)
    night1, day1, night2 = Phase.objects.filter(game=game).order_by("ordinal")
    page = game_page(game, None)
    # The game page links the index above the thread; the index itself is a page of its own.
    assert page.index('id="phase-index"') < page.index('id="thread"')
    assert reverse("gm:phase_index", args=[game.pk]) in page_part(page, "phase-index")
    index = page_part(client_for(None).get(reverse("gm:phase_index", args=[game.pk])).content.decode(), "phase-index")
    assert [line for line in index.split("<li>")[1:] if "Night 1" in line or "Day 1" in line or "Night 2" in line]
    rows = {r["label"]: r for r in iso.phase_index(iso.visibility.viewer_for(None, game), page_size=20)}
    assert set(rows) == {"Night 1", "Day 1", "Night 2"}
    assert rows["Night 1"]["results"] and rows["Day 1"]["start"] and rows["Day 1"]["results"]
    assert rows["Night 2"]["results"] is None
    assert f'href="{game.get_absolute_url()}#log-{rows["Day 1"]["results"]}"' in index
    assert f'href="{game.get_absolute_url()}?page=1#post-{rows["Day 1"]["post"]}"' in index
    veche = reverse("forum_mafia:veche", args=[game.pk]) + "?day=1"
    assert rows["Day 1"]["votes"] == veche and veche in index and rows["Night 1"]["votes"] == ""
    # The Veche's own history has the time of each vote change (FM-7.1).
    assert 'id="fm-veche-history"' in client_for(None).get(veche).content.decode()
    status, body = api(client_for(users["Jo"]), "get", f"/api/games/{game.pk}/phase-index/")
    assert status == 200 and [r["label"] for r in body] == ["Night 1", "Day 1", "Night 2"]
    assert body[1]["votes"] == veche and body[0]["start"] == rows["Night 1"]["start"]


def _onuw(master, make_user):
    names = ["Alice", "Boris", "Clara", "Dmitri"]
    users = {n: make_user(n.lower()) for n in names}
    game = services.game_create(master=master, module="onuw", title="ONUW", rng_seed=9, options={
        "deal": ["seer", "werewolf", "robber", "troublemaker", "villager", "villager", "drunk"]})
    services.game_open_signup(game=game, actor=master)
    for n in names:
        services.seat_join(game=game, user=users[n], display_name=n)
    services.game_start(game=game, actor=master)
    return game, users


def test_onuw_vote_history_with_times_and_secret_night(frozen, master, make_user):
    game, users = _onuw(master, make_user)
    seat = {s.display_name: s.pk for s in game.seats.all()}
    night = open_phase(game)
    services.order_submit(phase=night, user=users["Clara"], payload={"swap_with": seat["Boris"]})  # the robber
    day = resolve(game)
    services.order_submit(phase=day, user=users["Alice"], payload={"vote": seat["Boris"]})
    frozen.shift(600)
    services.order_submit(phase=day, user=users["Alice"], payload={"vote": seat["Clara"]})
    services.order_submit(phase=day, user=users["Dmitri"], payload={"vote": seat["Boris"]})

    page = client_for(users["Boris"]).get(reverse("gm:votes", args=[game.pk]), {"phase": day.ordinal})
    html = page.content.decode()
    assert "Votes of Day 1" in html and html.count("<time") == 3
    assert html.index("Vote for Boris.") < html.index("Vote for Clara.")
    status, body = api(client_for(None), "get", f"/api/games/{game.pk}/votes/", {"phase": day.ordinal})
    assert status == 200 and body["public"] is True and body["hidden"] is False
    assert [(r["seat"], r["lines"]) for r in body["rows"]] == [
        ("Alice", ["Vote for Boris."]), ("Alice", ["Vote for Clara."]), ("Dmitri", ["Vote for Boris."])]
    assert body["rows"][1]["at"] > body["rows"][0]["at"]
    # The night's orders are secret: a player sees only his own; spectators nothing.
    status, body = api(client_for(users["Alice"]), "get", f"/api/games/{game.pk}/votes/", {"phase": night.ordinal})
    assert body["public"] is False and body["rows"] == []
    status, body = api(client_for(users["Clara"]), "get", f"/api/games/{game.pk}/votes/", {"phase": night.ordinal})
    assert [r["seat"] for r in body["rows"]] == ["Clara"]
    index = page_part(client_for(users["Alice"]).get(reverse("gm:phase_index", args=[game.pk])).content.decode(),
                      "phase-index")
    assert reverse("gm:votes", args=[game.pk]) + f"?phase={day.ordinal}" in index
    assert client_for(None).get(reverse("gm:votes", args=[game.pk]), {"phase": "x"}).status_code == 404
