"""``manage.py gm_balance <module> [--players N] [--games G] [--seed S] [--options JSON] [--workers W] [--json]``
— the balance report of a setup from the shell (issue 24 item 4): G seeded bot games with the module's pure engine (no
HTTP, no database), each side's win rate with its 95 % Wilson interval, the draw rate, the mean length in phases and
how the games ended.

``--json`` prints ONE line: ``{"games": G, "sides": {"<side>": {"wins", "win_rate", "ci_low", "ci_high"}},
"draw_rate": …, "draw_ci_low": …, "draw_ci_high": …, "mean_phases": …, "min_phases", "max_phases", "ends": {kind:
games}, "winners": {slug: games}, "refused_orders": …, "module", "players", "seed", "options", "seconds"}``; the win
rates and the draw rate add up to 1, and the same arguments always print the same report (but ``seconds``).
Defaults: the module's bot table (``SimPolicy.default_players``), 1000 games, seed 1, no options. Bad input (an
unknown module, players outside the module's range, G outside 1…5000, malformed options) exits with status 2 and
the reason on stderr; nothing is played.
"""
from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError

from gm.core import balance, registry


class Command(BaseCommand):
    help = "Balance report of a game setup: win rates with 95 % intervals from seeded bot games on the pure engine."

    def add_arguments(self, parser):
        parser.add_argument("module", help="the game module's slug (forum_mafia, onuw, …)")
        parser.add_argument("--players", default=None, help="seats (default: the module's bot table)")
        parser.add_argument("--games", default=1000, help="bot games, 1…5000 (default 1000)")
        parser.add_argument("--seed", default=1, help="the report's seed (default 1)")
        parser.add_argument("--options", default="", help="the game's options as a JSON object")
        parser.add_argument("--workers", type=int, default=1,
                            help="processes playing the games (the report is the same whatever their number)")
        parser.add_argument("--json", action="store_true", dest="as_json", help="print one JSON line")

    def handle(self, *args, module: str, players, games, seed, options: str, workers: int, as_json: bool, **kwargs):
        try:
            found = registry.get(module)
        except registry.UnknownModule:
            found = None
        if players is None and found is not None:
            policy = balance.policy_of(found)
            players = (policy.default_players or found.min_seats) if policy else found.min_seats
        try:
            request = balance.check_request(module=found, slug=module, players=players, games=games, seed=seed,
                                            options=options)
        except balance.BalanceError as exc:
            raise CommandError(f"{exc.field}: {exc.render()} Nothing was played.", returncode=2) from None
        began = time.perf_counter()
        report = balance.estimate(request, workers=max(1, workers))
        report["seconds"] = round(time.perf_counter() - began, 3)
        if as_json:
            self.stdout.write(json.dumps(report, ensure_ascii=False, sort_keys=True))
            return
        self.stdout.write(f"{module}, {request.players} players, {request.games} games, seed {request.seed}, "
                          f"options {json.dumps(request.options, sort_keys=True)} ({report['seconds']} s)")
        for side, row in report["sides"].items():
            self.stdout.write(f"  {side:<24}{row['wins']:>6}  {100 * row['win_rate']:6.1f} %  "
                              f"[{100 * row['ci_low']:.1f} – {100 * row['ci_high']:.1f}]")
        self.stdout.write(f"  {'draw / no winner':<24}{round(report['draw_rate'] * request.games):>6}  "
                          f"{100 * report['draw_rate']:6.1f} %  "
                          f"[{100 * report['draw_ci_low']:.1f} – {100 * report['draw_ci_high']:.1f}]")
        self.stdout.write(f"  mean length {report['mean_phases']:.1f} phases (min {report['min_phases']}, "
                          f"max {report['max_phases']})")
        self.stdout.write("  ends: " + ", ".join(f"{k} {v}" for k, v in report["ends"].items()))
        if report["refused_orders"]:
            self.stdout.write(f"  bot orders refused by the engine: {report['refused_orders']}")
