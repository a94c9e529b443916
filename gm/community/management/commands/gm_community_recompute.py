"""``manage.py gm_community_recompute [--fix] [--json]``: recompute the reliability records and the statistics from
the core's events (a full scan) and compare them with the incremental figures; ``--fix`` stores the recomputed
ones. Exit status 0 when they agree (or were fixed), 1 when they differ."""
from __future__ import annotations

import json as jsonlib

from django.core.management.base import BaseCommand

from gm.community import services


class Command(BaseCommand):
    help = "Compare the incremental reliability records and statistics with a recompute from events (--fix stores it)."

    def add_arguments(self, parser):
        parser.add_argument("--fix", action="store_true", help="store the recomputed figures")
        parser.add_argument("--json", action="store_true", help="print one JSON line")

    def handle(self, *args, fix: bool = False, **options):
        fresh, stored = services.reliability_recompute(), services.reliability_stored()
        users = sorted(u for u in set(fresh) | set(stored) if fresh.get(u) != stored.get(u))
        stats_fresh, stats_stored = services.stats_recompute(), services.stats_stored()
        rows = sorted(k for k in set(stats_fresh[0]) | set(stats_stored[0])
                      if stats_fresh[0].get(k) != stats_stored[0].get(k))
        history_ok = stats_fresh[1] == stats_stored[1]
        if fix and (users or rows or not history_ok):
            services.reliability_rebuild()
            services.stats_rebuild()
        report = {"reliability_differ": len(users), "stat_rows_differ": len(rows), "history_agrees": history_ok,
                  "fixed": bool(fix and (users or rows or not history_ok))}
        if options.get("json"):
            self.stdout.write(_dumps(report))
        else:
            self.stdout.write(f"reliability records that differ: {len(users)}; statistics rows that differ: "
                              f"{len(rows)}; history agrees: {'yes' if history_ok else 'no'}"
                              + ("; fixed" if report["fixed"] else ""))
        if (users or rows or not history_ok) and not fix:
            raise SystemExit(1)


def _dumps(data) -> str:
    return jsonlib.dumps(data, sort_keys=True)
