"""Forum Mafia orders in the shell (FM-5, FM-6): the order form on the game page (htmx and plain POST), the
order-options API, the master's resolution trace and each player's private results, with their secrecy.

The game is built by the master's setup override in Night 1 (five characters, one dead), so every card is known:
Alice (sheriff, paranoid) holds in her Hand pistol, accusation (day only), redirect (price 2), stash, autopsy (free,
targets the dead) and sniper_rifle (price 1); in her Sleeve oracle (price 1), witness, the paranoid's bunker (a
role card: it can't pay a price) and letter (free, with a message). The test client re-raises any exception a view
lets escape, so a 500 fails the test.
"""
from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from gm.core import services
from gm.core.models import Game, LogEntry, Order, Phase, Seat
from gm.modules.forum_mafia.services.overrides import game_setup_override
from tests.helpers import api, client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ALICE_HAND = ["pistol", "accusation", "redirect", "stash", "autopsy", "sniper_rifle"]
ALICE_SLEEVE = ["oracle", "witness", {"card": "bunker", "from_role": True}, "letter"]


# -- helpers ----------------------------------------------------------------------------------------------------


class _Element(HTMLParser):
    """The outer HTML of the first element with ``id`` (stdlib only: no HTML library in the project)."""

    VOID = {"input", "br", "img", "meta", "link", "hr", "source", "col", "wbr", "area", "base", "embed", "track"}

    def __init__(self, html: str, element_id: str):
        super().__init__(convert_charrefs=False)
        self.html, self.element_id = html, element_id
        self.start = self.end = None
        self.depth = 0
        self.lines = [0]
        for line in html.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.feed(html)

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag, attrs):
        if self.end is not None:
            return
        if self.start is None:
            if dict(attrs).get("id") == self.element_id:
                self.start = self._offset()
                self.depth = 0 if tag in self.VOID else 1
                if tag in self.VOID:
                    self.end = self.start + len(self.get_starttag_text())
        elif tag not in self.VOID:
            self.depth += 1

    def handle_endtag(self, tag):
        if self.start is None or self.end is not None or tag in self.VOID:
            return
        self.depth -= 1
        if self.depth == 0:
            self.end = self._offset() + len(f"</{tag}>")


def element(html: str, element_id: str) -> str:
    """The element ``element_id`` of ``html`` ("" when there is none)."""
    found = _Element(html, element_id)
    return html[found.start:found.end] if found.start is not None else ""


@pytest.fixture
def users(make_user):
    return {name: make_user(name.lower()) for name in ("Alice", "Boris", "Clara", "Dmitri", "Eva")}


@pytest.fixture
def night(frozen, master, users):
    """Night 1 of a forum Mafia game set up by the master; Dmitri is dead."""
    game = services.game_create(master=master, module="forum_mafia", title="Orders", options={}, rng_seed=11)
    players = [
        {"user": users["Alice"], "name": "Alice", "public_role": "paranoid", "secret_role": "sheriff",
         "hand": ALICE_HAND, "sleeve": ALICE_SLEEVE, "deck": ["coffee", "advice", "bluff"]},
        {"user": users["Boris"], "name": "Boris", "public_role": "authority", "secret_role": "mafia_boss",
         "hand": ["pistol", "tail", "bunker", "advice", "hack", "wiretap"], "sleeve": [], "deck": ["coffee"]},
        {"user": users["Clara"], "name": "Clara", "public_role": "geek", "secret_role": "doctor",
         "hand": ["body_armour", "bunker", "advice", "tail", "hack"], "sleeve": [], "deck": ["coffee"]},
        {"user": users["Dmitri"], "name": "Dmitri", "public_role": "monk", "secret_role": "mafia_killer",
         "hand": [], "sleeve": [], "deck": [], "alive": False},
        {"user": users["Eva"], "name": "Eva", "public_role": "manager", "secret_role": "mafia_advisor",
         "hand": ["pistol", "bunker", "advice", "tail", "hack", "coffee"], "sleeve": [], "deck": ["coffee"]},
    ]
    game_setup_override(game=game, actor=master, players=players, start_kind="night", start_number=1)
    game.refresh_from_db()
    return game


def seat(game: Game, name: str) -> Seat:
    return game.seats.get(display_name=name)


def uid(game: Game, name: str, kind: str) -> int:
    """The uid of ``name``'s first ``kind`` card in his Hand or Sleeve."""
    cards = seat(game, name).data["cards"]
    return next(c["uid"] for c in cards["hand"] + cards["sleeve"] if c["kind"] == kind)


def phase(game: Game) -> Phase:
    return game.phases.exclude(status=Phase.Status.RESOLVED).get()


def orders_url(game: Game) -> str:
    return f"/games/{game.pk}/fm/orders/"


def page(client: Client, game: Game) -> str:
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def submit(client: Client, game: Game, data: dict, *, htmx: bool = True):
    return client.post(orders_url(game), {"action": "submit", "phase": phase(game).pk, **data},
                       **(HTMX if htmx else {}))


def last_order(game: Game, name: str) -> Order | None:
    return Order.objects.filter(phase=phase(game), seat=seat(game, name)).order_by("-version").first()


# == FM-5.2 / FM-5.5: the form shows what the player may do now ==================================================


def test_FM_5_2_form_lists_playable_cards_and_living_other_targets(night, users):
    html = element(page(client_for(users["Alice"]), night), "fm-orders")
    assert html, "a living player has the order form in Night 1"
    pistol, accusation = uid(night, "Alice", "pistol"), uid(night, "Alice", "accusation")
    # Playable Hand card: a live radio button in the Hand slot, and its target select lists the living others only.
    row = element(html, f"fm-card-{pistol}")
    assert 'name="hand"' in row and "disabled" not in element(html, f"fm-pick-{pistol}")
    targets = element(html, f"fm-target_{pistol}")
    assert [n for n in ("Alice", "Boris", "Clara", "Dmitri", "Eva") if f">{n}<" in targets] == ["Boris", "Clara",
                                                                                                   "Eva"]
    # A day-only card at night is greyed with its reason, and has no inputs.
    row = element(html, f"fm-card-{accusation}")
    assert "fm-unplayable" in row and "disabled" in element(html, f"fm-pick-{accusation}")
    assert "only be played by day" in row and "<select" not in row
    # autopsy is free (outside the slots) and targets the dead.
    autopsy = uid(night, "Alice", "autopsy")
    assert 'name="free"' in element(html, f"fm-card-{autopsy}")
    dead = element(html, f"fm-target_{autopsy}")
    assert ">Dmitri<" in dead and ">Boris<" not in dead
    # Extra inputs by card: redirect's second target, letter's message, stash's cards, prices and their payers.
    redirect, letter, stash = (uid(night, "Alice", k) for k in ("redirect", "letter", "stash"))
    assert element(html, f"fm-target2_{redirect}") and element(html, f"fm-text_{letter}")
    assert element(html, f"fm-cards_{stash}-{pistol}")
    oracle, witness, bunker = (uid(night, "Alice", k) for k in ("oracle", "witness", "bunker"))
    assert "checked" in element(html, f"fm-pay_{redirect}-{oracle}")  # FM-5.7: the first eligible Sleeve cards
    assert "checked" in element(html, f"fm-pay_{redirect}-{witness}")
    assert "disabled" in element(html, f"fm-pay_{redirect}-{bunker}")  # FM-8: a role card can't pay
    # FM-5.3: at night she may discard two Hand cards instead.
    assert 'name="mode" value="discard"' in html and f'name="discard" value="{pistol}"' in html
    # Nobody else's cards are in her form.
    assert "Tail" not in html and "Body Armour" not in html


def test_form_only_for_living_players(night, users, master, spectator):
    assert element(page(client_for(users["Boris"]), night), "fm-orders")
    for user in (users["Dmitri"], master, spectator, None):
        assert not element(page(client_for(user), night), "fm-orders")


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no_js"])
def test_FM_5_6_legal_order_stored_and_shown_with_its_history(night, users, htmx):
    client = client_for(users["Alice"])
    pistol, sniper, oracle = (uid(night, "Alice", k) for k in ("pistol", "sniper_rifle", "oracle"))
    letter = uid(night, "Alice", "letter")
    boris, eva = seat(night, "Boris").pk, seat(night, "Eva").pk
    response = submit(client, night, {"hand": pistol, f"target_{pistol}": boris, "sleeve": ""}, htmx=htmx)
    if htmx:
        assert response.status_code == 200 and "Your order is saved" in response.content.decode()
    else:
        assert response.status_code == 302 and response["Location"].endswith("#fm-orders")
    order = last_order(night, "Alice")
    assert order.version == 1 and order.payload == {
        "plays": [{"card": "pistol", "from": "hand", "uid": pistol, "target": boris}]}
    # A second version: another Hand card paid by an explicit Sleeve card, and a free letter.
    submit(client, night, {"hand": sniper, f"target_{sniper}": eva, f"pay_{sniper}": oracle,
                           "free": letter, f"target_{letter}": boris, f"text_{letter}": "Watch your back"},
           htmx=htmx)
    order = last_order(night, "Alice")
    assert order.version == 2 and order.payload["plays"] == [
        {"card": "sniper_rifle", "from": "hand", "uid": sniper, "target": eva, "pay": [oracle]},
        {"card": "letter", "from": "sleeve", "uid": letter, "target": boris, "text": "Watch your back"}]
    html = element(page(client, night), "fm-orders")
    current = html[html.index("Current order (version 2)"):html.index("</ul>", html.index("Current order"))]
    assert "Sniper Rifle (Hand) → Eva · paid with Oracle" in current
    assert "Letter (Sleeve) → Boris · message: “Watch your back”" in current
    history = element(html, "fm-history")
    assert "<strong>v2</strong>" in history and "<strong>v1</strong>" in history and "Pistol (Hand) → Boris" in history
    # The form shows the current order: its cards picked, its inputs filled.
    assert "checked" in element(html, f"fm-pick-{sniper}") and "checked" in element(html, f"fm-pick-{letter}")
    assert f'value="{eva}" selected' in element(html, f"fm-target_{sniper}")
    assert "Watch your back" in element(html, f"fm-text_{letter}")


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no_js"])
@pytest.mark.parametrize("case", ["self_target", "day_card_at_night", "two_hand_plays"])
def test_FM_5_illegal_order_shows_every_reason_and_stores_nothing(night, users, case, htmx):
    client = client_for(users["Alice"])
    pistol, sniper, accusation = (uid(night, "Alice", k) for k in ("pistol", "sniper_rifle", "accusation"))
    alice, boris, eva = (seat(night, n).pk for n in ("Alice", "Boris", "Eva"))
    data, where, reason = {
        # FM-5.5: his own seat is not in the select, but a crafted POST reaches the engine, which names the input.
        "self_target": ({"hand": pistol, f"target_{pistol}": alice}, f"fm-target_{pistol}",
                        "You cannot target yourself"),
        # FM-5.2: the greyed card, posted anyway, is refused on its own row.
        "day_card_at_night": ({"hand": accusation, f"target_{accusation}": boris, f"named_{accusation}": "pistol"},
                              f"fm-card-{accusation}", "can only be played by day"),
        # FM-5.2: two Hand plays; the second one is refused on its row.
        "two_hand_plays": ({"hand": [pistol, sniper], f"target_{pistol}": boris, f"target_{sniper}": eva},
                           f"fm-card-{sniper}", "only one card from the Hand"),
    }[case]
    response = submit(client, night, data, htmx=htmx)
    assert response.status_code == (200 if htmx else 400)
    html = response.content.decode()
    assert reason in html and "(FM-5." in html
    if case == "self_target":  # right under the input (its parent .fm-input holds the error list)
        block = html[html.index(f'id="{where}"'):]
        assert block.index(reason) < block.index('class="fm-input"')
    else:
        assert reason in element(html, where)
    # htmx swaps the partial in; without it the form comes back on a page with the site layout.
    assert ("<html" in html) is not htmx
    assert Order.objects.count() == 0
    assert "Your order is saved" not in html


def test_FM_5_7_price_cards_can_be_changed(night, users):
    client = client_for(users["Alice"])
    redirect, letter, witness = (uid(night, "Alice", k) for k in ("redirect", "letter", "witness"))
    boris, clara = seat(night, "Boris").pk, seat(night, "Clara").pk
    response = submit(client, night, {"hand": redirect, f"target_{redirect}": boris, f"target2_{redirect}": clara,
                                      f"pay_{redirect}": [witness, letter]})
    assert "Your order is saved" in response.content.decode()
    assert last_order(night, "Alice").payload["plays"] == [
        {"card": "redirect", "from": "hand", "uid": redirect, "targets": [boris, clara], "pay": [witness, letter]}]
    # One price card for a price of 2: refused next to the price inputs (FM-5.7).
    response = submit(client, night, {"hand": redirect, f"target_{redirect}": boris, f"target2_{redirect}": clara,
                                      f"pay_{redirect}": [witness]})
    block = element(response.content.decode(), f"fm-card-{redirect}")
    assert "(FM-5.7)" in block and last_order(night, "Alice").version == 1


def test_FM_5_3_discard_two_instead_of_playing(night, users):
    client = client_for(users["Alice"])
    pistol, stash, letter = (uid(night, "Alice", k) for k in ("pistol", "stash", "letter"))
    boris = seat(night, "Boris").pk
    # The Hand pick is ignored in discard mode; free cards may go along with it.
    submit(client, night, {"mode": "discard", "discard": [pistol, stash], "hand": pistol, f"target_{pistol}": boris,
                           "free": letter, f"target_{letter}": boris, f"text_{letter}": "hi"})
    assert last_order(night, "Alice").payload == {
        "plays": [{"card": "letter", "from": "sleeve", "uid": letter, "target": boris, "text": "hi"}],
        "discard": [pistol, stash]}
    response = submit(client, night, {"mode": "discard", "discard": [pistol]})
    assert "(FM-5.3)" in element(response.content.decode(), "fm-orders")
    assert last_order(night, "Alice").version == 1
    # Choosing discard (htmx) disables the two slots; the free cards stay.
    html = client.post(orders_url(night), {"mode": "discard", "phase": phase(night).pk}, **HTMX).content.decode()
    assert 'class="fm-slot fm-slot-hand" disabled' in html and 'class="fm-slot fm-slot-sleeve" disabled' in html
    assert 'class="fm-slot fm-slot-free">' in html


def test_FM_5_5_redirect_needs_two_targets(night, users):
    client = client_for(users["Alice"])
    redirect, boris = uid(night, "Alice", "redirect"), seat(night, "Boris").pk
    response = submit(client, night, {"hand": redirect, f"target_{redirect}": boris})
    html = response.content.decode()
    block = html[html.index(f'id="fm-target_{redirect}"'):]
    assert block.index("needs two different targets") < block.index('class="fm-input"')
    assert Order.objects.count() == 0


def test_htmx_pick_rerenders_the_form_with_the_cards_inputs(night, users):
    """Picking a card (htmx, no ``action``) re-renders the partial: the card's inputs open; nothing is stored."""
    client = client_for(users["Alice"])
    redirect, stash = uid(night, "Alice", "redirect"), uid(night, "Alice", "stash")
    response = client.post(orders_url(night), {"hand": redirect, "phase": phase(night).pk}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith("<section") and "<html" not in html
    row = element(html, f"fm-card-{redirect}")
    assert "fm-picked" in row and '<details class="fm-extra" open>' in row and "Now target" in row
    assert '<details class="fm-extra" open>' not in element(html, f"fm-card-{stash}")
    assert Order.objects.count() == 0 and "errorlist" not in html  # a draft shows no refusal


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no_js"])
def test_FM_5_6_withdraw(night, users, htmx):
    client = client_for(users["Alice"])
    pistol, boris = uid(night, "Alice", "pistol"), seat(night, "Boris").pk
    submit(client, night, {"hand": pistol, f"target_{pistol}": boris})
    response = client.post(f"/games/{night.pk}/fm/orders/withdraw/", {"phase": phase(night).pk},
                           **(HTMX if htmx else {}))
    assert response.status_code == (200 if htmx else 302)
    versions = list(Order.objects.filter(seat=seat(night, "Alice")).order_by("version"))
    assert [o.version for o in versions] == [1, 2] and versions[1].payload is None
    html = element(page(client, night), "fm-orders")
    assert "You have no order for this phase yet." in html
    assert "withdrawn" in element(html, "fm-history")
    # Nothing to withdraw any more: refused, nothing stored.
    client.post(f"/games/{night.pk}/fm/orders/withdraw/", {"phase": phase(night).pk}, **(HTMX if htmx else {}))
    assert Order.objects.count() == 2


def test_no_js_get_and_post_without_htmx(night, users):
    """Without JavaScript: the form has a page of its own, and a plain POST redirects back to the game page with a
    message and the stored order (PRG)."""
    client = client_for(users["Alice"])
    response = client.get(orders_url(night))
    assert response.status_code == 200 and "<html" in response.content.decode()
    assert element(response.content.decode(), "fm-order-form")
    pistol, boris = uid(night, "Alice", "pistol"), seat(night, "Boris").pk
    response = submit(client, night, {"hand": pistol, f"target_{pistol}": boris}, htmx=False)
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "Your order is saved" in html and "Pistol (Hand) → Boris" in element(html, "fm-orders")


def test_orders_refused_for_others(night, users, master, spectator):
    pistol, boris = uid(night, "Alice", "pistol"), seat(night, "Boris").pk
    for user in (master, spectator, users["Dmitri"]):
        response = submit(client_for(user), night, {"hand": pistol, f"target_{pistol}": boris}, htmx=False)
        assert response.status_code == 302
    response = submit(client_for(spectator), night, {"hand": pistol}, htmx=True)
    assert "You have no seat in this game." in response.content.decode()
    assert Client().post(orders_url(night), {"action": "submit"}).status_code == 302  # to the login page
    assert Order.objects.count() == 0


def test_a_player_sees_only_his_own_order(night, users):
    pistol, boris = uid(night, "Alice", "pistol"), seat(night, "Boris").pk
    submit(client_for(users["Alice"]), night, {"hand": pistol, f"target_{pistol}": boris})
    html = page(client_for(users["Eva"]), night)
    assert "Pistol (Hand) → Boris" not in html and "You have no order for this phase yet." in html


def test_card_reasons_in_the_viewers_language(night, users, monkeypatch):
    """A card's ``reason`` given as a message with ``reason_params`` is translated and filled in by the shell, the
    card slug shown as the card's name in the viewer's language."""
    from gm.modules.forum_mafia.engine import orders as order_rules

    real = order_rules.order_options

    def with_params(**kwargs):
        options = real(**kwargs)
        for card in options["cards"]:
            if card["kind"] == "accusation":
                card["reason"], card["reason_params"] = "“%(card)s” can only be played by day.", {"card": "accusation"}
        return options

    monkeypatch.setattr(order_rules, "order_options", with_params)
    accusation = uid(night, "Alice", "accusation")
    english = element(page(client_for(users["Alice"]), night), f"fm-card-{accusation}")
    assert "“Accusation” can only be played by day." in english
    russian = element(page(client_for(users["Alice"], language="ru"), night), f"fm-card-{accusation}")
    assert "«Обвинение»" in russian and "“accusation”" not in russian


# == the order-options API ==========================================================================================


def test_order_options_api(night, users, master, spectator):
    url = f"/api/games/{night.pk}/order-options/"
    status, data = api(client_for(users["Alice"]), "get", url)
    assert status == 200 and data["can_order"] is True and data["can_discard_two"] is True
    assert [c["kind"] for c in data["hand"]] == ALICE_HAND
    assert {t["name"] for t in data["targets"]} == {"Boris", "Clara", "Eva"}
    assert [t["name"] for t in data["dead_targets"]] == ["Dmitri"]
    cards = {c["kind"]: c for c in data["cards"]}
    assert cards["pistol"]["playable"] and not cards["accusation"]["playable"] and cards["accusation"]["reason"]
    assert cards["redirect"]["payers"] == [uid(night, "Alice", "oracle"), uid(night, "Alice", "witness")]
    # Another player gets his own seat's options, never Alice's cards.
    status, data = api(client_for(users["Boris"]), "get", url)
    assert status == 200 and [c["kind"] for c in data["hand"]] == ["pistol", "tail", "bunker", "advice", "hack",
                                                                   "wiretap"]
    assert "Boris" not in {t["name"] for t in data["targets"]}
    # No seat, dead, anonymous.
    for user, code in ((spectator, "forbidden"), (master, "forbidden"), (users["Dmitri"], "not_allowed")):
        status, data = api(client_for(user), "get", url)
        assert status == 403 and data["code"] == code, (user, data)
    status, data = api(Client(), "get", url)
    assert status == 403 and data["code"] == "not_authenticated"
    # Token authentication works like the session.
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=users["Clara"])
    status, data = api(Client(), "get", url, HTTP_AUTHORIZATION=f"Token {token.key}")
    assert status == 200 and data["hand"][0]["kind"] == "body_armour"


def test_order_options_api_errors(night, users, master, make_user):
    status, data = api(client_for(users["Alice"]), "get", "/api/games/999999/order-options/")
    assert status == 404 and data["code"] == "not_found"
    draft = services.game_create(master=master, module="forum_mafia", title="Draft", options={}, rng_seed=1)
    status, data = api(client_for(users["Alice"]), "get", f"/api/games/{draft.pk}/order-options/")
    assert status == 404  # a draft is not even revealed to exist
    services.phase_resolve_now(game=night, actor=master)
    services.phase_resolve_now(game=night, actor=master)  # Day 1 → Night 2: still orders
    assert phase(night).kind == "night"
    night.status = Game.Status.FINISHED
    night.save(update_fields=["status"])
    status, data = api(client_for(users["Alice"]), "get", f"/api/games/{night.pk}/order-options/")
    assert status == 409 and data["code"] == "state"


# == §6: the master's resolution trace; the players' private results ============================================


@pytest.fixture
def resolved(night, users, master):
    """Night 1 resolved with orders (Alice: oracle on Boris; Boris: pistol on Clara), then Day 1 with Boris's
    orders (advice on Alice, who draws a card): two phases in the trace and in Alice's results."""
    oracle = uid(night, "Alice", "oracle")
    submit(client_for(users["Alice"]), night, {"sleeve": oracle, f"target_{oracle}": seat(night, "Boris").pk})
    pistol = uid(night, "Boris", "pistol")
    submit(client_for(users["Boris"]), night, {"hand": pistol, f"target_{pistol}": seat(night, "Clara").pk})
    assert Order.objects.count() == 2
    services.phase_resolve_now(game=night, actor=master)
    advice = uid(night, "Boris", "advice")
    submit(client_for(users["Boris"]), night, {"hand": advice, f"target_{advice}": seat(night, "Alice").pk})
    services.phase_resolve_now(game=night, actor=master)
    night.refresh_from_db()
    return night


def _trace_texts(game: Game) -> list[str]:
    with translation.override("en"):
        return [e.text() for e in LogEntry.objects.filter(game=game, visibility="master", kind__startswith="fm.t_")]


def test_FM_6_trace_for_the_master_newest_phase_first(resolved, master):
    html = element(page(client_for(master), resolved), "fm-trace")
    assert html
    texts = _trace_texts(resolved)
    assert texts and all(escape(t) in html for t in texts)
    assert "<th scope=\"col\">Layer</th>" in html and "<td>L0</td>" in html and "<code>order</code>" in html
    assert html.index("<summary>Day 1</summary>") < html.index("<summary>Night 1</summary>")
    # Within a phase the rows keep the engine's order (L0 intake first).
    night_1 = html[html.index("<summary>Night 1</summary>"):]
    layers = [line.split("<td>")[1].split("</td>")[0] for line in night_1.split("<tr>")[2:]]
    assert layers[0] == "L0" and layers == sorted(layers)


def test_FM_6_trace_hidden_from_players_and_spectators_while_running(resolved, users, spectator):
    texts = _trace_texts(resolved)
    for user in (*users.values(), spectator, None):
        html = page(client_for(user), resolved)
        assert not element(html, "fm-trace")
        assert not [t for t in texts if t in html], user


def test_FM_6_trace_for_everyone_once_the_game_is_over(resolved, spectator):
    resolved.status = Game.Status.FINISHED
    resolved.save(update_fields=["status"])
    assert element(page(client_for(spectator), resolved), "fm-trace")


def test_private_results_only_for_their_player(resolved, users, spectator, master):
    alice = seat(resolved, "Alice")
    with translation.override("en"):
        mine = [e.text() for e in LogEntry.objects.filter(game=resolved, visibility="seat", seat=alice)
                .exclude(phase=None)]
    oracle = next(t for t in mine if "Oracle" in t)  # her recon result (FM-6 L7)
    html = element(page(client_for(users["Alice"]), resolved), "fm-results")
    assert escape(oracle) in html and "<summary>Night 1</summary>" in html
    assert html.index("<summary>Day 1</summary>") < html.index("<summary>Night 1</summary>")
    for user in (users["Boris"], users["Clara"], spectator, master, None):
        assert escape(oracle) not in element(page(client_for(user), resolved), "fm-results")
    # Boris has results of his own (his replacement draw), not hers.
    with translation.override("en"):
        his = [e.text() for e in LogEntry.objects.filter(visibility="seat", seat=seat(resolved, "Boris"))]
    html = element(page(client_for(users["Boris"]), resolved), "fm-results")
    assert his and all(escape(t) in html for t in his)


def test_group_results_for_the_groups_members_only(resolved, users):
    """A group entry (here to the Mafia, FM-3.1) is a result of each member, marked as such; not of others."""
    night_1 = resolved.phases.get(kind="night", number=1)
    LogEntry.objects.create(game=resolved, phase=night_1, visibility="group", group="faction:mafia",
                            kind="fm.mafia_members", created_at=night_1.deadline,
                            data={"members": [{"name": "Boris", "role": "mafia_boss"},
                                              {"name": "Eva", "role": "mafia_advisor"}]})
    for name in ("Boris", "Eva"):
        html = element(page(client_for(users[name]), resolved), "fm-results")
        assert "The Mafia: Boris (" in html and "to your group" in html
    assert "The Mafia: Boris (" not in page(client_for(users["Alice"]), resolved)


def test_results_show_each_order_from_the_players_own_snapshot(resolved, users):
    """The results name each counted order's cards as the seat held them when the phase was resolved, read from
    his own element of the phase's stored seats (not all sixteen), on SQLite as on PostgreSQL."""
    from gm.core import page_memo

    alice = seat(resolved, "Alice")
    phases = list(resolved.phases.filter(status="resolved").values_list("pk", flat=True))
    full = page_memo.seat_snapshots(resolved.pk, phases)
    own = page_memo.seat_snapshots(resolved.pk, phases, seat_id=alice.pk)
    assert any(own.values())
    for pk in phases:
        assert (own[pk] or []) == [s for s in full[pk] or [] if s.get("id") == alice.pk]
    with page_memo.reading():
        assert page_memo.seat_snapshots(resolved.pk, phases, seat_id=alice.pk) == own
    html = element(page(client_for(users["Alice"]), resolved), "fm-results")
    assert "Your order (version" in html and "Oracle" in html
