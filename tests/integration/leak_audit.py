"""Helpers of the leak audit (``test_leak_audit.py``, issue 9 item 4): canary strings seeded into every kind of
secret, the two forum Mafia games that carry them through every stage, and the enumeration of every URL of the
URLconf filled with the seeded objects' ids.

The games (rings in list order)::

    game "Signups" (signup, then deck building; FM-2, FM-4):
        Olga, Lev, Nina, Gleb, Ivan and Boris sign up; Olga's messengers («Внешность», FM-2.1) are a canary; the
        master rejects Ivan's signup with a reason (REJECTED canary, FM-2.5).

    game "Canaries" (the master's override, from Night 1; FM-9):
        0 Olga   operator    mafia_advisor   alive   letter in the Sleeve
        1 Lev    custom      sheriff         alive
        2 Nina   custom      mafia_killer    alive
        3 Gleb   custom      commissioner    alive   (the other player: in nothing)
        4 Boris  custom      mafia_boss      dead
        5 Ivan   custom      detective       dead    (the dead player)

    Night 1: Olga orders a letter to Lev (first version: the PENDING canary, then changed to the LETTER canary)
    and the Mafia message to Nina (MAFIA canary); the master extends the deadline with a reason (AUDIT canary: his
    audit log). Day 1: Nina writes a private message to her neighbour Lev
    (PRIVATE canary, FM-9.2); Olga, Lev and Nina agree on a chat room (FM-9.3). Night 2: Nina writes in the room
    (ROOM canary); Lev and Gleb shoot Olga and Nina (one card each in the Hand), the Law wins: finished (FM-10.1).

Pure at import apart from Django's URL machinery; the scenario functions need the database.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta

from django.urls import URLPattern, URLResolver, get_resolver

#: Canary kinds, in the order the report lists them.
KINDS = ("MESSENGERS", "REJECTED", "PENDING", "LETTER", "MAFIA", "PRIVATE", "ROOM", "AUDIT", "REPLACE", "PRODDED")

#: The master-only log line of a prod (issue 23), as the English pages render it after the player's name: which
#: seats were prodded is the master's (until the game is over), so the line itself is the PRODDED "canary".
PRODDED_LINE = "has been quiet for a while and was prodded"

#: The viewers: the master, the players by name, a spectator and an anonymous visitor. Which viewer kind each is
#: depends on the game (Ivan is dead in "Canaries" only).
VIEWERS = ("master", "olga", "lev", "nina", "gleb", "ivan", "spectator", "anonymous")


def new_canaries() -> dict[str, str]:
    """One unique random string per kind (lowercase hex: no markup, escaping or URL rule changes it)."""
    canaries = {kind: f"cnr{kind.lower()}{secrets.token_hex(8)}" for kind in KINDS}
    canaries["PRODDED"] = PRODDED_LINE
    return canaries


# -- the URLconf ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """One URL pattern: its full regex (for display), its qualified name, and the names of its parameters."""

    pattern: str
    name: str
    params: tuple[str, ...]

    @property
    def format_suffix(self) -> bool:
        """DRF's ``<path>.<format>`` twin of another pattern (same view, same data)."""
        return "format" in self.params

    @property
    def legacy_twin(self) -> str | None:
        """For a path first published outside a module's prefix (``forum_mafia:legacy_…``: the same view with the
        deprecation headers), the name of its successor; else ``None``."""
        app, _, name = self.name.rpartition(":")
        return f"{app}:{name.removeprefix(LEGACY)}" if name.startswith(LEGACY) else None


#: Patterns without game data, left out of the audit: Django's admin (staff only: none of our viewers), the
#: media files (served in DEBUG only), allauth's pages keyed by an e-mail or password-reset key, and /health/ (counts
#: only; it answers 500 by design here, where no Celery worker answers its ping).
SKIPPED_PREFIXES = ("admin/", "^media/", "health/")
#: The name prefix of a legacy path (see :attr:`Route.legacy_twin`).
LEGACY = "legacy_"
SKIPPED_PARAMS = {"key", "uidb36", "path"}


def _walk(patterns, prefix: str = "", namespaces: tuple[str, ...] = (), params: tuple[str, ...] = ()
          ) -> Iterator[Route]:
    for p in patterns:
        if isinstance(p, URLResolver):  # an include(): its own prefix may hold parameters (games/<int:pk>/)
            ns = namespaces + ((p.namespace,) if p.namespace else ())
            yield from _walk(p.url_patterns, prefix + str(p.pattern), ns, params + tuple(p.pattern.regex.groupindex))
        elif isinstance(p, URLPattern) and p.name:
            yield Route(prefix + str(p.pattern), ":".join((*namespaces, p.name)),
                        params + tuple(p.pattern.regex.groupindex))


def routes() -> list[Route]:
    """Every named URL pattern of the root URLconf except :data:`SKIPPED_PREFIXES` / :data:`SKIPPED_PARAMS`
    (the walk itself is programmatic: a new pattern is audited without editing the test)."""
    out = []
    for route in _walk(get_resolver().url_patterns):
        if route.pattern.startswith(SKIPPED_PREFIXES) or SKIPPED_PARAMS & set(route.params):
            continue
        out.append(route)
    return out


def schema_path_regex(path: str) -> re.Pattern:
    """An OpenAPI path template (``/api/games/{id}/log/``) as a regex matching the concrete URLs it stands for."""
    parts = re.split(r"(\{[^}]+\})", path)
    return re.compile("^" + "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


@contextmanager
def htmx_readers() -> Iterator[list[str]]:
    """Inside the block, the paths of the requests whose handling read one of htmx's request headers (``HX-Request``
    and the others, all read through django-htmx's ``request.htmx``, the only way the site reads them): the list
    yielded fills as they are read. A view that never reads them answers an htmx request as it answers a plain one,
    so the leak audit's htmx pass asks again only where they were read."""
    from django_htmx.middleware import HtmxDetails

    read: list[str] = []
    original = HtmxDetails._get_header_value

    def recording(self, name: str):
        read.append(self.request.path)
        return original(self, name)

    HtmxDetails._get_header_value = recording
    try:
        yield read
    finally:
        HtmxDetails._get_header_value = original


# -- the WSGI application for schemathesis -----------------------------------------------------------------------


@contextmanager
def wsgi_app():
    """Django's WSGI application, for schemathesis' WSGI transport inside a test's transaction: like Django's test
    client, it must not close the database connection at the start and end of each request (it would close the
    test's transaction with it on PostgreSQL)."""
    from django.core import signals
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


# -- the scenario -----------------------------------------------------------------------------------------------


HAND = ["pistol", "witness", "advice", "tail", "bluff", "coffee"]
DECK = ["coffee", "pistol", "bunker", "witness", "advice", "tail", "hack", "bluff", "reserve", "dossier"]
#: name, public role, secret role, alive, Hand, Sleeve
TABLE = [
    ("Olga", "operator", "mafia_advisor", True, ["tail"], ["letter"]),
    ("Lev", {"custom": "Baker"}, "sheriff", True, list(HAND), []),
    ("Nina", {"custom": "Miller"}, "mafia_killer", True, ["tail"], []),
    ("Gleb", {"custom": "Smith"}, "commissioner", True, list(HAND), []),
    ("Boris", {"custom": "Tailor"}, "mafia_boss", False, list(HAND), []),
    ("Ivan", {"custom": "Cooper"}, "detective", False, list(HAND), []),
]


@dataclass
class World:
    """Both games, the users (by viewer name; ``anonymous`` is ``None``) and the ids the URLs are filled with."""

    canaries: dict[str, str]
    users: dict
    signups_game: object = None
    game: object = None
    ids: dict = field(default_factory=dict)  # parameter name → value(s) for the current game

    def seat(self, name: str):
        return self.game.seats.get(display_name=name)


def make_users(make_user, master, spectator) -> dict:
    from gm.inbox import services as inbox

    users = {"master": master, "spectator": spectator, "anonymous": None}
    for name in VIEWERS:
        if name not in users:
            users[name] = make_user(name)
    users["boris"] = make_user("boris")
    for user in users.values():
        if user is not None:  # e-mail on: every result e-mail lands in mail.outbox and is audited too
            inbox.settings_set(user=user, email=True)
    return users


def signups_game(world: World):
    """Stage ``signup``: the "Signups" game with five active signups, Olga's messengers a canary."""
    from gm.core import services as core
    from gm.modules.forum_mafia.services import signup as fm

    master = world.users["master"]
    game = core.game_create(master=master, module="forum_mafia", title="Signups", rng_seed=3)
    core.game_open_signup(game=game, actor=master)
    signups = {}
    for name, role in (("olga", "operator"), ("lev", "paranoid"), ("nina", "guard"), ("gleb", "secretary"),
                       ("ivan", "jock"), ("boris", "rich_man")):
        signups[name] = fm.signup_create(
            game=game, user=world.users[name], public_role=role, character_name=name.title(), pledges=True,
            messengers=f"tg:@{world.canaries['MESSENGERS']}" if name == "olga" else f"tg:@{name}")
    fm.signup_reject(game=game, actor=master, signup_id=signups["ivan"].pk,
                     reason=f"Not this time: {world.canaries['REJECTED']}")
    game.refresh_from_db()
    world.signups_game = game
    return game


def deck_building(world: World, frozen) -> None:
    """Stage ``deck building``: the master starts the "Signups" game (roles dealt, deck building open)."""
    from gm.core import services as core

    core.game_start(game=world.signups_game, actor=world.users["master"])
    world.signups_game.refresh_from_db()


def canaries_game(world: World):
    """Stage ``night``: the "Canaries" game in Night 1 with Olga's letter (two versions) and Mafia message."""
    from gm.core import services as core
    from gm.core.models import Phase
    from gm.modules.forum_mafia.services.overrides import game_setup_override

    master, c = world.users["master"], world.canaries
    game = core.game_create(master=master, module="forum_mafia", title="Canaries", rng_seed=17)
    players = [{"user": world.users[name.lower()], "name": name, "public_role": public, "secret_role": secret,
                "alive": alive, "hand": hand, "sleeve": sleeve, "deck": list(DECK)}
               for name, public, secret, alive, hand, sleeve in TABLE]
    game_setup_override(game=game, actor=master, players=players, start_kind="night", start_number=1)
    game.refresh_from_db()
    world.game = game
    night = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    lev, nina = world.seat("Lev").pk, world.seat("Nina").pk

    def order(letter: str) -> dict:
        return {"plays": [{"card": "letter", "from": "sleeve", "target": lev, "text": letter}],
                "abilities": [{"ability": "mafia_advisor", "mode": "message", "target": nina, "text": c["MAFIA"]}]}

    core.order_submit(phase=night, user=world.users["olga"], payload=order(c["PENDING"]))
    core.order_submit(phase=night, user=world.users["olga"], payload=order(c["LETTER"]))
    core.phase_extend(game=game, actor=master, minutes=30, reason=f"Waiting for Olga: {c['AUDIT']}")
    return game


def forum_life(world: World, frozen, capture) -> None:
    """Issue 23 in Night 1 of "Canaries": an hour later the living players (Olga, Lev, Nina, Gleb) are prodded (the
    master-only PRODDED line; their inbox); Olga asks privately to be replaced (REPLACE canary: her reason, for the
    master only) and the master acknowledges it, so her seat is on the public standby board."""
    from gm.core.services import activity, replacements

    game, master = world.game, world.users["master"]
    activity.activity_options_set(game=game, actor=master, changes={"prod_after": 1})
    frozen.shift(3601)
    with capture(execute=True):  # the prods reach the inbox once the sweep commits
        prodded = activity.activity_sweep()["prodded"]
    assert sorted(prodded) == sorted(world.seat(n).pk for n in ("Olga", "Lev", "Nina", "Gleb")), prodded
    request = replacements.replacement_request(game=game, user=world.users["olga"],
                                               reason=f"Moving house: {world.canaries['REPLACE']}")
    replacements.replacement_acknowledge(game=game, actor=master, request_id=request.pk)
    from tests.helpers import client_for

    board = client_for(None).get("/standby/").content.decode()
    assert "Olga" in board and "Canaries" in board, "the standby board lists Olga's seat (and is audited so)"


def resolve(world: World, frozen) -> None:
    """Resolve the open phase past its deadline, then run what the worker runs after it (notifications, e-mail,
    new rooms) — the same ``phase_notify_task`` body, called in place."""
    from gm.core import services as core
    from gm.core.models import Phase
    from gm.core.tasks import phase_notify_task

    phase = Phase.objects.get(game=world.game, status=Phase.Status.OPEN)
    frozen.move_to(phase.deadline + timedelta(seconds=1))
    assert core.phase_resolve_due(phase_id=phase.pk) is not None
    phase_notify_task(phase.pk)
    world.game.refresh_from_db()


def day_1(world: World, frozen, capture) -> None:
    """Stage ``day``: Night 1 resolved (letter and Mafia message delivered); Nina's private message to Lev; the
    room agreed by Olga, Lev and Nina."""
    from gm.core import services as core

    resolve(world, frozen)
    c, game, users = world.canaries, world.game, world.users
    with capture(execute=True):  # post_created runs on commit: the recipient's inbox
        world.ids["private_post"] = core.post_create(
            game=game, user=users["nina"], body=f'Good day.[private="Lev"]{c["PRIVATE"]}[/private]',
            comment="room: Olga, Lev").pk
        core.post_create(game=game, user=users["olga"], body="Agreed.", comment="room: Lev, Nina")
        core.post_create(game=game, user=users["lev"], body="Me too.", comment="room: Olga, Nina")


def night_2(world: World, frozen, capture) -> None:
    """Stage ``night 2``: Day 1 resolved (the room opens); Nina writes in it; Lev and Gleb order their shots."""
    from gm.core import services as core
    from gm.core import visibility
    from gm.core.models import Phase
    from gm.modules.forum_mafia.services import rooms as room_services

    resolve(world, frozen)
    rooms = room_services.room_list(visibility.viewer_for(world.users["master"], world.game))
    assert len(rooms) == 1, rooms
    world.ids["room"] = rooms[0].key
    room_services.room_post_create(game=world.game, user=world.users["nina"], room=rooms[0].key,
                                   body=f"In here: {world.canaries['ROOM']}")
    night = Phase.objects.get(game=world.game, status=Phase.Status.OPEN)
    for shooter, target in (("lev", "Olga"), ("gleb", "Nina")):
        core.order_submit(phase=night, user=world.users[shooter], payload={"plays": [
            {"card": "pistol", "from": "hand", "target": world.seat(target).pk}]})


def finish(world: World, frozen) -> None:
    """Stage ``finished``: Night 2 resolved; both living mafiosi die, the Law wins (FM-10.1)."""
    from gm.core.models import Game

    resolve(world, frozen)
    assert world.game.status == Game.Status.FINISHED, world.game.status
