"""The game thread (FM-9.1), private messages in posts (FM-9.2) and who may post (FM-1.4, FM-9.7, ``avenger`` and
``postman`` of FM-8): BBCode rendered inert, quoting, edits with a history for the master only, pagination, and the
text of a private message reaching nobody but its recipient and the master — in the game page, the thread partial,
the API, the Atom feed and the notification e-mails, for every kind of viewer.

The table (forum Mafia, set up by the master's override, ring order = list order, FM-9.2 [house])::

    0 Anna    postman   alive      neighbours: Boris, Fyodor
    1 Boris             alive      neighbours: Dmitri (Clara is dead, skipped), Anna
    2 Clara   avenger   dead
    3 Dmitri            alive      neighbours: Fyodor (Eva is dead, skipped), Boris
    4 Eva               dead
    5 Fyodor            alive      neighbours: Anna, Dmitri
"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gm.core import markup, notifications, services, visibility
from gm.core.models import Game, LogEntry, Phase, Post, PostPrivate, PostRevision
from gm.core.services import ServiceError
from gm.modules.forum_mafia.engine import thread_rules
from gm.modules.forum_mafia.services.overrides import game_setup_override
from tests.helpers import api, client_for, race

pytestmark = pytest.mark.django_db

HAND = ["pistol", "witness", "advice", "tail", "bluff", "coffee"]
DECK = ["coffee", "pistol", "bunker", "witness", "advice", "tail", "hack", "bluff", "reserve", "dossier"]
TABLE = [
    ("Anna", "postman", "sheriff", True),
    ("Boris", {"custom": "Baker"}, "mafia_boss", True),
    ("Clara", "avenger", "doctor", False),
    ("Dmitri", {"custom": "Miller"}, "agent", True),
    ("Eva", {"custom": "Smith"}, "judge", False),
    ("Fyodor", {"custom": "Tailor"}, "maniac", True),
]
SECRET = "MILL-7731 meet at the mill at midnight"


class Table:
    """The game, its users by character name (plus ``master``, ``spectator``), and a client per viewer kind."""

    def __init__(self, game, users):
        self.game = game
        self.users = users
        self.base = f"/api/games/{game.pk}"

    def client(self, who: str | None) -> Client:
        return client_for(self.users[who] if who else None)

    def page(self, who: str | None, query: str = "") -> str:
        response = self.client(who).get(reverse("gm:game", args=[self.game.pk]) + query)
        assert response.status_code == 200
        return response.content.decode()

    def phase(self) -> Phase:
        return self.game.phases.exclude(status=Phase.Status.RESOLVED).get()

    def next_phase(self) -> Phase:
        services.phase_resolve_now(game=self.game, actor=self.users["master"], reason="test")
        self.game.refresh_from_db()
        return self.phase()

    def post(self, who: str, body: str, comment: str = "") -> Post:
        return services.post_create(game=self.game, user=self.users[who], body=body, comment=comment)


@pytest.fixture
def table(master, spectator, make_user) -> Table:
    """Day 1 of the table above."""
    users = {name: make_user(name.lower()) for name, *_ in TABLE}
    game = services.game_create(master=master, module="forum_mafia", title="Thread", rng_seed=7)
    players = [{"user": users[name], "name": name, "public_role": public, "secret_role": secret, "alive": alive,
                "hand": list(HAND), "deck": list(DECK)} for name, public, secret, alive in TABLE]
    game_setup_override(game=game, actor=master, players=players, start_kind="day", start_number=1)
    game.refresh_from_db()
    return Table(game, {**users, "master": master, "spectator": spectator})


def refused(call, **kwargs) -> ServiceError:
    before = (Post.objects.count(), PostPrivate.objects.count(), PostRevision.objects.count())
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert (Post.objects.count(), PostPrivate.objects.count(), PostRevision.objects.count()) == before
    return err.value


# -- BBCode renders inert (FM-9.1) ---------------------------------------------------------------------------------

UNSAFE_SCHEMES = ("javascript", "data", "vbscript")
ALLOWED_TAGS = {"a", "strong", "em", "u", "s", "sub", "sup", "br", "hr", "ul", "ol", "li", "blockquote", "cite",
                "code", "pre", "span", "div", "img"}


class _PostBodies(HTMLParser):
    """Every tag (with its attributes) inside ``<div class="post-body">`` elements of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.tags: list[tuple[str, dict]] = []
        self.bodies = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.depth:
            self.tags.append((tag, attrs))
            if tag not in ("br", "hr", "img"):
                self.depth += 1
        elif tag == "div" and attrs.get("class") == "post-body":
            self.depth, self.bodies = 1, self.bodies + 1

    def handle_startendtag(self, tag, attrs):
        if self.depth:
            self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if self.depth and tag not in ("br", "hr", "img"):
            self.depth -= 1


def _scheme(url: str) -> str:
    """The scheme a browser sees (WHATWG URL: outer C0/space stripped, tab and newlines removed, a scheme is
    ``[a-z][a-z0-9+.-]*:``); ``""`` for a relative URL."""
    cleaned = re.sub(r"[\t\n\r]", "", url.strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f "
                                                  "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f"
                                                  "\t\n\r"))
    match = re.match(r"([a-zA-Z][a-zA-Z0-9+.\-]*):", cleaned)
    return match.group(1).lower() if match else ""


def assert_inert(html: str, *, bodies: int | None = None) -> list[tuple[str, dict]]:
    """No tag but the thread's own, no event attribute, no style beyond the allowed properties, no unsafe URL, and
    every link ``rel="nofollow noopener"``. Returns the tags found."""
    parser = _PostBodies()
    if "post-body" not in html:  # a bare fragment (markup.render's output)
        html = f'<div class="post-body">{html}</div>'
    parser.feed(html)
    if bodies is not None:
        assert parser.bodies == bodies
    for tag, attrs in parser.tags:
        assert tag in ALLOWED_TAGS, (tag, html)
        assert not [a for a in attrs if a.lower().startswith("on")], (tag, attrs)
        for name in ("href", "src"):
            if name in attrs:
                assert _scheme(attrs[name] or "") not in UNSAFE_SCHEMES, attrs
                assert _scheme(attrs[name] or "") in ("http", "https", "mailto"), attrs  # absolute only
        if "style" in attrs:
            props = {p.split(":", 1)[0].strip() for p in attrs["style"].split(";") if p.strip()}
            assert props <= {"color", "text-align", "list-style-type"}, attrs
            assert "(" not in attrs["style"], attrs
        if tag == "a":
            assert attrs.get("rel") == "nofollow noopener", attrs
    return parser.tags


XSS = {
    "script-tag": "<script>alert(1)</script>",
    "script-in-bold": "[b]<script>alert(1)</script>[/b]",
    "script-in-code": "[code]<script>alert(1)</script>[/code]",
    "img-onerror-html": "<img src=x onerror=alert(1)>",
    "svg-onload": "<svg onload=alert(1)>",
    "iframe-in-list": "[list][*]<iframe src=javascript:alert(1)>[/list]",
    "url-option-javascript": "[url=javascript:alert(1)]click[/url]",
    "url-body-javascript": "[url]javascript:alert(1)[/url]",
    "url-mixed-case": "[url=JaVaScRiPt:alert(1)]x[/url]",
    "url-tab-in-scheme": "[url=java\tscript:alert(1)]x[/url]",
    "url-entity-scheme": "[url=&#106;avascript:alert(1)]x[/url]",
    "url-leading-space": "[url= javascript:alert(1)]x[/url]",
    "url-vbscript": "[url=vbscript:msgbox(1)]x[/url]",
    "url-data": "[url=data:text/html,<script>alert(1)</script>]x[/url]",
    "url-quote-breakout": '[url=http://example.com" onclick="alert(1)]x[/url]',
    "url-quoted-breakout": '[url="http://example.com\\" onmouseover=\\"alert(1)"]x[/url]',
    "url-body-breakout": '[url]http://example.com/"onmouseover="alert(1)[/url]',
    "autolink-breakout": 'http://example.com/"><script>alert(1)</script>',
    "img-javascript": "[img]javascript:alert(1)[/img]",
    "img-data": "[img]data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+[/img]",
    "img-onerror": '[img]https://example.com/a.png" onerror="alert(1)[/img]',
    "img-relative-onerror": '[img]x" onerror="alert(1)[/img]',
    "quote-name-script": '[quote="<script>alert(1)</script>"]q[/quote]',
    "quote-name-breakout": '[quote="x\\" onmouseover=\\"alert(1)"]q[/quote]',
    "color-breakout": '[color=red" onmouseover="alert(1)]c[/color]',
    "color-expression": "[color=expression(alert(1))]c[/color]",
    "nested-url-img": "[b][i][url=javascript:alert(1)][img]javascript:alert(2)[/img][/url][/i][/b]",
    "nested-url-in-url": "[url=https://example.com][url=javascript:alert(1)]x[/url][/url]",
    "deep-quotes": "[quote]" * 60 + "<svg onload=alert(1)>" + "[/quote]" * 60,
    "unclosed-tags": "[b][i][url=javascript:alert(1)]x",
}


@pytest.mark.parametrize("payload", XSS.values(), ids=XSS.keys())
def test_FM_9_1_bbcode_xss_attempts_render_inert(payload):
    html = str(markup.render(payload))
    assert "<script" not in html and "<svg" not in html and "<iframe" not in html
    assert_inert(html)


def test_FM_9_1_xss_inert_in_the_page_and_the_api(table):
    for payload in XSS.values():
        table.post("Boris", payload)
    table.post("Boris", '[private="Dmitri"]' + XSS["nested-url-img"] + XSS["script-tag"] + "[/private]")
    for who in ("master", "Dmitri", "Anna", None):
        page = table.page(who, "?page=1") + table.page(who, "?page=2")
        assert_inert(page)
        assert "alert(1)</script>" not in page.replace("&lt;script&gt;alert(1)&lt;/script&gt;", "")
        status, data = api(table.client(who), "get", f"{table.base}/posts/", {"limit": 100})
        assert status == 200
        for item in data["results"]:
            assert_inert(item["html"])
            if item["private"] and item["private"]["html"]:
                assert_inert(item["private"]["html"])


def test_FM_9_1_bbcode_formatting_and_safe_links():
    html = str(markup.render("[b]bold[/b] [i]it[/i] [u]u[/u] [s]s[/s] [url=https://example.com/a?b=1&c=2]site[/url] "
                             "[img]https://example.com/a.png[/img] [list][*]one[*]two[/list] [color=red]red[/color]"
                             "\nsecond line http://example.org/page"))
    assert "<strong>bold</strong>" in html and "<em>it</em>" in html and "<u>u</u>" in html and "<s>s</s>" in html
    assert '<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener">site</a>' in html
    assert '<img src="https://example.com/a.png" alt="" loading="lazy">' in html
    assert "<ul><li>one</li><li>two</li></ul>" in html and '<span style="color:red">red</span>' in html
    assert '<br>second line <a href="http://example.org/page" rel="nofollow noopener">' in html
    assert_inert(html)


# -- quoting -------------------------------------------------------------------------------------------------------


def test_FM_9_1_quote_button_fills_the_reply_box(table):
    post = table.post("Boris", "I am a [b]baker[/b].\nTrust me.")
    page = table.page("Anna")
    expected = markup.quote("Boris", post.body)
    assert expected == '[quote="Boris"]I am a [b]baker[/b].\nTrust me.[/quote]\n'
    assert 'data-quote="[quote=&quot;Boris&quot;]I am a [b]baker[/b].\nTrust me.[/quote]\n"' in page
    assert f'href="/games/{table.game.pk}/?quote={post.pk}#post-form"' in page
    # without JavaScript the link reloads the page with the quote in the reply box
    page = table.page("Anna", f"?quote={post.pk}")
    assert '[quote=&quot;Boris&quot;]I am a [b]baker[/b].\nTrust me.[/quote]\n</textarea>' in page
    # the quote renders as a cited blockquote
    reply = table.post("Anna", expected + "No.")
    html = visibility.thread_items(visibility.viewer_for(None, table.game), [reply])[0]["html"]
    assert html == '<blockquote class="quote"><cite>Boris</cite>I am a <strong>baker</strong>.<br>Trust me.' \
                   "</blockquote>No."
    # spectators read only: no quote button, no form
    page = table.page("spectator")
    assert "quote-button" not in page and 'id="post-form"' not in page and "Spectators read the thread." in page


def test_FM_9_1_quoting_a_post_with_a_private_message_never_copies_its_text(table):
    post = table.post("Boris", f'Public part.[private="Dmitri"]{SECRET}[/private]')
    for who in ("master", "Dmitri", "Boris", "Anna"):
        item = visibility.thread_items(visibility.viewer_for(table.users[who], table.game), [post])[0]
        assert SECRET not in item["quote"] and item["quote"] == '[quote="Boris"]Public part.[/quote]\n'
    page = table.page("Dmitri", f"?quote={post.pk}")
    # Only in the private blocks shown to him: the thread's post and his dashboard's list of private messages.
    thread = page[page.index('id="thread"'):]
    assert "Public part.[/quote]" in thread and thread.count(SECRET) == 1
    assert page.count(SECRET) == 2 and 'id="messages"' in page


# -- comment field -------------------------------------------------------------------------------------------------


def test_FM_9_1_comment_is_a_separate_plain_text_field(table):
    post = table.post("Boris", "Day post.", comment="room: Anna, Dmitri <b>now</b>")
    assert (post.body, post.comment) == ("Day post.", "room: Anna, Dmitri <b>now</b>")
    assert post.phase == table.phase() and post.phase.kind == "day"
    page = table.page(None)
    assert "room: Anna, Dmitri &lt;b&gt;now&lt;/b&gt;" in page
    status, data = api(table.client(None), "get", f"{table.base}/posts/")
    assert data["results"][0]["comment"] == "room: Anna, Dmitri <b>now</b>"
    err = refused(services.post_create, game=table.game, user=table.users["Boris"], body="x", comment="y" * 501)
    assert "comment" in err.errors
    err = refused(services.post_create, game=table.game, user=table.users["Boris"], body="x", comment="a\nb")
    assert "comment" in err.errors
    status, data = api(table.client("Anna"), "post", f"{table.base}/posts/", {"body": "Hi", "comment": "with Boris"})
    assert status == 201 and data["comment"] == "with Boris" and data["author"] == "Anna"


# -- who may post (FM-1.4, FM-9.7, avenger) ------------------------------------------------------------------------


def test_FM_9_7_dead_may_not_post_but_the_avenger_may(table):
    err = refused(table.post, who="Eva", body="I was framed!")
    assert err.code == "forbidden" and "(FM-9.7)" in str(err)
    status, data = api(table.client("Eva"), "post", f"{table.base}/posts/", {"body": "Hello?"})
    assert status == 403 and data["code"] == "forbidden"
    assert 'id="post-form"' not in table.page("Eva")
    # FM-8 avenger: speaks after death, in public
    post = table.post("Clara", "Avenge me!")
    assert post.seat.display_name == "Clara" and not post.seat.alive
    status, data = api(table.client("Clara"), "post", f"{table.base}/posts/", {"body": "Again."})
    assert status == 201 and data["author"] == "Clara" and data["author_alive"] is False
    page = table.page(None)
    assert "Avenge me!" in page and "Clara</strong> <span class=\"muted\">(dead)</span>" in page
    assert 'id="post-form"' in table.page("Clara")
    # … but sends no private message (FM-9.7: the dead get and send none)
    err = refused(table.post, who="Clara", body='[private="Dmitri"]psst[/private]')
    assert "The dead send no private messages. (FM-9.7)" in err.errors["body"]
    # she may edit her post, Eva can't (she may not post)
    services.post_edit(post=post, user=table.users["Clara"], body="Avenge me, please!")
    # the spectator reads only
    err = refused(table.post, who="spectator", body="Go Boris!")
    assert err.code == "forbidden"
    assert api(table.client("spectator"), "post", f"{table.base}/posts/", {"body": "x"})[0] == 403
    assert api(table.client(None), "post", f"{table.base}/posts/", {"body": "x"})[0] == 403


def test_FM_9_7_may_post_hook():
    assert thread_rules.may_post({"public_role": "avenger"}, False)
    assert not thread_rules.may_post({"public_role": "postman"}, False)
    assert not thread_rules.may_post({"public_role": {"custom": "avenger"}}, False)
    assert thread_rules.may_post({}, True)


def test_FM_1_4_players_may_not_post_before_night_1(master, make_user):
    users = [make_user(f"rs{i}") for i in range(5)]
    game = services.game_create(master=master, module="forum_mafia", title="Silence", rng_seed=3)
    services.game_open_signup(game=game, actor=master)
    for i, user in enumerate(users):
        seat = services.seat_join(game=game, user=user, display_name=f"S{i}")
        game.seats.filter(pk=seat.pk).update(data={"public_role": {"custom": f"R{i}"}})
    err = refused(services.post_create, game=game, user=users[0], body="Hi from signup")
    assert err.code == "forbidden" and "(FM-1.4)" in str(err)
    services.game_start(game=game, actor=master)
    game.refresh_from_db()
    assert game.phases.get().kind == "deckbuilding"
    err = refused(services.post_create, game=game, user=users[0], body="Who is the boss?")
    assert err.code == "forbidden"
    status, data = api(client_for(users[1]), "post", f"/api/games/{game.pk}/posts/", {"body": "psst"})
    assert status == 403 and "(FM-1.4)" in data["errors"]["__all__"][0]
    page = client_for(users[0]).get(reverse("gm:game", args=[game.pk])).content.decode()
    assert 'id="post-form"' not in page
    services.post_create(game=game, user=master, body="Deck building is open.")  # the master may
    services.phase_resolve_now(game=game, actor=master)
    game.refresh_from_db()
    assert game.phases.exclude(status="resolved").get().kind == "night"
    assert services.post_create(game=game, user=users[0], body="Good evening.").seat.display_name == "S0"


# -- editing with a history for the master only ----------------------------------------------------------------------


def test_FM_9_1_edit_keeps_every_version_for_the_master_only(table, frozen):
    post = table.post("Boris", "first version FV-1", comment="comment C-1")
    frozen.shift(60)
    services.post_edit(post=post, user=table.users["Boris"], body="second version SV-2", comment="comment C-2")
    frozen.shift(60)
    status, data = api(table.client("Boris"), "patch", f"{table.base}/posts/{post.pk}/", {"body": "third version"})
    assert status == 200 and data["body"] == "third version" and data["comment"] == "comment C-2"
    assert data["edited_at"] is not None and data["revisions"] is None
    post.refresh_from_db()
    assert [(r.version, r.body, r.comment) for r in post.revisions.all()] == [
        (1, "first version FV-1", "comment C-1"), (2, "second version SV-2", "comment C-2")]
    # unchanged: no new version
    services.post_edit(post=post, user=table.users["Boris"], body="third version")
    assert post.revisions.count() == 2
    # the master sees the history on the page and in the API
    page = table.page("master")
    assert "FV-1" in page and "SV-2" in page and "comment C-1" in page and "Edit history (2 earlier versions)" in page
    status, data = api(table.client("master"), "get", f"{table.base}/posts/")
    assert [r["body"] for r in data["results"][0]["revisions"]] == ["first version FV-1", "second version SV-2"]
    # nobody else does
    for who in ("Boris", "Anna", "Dmitri", "Eva", "spectator", None):
        page = table.page(who)
        assert "third version" in page and "FV-1" not in page and "SV-2" not in page and "comment C-1" not in page
        status, data = api(table.client(who), "get", f"{table.base}/posts/")
        assert data["results"][0]["revisions"] is None and "FV-1" not in json.dumps(data)
        assert not visibility.post_revisions(visibility.viewer_for(table.users.get(who), table.game), post).exists()
    # only the author edits
    err = refused(services.post_edit, post=post, user=table.users["Anna"], body="hacked")
    assert err.code == "forbidden"
    status, data = api(table.client("Anna"), "patch", f"{table.base}/posts/{post.pk}/", {"body": "hacked"})
    assert status == 403
    assert table.client("Anna").get(reverse("gm:post_edit", args=[table.game.pk, post.pk])).status_code == 403
    assert table.client("master").post(reverse("gm:post_edit", args=[table.game.pk, post.pk]),
                                       {"body": "master's"}).status_code == 400
    post.refresh_from_db()
    assert post.body == "third version"


def test_FM_9_1_edit_through_the_page_with_and_without_htmx(table):
    post = table.post("Boris", "before edit")
    url = reverse("gm:post_edit", args=[table.game.pk, post.pk])
    boris = table.client("Boris")
    form = boris.get(url)
    assert form.status_code == 200 and "before edit</textarea>" in form.content.decode()
    partial = boris.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert partial.startswith('<article id="post-') and 'hx-post="' + url in partial
    response = boris.post(url, {"body": "after edit", "comment": "c"})
    assert response.status_code == 302 and response.url.endswith(f"?page=1#post-{post.pk}")
    response = boris.post(url, {"body": "after htmx edit", "comment": "c"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "after htmx edit" in body and "Your post is saved." in body
    response = boris.post(url, {"body": "", "comment": "c"})
    assert response.status_code == 400 and "Write something first." in response.content.decode()
    assert Post.objects.get(pk=post.pk).revisions.count() == 2
    cancel = boris.get(reverse("gm:post_detail", args=[table.game.pk, post.pk]), HTTP_HX_REQUEST="true")
    assert "after htmx edit" in cancel.content.decode()


def test_FM_9_2_an_edit_can_neither_add_nor_change_a_private_message(table):
    post = table.post("Boris", f'Hello.[private="Dmitri"]{SECRET}[/private]')
    err = refused(services.post_edit, post=post, user=table.users["Boris"],
                  body='Hello.[private="Dmitri"]changed[/private]')
    assert "(FM-9.2)" in err.errors["body"][0]
    plain = table.post("Boris", "plain")
    refused(services.post_edit, post=plain, user=table.users["Boris"], body='[private="Anna"]x[/private]')
    # the public text may change (even to nothing); the private message stays as sent
    services.post_edit(post=post, user=table.users["Boris"], body="")
    assert PostPrivate.objects.get(post=post).text == SECRET
    assert SECRET in table.page("Dmitri") and SECRET in table.page("Boris") and SECRET not in table.page("Anna")
    assert SECRET not in "".join(r.body for r in PostRevision.objects.all())


# -- pagination ----------------------------------------------------------------------------------------------------


def test_FM_9_1_pagination_20_a_page_last_page_by_default(table):
    for i in range(1, 46):
        table.post("master", f"post-no-{i:02d}")
    page = table.page("Anna")
    assert "post-no-41" in page and "post-no-45" in page and "post-no-40" not in page
    assert '<span aria-current="page">3</span>' in page
    page = table.page("Anna", "?page=1")
    assert "post-no-01" in page and "post-no-20" in page and "post-no-21" not in page
    page = table.page(None, "?page=2")
    assert "post-no-21" in page and "post-no-40" in page and "post-no-41" not in page and "post-no-20" not in page
    assert table.page(None, "?page=99").count("post-no-4") == 5  # past the end: the last page
    # htmx: the thread alone; without htmx the thread URL is the game page at that page
    thread_url = reverse("gm:thread", args=[table.game.pk])
    partial = table.client(None).get(thread_url + "?page=2", HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<section class="card thread" id="thread"') and "<html" not in partial
    assert "post-no-21" in partial and "post-no-41" not in partial
    assert f'hx-get="{thread_url}?page=1"' in partial and f'href="/games/{table.game.pk}/?page=1#thread"' in partial
    response = table.client(None).get(thread_url + "?page=2")
    assert response.status_code == 302 and response.url == f"/games/{table.game.pk}/?page=2#thread"
    # the API pages with limit/offset like every list
    status, data = api(table.client(None), "get", f"{table.base}/posts/", {"limit": 20, "offset": 40})
    assert data["count"] == 45 and [p["body"] for p in data["results"]] == [f"post-no-{i}" for i in range(41, 46)]


def test_FM_9_1_posting_with_htmx_and_without_javascript(table):
    url = reverse("gm:post_create", args=[table.game.pk])
    anna = table.client("Anna")
    response = anna.post(url, {"body": "[b]Hello[/b] village", "comment": ""}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "<strong>Hello</strong> village" in body
    assert "Your post is published." in body
    response = anna.post(url, {"body": "no js"})
    post = Post.objects.get(body="no js")
    assert response.status_code == 302 and response.url == f"/games/{table.game.pk}/#post-{post.pk}"
    # refused with htmx: the form comes back with the reason and the text kept
    boris = table.client("Boris")
    response = boris.post(url, {"body": '[private="Fyodor"]hi[/private]'}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "Fyodor is not your neighbour" in body
    assert "[private=&quot;Fyodor&quot;]hi[/private]</textarea>" in body
    # refused without JavaScript: back to the game page with the reason, the draft in the reply box
    response = boris.post(url, {"body": '[private="Fyodor"]draft kept[/private]'}, follow=True)
    body = response.content.decode()
    assert response.redirect_chain == [(table.game.get_absolute_url(), 302)]
    assert "Fyodor is not your neighbour" in body
    assert "[private=&quot;Fyodor&quot;]draft kept[/private]</textarea>" in body
    assert Post.objects.count() == 2


# -- private messages (FM-9.2) -------------------------------------------------------------------------------------

VIEWERS = ("master", "Dmitri", "Boris", "Anna", "Eva", "spectator", None)
READERS = {"master", "Dmitri"}


def _check_private_everywhere(table: Table, post: Post, *, recipient_public: bool):
    """The private text of ``post`` (to Dmitri, from ``post``'s author) reaches only Dmitri, the master and its
    author, who rereads what he wrote: page, thread partial, edit form, API list and item, Atom feed, log."""
    sender = post.seat.display_name
    thread_url = reverse("gm:thread", args=[table.game.pk])
    for who in VIEWERS:
        client = table.client(who)
        page = table.page(who)
        partial = client.get(thread_url, HTTP_HX_REQUEST="true").content.decode()
        status, listing = api(client, "get", f"{table.base}/posts/")
        status_one, one = api(client, "get", f"{table.base}/posts/{post.pk}/")
        feed = client.get(reverse("gm:game_feed", args=[table.game.pk])).content.decode()
        assert status == status_one == 200
        item = next(p for p in listing["results"] if p["id"] == post.pk)
        assert one == item
        reads = who in READERS or who == sender
        for text in (page, partial, json.dumps(listing)):
            assert (SECRET in text) is reads, (who, text[:200])
        assert SECRET not in feed
        assert (item["private"]["text"] == SECRET) is reads and (item["private"]["html"] is not None) is reads
        knows = reads or recipient_public or who == sender
        assert (item["private"]["recipient"] == "Dmitri") is knows and (item["private"]["recipient"] is None) \
            is (not knows)
        assert item["private"]["public_recipient"] is recipient_public
        assert item["private"]["to_viewer"] is (who == "Dmitri")
        if who == "Dmitri":
            assert "Private message to you:" in page
        elif who in ("master", sender):
            assert "Private message to Dmitri:" in page
        elif knows:
            assert "This post holds a private message to Dmitri." in page
        else:
            assert "This post holds a private message." in page and "private message to Dmitri" not in page
    assert not any(SECRET in json.dumps(e.data) or SECRET in e.text() for e in LogEntry.objects.all())
    assert SECRET not in Post.objects.get(pk=post.pk).body
    assert {u.username for u in visibility.private_readers(post)} == {"master", "dmitri"}


def test_FM_9_2_private_message_to_a_neighbour_reaches_only_the_recipient_the_master_and_its_author(table, mailoutbox):
    # Boris's neighbours are Anna and Dmitri (dead Clara between Boris and Dmitri is skipped)
    post = table.post("Boris", f'Good day all.\n[private="Dmitri"]{SECRET}[/private]\nBye.')
    private = PostPrivate.objects.get(post=post)
    assert (post.body, private.text, private.recipient.display_name, private.public_recipient) == (
        "Good day all.\n\nBye.", SECRET, "Dmitri", False)
    _check_private_everywhere(table, post, recipient_public=False)
    # the day ends: the result e-mails (and the inbox, whatever it sends) never carry the text
    day = table.phase()
    table.next_phase()
    for message in notifications.phase_result_messages(phase=Phase.objects.get(pk=day.pk)):
        assert SECRET not in message.body and SECRET not in message.subject
    for message in mailoutbox:
        assert SECRET not in message.body
    assert {m.to[0] for m in notifications.phase_result_messages(phase=Phase.objects.get(pk=day.pk))} >= {
        "master@example.com", "dmitri@example.com", "boris@example.com", "anna@example.com"}
    _check_private_everywhere(table, post, recipient_public=False)  # still so at night


def test_FM_9_2_the_recipient_alone_finds_the_private_message_in_his_inbox(table, django_capture_on_commit_callbacks):
    from gm.inbox.models import Notification

    with django_capture_on_commit_callbacks(execute=True):
        table.post("Boris", f'[private="Dmitri"]{SECRET}[/private]')
    holders = {n.user.username for n in Notification.objects.filter(game=table.game)
               if SECRET in n.body or SECRET in str(n.data)}
    assert holders == {"dmitri"}


def test_FM_9_2_private_message_through_the_api_and_case_insensitive_name(table):
    status, data = api(table.client("Boris"), "post", f"{table.base}/posts/",
                       {"body": f'[PRIVATE = " dmitri "]{SECRET}[/private]', "comment": "c"})
    assert status == 201 and data["body"] == "" and data["private"] == {  # the author rereads what he sent
        "recipient": "Dmitri", "public_recipient": False, "to_viewer": False, "text": SECRET,
        "html": data["private"]["html"]} and SECRET in data["private"]["html"]
    _check_private_everywhere(table, Post.objects.get(pk=data["id"]), recipient_public=False)


REFUSALS = {
    "non-neighbour": ("Boris", '[private="Fyodor"]hi[/private]',
                      "Fyodor is not your neighbour: you may send private messages only to your neighbours (Dmitri, "
                      "Anna). (FM-9.2)"),
    "unknown-name": ("Boris", '[private="Zed"]hi[/private]', "Nobody in this game is called “Zed” (FM-9.2)."),
    "dead-recipient": ("Boris", '[private="Clara"]hi[/private]', "Clara is dead: the dead get no messages. (FM-9.7)"),
    "to-self": ("Boris", '[private="Boris"]hi[/private]', "You can't send a private message to yourself. (FM-9.2)"),
    "two-tags": ("Boris", '[private="Anna"]a[/private] [private="Dmitri"]b[/private]',
                 "A post may hold only one private message, and a private message can't hold another."),
    "nested": ("Boris", '[private="Anna"]a [private="Dmitri"]b[/private][/private]',
               "A post may hold only one private message, and a private message can't hold another."),
    "unclosed": ("Boris", '[private="Anna"]everyone would read this', 'Write a private message as '
                 '[private="Name"]text[/private].'),
    "stray-close": ("Boris", "oops[/private]", 'Write a private message as [private="Name"]text[/private].'),
    "no-name": ("Boris", "[private]hi[/private]", 'Name the recipient: [private="Name"]text[/private].'),
    "empty": ("Boris", '[private="Anna"] [/private]', "The private message is empty."),
    "from-the-master": ("master", '[private="Anna"]hi[/private]', "Only characters send private messages (FM-9.2)."),
}


@pytest.mark.parametrize("who, body, reason", REFUSALS.values(), ids=REFUSALS.keys())
def test_FM_9_2_refused_private_messages_save_nothing(table, who, body, reason):
    err = refused(table.post, who=who, body="Public words. " + body)
    assert err.code == "invalid" and err.errors == {"body": [reason]}
    status, data = api(table.client(who), "post", f"{table.base}/posts/", {"body": "Public words. " + body})
    assert status == 400 and data["errors"] == {"body": [reason]}
    assert not Post.objects.exists() and not PostPrivate.objects.exists()


def test_FM_9_2_private_messages_only_by_day(table):
    table.next_phase()
    assert table.phase().kind == "night"
    err = refused(table.post, who="Boris", body='[private="Dmitri"]hi[/private]')
    assert err.errors == {"body": ["Private messages are sent by day only. (FM-9.2)"]}
    status, data = api(table.client("Anna"), "post", f"{table.base}/posts/", {"body": '[private="Boris"]x[/private]'})
    assert status == 400 and data["errors"]["body"] == ["Private messages are sent by day only. (FM-9.2)"]
    assert table.post("Boris", "Public at night is fine.").phase.kind == "night"


def test_FM_9_2_neighbours_are_the_nearest_living_seats_of_the_ring(table):
    from gm.core.services import seat_info

    seats = [seat_info(s) for s in table.game.seats.order_by("position")]
    by = {s.name: s for s in seats}
    names = {name: [s.name for s in thread_rules.neighbours(by[name], seats)] for name in by}
    assert names["Anna"] == ["Boris", "Fyodor"] and names["Boris"] == ["Dmitri", "Anna"]
    assert names["Dmitri"] == ["Fyodor", "Boris"] and names["Fyodor"] == ["Anna", "Dmitri"]
    assert table.post("Fyodor", '[private="Anna"]across the ring end[/private]')
    assert table.post("Dmitri", '[private="Fyodor"]over dead Eva[/private]')


def test_FM_8_postman_once_per_day_to_anyone_named_publicly(table):
    # Dmitri is not Anna's neighbour (Boris and Fyodor are): the postman's message of the day
    post = table.post("Anna", f'Mail![private="Dmitri"]{SECRET}[/private]')
    assert PostPrivate.objects.get(post=post).public_recipient is True
    _check_private_everywhere(table, post, recipient_public=True)
    # a second one to a non-neighbour the same day is refused with the reason
    err = refused(table.post, who="Anna", body='[private="Dmitri"]again[/private]')
    assert err.errors == {"body": [
        "Dmitri is not your neighbour, and you have already used the postman's message of today; your neighbours "
        "are Boris, Fyodor. (FM-8)"]}
    # her neighbours she may still write to, as anyone may (not named publicly)
    to_boris = table.post("Anna", '[private="Boris"]neighbourly[/private]')
    assert PostPrivate.objects.get(post=to_boris).public_recipient is False
    # a non-postman never gets the allowance
    assert "not your neighbour" in str(refused(table.post, who="Boris", body='[private="Fyodor"]x[/private]'))
    # the next day she has a new one
    table.next_phase()
    table.next_phase()
    assert (table.phase().kind, table.phase().number) == ("day", 2)
    post2 = table.post("Anna", '[private="Dmitri"]day two[/private]')
    assert PostPrivate.objects.get(post=post2).public_recipient is True


def test_FM_9_2_a_finished_game_reveals_private_messages(table):
    """The core's rule for a finished game (everything is revealed to everyone) holds for private messages too."""
    post = table.post("Boris", f'[private="Dmitri"]{SECRET}[/private]')
    assert SECRET not in table.page(None)
    services.game_abort(game=table.game, actor=table.users["master"], reason="test over")
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.ABORTED
    assert SECRET in table.page(None) and SECRET in table.page("Anna")
    assert visibility.thread_items(visibility.viewer_for(None, table.game), [post])[0]["private"]["text"] == SECRET


@pytest.fixture
def committed(card_collection):
    """For a test that commits for real (PostgreSQL only): no deadline task is queued on commit; the card collection
    is there even if an earlier transactional test flushed it."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: two real concurrent transactions")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("gm.core.services.base.schedule_deadline", lambda phase, *, now: None)
        yield


@pytest.mark.django_db(transaction=True)
def test_FM_8_postman_two_concurrent_messages_exactly_one_is_sent(committed, table):
    """The phase row is locked before the once-a-day check: two simultaneous postman posts can't both pass."""
    def attempt(i: int):
        with translation.override("en"):  # a new thread starts in the site's default language (Russian)
            return table.post("Anna", f'[private="Dmitri"]race {i}[/private]')

    results = race(attempt)
    sent = [r for r in results if isinstance(r, Post)]
    refusals = [r for r in results if isinstance(r, ServiceError)]
    assert len(sent) == 1 and len(refusals) == 1, results
    assert "already used the postman's message of today" in refusals[0].errors["body"][0]
    assert PostPrivate.objects.filter(public_recipient=True).count() == 1
