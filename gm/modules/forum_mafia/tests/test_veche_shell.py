"""The Veche (FM-7) in the shell: the vote as a part of the day's order (``order_parts``, ``services.vote_submit``),
the vote panel (htmx and plain POST), the public count and vote history for every viewer kind, replayable to any
moment of the day, the API (``GET /api/games/<id>/veche/``, ``POST /api/games/<id>/veche/vote/``) and the
resolution at the deadline through ``phase_resolve_due``.

Day 1 of a game set up by the master (``game_setup_override``), every card known:

* Anna (authority, 2; sheriff) holds a ``letter`` (free, any phase) and an ``interrogation`` (day) — her card plays
  carry a secret text and must never leak through the Veche;
* Boris (politician, 1.5; mafia_boss) holds ``negotiation`` (+1 today, secret: not in the live count);
* Pavel (prosecutor; commissioner) may add +2 once;
* Max (paranoid; maniac) has a Sleeve [ace, bunker (role), pistol, sniper_rifle]: he chooses what he keeps if jailed;
* Vera (mafia_killer) holds three cards (an execution kills her);
* Sofia (sociopath; mafia_advisor) can't be voted for on Day 1 (FM-7.6);
* Dina (doctor) is dead.
"""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from gm.core import services as core
from gm.core.models import Game, Order, Phase, Seat
from gm.core.services import ServiceError
from gm.modules.forum_mafia.engine.state import is_jailed
from gm.modules.forum_mafia.selectors.veche import public_votes
from gm.modules.forum_mafia.services import signup as fm_services
from gm.modules.forum_mafia.services.orders import latest_payload, order_part_submit, order_parts_submit
from gm.modules.forum_mafia.services.overrides import game_setup_override
from gm.modules.forum_mafia.tests.test_orders import element
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SECRET_TEXT = "Meet-me-at-the-mill-7731"
NAMES = ("Anna", "Boris", "Pavel", "Max", "Vera", "Sofia", "Dina")


@pytest.fixture
def users(make_user):
    return {name: make_user(name.lower()) for name in NAMES}


@pytest.fixture
def day(frozen, master, users):
    """Day 1 of a forum Mafia game; Dina is dead."""
    game = core.game_create(master=master, module="forum_mafia", title="Veche", options={}, rng_seed=17)
    three = ["advice", "bluff", "tail"]
    players = [
        {"name": "Anna", "public_role": "authority", "secret_role": "sheriff",
         "hand": ["interrogation", "advice", "bluff", "tail"], "sleeve": ["letter"], "deck": ["coffee"]},
        {"name": "Boris", "public_role": "politician", "secret_role": "mafia_boss",
         "hand": ["negotiation", *three], "sleeve": [], "deck": ["coffee"]},
        {"name": "Pavel", "public_role": "prosecutor", "secret_role": "commissioner", "hand": three, "sleeve": []},
        {"name": "Max", "public_role": "paranoid", "secret_role": "maniac", "hand": three,
         "sleeve": ["ace", {"card": "bunker", "from_role": True}, "pistol", "sniper_rifle"]},
        {"name": "Vera", "secret_role": "mafia_killer", "hand": three, "sleeve": []},
        {"name": "Sofia", "public_role": "sociopath", "secret_role": "mafia_advisor", "hand": three, "sleeve": []},
        {"name": "Dina", "secret_role": "doctor", "hand": [], "sleeve": [], "alive": False},
    ]
    game_setup_override(game=game, actor=master, players=[{**p, "user": users[p["name"]]} for p in players],
                        start_kind="day", start_number=1)
    game.refresh_from_db()
    return game


def seat(game: Game, name: str) -> Seat:
    return game.seats.get(display_name=name)


def open_phase(game: Game) -> Phase:
    return game.phases.exclude(status=Phase.Status.RESOLVED).get()


def at(game: Game) -> dict:
    """What every vote and order form names: the phase it is for (the open one)."""
    return {"phase": open_phase(game).pk}


def uid(game: Game, name: str, kind: str) -> int:
    cards = seat(game, name).data["cards"]
    return next(c["uid"] for c in cards["hand"] + cards["sleeve"] if c["kind"] == kind)


def payload(game: Game, name: str) -> dict:
    return latest_payload(open_phase(game), seat(game, name))


def vote(game: Game, users, name: str, target: str | None, punishment: str = "execution", **extra) -> Order:
    return fm_services.vote_submit(phase=open_phase(game), user=users[name],
                                   target=None if target is None else seat(game, target).pk,
                                   punishment=punishment, **extra)


def veche_url(game: Game) -> str:
    return f"/games/{game.pk}/fm/veche/"


def page(client, game: Game) -> str:
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def secret_plays(game: Game, users) -> None:
    """Anna's day order: a letter with a secret text and an interrogation on Boris; Boris plays negotiation."""
    boris = seat(game, "Boris").pk
    order_parts_submit(phase=open_phase(game), user=users["Anna"], parts={"plays": [
        {"card": "letter", "from": "sleeve", "target": boris, "text": SECRET_TEXT},
        {"card": "interrogation", "from": "hand", "target": boris}]})
    order_parts_submit(phase=open_phase(game), user=users["Boris"], parts={"plays": [
        {"card": "negotiation", "from": "hand"}]})
    assert payload(game, "Anna")["plays"][0]["text"] == SECRET_TEXT
    assert payload(game, "Boris")["plays"][0]["card"] == "negotiation"


# == order parts ===================================================================================================


def test_order_part_replaces_one_part_and_keeps_the_others(day, users):
    secret_plays(day, users)
    plays = payload(day, "Anna")["plays"]
    vera = seat(day, "Vera").pk
    order = order_part_submit(phase=open_phase(day), user=users["Anna"], key="vote",
                              value={"for": vera, "punishment": "jail"})
    assert order.version == 2 and order.payload == {"plays": plays, "vote": {"for": vera, "punishment": "jail"}}
    # None removes the part; the cards stay.
    order = order_part_submit(phase=open_phase(day), user=users["Anna"], key="vote", value=None)
    assert order.version == 3 and order.payload == {"plays": plays}
    # Every version is kept (FM-5.6).
    assert list(Order.objects.filter(seat=seat(day, "Anna")).values_list("version", flat=True)) == [1, 2, 3]


def test_order_part_refused_stores_nothing(day, users):
    secret_plays(day, users)
    before = Order.objects.count()
    with pytest.raises(ServiceError) as refused:
        order_part_submit(phase=open_phase(day), user=users["Anna"], key="vote",
                          value={"for": seat(day, "Dina").pk, "punishment": "jail"})  # Dina is dead
    assert refused.value.code == "invalid" and "FM-7.1" in str(refused.value)
    assert Order.objects.count() == before


# == FM-7.1: vote, change, late, dead ===============================================================================


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no_js"])
def test_FM_7_1_vote_and_change_it_in_the_panel(day, users, frozen, htmx):
    client = client_for(users["Anna"])
    vera = seat(day, "Vera").pk
    response = client.post(veche_url(day), {**at(day), "for": vera, "punishment": "jail"}, **(HTMX if htmx else {}))
    if htmx:
        html = response.content.decode()
        assert response.status_code == 200 and "Your vote is counted" in html
        assert 'id="fm-orders"' in html and 'hx-swap-oob="true"' in html  # the order panel, out of band
    else:
        assert response.status_code == 302 and response["Location"].endswith("#fm-veche")
    assert payload(day, "Anna") == {"vote": {"for": vera, "punishment": "jail"}}
    frozen.shift(60)
    client.post(veche_url(day), {**at(day), "for": "peace"}, **(HTMX if htmx else {}))
    assert payload(day, "Anna") == {"vote": {"for": "peace"}}  # a vote for peace carries no punishment
    html = element(page(client, day), "fm-veche")
    assert "Your vote: <strong>Veche: for peace</strong>" in html
    history = element(html, "fm-veche-history")
    assert history.count("<tr>") == 3  # the header and two changes
    assert history.index("Vera") < history.index("peace")
    # Taking the vote back: the version stays in the history, the count has no vote of hers.
    frozen.shift(60)
    client.post(veche_url(day), {**at(day), "action": "withdraw"}, **(HTMX if htmx else {}))
    assert "vote" not in payload(day, "Anna")
    count = public_votes(open_phase(day))
    assert count["tally"]["votes"] == [] and [h["for"] for h in count["history"]] == ["Vera", "peace", None]


def test_FM_7_1_late_vote_refused_and_nothing_changes(day, users, frozen):
    vote(day, users, "Anna", "Vera")
    before = list(Order.objects.values_list("pk", flat=True))
    frozen.shift(int((open_phase(day).deadline - timezone.now()).total_seconds()) + 1)
    with pytest.raises(ServiceError) as late:
        vote(day, users, "Anna", "Boris")
    assert late.value.code == "late" and "deadline" in str(late.value)
    client = client_for(users["Anna"])
    response = client.post(veche_url(day), {**at(day), "for": seat(day, "Boris").pk, "punishment": "execution"})
    assert response.status_code == 400 and "deadline" in response.content.decode()
    status, body = api(client, "post", f"/api/games/{day.pk}/veche/vote/", {**at(day), "for": seat(day, "Boris").pk})
    assert status == 409 and body["code"] == "late"
    assert list(Order.objects.values_list("pk", flat=True)) == before
    assert payload(day, "Anna")["vote"]["for"] == seat(day, "Vera").pk
    # The panel says the count is final and offers no form.
    html = element(page(client, day), "fm-veche")
    assert "The deadline has passed" in html and 'id="fm-vote-form"' not in html


def test_FM_7_1_the_dead_do_not_vote(day, users):
    with pytest.raises(ServiceError) as dead:
        vote(day, users, "Dina", "Vera")
    assert dead.value.code == "not_allowed"
    client = client_for(users["Dina"])
    status, body = api(client, "post", f"/api/games/{day.pk}/veche/vote/", {**at(day), "for": "peace"})
    assert status == 403 and body["code"] == "not_allowed"
    html = element(page(client, day), "fm-veche")
    assert html and 'id="fm-vote-form"' not in html and "Dead characters do not vote" in html
    assert not Order.objects.filter(seat=seat(day, "Dina")).exists()


def test_FM_7_6_sociopath_not_offered_nor_accepted_on_day_1(day, users):
    html = element(page(client_for(users["Anna"]), day), "fm-vote-for")
    assert ">Vera<" in html and ">Sofia<" not in html and ">Dina<" not in html  # FM-7.6, the dead
    status, body = api(client_for(users["Anna"]), "post", f"/api/games/{day.pk}/veche/vote/",
                       {**at(day), "for": seat(day, "Sofia").pk, "punishment": "execution"})
    assert status == 400 and "FM-7.6" in json.dumps(body, ensure_ascii=False)
    assert not Order.objects.exists()


def test_FM_7_3_prosecutor_bonus_and_maniac_keep_only_for_them(day, users):
    forms = {n: element(page(client_for(users[n]), day), "fm-vote-form") for n in ("Anna", "Pavel", "Max")}
    assert 'id="fm-vote-bonus"' in forms["Pavel"] and 'id="fm-vote-bonus"' not in forms["Anna"]
    keep = element(forms["Max"], "fm-vote-keep")
    # FM-7.5: the ace and the role's bunker stay anyway; he picks among the others.
    assert ">Pistol<" in keep and ">Sniper Rifle<" in keep
    assert ">Ace<" not in keep and ">Bunker<" not in keep
    assert 'id="fm-vote-keep"' not in forms["Anna"] and 'id="fm-vote-keep"' not in forms["Pavel"]
    # Anna has no +2: refused with the rule's reason.
    status, body = api(client_for(users["Anna"]), "post", f"/api/games/{day.pk}/veche/vote/",
                       {**at(day), "for": seat(day, "Vera").pk, "prosecutor_bonus": True})
    assert status == 400 and "FM-7.3" in json.dumps(body, ensure_ascii=False)
    # Pavel declares it: strength 3 in the public count.
    client_for(users["Pavel"]).post(veche_url(day), {**at(day), "for": seat(day, "Vera").pk, "punishment": "execution",
                                                     "prosecutor_bonus": "1"})
    tally = public_votes(open_phase(day))["tally"]
    assert tally["votes"] == [{"voter": "Pavel", "for": "Vera", "punishment": "execution",
                               "prosecutor_bonus": True, "strength": 3.0}]


# == the public count for every viewer kind, with nothing but the votes ============================================


@pytest.fixture
def voted(day, users, frozen):
    """Anna and Boris play secret cards; then Anna (2) → Vera (execution), Boris (1.5, + a secret negotiation) →
    Vera (jail), Max → peace keeping sniper_rifle, Pavel → Boris (execution)."""
    secret_plays(day, users)
    vote(day, users, "Anna", "Vera")
    frozen.shift(60)
    vote(day, users, "Boris", "Vera", "jail")
    frozen.shift(60)
    vote(day, users, "Max", None, keep="sniper_rifle")
    frozen.shift(60)
    vote(day, users, "Pavel", "Boris")
    return day


#: What must never reach the Veche: Anna's plays (a letter's text, the interrogation), Boris's negotiation card (its
#: name; the panel's help text speaks of negotiation in general), the maniac's card to keep.
LEAKS = (SECRET_TEXT, "interrogation", "Interrogation", "letter", "Letter", "Negotiation", "sniper", "Sniper",
         "keep", "plays")


@pytest.mark.parametrize("kind", ["master", "player", "other_player", "dead_player", "spectator", "anonymous"])
def test_FM_7_1_public_count_for_every_viewer_shows_votes_only(voted, users, master, spectator, kind):
    user = {"master": master, "player": users["Anna"], "other_player": users["Vera"],
            "dead_player": users["Dina"], "spectator": spectator, "anonymous": None}[kind]
    client = client_for(user)
    full = page(client, voted)
    html = element(full, "fm-veche")
    assert html, f"{kind} sees the Veche"
    count = element(html, "fm-veche-count")
    # By strength: Vera 3.5 (Anna 2 + Boris 1.5 — his secret negotiation is not in the live count), Boris 1.
    assert "<strong>Vera</strong></td><td class=\"card-meta\">3.5</td><td>Anna, Boris</td>" in count
    assert "<strong>Boris</strong></td><td class=\"card-meta\">1</td><td>Pavel</td>" in count
    assert "For peace: 1 of 5.5 cast." in count and "2.5" not in count
    assert 'hx-trigger="every 30s"' in count  # polled while the day runs
    assert element(html, "fm-veche-history").count("<tr>") == 5
    for leak in LEAKS:
        assert leak not in html, f"{leak!r} leaked to {kind}"
    if kind not in ("master", "player"):  # the master sees every order; Anna her own
        assert SECRET_TEXT not in full and "Interrogation" not in full
    if kind != "master":  # nobody but the master (and Max) sees the maniac's Sleeve or his choice
        assert "Sniper" not in full
    status, body = api(client, "get", f"/api/games/{voted.pk}/veche/")
    assert status == 200
    text = json.dumps(body, ensure_ascii=False)
    for leak in LEAKS:
        assert leak not in text, f"{leak!r} leaked to {kind} in the API"
    assert body["tally"]["candidates"] == [{"player": "Vera", "strength": 3.5, "voters": ["Anna", "Boris"]},
                                           {"player": "Boris", "strength": 1.0, "voters": ["Pavel"]}]
    assert body["tally"]["peace"] == 1.0 and body["tally"]["cast"] == 5.5
    assert [(h["voter"], h["for"], h["punishment"]) for h in body["history"]] == [
        ("Anna", "Vera", "execution"), ("Boris", "Vera", "jail"), ("Max", "peace", None), ("Pavel", "Boris",
                                                                                             "execution")]


def test_polling_returns_the_count_only(voted):
    response = client_for(None).get(veche_url(voted) + "?part=count", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<div id="fm-veche-count"')
    assert 'id="fm-vote-form"' not in html


# == history, replayable ============================================================================================


def test_FM_7_1_history_and_the_count_at_a_moment(voted, users):
    phase = open_phase(voted)
    times = public_votes(phase)["times"]
    assert len(times) == 4
    # After Boris's vote, before Max's: Vera 3.5, no peace.
    then = public_votes(phase, at=times[1])
    assert then["tally"]["candidates"] == [{"player": "Vera", "strength": 3.5, "voters": ["Anna", "Boris"]}]
    assert then["tally"]["peace"] == 0.0 and len(then["history"]) == 2
    # Before any vote: nothing.
    assert public_votes(phase, at=times[0] - timedelta(seconds=1))["tally"]["cast"] == 0.0
    # The same through the API and the page (?at=, ISO time).
    status, body = api(client_for(None), "get", f"/api/games/{voted.pk}/veche/", {"at": times[1].isoformat()})
    assert status == 200 and body["tally"]["cast"] == 3.5 and len(body["history"]) == 2
    response = client_for(None).get(veche_url(voted), {"at": times[1].isoformat()})
    html = response.content.decode()
    assert response.status_code == 200 and "The count at" in html and 'hx-trigger="every' not in html
    assert "For peace: 0 of 3.5 cast." in html
    # A bad time: a clear error.
    status, body = api(client_for(None), "get", f"/api/games/{voted.pk}/veche/", {"at": "yesterday"})
    assert status == 400 and "ISO 8601" in body["errors"]["at"][0]
    # A change of nothing public (the maniac changes his card to keep) is no history line.
    vote(voted, users, "Max", None, keep="pistol")
    assert len(public_votes(phase)["history"]) == 4


# == the vote and the cards in one order ============================================================================


def test_the_card_form_keeps_the_vote_and_the_vote_keeps_the_cards(day, users):
    client = client_for(users["Anna"])
    vera, boris = seat(day, "Vera").pk, seat(day, "Boris").pk
    client.post(veche_url(day), {**at(day), "for": vera, "punishment": "jail"})
    interrogation = uid(day, "Anna", "interrogation")
    response = client.post(f"/games/{day.pk}/fm/orders/", {"action": "submit", "phase": open_phase(day).pk,
                                                            "hand": interrogation,
                                                            f"target_{interrogation}": boris}, **HTMX)
    assert response.status_code == 200 and "Your order is saved" in response.content.decode()
    assert payload(day, "Anna") == {
        "plays": [{"card": "interrogation", "from": "hand", "uid": interrogation, "target": boris}],
        "vote": {"for": vera, "punishment": "jail"}}
    # The order panel tells the vote too.
    assert "Veche: for Vera (jail)" in element(page(client, day), "fm-orders")
    # Voting again keeps the cards.
    client.post(veche_url(day), {**at(day), "for": boris, "punishment": "execution"})
    assert payload(day, "Anna")["plays"][0]["card"] == "interrogation"
    assert payload(day, "Anna")["vote"] == {"for": boris, "punishment": "execution"}
    # Withdrawing the cards keeps the vote.
    client.post(f"/games/{day.pk}/fm/orders/withdraw/", {"phase": open_phase(day).pk})
    assert payload(day, "Anna") == {"vote": {"for": boris, "punishment": "execution"}}


# == the API =======================================================================================================


def test_api_vote_and_take_it_back(day, users):
    client = client_for(users["Anna"])
    status, body = api(client, "post", f"/api/games/{day.pk}/veche/vote/",
                       {**at(day), "for": seat(day, "Vera").pk, "punishment": "jail"})
    assert status == 200 and body["tally"]["votes"] == [
        {"voter": "Anna", "for": "Vera", "punishment": "jail", "prosecutor_bonus": False, "strength": 2.0}]
    status, body = api(client, "post", f"/api/games/{day.pk}/veche/vote/", {**at(day), "for": "peace"})
    assert status == 200 and body["tally"]["peace"] == 2.0
    status, body = api(client, "post", f"/api/games/{day.pk}/veche/vote/", {**at(day), "for": None})
    assert status == 200 and body["tally"]["cast"] == 0.0 and len(body["history"]) == 3
    status, body = api(client, "post", f"/api/games/{day.pk}/veche/vote/", {**at(day), "for": "nobody"})
    assert status == 400
    anonymous = api(client_for(None), "post", f"/api/games/{day.pk}/veche/vote/", {**at(day), "for": "peace"})
    assert anonymous[0] in (401, 403)


# == resolution at the deadline ====================================================================================


def _resolve(game: Game, frozen) -> None:
    phase = open_phase(game)
    frozen.shift(int((phase.deadline - timezone.now()).total_seconds()) + 1)
    assert core.phase_resolve_due(phase_id=phase.pk) is not None
    game.refresh_from_db()


def test_FM_7_5_the_leader_is_executed_at_the_deadline(voted, users, frozen):
    """Vera 3.5 + Boris's secret negotiation 1 = 4.5 (Anna 2 execution, Boris 2.5 jail) against Boris 1; peace 1 of
    6.5. Punishment: execution 2 + 1 (Pavel, for Boris) = 3 against jail 2.5 → execution: 6 damage, Vera's three
    cards go, she dies."""
    _resolve(voted, frozen)
    vera = seat(voted, "Vera")
    assert not vera.alive
    phase = voted.phases.get(kind="day", number=1)
    result = public_votes(phase)["result"]
    assert result["outcome"] == "leader" and result["leader"] == "Vera" and result["punishment"] == "execution"
    assert result["candidates"][0] == {"player": "Vera", "strength": 4.5, "voters": ["Anna", "Boris"]}
    # At night the panel shows the day's final count and its result.
    html = element(page(client_for(None), voted), "fm-veche")
    assert "Final count" in html and "Vera is executed" in html and 'hx-trigger="every' not in html


def test_FM_7_5_the_leader_is_jailed_at_the_deadline_and_the_maniac_keeps_his_pick(day, users, frozen):
    vote(day, users, "Max", None, keep="sniper_rifle")
    for name in ("Anna", "Pavel", "Vera"):
        vote(day, users, name, "Max", "jail")
    _resolve(day, frozen)
    max_ = seat(day, "Max")
    assert max_.alive and is_jailed(day.state, max_.pk)
    assert [c["kind"] for c in max_.data["cards"]["sleeve"]] == ["ace", "bunker", "sniper_rifle"]
    assert [c["kind"] for c in max_.data["cards"]["hand"]] == ["advice", "bluff", "tail"]


def test_no_veche_before_day_1(frozen, master, users):
    game = core.game_create(master=master, module="forum_mafia", title="Night", options={}, rng_seed=3)
    game_setup_override(game=game, actor=master, players=[
        {"name": n, "secret_role": r, "hand": ["advice"], "sleeve": [], "user": users[n]}
        for n, r in (("Anna", "sheriff"), ("Boris", "mafia_boss"), ("Vera", "mafia_killer"),
                     ("Sofia", "mafia_advisor"), ("Dina", "doctor"))], start_kind="night", start_number=1)
    assert not element(page(client_for(None), game), "fm-veche")
    response = client_for(None).get(veche_url(game))
    assert response.status_code == 200 and "No Veche yet" in response.content.decode()
    status, body = api(client_for(None), "get", f"/api/games/{game.pk}/veche/")
    assert status == 404 and body["code"] == "not_found"
    status, body = api(client_for(users["Anna"]), "post", f"/api/games/{game.pk}/veche/vote/",
                       {**at(game), "for": "peace"})
    assert status == 409 and body["code"] == "state"
