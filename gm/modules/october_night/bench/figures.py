"""October Night's figures for ``manage.py gm_bench`` (issue 22 item 6): a whole resolution of one action phase
(``services.phase_resolve``: lock, load, engine with its dice, write, open the contact phase, COMMIT) where every
player rests (OC-4.3), with 5 players and with 3, measured in the same run as forum Mafia's 16-player resolution; and
the game page's query count on the first day and after several days played. Goals: the 5-player phase within forum
Mafia's 16-player resolution; the same query count for 3 and 5 players; the page's query count independent of the
days played. Speed is measured here, never asserted in the test suite.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from gm.core import services as core
from gm.core.bench import bench_users, page_queries, timed_resolutions
from gm.core.models import Game, Phase

SLUG = "october_night"
#: Fresh games resolved per player count (after one more whose query count is taken): full run, quick run.
PHASES = {False: 30, True: 2}
#: The player counts measured: OC-1.1's largest table and its smallest.
PLAYERS = (5, 3)
#: Phases played (at their deadlines, no orders) before the game page's query count is taken a second time.
PHASES_PLAYED = 6


def started(master, players: list, *, title: str) -> Phase:
    """A started game of ``players`` (seed 7, the default data and options); returns its first phase (action 1)."""
    game = core.game_create(master=master, module=SLUG, title=title, options={}, rng_seed=7)
    core.game_open_signup(game=game, actor=master)
    for i, user in enumerate(players):
        core.seat_join(game=game, user=user, display_name=f"O{i + 1}")
    core.game_start(game=game, actor=master)
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


def action_with_orders(master, players: list, *, title: str) -> Phase:
    """:func:`started`, where every player has ordered a rest (OC-4.3)."""
    phase = started(master, players, title=title)
    for user in players:
        core.order_submit(phase=phase, user=user, payload={"action": {"kind": "rest"}})
    return Phase.objects.get(pk=phase.pk)


def resolution(master, *, players: int, phases: int) -> dict[str, float]:
    """``services.phase_resolve`` of a claimed action 1 with every player's order in ``phases`` fresh games of
    ``players``, after one more whose query count is taken; milliseconds. The caller keeps the after-commit Celery
    messages from being sent (forum Mafia's ``no_publish``)."""
    people = bench_users(players, prefix="bench-oc")
    opened = [action_with_orders(master, people, title=f"bench oc {players}/{g}") for g in range(phases + 1)]
    past = max(p.deadline for p in opened) + timedelta(seconds=1)
    clock = lambda: past  # noqa: E731 - every phase is due

    def check(phase: Phase) -> bool:
        return Phase.objects.filter(game_id=phase.game_id, status=Phase.Status.OPEN, kind="contact").exists()

    return timed_resolutions(opened, clock=clock, check=check, what="phase")


def pages(master) -> dict[str, float]:
    """``oc_page_queries`` on the first day and ``oc_page_played_queries`` after :data:`PHASES_PLAYED` phases
    resolved at their deadlines, as the last seat's player of a 5-player game."""
    people = bench_users(5, prefix="bench-oc")
    phase = started(master, people, title="bench oc page")
    out: dict[str, float] = {"oc_page_queries": page_queries(phase.game, people[-1])}
    for _ in range(PHASES_PLAYED):
        moment = phase.deadline + timedelta(seconds=1)
        if core.phase_resolve_due(phase_id=phase.pk, clock=lambda moment=moment: moment) is None:
            raise RuntimeError(f"phase {phase.pk} did not resolve")
        phase = Phase.objects.get(game_id=phase.game_id, status=Phase.Status.OPEN)
    out["oc_page_played_queries"] = page_queries(Game.objects.get(pk=phase.game_id), people[-1])
    return out


def bench_figures(*, master: Any, quick: bool) -> dict[str, float]:
    """Every figure: ``oc_phase_{5,3}p_ms_median``, ``…_ms_p95``, ``…_queries`` and :func:`pages`'."""
    out: dict[str, float] = {}
    for players in PLAYERS:
        res = resolution(master, players=players, phases=PHASES[quick])
        out |= {f"oc_phase_{players}p_ms_median": res["median"], f"oc_phase_{players}p_ms_p95": res["p95"],
                f"oc_phase_{players}p_queries": res["queries"]}
    return out | pages(master)


def goals_missed(figures: dict) -> list[str]:
    """Issue 22's goals: the 5-player phase within forum Mafia's 16-player resolution (same run); the phase's query
    count the same for 3 and 5 players; the page's query count independent of the days played."""
    missed = []
    mine, theirs = figures.get("oc_phase_5p_ms_median"), figures.get("resolution_16p_ms_median")
    if mine is not None and theirs is not None and mine > theirs:
        missed.append(f"oc_phase_5p_ms_median = {mine} > resolution_16p_ms_median = {theirs}")
    q5, q3 = figures.get("oc_phase_5p_queries"), figures.get("oc_phase_3p_queries")
    if q5 is not None and q5 != q3:
        missed.append(f"oc phase queries 5 players ({q5}) != 3 players ({q3})")
    first, played = figures.get("oc_page_queries"), figures.get("oc_page_played_queries")
    if played is not None and played != first:
        missed.append(f"oc page queries first day ({first}) != after {PHASES_PLAYED} phases ({played})")
    return missed
