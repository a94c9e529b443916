"""Every rule ID of a game module's rules reference (``docs/rules/<file>.md``) has a row in ``docs/rules-coverage.md``
(the ID itself, not one of its sub-rules: ``FM-9`` is not covered by ``FM-9.1``)."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.contract.conftest import ROOT

RULES = ROOT / "docs" / "rules"
COVERAGE = ROOT / "docs" / "rules-coverage.md"
#: Module slug → its reference file, where the name is not the slug with dashes.
REFERENCES = {"forum_mafia": "forum-mafia.md", "onuw": "onuw.md", "bloodwood": "bloodwood.md",
              "blood_vengeance": "blood-vengeance.md", "october_night": "october-night.md"}
#: Module slug → its rule ID prefix, where the reference's own most frequent prefix would not do.
PREFIXES = {"forum_mafia": "FM", "onuw": "ON", "bloodwood": "BW", "blood_vengeance": "BV", "october_night": "OC"}


def reference_of(slug: str) -> Path:
    return RULES / REFERENCES.get(slug, slug.replace("_", "-") + ".md")


def prefix_of(slug: str, text: str) -> str:
    if slug in PREFIXES:
        return PREFIXES[slug]
    counts = Counter(re.findall(r"\b([A-Z]{2})-\d", text))
    assert counts, f"no rule IDs in the reference of {slug}"
    return counts.most_common(1)[0][0]


def rule_ids(text: str, prefix: str) -> list[str]:
    """Every rule ID of ``prefix`` in ``text`` (``FM-9``, ``FM-9.2``, ``FM-4.R1``, ``FM-10.H1``)."""
    return sorted(set(re.findall(rf"\b{prefix}-\d+(?:\.\d+)*(?:\.[RH]\d+)?\b", text)))


def uncovered(ids: list[str], coverage: str) -> list[str]:
    """The IDs with no mention of their own in ``coverage``."""
    return [i for i in ids if not re.search(rf"(?<![\w.-]){re.escape(i)}(?![.\d]*\d|\.[RH]\d)", coverage)]


def test_contract_every_rule_id_has_a_coverage_row(gm_module):
    reference = reference_of(gm_module.slug)
    assert reference.is_file(), f"{gm_module}: no rules reference at {reference.relative_to(ROOT)}"
    text = reference.read_text(encoding="utf-8")
    ids = rule_ids(text, prefix_of(gm_module.slug, text))
    assert ids, f"{gm_module}: no rule IDs in {reference.name}"
    missing = uncovered(ids, COVERAGE.read_text(encoding="utf-8"))
    assert not missing, f"{gm_module}: rule IDs of {reference.name} with no row in docs/rules-coverage.md: {missing}"


def test_contract_coverage_check_finds_a_missing_id(gm_module):
    """Self-test: a sub-rule's row does not cover its parent, and an ID named nowhere is reported."""
    coverage = "| FM-9.1 | a row |\n| FM-10.H1 | another |"
    assert uncovered(["FM-9", "FM-9.1", "FM-10", "FM-10.H1", "FM-9.5"], coverage) == ["FM-9", "FM-10", "FM-9.5"]
