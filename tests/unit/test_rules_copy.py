"""``docs/rules/`` is the repository's copy of the steering repository's ``shared/rules/``: every rule of a reference
is in the copy with the same text, unless the copy marks it as the site's own (**[reading]** or **[house]**).

The comparison needs ``../shared/rules/`` beside the checkout and is skipped without it; the rule-coverage tests read
``docs/rules/`` and never skip."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules"
SHARED = ROOT.parent / "shared" / "rules"
#: A rule's definition: a list item that starts with its ID (``- FM-5.7 **Price** …``).
ITEM = re.compile(r"^(?P<indent>\s*)- (?P<id>(?:FM|ON|BW|BV|OC)-\d+[0-9A-Za-z.]*)\b")
SITE_MARKS = ("[reading]", "[house]")


def rules(text: str) -> dict[str, str]:
    """Rule ID → its definition's text (the item's lines, whitespace collapsed), in a reference's Markdown."""
    found: dict[str, str] = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = ITEM.match(line)
        if not m:
            continue
        body, indent = [line], len(m["indent"])
        for nxt in lines[i + 1:]:
            stripped = nxt.lstrip()
            if not stripped or stripped.startswith("#") or len(nxt) - len(stripped) <= indent:
                break
            body.append(nxt)
        found.setdefault(m["id"].rstrip("."), " ".join(" ".join(body).split()))
    return found


def references() -> list[str]:
    return sorted(p.name for p in SHARED.glob("*.md")) if SHARED.is_dir() else []


def test_rules_parse_items_and_their_continuations():
    text = "- FM-1 First line\n  continued here.\n- FM-2 Second.\n\n## 3\n- FM-3.1 **[house]** Ours.\n"
    assert rules(text) == {"FM-1": "- FM-1 First line continued here.", "FM-2": "- FM-2 Second.",
                           "FM-3.1": "- FM-3.1 **[house]** Ours."}


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/rules/ is not beside this checkout")
@pytest.mark.parametrize("name", references())
def test_every_reference_rule_is_in_the_repository_copy_unchanged(name):
    copy_path = DOCS / name
    assert copy_path.exists(), f"docs/rules/{name} is missing: copy ../shared/rules/{name} there"
    theirs, ours = rules((SHARED / name).read_text(encoding="utf-8")), rules(copy_path.read_text(encoding="utf-8"))
    missing = sorted(set(theirs) - set(ours))
    assert not missing, f"docs/rules/{name} lacks {missing}"
    changed = [rid for rid, text in theirs.items()
               if ours[rid] != text and not any(mark in ours[rid] for mark in SITE_MARKS)]
    assert not changed, f"docs/rules/{name} changed {changed} without marking them [reading] or [house]"
