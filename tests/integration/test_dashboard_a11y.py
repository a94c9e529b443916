"""Accessibility of the lobby, the game page and the dashboard (issue 8 item 5): every form control has a label, ids
are unique, a skip link leads to the content, focus is visible, text has enough contrast (WCAG 2 AA, 4.5:1), and
every htmx form is also a plain HTML form: without JavaScript it posts the whole page (and redirects back), with
the ``HX-Request`` header the same URL answers with the partial htmx swaps in."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from gm.core import services
from tests.helpers import client_for, open_phase_id
from tests.integration import fm_table
from tests.integration.html_check import PageReader

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(frozen, master, make_user):
    return fm_table.build(master, make_user)


def _viewers(users, master, spectator) -> dict:
    return {"master": master, "owner": users["Alice"], "other player": users["Clara"], "dead player": users["Boris"],
            "spectator": spectator, "anonymous": None}


def _read(client, url: str) -> PageReader:
    response = client.get(url)
    assert response.status_code == 200, url
    return PageReader(response.content.decode())


def _check_page(page: PageReader, where: str) -> None:
    assert page.unlabelled() == [], where
    assert page.duplicate_ids() == [], where


# -- labels and ids --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("stage", ["night", "day", "over"])
def test_every_control_of_the_game_page_is_labelled(table, frozen, master, spectator, stage):
    game, users = table
    if stage != "night":
        fm_table.play_night(game, users, frozen)
    if stage == "over":
        services.game_abort(game=game, actor=master, reason="done")
    for kind, user in _viewers(users, master, spectator).items():
        page = _read(client_for(user), f"/games/{game.pk}/")
        _check_page(page, f"{stage}/{kind}")


def test_lobby_and_other_pages_are_labelled(table, master, spectator, players, make_user):
    game, users = table
    signup = services.game_create(master=master, module="forum_mafia", title="Open", options={}, rng_seed=1)
    services.game_open_signup(game=signup, actor=master)
    pages = {
        "lobby/anonymous": (None, "/"), "lobby/spectator": (spectator, "/"), "lobby/filtered": (spectator,
                                                                                                  "/?module=tally"),
        "new game": (master, "/games/new/?module=forum_mafia"),
        "signup page": (players[0], f"/games/{signup.pk}/signup/"),
        "orders page": (users["Alice"], f"/games/{game.pk}/fm/orders/"),
    }
    for where, (user, url) in pages.items():
        _check_page(_read(client_for(user), url), where)


def test_skip_link_and_main_landmark(table, spectator):
    game, _ = table
    for url in ("/", f"/games/{game.pk}/"):
        html = client_for(spectator).get(url).content.decode()
        page = PageReader(html)
        assert page.first_link.get("href") == "#main" and "skip" in page.first_link.get("class", "")
        assert re.search(r'<main id="main" tabindex="-1">', html)


def test_countdown_has_a_role_and_the_lobby_filter_a_search_landmark(table, spectator):
    game, users = table
    html = client_for(users["Alice"]).get(f"/games/{game.pk}/").content.decode()
    assert re.search(r'<span class="countdown" id="phase-countdown" role="timer"', html)
    lobby = client_for(spectator).get("/").content.decode()
    assert 'role="search"' in lobby and '<label for="lobby-module">' in lobby


# -- CSS: focus and contrast -------------------------------------------------------------------------------------------

CSS = Path(settings.BASE_DIR) / "static" / "css" / "site.css"


def _luminance(colour: str) -> float:
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted([_luminance(a), _luminance(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_focus_is_visible():
    css = CSS.read_text()
    rule = re.search(r":focus-visible\s*\{([^}]*)\}", css)
    assert rule and re.search(r"outline:\s*\d+px solid", rule.group(1))
    assert not re.search(r":focus(-visible)?\s*\{[^}]*outline:\s*(none|0)", css.replace("main:focus", ""))


def _palettes(css: str) -> dict[str, dict[str, str]]:
    """The custom properties of the light ``:root`` and of the ``prefers-color-scheme: dark`` one (which only
    overrides: a colour it does not set keeps its light value)."""
    def props(block: str) -> dict[str, str]:
        return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", block))

    light = props(re.search(r"^:root\s*\{([^}]*)\}", css, re.M).group(1))
    dark_block = re.search(r"@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}", css)
    assert dark_block, "no dark palette"
    return {"light": light, "dark": {**light, **props(dark_block.group(1))}}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_colours_have_enough_contrast(scheme):
    """WCAG 2 AA, in the light palette and the dark one (``prefers-color-scheme``): body text, muted text, links,
    warnings, success, error and info text ≥ 4.5:1 on the page and card backgrounds; button text on the accent
    colour and a flag's text on the error colour too. No text colour is hard-coded outside the palettes."""
    css = CSS.read_text()
    root = _palettes(css)[scheme]
    backgrounds = [root["bg"], root["surface"]]
    text = [root[k] for k in ("fg", "muted", "accent", "warn", "ok", "error", "info")]
    for fg in text:
        for bg in backgrounds:
            assert _contrast(fg, bg) >= 4.5, (scheme, fg, bg, round(_contrast(fg, bg), 2))
    assert _contrast(root["on-accent"], root["accent"]) >= 4.5  # button text
    assert _contrast(root["surface"], root["error"]) >= 4.5  # .flag
    rules = re.sub(r"^:root\s*\{[^}]*\}|@media\s*\(prefers-color-scheme:[^{]*\{\s*:root\s*\{[^}]*\}\s*\}", "", css,
                   flags=re.M)
    assert not re.findall(r"(?<![-\w])(?:color|background(?:-color)?):\s*#", rules)  # a fixed colour ignores the theme
    assert len(_palettes(css)["dark"]) == len(_palettes(css)["light"])


# -- htmx forms degrade to plain posts -------------------------------------------------------------------------------

def _forms(client, game):
    return PageReader(client.get(f"/games/{game.pk}/").content.decode()).htmx_forms()


@pytest.mark.parametrize("who", ["Alice", "Jo"])
@pytest.mark.parametrize("stage", ["night", "day"])
def test_every_htmx_form_is_a_plain_form_too(table, frozen, stage, who):
    """Each form htmx drives posts to the same URL without JavaScript (method and action), and both ways answer:
    a plain post with a redirect or a whole page, an htmx post with a partial (no <html>). The forms are posted
    with the values a browser would send by default (valid or not: both must be answered)."""
    game, users = table
    if stage == "day":
        fm_table.play_night(game, users, frozen)
        services.post_create(game=game, user=users["Alice"], body="Morning.", comment="")
    user = users[who]
    client = client_for(user)
    seats = fm_table.ids(game)

    def forms():
        # A current order each time, so its withdraw form is there (a withdrawal removes it).
        payload = {"plays": [{"card": "tail", "from": "hand", "target": seats["Clara"]}]} if stage == "night" \
            else {"vote": {"for": seats["Eva"], "punishment": "execution"}}
        services.order_submit(phase=fm_table.open_phase(game), user=user, payload=payload)
        return _forms(client, game)

    found = forms()
    ids = {f.attrs.get("id") for f in found}
    assert {"fm-order-form", "post-form"} <= ids and len(found) >= 5, ids
    assert ("fm-vote-form" in ids) == (stage == "day")
    if who == "Jo":
        assert "fm-instant-joker" in ids or any("fm-instant" in (i or "") for i in ids), ids  # FM-3.3 at any moment
    for i in range(len(found)):
        for headers in ({}, HTMX):
            form = forms()[i]
            action, where = form.attrs.get("action"), form.attrs.get("id") or form.attrs.get("hx-post")
            assert form.attrs.get("method", "").lower() == "post", where
            assert action and action == form.attrs["hx-post"], where
            response = client.post(action, form.data(), **headers)
            if headers:
                assert response.status_code == 200 and b"<html" not in response.content, (where, response.status_code)
            else:
                assert response.status_code in (302, 303) or (
                    response.status_code in (200, 400) and b"<html" in response.content), (where, response.status_code)


def test_plain_posts_redirect_back_and_htmx_gets_the_partial(table, frozen):
    """The main actions, with valid input: a thread post, a Hand move, an order, a withdrawal, a Veche vote."""
    game, users = table
    client = client_for(users["Alice"])
    seats = fm_table.ids(game)
    alice = game.seats.get(display_name="Alice")
    hand = [c["uid"] for c in alice.data["cards"]["hand"]]
    page = f"/games/{game.pk}/"

    def both(url, data, marker):
        plain = client.post(url, data)
        assert plain.status_code == 302 and plain["Location"].startswith(page), (url, plain.status_code)
        partial = client.post(url, data, **HTMX)
        assert partial.status_code == 200 and marker in partial.content.decode() and b"<html" not in partial.content

    alice.refresh_from_db()
    move = {"uid": hand[0], "direction": "down", "version": alice.version, "next": "game"}
    plain = client.post(f"/games/{game.pk}/cards/move/", move)
    assert plain.status_code == 302 and plain["Location"].startswith(page)
    alice.refresh_from_db()
    assert [c["uid"] for c in alice.data["cards"]["hand"]][:2] == [hand[1], hand[0]]
    partial = client.post(f"/games/{game.pk}/cards/move/", {**move, "version": alice.version}, **HTMX)
    assert partial.status_code == 200 and 'id="hand-panel"' in partial.content.decode()
    order = {"action": "submit", "phase": open_phase_id(game), "hand": str(hand[0]),
             f"target_{hand[0]}": str(seats["Boris"])}
    both(f"/games/{game.pk}/fm/orders/", order, 'id="fm-orders"')
    both(f"/games/{game.pk}/fm/orders/withdraw/", {"phase": open_phase_id(game)}, 'id="fm-orders"')
    fm_table.resolve(game, frozen)
    both(f"/games/{game.pk}/posts/", {"body": "Good morning.", "comment": ""}, 'id="thread"')
    both(f"/games/{game.pk}/fm/veche/", {"action": "vote", "phase": open_phase_id(game), "for": str(seats["Clara"]),
                                         "punishment": "jail"}, 'id="fm-veche"')


def test_the_label_check_finds_what_it_should():
    """The checker itself: an input without a label, a button without a name and a duplicate id are reported."""
    page = PageReader('<form><label for="a">A</label><input id="a" name="a"><label>B <input name="b"></label>'
                      '<input name="c" aria-label="C"><input name="d" id="d"><select name="e"></select>'
                      '<input type="hidden" name="f"><button type="submit"></button><span id="a"></span></form>')
    assert page.unlabelled() == ["<input name='d' id='d'>", "<select name='e' id=None>",
                                 "<button name=None> has no text"]
    assert page.duplicate_ids() == ["a"]
