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
8. A spectator and an anonymous visitor read the public log (page and Atom feed) and find none of the secrets:
   the secret roles, Alice's Hand, order, results, the trace — neither in the text nor hidden in the HTML.
9. Day 1: Alice votes at the Veche (FM-7) and the spectator's open page shows the live count change without a
   reload (htmx polling), then again when she changes her vote to peace.

Every page visited is photographed at 1280 px and 375 px into :data:`SCREENSHOT_DIR`; Alice's pages must not
scroll sideways at 375 px.
"""
from __future__ import annotations

import html
import random
import re
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation
from playwright.sync_api import Page, expect

from cards import deckrules
from cards.services import collection_for_game, deck_rules_for
from gm.core import services as core
from gm.core.models import Game, Phase, Seat
from gm.core.tasks import phase_deadline_task
from gm.inbox.models import Notification
from gm.modules.forum_mafia.services import signup as fm
from gm.modules.forum_mafia.texts import secret_role_name
from gm.modules.forum_mafia.views import veche as veche_views
from tests.browser.conftest import htmx_idle
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


class Timer:
    """Seconds each step of the story took (printed: the suite's speed is watched, not asserted)."""

    def __init__(self):
        self.marks = [("setup", time.monotonic())]

    def step(self, name) -> None:
        self.marks.append((str(name), time.monotonic()))

    def report(self) -> str:
        pairs = zip(self.marks, self.marks[1:], strict=False)
        return "steps: " + ", ".join(f"{a}→{b} {t2 - t1:.1f}s" for (a, t1), (b, t2) in pairs)


def role_name(slug: str, language: str = "en") -> str:
    with translation.override(language):
        return str(secret_role_name(slug))


def page_text(page: Page) -> str:
    return page.locator("body").inner_text()


def test_fm_game_in_the_browser(new_context, celery_worker, table, screens, monkeypatch):
    game, alice = table["game"], table["alice"]
    # The live count polls every 30 s on the site; a second here keeps the test short (same code path).
    monkeypatch.setattr(veche_views, "POLL_SECONDS", 1)
    timer = Timer()

    # -- 1. Alice logs in and signs up ---------------------------------------------------------------------
    timer.step(1)
    _ctx, me = new_context()
    me.goto("/accounts/login/")
    screens.shoot(me, "login", check_overflow=True)
    me.get_by_label("Login").fill("alice")
    me.get_by_label("Password").fill("pw-alice-123")
    me.get_by_role("button", name="Sign In").click()
    expect(me).not_to_have_url(re.compile("/accounts/login/"))
    expect(me.get_by_role("link", name="Log in")).to_have_count(0)
    me.goto("/")
    screens.shoot(me, "player lobby", check_overflow=True)
    me.get_by_role("link", name="Browser Mafia").first.click()
    expect(me.get_by_role("heading", name="Browser Mafia", level=1)).to_be_visible()
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
    timer.step(2)
    _ctx, gm_page = new_context(table["master"])
    gm_page.goto(game_url(game))
    screens.shoot(gm_page, "master console in signup")
    gm_page.get_by_label("Yes, start now: signups close and the roles are dealt").check()
    gm_page.get_by_role("button", name="Start the game").click()
    expect(gm_page.get_by_role("heading", name="Deck building", exact=True).first).to_be_visible()
    screens.shoot(gm_page, "master deck building")
    seat.refresh_from_db()
    secret = seat.data["secret_role"]

    # -- 3. Alice builds her deck: an incomplete one first ---------------------------------------------------
    timer.step(3)
    me.goto(game_url(game))
    roles = me.get_by_role("region", name="Your roles")
    expect(roles).to_contain_text("Secret role")
    expect(roles.get_by_role("heading", name=re.compile("Secret role"))).to_contain_text(role_name(secret))
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
    # A full-page POST: the refusal reads like the page it replaces, so wait for the new document itself before
    # typing into it (a count typed into the old one is lost with it).
    me.evaluate("window.beforeSubmit = true")
    summary.get_by_role("button", name="Submit deck").click()
    me.wait_for_function("!window.beforeSubmit")
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
    timer.step(4)
    building = open_phase(game)
    now = timezone.now() - timedelta(seconds=1)
    Phase.objects.filter(pk=building.pk).update(deadline=now, base_deadline=now)
    celery_worker.ready()
    phase_deadline_task.delay(building.pk)  # what the phase's ETA task does when the deadline comes
    wait_until(lambda: Phase.objects.filter(game=game, kind="night", number=1, status=Phase.Status.OPEN).exists(),
               timeout=WORKER_WAIT, message=lambda: f"Night 1 did not open:\n{celery_worker.tail()}")

    # -- 5. Alice gives a night order, then changes it -----------------------------------------------------------
    timer.step(5)
    me.goto(game_url(game))
    expect(me.get_by_role("heading", name="Your order · Night 1")).to_be_visible()
    hand_names = [c["kind"] for c in Seat.objects.get(pk=seat.pk).data["cards"]["hand"]]
    hand_names = [collection.kinds[k].name("en") for k in hand_names]
    expect(me.get_by_role("region", name=re.compile("Your order"))).to_contain_text(
        "You have no order for this phase yet.")
    screens.shoot(me, "player night 1 order form", check_overflow=True)
    first_card, second_card = targeted_hand_cards(me)[:2]
    lines_v1 = save_play(me, first_card, "Boris", version=1)
    screens.shoot(me, "player night order saved", check_overflow=True)
    lines_v2 = save_play(me, second_card, "Clara", version=2)
    orders = me.get_by_role("region", name=re.compile("Your order"))
    expect(orders.get_by_text("Order history (2 versions)")).to_be_visible()
    screens.shoot(me, "player night order changed", check_overflow=True)

    # -- 6. The master sees the orders, resolves now and reads the trace ------------------------------------------
    timer.step(6)
    gm_page.goto(game_url(game))
    console = gm_page.get_by_role("region", name="Master's console")
    # Alice's seat in the console: her secret role, and every version of her order once opened.
    alice_seat = console.get_by_text(re.compile(r"^Alice · alice"))
    expect(alice_seat).to_contain_text(role_name(secret))
    expect(alice_seat).to_contain_text("order v2")
    alice_seat.click()
    orders_seen = console.get_by_role("listitem").filter(has_text=re.compile(r"^v[12] · "))
    expect(orders_seen).to_have_count(2)
    for version, card in ((1, first_card), (2, second_card)):
        slug = next(k.slug for k in collection.kinds.values() if k.name("en") == card)
        expect(orders_seen.nth(version - 1)).to_contain_text(re.compile(f"'{slug}'|{card}"))
    expect(orders_seen.nth(1)).to_contain_text("(current)")
    screens.shoot(gm_page, "master console night 1")
    resolve = console.locator("form").filter(has=gm_page.get_by_role("button", name="Resolve now"))
    resolve.get_by_label("Reason (for the audit log)").fill("Everyone has ordered.")
    resolve.get_by_role("button", name="Resolve now").click()
    expect(gm_page.get_by_text("The phase was resolved.")).to_be_visible()
    gm_page.reload()
    expect(console).to_contain_text("Everyone has ordered.")  # the audit log keeps the master's reason
    trace = gm_page.get_by_role("region", name="Resolution trace")
    night_trace = trace.get_by_role("group").filter(has_text="Night 1")
    expect(night_trace.get_by_role("row").filter(has_text="Alice orders:")).to_contain_text(
        f"{second_card} → Clara")
    for layer in ("L0", "L8"):  # intake … end (§6): the trace goes through the layers
        expect(night_trace.get_by_role("cell", name=layer, exact=True).first).to_be_visible()
    screens.shoot(gm_page, "master resolution trace")
    assert open_phase(game).kind == "day"

    # -- 7. Alice's private results, and the worker's notification in her inbox -------------------------------
    timer.step(7)
    drawn = [c["kind"] for c in Seat.objects.get(pk=seat.pk).data["cards"]["hand"]]
    drawn = [collection.kinds[k].name("en") for k in drawn]
    new_cards = list((Counter(drawn) - Counter(hand_names)).elements())
    assert new_cards, "Alice drew a replacement for the card she played (FM-5.4)"
    me.goto(game_url(game))
    results = me.get_by_role("region", name="Your results")
    night_results = results.get_by_role("group").filter(has_text="Night 1")
    expect(night_results.get_by_role("listitem").first).to_have_text(f"You drew: {', '.join(new_cards)}.")
    result_lines = night_results.get_by_role("listitem").all_inner_texts()
    screens.shoot(me, "player results", check_overflow=True)
    wait_until(lambda: Notification.objects.filter(user=alice, phase__kind="night").count() >= 2,
               timeout=WORKER_WAIT, message=lambda: f"no Night 1 notification for Alice:\n{celery_worker.tail()}")
    me.get_by_role("link", name=re.compile("^Inbox")).first.click()
    for_you = me.get_by_role("listitem").filter(
        has=me.get_by_role("link", name="Browser Mafia: Night 1 — for you"))
    expect(for_you).to_contain_text(result_lines[0])
    screens.shoot(me, "player inbox", check_overflow=True)

    # -- 8. A spectator (and an anonymous visitor) read the public log, and none of the secrets -------------------
    timer.step(8)
    secrets = {
        "Alice's secret role": [role_name(secret), role_name(secret, "ru")],
        "Alice's order": lines_v1 + lines_v2,
        "Alice's results": result_lines,
        "Alice's Hand": sorted(set(hand_names + drawn)),
        "the others' secret roles": [role_name(s.data["secret_role"]) for s in game.seats.all()],
        "the trace": ["Alice orders", "Sources: Alice"],
    }
    _ctx, spy = new_context(table["spectator"])
    _ctx, anon = new_context()
    for who, page in (("spectator", spy), ("anonymous visitor", anon)):
        page.goto("/")
        page.get_by_role("link", name="Browser Mafia").first.click()
        log = page.get_by_role("region", name="Log")
        expect(log).to_contain_text("Night 1 is over.")
        expect(log).to_contain_text("Cards in Hand:")
        screens.shoot(page, f"{who} game page")
        for heading in ("Your roles", "Your order", "Your results", "Resolution trace", "Master's console"):
            expect(page.get_by_role("heading", name=re.compile(heading))).to_have_count(0)
        # What the page says, and what its HTML holds (hidden parts included), and the public log's Atom feed.
        feed = page.request.get(f"/games/{game.pk}/feed/")
        assert feed.ok and "Night 1 is over." in feed.text()
        for where, shown in (("page", page_text(page)), ("HTML", html.unescape(page.content())),
                             ("feed", html.unescape(feed.text()))):
            for what, texts in secrets.items():
                for text in texts:
                    assert text not in shown, f"the {who}'s {where} shows {what}: {text!r}"

    # -- 9. Day 1: Alice votes and the spectator's open page shows the live count change ---------------------------
    timer.step(9)
    count = spy.get_by_role("region", name=re.compile("Veche")).locator("[aria-live]")
    expect(count).to_contain_text("No votes yet.")
    me.goto(game_url(game))
    veche = me.get_by_role("region", name=re.compile("^Veche"))
    veche.get_by_label("Vote for").select_option(label="Boris")
    veche.get_by_role("radio", name="execution").check()
    with me.expect_response(lambda r: r.request.method == "POST" and "/fm/veche/" in r.url):
        veche.get_by_role("button", name="Vote", exact=True).click()
    htmx_idle(me)
    veche = me.get_by_role("region", name=re.compile("^Veche"))
    expect(veche).to_contain_text("Your vote: ")
    expect(veche.get_by_text(re.compile("^Your vote:"))).to_contain_text("Boris")
    screens.shoot(me, "player voted", check_overflow=True)
    # The spectator did not reload: the count refreshes itself (htmx polling of the public count).
    expect(count).to_contain_text("Alice → Boris (execution)")
    expect(count).to_contain_text("Boris leads with 1 (FM-7.4).")
    screens.shoot(spy, "spectator live count")
    veche.get_by_label("Vote for").select_option(label="For peace")
    with me.expect_response(lambda r: r.request.method == "POST" and "/fm/veche/" in r.url):
        veche.get_by_role("button", name="Vote", exact=True).click()
    expect(count).to_contain_text("Alice → peace")
    expect(count).not_to_contain_text("Alice → Boris")
    expect(count.get_by_role("table").filter(has_text="Voter").get_by_role("row")).to_have_count(3)
    screens.shoot(spy, "spectator live count changed")
    screens.shoot(me, "player vote changed", check_overflow=True)
    timer.step("end")
    print(timer.report(), f"{len(screens.written)} screenshots in {screens.folder}")


def targeted_hand_cards(page: Page) -> list[str]:
    """The names of the Hand cards Alice may play now that take a target (a select among their options)."""
    hand = page.get_by_role("group", name="From your Hand: one card")
    names = []
    for item in hand.get_by_role("listitem").all():
        radio = item.get_by_role("radio")
        if radio.is_disabled() or not item.locator("select").count():
            continue
        name = radio.evaluate("r => r.labels[0].innerText.trim()")
        if name not in names:
            names.append(name)
    return names


def save_play(page: Page, card: str, target: str, *, version: int) -> list[str]:
    """Pick ``card`` in the Hand slot (htmx shows its options), choose ``target``, save; returns the order's lines
    as the form shows them once saved."""
    hand = page.get_by_role("group", name="From your Hand: one card")
    with page.expect_response(lambda r: r.request.method == "POST" and "/fm/orders/" in r.url):
        hand.get_by_role("radio", name=card, exact=True).first.check()
    htmx_idle(page)
    hand = page.get_by_role("group", name="From your Hand: one card")
    item = hand.get_by_role("listitem").filter(has=page.get_by_role("radio", name=card, exact=True, checked=True))
    item.get_by_role("combobox").first.select_option(label=target)
    with page.expect_response(lambda r: r.request.method == "POST" and "/fm/orders/" in r.url):
        page.get_by_role("button", name="Save order").click()
    current = page.get_by_role("region", name=re.compile("Your order")).locator(".fm-current")
    expect(current.get_by_role("heading")).to_have_text(f"Current order (version {version})")
    expect(current.get_by_role("listitem").first).to_contain_text(card)
    expect(current.get_by_role("listitem").first).to_contain_text(target)
    return current.get_by_role("listitem").all_inner_texts()


def set_copies(page: Page, card: str, copies: int) -> None:
    """Type ``copies`` into the deck builder's count of ``card`` and wait for the live check's answer (htmx swaps
    the whole form; typing into the next count before it lands would be overwritten)."""
    field = page.get_by_label(f"Copies of {card}", exact=True)
    with page.expect_response(lambda r: r.request.method == "POST" and "/deck/" in r.url):
        field.fill(str(copies))
        field.press("Tab")
    htmx_idle(page)
