"""Every template the site can render (the project's, the apps' and the game modules') is free of inline scripts
and inline event handlers, which the enforced ``script-src 'self'`` policy would block."""
from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.template.loaders.app_directories import get_app_template_dirs

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc\s*=)[^>]*>", re.I)
HANDLER = re.compile(r"""<[a-z][^>]*\son[a-z]+\s*=\s*["'{]""", re.I | re.S)
HX_ON = re.compile(r"\shx-on(?::|-)", re.I)
# htmx evaluates trigger filters (change[...]) and js: values with Function(): blocked without 'unsafe-eval'.
HX_EVAL = re.compile(r"""hx-trigger\s*=\s*["'][^"']*\[|hx-(?:vals|vars)\s*=\s*["']\s*(?:js|javascript):""", re.I)
JS_URL = re.compile(r"""(?:href|src|action)\s*=\s*["']\s*javascript:""", re.I)

SITE_PACKAGES_MARK = "site-packages"


def _project_templates() -> list[Path]:
    dirs = [Path(d) for d in settings.TEMPLATES[0]["DIRS"]]
    dirs += [Path(d) for d in get_app_template_dirs("templates") if SITE_PACKAGES_MARK not in str(d)]
    return sorted({f for d in dirs for f in d.rglob("*") if f.suffix in {".html", ".txt", ".xml"} and f.is_file()})


def test_the_scan_finds_the_templates():
    names = {f.name for f in _project_templates()}
    assert {"base.html", "game_detail.html"} <= names, names


def test_the_patterns_catch_what_they_must():
    assert INLINE_SCRIPT.search("<script>alert(1)</script>") and not INLINE_SCRIPT.search('<script src="/a.js">')
    assert HANDLER.search('<button type="button" onclick="go()">') and HANDLER.search("<body\nonload='x()'>")
    assert not HANDLER.search('<meta name="viewport" content="width=device-width">')
    assert HX_ON.search('<div hx-on:click="x()">') and JS_URL.search('<a href="javascript:void(0)">')
    assert HX_EVAL.search('<form hx-trigger="change[target.checked], submit">')
    assert HX_EVAL.search('<a hx-vals="js:{a: 1}">')
    assert not HX_EVAL.search('<form hx-trigger="fm-pick, submit">')


def test_no_template_holds_inline_script_or_handler():
    offenders = []
    for path in _project_templates():
        text = path.read_text(encoding="utf-8")
        for pattern in (INLINE_SCRIPT, HANDLER, HX_ON, HX_EVAL, JS_URL):
            for match in pattern.finditer(text):
                offenders.append(f"{path}:{text.count(chr(10), 0, match.start()) + 1}: {match.group(0)[:60]}")
    assert not offenders, "\n".join(offenders)
