"""The functional core stays pure: engines and card domain modules import no Django, read no clock, use no global
random and do no I/O (DEVELOPERS.md, "Functional core, imperative shell")."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE_MODULES = [
    "gm.core.engine",
    "cards.domain",
    "cards.containers",
    "cards.deckrules",
    "cards.collection_data",
    "cards.deckbuilding",
    "gm.modules.forum_mafia.engine.roles",
    "gm.modules.forum_mafia.engine.opening",
    "gm.modules.forum_mafia.engine.resolution",
    "gm.modules.forum_mafia.engine.abilities",
    "gm.modules.forum_mafia.engine.table",
    "gm.modules.forum_mafia.engine.thread_rules",
    "gm.modules.forum_mafia.engine.master_edit",
    "gm.modules.forum_mafia.engine.room_comments",
]
BANNED_SOURCE = ("random.random(", "random.shuffle(", "random.choice(", "random.seed(", "random.randint(",
                 "datetime.now", "time.time(", "open(")


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_imports_no_django(module):
    # The ``gm`` package's __init__ sets up Celery (and so Django's settings); stand in an empty package for it,
    # so that only the module's own imports are measured.
    code = (
        "import sys, types\n"
        "gm = types.ModuleType('gm'); gm.__path__ = ['gm']; sys.modules['gm'] = gm\n"
        f"import {module}\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", f"{module} pulls in Django: {out.stdout}"


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_uses_no_clock_global_random_or_io(module):
    source = (ROOT / (module.replace(".", "/") + ".py")).read_text()
    found = [banned for banned in BANNED_SOURCE if banned in source]
    assert not found, f"{module} uses {found}"
