"""The rules the site serves: ``docs/rules/*.md`` rendered as pages with an anchor per rule ID, and links to them
from any text that names a rule ID ("(FM-5.3)" in a refusal, a role's text…).

* :func:`documents` — the rules files (slug = file name without ``.md``) with their titles;
* :func:`render` — one file as safe HTML: Markdown by ``markdown-it-py`` (CommonMark with tables; raw HTML in the
  file is shown as text, never passed through), cleaned again by ``nh3``, then every paragraph, list item or heading
  that *starts* with a rule ID gets that ID as its ``id`` (so ``/rules/forum-mafia/#FM-5.3`` lands on it) and every
  other mention of an ID becomes a link to where it is defined;
* :func:`link_ids` — plain text with its rule IDs linked (escaped first), for templates (``|rule_links``);
* :func:`locate` — the page and anchor of one rule ID (``/rules/<slug>/#<ID>``), from the index of where each ID is
  defined; an ID defined nowhere goes to the page of its prefix.

Rule IDs look like ``FM-5.3``, ``FM-10.H1``, ``ON-4.1``, ``BW-6a``, ``OC-14.4a``, ``BV-13.0``: a known prefix
(:data:`PREFIXES`), a dash, a number, then dotted parts (``H`` house numbers included) and an optional letter.
"""
from __future__ import annotations

import functools
import html
import re
import time
from dataclasses import dataclass
from pathlib import Path

import nh3
from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

#: Rule ID prefix → the rules file (slug) that holds its rules.
PREFIXES = {"FM": "forum-mafia", "ON": "onuw", "BW": "bloodwood", "BV": "blood-vengeance", "OC": "october-night"}
RULE_ID = re.compile(r"(?<![\w/#.-])(?:" + "|".join(PREFIXES) + r")-\d+[a-z]?(?:\.(?:H?\d+[a-z]?))*(?![\w-])")
#: A paragraph, list item or heading whose text starts with a rule ID (optionally after a ``<p>`` or ``<strong>``).
_DEFINITION = re.compile(r"<(li|p|h[1-6])>(\s*(?:<p>)?\s*(?:<strong>)?)(" + RULE_ID.pattern + r")")
_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "strong", "em", "code", "pre", "blockquote",
         "table", "thead", "tbody", "tr", "th", "td", "a", "hr", "br", "del", "s"}


def rules_dir() -> Path:
    """Where the rules files are: ``settings.GM_RULES_DIR`` if set, else ``docs/rules`` of the checkout."""
    return Path(getattr(settings, "GM_RULES_DIR", None) or settings.BASE_DIR / "docs" / "rules")


@dataclass(frozen=True)
class Document:
    """One rules file: ``slug`` (file name without ``.md``), ``title`` (its first heading) and ``path``."""

    slug: str
    title: str
    path: Path

    @property
    def url(self) -> str:
        return reverse("gm:rules", args=[self.slug])


def documents() -> list[Document]:
    """Every ``*.md`` rules file but the folder's README, by slug."""
    out = []
    for path in sorted(rules_dir().glob("*.md")):
        if path.stem.lower() == "readme":
            continue
        first = next((line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#")), "")
        out.append(Document(slug=path.stem, title=first.lstrip("# ").strip() or path.stem, path=path))
    return out


def document(slug: str) -> Document | None:
    """The rules file ``slug``, or ``None`` (an unknown slug, or anything that is not a plain file name)."""
    return next((d for d in documents() if d.slug == slug), None)


def _definitions(text: str) -> list[str]:
    """The rule IDs ``text`` (Markdown) defines: those a line starts with (after a list bullet or heading marks)."""
    return re.findall(r"^\s*(?:[-*+]\s+|#+\s+|\d+\.\s+)?(?:\*\*)?(" + RULE_ID.pattern + r")", text, re.M)


@functools.lru_cache(maxsize=4)
def _index(stamp: tuple) -> dict[str, str]:
    index: dict[str, str] = {}
    homes = set(PREFIXES.values())
    # The prefix's own file first: another file that starts a line with its ID only comments on it.
    for slug, path in sorted(((s, p) for s, p, _m in stamp), key=lambda sp: sp[0] not in homes):
        for rule_id in _definitions(Path(path).read_text(encoding="utf-8")):
            if slug in homes and PREFIXES.get(rule_id.split("-", 1)[0]) != slug:
                continue  # e.g. ``scenario-format.md`` or a BV file naming an FM rule
            index.setdefault(rule_id, slug)
    return index


#: Rules directory → ``(monotonic time, stamp)`` of the last look at its files (:func:`_stamp`).
_last_stamps: dict[str, tuple[float, tuple]] = {}


def _stamp() -> tuple:
    """The rules files' slugs, paths and modification times — from their directory listing, not their text (every
    rule link of a page asks: issue 25 found each one reading every file), looked at again at most once a second."""
    folder = rules_dir()
    now = time.monotonic()
    seen = _last_stamps.get(str(folder))
    if seen is None or now - seen[0] >= 1.0:
        stamp = tuple((p.stem, str(p), p.stat().st_mtime_ns) for p in sorted(folder.glob("*.md"))
                      if p.stem.lower() != "readme")
        seen = _last_stamps[str(folder)] = (now, stamp)
    return seen[1]


def index() -> dict[str, str]:
    """Rule ID → slug of the file that defines it (the first one, by file name), re-read when a file changes."""
    return _index(_stamp())


def locate(rule_id: str) -> str:
    """The URL of rule ``rule_id``'s definition: ``/rules/<slug>/#<ID>``; an ID no file defines goes to the file
    of its prefix (an unknown prefix: the rules index)."""
    slug = index().get(rule_id) or PREFIXES.get(rule_id.split("-", 1)[0])
    if slug is None:
        return reverse("gm:rules_index")
    return f"{reverse('gm:rules', args=[slug])}#{rule_id}"


def _link(match: re.Match) -> str:
    rule_id = match.group(0)
    return f'<a class="rule-link" href="{html.escape(locate(rule_id))}">{rule_id}</a>'


def link_ids(text: object) -> SafeString:
    """``text`` escaped, with every rule ID in it a link to its definition (:func:`locate`)."""
    return mark_safe(RULE_ID.sub(_link, html.escape(str(text))))


def _link_outside_tags(markup: str) -> str:
    """Link the rule IDs of ``markup``'s text, not inside tags, links or code."""
    out, depth = [], 0
    for part in re.split(r"(<[^>]+>)", markup):
        if part.startswith("<"):
            name = re.match(r"</?\s*(\w+)", part)
            if name and name.group(1) in ("a", "code", "pre"):
                depth += -1 if part.startswith("</") else 1
            out.append(part)
        else:
            out.append(part if depth > 0 else RULE_ID.sub(_link, part))
    return "".join(out)


@functools.lru_cache(maxsize=16)
def _render(path: str, mtime: int, stamp: tuple) -> str:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = nh3.clean(md.render(Path(path).read_text(encoding="utf-8")), tags=_TAGS,
                     attributes={"a": {"href"}, "th": {"style"}, "td": {"style"}})
    seen: set[str] = set()

    def anchor(match: re.Match) -> str:
        tag, lead, rule_id = match.group(1), match.group(2), match.group(3)
        if rule_id in seen:  # an ID mentioned again at a line's start: linked, not a second anchor
            return match.group(0)
        seen.add(rule_id)
        return f'<{tag} id="{rule_id}">{lead}<a class="rule-anchor" href="#{rule_id}">{rule_id}</a>'

    return _link_outside_tags(_DEFINITION.sub(anchor, body))


def render(doc: Document) -> SafeString:
    """``doc`` as safe HTML with an anchor per rule ID it defines (see the module docstring)."""
    return mark_safe(_render(str(doc.path), doc.path.stat().st_mtime_ns, _stamp()))
