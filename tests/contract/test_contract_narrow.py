"""No horizontal scroll at 375 px: each game module's game page, running and finished, for each viewer kind, in one
Chromium (Playwright on ``/usr/bin/chromium`` against the live server; the fixtures of ``tests/browser``)."""
from __future__ import annotations

import pytest

from tests.browser.conftest import NARROW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: What sticks out past the viewport (for the failure message).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')].filter(el => el.getBoundingClientRect().right > width + 0.5)
    .map(el => el.tagName + (el.id ? '#' + el.id : '') + (el.className ? '.' + el.className : ''));
  return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8)};
}"""


def test_contract_game_page_fits_a_phone(gm_module, transactional_db, live_server, new_context, table_at,
                                         monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM between pages, beside Playwright's loop
    problems, looked = [], 0
    for stage in ("running", "finished"):
        table = table_at(gm_module, stage)
        for viewer, user in table.users().items():
            _context, page = new_context(user)
            page.set_viewport_size({"width": NARROW, "height": 800})
            page.goto(table.game.get_absolute_url())
            facts = page.evaluate(OVERFLOW)
            looked += 1
            if facts["scroll"] > facts["width"]:
                problems.append(f"{stage} {viewer}: {facts}")
            page.close()
    assert looked == 12, looked
    assert not problems, f"{gm_module}: the game page scrolls sideways at {NARROW} px: {problems}"
