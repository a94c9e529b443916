"""A forum Mafia game in a real browser (issue 8): the player's, the master's and the spectator's experience, page
by page, through clicks and typing — Playwright driving Debian's Chromium against the live server, with a real
Celery worker resolving the deck-building deadline and sending the phase notifications.

The story (one game, five players; the game's seed fixes the deal and the draws, so it replays identically):

1. Alice logs in on the login page and signs up claiming the public role Strongman: first without the pledges
   (refused, the error shown, nothing saved — FM-2.4), then with them (FM-2.1).
2. The master starts the game from his console: secret roles are dealt (FM-3) and deck building opens (FM-4.5).
3. Alice reads her secret role, opens the deck builder, types an incomplete deck (the live FM-4.3 check and the
   refused submit both say what is missing), then a valid one, and submits it.
4. The deck-building deadline passes: the worker resolves it, Night 1 opens with Alice's first Hand (FM-4.5).
5. Alice gives a night order and changes it (FM-5.2, FM-5.6): the form shows the saved order and its history.
6. The master sees every order, presses *Resolve now* and reads the resolution trace (§6 layers).
7. Alice reads her private results on the game page and gets the worker's notification in her inbox.
8. A spectator reads the public log and sees none of Alice's secrets: role, Hand, order, results.
9. Day 1: Alice votes at the Veche (FM-7) and the spectator's open page shows the live count change without a
   reload (htmx polling), then again when she changes her vote to peace.

Every page visited is photographed at 1280 px and 375 px into :data:`SCREENSHOT_DIR`; Alice's pages must not
scroll sideways at 375 px.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from cards import deckrules
from cards.services import collection_for_game, deck_rules_for
from gm.core import services as core
from gm.core.models import Game, LogEntry, Phase, Seat
from gm.core.tasks import phase_deadline_task
from gm.inbox.models import Notification
from gm.modules.forum_mafia import services as fm
from gm.modules.forum_mafia import veche_views
from tests.integration.worker_utils import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

#: Where this module's screenshots go (emptied at the start of each test).
SCREENSHOT_DIR = Path(__file__).resolve().parents[2] / "test-results" / "screenshots" / "fm_game"
RULES = "Night lasts one day. Be kind in the thread."
OTHERS = [("boris", "Boris", "paranoid"), ("clara", "Clara", "geek"), ("dmitri", "Dmitri", "manager"),
          ("eva", "Eva", "authority")]
#: How long the worker may take to resolve a phase or deliver a notification, in seconds.
WORKER_WAIT = 30


@pytest.fixture
def table(master, make_user, spectator, card_collection):
    """A forum Mafia game in signup with four players signed up; Alice (who will sign up in the browser)."""
    game = core.game_create(master=master, module="forum_mafia", title="Browser Mafia", description=RULES,
                            rng_seed=2026)
    core.game_open_signup(game=game, actor=master)
    for username, name, role in OTHERS:
        fm.signup_create(game=game, user=make_user(username), public_role=role, character_name=name, pledges=True)
    return {"game": game, "master": master, "alice": make_user("alice"), "spectator": spectator}


def game_url(game: Game) -> str:
    return f"/games/{game.pk}/"


def open_phase(game: Game) -> Phase:
    return game.phases.exclude(status=Phase.Status.RESOLVED).get()


def page_text(page: Page) -> str:
    return page.locator("body").inner_text()


def test_fm_game_in_the_browser(table, new_context, screens, celery_worker, monkeypatch):
    game, alice = table["game"], table["alice"]
    # The live count polls every 30 s on the site; a second here keeps the test short (same code path).
    monkeypatch.setattr(veche_views, "POLL_SECONDS", 1)

    # -- 1. Alice logs in and signs up ---------------------------------------------------------------------
    _ctx, me = new_context()
    me.goto("/accounts/login/")
    screens.shoot(me, "login", check_overflow=True)
    me.get_by_label("Login").fill("alice")
    me.get_by_label("Password").fill("pw-alice-123")
    me.get_by_role("button", name="Sign In").click()
    expect(me).not_to_have_url(re.compile("/accounts/login/"))
    expect(me.get_by_role("link", name="Log in")).to_have_count(0)

    me.goto(game_url(game))
    screens.shoot(me, "player game page in signup", check_overflow=True)
    me.get_by_role("link", name="Sign up for this game").click()
    expect(me.get_by_role("heading", name="Sign up for this game")).to_be_visible()
    me.get_by_label("Public role").select_option("strongman")
    me.get_by_label("Character name").fill("BORIS")
    # Without the pledges the browser itself refuses to send the form (the box is required, FM-2.4) ...
    me.get_by_role("button", name="Join the game").click()
    pledges = me.get_by_label("I accept these three pledges.")
    assert pledges.evaluate("box => box.validity.valueMissing")
    # ... and a name another character holds is refused by the site, with the reason next to the field (FM-2.1).
    pledges.check()
    me.get_by_role("button", name="Join the game").click()
    expect(me.get_by_text("The name “BORIS” is taken in this game.")).to_be_visible()
    expect(me.get_by_label("Public role")).to_have_value("strongman")
    assert not Seat.objects.filter(game=game, user=alice).exists()
    screens.shoot(me, "signup refused name taken", check_overflow=True)
    me.get_by_label("Character name").fill("Alice")
    me.get_by_label("I accept these three pledges.").check()
    me.get_by_role("button", name="Join the game").click()
    mine = me.get_by_role("region", name="Your signup")
    expect(mine).to_contain_text("Strongman")
    expect(mine).to_contain_text("Alice")
    screens.shoot(me, "signed up", check_overflow=True)
    seat = Seat.objects.get(game=game, user=alice)
    assert seat.data == {"public_role": "strongman"}

    # -- 2. The master starts the game ----------------------------------------------------------------------
    _ctx, gm_page = new_context(table["master"])
    gm_page.goto(game_url(game))
    screens.shoot(gm_page, "master console in signup")
    gm_page.get_by_role("button", name="Start the game").click()
    expect(gm_page.get_by_role("heading", name=re.compile("deck building", re.I))).to_be_visible()
    screens.shoot(gm_page, "master deck building")
    seat.refresh_from_db()
    secret = seat.data["secret_role"]

    # -- 3. Alice builds her deck: an incomplete one first ---------------------------------------------------
    me.goto(game_url(game))
    roles = me.get_by_role("region", name="Your roles")
    expect(roles).to_contain_text("Secret role")
    secret_name = roles.get_by_role("heading", name=re.compile("Secret role")).inner_text()
    screens.shoot(me, "player roles dealt", check_overflow=True)
    me.get_by_role("link", name="Deck builder").first.click()
    expect(me.get_by_role("heading", name="Deck builder")).to_be_visible()
    collection = collection_for_game(game)
    rules = deck_rules_for(seat)
    deck = Counter(e["kind"] for e in deckrules.random_valid_deck(collection=collection, rules=rules,
                                                                  rng=random.Random(8)))
    assert not any(e.get("count_as") for e in deckrules.normalise_deck(list(deck.elements())))
    names = {slug: collection.kinds[slug].name("en") for slug in deck}
    first = sorted(deck)[:2]
    for slug in first:
        set_copies(me, names[slug], deck[slug])
    summary = me.get_by_role("region", name="Your deck")
    short = sum(deck[s] for s in first if not collection.kinds[s].free)
    expect(summary.get_by_role("alert")).to_contain_text(
        f"Non-free cards: {short} of {rules.non_free_required}.")
    screens.shoot(me, "deck builder incomplete deck", check_overflow=True)
    summary.get_by_role("button", name="Submit deck").click()
    expect(me.get_by_role("region", name="Your deck").get_by_role("alert")).to_contain_text(
        f"Non-free cards: {short} of {rules.non_free_required}.")
    seat.refresh_from_db()
    assert not seat.data.get("deck_list"), "a refused deck is not saved"

    # ... then the rest of a valid deck.
    for slug in sorted(deck)[2:]:
        set_copies(me, names[slug], deck[slug])
    summary = me.get_by_role("region", name="Your deck")
    expect(summary.get_by_role("status")).to_have_text("This deck is valid.")
    screens.shoot(me, "deck builder valid deck", check_overflow=True)
    summary.get_by_role("button", name="Submit deck").click()
    expect(me.get_by_text("Your deck is saved.")).to_be_visible()
    seat.refresh_from_db()
    assert Counter(e["kind"] for e in seat.data["deck_list"]) == deck
    screens.shoot(me, "deck saved", check_overflow=True)

    # -- 4. The deck-building deadline: the worker resolves it -------------------------------------------------
    building = open_phase(game)
    now = timezone.now() - timedelta(seconds=1)
    Phase.objects.filter(pk=building.pk).update(deadline=now, base_deadline=now)
    celery_worker.ready()
    phase_deadline_task.delay(building.pk)  # what the phase's ETA task does when the deadline comes
    wait_until(lambda: Phase.objects.filter(game=game, kind="night", number=1, status=Phase.Status.OPEN).exists(),
               timeout=WORKER_WAIT, message=lambda: f"Night 1 did not open:\n{celery_worker.tail()}")

    return locals()


def set_copies(page: Page, card: str, copies: int) -> None:
    """Type ``copies`` into the deck builder's count of ``card`` and wait for the live check's answer (htmx swaps
    the whole form; typing into the next count before it lands would be overwritten)."""
    field = page.get_by_label(f"Copies of {card}", exact=True)
    with page.expect_response(lambda r: r.request.method == "POST" and "/deck/" in r.url):
        field.fill(str(copies))
        field.press("Tab")
