"""The console's per-seat Kill/Revive and Replace forms are written out in ``gm/_seat_alive_fields.html`` and
``gm/_seat_replace_fields.html`` (Django's form rendering cost ~5 ms a form, two per seat): they must give what
``SeatAliveForm(...).as_div()`` and ``SeatReplaceForm(...).as_div()`` give, in both languages and for a living and a
dead seat — labels, ids, lengths, required flags and hidden values."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.test.html import parse_html
from django.utils import translation

from gm.core.console import seat_form_fields
from gm.core.forms import SeatAliveForm, SeatReplaceForm


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("alive", [True, False])
def test_the_written_out_seat_forms_are_the_forms(language, alive):
    seat = SimpleNamespace(pk=17, alive=alive)
    with translation.override(language):
        fields = seat_form_fields()
        ours = render_to_string("gm/_seat_alive_fields.html", {"seat": seat, "f": fields})
        django = SeatAliveForm(initial={"seat": 17, "alive": "0" if alive else "1"}, auto_id="alive-17-%s").as_div()
        assert parse_html(ours) == parse_html(django)
        ours = render_to_string("gm/_seat_replace_fields.html", {"seat": seat, "f": fields})
        django = SeatReplaceForm(initial={"seat": 17}, auto_id="replace-17-%s").as_div()
        assert parse_html(ours) == parse_html(django)
        assert 'id="replace-17-confirm"' in ours and "required" in ours
