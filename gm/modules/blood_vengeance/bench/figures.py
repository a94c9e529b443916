"""Blood Vengeance's figures for ``manage.py gm_bench`` (issue 21): a whole resolution of a night (``services
.phase_resolve``: lock, load, engine, write, open the light time, COMMIT) with 20 players and with 6, every player
voting, measured in the same run as forum Mafia's 16-player resolution — the goal is the 20-player night within that
time, with a query count that does not grow with the number of players. Speed is measured here, never asserted in
the test suite.
"""
from __future__ import annotations

from typing import Any

from gm.core import services as core
from gm.core.bench import bench_users, timed_resolutions
from gm.core.models import Game, Phase

SLUG = "blood_vengeance"
#: Fresh games resolved per player count (after one more whose query count is taken): full run, quick run.
PHASES = {False: 30, True: 2}
#: The player counts measured: the issue's 20, and 6 for the query count's independence of players.
PLAYERS = (20, 6)


def night(master, players: list, *, title: str) -> Phase:
    """A started game of ``players`` (the first-game set of BV-2.8 for their number) in night 1, where every player
    has voted (all for the first seat, who votes for the second): one execution, then the light time opens."""
    game = core.game_create(master=master, module=SLUG, title=title, options={}, rng_seed=7)
    core.game_open_signup(game=game, actor=master)
    for i, user in enumerate(players):
        core.seat_join(game=game, user=user, display_name=f"V{i + 1}")
    phase = core.game_start(game=game, actor=master)
    seats = list(Game.objects.get(pk=game.pk).seats.order_by("position"))
    for seat in seats:
        target = seats[1] if seat.pk == seats[0].pk else seats[0]
        core.order_submit(phase=phase, user=seat.user, payload={"vote": target.pk})
    return phase


def resolution(master, *, players: int, phases: int) -> dict[str, float]:
    """``services.phase_resolve`` of a claimed night 1 with every player's vote in ``phases`` fresh games of
    ``players``, after one more whose query count is taken; milliseconds. The caller keeps the after-commit Celery
    messages from being sent (forum Mafia's ``no_publish``)."""
    people = bench_users(players, prefix="bench-bv")
    nights = [night(master, people, title=f"bench bv {players}/{g}") for g in range(phases + 1)]
    past = max(p.deadline for p in nights)
    clock = lambda: past  # noqa: E731 - every phase is due

    def check(phase: Phase) -> bool:
        return Phase.objects.filter(game_id=phase.game_id, status=Phase.Status.OPEN, kind="light").count() == 1

    return timed_resolutions(nights, clock=clock, check=check, what="phase")


def bench_figures(*, master: Any, quick: bool) -> dict[str, float]:
    """Every figure: ``bv_resolution_{20,6}p_ms_median``, ``…_ms_p95`` and ``…_queries``."""
    out: dict[str, float] = {}
    for players in PLAYERS:
        res = resolution(master, players=players, phases=PHASES[quick])
        out |= {f"bv_resolution_{players}p_ms_median": res["median"], f"bv_resolution_{players}p_ms_p95": res["p95"],
                f"bv_resolution_{players}p_queries": res["queries"]}
    return out


def goals_missed(figures: dict) -> list[str]:
    """Issue 21's goals: the 20-player night resolved within forum Mafia's 16-player resolution (same run), and a
    query count independent of the number of players."""
    missed = []
    mine, theirs = figures.get("bv_resolution_20p_ms_median"), figures.get("resolution_16p_ms_median")
    if mine is not None and theirs is not None and mine > theirs:
        missed.append(f"bv_resolution_20p_ms_median = {mine} > resolution_16p_ms_median = {theirs}")
    q20, q6 = figures.get("bv_resolution_20p_queries"), figures.get("bv_resolution_6p_queries")
    if q20 is not None and q20 != q6:
        missed.append(f"bv resolution queries 20 players ({q20}) != 6 players ({q6})")
    return missed
