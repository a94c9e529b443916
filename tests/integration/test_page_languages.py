"""Every page in both languages (issue 8 item 6): a forum Mafia game at each stage — signup, deck building, night,
day, finished — seen by every viewer kind, page by page, in Russian and in English. All test data is Latin
(user names, characters, titles, custom roles), so whatever Cyrillic an English page shows, or whatever English
sentence a Russian page shows, is an untranslated string of ours:

* English pages hold no Cyrillic letter (the language menu's own «Русский» aside);
* Russian pages hold no run of three or more English words, and none of the catalogue's multi-word English
  msgids that have a different Russian translation.

Visible text is the text of the page plus the ``aria-label``, ``title``, ``placeholder`` and ``alt`` attributes a
screen reader or a tooltip shows; scripts, styles, ``<code>`` and the language menu are left out.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from gm.core import services
from gm.core.models import Phase
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
ENGLISH_RUN = re.compile(r"(?<![\w-])[A-Za-z][a-z]+(?:,? [A-Za-z][a-z]+){2,}(?![\w-])")
SHOWN_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")


class VisibleText(HTMLParser):
    """Collects what a reader sees of a page (see the module docstring)."""

    SKIP = {"script", "style", "code", "pre"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        language_menu = attributes.get("id") == "lang-select" or "lang-switch" in (attributes.get("class") or "")
        if tag in self.SKIP or language_menu:
            self._skip.append(tag)
            return
        if not self._skip:
            self.parts += [v for k, v in attrs if k in SHOWN_ATTRIBUTES and v]

    def handle_endtag(self, tag):
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.parts.append(" ".join(data.split()))


def visible_text(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    return parser.parts


def _catalogue_phrases() -> list[str]:
    """Multi-word English msgids of the Russian catalogue whose translation differs (placeholders cut out)."""
    from tests.unit.test_catalogues import RU_PO, parse_po

    phrases = set()
    for entry in parse_po(RU_PO):
        if entry.is_header or entry.obsolete or entry.msgstr.get(0) == entry.msgid:
            continue
        for piece in re.split(r"%\(\w+\)\w|\{\w+\}|%\w|[.:;!?()“”«»\"]", entry.msgid):
            piece = piece.strip(" ,—-·")
            if len(piece.split()) >= 2 and re.fullmatch(r"[A-Za-z][A-Za-z ,'’-]+", piece):
                phrases.add(piece)
    return sorted(phrases, key=len, reverse=True)


PHRASES = _catalogue_phrases()
#: One alternation of every phrase, longest first, so a page is scanned once rather than once per phrase.
PHRASE_RE = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(p) for p in PHRASES) + r")(?![\w-])")


def english_leftovers(parts: list[str]) -> list[str]:
    found = []
    for part in parts:
        found += ENGLISH_RUN.findall(part)
        found += PHRASE_RE.findall(part)
    return found


def russian_leftovers(parts: list[str]) -> list[str]:
    return [part for part in parts if CYRILLIC.search(part)]


# -- the game at every stage --------------------------------------------------------------------------------


@pytest.fixture
def world(master, make_user, spectator, card_collection):
    """A forum Mafia table: five players in Night 1 (the master's setup override), everyone ordering; a second
    game in signup with one signup."""
    from gm.modules.forum_mafia.services import signup_create
    from tests.integration import fm_night

    users = [make_user(f"player{i}") for i in range(5)]
    for i, user in enumerate(users):
        user.profile.display_name = f"Player{i}"
        user.profile.save()
    game, phase = fm_night.db_night(master, users, title="Mill")
    fm_night.submit_orders(game, phase)
    signup_game = services.game_create(master=master, module="forum_mafia", title="Signups", rng_seed=3)
    services.game_open_signup(game=signup_game, actor=master)
    signup_create(game=signup_game, user=users[0], public_role="strongman", character_name="Hal", pledges=True)
    return {"game": game, "signup_game": signup_game, "users": users, "master": master, "spectator": spectator}


def _pages(game, signup_game, *, all_pages: bool) -> list[str]:
    """The game's own pages; with ``all_pages`` also those that don't change with its stage."""
    pk = game.pk
    pages = ["/", f"/games/{pk}/", f"/games/{pk}/cards/", f"/games/{pk}/deck/", f"/games/{pk}/fm/rebuild/"]
    if all_pages:
        pages += [f"/games/{signup_game.pk}/", reverse("forum_mafia:signup", args=[signup_game.pk]),
                  "/games/new/", "/inbox/", "/accounts/profile/", "/accounts/login/", "/accounts/signup/",
                  "/games/999999/"]
    return pages


def _viewers(world) -> dict:
    return {"master": world["master"], "owner": world["users"][0], "other": world["users"][1],
            "spectator": world["spectator"], "anonymous": None}


def _check_all(world, stage: str, *, all_pages: bool = False) -> list[str]:
    problems = []
    for kind, user in _viewers(world).items():
        for language, leftovers in (("en", russian_leftovers), ("ru", english_leftovers)):
            client = client_for(user, language=language)
            for url in _pages(world["game"], world["signup_game"], all_pages=all_pages):
                response = client.get(url)
                if response.status_code not in (200, 404) or "text/html" not in response["Content-Type"]:
                    continue
                for leftover in leftovers(visible_text(response.content.decode())):
                    problems.append(f"{stage} {kind} {language} {url}: {leftover!r}")
    return problems


def _resolve_now(world):
    game = world["game"]
    services.phase_resolve_now(game=game, actor=world["master"], reason="test")
    game.refresh_from_db()
    return game.phases.exclude(status=Phase.Status.RESOLVED).first()


def test_every_page_in_both_languages_at_every_stage(world):
    """Night (orders given), day (after a resolution), finished (every secret revealed): no leftover anywhere."""
    problems = _check_all(world, "night", all_pages=True)
    day = _resolve_now(world)
    assert day is not None and day.kind == "day"
    problems += _check_all(world, "day")
    services.game_abort(game=world["game"], actor=world["master"], reason="stop")
    problems += _check_all(world, "finished")
    assert not problems, "untranslated strings:\n" + "\n".join(sorted(set(problems))[:80])


def test_the_checks_catch_leftovers():
    """The detectors find what they are for (so a clean run means something)."""
    assert russian_leftovers(visible_text("<p>Your roles</p><p>Ваши роли</p>")) == ["Ваши роли"]
    assert english_leftovers(visible_text("<p>Ваш приказ: Save the order now</p>")) == ["Save the order now"]
    assert english_leftovers(visible_text('<button aria-label="Move card up">↑</button>')) == ["Move card up"]
    assert english_leftovers(visible_text('<select id="lang-select"><option>English language here</option></select>'
                                           "<code>a b c d</code>")) == []
    assert "Resolve now" in PHRASES  # a two-word msgid of the catalogue
    assert english_leftovers(["Нажмите Resolve now"]) == ["Resolve now"]
