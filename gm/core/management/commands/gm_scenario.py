"""``manage.py gm_scenario FILE [FILE ...] [--keep] [--json]`` — run scenario files (see ``docs/scenarios.md``).

Each file (a directory stands for every ``.yaml``/``.yml``/``.json`` file below it) is built and played through the
site's own services in its own transaction, rolled back unless ``--keep`` is given; with ``--keep`` the game stays
and its URL is printed. Output: ``PASS``/``FAIL`` lines with every failed expectation (file, step and phase, key,
expected, actual) on stdout, ``INVALID`` lines naming the place on stderr; ``--json`` prints one JSON object per
file instead: ``{"file", "passed", "failures": [...], "invalid"[, "url"]}``.

Exit status: 0 when every file passed, 1 when an expectation failed (or a runner crashed), 2 when a file is
invalid (bad YAML/JSON, unknown game, player, slug or key, a step for another phase than the open one…) or the
database is not migrated ("run manage.py migrate first", no traceback). The closing count is written in
``GM_COMMAND_LANGUAGE`` (English by default; ``ru`` for Russian).
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand
from django.utils.translation import ngettext

from gm.core.management.base import in_command_language, require_migrated
from gm.core.scenario import expand_paths, run_file


class Command(BaseCommand):
    help = "Run scenario files (JSON or YAML): build each game through the services, play its steps, check them."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="scenario files or directories of them")
        parser.add_argument("--keep", action="store_true",
                            help="commit the games instead of rolling them back, and print their URLs")
        parser.add_argument("--json", action="store_true", dest="as_json", help="one JSON object per file")

    @in_command_language
    def handle(self, *args, files: list[str], keep: bool = False, as_json: bool = False, **options):
        require_migrated()
        results = []
        for path in expand_paths(files):
            result = run_file(path, keep=keep, on_crash=self.stderr.write)
            results.append(result)
            if as_json:
                self.stdout.write(json.dumps(result.to_json(), ensure_ascii=False, default=str))
            else:
                self._print(result)
        if not results:
            self.stderr.write("No scenario files found.")
            raise SystemExit(2)
        if not as_json and len(results) > 1:
            counts = {code: sum(r.exit_code == code for r in results) for code in (0, 1, 2)}
            self.stdout.write(ngettext("%(count)s file: %(passed)s passed, %(failed)s failed, %(invalid)s invalid",
                                       "%(count)s files: %(passed)s passed, %(failed)s failed, %(invalid)s invalid",
                                       len(results))
                              % {"count": len(results), "passed": counts[0], "failed": counts[1],
                                 "invalid": counts[2]})
        code = max(r.exit_code for r in results)
        if code:
            raise SystemExit(code)

    def _print(self, result) -> None:
        if result.error is not None:
            self.stderr.write(f"INVALID {result.file}: {result.error}")
            return
        if result.passed:
            self.stdout.write(self.style.SUCCESS(f"PASS {result.file}"))
        else:
            self.stdout.write(self.style.ERROR(f"FAIL {result.file}"))
            for failure in result.failures:
                self.stdout.write(f"  {result.file}: {failure}")
        if result.url:
            self.stdout.write(f"  game kept: {result.url}")
