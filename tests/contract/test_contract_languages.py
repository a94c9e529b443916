"""Every page of each game module renders in Russian and in English with no untranslated string, for each viewer
kind at each stage: the module's own pages (its URL patterns that answer a GET with HTML) and the game page. The
checks are those of ``tests/integration/test_page_languages.py`` (no Cyrillic on an English page, no run of English
words nor catalogue phrase on a Russian one, no raw identifier); the test data the scenario files chose — seat and
user names, the game's title and description, the runner's notes — are taken out of the text first, as they are in
no language of ours."""
from __future__ import annotations

import pytest

from tests.contract.conftest import STAGES, module_routes, route_urls
from tests.helpers import client_for
from tests.integration.test_page_languages import english_leftovers, russian_leftovers, visible_text

pytestmark = pytest.mark.django_db


def names_of(game) -> list[str]:
    """The names and words the game's test data brought (longest first, so a name is cut before its parts)."""
    words = {game.title, *game.description.split("\n"),
             *game.audit_entries.values_list("reason", flat=True)}  # the scenario runner's notes
    for seat in game.seats.select_related("user__profile"):
        words |= {seat.display_name, seat.user.username}
        profile = getattr(seat.user, "profile", None)
        if profile is not None and profile.display_name:
            words.add(profile.display_name)
    words |= {game.master.username, getattr(getattr(game.master, "profile", None), "display_name", "") or ""}
    return sorted((w for w in words if w), key=len, reverse=True)


def leftovers(html: str, language: str, data: list[str]) -> list[str]:
    parts = []
    for part in visible_text(html):
        for word in data:
            part = part.replace(word, " ")
        parts.append(part)
    return russian_leftovers(parts) if language == "en" else english_leftovers(parts)


@pytest.mark.parametrize("stage", STAGES)
def test_contract_every_page_in_both_languages(gm_module, stage, table_at):
    table = table_at(gm_module, stage)
    game = table.game
    urls = [f"/games/{game.pk}/"] + [u for r in module_routes(gm_module) if not r.pattern.startswith("api/")
                                       and set(r.params) <= {"pk", "seat_id", "post_id"} for u in route_urls(r, game)]
    data = names_of(game)
    problems, pages = [], 0
    for viewer, user in table.users().items():
        for language in ("en", "ru"):
            client = client_for(user, language=language)
            for url in urls:
                response = client.get(url)
                if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                    continue
                pages += 1
                problems += [f"{viewer} {language} {url}: {x!r}"
                             for x in leftovers(response.content.decode(), language, data)]
    assert pages >= 2 * len(table.users()), f"{gm_module} {stage}: only {pages} pages rendered"
    assert not problems, f"{gm_module} {stage}: untranslated strings:\n" + "\n".join(sorted(set(problems))[:60])


def test_contract_language_check_finds_an_untranslated_string(gm_module):
    """Self-test: an English sentence on a Russian page and Cyrillic on an English one are reported; the game's
    test data is not."""
    html = "<main><p>Это ход Аня.</p><p>Waiting for the master</p></main>"
    assert leftovers(html, "ru", ["Аня"]) == ["Waiting for the master"]
    assert leftovers(html, "en", ["Аня"]) and not leftovers("<p>Аня</p>", "en", ["Аня"])
