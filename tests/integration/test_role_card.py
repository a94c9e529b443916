"""The player's role card: a mafioso reads his fellow mafiosi by name (FM-3.1) — a secret only they and the master
know: another seat, a spectator, an anonymous visitor never read it, on the page or through the visibility layer —
and every role card, forum Mafia and ONUW, says how its holder wins (FM-10, FM-3.3, FM-8; ON-9–ON-12)."""
from __future__ import annotations

import re

import pytest

from gm.core import visibility
from gm.modules.forum_mafia.engine.roles import SECRET_ROLES
from gm.modules.forum_mafia.engine.state import MAFIA_GROUP
from gm.modules.forum_mafia.texts.roles import SECRET_ROLE_WINS
from gm.modules.forum_mafia.views.setup import win_condition
from gm.modules.onuw.tests import test_shell as onuw
from gm.modules.onuw.texts import win_text
from tests.helpers import client_for, game_page, page_part
from tests.integration import fm_table

pytestmark = pytest.mark.django_db

NOBODY = "If everyone dies, nobody wins."


@pytest.fixture
def table(frozen, master, make_user):
    return fm_table.build(master, make_user)


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'").strip()


def teammates_line(html: str) -> str:
    match = re.search(r'<p class="role-team" id="fm-teammates">(.*?)</p>', html, re.S)
    return words(match.group(1)) if match else ""


def test_FM_3_1_a_mafioso_reads_his_fellow_mafiosi_by_name(table, frozen):
    game, users = table
    for name in sorted(fm_table.MAFIA):
        line = teammates_line(page_part(game_page(game, users[name]), "fm-panel"))
        others = sorted(fm_table.MAFIA - {name}, key=fm_table.NAMES.index)
        assert line == f"Your fellow mafiosi: {', '.join(others)}", (name, line)
    fm_table.play_night(game, users, frozen)  # Boris dies
    assert teammates_line(game_page(game, users["Eva"])) == "Your fellow mafiosi: Boris (dead), Dmitri"


@pytest.mark.parametrize("who", ["Alice", "Harry", "Jo", "Clara", "spectator", "anonymous"])
def test_FM_3_1_nobody_outside_the_mafia_reads_who_is_in_it(table, who, spectator):
    """Law players, neutrals (the hero, the joker), a spectator and an anonymous visitor: no teammates line on the
    page, and the visibility layer names no member of the Mafia to them."""
    game, users = table
    user = {"spectator": spectator, "anonymous": None}.get(who, users.get(who))
    html = game_page(game, user)
    assert "Your fellow mafiosi" not in html and 'id="fm-teammates"' not in html, who
    assert visibility.group_members(visibility.viewer_for(user, game), MAFIA_GROUP) == [], who
    for url in (f"/api/games/{game.pk}/", f"/api/games/{game.pk}/seats/", f"/api/games/{game.pk}/log/"):
        body = client_for(user).get(url).content.decode()
        assert "mafia_boss" not in body and "faction:mafia" not in body, (who, url)


def test_FM_3_1_a_dealt_game_tells_each_mafioso_the_others(frozen, master, make_user):
    """The deal (``game_start``, FM-3.4) as well as the master's override: each mafioso's card names the other two
    and nobody else's card names anyone."""
    from gm.modules.forum_mafia.tests.test_setup import fm_game

    users = [make_user(f"d{i}") for i in range(7)]
    game = fm_game(master, users, [{"custom": f"P{i}"} for i in range(7)], seed=77)
    mafia = [s for s in game.seats.order_by("position") if s.data["faction"] == "mafia"]
    assert len(mafia) == 3
    for seat in game.seats.select_related("user").order_by("position"):
        line = teammates_line(game_page(game, seat.user))
        if seat in mafia:
            assert line == "Your fellow mafiosi: " + ", ".join(m.display_name for m in mafia if m != seat), line
        else:
            assert line == "", (seat.display_name, line)


def test_FM_3_1_a_seat_without_the_stored_list_reads_the_group(table):
    """A mafioso whose seat data predates ``mafia_seats`` reads the members from the group (the visibility layer)."""
    game, users = table
    boris = game.seats.get(display_name="Boris")
    boris.data.pop("mafia_seats")
    boris.save(update_fields=["data"])
    assert teammates_line(game_page(game, users["Boris"])) == "Your fellow mafiosi: Eva, Dmitri"


def test_FM_3_1_the_master_and_a_mafioso_know_the_members(table, master):
    game, users = table
    for user in (master, users["Eva"]):
        members = visibility.group_members(visibility.viewer_for(user, game), MAFIA_GROUP)
        assert [s.display_name for s in members] == ["Boris", "Eva", "Dmitri"]  # ring order


@pytest.mark.parametrize(("name", "win"), [
    ("Alice", "The Law wins when every mafioso, the traitor and the maniac are dead and at least one Law member is "
              "alive"),
    ("Boris", "The Mafia and the traitor win when every Law member and the maniac are dead and at least one mafioso "
              "or the traitor is alive"),
    ("Harry", "You win with the Law if you are alive when it wins or have met at least one goal"),
    ("Jo", "Name every player's secret role correctly and you win at once"),
])
def test_FM_10_every_role_card_states_the_win_condition(table, name, win):
    game, users = table
    card = words(page_part(game_page(game, users[name]), "fm-panel"))
    assert f"How you win: {win}" in card and NOBODY in card, card


def test_FM_10_every_secret_role_has_a_win_condition_and_the_avenger_adds_his():
    assert set(SECRET_ROLE_WINS) == set(SECRET_ROLES)
    assert win_condition("maniac", {"custom": "X"}) == ["You win alone, when every other character is dead.", NOBODY]
    assert "You win with the Mafia" in win_condition("traitor", None)[0]
    assert win_condition("doctor", "avenger")[1] == "As the avenger: if every other character dies, your side wins."


def test_FM_10_win_condition_in_russian(table):
    game, users = table
    html = client_for(users["Boris"], language="ru").get(game.get_absolute_url()).content.decode()
    card = words(page_part(html, "fm-panel"))
    assert "Как вы побеждаете: Мафия и предатель побеждают" in card, card
    assert "Ваши сообщники по Мафии: Eva, Dmitri" in card, card


@pytest.mark.parametrize(("deal_index", "role", "win"), [
    (0, "seer", "Village team: you win if at least one werewolf dies"),
    (1, "werewolf", "Werewolf team: you win if no werewolf dies — unless the tanner dies."),
])
def test_ON_9_to_ON_12_the_onuw_card_states_the_win_condition(master, players, deal_index, role, win):
    game = onuw.start(master, players)  # Alice seer, Boris werewolf, Clara robber, Dima troublemaker
    panel = words(page_part(game_page(game, players[deal_index]), "onuw-panel"))
    assert f"How you win: {win}" in panel and "card in front of you at the end of the night" in panel, panel
    assert "How you win" not in words(page_part(game_page(game, None), "onuw-panel"))


def test_ON_9_to_ON_12_win_texts_of_every_team():
    assert win_text("tanner").startswith("You are on no team: you win only if you die.")
    assert "If no player is a werewolf, you win if someone other than you dies." in win_text("minion")
    for role in ("villager", "robber", "troublemaker", "drunk", "hunter", "mason", "insomniac", "doppelganger"):
        assert win_text(role).startswith("Village team"), role
