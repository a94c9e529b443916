"""Issue 25: the figures of ``manage.py gm_bench`` measured **as ratios against a floor taken in the same run**.

This machine is shared, so absolute times drift from run to run (a resolution took 15 ms in a quiet minute and
41 ms in a loaded one). Each figure here is sampled *interleaved* with its floor — one floor sample, then one sample
of each thing measured, again and again — and reported as medians beside that floor, so the ratio holds whatever
the load was:

* :func:`pg_floor_once` — the database floor of a resolution: the same write shape as one real resolution (lock the
  phase and its seats, insert the log rows it wrote, update the seats, write the phase with its state and result
  JSON, COMMIT) in raw SQL over the same connection;
* :func:`resolutions` — ``services.phase_resolve`` interleaved with that floor, for forum Mafia (16 players, every
  player's order) and for every other registered module (its bots' table size, no orders);
* :func:`resolution_growth` — forum Mafia at 8, 16, 32 and 40 players, interleaved;
* :func:`page_floor_once` — a bare authenticated view through the same middleware and test client
  (:mod:`gm.modules.forum_mafia.bench.urls`);
* :func:`page_growth` and :func:`big_page` — the game page at 100, 1,000 and 10,000 posts, 10 and 60 phases, 0 and
  40 chat rooms, and on a big game (16 seats, 60 phases, 2,000 posts, 300 private messages, 40 rooms), interleaved
  with the bare view.

Times are milliseconds. Nothing here asserts a speed: the test suite only checks the keys exist and the query counts.
"""
from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext, override_settings
from django.utils import timezone

from . import table


def median(samples: Sequence[float]) -> float:
    """The median of ``samples`` (0.0 when empty)."""
    return statistics.median(samples) if samples else 0.0


def interleave(runs: int, probes: dict[str, Callable[[int], float]]) -> dict[str, list[float]]:
    """Call every probe of ``probes`` (name → ``probe(run_index)`` returning milliseconds) once per run, in turn,
    ``runs`` times; name → its samples. A load spike then hits a floor sample and its figure alike."""
    out: dict[str, list[float]] = {name: [] for name in probes}
    for i in range(runs):
        for name, probe in probes.items():
            out[name].append(probe(i))
    return out


# -- the database floor of a resolution -----------------------------------------------------------------------


@dataclass(frozen=True)
class WriteShape:
    """What one resolution wrote, read back from the database: its log rows (``(visibility, seat_id, group,
    kind, data JSON)``), each seat's ``(data JSON, alive)`` and the phase's ``state`` and ``result`` JSON."""

    log_rows: list[tuple]
    seats: list[tuple[str, bool]]
    state_json: str
    result_json: str


def shape_of(phase_id: int) -> WriteShape:
    """The :class:`WriteShape` of resolved phase ``phase_id`` (its log rows, its game's seats, its stored JSON)."""
    from gm.core.models import LogEntry, Phase, Seat

    phase = Phase.objects.get(pk=phase_id)
    rows = [(v, s, g, k, json.dumps(d, ensure_ascii=False)) for v, s, g, k, d in
            LogEntry.objects.filter(phase_id=phase_id).order_by("id")
            .values_list("visibility", "seat_id", "group", "kind", "data")]
    seats = [(json.dumps(d, ensure_ascii=False), a) for d, a in
             Seat.objects.filter(game_id=phase.game_id).order_by("position").values_list("data", "alive")]
    return WriteShape(log_rows=rows, seats=seats, state_json=json.dumps(phase.state, ensure_ascii=False),
                      result_json=json.dumps(phase.result, ensure_ascii=False))


@dataclass(frozen=True)
class FloorTarget:
    """The rows :func:`pg_floor_once` writes: an open phase of a scratch game and that game's seats (as many as
    the shape's)."""

    game_id: int
    phase_id: int
    seat_ids: list[int]


def floor_target(phase) -> FloorTarget:
    """A :class:`FloorTarget` on ``phase`` (an open phase of a game nobody resolves)."""
    from gm.core.models import Seat

    return FloorTarget(game_id=phase.game_id, phase_id=phase.pk,
                       seat_ids=list(Seat.objects.filter(game_id=phase.game_id).order_by("position")
                                     .values_list("pk", flat=True)))


def pg_floor_once(target: FloorTarget, shape: WriteShape) -> float:
    """One floor sample, in milliseconds: BEGIN; lock the phase; lock the seats; one INSERT of the shape's log
    rows (one JSON parameter); one UPDATE of every seat's data and alive; one UPDATE of the phase's state, result,
    digest and resolved time; COMMIT — raw SQL over Django's connection (the same one the resolutions use)."""
    from gm.core.models import LogEntry, Phase, Seat

    q = connection.ops.quote_name
    phase_t, seat_t, log_t = (q(m._meta.db_table) for m in (Phase, Seat, LogEntry))
    seats = list(zip(target.seat_ids, shape.seats, strict=False))
    now = timezone.now()
    # The log rows as one JSON parameter (the cheapest insert of ~100 rows of JSON known here; log_write's). The
    # shape's seat ids are another game's: its rows point at the target's seats (or none) instead.
    log_json = "[" + ",".join(
        json.dumps({"game_id": target.game_id, "phase_id": target.phase_id, "visibility": visibility,
                    "seat_id": target.seat_ids[seat % len(target.seat_ids)] if seat is not None else None,
                    "group": group, "kind": kind, "created_at": now.isoformat()})[:-1] + f',"data":{data}}}'
        for visibility, seat, group, kind, data in shape.log_rows) + "]"
    seat_params: list[Any] = []
    for seat_id, (data, alive) in seats:
        seat_params += [seat_id, data, alive]
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT id FROM {phase_t} WHERE id = %s FOR UPDATE", [target.phase_id])
        cursor.execute(f"SELECT id FROM {seat_t} WHERE game_id = %s ORDER BY position FOR UPDATE", [target.game_id])
        if shape.log_rows:
            cursor.execute(f'INSERT INTO {log_t} (game_id, phase_id, visibility, seat_id, "group", kind, data, '
                           f"created_at) SELECT r.game_id, r.phase_id, r.visibility, r.seat_id, r.\"group\", r.kind, "
                           f"r.data, r.created_at FROM jsonb_array_elements(%s::jsonb) AS e(row), "
                           f"jsonb_populate_record(NULL::{log_t}, e.row) AS r", [log_json])
        if seats:
            values = ", ".join(["(%s, %s::jsonb, %s)"] * len(seats))
            cursor.execute(f"UPDATE {seat_t} AS s SET data = v.data, alive = v.alive, version = s.version + 1 "
                           f"FROM (VALUES {values}) AS v(id, data, alive) WHERE s.id = v.id", seat_params)
        cursor.execute(f"UPDATE {phase_t} SET state = %s::jsonb, result = %s::jsonb, result_digest = %s, "
                       f"resolved_at = %s WHERE id = %s",
                       [shape.state_json, shape.result_json, "0" * 64, now, target.phase_id])
    return (time.perf_counter() - started) * 1e3


# -- resolutions ----------------------------------------------------------------------------------------------


@dataclass
class Table:
    """Games ready to resolve (their open phases claimed) and the floor target of the same module and size."""

    slug: str
    phases: list  # claimed Phase rows, each of its own game
    tokens: list
    clock: Callable[[], Any]
    target: FloorTarget | None = None
    shape: WriteShape | None = None


def fm_table(people, *, players: int, games: int, orders: bool = True) -> Table:
    """``games`` forum Mafia Night 1 phases of ``players`` (every player's order when ``orders``), claimed, and one
    more game as the floor's target."""
    from gm.core import services

    from .figures import no_publish

    users = people.users(players)
    with no_publish():
        nights = []
        for g in range(games + 1):
            game, phase = table.db_night(people.master, users, title=f"bench floor {players}/{g}")
            if orders and g < games:
                table.submit_orders(game, phase)
            nights.append(phase)
    target = floor_target(nights.pop())
    past = max(p.deadline for p in nights)
    clock = lambda: past  # noqa: E731 - every phase is due
    tokens = [services.phase_claim(phase_id=p.pk, clock=clock) for p in nights]
    return Table(slug="forum_mafia", phases=nights, tokens=tokens, clock=clock, target=target)


def module_table(people, slug: str, *, games: int) -> Table | None:
    """``games`` started games of module ``slug`` at its bots' default table size (``Policy.default_players``),
    their first phases claimed (nobody orders), and one more as the floor's target; ``None`` for a module without
    bots (nothing says how to start its game)."""
    from gm.core import registry, services
    from gm.core.models import Phase

    from .figures import no_publish

    policy = registry.get(slug).bot_policy()
    if policy is None:
        return None
    users = people.users(policy.default_players)
    phases = []
    with no_publish():
        for g in range(games + 1):
            game = policy.create_game(master=people.master, title=f"bench {slug} {g}", seed=g + 1, deadline=600,
                                      players=len(users))
            for i, user in enumerate(users):
                services.seat_join(game=game, user=user, display_name=f"Bench {i + 1}")
            services.game_start(game=game, actor=people.master)
            phases.append(Phase.objects.get(game=game, status=Phase.Status.OPEN))
    target = floor_target(phases.pop())
    past = max(p.deadline for p in phases)
    clock = lambda: past  # noqa: E731
    tokens = [services.phase_claim(phase_id=p.pk, clock=clock) for p in phases]
    return Table(slug=slug, phases=phases, tokens=tokens, clock=clock, target=target)


def resolve_once(tab: Table, index: int) -> float:
    """Resolve ``tab``'s ``index``-th claimed phase (``services.phase_resolve``); milliseconds. The first one
    resolved also gives the table its floor shape."""
    from gm.core import services

    from .figures import no_publish

    phase = tab.phases[index]
    with no_publish():
        started = time.perf_counter()
        if services.phase_resolve(phase_id=phase.pk, token=tab.tokens[index], clock=tab.clock) is None:
            raise RuntimeError(f"{tab.slug}: phase {phase.pk} did not resolve")
        elapsed = (time.perf_counter() - started) * 1e3
    if tab.shape is None:
        tab.shape = shape_of(phase.pk)
    return elapsed


def resolutions(people, *, runs: int, slugs: Sequence[str]) -> dict[str, float]:
    """Per module of ``slugs``: resolution medians interleaved with its floor (one warm-up of each first).
    Keys: ``pg_floor_ms`` and ``resolution_16p_ms_median`` (forum Mafia, 16 players with orders — the floor of
    issue 25's goal 1), ``resolution_16p_floor_ratio``, and per module ``resolution_ms_median_<slug>``,
    ``pg_floor_ms_<slug>`` (the same write shape as that module's resolution) and ``resolution_floor_ratio_<slug>``."""
    out: dict[str, float] = {}
    tables = []
    for slug in slugs:
        tab = fm_table(people, players=16, games=runs + 1) if slug == "forum_mafia" else module_table(
            people, slug, games=runs + 1)
        if tab is None:
            continue
        resolve_once(tab, 0)  # warm-up, and the shape of the floor
        pg_floor_once(tab.target, tab.shape)
        tables.append(tab)
    probes: dict[str, Callable[[int], float]] = {}
    for tab in tables:
        probes[f"floor:{tab.slug}"] = lambda i, tab=tab: pg_floor_once(tab.target, tab.shape)
        probes[f"resolve:{tab.slug}"] = lambda i, tab=tab: resolve_once(tab, i + 1)
    samples = interleave(runs, probes)
    for tab in tables:
        floor, resolve = median(samples[f"floor:{tab.slug}"]), median(samples[f"resolve:{tab.slug}"])
        out[f"pg_floor_ms_{tab.slug}"] = floor
        out[f"resolution_ms_median_{tab.slug}"] = resolve
        out[f"resolution_floor_ratio_{tab.slug}"] = resolve / floor if floor else 0.0
    if "forum_mafia" in slugs:
        out["pg_floor_ms"] = out["pg_floor_ms_forum_mafia"]
        out["resolution_16p_floor_ms_median"] = out["resolution_ms_median_forum_mafia"]
        out["resolution_16p_floor_ratio"] = out["resolution_floor_ratio_forum_mafia"]
    return out


def resolution_growth(people, *, runs: int, sizes: Sequence[int] = (8, 16, 32, 40)) -> dict[str, float]:
    """Forum Mafia resolutions (every player's order) at each table size of ``sizes``, interleaved with the database
    floor of each size (:func:`pg_floor_once`: the same write shape as that size's resolution); keys
    ``resolution_<n>p_growth_ms_median``, ``pg_floor_<n>p_ms_median``, ``resolution_growth_40_over_8`` (the
    largest size's median over the smallest's) and ``pg_floor_growth_40_over_8`` (the same of the floor: how much of
    the growth is the rows and JSON a bigger table writes, whatever writes them)."""
    tables = {n: fm_table(people, players=n, games=runs + 1) for n in sizes}
    for tab in tables.values():
        resolve_once(tab, 0)  # warm-up, and the shape of the floor
        pg_floor_once(tab.target, tab.shape)
    probes: dict[str, Callable[[int], float]] = {}
    for n, tab in tables.items():
        probes[f"floor:{n}"] = lambda i, tab=tab: pg_floor_once(tab.target, tab.shape)
        probes[str(n)] = lambda i, tab=tab: resolve_once(tab, i + 1)
    samples = interleave(runs, probes)
    out = {f"resolution_{n}p_growth_ms_median": median(samples[str(n)]) for n in sizes}
    out |= {f"pg_floor_{n}p_ms_median": median(samples[f"floor:{n}"]) for n in sizes}
    for prefix, key in (("resolution_{}p_growth_ms_median", "resolution_growth_40_over_8"),
                        ("pg_floor_{}p_ms_median", "pg_floor_growth_40_over_8")):
        smallest, largest = out[prefix.format(min(sizes))], out[prefix.format(max(sizes))]
        out[key] = largest / smallest if smallest else 0.0
    return out


# -- pages ----------------------------------------------------------------------------------------------------


BARE_URL = "/_bench/bare/"


def _client(user):
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    if user is not None:
        client.force_login(user)
    return client


def _get(client, url: str) -> tuple[float, int]:
    connection.queries_log.clear()
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    elapsed = (time.perf_counter() - started) * 1e3
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")
    return elapsed, len(ctx.captured_queries)


def add_posts(game, users, *, posts: int, private: int = 0) -> None:
    """``posts`` thread posts in ``game`` (spread over its phases and seats, one bulk insert), ``private`` of them
    with a private part (FM-9.2) to the next seat."""
    from gm.core.models import Phase, Post, PostPrivate

    seats = list(game.seats.order_by("position"))
    by_user = {s.user_id: s for s in seats}
    phases = list(Phase.objects.filter(game=game).order_by("ordinal").values_list("pk", flat=True)) or [None]
    start = timezone.now() - timedelta(days=1)
    made = Post.objects.bulk_create([
        Post(game=game, author=users[i % len(users)], seat=by_user.get(users[i % len(users)].pk),
             phase_id=phases[i * len(phases) // posts], body=f"Bench post {i} " + "word " * 20)
        for i in range(posts)])
    # auto_now_add set every created_at to now: spread them so the thread's order is the insert order.
    for i, post in enumerate(made):
        post.created_at = start + timedelta(seconds=i)
    Post.objects.bulk_update(made, ["created_at"], batch_size=2000)
    step = max(1, posts // max(1, private))
    PostPrivate.objects.bulk_create([
        PostPrivate(post=post, recipient=seats[(seats.index(post.seat) + 1) % len(seats)] if post.seat else seats[0],
                    text=f"Private {i}") for i, post in enumerate(made[::step][:private])])


def add_rooms(game, *, rooms: int) -> None:
    """``rooms`` closed chat rooms (FM-9.3) of two neighbours each in ``game``'s state, their groups and two posts
    each."""
    from gm.core.models import Game, GroupMembership, Phase

    from ..models import RoomPost
    from ..services.rooms import SLUG_PREFIX

    game.refresh_from_db()
    seats = list(game.seats.order_by("position"))
    last = Phase.objects.filter(game=game, status=Phase.Status.RESOLVED).order_by("-ordinal").first()
    until = max(1, (last.ordinal if last else 1) - 1)
    state = game.state
    made = state.setdefault("fm", {}).setdefault("rooms", {})
    members, posts = [], []
    for r in range(rooms):
        slug = f"{SLUG_PREFIX}{r // 4 + 1}-{r % 4 + 1}"
        pair = [seats[r % len(seats)], seats[(r + 1) % len(seats)]]
        made[slug] = {"members": [s.pk for s in pair], "until": until}
        members += [GroupMembership(game=game, seat=s, group=slug) for s in pair]
        posts += [RoomPost(game=game, room=slug, author_id=s.user_id, seat=s, body=f"Room post in {slug}",
                           created_at=timezone.now()) for s in pair]
    Game.objects.filter(pk=game.pk).update(state=state)
    GroupMembership.objects.bulk_create(members, ignore_conflicts=True)
    RoomPost.objects.bulk_create(posts)
    game.refresh_from_db()


def _orders_everywhere(game, user) -> None:
    """``user`` ordered in every resolved phase of ``game`` (his Night 1 order again: a player's results panel shows,
    per phase, the order that counted), as a player who plays every phase has."""
    from gm.core.models import Order, Phase

    seat = game.seats.get(user=user)
    first = Order.objects.filter(seat=seat).order_by("version").first()
    if first is None:
        return
    Order.objects.bulk_create([
        Order(phase=phase, seat=seat, version=1, payload=first.payload, submitted_by=user, created_at=phase.deadline)
        for phase in Phase.objects.filter(game=game, status=Phase.Status.RESOLVED).exclude(pk=first.phase_id)])


def page_game(people, *, phases: int, posts: int, rooms: int = 0, private: int = 0):
    """A 16-player forum Mafia game after ``phases`` resolutions with ``posts`` thread posts (``private`` of them
    private messages) and ``rooms`` closed chat rooms; returns ``(game, viewers)`` — viewer name → user."""
    from .figures import long_game

    game, users = long_game(people, players=16, phases=phases, posts_per_phase=0)
    _orders_everywhere(game, users[0])
    add_posts(game, users, posts=posts, private=private)
    if rooms:
        add_rooms(game, rooms=rooms)
    return game, {"player": users[0], "master": people.master, "spectator": people.users(1)[0]}


def bare_view(request):
    """The floor of a page: a logged-in view that renders nothing (the session, the user, the middleware)."""
    from django.http import HttpResponse

    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    return HttpResponse(f"ok {request.user.pk}", content_type="text/plain")


def _page_probes(games: dict[str, tuple[Any, dict]], floor_user, *, cold: bool = False) -> tuple[dict, dict]:
    """Probes for :func:`interleave`: ``floor`` (the bare view) and ``<game>:<viewer>`` for every game and viewer;
    and name → the query counts of its requests (filled as the probes run). ``cold``: before each request
    (untimed) the game's page stamp moves, as when someone else has just written in it, so the page is rendered
    rather than served kept (``gm.core.page_cache``)."""
    from gm.core.bench import move_stamp

    floor_client = _client(floor_user)
    queries: dict[str, list[int]] = {}

    def probe(name: str, client, url: str, game_id: int | None = None) -> Callable[[int], float]:
        def run(i: int) -> float:
            if game_id is not None:
                move_stamp(game_id)
            elapsed, count = _get(client, url)
            queries.setdefault(name, []).append(count)
            return elapsed
        return run

    probes = {"floor": probe("floor", floor_client, BARE_URL)}
    for key, (game, viewers) in games.items():
        for viewer, user in viewers.items():
            probes[f"{key}:{viewer}"] = probe(f"{key}:{viewer}", _client(user), game.get_absolute_url(),
                                              game.pk if cold else None)
    return probes, queries


def _measure_pages(games: dict[str, tuple[Any, dict]], floor_user, runs: int, *,
                   cold: bool = False) -> tuple[dict, dict]:
    with override_settings(ROOT_URLCONF="gm.modules.forum_mafia.bench.urls"):
        probes, queries = _page_probes(games, floor_user, cold=cold)
        for run in probes.values():  # warm-up: templates, translations, the first request's imports
            run(0)
        queries.clear()
        samples = interleave(runs, probes)
    # Rendered: the usual count. Kept: the fewest — a run may straddle the cache's clock bucket once and render, and
    # a spectator's first look (written down for the master's fair-play flags) moves the stamp once.
    count = statistics.mode if cold else min
    return ({name: median(values) for name, values in samples.items()},
            {name: count(counts) for name, counts in queries.items()})


def page_growth(people, *, runs: int, posts: Sequence[int] = (100, 1000, 10000), phases: Sequence[int] = (10, 60),
                rooms: Sequence[int] = (0, 40)) -> dict[str, float]:
    """The game page (player, master, spectator) at each size — posts (with ``phases[0]`` phases and no rooms),
    phases (with ``posts[0]`` posts), rooms — interleaved with the bare view. Keys: ``page_floor_ms``,
    ``page_growth_10000_over_100``, ``page_growth_60_over_10_phases``, ``page_growth_40_over_0_rooms`` (the worst
    viewer's largest size's median over its smallest's), ``page_queries_max`` and ``page_queries_equal`` (1 when
    every viewer's query count is the same at every size). Every request is rendered (``cold``: the game's stamp
    moves before it): the growth is the rendering's; a kept page costs the same at every size."""
    games: dict[str, tuple[Any, dict]] = {}
    base = page_game(people, phases=phases[0], posts=posts[0])
    games[f"posts{posts[0]}"] = base
    for n in posts[1:]:
        games[f"posts{n}"] = page_game(people, phases=phases[0], posts=n)
    for n in phases[1:]:
        games[f"phases{n}"] = page_game(people, phases=n, posts=posts[0])
    for n in rooms[1:]:
        games[f"rooms{n}"] = page_game(people, phases=phases[0], posts=posts[0], rooms=n)
    medians, queries = _measure_pages(games, people.users(1)[0], runs, cold=True)
    viewers = list(base[1])

    def growth(large: str) -> float:
        small = f"posts{posts[0]}"
        return max(medians[f"{large}:{v}"] / medians[f"{small}:{v}"] for v in viewers)

    out = {"page_floor_ms": medians["floor"],
           "page_growth_10000_over_100": growth(f"posts{posts[-1]}"),
           "page_growth_60_over_10_phases": growth(f"phases{phases[-1]}"),
           "page_growth_40_over_0_rooms": growth(f"rooms{rooms[-1]}")}
    for v in viewers:
        out[f"page_ms_{v}_posts{posts[0]}"] = medians[f"posts{posts[0]}:{v}"]
        out[f"page_ms_{v}_posts{posts[-1]}"] = medians[f"posts{posts[-1]}:{v}"]
    page_counts = {name: count for name, count in queries.items() if name != "floor"}
    per_viewer = {v: {c for name, c in page_counts.items() if name.endswith(f":{v}")} for v in viewers}
    out["page_queries_max"] = max(page_counts.values())
    out["page_queries_equal"] = int(all(len(counts) == 1 for counts in per_viewer.values()))
    return out


def big_page(people, *, runs: int, phases: int = 60, posts: int = 2000, private: int = 300,
             rooms: int = 40) -> dict[str, float]:
    """The game page of a big game (16 seats, ``phases`` phases, ``posts`` posts of which ``private`` private
    messages, ``rooms`` chat rooms) per viewer, interleaved with the bare view, twice: as the viewer gets it
    again while nothing in the game changed (the kept page, ``gm.core.page_cache``): ``game_page_big_ms_<viewer>``,
    ``game_page_big_queries_<viewer>``, ``game_page_big_floor_ratio_<viewer>`` against ``page_big_floor_ms``; and
    right after someone else wrote in the game (rendered): ``game_page_big_cold_ms_<viewer>``,
    ``game_page_big_cold_queries_<viewer>``, ``game_page_big_cold_floor_ratio_<viewer>`` against
    ``page_big_cold_floor_ms``."""
    game = page_game(people, phases=phases, posts=posts, private=private, rooms=rooms)
    out = {}
    for cold, tag in ((False, ""), (True, "cold_")):
        medians, queries = _measure_pages({"big": game}, people.users(1)[0], runs, cold=cold)
        out[f"page_big_{tag}floor_ms"] = medians["floor"]
        for viewer in game[1]:
            out[f"game_page_big_{tag}ms_{viewer}"] = medians[f"big:{viewer}"]
            out[f"game_page_big_{tag}queries_{viewer}"] = queries[f"big:{viewer}"]
            out[f"game_page_big_{tag}floor_ratio_{viewer}"] = medians[f"big:{viewer}"] / medians["floor"]
    return out
