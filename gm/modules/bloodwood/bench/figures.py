"""Bloodwood's figures for ``manage.py gm_bench`` (issue 20 item 8): a whole resolution of one step (``services
.phase_resolve``: lock, load, engine, write, open the next step, COMMIT) — the first turn, where the player to move
discards a card — with 12 players and with 5, measured in the same run as forum Mafia's 16-player resolution; and the
game page's query count for 5 and 12 players and after steps played. Goals: the 12-player step within 2× forum
Mafia's 16-player resolution; the same query count for 5 and 12 players; the page's query count independent of the
players and of the steps played. Speed is measured here, never asserted in the test suite.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from gm.core import services as core
from gm.core.bench import bench_users, page_queries, timed_resolutions
from gm.core.models import Game, Phase

SLUG = "bloodwood"
#: Fresh games resolved per player count (after one more whose query count is taken): full run, quick run.
PHASES = {False: 30, True: 2}
#: The player counts measured: BW-3's largest table and its smallest.
PLAYERS = (12, 5)
#: Steps played (missed turns, BW-24b) before the game page's query count is taken a second time.
STEPS_PLAYED = 6


def started(master, players: list, *, title: str) -> Phase:
    """A started game of ``players`` (seed 7, the default options); returns its first step, a ``turn``."""
    game = core.game_create(master=master, module=SLUG, title=title, options={}, rng_seed=7)
    core.game_open_signup(game=game, actor=master)
    for i, user in enumerate(players):
        core.seat_join(game=game, user=user, display_name=f"B{i + 1}")
    core.game_start(game=game, actor=master)
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def turn_with_a_discard(master, players: list, *, title: str) -> Phase:
    """:func:`started`, where the player to move has discarded his first card (a turn move, BW-6)."""
    phase = started(master, players, title=title)
    mover = phase.actors[0]
    hand = Game.objects.get(pk=phase.game_id).state["hands"][str(mover)]
    user = phase.game.seats.get(pk=mover).user
    core.order_submit(phase=phase, user=user, payload={"move": "discard", "cards": [hand[0]]})
    return Phase.objects.get(pk=phase.pk)


def resolution(master, *, players: int, phases: int) -> dict[str, float]:
    """``services.phase_resolve`` of a claimed first turn with its discard in ``phases`` fresh games of ``players``,
    after one more whose query count is taken; milliseconds. The caller keeps the after-commit Celery messages from
    being sent (forum Mafia's ``no_publish``)."""
    people = bench_users(players, prefix="bench-bw")
    turns = [turn_with_a_discard(master, people, title=f"bench bw {players}/{g}") for g in range(phases + 1)]
    past = max(p.deadline for p in turns) + timedelta(seconds=1)
    clock = lambda: past  # noqa: E731 - every step is due

    def check(phase: Phase) -> bool:
        return Phase.objects.filter(game_id=phase.game_id, status=Phase.Status.OPEN).exists()

    return timed_resolutions(turns, clock=clock, check=check, what="step")


def play_missed_steps(phase: Phase, steps: int) -> Phase:
    """Resolve ``steps`` steps from ``phase`` at their deadlines (missed turns and answers, BW-24b); returns the
    open step."""
    for _ in range(steps):
        moment = phase.deadline + timedelta(seconds=1)
        if core.phase_resolve_due(phase_id=phase.pk, clock=lambda moment=moment: moment) is None:
            raise RuntimeError(f"step {phase.pk} did not resolve")
        phase = Phase.objects.get(game_id=phase.game_id, status=Phase.Status.OPEN)
    return phase


def pages(master) -> dict[str, float]:
    """``bw_page_{5,12}p_queries`` at the first step, and ``bw_page_12p_played_queries`` after
    :data:`STEPS_PLAYED` steps, each as the player of the last seat."""
    out: dict[str, float] = {}
    for players in (5, 12):
        people = bench_users(players, prefix="bench-bw")
        phase = started(master, people, title=f"bench bw page {players}")
        out[f"bw_page_{players}p_queries"] = page_queries(phase.game, people[-1])
        if players == 12:
            play_missed_steps(phase, STEPS_PLAYED)
            out["bw_page_12p_played_queries"] = page_queries(Game.objects.get(pk=phase.game_id), people[-1])
    return out


def bench_figures(*, master: Any, quick: bool) -> dict[str, float]:
    """Every figure: ``bw_step_{12,5}p_ms_median``, ``…_ms_p95``, ``…_queries`` and :func:`pages`'."""
    out: dict[str, float] = {}
    for players in PLAYERS:
        res = resolution(master, players=players, phases=PHASES[quick])
        out |= {f"bw_step_{players}p_ms_median": res["median"], f"bw_step_{players}p_ms_p95": res["p95"],
                f"bw_step_{players}p_queries": res["queries"]}
    return out | pages(master)


def goals_missed(figures: dict) -> list[str]:
    """Issue 20's goals: the 12-player step within 2× forum Mafia's 16-player resolution (same run); the step's
    query count the same for 5 and 12 players; the page's query count independent of players and steps played."""
    missed = []
    mine, theirs = figures.get("bw_step_12p_ms_median"), figures.get("resolution_16p_ms_median")
    if mine is not None and theirs is not None and mine > 2 * theirs:
        missed.append(f"bw_step_12p_ms_median = {mine} > 2 × resolution_16p_ms_median = {2 * theirs}")
    q12, q5 = figures.get("bw_step_12p_queries"), figures.get("bw_step_5p_queries")
    if q12 is not None and q12 != q5:
        missed.append(f"bw step queries 12 players ({q12}) != 5 players ({q5})")
    p5, p12, played = (figures.get(k) for k in ("bw_page_5p_queries", "bw_page_12p_queries",
                                                "bw_page_12p_played_queries"))
    if p12 is not None and not (p5 == p12 == played):
        missed.append(f"bw page queries 5 players ({p5}), 12 players ({p12}), after {STEPS_PLAYED} steps ({played})"
                      " differ")
    return missed
