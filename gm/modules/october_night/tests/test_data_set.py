"""OC-17: the site's October Night data set, kept in the admin. A save is checked as a game start checks the set
(each error with the YAML line at fault) and changes nothing when refused; new games start from the active set and
store its digest; running games keep their snapshot; scenario files run on the shipped set whatever the site's."""
from __future__ import annotations

import html as htmllib

import pytest
from django.urls import reverse

from gm.core import services
from gm.modules.october_night import selectors
from gm.modules.october_night.models import DataSet
from gm.modules.october_night.services import data_set_save
from gm.modules.october_night.texts import DATA_FILE, default_data
from tests.helpers import gm_scenario

from .test_shell import create, start

pytestmark = pytest.mark.django_db

SHIPPED = DATA_FILE.read_text(encoding="utf-8")
#: A file whose checks depend on the ghoul's modifier (OC-7.4: who loses health in an enemy check).
SCENARIO_FILE = DATA_FILE.parents[1] / "tests" / "scenarios" / "OC-7_enemy_check_both_results.yaml"
GHOUL = "{slug: ghoul, ru: Упырь, en: Ghoul, skill: strength, modifier: 9, health: 2, location: cemetery,"


def ghoul(game) -> dict:
    return next(e for e in game.state["data"]["enemies"] if e["slug"] == "ghoul")


def test_OC_17_staff_edit_the_site_data_set_and_only_new_games_take_it(admin_client, admin_user, master, players,
                                                                      settings):
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    running = start(master, players)
    assert GHOUL in SHIPPED and ghoul(running)["modifier"] == 9
    url = reverse("admin:october_night_dataset_add")
    form = admin_client.get(url)
    assert form.status_code == 200 and GHOUL in htmllib.unescape(form.content.decode())  # starts as the shipped set
    # A board with an unknown location is refused with its line; nothing is saved.
    line = SHIPPED[:SHIPPED.index(GHOUL)].count("\n") + 1
    bad = SHIPPED.replace(GHOUL, GHOUL.replace("cemetery", "moon"))
    refused = admin_client.post(url, {"name": "Moon", "text": bad, "active": "on"})
    body = htmllib.unescape(refused.content.decode())
    assert refused.status_code == 200 and f"line {line}: enemies[ghoul].location" in body and "OC-17" in body
    assert not DataSet.objects.exists()
    refused = admin_client.post(url, {"name": "Broken", "text": "enemies: [\n", "active": "on"})
    assert "Bad YAML" in htmllib.unescape(refused.content.decode()) and not DataSet.objects.exists()
    # A valid edit is saved with its digest and becomes the set new games start from …
    harder = SHIPPED.replace(GHOUL, GHOUL.replace("modifier: 9", "modifier: 11"))
    saved = admin_client.post(url, {"name": "Harder ghoul", "text": harder, "active": "on"})
    assert saved.status_code == 302, htmllib.unescape(saved.content.decode())[-2000:]
    row = DataSet.objects.get()
    assert row.active and len(row.digest) == 64 and row.updated_by == admin_user
    later = create(master)
    assert next(e for e in selectors.base_data()["enemies"] if e["slug"] == "ghoul")["modifier"] == 11
    for user, name in zip(players, ["Аня", "Боря", "Вова"], strict=False):
        services.seat_join(game=later, user=user, display_name=name)
    services.game_start(game=later, actor=master)
    later.refresh_from_db()
    assert ghoul(later)["modifier"] == 11 and later.state["data_digest"] == row.digest
    # … while the game that was running keeps the snapshot it started with.
    running.refresh_from_db()
    assert ghoul(running)["modifier"] == 9 and running.state["data_digest"] != row.digest


def test_OC_17_one_active_set_and_the_shipped_one_without_it(master):
    assert selectors.base_data() == default_data()
    first = data_set_save(data_set=DataSet(name="A", text=SHIPPED.replace("modifier: 9, health: 2, location: cem",
                                                                          "modifier: 10, health: 2, location: cem")))
    second = data_set_save(data_set=DataSet(name="B", text=SHIPPED))
    first.refresh_from_db()
    assert not first.active and second.active and DataSet.objects.filter(active=True).count() == 1
    assert selectors.base_data() == default_data()
    with pytest.raises(services.ServiceError):
        data_set_save(data_set=DataSet(name="C", text="locations: []\n"))
    assert DataSet.objects.count() == 2
    second.active = False
    data_set_save(data_set=second)
    assert selectors.base_data() == default_data()


def test_OC_17_scenario_files_run_on_the_shipped_set_whatever_the_sites(master):
    """A scenario file is written against the shipped set: with a different active set on the site it runs
    unchanged (``scenario-format.md``)."""
    text = SHIPPED.replace(GHOUL, GHOUL.replace("modifier: 9", "modifier: 1"))
    data_set_save(data_set=DataSet(name="Easy", text=text))
    assert selectors.base_data() != default_data()
    with selectors.shipped_data():
        assert selectors.base_data() == default_data()
    code, out, err = gm_scenario(SCENARIO_FILE)
    assert code == 0, out + err
