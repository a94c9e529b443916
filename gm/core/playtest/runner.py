"""A playtest of any registered game module: a game with N bot players played to the end through the site's HTTP
interface against a running web server, Celery worker and beat (see :mod:`.stack`), with deadlines of a few seconds
resolved by the worker. :func:`play_game` sets the game up (the master's side, through the services), lets the
module's bots (its ``GameModule.bot_policy``, a :class:`~.policy.Policy`) take their seats and give orders over HTTP,
follows every phase to its resolution, and returns a :class:`GameReport`: phases, deaths per phase, winner,
resolution time per phase, refused requests by reason, and the exactly-once checks (one claim and one result per
phase, contiguous ordinals).

Faults can be injected while it plays: :class:`WorkerKiller` SIGKILLs the stack's worker whenever a phase is being
resolved (and starts a new one); ``outage`` stops a private Redis for a while during a phase.
"""
from __future__ import annotations

import random
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import datetime

from .client import Client, Tally
from .policy import Policy

#: Phases after which a game that has not ended is a failure.
DEFAULT_PHASE_CAP = 60


@dataclass
class PhaseReport:
    """One resolved phase: ``latency`` seconds from its deadline to its resolution, ``work`` seconds from the
    last claim to the resolution (the worker's own time), ``claims``, and the log entries that must exist once."""

    ordinal: int
    label: str
    kind: str
    deadline: datetime
    resolved_at: datetime | None
    claims: int
    latency: float | None
    work: float | None
    orders: int
    deaths: list[str]
    resolved_entries: int
    trace_entries: int
    kills: int = 0  # worker kills that landed while this phase was resolving


@dataclass
class GameReport:
    seed: int
    players: int
    game_id: int
    phases: list[PhaseReport] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    finished: bool = False
    draw: bool = False  # the game ended as a draw (forum Mafia: FM-10.H1)
    draw_rule: str = ""  # the rule ID of a draw, for the summary
    seconds: float = 0.0
    tally: Tally = field(default_factory=Tally)
    failures: list[str] = field(default_factory=list)
    kills: int = 0
    notes: list[str] = field(default_factory=list)
    #: ``--flaky-players``: seats whose quiet bot was prodded, and replaced by a standby bot (issue 23).
    prodded: int = 0
    replaced: int = 0

    @property
    def ok(self) -> bool:
        return self.finished and not self.failures

    def lines(self) -> list[str]:
        """The human summary."""
        draw = f"draw ({self.draw_rule})" if self.draw_rule else "draw"
        verdict = (draw if self.draw else f"winner: {', '.join(self.winners) or 'nobody'}") \
            if self.finished else "NO WINNER"
        out = [f"Playtest game {self.game_id} (seed {self.seed}, {self.players} players): {len(self.phases)} phases "
               f"in {self.seconds:.1f}s, {verdict}" + (f", worker killed {self.kills} times" if self.kills else "")]
        out.append(f"  {'phase':<16}{'deadline→resolved':>18}{'worker':>9}{'claims':>8}{'orders':>8}  deaths")
        for p in self.phases:
            out.append(f"  {p.label:<16}{_secs(p.latency):>18}{_secs(p.work):>9}{p.claims:>8}{p.orders:>8}  "
                       f"{', '.join(p.deaths) or '—'}")
        latencies = [p.latency for p in self.phases if p.latency is not None]
        if latencies:
            out.append(f"  resolution after the deadline: median {_secs(sorted(latencies)[len(latencies) // 2])}, "
                       f"max {_secs(max(latencies))}")
        done = ", ".join(f"{k} {v}" for k, v in sorted(self.tally.done.items()))
        out.append(f"  requests accepted: {done or '—'}")
        if self.tally.refused:
            out.append("  refused requests by reason (deliberate = the bot knew it was illegal):")
            for (deliberate, what, status, code, why), n in sorted(self.tally.refused.items(),
                                                                  key=lambda kv: (-kv[0][0], kv[0][1:])):
                tag = "deliberate" if deliberate else "chosen as legal"
                out.append(f"    {n:>3} × {what} → {status} {code}: {why or '(no reason!)'}  [{tag}]")
        out += [f"  note: {n}" for n in self.notes]
        out += [f"  FAILURE: {f}" for f in self.failures]
        return out


def _label(phase) -> str:
    """The phase's name in English (the summary's language): "Night 2"."""
    from django.utils import translation

    with translation.override("en"):
        return str(phase.label)


def _secs(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}s"


class WorkerKiller(threading.Thread):
    """SIGKILLs ``stack``'s worker the moment a phase of the watched games is ``resolving`` (polled every 5 ms),
    then starts a new worker and waits for it; ``limit`` kills in all, at most ``per_phase`` per phase (its
    reclaim by the sweep then runs undisturbed). ``hits`` counts kills per phase id."""

    def __init__(self, stack, *, limit: int, game_ids: Callable[[], list[int]], per_phase: int = 1):
        super().__init__(name="worker-killer", daemon=True)
        self.stack, self.limit, self.game_ids, self.per_phase = stack, limit, game_ids, per_phase
        self.kills = 0
        self.hits: Counter = Counter()
        self.stopping = threading.Event()
        self.errors: list[str] = []

    def run(self) -> None:
        from django.db import connection

        from gm.core.models import Phase

        killed: set = set()
        try:
            while self.kills < self.limit and not self.stopping.is_set():
                ids = self.game_ids()
                # A claim already killed stays ``resolving`` until the sweep reclaims it (a new token): only a
                # claim not yet killed is a resolution in progress.
                # Each phase is hit at most ``per_phase`` times, so that its reclaim can finish and the game goes on.
                resolving = [(pk, token) for pk, token in Phase.objects.filter(
                    game_id__in=ids, status=Phase.Status.RESOLVING).values_list("pk", "claim_token")
                    if (pk, token) not in killed and self.hits[pk] < self.per_phase] if ids else []
                if not resolving:
                    time.sleep(0.005)
                    continue
                self.stack.worker.kill()
                self.kills += 1
                for pk, token in resolving:
                    self.hits[pk] += 1
                    killed.add((pk, token))
                self.stack.start_worker(wait=True)
        except Exception as exc:  # noqa: BLE001 - reported by the caller
            self.errors.append(repr(exc))
        finally:
            connection.close()

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=90)


def make_users(n: int, tag: str):
    """A master allowed to host and ``n`` players, each with an API token (the setup, not a player's action)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token

    user_model = get_user_model()
    master = user_model.objects.create_user(username=f"{tag}-master", email=f"{tag}-master@example.com")
    master.user_permissions.add(Permission.objects.get(codename="host_game"))
    master = user_model.objects.get(pk=master.pk)
    players, tokens = [], []
    for i in range(n):
        user = user_model.objects.create_user(username=f"{tag}-p{i + 1}", email=f"{tag}-p{i + 1}@example.com")
        players.append(user)
        tokens.append(Token.objects.create(user=user).key)
    return master, players, tokens


def policy_for(slug: str) -> Policy:
    """The bot policy of game module ``slug``; raises ``LookupError`` for an unknown game or one without bots."""
    from gm.core import registry

    policy = registry.get(slug).bot_policy()
    if policy is None:
        raise LookupError(f"the game {slug!r} has no playtest bots")
    return policy


def play_game(*, game: str, base_url: str, players: int, seed: int, deadline: float,
              phase_cap: int = DEFAULT_PHASE_CAP, resolve_timeout: float = 60.0,
              log: Callable[[str], None] = lambda s: None, on_game: Callable[[int], None] | None = None,
              killer: WorkerKiller | None = None,
              outage: tuple[int, float, Callable[[], None], Callable[[], None]] | None = None,
              flaky: int = 0, all_ready: bool = False) -> GameReport:
    """Play one game of module ``game`` (its slug) with ``players`` bots to the end against the site at
    ``base_url``, whose worker and beat resolve the deadlines. The game's RNG seed and the bots' choices come from
    ``seed``; phases last about ``deadline`` seconds (as the module's policy sets them). A game still running after
    ``phase_cap`` phases, or a phase not resolved ``resolve_timeout`` seconds after its deadline, is a failure.

    ``on_game(game_id)`` is called once the game exists (the killer watches it). ``outage = (ordinal, seconds,
    stop, start)`` calls ``stop()`` when phase ``ordinal`` opens and ``start()`` ``seconds`` later.

    ``flaky`` bots go quiet after the first phase (issue 23): with the activity options ``prod_after`` 2 and
    ``prod_grace`` 1 (an "hour" is ``GM_ACTIVITY_HOUR`` seconds in the stack: about a phase), the site prods them,
    flags their seats for the standby board, and standby bots volunteer over HTTP; the master approves each, and the
    new bot plays the seat from then on (:func:`replace_flagged`).

    ``all_ready``: the master turns the game's "done" button on (issue 23) and each bot presses it once it has
    played a phase, so a phase ends as soon as every actor is done (:meth:`Policy.dispatch`)."""
    from gm.core import services
    from gm.core.models import Game, Phase

    policy = policy_for(game)
    policy.all_ready = all_ready
    started = time.monotonic()
    rng = random.Random(seed)
    tag = f"pt{seed}-{secrets.token_hex(3)}"
    master, users, tokens = make_users(players, tag)
    game_obj = policy.create_game(master=master, title=f"Playtest {tag}", seed=seed, deadline=deadline,
                                  players=players)
    report = GameReport(seed=seed, players=players, game_id=game_obj.pk, draw_rule=policy.draw_rule)
    if on_game:
        on_game(game_obj.pk)
    tally = report.tally
    bots: list[Client] = [policy.make_bot(base_url=base_url, game_id=game_obj.pk, index=i, token=tokens[i],
                                          rng=random.Random(rng.random()), tally=tally) for i in range(players)]
    policy.seat(game=game_obj, bots=bots, users=users)
    if all_ready:
        from gm.core.services import early_ends

        early_ends.early_end_options_set(game=game_obj, actor=master, hammer=False, all_ready=True,
                                         reason="playtest: bots press done")
    log(f"game {game_obj.pk}: {game_obj.seats.count()} seats signed up over HTTP")
    services.game_start(game=game_obj, actor=master)
    quiet: set[int] = set()
    standby: list = []
    if flaky:
        from gm.core.services import activity

        activity.activity_options_set(game=game_obj, actor=master, reason="playtest: flaky players", changes={
            "prod_after": 2, "prod_grace": 1, "replacement_min_time": 0})
        quiet = set(random.Random(seed + 1).sample(range(players), min(flaky, players)))
        _master, standby_users, standby_tokens = make_users(flaky + 2, f"{tag}-sb")
        standby = list(zip(standby_users, standby_tokens, strict=True))
        log(f"  bots {sorted(i + 1 for i in quiet)} will go quiet after the first phase")

    pool = ThreadPoolExecutor(max_workers=players, thread_name_prefix=f"bots-{game_obj.pk}")
    seen: set[int] = set()
    outage_done = outage is None
    try:
        while True:
            game_obj.refresh_from_db()
            if game_obj.status in (Game.Status.FINISHED, Game.Status.ABORTED):
                report.finished = game_obj.status == Game.Status.FINISHED
                break
            phase = game_obj.phases.exclude(status=Phase.Status.RESOLVED).order_by("ordinal").first()
            if phase is None:
                time.sleep(0.05)
                continue
            if phase.ordinal > phase_cap:
                report.failures.append(f"phase cap: still running after {phase_cap} phases")
                break
            if phase.pk in seen:
                time.sleep(0.05)
                continue
            seen.add(phase.pk)
            due = phase.deadline.timestamp()
            log(f"  {phase.kind} {phase.number} (ordinal {phase.ordinal}) opens, deadline in {due - time.time():.1f}s")
            if flaky:
                replace_flagged(game=game_obj, master=master, policy=policy, bots=bots, quiet=quiet,
                                standby=standby, base_url=base_url, tally=tally, rng=rng, report=report, log=log,
                                label=_label(phase))
            playing = [b for i, b in enumerate(bots) if not (i in quiet and phase.ordinal >= 2)]
            futures = policy.dispatch(pool, playing, game_obj, phase, due, rng)
            extra = 0.0
            if not outage_done and phase.ordinal >= outage[0]:
                outage_done = True
                _, seconds, stop, start = outage
                time.sleep(max(0.0, due - time.time()) / 2)
                log(f"  outage: stopping for {seconds:.0f}s")
                stop()
                report.notes.append(f"broker stopped for {seconds:.0f}s during {_label(phase)}")
                time.sleep(seconds)
                start()
                back = time.time()
                log("  outage over")
                extra = seconds
            try:
                _wait_resolved(phase, timeout=max(0.0, due - time.time()) + resolve_timeout + extra)
            except TimeoutError as exc:
                report.failures.append(str(exc))
                break
            if extra:
                phase.refresh_from_db()
                report.notes.append(f"{_label(phase)} resolved {phase.resolved_at.timestamp() - back:.2f}s after "
                                    f"the broker came back")
            wait(futures, timeout=deadline + 30)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    report.seconds = time.monotonic() - started
    game_obj.refresh_from_db()
    report.winners = list((game_obj.outcome or {}).get("winners") or [])
    report.draw = bool((game_obj.outcome or {}).get("draw"))
    report.phases = collect_phases(game_obj, hits=killer.hits if killer else None, death_kinds=policy.death_kinds,
                                   death_name=policy.death_name)
    report.kills = sum(p.kills for p in report.phases)
    if flaky:
        from django.db.models import Sum

        from gm.core.models_life import SeatStatus

        report.prodded = SeatStatus.objects.filter(game=game_obj, prods__gt=0).count()
        prods = SeatStatus.objects.filter(game=game_obj).aggregate(n=Sum("prods"))["n"] or 0
        report.notes.append(f"flaky players: {report.prodded} seats prodded ({prods} prods), {report.replaced} "
                            f"replaced by standby bots")
    report.failures += check_exactly_once(report, killed=killer is not None)
    report.failures += tally.failures
    if not report.finished and not any("phase cap" in f for f in report.failures):
        report.failures.append(f"the game did not finish (status {game_obj.status})")
    return report


def replace_flagged(*, game, master, policy: Policy, bots: list, quiet: set[int], standby: list, base_url: str,
                    tally: Tally, rng: random.Random, report: GameReport, log: Callable[[str], None],
                    label: str) -> None:
    """Every living seat of ``game`` flagged "needs replacement" gets a standby bot while ``standby`` (``(user,
    token)`` pairs) lasts: the bot finds the seat on the standby board (``GET /api/standby/``) and volunteers over
    HTTP (``POST /api/games/<id>/standby/<seat>/volunteer/``); the master approves (the service, as the master's
    side of the setup does); the new bot replaces the old one in ``bots`` and plays from now on."""
    from gm.core.models_life import SeatStatus, Volunteer
    from gm.core.services import ServiceError, replacements

    flagged = list(SeatStatus.objects.filter(game=game, flagged_at__isnull=False, seat__alive=True)
                   .values_list("seat_id", flat=True))
    for seat_id in flagged:
        if not standby:
            return
        index = next((i for i, b in enumerate(bots) if b.seat_id == seat_id), None)
        if index is None:
            continue
        user, token = standby.pop(0)
        bot = policy.make_bot(base_url=base_url, game_id=game.pk, index=bots[index].index, token=token,
                              rng=random.Random(rng.random()), tally=tally)
        ok, board = bot.attempt("standby board", "GET", "/api/standby/")
        if not ok or not any(row.get("seat") == seat_id for row in board):
            tally.fail(f"seat {seat_id} is flagged but not on the standby board: {board}")
            continue
        ok, _body = bot.attempt("volunteer", "POST", f"/api/games/<id>/standby/{seat_id}/volunteer/")
        offer = Volunteer.objects.filter(seat_id=seat_id, user=user, withdrawn_at__isnull=True,
                                         approved_at__isnull=True).first()
        if not ok or offer is None:
            continue
        try:
            replacements.volunteer_approve(game=game, actor=master, volunteer_id=offer.pk)
        except ServiceError as exc:
            tally.fail(f"approving the volunteer for seat {seat_id} was refused: {exc}")
            continue
        bot.seat_id = seat_id
        log(f"  {bots[index].name} went quiet: replaced by a standby bot ({user.get_username()}) in {label}")
        bots[index] = bot
        quiet.discard(index)
        report.replaced += 1


def _wait_resolved(phase, *, timeout: float) -> None:
    from gm.core.models import Phase

    end = time.monotonic() + timeout
    while True:
        status = Phase.objects.filter(pk=phase.pk).values_list("status", flat=True).first()
        if status == Phase.Status.RESOLVED:
            return
        if time.monotonic() > end:
            raise TimeoutError(f"{_label(phase)} (ordinal {phase.ordinal}) not resolved {timeout:.0f}s after it opened "
                               f"(status {status})")
        time.sleep(0.02)


def collect_phases(game, hits: Counter | None = None, death_kinds: tuple[str, ...] = (),
                   death_name: Callable[[dict], str] | None = None) -> list[PhaseReport]:
    """Every phase of ``game`` as the database holds it after the game; deaths from the log entries of
    ``death_kinds``, named by ``death_name(data)`` (default: ``data["player"]``)."""
    from django.db.models import Count
    from django.utils import translation

    from gm.core.models import LogEntry, Order

    entries = Counter()
    for phase_id, kind, n in (LogEntry.objects.filter(game=game, kind__in=["core.phase_resolved", "core.trace"])
                              .values_list("phase_id", "kind").annotate(n=Count("id"))):
        entries[(phase_id, kind)] = n
    deaths: dict[int, list[str]] = {}
    for phase_id, data in LogEntry.objects.filter(game=game, kind__in=death_kinds).values_list("phase_id", "data"):
        data = data or {}
        name = death_name(data) if death_name else str(data.get("player", "?"))
        if name:  # "" — a line of a death kind that names nobody (a nightfall without a death)
            deaths.setdefault(phase_id, []).append(name)
    orders = dict(Order.objects.filter(phase__game=game).values_list("phase_id")
                  .annotate(n=Count("seat_id", distinct=True)).values_list("phase_id", "n"))
    out = []
    for phase in game.phases.order_by("ordinal"):
        phase.game = game
        with translation.override("en"):
            label = str(phase.label)
        latency = work = None
        if phase.resolved_at:
            latency = (phase.resolved_at - phase.deadline).total_seconds()
            if phase.claimed_at:
                work = (phase.resolved_at - phase.claimed_at).total_seconds()
        out.append(PhaseReport(
            ordinal=phase.ordinal, label=label, kind=phase.kind, deadline=phase.deadline,
            resolved_at=phase.resolved_at, claims=phase.claims, latency=latency, work=work,
            orders=orders.get(phase.pk, 0), deaths=deaths.get(phase.pk, []),
            resolved_entries=entries[(phase.pk, "core.phase_resolved")],
            trace_entries=entries[(phase.pk, "core.trace")], kills=(hits or {}).get(phase.pk, 0)))
    return out


def check_exactly_once(report: GameReport, *, killed: bool) -> list[str]:
    """Every resolved phase resolved exactly once: one ``core.phase_resolved`` and one ``core.trace`` entry,
    ordinals 1…n without a gap, one claim (a phase the killer hit while resolving: one more claim per kill at
    most, the sweep's reclaim); at most one phase left open, and none once the game is over."""
    problems = []
    ordinals = [p.ordinal for p in report.phases]
    if ordinals != list(range(1, len(ordinals) + 1)):
        problems.append(f"phase ordinals not contiguous: {ordinals}")
    for p in report.phases:
        if p.resolved_at is None:
            if report.finished or p is not report.phases[-1]:
                problems.append(f"{p.label} never resolved")
            continue
        if (p.resolved_entries, p.trace_entries) != (1, 1):
            problems.append(f"{p.label}: {p.resolved_entries} results and {p.trace_entries} traces (expected 1, 1)")
        most = 1 + p.kills if killed else 1
        if not 1 <= p.claims <= most:
            problems.append(f"{p.label}: claimed {p.claims} times (expected 1…{most})")
    return problems
