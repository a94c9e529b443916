"""The rules the site serves (``/rules/``, ``gm.core.rules``): ``docs/rules/*.md`` rendered safely with an anchor per
rule ID, and rule IDs in the UI (refusals, the Veche, role texts) linked to them; the signup role picker shows each
public role's ability (FM-8) and the character name is optional (FM-2.1) (issue 17, item 11)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from gm.core import rules
from gm.modules.forum_mafia.engine.roles import PUBLIC_ROLES
from gm.modules.forum_mafia.texts.roles import PUBLIC_ROLE_TEXTS
from tests.helpers import client_for, open_phase_id
from tests.integration.test_my_games import fm_started

pytestmark = pytest.mark.django_db


def test_rules_page_has_an_anchor_per_rule_id(client):
    html = client_for(None).get("/rules/forum-mafia/").content.decode()
    text = (rules.rules_dir() / "forum-mafia.md").read_text(encoding="utf-8")
    defined = set(rules._definitions(text))
    assert {"FM-5.3", "FM-7.4", "FM-9.3"} <= defined
    anchors = set(re.findall(r'<(?:li|p|h\d) id="([^"]+)"><a class="rule-anchor" href="#\1">\1</a>', html))
    assert anchors == defined
    assert '<li id="FM-5.3"><a class="rule-anchor" href="#FM-5.3">FM-5.3</a> At night, instead of playing' in html
    # a rule mentioned inside another one links to it
    assert '<a class="rule-link" href="/rules/forum-mafia/#FM-6.2">FM-6.2</a>' in html
    onuw = client_for(None, language="ru").get("/rules/onuw/").content.decode()
    assert '<li id="ON-4.1">' in onuw
    index = client_for(None).get("/rules/").content.decode()
    for slug in ("forum-mafia", "onuw", "bloodwood", "blood-vengeance", "october-night"):
        assert f'href="/rules/{slug}/"' in index


def test_rule_ids_resolve_and_unknown_pages_are_404(client):
    response = client.get("/rules/id/FM-7.4/")
    assert response.status_code == 302 and response["Location"] == "/rules/forum-mafia/#FM-7.4"
    assert client.get("/rules/id/ON-4.1/")["Location"] == "/rules/onuw/#ON-4.1"
    assert client.get("/rules/id/FM-99.9/")["Location"] == "/rules/forum-mafia/#FM-99.9"  # by its prefix
    assert client.get("/rules/id/XX-1/").status_code == 404
    assert client.get("/rules/nothing-here/").status_code == 404
    assert client.get("/rules/README/").status_code == 404


def test_rules_markdown_is_rendered_safely(client, settings, tmp_path):
    (tmp_path / "evil.md").write_text("# Evil\n\n- FM-1.1 <script>alert(1)</script> [x](javascript:alert(2))\n\n"
                                      "<img src=x onerror=alert(3)>\n", encoding="utf-8")
    settings.GM_RULES_DIR = str(tmp_path)
    html = client_for(None).get("/rules/evil/").content.decode()
    body = re.search(r'<article class="rules".*?</article>', html, re.S).group(0)
    assert "<script>" not in body and "href=\"javascript" not in body and "<img" not in body
    assert '<li id="FM-1.1">' in body and "&lt;script&gt;" in body


def test_link_ids_escapes_and_links():
    assert str(rules.link_ids("<b>Refused</b> (FM-5.3); see FM-10.H1 and ON-4.1.")) == (
        '&lt;b&gt;Refused&lt;/b&gt; (<a class="rule-link" href="/rules/forum-mafia/#FM-5.3">FM-5.3</a>); see '
        '<a class="rule-link" href="/rules/forum-mafia/#FM-10.H1">FM-10.H1</a> and '
        '<a class="rule-link" href="/rules/onuw/#ON-4.1">ON-4.1</a>.')
    assert str(rules.link_ids("AFM-5.3 x/FM-1 FM-")) == "AFM-5.3 x/FM-1 FM-"


def test_a_refusal_names_its_rule_as_a_link(master, make_user, card_collection):
    me = make_user("me")
    game = fm_started(master, make_user, me, "night", "night", timedelta(hours=5))
    response = client_for(me).post(f"/games/{game.pk}/fm/veche/", {"for": "peace", "phase": open_phase_id(game)})
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'<ul class="errorlist" role="alert"><li>[^<]*<a class="rule-link" '
                     r'href="/rules/forum-mafia/#FM-7.1">FM-7.1</a>', html), html[:0]


# -- the signup page (FM-2.1, FM-8) --------------------------------------------------------------------------------


@pytest.fixture
def signup_game(master):
    from gm.core import services as core

    game = core.game_create(master=master, module="forum_mafia", title="Sign", options={}, rng_seed=1)
    core.game_open_signup(game=game, actor=master)
    return game


@pytest.mark.parametrize("language", ["ru", "en"])
def test_FM_8_signup_role_picker_shows_every_public_roles_ability(signup_game, make_user, language):
    url = reverse("forum_mafia:signup", args=[signup_game.pk])
    html = client_for(make_user("p"), language=language).get(url).content.decode()
    listing = re.search(r'<details class="fm-role-list".*?</details>', html, re.S).group(0)
    texts = dict(re.findall(r'<dd data-role="([\w]+)">(.*?)</dd>', listing, re.S))
    assert set(texts) == {r.slug for r in PUBLIC_ROLES} | {"custom"}
    assert all(texts.values())
    if language == "en":
        assert texts["strongman"] == PUBLIC_ROLE_TEXTS["strongman"]
    else:
        assert texts["strongman"] != PUBLIC_ROLE_TEXTS["strongman"]  # translated


def test_FM_2_1_signup_without_a_character_name(signup_game, make_user):
    user = make_user("nameless")
    page = client_for(user).get(reverse("forum_mafia:signup", args=[signup_game.pk])).content.decode()
    assert not re.search(r'<input[^>]*name="character_name"[^>]*required', page)
    response = client_for(user).post(reverse("forum_mafia:signup", args=[signup_game.pk]),
                                     {"public_role": "geek", "character_name": "", "pledges": "on"})
    assert response.status_code == 302
    assert signup_game.seats.get(user=user).display_name == "nameless"
