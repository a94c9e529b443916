"""Every page in both languages (issue 8 item 6): a forum Mafia game at each stage — signup, deck building, night,
day, finished — and a One Night Ultimate Werewolf game at each stage — the doppelganger step, night, day, finished —
seen by every viewer kind, page by page, in Russian and in English. All test data is Latin
(user names, characters, titles, custom roles), so whatever Cyrillic an English page shows, or whatever English
sentence a Russian page shows, is an untranslated string of ours:

* English pages hold no Cyrillic letter (the language menu's own «Русский» aside);
* Russian pages hold no run of three or more English words, and none of the catalogue's multi-word English
  msgids that have a different Russian translation;
* no page shows a raw identifier (a snake_case slug such as ``resolve_now`` or ``hand_count``, a group slug such
  as ``faction:mafia``): stored slugs are shown by their names in the reader's language.

Visible text is the text of the page plus the ``aria-label``, ``title``, ``placeholder`` and ``alt`` attributes a
screen reader or a tooltip shows; scripts, styles, ``<code>`` and the language menu are left out.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from gm.core import messages as core_messages
from gm.core import registry, services
from gm.core.models import AuditEntry, Phase
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
ENGLISH_RUN = re.compile(r"(?<![\w-])[A-Za-z][a-z]+(?:,? [A-Za-z][a-z]+){2,}(?![\w-])")
SHOWN_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
#: A snake_case identifier or a ``kind:name`` group slug standing on its own (not part of a path such as a time
#: zone, a URL or a quoted key).
IDENTIFIER = re.compile(r"(?<![\w/.\"'-])(?:[a-z]+(?:_[a-z0-9]+)+|[a-z]+:[a-z0-9][a-z0-9_-]*)(?![\w/\"'-])")


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
        # text marked as written in a language of its own (the rules reference is English only) is not a gap
        other_language = tag != "html" and bool(attributes.get("lang"))
        if tag in self.SKIP or language_menu or other_language:
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


def raw_identifiers(parts: list[str]) -> list[str]:
    return [m for part in parts for m in IDENTIFIER.findall(part)]


def english_leftovers(parts: list[str]) -> list[str]:
    found = []
    for part in parts:
        found += ENGLISH_RUN.findall(part)
        found += PHRASE_RE.findall(part)
    return found + raw_identifiers(parts)


def russian_leftovers(parts: list[str]) -> list[str]:
    return [part for part in parts if CYRILLIC.search(part)] + raw_identifiers(parts)


# -- the game at every stage --------------------------------------------------------------------------------


@pytest.fixture
def world(master, make_user, spectator, card_collection):
    """A forum Mafia table: five players in Night 1 (the master's setup override), everyone ordering; a second
    game in signup with one signup."""
    from gm.modules.forum_mafia.services.signup import signup_create
    from tests.integration import fm_night

    users = [make_user(f"player{i}") for i in range(5)]
    for i, user in enumerate(users):
        user.profile.display_name = f"Player{i}"
        user.profile.save()
    game, phase = fm_night.db_night(master, users, title="Mill")
    fm_night.submit_orders(game, phase)
    post = services.post_create(game=game, user=users[0], body="Hi1", comment="c1")  # its page and edit form
    signup_game = services.game_create(master=master, module="forum_mafia", title="Signups", rng_seed=3)
    services.game_open_signup(game=signup_game, actor=master)
    signup_create(game=signup_game, user=users[0], public_role="strongman", character_name="Hal", pledges=True)
    return {"game": game, "signup_game": signup_game, "users": users, "master": master, "spectator": spectator,
            "post": post}


def _pages(game, signup_game, post, *, all_pages: bool) -> list[str]:
    """The game's own pages; with ``all_pages`` also those that don't change with its stage."""
    pk = game.pk
    pages = ["/", f"/games/{pk}/", f"/games/{pk}/cards/", f"/games/{pk}/deck/", f"/games/{pk}/fm/rebuild/",
             f"/games/{pk}/console/preview/", f"/games/{pk}/fm/veche/", f"/games/{pk}/posts/{post.pk}/edit/"]
    if all_pages:
        pages += [f"/games/{signup_game.pk}/", reverse("forum_mafia:signup", args=[signup_game.pk]),
                  "/games/new/", "/games/new/?module=forum_mafia", "/games/new/?module=onuw", "/inbox/",
                  "/my-games/", "/rules/", "/rules/forum-mafia/",
                  "/accounts/profile/", "/accounts/login/",
                  "/accounts/signup/", "/accounts/logout/", "/accounts/email/", "/accounts/password/change/",
                  "/accounts/password/reset/", "/games/999999/",
                  "/accounts/delete/", "/accounts/api-token/", "/api/bots/", "/?status=running",
                  "/standby/", "/away/"]
    return pages


def _viewers(world) -> dict:
    return {"master": world["master"], "owner": world["users"][0], "other": world["users"][1],
            "spectator": world["spectator"], "anonymous": None}


def _check_all(world, stage: str, *, all_pages: bool = False) -> list[str]:
    problems = []
    for kind, user in _viewers(world).items():
        for language, leftovers in (("en", russian_leftovers), ("ru", english_leftovers)):
            client = client_for(user, language=language)
            for url in _pages(world["game"], world["signup_game"], world["post"], all_pages=all_pages):
                response = client.get(url)
                if response.status_code not in (200, 403, 404) or "text/html" not in response["Content-Type"]:
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


@pytest.fixture
def onuw_world(master, players, spectator):
    """An ONUW table of four (a doppelganger, a werewolf, a seer, a troublemaker; the robber, a villager and the
    drunk in the center), part of a tournament series, in its doppelganger step. The names carry digits so that a
    list of them (the lobby's) is not a run of English words."""
    names = ["Alice1", "Boris2", "Clara3", "Dima4"]
    deal = ["doppelganger", "werewolf", "seer", "troublemaker", "robber", "villager", "drunk"]
    game = services.game_create(master=master, module="onuw", title="Moonrise",
                                options={"deal": deal, "series": "Cup"}, rng_seed=5)
    services.game_open_signup(game=game, actor=master)
    for user, name in zip(players, names, strict=True):
        services.seat_join(game=game, user=user, display_name=name)
    services.game_start(game=game, actor=master)
    game.refresh_from_db()
    seats = {s.display_name: s.pk for s in game.seats.all()}
    return {"game": game, "seats": seats, "users": players, "master": master, "spectator": spectator}


def _onuw_order(world, player: int, payload) -> None:
    game = world["game"]
    phase = game.phases.get(status=Phase.Status.OPEN)
    services.order_submit(phase=phase, user=world["users"][player], payload=payload)


def _onuw_check(world, stage: str) -> list[str]:
    """The ONUW game's page and the lobby that lists it, for a player (and one with nothing to do), the master,
    a spectator and an anonymous visitor."""
    game = world["game"]
    viewers = {"player": world["users"][0], "other": world["users"][1], "master": world["master"],
               "spectator": world["spectator"], "anonymous": None}
    problems = []
    for kind, user in viewers.items():
        for language, leftovers in (("en", russian_leftovers), ("ru", english_leftovers)):
            client = client_for(user, language=language)
            urls = ["/", f"/games/{game.pk}/"]
            if kind == "master" and stage != "finished":  # the what-if preview of the open phase
                urls.append(f"/games/{game.pk}/console/preview/")
            for url in urls:
                response = client.get(url)
                assert response.status_code == 200, (stage, kind, url)
                for leftover in leftovers(visible_text(response.content.decode())):
                    problems.append(f"onuw {stage} {kind} {language} {url}: {leftover!r}")
    return problems


def test_every_onuw_page_in_both_languages_at_every_stage(onuw_world):
    """The doppelganger step, the night (each waking role has ordered and learned something), the day (votes
    public while they change) and the end (every card revealed, winners, the series): no leftover anywhere."""
    world, ids = onuw_world, onuw_world["seats"]
    game = world["game"]
    _onuw_order(world, 0, {"copy": ids["Boris2"]})  # Alice, the doppelganger, becomes a werewolf (ON-4.1)
    problems = _onuw_check(world, "doppelganger")
    _resolve_now(world)
    assert game.phases.get(status=Phase.Status.OPEN).kind == "night"
    _onuw_order(world, 2, {"look": ["center1", "center2"]})  # Clara, the seer
    _onuw_order(world, 3, {"swap": [ids["Alice1"], ids["Clara3"]]})  # Dima, the troublemaker
    problems += _onuw_check(world, "night")
    _resolve_now(world)
    assert game.phases.get(status=Phase.Status.OPEN).kind == "day"
    for voter, voted in ((0, "Boris2"), (1, "Alice1"), (2, "Boris2"), (3, "Boris2")):
        _onuw_order(world, voter, {"vote": ids[voted]})
    problems += _onuw_check(world, "day")
    _resolve_now(world)
    assert game.is_over
    problems += _onuw_check(world, "finished")
    assert not problems, "untranslated strings:\n" + "\n".join(sorted(set(problems))[:80])


def test_slugs_are_named_in_the_readers_language(onuw_world):
    """What the page shows of stored slugs — the winners of a finished game, the master's audit-log actions (the
    core's and a module's) — is named in the reader's language; single words escape the run detector above."""
    world = onuw_world
    game = world["game"]
    _resolve_now(world)
    services.game_abort(game=game, actor=world["master"], reason="stop")
    AuditEntry.objects.create(game=game, actor=world["master"], action="fm_signup_reject", created_at=game.created_at)
    with translation.override("ru"):
        labels = {a.action: a.action_label for a in AuditEntry.objects.filter(game=game)}
        page = client_for(world["master"], language="ru").get(f"/games/{game.pk}/").content.decode()
    assert labels["resolve_now"] == "итоги фазы подведены досрочно" and labels["abort"] == "игра прервана"
    assert labels["fm_signup_reject"] == "fm_signup_reject"  # a forum Mafia action is not ONUW's to name
    assert "итоги фазы подведены досрочно" in page and "resolve_now" not in page
    with translation.override("ru"):
        assert core_messages.winners_text(["village", "werewolf"], "onuw") == "деревенская команда, команда оборотней"
        assert core_messages.winners_text(["law", "joker"], "forum_mafia") == "Закон, Джокер"
        assert core_messages.winners_text([], "onuw") == "никто"
        fm = registry.get("forum_mafia")
        state = {"fm": {"rooms": {"room:2-1": {"members": [1, 2], "until": None}}}}
        assert [fm.group_label(g, state=state) for g in ("faction:mafia", "room:1-3", "room:2-1", "x:y")] == [
            "Мафия", "Комната 3 Дня 1", "Заговор Дня 2", "x:y"]


def test_the_checks_catch_leftovers():
    """The detectors find what they are for (so a clean run means something)."""
    assert russian_leftovers(visible_text("<p>Your roles</p><p>Ваши роли</p>")) == ["Ваши роли"]
    assert english_leftovers(visible_text("<p>Ваш приказ: Save the order now</p>")) == ["Save the order now"]
    assert english_leftovers(visible_text('<button aria-label="Move card up">↑</button>')) == ["Move card up"]
    assert english_leftovers(visible_text('<select id="lang-select"><option>English language here</option></select>'
                                           "<code>a b c d</code>")) == []
    assert raw_identifiers(["19:00 · master · resolve_now — test", "hand_count: 6"]) == ["resolve_now", "hand_count"]
    assert raw_identifiers(["Europe/Moscow, America/New_York", 'e.g. {"lone_wolf": true}', "a-b_c"]) == []
    assert raw_identifiers(["faction:mafia", "Groups room:1-2", "https://example.com", "Telegram: @x"]) == [
        "faction:mafia", "room:1-2"]
    assert russian_leftovers(["setup_override"]) == ["setup_override"]
    assert "Resolve now" in PHRASES  # a two-word msgid of the catalogue
    assert english_leftovers(["Нажмите Resolve now"]) == ["Resolve now"]
