"""The header a player reads on every page (issue 17, item 18): the language switcher is one button per language."""
from __future__ import annotations

import re

import pytest

from tests.helpers import client_for

pytestmark = pytest.mark.django_db


# -- the language switcher -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["ru", "en"])
def test_language_switcher_is_one_button_per_language_the_current_one_pressed(make_user, language):
    html = client_for(make_user("reader"), language=language).get("/").content.decode()
    form = re.search(r'<form[^>]*class="lang-switch".*?</form>', html, re.S).group(0)
    buttons = re.findall(r'<button type="submit" name="language" value="(\w+)"[^>]*aria-pressed="(\w+)"', form)
    assert buttons == [("ru", "true" if language == "ru" else "false"), ("en", "true" if language == "en" else "false")]
    assert "<select" not in form  # no select-and-submit pair: one tap switches
