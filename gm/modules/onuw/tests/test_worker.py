"""A whole ONUW game through the real HTTP interface, with a real Celery worker and beat resolving the doppelganger
step, the night and the day at their deadlines (ON-13, ON-14, ON-15): the master creates the game on the "new game"
page, players join and start, each reads his card on the game page and orders through the module's form; the
deadlines are moved to the past and the beat sweep + worker resolve each phase exactly once. No player sees another's
card or what another learned before the end; afterwards everything is public.

Needs PostgreSQL + Redis (skipped otherwise)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gm CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python -m pytest gm/modules/onuw/tests/test_worker.py -q
"""
from __future__ import annotations

import html as htmllib
import re

import pytest
from django.urls import reverse

from gm.core.models import Game, LogEntry, Phase
from gm.modules.onuw import engine
from gm.modules.onuw.texts import role_name
from tests.helpers import client_for
from tests.integration.test_worker import (  # noqa: F401  (fixtures: the worker subprocesses on this session's queue)
    _forget_session_queue,
    _needs_postgres_and_redis,
    assert_clean_log,
    celery_procs,
    make_due,
    session_queue,
)
from tests.integration.worker_utils import wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Boris", "Clara", "Dima"]
ROLES = "doppelganger werewolf werewolf seer robber troublemaker villager"


def page(client, game) -> str:
    response = client.get(reverse("gm:game", args=[game.pk]))
    assert response.status_code == 200
    return htmllib.unescape(response.content.decode())


def order(client, game, data) -> list[str]:
    phase = Phase.objects.filter(game=game, status=Phase.Status.OPEN).first()
    data = {"phase": phase.pk if phase else "", **data}  # the form names its phase (a hidden input)
    response = client.post(reverse("onuw:order", args=[game.pk]), data, follow=True)
    return [str(m) for m in response.context["messages"]]


def next_open(game, kind: str, timeout: float = 40) -> Phase:
    return wait_until(lambda: Phase.objects.filter(game=game, kind=kind, status=Phase.Status.OPEN).first(),
                      timeout=timeout, message=f"{kind} phase to open")


def test_full_game_over_http_with_a_real_worker(celery_procs, master, players):  # noqa: F811
    worker = celery_procs.worker()
    beat = celery_procs.beat()
    celery_procs.wait_ready(worker)
    boss = client_for(master)
    response = boss.post(reverse("gm:game_create"), {
        "module": "onuw", "title": "ONUW over HTTP", "opt_roles": ROLES, "opt_lone_wolf": "on", "rng_seed": "11",
        "duration_doppelganger": "1", "duration_night": "1", "duration_day": "1"})
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(title="ONUW over HTTP")
    assert boss.post(reverse("gm:game_open_signup", args=[game.pk])).status_code == 302
    clients = {}
    for user, name in zip(players, NAMES, strict=True):
        clients[name] = client_for(user)
        clients[name].post(reverse("gm:seat_join", args=[game.pk]), {"display_name": name})
    boss.post(reverse("gm:game_start", args=[game.pk]), {"confirm": "on"})
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING, game.status
    seats = {s.display_name: s for s in game.seats.all()}
    ids = {name: s.pk for name, s in seats.items()}
    dealt = {name: game.state["dealt"][str(s.pk)] for name, s in seats.items()}  # the test's oracle

    # ON-3: each player reads his own card, and nobody else's
    pages = {name: page(c, game) for name, c in clients.items()}
    for name, text in pages.items():
        assert f"Your card: {role_name(dealt[name])}." in text
        for other in NAMES:
            if other != name and dealt[other] != dealt[name]:
                assert f"Your card: {role_name(dealt[other])}." not in text

    # ON-14: the doppelganger step opens (the doppelganger is in play); he copies if dealt to a player
    step = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    assert step.kind == "doppelganger"
    dop = next((n for n in NAMES if dealt[n] == "doppelganger"), None)
    # seed 11 deals robber, doppelganger, seer, werewolf (the other werewolf in the center): the doppelganger copies
    # the robber and robs first, then the lone wolf peeks, the seer looks, the robber robs
    assert dealt == {"Anna": "robber", "Boris": "doppelganger", "Clara": "seer", "Dima": "werewolf"}
    assert any("saved" in m for m in order(clients[dop], game, {"copy": ids["Anna"]}))
    make_due(step.pk)
    night = next_open(game, "night")
    game.refresh_from_db()
    step.refresh_from_db()
    assert step.status == Phase.Status.RESOLVED and step.claims == 1

    # ON-4, ON-13: everyone with a choice uses the form's first offered choice; the drunk-less table needs no default
    for name in NAMES:
        choice = engine.night_choice(game.state, str(ids[name]), [str(ids[n]) for n in NAMES])
        text = page(clients[name], game)
        if choice is None:
            assert "You have nothing to do in this phase" in text
            continue
        field = {"seer": "look", "robber": "swap_with", "troublemaker": "swap", "lone_wolf": "look",
                 "drunk": "take"}[choice]
        values = re.findall(rf'name="{field}" value="([^"]+)"', text)
        data = {field: values[:2]} if field == "swap" else {field: values[0]}
        assert any("saved" in m for m in order(clients[name], game, data)), (name, choice, data)
    make_due(night.pk)
    day = next_open(game, "day")
    night.refresh_from_db()
    assert night.claims == 1
    game.refresh_from_db()

    # What each player learned reaches only him (ON-13)
    learned = {name: [e.text() for e in LogEntry.objects.filter(game=game, visibility="seat", seat_id=ids[name])
                      if e.kind not in ("onuw.your_card",)] for name in NAMES}
    for name, c in clients.items():
        text = page(c, game)
        for other in NAMES:
            for line in learned[other]:
                if not any(line == mine for mine in learned[name]):
                    assert line not in text, (name, other, line)

    # ON-6, ON-7: everyone votes for the next player round the table except the last, who joins the first vote
    votes = {NAMES[0]: NAMES[1], NAMES[1]: NAMES[2], NAMES[2]: NAMES[1], NAMES[3]: NAMES[0]}
    for voter, target in votes.items():
        assert any("saved" in m for m in order(clients[voter], game, {"vote": ids[target]}))
    make_due(day.pk)
    wait_until(lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, timeout=40,
               message="the game to finish")
    game.refresh_from_db()
    day.refresh_from_db()
    assert day.claims == 1

    final = {str(ids[n]): engine.effective(game.state["cards"][str(ids[n])], game.state) for n in NAMES}
    dead, _shots = engine.deaths({str(ids[v]): str(ids[t]) for v, t in votes.items()}, final)
    teams, winners = engine.victory(final, dead)
    assert str(ids["Boris"]) in dead  # two votes, the most (ON-7)
    assert game.outcome == {"winners": teams, "winning_seats": [int(s) for s in winners]}
    public = page(client_for(None), game)
    assert "Votes: Anna → Boris, Boris → Clara, Clara → Boris, Dima → Anna." in public
    assert "Every card" in public
    for name in NAMES:  # after the game everything is revealed to everyone
        for line in learned[name]:
            assert line in public
    assert LogEntry.objects.filter(game=game, kind="core.game_finished").count() == 1
    assert_clean_log(worker, beat)

