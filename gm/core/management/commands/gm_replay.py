"""``manage.py gm_replay <phase-id> [--json]`` — re-run a resolved phase and compare it with what was stored.

The phase is re-run from its stored input (``Phase.state``), the last order versions that counted and its RNG seed
through the same engine call ``phase_resolve`` makes (see :mod:`gm.core.replay`). Nothing is written.

Exit status: 0 and ``identical`` when the re-run equals the stored result and digest; 1 with every difference
(a JSON-path with the stored and the replayed value; the first 50 are printed) when it does not; 2 with a message
on stderr when the phase is unknown or not resolved, or the database is not migrated.
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand
from django.utils import translation
from django.utils.translation import ngettext

from gm.core import registry
from gm.core.management.base import command_language, require_migrated
from gm.core.replay import MISSING, ReplayError, json_path, replay_phase

#: How many differences are printed (all of them are counted).
SHOWN = 50


def _jsonable(value):
    return "<missing>" if value is MISSING else value


def _show(value) -> str:
    return "<missing>" if value is MISSING else json.dumps(value, ensure_ascii=False, default=str)


class Command(BaseCommand):
    help = "Re-run a resolved phase from its stored snapshot, orders and seed; compare with the stored result."

    def add_arguments(self, parser):
        parser.add_argument("phase_id", type=int, help="id of a resolved phase")
        parser.add_argument("--json", action="store_true", dest="as_json", help="print one JSON object instead of text")

    def handle(self, *args, phase_id: int, as_json: bool = False, **options):
        require_migrated()
        try:
            report = replay_phase(phase_id)
        except (ReplayError, registry.UnknownModule) as exc:
            message = str(exc) if isinstance(exc, ReplayError) else f"The game module “{exc}” is not loaded."
            self.stderr.write(message)
            raise SystemExit(2) from None
        if as_json:
            self.stdout.write(_dumps({
                "phase": report.phase_id,
                "identical": report.identical,
                "stored_digest": report.stored_digest,
                "replayed_digest": report.replayed_digest,
                "has_stored_result": report.has_stored_result,
                "differences": [{"path": json_path(p), "stored": _jsonable(a), "replayed": _jsonable(b)}
                                for p, a, b in report.differences[:SHOWN]],
                "difference_count": len(report.differences),
            }))
        elif report.identical:
            self.stdout.write("identical")
            if not report.has_stored_result:
                self.stdout.write("(only the digest was compared: this phase was resolved before results were stored)")
        else:
            self._print_differences(report)
        if not report.identical:
            raise SystemExit(1)

    def _print_differences(self, report) -> None:
        if report.stored_digest != report.replayed_digest:
            self.stdout.write(f"result_digest: stored {report.stored_digest or '<none>'}, "
                              f"replayed {report.replayed_digest}")
        if not report.has_stored_result:
            self.stdout.write("no stored result to compare field by field (resolved before results were stored)")
        for path, stored, replayed in report.differences[:SHOWN]:
            self.stdout.write(f"{json_path(path)}: stored {_show(stored)}, replayed {_show(replayed)}")
        if len(report.differences) > SHOWN:
            more = len(report.differences) - SHOWN
            with translation.override(command_language()):
                self.stdout.write(ngettext("… and %(count)s more difference", "… and %(count)s more differences",
                                           more) % {"count": more})


def _dumps(data) -> str:
    return json.dumps(data, ensure_ascii=False, default=str)
