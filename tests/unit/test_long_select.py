"""``accounts.forms.LongSelect``: the profile's time-zone select written in Python gives Django's ``Select`` markup
(name, attributes, each option's value and label escaped, the selected one marked) — only faster."""
from __future__ import annotations

from django import forms
from django.test.html import parse_html

from accounts.forms import LongSelect

CHOICES = [("Europe/Kyiv", "Europe/Kyiv"), ("A&B", "<b>A & B</b>"), ("UTC", "UTC")]


def test_long_select_renders_what_djangos_select_renders():
    for value in ("A&B", "UTC", None):
        attrs = {"id": "id_tz", "required": True, "aria-describedby": "id_tz_helptext"}
        ours = LongSelect(choices=CHOICES).render("tz", value, attrs=attrs)
        django = forms.Select(choices=CHOICES).render("tz", value, attrs=attrs)
        assert parse_html(ours) == parse_html(django)  # attribute order and white space aside
    assert 'value="A&amp;B" selected>&lt;b&gt;A &amp; B&lt;/b&gt;</option>' in LongSelect(choices=CHOICES).render(
        "tz", "A&B")
