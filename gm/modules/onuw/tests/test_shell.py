"""ONUW in the shell: the order forms offer only legal choices and refuse illegal ones with the engine's reason
(nothing saved, ON-4, ON-6, ON-14); what each player learns reaches only him, for every viewer kind, on the page and
through the API, until the game ends and everything is revealed (ON-3, ON-5); the tournament series (ON-16); module
URLs are included generically."""
from __future__ import annotations

import html as htmllib
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from gm.core import services, visibility
from gm.core.models import Game, LogEntry, Order, Phase, Seat
from gm.modules.onuw import selectors as onuw_selectors
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

NAMES = ["Alice", "Boris", "Clara", "Dima"]
#: Alice seer, Boris werewolf (the lone wolf), Clara robber, Dima troublemaker; center villager, villager, drunk.
DEAL = ["seer", "werewolf", "robber", "troublemaker", "villager", "villager", "drunk"]


def start(master, players, deal=DEAL, **options) -> Game:
    game = services.game_create(master=master, module="onuw", title="ONUW", options={"deal": deal, **options},
                                rng_seed=9)
    services.game_open_signup(game=game, actor=master)
    for user, name in zip(players, NAMES, strict=False):
        services.seat_join(game=game, user=user, display_name=name)
    services.game_start(game=game, actor=master)
    game.refresh_from_db()
    return game


def seat(game, name) -> Seat:
    return game.seats.get(display_name=name)


def open_phase(game) -> Phase:
    return game.phases.get(status=Phase.Status.OPEN)


def resolve(game) -> None:
    phase = open_phase(game)
    assert services.phase_resolve_due(phase_id=phase.pk, clock=lambda: phase.deadline + timedelta(seconds=1))
    game.refresh_from_db()


def page(user, game) -> str:
    response = client_for(user).get(game.get_absolute_url())
    assert response.status_code == 200
    return htmllib.unescape(response.content.decode())


def radio_values(html: str, name: str) -> set[str]:
    return set(re.findall(rf'name="{name}" value="([^"]+)"', html))


def post_order(user, game, data) -> list[str]:
    data = {"phase": open_phase(game).pk, **data}  # the form names its phase (a hidden input)
    response = client_for(user).post(reverse("onuw:order", args=[game.pk]), data, follow=True)
    assert response.status_code == 200
    return [str(m) for m in response.context["messages"]]


def test_module_urls_are_included_generically():
    assert reverse("onuw:order", args=[1]) == "/games/1/onuw/order/"
    assert reverse("forum_mafia:orders", args=[1]) == "/games/1/fm/orders/"


def test_ON_4_forms_offer_only_legal_choices(master, players):
    game = start(master, players)
    ids = {name: str(seat(game, name).pk) for name in NAMES}
    seer = page(players[0], game)
    assert radio_values(seer, "look") == {ids["Boris"], ids["Clara"], ids["Dima"], "center1+center2",
                                          "center1+center3", "center2+center3"}  # not herself, not one center card
    assert radio_values(page(players[2], game), "swap_with") == {ids["Alice"], ids["Boris"], ids["Dima"]}
    trouble = page(players[3], game)
    assert set(re.findall(r'name="swap" value="([^"]+)"', trouble)) == {ids["Alice"], ids["Boris"], ids["Clara"]}
    assert radio_values(page(players[1], game), "look") == {"center1", "center2", "center3"}  # lone wolf (ON-4.2)


def test_ON_4_illegal_choices_refused_with_reason_and_nothing_saved(master, players):
    game = start(master, players)
    ids = {name: seat(game, name).pk for name in NAMES}
    cases = [
        (players[2], {"swap_with": ids["Clara"]}, "Choose another player, not yourself. (ON-4.6)"),
        (players[3], {"swap": [ids["Alice"]]}, "exactly two other players"),
        (players[3], {"swap": [ids["Alice"], ids["Dima"]]}, "not yourself"),
        (players[0], {"look": "center1"}, "two center cards, not one"),
        (players[0], {"look": f"{ids['Alice']}"}, "not yourself"),
        (players[1], {"look": "center1+center2"}, "exactly one center card"),
        (players[1], {"vote": ids["Alice"]}, "Unknown field"),
    ]
    for user, data, reason in cases:
        msgs = post_order(user, game, data)
        assert any(reason in m for m in msgs), (data, msgs)
    assert not Order.objects.filter(phase__game=game).exists()
    # a legal order is saved and offered back as the form's choice
    assert any("saved" in m for m in post_order(players[2], game, {"swap_with": ids["Boris"]}))
    assert Order.objects.get(phase__game=game).payload == {"swap_with": ids["Boris"]}


def test_ON_4_10_and_ON_14_players_with_nothing_to_do_are_told_so(master, players):
    deal = ["doppelganger", "villager", "werewolf", "mason", "seer", "villager", "mason"]
    game = start(master, players, deal=deal)
    assert open_phase(game).kind == "doppelganger"
    ids = {name: seat(game, name).pk for name in NAMES}
    assert radio_values(page(players[0], game), "copy") == {str(ids[n]) for n in NAMES[1:]}
    assert "You have nothing to do in this phase" in page(players[1], game)
    msgs = post_order(players[1], game, {"copy": ids["Clara"]})
    assert any("Only the doppelganger acts in this step. (ON-14)" in m for m in msgs)
    post_order(players[0], game, {"copy": ids["Dima"]})
    resolve(game)
    assert open_phase(game).kind == "night"
    msgs = post_order(players[1], game, {"look": f"{ids['Alice']}"})
    assert any("Your card does not wake at night. (ON-4.10)" in m for m in msgs)
    html = page(players[3], game)  # the mason sees the doppelganger-mason
    assert "The other masons: Alice." in html


def test_ON_6_and_ON_15_vote_form_and_public_votes(master, players):
    game = start(master, players)
    post_order(players[0], game, {"look": "center1+center2"})
    resolve(game)
    ids = {name: seat(game, name).pk for name in NAMES}
    assert radio_values(page(players[0], game), "vote") == {str(ids[n]) for n in NAMES[1:]}
    assert any("not yourself" in m for m in post_order(players[0], game, {"vote": ids["Alice"]}))
    post_order(players[0], game, {"vote": ids["Boris"]})
    assert "Alice → Boris" in page(None, game)  # ON-15: votes are public while they can change
    day = open_phase(game)
    for user in (None, players[1]):  # through the one visibility layer, so the API shows them too
        viewer = visibility.viewer_for(user, game)
        assert [o.payload for o in visibility.orders(viewer, day)] == [{"vote": ids["Boris"]}]
    status, body = api(client_for(players[1]), "get", f"/api/games/{game.pk}/orders/")
    rows = body["results"] if isinstance(body, dict) and "results" in body else body
    assert status == 200 and [r["payload"] for r in rows] == [{"vote": ids["Boris"]}], body
    night = game.phases.get(kind="night")
    assert Order.objects.filter(phase=night).count() == 1
    assert not visibility.orders(visibility.viewer_for(players[1], game), night).exists()  # night orders stay secret


def viewers(game, master, players, spectator):
    return {"master": master, "owner": players[0], "other": players[1], "spectator": spectator, "anonymous": None}


def test_ON_3_secrets_reach_only_their_player_for_every_viewer_kind(master, players, spectator):
    game = start(master, players)
    ids = {name: seat(game, name).pk for name in NAMES}
    post_order(players[0], game, {"look": f"{ids['Boris']}"})  # Alice (seer) looks at Boris: werewolf
    post_order(players[2], game, {"swap_with": ids["Dima"]})  # Clara (robber) takes the troublemaker
    resolve(game)
    alice_secret = "You saw: Boris: Werewolf."
    clara_secret = "You took Dima's card and looked at it: Troublemaker"
    for kind, user in viewers(game, master, players, spectator).items():
        html = page(user, game)
        assert "Cards in play (players + 3 in the center)" in html, kind
        assert (alice_secret in html) == (kind in ("master", "owner")), kind
        assert (clara_secret in html) == (kind == "master"), kind
        assert ("Your card: Werewolf." in html) == (kind in ("master", "other")), kind
        assert ("Your card: Seer." in html) == (kind in ("master", "owner")), kind
        # the API goes through the same visibility layer
        client = client_for(user)
        _status, detail = api(client, "get", f"/api/games/{game.pk}/")
        _status, seats = api(client, "get", f"/api/games/{game.pk}/seats/")
        _status, log = api(client, "get", f"/api/games/{game.pk}/log/")
        text = repr(detail) + repr(seats) + repr(log)
        rows = seats["results"] if isinstance(seats, dict) and "results" in seats else seats
        boris = next(r for r in rows if r["display_name"] == "Boris")
        assert ("private" in boris) == (kind in ("master", "other")), kind  # Boris's card: his and the master's
        assert ("Deal: Alice: Seer" in text) == (kind == "master"), kind
        assert (alice_secret in text) == (kind in ("master", "owner")), kind
        assert (clara_secret in text) == (kind == "master"), kind
        assert ("The table (only you, the master, see this)" in html) == (kind == "master"), kind
    # an owner never sees his final card: Clara's own data is her dealt card only (ON-5)
    clara = visibility.viewer_for(players[2], game)
    own = visibility.seat_projection(clara, seat(game, "Clara"))["private"]
    assert set(own) == {"card", "learned"} and own["card"] == "robber"  # what she learned, not her final card
    assert visibility.game_state(clara) == {"roles": sorted(DEAL), "stage": "day"}


def test_ON_3_after_the_game_everything_is_revealed_to_every_viewer(master, players, spectator):
    game = start(master, players)
    ids = {name: seat(game, name).pk for name in NAMES}
    post_order(players[0], game, {"look": f"{ids['Boris']}"})
    resolve(game)
    for voter, target in (("Alice", "Boris"), ("Boris", "Alice"), ("Clara", "Boris"), ("Dima", "Boris")):
        post_order(players[NAMES.index(voter)], game, {"vote": ids[target]})
    resolve(game)
    assert game.status == Game.Status.FINISHED
    assert game.outcome == {"winners": ["village"], "winning_seats": [ids["Alice"], ids["Clara"], ids["Dima"]]}
    dead = visibility.viewer_for(players[1], game)
    assert dead.kind == "dead_player"
    for kind, user in {**viewers(game, master, players, spectator), "dead": players[1]}.items():
        html = page(user, game)
        assert "You saw: Boris: Werewolf." in html, kind
        assert "Every card" in html and "Boris dies with 3 votes and reveals Werewolf" in html, kind
        assert "Winners: village (Alice, Clara, Dima)." in html, kind


def test_ON_16_series_tokens_and_champion_on_the_game_page(master, players):
    def finished(winners: list[int], series="cup") -> Game:
        game = Game.objects.create(module="onuw", title="g", master=master, options={"series": series},
                                   status=Game.Status.FINISHED, rng_seed=1)
        seats = [Seat.objects.create(game=game, user=u, display_name=NAMES[i], position=i)
                 for i, u in enumerate(players)]
        game.outcome = {"winners": ["village"], "winning_seats": [seats[i].pk for i in winners]}
        game.finished_at = game.created_at if hasattr(game, "created_at") else None
        game.save()
        return game

    for winners in ([0, 1], [0], [1, 2], [0], [0, 3], [1]):
        last = finished(winners)
    finished([2], series="other")
    ctx = onuw_selectors.series_context(last)
    assert ctx["standings"][:2] == [("Alice", 4), ("Boris", 3)] and ctx["champion"] is None and ctx["games"] == 6
    last = finished([0])
    ctx = onuw_selectors.series_context(last)
    assert ctx["champion"] == "Alice" and ("Alice", 5) in ctx["standings"]
    assert "Alice wins the series." in page(None, last)


def test_ON_13_night_results_are_per_seat_log_entries(master, players):
    game = start(master, players)
    ids = {name: seat(game, name).pk for name in NAMES}
    post_order(players[0], game, {"look": "center1+center3"})
    resolve(game)
    entry = LogEntry.objects.get(game=game, kind="onuw.seer_saw")
    assert entry.visibility == "seat" and entry.seat_id == ids["Alice"]
    assert LogEntry.objects.get(game=game, kind="onuw.trace_seer").visibility == "master"


def test_ON_13_every_phase_replays_identically_from_its_snapshot_orders_and_seed(master, players):
    """The drunk's random card comes from the phase's seed, so ``gm_replay`` gives the same result (exactly once,
    reproducible)."""
    from gm.core.replay import replay_phase

    deal = ["drunk", "werewolf", "doppelganger", "troublemaker", "villager", "seer", "villager"]
    game = start(master, players, deal=deal)
    ids = {name: seat(game, name).pk for name in NAMES}
    post_order(players[2], game, {"copy": ids["Dima"]})
    resolve(game)
    post_order(players[2], game, {"swap": [ids["Alice"], ids["Boris"]]})  # doppelganger-troublemaker
    resolve(game)  # the drunk gave no order: a random center card
    assert LogEntry.objects.filter(game=game, kind="onuw.trace_drunk_random").count() == 1
    post_order(players[0], game, {"vote": ids["Boris"]})
    post_order(players[1], game, {"vote": ids["Alice"]})
    post_order(players[3], game, {"vote": ids["Alice"]})
    resolve(game)
    assert game.is_over
    for phase in game.phases.all():
        report = replay_phase(phase.pk)
        assert report.identical, (phase.kind, report)


def test_ON_2_warnings_reach_the_master_only_and_pages_render_in_russian(master, players, spectator):
    deal = ["mason", "werewolf", "werewolf", "werewolf", "tanner", "tanner", "insomniac"]
    game = start(master, players, deal=deal)
    warnings = LogEntry.objects.filter(game=game, kind="onuw.warning")
    assert {e.visibility for e in warnings} == {"master"} and warnings.count() == 4
    assert "3 × Werewolf: the box holds only 2." in page(master, game)
    assert "Set-up warning" not in page(spectator, game)
    for user in (master, players[0], spectator, None):
        assert client_for(user, language="ru").get(game.get_absolute_url()).status_code == 200


def test_ON_1_start_refused_when_the_cards_do_not_fit_the_players(master, players):
    game = services.game_create(master=master, module="onuw", title="ONUW", rng_seed=1,
                                options={"roles": ["werewolf", "werewolf", "seer", "robber", "troublemaker",
                                                   "villager"]})
    services.game_open_signup(game=game, actor=master)
    for user, name in zip(players, NAMES, strict=True):
        services.seat_join(game=game, user=user, display_name=name)
    with translation.override("en"), pytest.raises(
            services.ServiceError, match=r"4 players need exactly 7 cards \(players \+ 3\), not 6"):
        services.game_start(game=game, actor=master)
    game.refresh_from_db()
    assert game.status == Game.Status.SIGNUP and not game.phases.exists()
    with translation.override("en"), pytest.raises(services.ServiceError, match="Unknown role"):
        services.game_create(master=master, module="onuw", title="x", options={"roles": ["vampire"]})
