"""The balance report (issue 24 item 4): many seeded bot games of one setup played with a module's PURE engine — no
HTTP, no database, no Celery per game — and each side's win rate with its 95 % Wilson interval, the draw rate, the
mean length in phases and how the games ended.

A module takes part through ``GameModule.balance_policy()``, which returns a :class:`SimPolicy`: its pure bots (the
orders of every acting seat in a phase, chosen among the legal ones the module's own legality functions offer), the
seats as signups would make them, what the shell adds to the state at the start (forum Mafia's card collection),
the sides that can win and how a game's :class:`~gm.core.engine.Outcome` counts. This file drives the game loop the
services drive for a real game (``game_start`` → ``phase_resolve`` → ``resolution_apply``): ``setup`` with
``random.Random(game seed)``, then each phase's orders validated by ``validate_order`` (a refused order is dropped
and counted, as the site refuses it) and resolved by ``resolve`` with :func:`~gm.core.engine.phase_rng`'s seed of
the phase, the new state, seat data and deaths applied, until ``resolve`` returns an outcome or the policy's phase
cap is reached.

Pure: no Django import, no I/O, no clock; chance comes from seeds only, so the same request gives the same report.
The shell (``gm.balance``: the Celery task, the master's page, ``manage.py gm_balance``) validates a request with
:func:`check_request` and runs :func:`estimate`.
"""
from __future__ import annotations

import dataclasses
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import (
    GameModule,
    Outcome,
    PhaseInfo,
    Resolution,
    RuleError,
    RuleViolation,
    SeatInfo,
    phase_random,
    phase_rng,
)


def _(s: str) -> str:
    """Marks a msgid; the shell translates it (pure: no gettext)."""
    return s


#: How many games one report may play (the master's page and ``gm_balance --games``).
MAX_GAMES = 5000
#: The two-sided 95 % normal quantile of the Wilson interval.
Z95 = 1.959963984540054
#: The end kind of a game stopped by the policy's phase cap (it counts as a draw: nobody won).
CAPPED = "phase_cap"


class BalanceError(ValueError):
    """A refused balance request: ``field`` (``module``, ``players``, ``games``, ``seed``, ``options``) and a msgid
    ``message`` with ``%(…)s`` filled from ``params``; nothing was played."""

    def __init__(self, field: str, message: str, params: Mapping[str, Any] | None = None,
                 rule_errors: Sequence[RuleError] = ()):
        self.field, self.message, self.params = field, message, dict(params or {})
        self.rule_errors = list(rule_errors)
        super().__init__(self.render())

    def render(self, translate: Callable[[str], str] = str) -> str:
        """The message in words; ``translate`` (the shell passes ``gettext``) turns the msgid — and the module's
        refusals in ``rule_errors``, the ``%(errors)s`` of the message, each with its rule ID — into the reader's
        language."""
        params = dict(self.params)
        if self.rule_errors:
            params["errors"] = "; ".join(e.render(translate) + (f" ({e.rule})" if e.rule else "")
                                         for e in self.rule_errors)
        text = translate(self.message)
        return text % params if params else text


class SimPolicy:
    """A module's pure bots for balance reports (``GameModule.balance_policy``). Override :meth:`orders`; the rest has
    defaults:

    * ``sides`` — the side slugs that can win (``Outcome.winners`` slugs), in display order: each gets a row in the
      report even when it never won;
    * ``default_players`` — the table the master's form proposes; ``phase_cap`` — phases after which a game stops
      (counted as a draw, end kind :data:`CAPPED`);
    * ``validate`` — whether every order goes through the module's ``validate_order`` first (as the site does);
    * :meth:`seats`, :meth:`start`, :meth:`instant`, :meth:`side`, :meth:`end_kind`, :meth:`prepare`.

    The policy is stateless between games: whatever a game needs lives in its state, its seats or the ``context``
    :meth:`prepare` returns once per report."""

    sides: tuple[str, ...] = ()
    default_players: int = 0
    phase_cap: int = 200
    validate: bool = True

    def prepare(self, *, players: int, options: Mapping[str, Any]) -> Any:
        """Once per report, before the first game: anything the games share (forum Mafia: the card collection).
        Passed to :meth:`start` and :meth:`orders` as ``context``. Default: ``None``."""
        return None

    def setup(self, module: GameModule, *, seats: Sequence[SeatInfo], options: Mapping[str, Any],
              rng: random.Random, context: Any = None) -> Any:
        """The module's ``setup`` for one game (its :class:`~gm.core.engine.SetupResult`). Default:
        ``module.setup``; a module whose setup reads the site's data (October Night's data set, OC-17) gives the
        engine what :meth:`prepare` read instead, so the games touch no database."""
        return module.setup(seats=seats, options=options, rng=rng)

    def seats(self, *, players: int, rng: random.Random, context: Any = None) -> list[SeatInfo]:
        """The seats as signups leave them, ring order (ids 1…N). Default: ``P1``…``PN`` with no data."""
        return [SeatInfo(id=i + 1, name=f"P{i + 1}", position=i) for i in range(players)]

    def start(self, *, state: dict, context: Any = None) -> dict:
        """The state right after ``setup``, with what the shell adds at the start (the ``game_started`` receivers:
        forum Mafia's collection snapshot). Default: unchanged."""
        return state

    def instant(self, *, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo], rng: random.Random,
                context: Any = None) -> tuple[dict, dict[int, dict]] | None:
        """What the bots do at once while ``phase`` is open, before their orders (an instant ability, forum Mafia's
        deck rebuild FM-4.7): ``(new state, seat id → new seat data)``, or ``None`` for nothing. Default: ``None``."""
        return None

    def orders(self, *, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo], rng: random.Random,
               context: Any = None) -> dict[int, dict]:
        """Seat id → order payload of the bots in ``phase`` (living actors only; a seat may give none). Pure:
        chance from ``rng`` only."""
        raise NotImplementedError

    @staticmethod
    def acting(phase: PhaseInfo, seats: Sequence[SeatInfo]) -> list[SeatInfo]:
        """The living seats among ``phase``'s actors (every living seat when the phase names none), in seat order:
        who may order in :meth:`orders`."""
        actors = set(phase.actors) if phase.actors is not None else None
        return [seat for seat in seats if seat.alive and (actors is None or seat.id in actors)]

    def side(self, outcome: Outcome) -> str | None:
        """The one side a finished game counts for, or ``None`` for a draw (no winner). Default: ``None`` for a draw
        or no winner, the only winner, or several winners joined by ``+`` (a shared win is its own row)."""
        if outcome.draw or not outcome.winners:
            return None
        return "+".join(outcome.winners)

    def end_kind(self, *, state: Mapping[str, Any], resolution: Resolution) -> str:
        """How the game ended, a short slug counted in the report. Default: ``draw``, ``nobody`` (no winner) or
        ``victory``."""
        outcome = resolution.outcome
        if outcome is None or outcome.draw:
            return "draw"
        return "victory" if outcome.winners else "nobody"


@dataclass(frozen=True)
class GameRun:
    """One simulated game: ``side`` it counts for (``None``: draw), every ``winners`` slug, ``phases`` resolved,
    ``end`` kind, ``refused`` bot orders the engine refused."""

    side: str | None
    winners: tuple[str, ...]
    phases: int
    end: str
    refused: int = 0


@dataclass
class Request:
    """A checked balance request (:func:`check_request`)."""

    module: GameModule
    policy: SimPolicy
    players: int
    games: int
    seed: int
    options: dict = field(default_factory=dict)


def policy_of(module: GameModule) -> SimPolicy | None:
    """The module's balance bots, or ``None`` when it has none."""
    hook = getattr(module, "balance_policy", None)
    return hook() if hook is not None else None


def parse_options(raw: Any) -> dict:
    """The options of a request: a dict, a JSON object text, or empty (``None``/``""``: none). Raises
    :class:`BalanceError` (``options``) for malformed JSON or anything but an object."""
    if raw in (None, ""):
        return {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError as exc:
            raise BalanceError("options", _("The options are not valid JSON: %(error)s"), {"error": str(exc)}) \
                from None
    if not isinstance(raw, dict):
        raise BalanceError("options", _("The options must be a JSON object."))
    return raw


def _whole(value: Any, field_name: str) -> int:
    if isinstance(value, bool):
        raise BalanceError(field_name, _("“%(field)s” must be a whole number."), {"field": field_name})
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BalanceError(field_name, _("“%(field)s” must be a whole number."), {"field": field_name}) from None


def check_request(*, module: GameModule | None, slug: str, players: Any, games: Any, seed: Any = 0,
                  options: Any = None) -> Request:
    """Check a request before anything is played: the module (``None`` means ``slug`` is not registered) has
    balance bots, ``players`` is within its seats (``min_seats``…``max_seats``), ``games`` within 1…
    :data:`MAX_GAMES`, ``seed`` a whole number, ``options`` a JSON object the module's ``validate_options``
    accepts and with which its ``setup`` deals this table. Returns the :class:`Request` (options normalised);
    raises :class:`BalanceError` naming the field at fault."""
    if module is None:
        raise BalanceError("module", _("Unknown game module “%(module)s”."), {"module": slug})
    policy = policy_of(module)
    if policy is None:
        raise BalanceError("module", _("The game “%(module)s” has no bots for a balance report."),
                           {"module": module.slug})
    players = _whole(players, "players")
    if not module.min_seats <= players <= module.max_seats:
        raise BalanceError("players", _("This game takes %(min)s to %(max)s players, not %(count)s."),
                           {"min": module.min_seats, "max": module.max_seats, "count": players})
    games = _whole(games, "games")
    if not 1 <= games <= MAX_GAMES:
        raise BalanceError("games", _("The number of games must be from 1 to %(max)s."), {"max": MAX_GAMES})
    seed = _whole(seed, "seed")
    raw = parse_options(options)
    try:
        clean = module.validate_options(raw)
    except RuleViolation as exc:
        raise BalanceError("options", _("The options are refused: %(errors)s"), rule_errors=exc.errors) from None
    request = Request(module=module, policy=policy, players=players, games=games, seed=seed, options=clean)
    try:  # one deal shows that this table can start with these options (a fixed composition of another size…)
        context = policy.prepare(players=players, options=clean)
        module.setup(seats=policy.seats(players=players, rng=random.Random(seed), context=context), options=clean,
                     rng=random.Random(seed))
    except RuleViolation as exc:
        raise BalanceError("options", _("This table can't start: %(errors)s"), rule_errors=exc.errors) from None
    return request


def game_seed(seed: int, index: int) -> int:
    """The RNG seed of game ``index`` of a report seeded ``seed`` (63 bits, unrelated streams per game)."""
    return random.Random(f"balance:{seed}:{index}").getrandbits(63)


def play(module: GameModule, policy: SimPolicy, *, players: int, options: Mapping[str, Any], seed: int,
         context: Any = None) -> GameRun:
    """One game of ``players`` bots to its end with the pure engine, as the services would play it: the deal from
    ``random.Random(seed)``, each phase's RNG from ``phase_rng(seed, ordinal)``, the bots' choices from their own
    stream. Raises whatever the engine raises on a broken game (a module bug, not a result)."""
    bots = random.Random(f"bots:{seed}")
    seats = policy.seats(players=players, rng=bots, context=context)
    result = policy.setup(module, seats=seats, options=options, rng=random.Random(seed), context=context)
    seats = [dataclasses.replace(s, data=result.seat_data[s.id]) if s.id in result.seat_data else s for s in seats]
    state = policy.start(state=result.state, context=context)
    spec = result.first_phase
    refused = 0
    ordinal = 1
    while True:
        if ordinal > policy.phase_cap:
            return GameRun(None, (), ordinal - 1, CAPPED, refused)
        phase = PhaseInfo(kind=spec.kind, number=spec.number, ordinal=ordinal,
                          actors=list(spec.actors) if spec.actors is not None else None)
        done = policy.instant(state=state, phase=phase, seats=seats, rng=bots, context=context)
        if done is not None:
            state, changed = done
            seats = [dataclasses.replace(s, data=changed[s.id]) if s.id in changed else s for s in seats]
        given = policy.orders(state=state, phase=phase, seats=seats, rng=bots, context=context)
        orders: dict[int, Mapping[str, Any]] = {}
        if policy.validate and given:
            by_id = {s.id: s for s in seats}
            for sid, payload in given.items():
                try:
                    orders[sid] = module.validate_order(state=state, phase=phase, seat=by_id[sid], payload=payload,
                                                        seats=seats)
                except RuleViolation:
                    refused += 1
        else:
            orders = dict(given)
        res = module.resolve(state=state, phase=phase, seats=seats, orders=orders,
                             rng=phase_random(phase_rng(seed, ordinal)))
        state = res.state
        if res.seat_data or res.alive:
            seats = [dataclasses.replace(s, data=res.seat_data.get(s.id, s.data), alive=res.alive.get(s.id, s.alive))
                     if s.id in res.seat_data or s.id in res.alive else s for s in seats]
        if res.next_phase is None:
            outcome = res.outcome or Outcome([], draw=True)
            return GameRun(policy.side(outcome), () if outcome.draw else tuple(outcome.winners), ordinal,
                           policy.end_kind(state=state, resolution=res), refused)
        spec = res.next_phase
        ordinal += 1


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes``/``n`` (default 95 %), clipped to [0, 1]; ``(0, 1)``
    when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends: no rounding residue at 0 or n
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def summarise(runs: Sequence[GameRun], *, sides: Sequence[str] = ()) -> dict:
    """The report of ``runs``: ``games``; ``sides`` (every slug of ``sides``, then any other side that won, each
    ``{"wins", "win_rate", "ci_low", "ci_high"}``); ``draw_rate`` (games counted for no side, with its own
    ``draw_ci_low``/``draw_ci_high``; the win rates and the draw rate add up to 1); ``mean_phases`` (and
    ``min_phases``, ``max_phases``); ``ends`` (end kind → games); ``winners`` (every winner slug → games it won,
    shared wins included); ``refused_orders`` (bot orders the engine refused: 0 for a sound policy)."""
    n = len(runs)
    counts = Counter(r.side for r in runs)
    order = list(dict.fromkeys([*sides, *sorted(s for s in counts if s is not None)]))
    out_sides = {}
    for side in order:
        k = counts.get(side, 0)
        low, high = wilson(k, n)
        out_sides[side] = {"wins": k, "win_rate": k / n if n else 0.0, "ci_low": low, "ci_high": high}
    draws = counts.get(None, 0)
    draw_low, draw_high = wilson(draws, n)
    phases = [r.phases for r in runs]
    return {
        "games": n,
        "sides": out_sides,
        "draw_rate": draws / n if n else 0.0,
        "draw_ci_low": draw_low,
        "draw_ci_high": draw_high,
        "mean_phases": sum(phases) / n if n else 0.0,
        "min_phases": min(phases, default=0),
        "max_phases": max(phases, default=0),
        "ends": dict(sorted(Counter(r.end for r in runs).items())),
        "winners": dict(sorted(Counter(w for r in runs for w in r.winners).items())),
        "refused_orders": sum(r.refused for r in runs),
    }


#: The context :meth:`SimPolicy.prepare` gave in the parent, inherited by the forked workers of :func:`estimate`
#: (what it read — a database row — is never read again in a child, whose inherited connection is the parent's).
_FORKED_CONTEXT: list[Any] = []


def _play_range(module: GameModule, policy: SimPolicy, players: int, options: dict, seed: int, start: int,
                stop: int) -> list[GameRun]:
    """Games ``start``…``stop - 1`` of a report (one worker's share)."""
    context = _FORKED_CONTEXT[0] if _FORKED_CONTEXT else policy.prepare(players=players, options=options)
    return [play(module, policy, players=players, options=options, seed=game_seed(seed, i), context=context)
            for i in range(start, stop)]


def estimate(request: Request, *, progress: Callable[[int], None] | None = None, workers: int = 1) -> dict:
    """Play the request's games (game ``i`` seeded :func:`game_seed`) and return :func:`summarise`'s report, plus
    ``module``, ``players``, ``seed`` and ``options``. ``progress(done)`` is called every 50 games (the Celery
    task's progress). ``workers`` > 1 plays the games in that many forked processes (``manage.py gm_balance
    --workers``, the benchmark); the report is the same whatever their number, since every game depends on its own
    seed only. A daemonic process (a Celery prefork child) can't fork workers and plays alone."""
    import multiprocessing

    policy, module = request.policy, request.module
    args = (module, policy, request.players, request.options, request.seed)
    runs: list[GameRun] = []
    context = policy.prepare(players=request.players, options=request.options)
    if workers > 1 and request.games > 1 and not multiprocessing.current_process().daemon:
        from concurrent.futures import ProcessPoolExecutor

        step = max(1, min(50, -(-request.games // workers)))
        chunks = [(a, min(a + step, request.games)) for a in range(0, request.games, step)]
        _FORKED_CONTEXT[:] = [context]
        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
                for future in [pool.submit(_play_range, *args, a, b) for a, b in chunks]:
                    runs += future.result()
                    if progress is not None:
                        progress(len(runs))
        finally:
            _FORKED_CONTEXT.clear()
    else:
        for i in range(request.games):
            runs.append(play(module, policy, players=request.players, options=request.options,
                             seed=game_seed(request.seed, i), context=context))
            if progress is not None and (i + 1) % 50 == 0:
                progress(i + 1)
    report = summarise(runs, sides=policy.sides)
    report.update(module=module.slug, players=request.players, seed=request.seed, options=request.options)
    return report
