"""The translation catalogues: the Russian one is complete and consistent, and the committed ``.mo`` files are
compiled from the current ``.po`` files. No database, no Django setup needed."""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
RU_PO = LOCALE / "ru" / "LC_MESSAGES" / "django.po"
EN_PO = LOCALE / "en" / "LC_MESSAGES" / "django.po"
PO_FILES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))

# Named printf-style placeholders as Python's % operator reads them: %(name)s, %(count)d, %(x)5.2f …
NAMED = re.compile(r"%\((\w+)\)[-#0 +]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[diouxXeEfFgGcrsa]")
# Positional ones (%s, %d …); "%%" is a literal percent sign.
POSITIONAL = re.compile(r"%(?!\()[-#0 +]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[diouxXeEfFgGcrsa]")

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)  # 0 for a plain msgstr, n for msgstr[n]
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    line: int = 0

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None

    @property
    def key(self) -> tuple[str | None, str, str | None]:
        return (self.msgctxt, self.msgid, self.msgid_plural)

    def __str__(self) -> str:
        ctx = f"[{self.msgctxt}] " if self.msgctxt is not None else ""
        return f"line {self.line}: {ctx}{self.msgid!r}"


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        raise ValueError(f"{where}: expected a quoted string, got {text!r}")
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            if i + 1 >= len(body) or body[i + 1] not in _ESCAPES:
                raise ValueError(f"{where}: bad escape in {text!r}")
            out.append(_ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


def parse_po(path: Path) -> list[Entry]:
    """The entries of a .po file, the header first; obsolete (``#~``) entries are kept, marked ``obsolete``."""
    entries: list[Entry] = []
    entry = Entry()
    started = False  # the current entry has a keyword line
    target: tuple[str, int] | None = None  # which string continuation lines ("…") extend

    def finish() -> None:
        nonlocal entry, started, target
        if started:
            entries.append(entry)
        entry, started, target = Entry(), False, None

    def append(value: str) -> None:
        kind, n = target
        if kind == "msgstr":
            entry.msgstr[n] += value
        elif kind == "msgid_plural":
            entry.msgid_plural += value
        else:
            setattr(entry, kind, getattr(entry, kind) + value)

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        where = f"{path}:{number}"
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            if line.startswith("|"):  # previous msgid of an obsolete fuzzy entry
                continue
        if not line:
            finish()
            continue
        if line.startswith("#"):
            if started:  # a comment begins the next entry (no blank line in between)
                finish()
            if line.startswith("#,"):
                entry.flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            continue
        if line.startswith('"'):
            if target is None:
                raise ValueError(f"{where}: a string continuation outside any keyword")
            append(_unquote(line, where))
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and started and (target is None or target[0] in ("msgstr",)):
            finish()  # a new entry without a separating blank line
        if not started:
            entry.line, started = number, True
        entry.obsolete = entry.obsolete or obsolete
        value = _unquote(rest, where)
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            setattr(entry, keyword, value)
            target = (keyword, 0)
        elif keyword == "msgstr":
            entry.msgstr[0] = value
            target = ("msgstr", 0)
        elif m := re.fullmatch(r"msgstr\[(\d+)\]", keyword):
            n = int(m.group(1))
            entry.msgstr[n] = value
            target = ("msgstr", n)
        else:
            raise ValueError(f"{where}: unknown keyword {keyword!r}")
    finish()
    return entries


def live_entries(path: Path) -> list[Entry]:
    return [e for e in parse_po(path) if not e.obsolete and not e.is_header]


def header(path: Path) -> dict[str, str]:
    entries = [e for e in parse_po(path) if e.is_header and not e.obsolete]
    assert entries, f"{path} has no header entry"
    fields = {}
    for line in entries[0].msgstr[0].splitlines():
        name, _, value = line.partition(":")
        fields[name.strip()] = value.strip()
    return fields


def nplurals(path: Path) -> int:
    m = re.search(r"nplurals\s*=\s*(\d+)", header(path).get("Plural-Forms", ""))
    assert m, f"{path}: the header has no Plural-Forms"
    return int(m.group(1))


# -- the parser itself -----------------------------------------------------------------------------------


def test_parser_reads_multiline_plural_context_and_obsolete_entries(tmp_path):
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: ru\\n"\n"Plural-Forms: nplurals=3; plural=0;\\n"\n\n'
        '#: a.py:1\n#, fuzzy, python-format\nmsgid ""\n"Hello, "\n"%(name)s \\"x\\"\\n"\nmsgstr "Привет, %(name)s"\n\n'
        'msgctxt "verb"\nmsgid "Post"\nmsgstr "Отправить"\n'
        'msgid "%(count)s game"\nmsgid_plural "%(count)s games"\n'
        'msgstr[0] "%(count)s игра"\nmsgstr[1] "%(count)s игры"\nmsgstr[2] ""\n"%(count)s игр"\n\n'
        '#~ msgid "Old"\n#~ msgstr "Старое"\n',
        encoding="utf-8",
    )
    entries = parse_po(po)
    assert [e.is_header for e in entries] == [True, False, False, False, False]
    assert header(po)["Language"] == "ru" and nplurals(po) == 3
    hello, post, games, old = entries[1:]
    assert hello.msgid == 'Hello, %(name)s "x"\n' and hello.flags == {"fuzzy", "python-format"}
    assert (post.msgctxt, post.msgid, post.msgstr) == ("verb", "Post", {0: "Отправить"})
    assert games.msgid_plural == "%(count)s games" and games.msgstr[2] == "%(count)s игр"
    assert old.obsolete and old.msgstr == {0: "Старое"}


# -- the Russian catalogue -------------------------------------------------------------------------------


def test_russian_catalogue_exists_and_has_entries():
    assert RU_PO.is_file() and EN_PO.is_file()
    assert live_entries(RU_PO), "the Russian catalogue is empty"
    assert header(RU_PO).get("Language") == "ru"


def test_every_russian_entry_is_translated():
    n = nplurals(RU_PO)
    untranslated = []
    for entry in live_entries(RU_PO):
        expected = set(range(n)) if entry.msgid_plural is not None else {0}
        if set(entry.msgstr) != expected or not all(s.strip() for s in entry.msgstr.values()):
            untranslated.append(str(entry))
    assert not untranslated, "untranslated or incomplete entries:\n" + "\n".join(untranslated)


def test_no_russian_entry_is_fuzzy():
    fuzzy = [str(e) for e in parse_po(RU_PO) if "fuzzy" in e.flags and not e.obsolete]
    assert not fuzzy, "fuzzy entries (Django skips them):\n" + "\n".join(fuzzy)


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_placeholders_match(po):
    """Every %(name)s of the source is in each translation and the translation has no other; positional
    placeholders (%s, %d) agree in number. Untranslated (empty) strings fall back to the source and pass."""
    problems = []
    for entry in live_entries(po):
        source = entry.msgid + "\0" + (entry.msgid_plural or "")
        want_named = set(NAMED.findall(source))
        want_positional = len(POSITIONAL.findall(entry.msgid.replace("%%", "")))
        for n, text in sorted(entry.msgstr.items()):
            if not text:
                continue
            got = set(NAMED.findall(text))
            if got != want_named:
                problems.append(f"{entry} msgstr[{n}]: missing {sorted(want_named - got)}, "
                                f"extra {sorted(got - want_named)}")
            if len(POSITIONAL.findall(text.replace("%%", ""))) != want_positional:
                problems.append(f"{entry} msgstr[{n}]: positional placeholders differ")
    assert not problems, "\n".join(problems)


def test_catalogues_have_the_same_msgids():
    ru = {e.key for e in live_entries(RU_PO)}
    en = {e.key for e in live_entries(EN_PO)}
    assert ru == en, f"only in ru: {sorted(map(str, ru - en))}; only in en: {sorted(map(str, en - ru))}"


# -- the compiled catalogues -----------------------------------------------------------------------------


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_mo_is_up_to_date(po, tmp_path):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("GNU gettext (msgfmt) is not installed")
    mo = po.with_suffix(".mo")
    assert mo.is_file(), f"{mo} is missing: run `manage.py compilemessages --ignore=.venv`"
    fresh = tmp_path / "django.mo"
    result = subprocess.run([msgfmt, "--check", "-o", str(fresh), str(po)], capture_output=True, text=True)
    assert result.returncode == 0, f"msgfmt rejects {po}:\n{result.stderr}"
    assert fresh.read_bytes() == mo.read_bytes(), (
        f"{mo} is stale: run `manage.py compilemessages --ignore=.venv`"
    )
