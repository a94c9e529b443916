"""Leak audit (issue 9 item 4; FM-1.2, FM-2.1, FM-5.2, FM-9.2, FM-9.3, FM-9.4, FM-3.1/FM-9.6, §10's full reveal):
unique canary strings in every kind of secret, and every URL of the URLconf (so every path of the OpenAPI schema)
fetched by every viewer at every stage of a game — plus the Atom feed, the inbox, the e-mails sent and the JSON
log lines written. A canary must appear exactly where the rules allow it: never for anyone else, and (so that the
audit can fail both ways) at least on its designated pages for the viewers allowed to read it.

What is fetched, at each stage (signup, deck building, Night 1, Day 1, Night 2, finished) and for each viewer (the
master; Olga, the owner of most secrets; Lev and Nina, their recipients and room members; Gleb, another player;
Ivan, a dead player; a spectator; an anonymous visitor): every named pattern of the URLconf (walked with
``get_resolver``, parameters filled with the seeded objects' ids — the game, every post, every signup, the room,
each user's latest notification, every seat's ISO and the master's), except DRF's ``.json`` twins, the admin and
allauth's key-carrying pages (see ``leak_audit.routes``); at Night 2 once more as htmx asks for partials, where
the first answer read htmx's request headers (``leak_audit.htmx_readers``: any other answer is the same). Every
path of the OpenAPI schema must be among the URLs fetched. Besides the pages: every e-mail in ``mail.outbox`` (by
recipient), every stored notification (by its user) and every JSON log line written (nobody may read a canary
there).

The games and canaries are described in :mod:`tests.integration.leak_audit`. Who may read each canary (the one
visibility layer, ``gm/core/visibility.py``):

* MESSENGERS (a signup's «Внешность», FM-2.1): its player and the master, at every stage;
* PENDING (a superseded version of an order, FM-5.6): its player and the master, until the game is over;
* LETTER (a ``letter``'s text, FM-9.4): its sender and the master while the order is pending; also its recipient
  once the night is resolved;
* MAFIA (the Mafia message, FM-3.1/FM-9.6): its sender and the master; also its recipient after the night;
* PRIVATE (a private message in a thread post, FM-9.2): its recipient, the master and its author (Nina rereads what
  she wrote; ``visibility.may_read_private``) — nobody else;
* ROOM (a chat room post, FM-9.3): the room's members and the master;
* REJECTED (the master's reason for rejecting a signup, FM-2.5): the rejected player and the master;
* AUDIT (the master's reason for extending a deadline): the master only — his audit log, also after the game;
* REPLACE (a player's private reason for asking to be replaced, issue 23): the master only — also after the game;
  not even the asking player reads it back, and the public standby board, which lists her seat, never shows it;
* PRODDED (the master-only log line that a quiet player was prodded, issue 23): the master, and everyone once the
  game is over (the log is revealed); the prodded players learn of it in their own inbox, in other words;
* when the game is over, everything is revealed to everyone (``Viewer.revealed``) — game secrets only: the
  signup's messengers and rejection reason stay the player's and the master's, the audit log the master's.
"""
from __future__ import annotations

import logging

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from pythonjsonlogger.json import JsonFormatter

from gm.core.models import Post
from gm.inbox.models import Notification
from gm.modules.forum_mafia.models import Signup
from tests.helpers import client_for
from tests.integration import leak_audit as la

pytestmark = pytest.mark.django_db

#: Routes whose answer depends on no user nor game data (the OpenAPI schema, ~0.3 s to generate): fetched once a
#: stage, by the anonymous visitor.
SAME_FOR_EVERYONE = {"schema"}
STAGES = ("signup", "deck_building", "night", "day", "night_2", "finished")
EVERYONE = frozenset(la.VIEWERS)


def allowed(kind: str, stage: str) -> frozenset:
    """The viewers who may read canary ``kind`` at ``stage`` (see the module docstring)."""
    if kind == "MESSENGERS":
        return frozenset({"olga", "master"})
    if kind == "REJECTED":
        return frozenset({"ivan", "master"})
    if kind in ("AUDIT", "REPLACE"):  # the master's audit log and his players' requests stay his
        return frozenset({"master"})
    if stage == "finished":
        return EVERYONE
    later = STAGES.index(stage) > STAGES.index("night")
    return frozenset({
        "PENDING": {"olga", "master"},
        "LETTER": {"olga", "master"} | ({"lev"} if later else set()),
        "MAFIA": {"olga", "master"} | ({"nina"} if later else set()),
        "PRIVATE": {"lev", "nina", "master"},
        "ROOM": {"olga", "lev", "nina", "master"},
        "PRODDED": {"master"},
    }[kind])


def expected_pages(kind: str, stage: str, viewer: str) -> set[str]:
    """Route names where ``viewer`` must find canary ``kind`` at ``stage`` (an allowed viewer's designated pages:
    the audit fails if a secret stops reaching the one who may read it, not only if it reaches someone else)."""
    if not seeded(kind, stage) or viewer not in allowed(kind, stage):
        return set()
    if kind == "MESSENGERS":  # the signup page and the master's signups list; the "Signups" game's stages only
        if stage not in ("signup", "deck_building"):
            return set()
        return {"forum_mafia:signup"} | ({"forum_mafia:api_signups"} if viewer == "master" else set())
    if kind == "REJECTED":  # the rejected player's signup page; the master's audit log
        if stage not in ("signup", "deck_building"):
            return set()
        return {"forum_mafia:signup"} if viewer == "ivan" else {"game-audit"}
    if kind == "AUDIT":
        return {"game-audit"}
    if kind == "REPLACE":  # the console's activity part (its own page) while the game runs, and the API
        return {"api-console-life"} | ({"gm:console_life"} if stage != "finished" else set())
    if kind == "PRODDED":
        return {"game-log"} if viewer == "master" or stage == "finished" else set()
    if kind == "ROOM":
        return {"forum_mafia:room", "forum_mafia:api_room_posts"}
    if kind == "PRIVATE":
        # ... and the ISO of its author, page and API (issue 23 item 6)
        return {"gm:game", "game-posts", "gm:iso", "api-iso"} | (
            {"inbox:list", "inbox-list"} if viewer == "lev" else set())
    if stage == "finished":
        return {"game-orders"} | ({"gm:game", "game-log", "gm:game_feed"} if kind != "PENDING" else set())
    pages = {"gm:game"} if stage == "night" else set()
    if viewer in ("olga", "master"):  # the sender's own orders; every order for the master
        in_trace = viewer == "master" and stage != "night" and kind != "PENDING"  # the resolution trace
        return pages | {"game-orders"} | ({"game-log"} if in_trace else set())
    return {"gm:game", "game-log", "inbox:list", "inbox-list"}  # the recipient, once the night is resolved


def seeded(kind: str, stage: str) -> bool:
    """Whether canary ``kind`` exists at ``stage``."""
    first = {"MESSENGERS": "signup", "REJECTED": "signup", "AUDIT": "night", "PENDING": "night",
             "LETTER": "night", "MAFIA": "night", "PRIVATE": "day", "ROOM": "night_2", "REPLACE": "night",
             "PRODDED": "night"}[kind]
    return STAGES.index(stage) >= STAGES.index(first)


class Audit:
    """Fetches every URL for every viewer and records where each canary shows up."""

    def __init__(self, world: la.World):
        self.world = world
        self.routes = la.routes()
        self.seen: dict[tuple[str, str, str], set[str]] = {}  # (stage, viewer, url) → canary kinds
        self.names: dict[str, str] = {}  # url → route name
        self.errors: list[str] = []
        self.leaked_htmx: list[str] = []
        self.htmx_readers: set[tuple[str, str]] = set()  # (viewer, url) whose answer read htmx's headers
        self.fetched_urls: set[str] = set()
        self.requests = 0

    def canaries_in(self, text: str) -> set[str]:
        return {kind for kind, canary in self.world.canaries.items() if canary in text}

    def params(self, route: la.Route, game) -> list[dict]:
        """The keyword arguments ``route`` is fetched with: the seeded objects' ids (every combination)."""
        if not route.params:
            return [{}]
        values: dict[str, list] = {}
        for name in route.params:
            if name == "pk" and "inbox" in route.pattern and "games" not in route.pattern:
                # each user's latest notification of the game (everyone tries everyone's)
                latest = {}
                for user_id, pk in Notification.objects.filter(game=game).order_by("pk").values_list("user", "pk"):
                    latest[user_id] = pk
                values[name] = sorted(latest.values()) or [0]
            elif name == "pk":
                values[name] = [game.pk]
            elif name == "post_id":
                values[name] = list(Post.objects.filter(game=game).values_list("pk", flat=True)) or [0]
            elif name == "signup_id":
                values[name] = list(Signup.objects.values_list("pk", flat=True)) or [0]
            elif name == "author":  # ISO pages (issue 23): every seat that posted, one that did not, the master's
                posted = set(Post.objects.filter(game=game, seat__isnull=False).values_list("seat", flat=True))
                seats = list(game.seats.order_by("position").values_list("pk", flat=True))
                values[name] = [*sorted(posted), *[pk for pk in seats if pk not in posted][:1], "master"]
            elif name == "seat_id":  # the owner's seat (the master's console acts on one seat)
                values[name] = list(game.seats.order_by("position").values_list("pk", flat=True)[:1]) or [0]
            elif name == "room":
                values[name] = [self.world.ids.get("room", "1-1")]
            elif name == "report_id":  # a balance report of the game (issue 24), if the master asked for one
                from gm.balance.models import BalanceReport

                values[name] = list(BalanceReport.objects.filter(game=game).values_list("pk", flat=True)) or [0]
            elif name == "username":  # a player's public record and history (issue 24): the master's and the
                # spectator's. A seat's own would show his account name, which the URL already holds, and the
                # anonymity walk's canaries are account names; a record holds finished games only.
                values[name] = [u.get_username() for key in ("master", "spectator")
                                if (u := self.world.users.get(key)) is not None]
            elif name == "warning_id":  # revoking a warning: staff only, POST only
                values[name] = [0]
            elif name == "rule_id":  # the rules pages: public text, the same for everyone
                values[name] = ["FM-7.4"]
            elif name == "slug":
                values[name] = ["forum-mafia"]
            else:
                raise AssertionError(f"no value for parameter {name!r} of {route.pattern}")
        combos = [{}]
        for name, options in values.items():
            combos = [{**c, name: v} for c in combos for v in options]
        return combos

    def urls(self, game) -> list[str]:
        out = []
        for route in self.routes:
            if route.format_suffix or route.legacy_twin:  # the same view and data as its twin (the legacy paths:
                continue  # test_legacy_paths_show_what_their_successors_show)
            for kwargs in self.params(route, game):
                url = reverse(route.name, kwargs=kwargs)
                self.names[url] = route.name
                out.append(url)
        return out

    def client(self, viewer: str) -> Client:
        client = client_for(self.world.users[viewer])
        client.raise_request_exception = False
        return client

    def fetch_all(self, stage: str, game, *, htmx: bool = False, record_htmx: bool = False) -> None:
        """GET every URL as every viewer. ``record_htmx``: note in :attr:`htmx_readers` each (viewer, URL) whose
        answer read one of htmx's request headers (``la.htmx_readers``). ``htmx``: only those pairs, again, as htmx
        asks for its partials (``HX-Request: true``) — an answer that never read those headers is the same either
        way."""
        urls = self.urls(game)
        headers = {"HX-Request": "true"} if htmx else {}
        label = f"{stage} (htmx)" if htmx else stage
        for viewer in la.VIEWERS:
            client = self.client(viewer)
            for url in urls:
                if self.names[url] in SAME_FOR_EVERYONE and viewer != la.VIEWERS[-1]:
                    continue
                if htmx and (viewer, url) not in self.htmx_readers:
                    continue
                self.requests += 1
                try:
                    if record_htmx:
                        with la.htmx_readers() as read:
                            response = client.get(url, {"limit": 500}, headers=headers)
                        if read:
                            self.htmx_readers.add((viewer, url))
                    else:
                        response = client.get(url, {"limit": 500}, headers=headers)
                except Exception as exc:  # noqa: BLE001 - reported with the URL and viewer
                    self.errors.append(f"{label}: {viewer} GET {url} raised {exc!r}")
                    continue
                if response.status_code >= 500:
                    self.errors.append(f"{label}: {viewer} GET {url} → {response.status_code}")
                body = b"".join(response.streaming_content) if response.streaming else response.content
                kinds = self.canaries_in(body.decode("utf-8", "replace"))
                if htmx:
                    self.leaked_htmx += [f"{label}: {kind} canary leaked to {viewer} at {url} ({self.names[url]})"
                                         for kind in kinds if viewer not in allowed(kind, stage)]
                else:
                    self.seen[(stage, viewer, url)] = kinds
                self.fetched_urls.add(url)

    def notification_leaks(self, stage: str) -> list[str]:
        """Every stored notification (its text, data and log entry, as its user's inbox renders them) holds only
        canaries its user may read — also the ones no page shows."""
        from gm.inbox import selectors

        out = []
        for viewer, user in self.world.users.items():
            if user is None or viewer not in la.VIEWERS:
                continue
            notes = selectors.present(list(Notification.objects.filter(user=user)), user)
            for note in notes:
                text = " ".join(str(v) for v in (note.body, note.data, note.title, note.text,
                                                 note.entry.text() if note.entry else ""))
                out += [f"{stage}: {kind} canary in {viewer}'s notification {note.pk} ({note.kind})"
                        for kind in self.canaries_in(text) if viewer not in allowed(kind, stage)]
        return out

    def missing(self, stage: str) -> list[str]:
        """Allowed viewers who do not find a canary on its designated pages."""
        out = []
        for viewer in la.VIEWERS:
            for kind in la.KINDS:
                for name in sorted(expected_pages(kind, stage, viewer)):
                    urls = [u for (st, v, u) in self.seen if st == stage and v == viewer and self.names[u] == name]
                    assert urls, (stage, viewer, name)
                    if not any(kind in self.seen[(stage, viewer, u)] for u in urls):
                        out.append(f"{stage}: {viewer} does not find the {kind} canary at {name} {urls}")
        return out

    def leaks(self, stage: str) -> list[str]:
        out = []
        for (st, viewer, url), kinds in self.seen.items():
            if st != stage:
                continue
            for kind in kinds:
                if viewer not in allowed(kind, stage):
                    out.append(f"{stage}: {kind} canary leaked to {viewer} at {url} ({self.names[url]})")
        return out


@pytest.fixture
def world(make_user, master, spectator) -> la.World:
    return la.World(canaries=la.new_canaries(), users=la.make_users(make_user, master, spectator))


def test_leak_audit(world, frozen, django_capture_on_commit_callbacks):
    audit = Audit(world)
    log_lines: list[str] = []
    formatter = JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s")

    class Collect(logging.Handler):
        def emit(self, record):
            log_lines.append(formatter.format(record))

    handler = Collect(level=logging.INFO)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        stages = {
            "signup": lambda: la.signups_game(world),
            "deck_building": lambda: la.deck_building(world, frozen),
            "night": lambda: (la.canaries_game(world),
                              la.forum_life(world, frozen, django_capture_on_commit_callbacks)),
            "day": lambda: la.day_1(world, frozen, django_capture_on_commit_callbacks),
            "night_2": lambda: la.night_2(world, frozen, django_capture_on_commit_callbacks),
            "finished": lambda: la.finish(world, frozen),
        }
        leaks: list[str] = []
        missing: list[str] = []
        outbox_seen = 0
        emailed: set[tuple[str, str]] = set()
        for stage, build in stages.items():
            build()
            game = world.game if world.game is not None else world.signups_game
            audit.fetch_all(stage, game, record_htmx=stage == "night_2")
            if stage == "night_2":  # every secret seeded, none revealed: htmx's partials too
                audit.fetch_all(stage, game, htmx=True)
            leaks += audit.leaks(stage) + audit.notification_leaks(stage)
            missing += audit.missing(stage)
            for message in mail.outbox[outbox_seen:]:
                text = " ".join([message.subject, message.body,
                                 *(c for c, _ in getattr(message, "alternatives", []))])
                who = {email.split("@")[0] for email in message.to}
                emailed.update((w, kind) for w in who for kind in audit.canaries_in(text))
                for kind in audit.canaries_in(text):
                    if not who <= allowed(kind, stage):
                        leaks.append(f"{stage}: {kind} canary e-mailed to {sorted(who)}: {message.subject!r}")
            outbox_seen = len(mail.outbox)
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    leaks += audit.leaked_htmx
    # The htmx pass asked again where an answer read htmx's headers: the partials of the Veche, the order form,
    # the inbox among them (else the recording saw nothing and the pass asked nothing).
    htmx_routes = {audit.names[url] for _viewer, url in audit.htmx_readers}
    assert {"forum_mafia:veche", "forum_mafia:orders", "inbox:list"} <= htmx_routes, htmx_routes
    for line in log_lines:
        for kind in audit.canaries_in(line):
            leaks.append(f"{kind} canary in a log line: {line}")
    # Each channel was exercised: result e-mails carried the delivered secrets to their readers, the resolution
    # was logged, and every path of the OpenAPI schema was among the URLs fetched.
    assert {("lev", "LETTER"), ("nina", "MAFIA"), ("master", "LETTER"), ("master", "MAFIA")} <= emailed, emailed
    assert any('"phase resolved"' in line for line in log_lines), len(log_lines)
    uncovered = [path for path in schema_paths() if not any(
        la.schema_path_regex(path).match(url) for url in audit.fetched_urls)]
    assert not uncovered, uncovered
    assert not audit.errors, "\n".join(audit.errors)
    assert not missing, "\n".join(missing)
    assert not leaks, "\n".join(leaks)


def test_legacy_paths_show_what_their_successors_show(world, frozen, django_capture_on_commit_callbacks):
    """The walk above leaves out the legacy paths (``forum_mafia:legacy_…``, the same views with the deprecation
    headers): in signup, at Night 2 (every secret seeded, none revealed) and after the end, every viewer gets from
    each the status and exactly the canaries its successor gives him, with the ``Deprecation`` header and a ``Link``
    to it."""
    audit = Audit(world)
    legacy = [r for r in audit.routes if r.legacy_twin and not r.format_suffix]
    assert len(legacy) >= 10, legacy
    compared, shown = 0, set()
    for stage in ("signup", "night_2", "finished"):
        if stage == "signup":
            la.signups_game(world)
        elif stage == "night_2":
            la.canaries_game(world)
            la.day_1(world, frozen, django_capture_on_commit_callbacks)
            la.night_2(world, frozen, django_capture_on_commit_callbacks)
        else:
            la.finish(world, frozen)
        game = world.signups_game if stage == "signup" else world.game
        for viewer in la.VIEWERS:
            client = audit.client(viewer)
            for route in legacy:
                for kwargs in audit.params(route, game):
                    old = client.get(reverse(route.name, kwargs=kwargs), {"limit": 500})
                    new = client.get(reverse(route.legacy_twin, kwargs=kwargs), {"limit": 500})
                    assert old.status_code == new.status_code, (stage, viewer, route.name)
                    kinds = audit.canaries_in(old.content.decode())
                    assert kinds == audit.canaries_in(new.content.decode()), (stage, viewer, route.name)
                    shown |= kinds
                    if old.status_code < 400:
                        assert old.has_header("Deprecation"), route.name
                        assert reverse(route.legacy_twin, kwargs=kwargs) in old["Link"], route.name
                    compared += 1
    assert compared >= 3 * len(la.VIEWERS) * len(legacy)
    assert {"MESSENGERS", "REJECTED", "ROOM"} <= shown, shown  # the legacy pages do carry secrets to compare


def schema_operations() -> set[tuple[str, str]]:
    """``(METHOD, path)`` of every operation of the OpenAPI schema."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    return {(method.upper(), path) for path, ops in paths.items() for method in ops if method != "parameters"}


def schema_paths() -> list[str]:
    """The paths of the OpenAPI schema, as drf-spectacular generates it for ``/api/schema/``."""
    from drf_spectacular.generators import SchemaGenerator

    return sorted(SchemaGenerator().get_schema(request=None, public=True)["paths"])


# -- schemathesis: the whole API schema, called as another player ------------------------------------------------

#: Per operation, hypothesis examples (small: the audit above fetches every path deterministically already).
SCHEMATHESIS_EXAMPLES = 8


def test_api_schema_as_another_player(world, frozen, django_capture_on_commit_callbacks):
    """Schemathesis against ``/api/schema/`` with Gleb's DRF token, on the "Canaries" game in Night 2 (the
    private post, the room, Lev's and Nina's delivered secrets exist): no 5xx, responses conform to the schema, no
    2xx on another player's private objects (Lev's notifications, the room Gleb is not in, Nina's post to edit),
    and no canary Gleb may not read in any successful response."""
    import schemathesis
    from rest_framework.authtoken.models import Token

    la.canaries_game(world)
    la.day_1(world, frozen, django_capture_on_commit_callbacks)
    la.night_2(world, frozen, django_capture_on_commit_callbacks)
    game, users = world.game, world.users
    token = Token.objects.create(user=users["gleb"]).key
    lev_notes = list(Notification.objects.filter(user=users["lev"]).values_list("pk", flat=True))
    assert lev_notes
    forbidden = {kind for kind in la.KINDS if "gleb" not in allowed(kind, "night_2")}
    values = {"id": game.pk, "post_id": world.ids["private_post"], "room": world.ids["room"],
              "signup_id": Signup.objects.values_list("pk", flat=True).first() or 1,
              "seat_id": world.seat("Olga").pk, "author": world.seat("Nina").pk}
    #: (method, path) of another player's private objects, and the master's console: never a 2xx for Gleb.
    private_ops = {("GET", "/api/games/{id}/fm/rooms/{room}/posts/"),
                   ("POST", "/api/games/{id}/fm/rooms/{room}/posts/"),
                   ("POST", "/api/inbox/{id}/read/"), ("PATCH", "/api/games/{id}/posts/{post_id}/")}
    private_ops |= {(method, path) for method, path in schema_operations() if "/console/" in path}

    with la.wsgi_app() as app:
        schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", app)
        problems, statuses, calls = _run_schemathesis(
            schema, token=token, values=values, inbox_id=lev_notes[0], private_ops=private_ops,
            forbidden={world.canaries[kind]: kind for kind in forbidden})
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {(op.method.upper(), op.path) for op in operations} >= private_ops
    assert calls >= len(operations)
    assert not problems, "\n".join(problems)
    # The calls reached the seeded objects: Gleb reads his game's log and thread; the private ones were refused.
    assert 200 in statuses[("GET", "/api/games/{id}/log/")] and 200 in statuses[("GET", "/api/games/{id}/posts/")]
    assert all(statuses[key] and not any(200 <= code < 300 for code in statuses[key]) for key in private_ops)


def _run_schemathesis(schema, *, token: str, values: dict, inbox_id: int, private_ops: set, forbidden: dict):
    """Every operation of ``schema``, :data:`SCHEMATHESIS_EXAMPLES` cases each, called with DRF ``token``; path
    parameters set to ``values`` by name (``inbox_id`` for ``/api/inbox/{id}/``); ``forbidden``: canary → kind
    that must not be in a 2xx answer. Returns ``(problems, statuses by operation, calls)``."""
    from hypothesis import HealthCheck, Phase, given, settings
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

    problems: list[str] = []
    statuses: dict[tuple[str, str], set[int]] = {}
    calls = 0

    def run(operation) -> None:
        key = (operation.method.upper(), operation.path)

        @settings(max_examples=SCHEMATHESIS_EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
        @given(case=operation.as_strategy())
        def call(case):
            nonlocal calls
            calls += 1
            for name in case.path_parameters or {}:
                case.path_parameters[name] = (inbox_id if key[1].startswith("/api/inbox/")
                                              else values.get(name, case.path_parameters[name]))
            response = case.call_and_validate(
                headers={"Authorization": f"Token {token}"},
                checks=[not_a_server_error, response_schema_conformance, content_type_conformance])
            statuses.setdefault(key, set()).add(response.status_code)
            if 200 <= response.status_code < 300:
                if key in private_ops:
                    problems.append(f"{key}: {response.status_code} for Gleb with {case.path_parameters}")
                leaked = {kind for canary, kind in forbidden.items() if canary in response.text}
                if leaked:
                    problems.append(f"{key}: {sorted(leaked)} canary in Gleb's {response.status_code} response")

        try:
            call()
        except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - every operation's failure is reported
            for failure in getattr(exc, "exceptions", [exc]):
                problems.append(f"{key}: {' / '.join(str(failure).splitlines()[:3])}")

    for result in schema.get_all_operations():
        run(result.ok())
    return problems, statuses, calls
