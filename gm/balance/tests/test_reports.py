"""The master's balance report on PostgreSQL: the request service (checked, stored, its Celery job enqueued after
commit), the job (``report_run``), the balance page and its htmx poll, in Russian by default and in English, and
``manage.py gm_balance``'s one JSON line. Small numbers of games."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from gm.balance import services
from gm.balance.models import BalanceReport
from gm.core import services as core
from gm.core.services import ServiceError
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(master):
    """A draft ONUW game (signups not open yet)."""
    return core.game_create(master=master, module="onuw", title="Balance", options={"lone_wolf": True}, rng_seed=3)


def test_master_request_is_stored_queued_and_its_job_enqueued_after_commit(draft, master,
                                                                           django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        report = services.report_request(game=draft, user=master, players=5, games=30, seed=4)
    assert len(callbacks) == 1
    assert report.status == BalanceReport.Status.QUEUED
    assert (report.module, report.players, report.games, report.seed) == ("onuw", 5, 30, 4)
    assert report.options == {"lone_wolf": True}  # the game's own options, normalised


def test_job_plays_the_games_and_stores_the_report_once(draft, master):
    report = services.report_request(game=draft, user=master, players=5, games=30, seed=4)
    done = services.report_run(report_id=report.pk)
    assert done.status == BalanceReport.Status.DONE and done.progress == 30 and done.finished_at
    result = done.result
    assert result["games"] == 30 and set(result["sides"]) >= {"village", "werewolf", "tanner"}
    assert sum(r["win_rate"] for r in result["sides"].values()) + result["draw_rate"] == pytest.approx(1.0)
    again = services.report_run(report_id=report.pk)  # a redelivered task plays nothing twice
    assert again.finished_at == done.finished_at and again.result == result


def test_the_job_reports_a_failure_in_words(draft, master):
    report = BalanceReport.objects.create(game=draft, requested_by=master, module="onuw", players=99, games=5,
                                          seed=1, created_at=draft.created_at)
    failed = services.report_run(report_id=report.pk)
    assert failed.status == BalanceReport.Status.FAILED and "99" in failed.error


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"players": 2}, "players"), ({"players": 11}, "players"), ({"games": 0}, "games"), ({"games": 5001}, "games"),
    ({"options": "{oops"}, "options"), ({"options": {"roles": "werewolf"}}, "options"),
])
def test_bad_input_is_refused_and_nothing_is_stored(draft, master, kwargs, field):
    args = {"players": 5, "games": 10, "seed": 1, **kwargs}
    with pytest.raises(ServiceError) as caught:
        services.report_request(game=draft, user=master, **args)
    assert field in caught.value.errors and caught.value.code == "invalid"
    assert not BalanceReport.objects.exists()


def test_only_the_master_and_only_before_the_start(draft, master, players):
    with pytest.raises(ServiceError) as caught:
        services.report_request(game=draft, user=players[0], players=5, games=10, seed=1)
    assert caught.value.code == "forbidden"
    core.game_open_signup(game=draft, actor=master)
    services.report_request(game=draft, user=master, players=5, games=10, seed=1)  # signups open: still allowed
    for i, user in enumerate(players[:3]):
        core.seat_join(game=draft, user=user, display_name=f"S{i}")
    core.game_start(game=draft, actor=master)
    with pytest.raises(ServiceError) as caught:
        services.report_request(game=draft, user=master, players=5, games=10, seed=1)
    assert caught.value.code == "state"
    assert BalanceReport.objects.count() == 1


def test_page_in_russian_by_default_starts_a_report_and_shows_it(draft, master):
    url = reverse("balance:page", args=[draft.pk])
    client = client_for(master, language=None)
    page = client.get(url)
    assert page.status_code == 200
    assert "Оценить баланс" in page.content.decode()
    assert reverse("balance:page", args=[draft.pk]) in client.get(draft.get_absolute_url()).content.decode()
    response = client.post(url, {"players": 5, "games": 20, "seed": 2, "options": '{"lone_wolf": false}'})
    assert response.status_code == 302
    report = BalanceReport.objects.get()
    assert report.options == {"lone_wolf": False}
    pending = client.get(reverse("balance:report", args=[draft.pk, report.pk])).content.decode()
    assert 'hx-trigger="every 2s"' in pending
    services.report_run(report_id=report.pk)
    done = client_for(master, language="en").get(reverse("balance:report", args=[draft.pk, report.pk]))
    text = done.content.decode()
    assert "hx-trigger" not in text and "Win rate" in text
    assert text.index("village") < text.index("werewolves") < text.index("tanner")  # the module's order of sides


def test_page_refuses_bad_input_with_the_reason(draft, master):
    client = client_for(master, language="en")
    page = client.post(reverse("balance:page", args=[draft.pk]),
                       {"players": 50, "games": 20, "seed": 1, "options": "{}"})
    assert page.status_code == 200
    assert "This game takes 3 to 10 players, not 50." in page.content.decode()
    page = client.post(reverse("balance:page", args=[draft.pk]),
                       {"players": 5, "games": 20, "seed": 1, "options": "{nope"})
    assert "The options are not valid JSON" in page.content.decode()
    assert not BalanceReport.objects.exists()


def test_page_is_the_masters_only(draft, players):
    assert client_for(players[0]).get(reverse("balance:page", args=[draft.pk])).status_code in (403, 404)


def test_command_prints_one_json_line():
    out = StringIO()
    call_command("gm_balance", "onuw", "--players", "6", "--games", "25", "--seed", "5", "--json", stdout=out)
    lines = out.getvalue().strip().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert report["games"] == 25 and report["players"] == 6 and report["seed"] == 5
    for row in report["sides"].values():
        assert set(row) >= {"win_rate", "ci_low", "ci_high"}
    assert {"draw_rate", "mean_phases", "ends"} <= set(report)
    assert sum(r["win_rate"] for r in report["sides"].values()) + report["draw_rate"] == pytest.approx(1.0)
    again = StringIO()
    call_command("gm_balance", "onuw", "--players", "6", "--games", "25", "--seed", "5", "--json", "--workers", "2",
                 stdout=again)
    other = json.loads(again.getvalue())
    report.pop("seconds"), other.pop("seconds")
    assert other == report  # the same seed gives the same report, whatever the number of workers


@pytest.mark.parametrize("args", [
    ["nosuchgame"], ["onuw", "--players", "1"], ["onuw", "--games", "0"], ["onuw", "--games", "5001"],
    ["onuw", "--options", "{bad json"],
])
def test_command_refuses_bad_input(args):
    with pytest.raises(CommandError) as caught:
        call_command("gm_balance", *args, "--json", stdout=StringIO())
    assert caught.value.returncode == 2 and "Nothing was played" in str(caught.value)


@pytest.mark.parametrize(("module", "players"), [("forum_mafia", 8), ("bloodwood", 6)])
def test_balance_page_in_both_languages_has_no_leftovers(master, module, players):
    """The page with a finished report (sides, end kinds, the draw row) and a failed one, in Russian and English:
    no untranslated string, no raw identifier (the checks of ``tests/integration/test_page_languages.py``)."""
    from tests.integration.test_page_languages import english_leftovers, russian_leftovers, visible_text

    game = core.game_create(master=master, module=module, title="Balance", rng_seed=3)
    report = services.report_request(game=game, user=master, players=players, games=2, seed=1)
    services.report_run(report_id=report.pk)
    BalanceReport.objects.create(game=game, requested_by=master, module=module, players=99, games=1, seed=1,
                                 status=BalanceReport.Status.FAILED, error="x", created_at=report.created_at)
    for language, leftovers in (("en", russian_leftovers), ("ru", english_leftovers)):
        page = client_for(master, language=language).get(reverse("balance:page", args=[game.pk]))
        assert page.status_code == 200
        text = visible_text(page.content.decode())
        assert not leftovers(text), (language, leftovers(text))


def test_at_most_three_pending_reports_per_game(draft, master):
    for _ in range(services.MAX_PENDING):
        services.report_request(game=draft, user=master, players=5, games=10, seed=1)
    with pytest.raises(ServiceError) as caught:
        services.report_request(game=draft, user=master, players=5, games=10, seed=1)
    assert caught.value.code == "conflict"
    services.report_run(report_id=BalanceReport.objects.order_by("pk").first().pk)
    services.report_request(game=draft, user=master, players=5, games=10, seed=1)  # one finished: room again
    assert BalanceReport.objects.count() == services.MAX_PENDING + 1


def test_the_celery_task_plays_the_report(draft, master):
    from gm.balance.tasks import balance_report_task

    report = services.report_request(game=draft, user=master, players=4, games=5, seed=9)
    assert balance_report_task.apply(args=[report.pk]).get() == BalanceReport.Status.DONE
    report.refresh_from_db()
    assert report.result["games"] == 5 and report.result["players"] == 4
