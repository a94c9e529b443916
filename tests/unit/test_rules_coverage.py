"""``docs/rules-coverage.md`` stays true: every rule ID of forum Mafia §5, §6 and §10, every [house] and [reading] ID
(``FM-….H<n>``, ``FM-….R<n>``) and every §11 card has a row, and every test or scenario file a row names exists (so
a renamed or deleted test shows up here). The references are read from ``docs/rules/`` (the rules the site serves,
part of every clone), so nothing here skips."""
from __future__ import annotations

import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules-coverage.md"
REFERENCE = ROOT / "docs" / "rules" / "forum-mafia.md"
SCENARIOS = ROOT / "gm" / "modules" / "forum_mafia" / "tests" / "scenarios"
SECTION = "## Forum Mafia: orders and resolution"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert SECTION in text, "the orders-and-resolution section is missing"
    return text[text.index(SECTION):].split(ONUW_SECTION)[0]


def _aliases(section: str) -> dict[str, Path]:
    """``U`` = `tests/unit/test_fm_resolution.py` → {"U": path} from the section's legend (a path under ``tests/``
    or inside a module, ``gm/…``)."""
    return {alias: ROOT / path for alias, path in re.findall(r"`(\w)` = `((?:tests|gm)/[\w/]+\.py)`", section)}


def _test_names(path: Path) -> list[str]:
    return re.findall(r"^(?:async )?def (test_\w+)", path.read_text(encoding="utf-8"), re.M)


def test_every_named_test_and_scenario_exists():
    section = _section()
    aliases = _aliases(section)
    assert {"U", "O"} <= set(aliases), aliases
    missing = []
    for alias, pattern in re.findall(r"`(\w)::(test_[\w*]+)`", section):
        names = _test_names(aliases[alias])
        if not fnmatch.filter(names, pattern):
            missing.append(f"{alias}::{pattern}")
    for path, pattern in re.findall(r"`((?:gm/modules/\w+/)?tests/[\w/]+\.py)::(test_[\w*]+)`", section):
        if not fnmatch.filter(_test_names(ROOT / path), pattern):
            missing.append(f"{path}::{pattern}")
    files = [p.name for p in SCENARIOS.glob("*") if p.suffix in (".yaml", ".yml", ".json")]
    for pattern in re.findall(r"`S/([^`]+)`", section):
        if not fnmatch.filter(files, pattern):
            missing.append(f"S/{pattern}")
    assert not missing, f"docs/rules-coverage.md names tests or scenarios that don't exist: {missing}"


def test_every_rule_id_of_sections_5_6_10_and_every_card_has_a_row():
    reference = REFERENCE.read_text(encoding="utf-8")
    section = _section()
    rows = {m.strip() for m in re.findall(r"^\| ([^|]+) \|", section, re.M)}
    ids = sorted(set(re.findall(r"\b(FM-(?:5|6|10)\.\d+)\b(?!\.[RH]\d)", reference)))
    ids += sorted(set(re.findall(r"\b(FM-\d+(?:\.\d+)?\.[RH]\d+)\b", reference)))  # [reading] and [house] IDs
    layers = [f"FM-6 L{n}" for n in range(9)]
    missing = [i for i in ids + layers if i not in rows]
    table = reference[reference.index("## 11."):]
    cards = [c for c in re.findall(r"^\| ([a-z_]+) \|", table, re.M) if c != "slug"]
    assert len(cards) == 43
    missing += [c for c in cards if f"`{c}`" not in rows]
    assert not missing, f"no row in docs/rules-coverage.md for {missing}"


ONUW_SECTION = "## One Night Ultimate Werewolf"
ONUW_REFERENCE = ROOT / "docs" / "rules" / "onuw.md"
ONUW_SCENARIOS = ROOT / "gm" / "modules" / "onuw" / "tests" / "scenarios"


def _onuw_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert ONUW_SECTION in text, "the ONUW section is missing"
    section = text[text.index(ONUW_SECTION):]
    following = section.find("\n## ", len(ONUW_SECTION))
    return section if following == -1 else section[:following]


def test_onuw_named_tests_and_scenarios_exist():
    section = _onuw_section()
    aliases = _aliases(section)
    assert {"E", "H", "W"} <= set(aliases), aliases
    missing = [f"{a}::{p}" for a, p in re.findall(r"`(\w)::(test_[\w*]+)`", section)
               if not fnmatch.filter(_test_names(aliases[a]), p)]
    files = [p.name for p in ONUW_SCENARIOS.glob("*.yaml")]
    missing += [f"S/{p}" for p in re.findall(r"`S/([^`]+)`", section) if not fnmatch.filter(files, p)]
    assert not missing, f"the ONUW section names tests or scenarios that don't exist: {missing}"


def test_every_onuw_rule_id_has_a_row_a_test_and_a_scenario():
    ids = sorted(set(re.findall(r"\b(ON-\d+(?:\.\d+)?)\b", ONUW_REFERENCE.read_text(encoding="utf-8"))))
    rows = {m.strip() for m in re.findall(r"^\| ([^|]+) \|", _onuw_section(), re.M)}
    assert not [i for i in ids if i not in rows], "no row in docs/rules-coverage.md"
    tests = " ".join(name for path in ("gm/modules/onuw/tests/test_engine.py", "gm/modules/onuw/tests/test_shell.py")
                     for name in _test_names(ROOT / path))
    scenarios = " ".join(p.name for p in ONUW_SCENARIOS.glob("*.yaml"))
    top = sorted({i.split(".")[0] for i in ids})
    assert not [i for i in top if i.replace("-", "_") + "_" not in tests], "a rule ID no ONUW test names"
    assert not [i for i in ids if i + "_" not in scenarios and i not in ("ON-4",)], "a rule ID with no scenario"
