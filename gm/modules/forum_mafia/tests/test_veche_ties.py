"""The Veche count says which rule decides it (FM-7.2, FM-7.4, FM-7.6) instead of only "leading: X": a tie of the
leaders names the hanging priority with each tied character's public role, a tie of the punishments says jail, peace
with exactly half is no strict majority. Day 1 of ``test_veche_shell``'s table: Anna (authority, 2), Boris
(politician, 1.5), Pavel (prosecutor, 1), Max (paranoid, 1), Vera (1), Sofia (sociopath)."""
from __future__ import annotations

import pytest
from django.utils import translation

from gm.modules.forum_mafia.selectors.veche import public_votes
from gm.modules.forum_mafia.tests.test_veche_shell import day, open_phase, users, vote  # noqa: F401 - fixtures
from tests.helpers import client_for, page_part

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def count_html(game, user, language="en") -> str:
    html = client_for(user, language=language).get(game.get_absolute_url()).content.decode()
    return page_part(html, "fm-veche-count")


def test_FM_7_4_tie_names_the_hanging_priority_and_FM_7_2_punishment_tie_is_jail(day, users, spectator):  # noqa: F811 - fixtures imported above
    vote(day, users, "Anna", "Max", "execution")  # 2
    vote(day, users, "Pavel", "Boris", "jail")  # 1
    vote(day, users, "Vera", "Boris", "jail")  # 1: Max and Boris tie at 2; execution 2, jail 2
    standing = public_votes(open_phase(day))["standing"]
    assert standing == [
        "Tie at 2: the hanging priority decides (FM-7.4) — the order of the public roles' list (FM-8), custom roles "
        "after it alphabetically: Max (Paranoid) → Boris (Politician). Max leads.",
        "Execution and jail are tied at 2: a tie means jail (FM-7.2).",
    ]
    html = count_html(day, spectator)
    assert "Max (Paranoid) → Boris (Politician). Max leads." in html
    assert 'a tie means jail (<a class="rule-link" href="/rules/forum-mafia/#FM-7.2">FM-7.2</a>)' in html
    assert "Leading now" not in html
    ru = count_html(day, spectator, "ru")
    assert "Ничья при 2" in ru and "Макс" not in ru and "Max (Параноик) → Boris (Политик)" in ru


def test_FM_7_6_politician_leader_and_a_clear_punishment(day, users, spectator):  # noqa: F811 - fixtures imported above
    vote(day, users, "Anna", "Boris", "execution")
    assert public_votes(open_phase(day))["standing"] == [
        "Boris leads with 2 (FM-7.4).",
        "Punishment: execution (execution 2, jail 0; FM-7.2).",
        "Boris is the politician: the first time he leads he goes to jail instead of execution (FM-7.6).",
    ]


def test_FM_7_4_peace_with_exactly_half_is_no_majority_and_a_majority_punishes_nobody(day, users):  # noqa: F811 - fixtures imported above
    vote(day, users, "Anna", None)  # peace, 2
    vote(day, users, "Pavel", "Max", "execution")
    vote(day, users, "Vera", "Max", "execution")
    assert public_votes(open_phase(day))["standing"][0] == (
        "Peace has exactly half (2 of 4), not a strict majority: the leader is punished (FM-7.4).")
    vote(day, users, "Boris", None)  # peace 3.5 of 5.5
    assert public_votes(open_phase(day))["standing"] == [
        "Peace has a strict majority (3.5 of 5.5): nobody is punished (FM-7.4)."]
