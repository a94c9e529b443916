"""What the management commands and the console's trace line say.

* On a database that is not migrated, ``gm_scenario``, ``gm_replay`` and ``gm_demo`` say "run manage.py migrate
  first" and exit with status 2 — no traceback.
* Counted phrases are pluralised in both languages: the master console's trace line ("Resolved in 4 ms with 1
  order.") and the commands' counts (``GM_COMMAND_LANGUAGE`` chooses their language; English by default).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import ngettext

from gm.core import messages

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "gm" / "modules" / "forum_mafia" / "tests" / "scenarios" / "role_idler.yaml"


@pytest.mark.parametrize("argv", [["gm_scenario", str(SCENARIO)], ["gm_replay", "1"], ["gm_demo"]],
                         ids=lambda argv: argv[0])
def test_commands_on_an_unmigrated_database_say_run_migrate_first(argv, tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "CELERY_BROKER_URL": "memory://",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}"}
    done = subprocess.run([sys.executable, "manage.py", *argv], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "run manage.py migrate first" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout, done.stderr


TRACE = {
    "en": {1: "Resolved in 4 ms with 1 order.", 2: "Resolved in 4 ms with 2 orders.",
           5: "Resolved in 4 ms with 5 orders.", 21: "Resolved in 4 ms with 21 orders."},
    "ru": {1: "Итоги подведены за 4 мс: учтён 1 приказ.", 2: "Итоги подведены за 4 мс: учтено 2 приказа.",
           5: "Итоги подведены за 4 мс: учтено 5 приказов.", 21: "Итоги подведены за 4 мс: учтён 21 приказ."},
}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_console_trace_line_is_pluralised(language):
    for orders, expected in TRACE[language].items():
        with translation.override(language):
            assert messages.render("core.trace", {"duration_ms": 4, "orders": orders}, "tally") == expected


COMMAND_PHRASES = {
    # (singular, plural): {count: (English, Russian)}
    ("Deleted %(count)s demo game.", "Deleted %(count)s demo games."): {
        1: ("Deleted 1 demo game.", "Удалена 1 демо-игра."), 3: ("Deleted 3 demo games.", "Удалены 3 демо-игры."),
        6: ("Deleted 6 demo games.", "Удалено 6 демо-игр.")},
    ("Demo data loaded (%(count)s game created).", "Demo data loaded (%(count)s games created)."): {
        1: ("Demo data loaded (1 game created).", "Демо-данные загружены (создана 1 игра)."),
        2: ("Demo data loaded (2 games created).", "Демо-данные загружены (созданы 2 игры)."),
        11: ("Demo data loaded (11 games created).", "Демо-данные загружены (создано 11 игр).")},
    ("… and %(count)s more difference", "… and %(count)s more differences"): {
        1: ("… and 1 more difference", "… и ещё 1 различие"), 4: ("… and 4 more differences", "… и ещё 4 различия"),
        25: ("… and 25 more differences", "… и ещё 25 различий")},
}


@pytest.mark.parametrize("phrase", list(COMMAND_PHRASES), ids=lambda phrase: phrase[0][:24])
def test_command_counts_are_pluralised_in_both_languages(phrase):
    for count, texts in COMMAND_PHRASES[phrase].items():
        for language, expected in zip(("en", "ru"), texts, strict=True):
            with translation.override(language):
                assert ngettext(*phrase, count) % {"count": count} == expected


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "expected"), [
    ("en", "2 files: 2 passed, 0 failed, 0 invalid"),
    ("ru", "2 файла: пройдено 2, не пройдено 0, с ошибками 0"),
    (None, "2 files: 2 passed, 0 failed, 0 invalid"),
])
def test_gm_scenario_summary_in_the_command_language(language, expected, tmp_path, monkeypatch, card_collection):
    if language is None:
        monkeypatch.delenv("GM_COMMAND_LANGUAGE", raising=False)
    else:
        monkeypatch.setenv("GM_COMMAND_LANGUAGE", language)
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps({"game": "forum_mafia", "players": [
            {"name": "A", "secret_role": "sheriff", "hand": ["pistol"]}], "steps": []}))
    out = StringIO()
    call_command("gm_scenario", str(tmp_path), stdout=out, stderr=StringIO())
    assert expected in out.getvalue()
    assert out.getvalue().count("PASS ") == 2  # the machine-readable lines stay as they are


@pytest.mark.django_db
def test_a_migration_unapplied_later_in_the_same_process_is_still_refused():
    """``require_migrated`` remembers the applied set it found complete; a database that loses a migration
    afterwards (here its record) is checked in full again and refused."""
    from django.core.management.base import CommandError
    from django.db.migrations.recorder import MigrationRecorder

    from gm.core.management.base import SETUP_ERROR, require_migrated

    require_migrated()
    require_migrated()  # the remembered set
    MigrationRecorder.Migration.objects.filter(app="core").order_by("-id")[:1].get().delete()
    with pytest.raises(CommandError, match="run manage.py migrate first") as refused:
        require_migrated()
    assert refused.value.returncode == SETUP_ERROR
