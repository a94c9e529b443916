"""The thread's post preview (htmx and no-JS; rendered by the same BBCode renderer and sanitiser, writes nothing)
and its BBCode button bar (static script, no inline script)."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gm.core.models import Post, PostPrivate

from .test_thread import table  # noqa: F401 — the fixture

pytestmark = pytest.mark.django_db

XSS = '[b]Hi[/b] <script>alert(1)</script> [url=javascript:alert(2)]x[/url]'


def _preview(body: str) -> str:
    match = re.search(r'<div class="card post-preview" id="post-preview".*?</div>\s*</div>|'
                      r'<div class="card post-preview" id="post-preview".*?</div>', body, re.S)
    assert match, "no preview block"
    return match.group(0)


def test_FM_9_1_preview_with_htmx_renders_sanitised_and_saves_nothing(table):  # noqa: F811
    url = reverse("gm:post_create", args=[table.game.pk])
    response = table.client("Anna").post(url, {"body": XSS, "comment": "c", "preview": "1"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and Post.objects.count() == 0
    block = _preview(body)
    assert "<strong>Hi</strong>" in block and "<script" not in block and "javascript:" not in block
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in block
    # the text stays in the reply box for posting
    assert "[b]Hi[/b] &lt;script&gt;" in body.split('name="body"')[1].split("</textarea>")[0]


def test_FM_9_2_preview_shows_the_private_part_and_refusals_without_saving(table):  # noqa: F811
    url = reverse("gm:post_create", args=[table.game.pk])
    boris = table.client("Boris")
    body = boris.post(url, {"body": 'Day talk [private="Anna"][i]psst[/i][/private]', "preview": "1"},
                      HTTP_HX_REQUEST="true").content.decode()
    block = _preview(body)
    assert "Day talk" in block and "<em>psst</em>" in block and "Anna" in block
    body = boris.post(url, {"body": '[private="Anna"]a[/private][private="Eva"]b[/private]', "preview": "1"},
                      HTTP_HX_REQUEST="true").content.decode()
    assert "only one private message" in _preview(body)
    assert Post.objects.count() == 0 and PostPrivate.objects.count() == 0


def test_FM_9_1_preview_without_javascript(table):  # noqa: F811
    url = reverse("gm:post_create", args=[table.game.pk])
    anna = table.client("Anna")
    response = anna.post(url, {"body": "[u]draft[/u]", "comment": "note", "preview": "1"}, follow=True)
    body = response.content.decode()
    assert response.redirect_chain == [(table.game.get_absolute_url() + "#post-preview", 302)]
    assert "<u>draft</u>" in _preview(body)
    assert "[u]draft[/u]</textarea>" in body and Post.objects.count() == 0
    # shown once: the next visit has neither the preview nor the draft
    again = table.page("Anna")
    assert 'id="post-preview"' not in again and "[u]draft[/u]</textarea>" not in again


def test_bbcode_bar_is_static_script_only(table):  # noqa: F811
    page = table.page("Anna")
    assert 'class="bbcode-bar"' in page and 'data-target="post-body"' in page
    assert "js/bbcode.js" in page
    # no inline script or handler attribute (script-src 'self')
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)
    assert not re.search(r"\son(click|load|input)=", page)
