"""The shell: the panel for every viewer kind (BW-25: secrets only where they belong), the line, answer and
declaration POSTs (BW-26 refusals in words), the early close of a step (BW-24), the order-options API, the dashboard
need, the demo game. Database-backed."""
from __future__ import annotations

from datetime import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from gm.core import services as core
from gm.core.models import Game, Phase
from gm.core.scenario import resolve_at_deadline
from tests.helpers import api, client_for

from .. import demo, selectors
from ..module import MODULE

pytestmark = pytest.mark.django_db

POSITION = {
    "entities": ["vampire", "vampire", "vampire", "the_alpha", "werewolf"],
    "hands": {"1": ["bite", "leshy", "vaccine"], "2": ["amulet", "keys"], "3": ["thief"], "4": ["bite"], "5": []},
    "decks": {"night": ["bite", "chains", "voodoo", "bite"], "day": ["thief", "candle", "keys", "vaccine"]},
    "phase": "night", "to_move": 1,
}


@pytest.fixture
def game(master, make_user):
    users = [make_user(f"bw{i}") for i in range(5)]
    g = core.game_create(master=master, module="bloodwood", title="BW", options={"position": POSITION}, rng_seed=3)
    core.game_open_signup(game=g, actor=master)
    for i, u in enumerate(users):
        core.seat_join(game=g, user=u, display_name=f"P{i + 1}")
    core.game_start(game=g, actor=master)
    g.refresh_from_db()
    g.users = users
    return g


def open_phase(g):
    return g.phases.filter(status=Phase.Status.OPEN).first()


def test_BW_24_a_step_is_a_core_phase_with_its_actors_and_closes_when_all_answered(game):
    phase = open_phase(game)
    assert (phase.kind, phase.actors) == ("turn", [game.seats.get(position=0).pk])
    target = game.seats.get(position=1).pk
    client = client_for(game.users[0])
    r = client.post(reverse("bloodwood:order", args=[game.pk]), {"line": "play", "card": "bite", "target": target})
    assert r.status_code == 302
    phase.refresh_from_db()
    assert phase.deadline <= timezone.now()  # brought forward (BW-24)
    resolve_at_deadline(phase)
    game.refresh_from_db()
    reaction = open_phase(game)
    assert (reaction.kind, reaction.actors) == ("reaction", [target])


def test_BW_25_panel_shows_the_table_to_everyone_and_the_hand_only_to_its_player(game, master, spectator):
    url = game.get_absolute_url()
    own = client_for(game.users[0]).get(url).content.decode()
    other = client_for(game.users[1]).get(url).content.decode()
    anon = client_for(None).get(url).content.decode()
    watcher = client_for(spectator).get(url).content.decode()
    assert 'id="bw-ring"' in own and 'id="bw-ring"' in anon
    assert "The Leshy" in own and "The Leshy" not in other and "The Leshy" not in anon and "The Leshy" not in watcher
    for page in (other, anon, watcher):
        assert "the_alpha" not in page and "The Alpha" not in page
    assert "Amulet" in other  # his own hand


def test_BW_26_a_refused_line_shows_the_reason_and_saves_nothing(game):
    client = client_for(game.users[1])
    r = client.post(reverse("bloodwood:order", args=[game.pk]), {"line": "play", "card": "keys", "target": 1},
                    follow=True)
    assert "not an actor of the open step" in r.content.decode()
    assert not open_phase(game).orders.exists()


def test_BW_8_answer_through_the_api_and_the_refusal_code(game):
    phase = open_phase(game)
    target = game.seats.get(position=1).pk
    status, _body = api(client_for(game.users[0]), "post", f"/api/games/{game.pk}/orders/",
                        {"phase": phase.pk, "payload": {"move": "play", "card": "bite", "target": target}})
    assert status in (200, 201)
    resolve_at_deadline(Phase.objects.get(pk=phase.pk))
    game.refresh_from_db()
    from .. import services

    with pytest.raises(core.ServiceError) as exc:
        services.react(game=game, user=game.users[2], answer="amulet")
    assert exc.value.code == "not_target"
    services.react(game=game, user=game.users[1], answer="amulet")
    resolve_at_deadline(open_phase(game))
    game.refresh_from_db()
    assert game.state["discard"][:2] == ["bite", "amulet"]


def test_BW_22_declaration_ends_the_game_and_reveals_everything(game):
    url = reverse("bloodwood:declare", args=[game.pk])
    enemies = [game.seats.get(position=3).pk, game.seats.get(position=4).pk]
    client_for(game.users[0]).post(url, {"named": enemies})
    phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    assert phase.deadline <= timezone.now()  # the step closes at once (BW-22b)
    resolve_at_deadline(phase)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.outcome["winners"] == ["werewolves"]  # the enemies were pure: a wrong declaration
    page = client_for(None).get(game.get_absolute_url()).content.decode()
    assert "The Alpha" in page  # the end reveals the entities (BW-22e)


def test_order_options_offer_only_legal_lines(game):
    status, body = api(client_for(game.users[0]), "get", f"/api/games/{game.pk}/order-options/")
    assert status == 200 and body["kind"] == "turn"
    payloads = [c["payload"] for c in body["choices"]]
    assert {"move": "play", "card": "leshy"} in payloads
    assert not any(p.get("card") == "vaccine" and p.get("move") == "play" for p in payloads)  # a day card at Night
    status, body = api(client_for(game.users[1]), "get", f"/api/games/{game.pk}/order-options/")
    assert status == 200 and body["choices"] == []


def test_player_needs_only_the_actors(game):
    phase = open_phase(game)
    first, second = game.seats.get(position=0), game.seats.get(position=1)
    assert selectors.player_needs(game=game, phase=phase, seat=second, payload=None) == []
    needs = selectors.player_needs(game=game, phase=phase, seat=first, payload=None)
    assert len(needs) == 1


def test_demo_game_is_built(master, make_user):
    users = [(make_user(f"demo{i}"), f"player{i}") for i in range(6)]
    g = demo.night(master=master, players=users)
    g.refresh_from_db()
    assert g.status == Game.Status.RUNNING and g.state["phase"] == "night"
    assert MODULE.demo_games() == demo.GAMES


def test_BW_26_the_api_refuses_with_the_code_rule_and_message(game):
    client = client_for(game.users[1], language="ru")
    status, body = api(client, "post", f"/api/games/{game.pk}/bw/line/",
                       {"payload": {"move": "play", "card": "keys", "target": 1}})
    assert status == 400 and body["code"] == "not_your_turn"
    assert body["details"][0]["rule"] == "BW-26" and "участник" in body["details"][0]["message"]
    status, body = api(client, "post", f"/api/games/{game.pk}/bw/react/", {"react": "amulet"})
    assert status == 400 and body["code"] == "no_attack"
    status, body = api(client_for(game.users[0]), "post", f"/api/games/{game.pk}/bw/declare/", {"declare": []})
    assert status == 400 and body["code"] == "bad_declaration"
    status, body = api(client_for(game.users[0]), "post", f"/api/games/{game.pk}/bw/line/",
                       {"payload": {"move": "play", "card": "leshy"}})
    assert status == 200 and body == {"ok": True, "over": False}
    resolve_at_deadline(open_phase(game))
    status, body = api(client_for(game.users[0]), "post", f"/api/games/{game.pk}/bw/declare/", {"declare": [4, 5]})
    assert status == 400 and body["code"] == "bad_declaration"  # seat ids of this game only


def test_BW_23a_inattention_a_refused_answer_costs_the_card(master, make_user):
    users = [make_user(f"in{i}") for i in range(5)]
    g = core.game_create(master=master, module="bloodwood", title="BW",
                         options={"position": POSITION, "inattention": True}, rng_seed=3)
    core.game_open_signup(game=g, actor=master)
    for i, u in enumerate(users):
        core.seat_join(game=g, user=u, display_name=f"P{i + 1}")
    core.game_start(game=g, actor=master)
    g.refresh_from_db()
    from .. import services

    with pytest.raises(core.ServiceError) as exc:
        services.react(game=g, user=users[1], answer="amulet")  # no attack waits: the Amulet is lost
    assert exc.value.code == "no_attack"
    g.refresh_from_db()
    assert g.state["hands"][str(g.seats.get(position=1).pk)] == ["keys"]
    assert g.state["discard"][0] == "amulet"
    assert g.log_entries.filter(kind="bw.penalty").count() == 1


def test_BW_24a_default_step_durations_come_from_the_game_data():
    assert MODULE.default_durations == {"turn": 720 * 60, "reaction": 240 * 60, "discard": 240 * 60,
                                        "give": 240 * 60, "keep": 240 * 60, "refill": 240 * 60}
    assert selectors.game_data()["bounds"] == {"turn": [10, 4320], "step": [5, 1440]}


def test_BW_8_the_answer_prompt_shows_the_attack_and_the_answers_he_holds(game):
    phase = open_phase(game)
    target = game.seats.get(position=1)
    client_for(game.users[0]).post(reverse("bloodwood:order", args=[game.pk]),
                                   {"line": "play", "card": "bite", "target": target.pk})
    resolve_at_deadline(Phase.objects.get(pk=phase.pk))
    page = client_for(game.users[1]).get(game.get_absolute_url()).content.decode()
    assert 'id="bw-attack"' in page and 'value="amulet"' in page and 'value="mirror"' not in page
    other = client_for(game.users[2]).get(game.get_absolute_url()).content.decode()
    assert 'id="bw-attack"' in other and 'name="react"' not in other  # the window tells nobody what he holds


def test_BW_3_the_master_console_names_each_entity(game):
    from django.utils import translation

    seat = game.seats.get(position=3)
    with translation.override("en"):
        assert dict(MODULE.master_seat_summary(seat.data)) == {"Entity": "The Alpha", "Team": "werewolves"}
    with translation.override("ru"):
        assert dict(MODULE.master_seat_summary(seat.data)) == {"Сущность": "Альфа", "Команда": "оборотни"}


def test_BW_26_the_core_orders_api_refuses_with_the_code_and_check_order(game):
    """BW-26 through the core's generic ``POST /api/games/<id>/orders/``: the same code, rule and message (in the
    player's language) as the module's own API, and BW-26's order of checks — ``not_your_turn`` before the core's
    ``not_allowed``, ``not_in_hand`` before ``wrong_phase`` — with nothing saved."""
    phase = open_phase(game)
    ru = client_for(game.users[1], language="ru")
    status, body = api(ru, "post", f"/api/games/{game.pk}/orders/",
                       {"phase": phase.pk, "payload": {"move": "play", "card": "keys", "target": 1}})
    assert status == 400 and body["code"] == "not_your_turn"
    assert body["details"][0]["rule"] == "BW-26" and "участник" in body["details"][0]["message"]
    assert "участник" in body["errors"]["__all__"][0]
    en = client_for(game.users[0], language="en")
    status, body = api(en, "post", f"/api/games/{game.pk}/orders/",
                       {"phase": phase.pk, "payload": {"move": "play", "card": "keys", "target": 1}})
    assert status == 400 and body["code"] == "not_in_hand"  # before wrong_phase (keys is a day card, it is Night)
    status, body = api(en, "post", f"/api/games/{game.pk}/orders/",
                       {"phase": phase.pk, "payload": {"move": "play", "card": "vaccine", "target": 2}})
    assert status == 400 and body["code"] == "wrong_phase" and body["details"][0]["field"] == "card"
    status, body = api(client_for(game.users[2]), "post", f"/api/games/{game.pk}/orders/",
                       {"phase": phase.pk, "payload": {"react": "amulet"}})
    assert status == 400 and body["code"] == "no_attack"  # an answer is checked whatever step is open
    assert not phase.orders.exists()


def test_BW_22d_the_master_ends_the_game_with_no_winner_from_the_console(game, master):
    """BW-22d: the console offers the master "End the game with no winner" (the core's ``console_actions`` hook);
    a player can't; the end is public, audited with its reason and reveals everything (BW-22e)."""
    page = client_for(master, language="en").get(game.get_absolute_url()).content.decode()
    url = reverse("bloodwood:end_no_winner", args=[game.pk])
    assert 'id="console-action-bw-end-no-winner"' in page and url in page
    player_page = client_for(game.users[0]).get(game.get_absolute_url()).content.decode()
    assert url not in player_page
    client_for(game.users[0]).post(url, {"reason": "mine"})
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    client_for(master).post(url, {"reason": ""})
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING  # a reason is needed
    client_for(master).post(url, {"reason": "the table broke up", "confirm": "1"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.outcome["winners"] == ["none"]  # as a deadlock (BW-22d)
    assert game.state["winner"] == "none" and not game.phases.exclude(status=Phase.Status.RESOLVED).exists()
    assert game.log_entries.filter(kind="bw.master_end", visibility="public").count() == 1
    assert game.audit_entries.filter(action="end_no_winner", reason="the table broke up").exists()
    anon = client_for(None).get(game.get_absolute_url()).content.decode()
    assert "The Alpha" in anon  # the end reveals every entity


def test_BW_22g_the_console_edits_a_seat_and_audits_it(game, master):
    """BW-22g: the core's console seat edit works for Bloodwood (hand, DNA, markers), audited in words."""
    from gm.core import interventions

    seat = game.seats.get(position=1)
    spec = MODULE.master_seat_form(state=game.state, seat=core.seat_info(seat), phase=None)
    assert [s["key"] for s in spec] == ["hand", "dna", "curse_mark", "chains", "tranquilizer"]
    interventions.seat_edit(game=game, actor=master, seat_id=seat.pk,
                            changes={"hand": ["amulet", "bite"], "dna": "mutated", "chains": True},
                            reason="a lost card")
    game.refresh_from_db()
    sid = str(seat.pk)
    assert game.state["hands"][sid] == ["amulet", "bite"] and game.state["dna"][sid] == "mutated"
    assert sid in game.state["chains"]
    page = client_for(master, language="en").get(reverse("gm:console_seat_edit_form", args=[game.pk, seat.pk]))
    assert page.status_code == 200 and "Curse Mark" in page.content.decode()
    with pytest.raises(core.ServiceError):
        interventions.seat_edit(game=game, actor=master, seat_id=seat.pk, changes={"hand": ["bazooka"]},
                                reason="typo")
    console = client_for(master, language="en").get(game.get_absolute_url()).content.decode()
    assert "Hand: Amulet, Keys → Amulet, Bite" in console


def _finish_by_declaration(g, named_positions):
    url = reverse("bloodwood:declare", args=[g.pk])
    client_for(g.users[0]).post(url, {"named": [g.seats.get(position=p).pk for p in named_positions]})
    resolve_at_deadline(Phase.objects.get(game=g, status=Phase.Status.OPEN))
    g.refresh_from_db()
    assert g.status == Game.Status.FINISHED


def test_BW_23c_winner_deals_after_a_failed_declaration_the_master_picks_the_dealer(game, master):
    """BW-23c: after a wrong declaration the master picks the dealer among the winning team; the rematch seats the
    same players in the same seats; only the dealer deals, BW-3a's teams are enforced, and the game starts with
    his deal and first player, the dealer told every entity."""
    _finish_by_declaration(game, [3, 4])  # the enemies are pure: werewolves (seats 4 and 5) win
    page = client_for(game.users[0]).get(game.get_absolute_url()).content.decode()
    url = reverse("bloodwood:rematch", args=[game.pk])
    assert url in page
    assert client_for(game.users[0]).post(url, {}).status_code == 403
    wrong = game.seats.get(position=0)
    client_for(master).post(url, {"dealer": wrong.pk})
    assert not Game.objects.filter(options__rematch_of=game.pk).exists()
    dealer = game.seats.get(position=4)
    r = client_for(master).post(url, {"dealer": dealer.pk})
    new = Game.objects.get(options__rematch_of=game.pk)
    assert r.status_code == 302 and r["Location"] == reverse("bloodwood:deal", args=[new.pk])
    assert new.status == Game.Status.SIGNUP and new.options["winner_deals"] and new.options["dealer"] == 5
    assert [(s.user_id, s.display_name) for s in new.seats.order_by("position")] == [
        (s.user_id, s.display_name) for s in game.seats.order_by("position")]
    assert game.audit_entries.filter(action="rematch").exists()
    assert new.signups_closed
    with pytest.raises(core.ServiceError):
        core.game_start(game=new, actor=master)  # not before the winner's deal
    deal_url = reverse("bloodwood:deal", args=[new.pk])
    good = {"entity-0": "vampire", "entity-1": "werewolf", "entity-2": "vampire", "entity-3": "the_alpha",
            "entity-4": "vampire", "first_player": 5}
    client_for(game.users[0]).post(deal_url, good)  # not the dealer
    new.refresh_from_db()
    assert new.status == Game.Status.SIGNUP
    bad = {**good, "entity-1": "vampire"}  # four vampires and The Alpha: not BW-3a's teams
    r = client_for(game.users[4]).post(deal_url, bad, follow=True)
    new.refresh_from_db()
    assert new.status == Game.Status.SIGNUP and "BW-3a" in r.content.decode()
    client_for(game.users[4]).post(deal_url, good)
    new.refresh_from_db()
    assert new.status == Game.Status.RUNNING
    seats = list(new.seats.order_by("position"))
    assert [new.state["entities"][str(s.pk)] for s in seats] == ["vampire", "werewolf", "vampire", "the_alpha",
                                                                  "vampire"]
    assert new.state["to_move"] == str(seats[4].pk)
    told = new.log_entries.get(kind="bw.dealer")
    assert told.visibility == "seat" and told.seat_id == seats[4].pk


def test_BW_23c_the_successful_declarer_deals(master, make_user):
    """BW-23c: after a right declaration the declarer deals; the master only starts the rematch."""
    users = [make_user(f"wd{i}") for i in range(5)]
    g = core.game_create(master=master, module="bloodwood", title="BW",
                         options={"position": {**POSITION, "dna": {"4": "mutated", "5": "mutated"}}}, rng_seed=3)
    core.game_open_signup(game=g, actor=master)
    for i, u in enumerate(users):
        core.seat_join(game=g, user=u, display_name=f"P{i + 1}")
    core.game_start(game=g, actor=master)
    g.refresh_from_db()
    g.users = users
    _finish_by_declaration(g, [3, 4])
    assert g.outcome["winners"] == ["vampires"]
    page = client_for(master, language="en").get(reverse("bloodwood:rematch", args=[g.pk])).content.decode()
    assert 'id="bw-dealer"' in page and "P1" in page
    r = client_for(master, language="en").post(reverse("bloodwood:rematch", args=[g.pk]), {}, follow=True)
    assert r.status_code == 200, r.content.decode()[-3000:]
    new = Game.objects.get(options__rematch_of=g.pk)
    assert new.options["dealer"] == 1
    page = client_for(users[0], language="en").get(reverse("bloodwood:deal", args=[new.pk])).content.decode()
    assert 'id="bw-deal-form"' in page
    other = client_for(users[1], language="en").get(reverse("bloodwood:deal", args=[new.pk])).content.decode()
    assert 'id="bw-deal-form"' not in other


def test_BW_23a_inattention_through_the_core_orders_api_costs_the_card(master, make_user):
    """BW-23a through the core's generic ``POST /api/games/<id>/orders/`` (``GameModule.order_refused``): a play
    refused with a costly code is still refused with its code, and the card is lost and the turn ends (the penalty
    move closes the step); a refused answer loses the Amulet only."""
    users = [make_user(f"io{i}") for i in range(5)]
    g = core.game_create(master=master, module="bloodwood", title="BW",
                         options={"position": POSITION, "inattention": True}, rng_seed=3)
    core.game_open_signup(game=g, actor=master)
    for i, u in enumerate(users):
        core.seat_join(game=g, user=u, display_name=f"P{i + 1}")
    core.game_start(game=g, actor=master)
    g.refresh_from_db()
    phase = open_phase(g)
    second = g.seats.get(position=1)
    status, body = api(client_for(users[1]), "post", f"/api/games/{g.pk}/orders/",
                       {"phase": phase.pk, "payload": {"react": "amulet"}})
    assert status == 400 and body["code"] == "no_attack"
    g.refresh_from_db()
    assert g.state["hands"][str(second.pk)] == ["keys"] and g.state["discard"][-1] == "amulet"
    status, body = api(client_for(users[0]), "post", f"/api/games/{g.pk}/orders/",
                       {"phase": phase.pk, "payload": {"move": "play", "card": "vaccine", "target": second.pk}})
    assert status == 400 and body["code"] == "wrong_phase"
    assert [o.payload["move"] for o in phase.orders.all()] == ["penalty"]  # stored despite the refusal
    phase.refresh_from_db()
    assert phase.deadline <= timezone.now()  # the step closes at once (BW-24)
    resolve_at_deadline(phase)
    g.refresh_from_db()
    assert "vaccine" not in g.state["hands"][str(g.seats.get(position=0).pk)]
    assert g.log_entries.filter(kind="bw.penalty").count() == 2


def test_BW_23a_no_penalty_through_the_core_orders_api_without_the_option(game):
    phase = open_phase(game)
    second = game.seats.get(position=1)
    status, body = api(client_for(game.users[0]), "post", f"/api/games/{game.pk}/orders/",
                       {"phase": phase.pk, "payload": {"move": "play", "card": "vaccine", "target": second.pk}})
    assert status == 400 and body["code"] == "wrong_phase"
    game.refresh_from_db()
    assert "vaccine" in game.state["hands"][str(game.seats.get(position=0).pk)] and not phase.orders.exists()


def test_BW_24_the_answer_prompt_has_a_countdown_to_the_steps_deadline(game):
    """Issue 20 item 5: the reaction prompt counts down to the step's deadline (``static/js/countdown.js`` reads
    ``time[data-deadline]``); a player who is not asked has no prompt and no countdown of his own."""
    phase = open_phase(game)
    target = game.seats.get(position=1)
    client_for(game.users[0]).post(reverse("bloodwood:order", args=[game.pk]),
                                   {"line": "play", "card": "bite", "target": target.pk})
    resolve_at_deadline(Phase.objects.get(pk=phase.pk))
    reaction = open_phase(game)
    page = client_for(game.users[1]).get(game.get_absolute_url()).content.decode()
    prompt = page.split('id="bw-line"')[1].split("</form>")[0]
    assert 'id="bw-countdown"' in prompt and 'class="countdown"' in prompt
    shown = datetime.fromisoformat(prompt.split('data-deadline="')[1].split('"')[0])
    assert abs((shown - reaction.deadline).total_seconds()) < 1 and 'name="react"' in prompt
    assert "js/countdown.js" in page
    other = client_for(game.users[2]).get(game.get_absolute_url()).content.decode()
    assert 'id="bw-countdown"' not in other


def test_BW_6f_the_refill_form_offers_only_valid_splits_checked_live(game):
    """BW-6b/BW-6f on the page: the refill form's day and night counts are the valid splits (the first options make
    one), with the server's list for the live check (``static/js/bloodwood_split.js``) and its reason ready."""
    phase = open_phase(game)
    client_for(game.users[0]).post(reverse("bloodwood:order", args=[game.pk]), {"line": "discard", "card": "vaccine"})
    resolve_at_deadline(Phase.objects.get(pk=phase.pk))
    refill = open_phase(game)
    assert refill.kind == "refill"
    game.refresh_from_db()
    due = game.state["step"]["due"]
    page = client_for(game.users[0]).get(game.get_absolute_url()).content.decode()
    form = page.split('id="bw-line"')[1].split("</form>")[0]
    assert f'data-due="{due}"' in form and "js/bloodwood_split.js" in form and 'id="bw-split-check"' in form
    days = [int(v) for v in form.split('name="day"')[1].split("</select>")[0].split('value="')[1:] for v in [v[0]]]
    nights = [int(v) for v in form.split('name="night"')[1].split("</select>")[0].split('value="')[1:] for v in [v[0]]]
    assert days and [due - d for d in days] == nights
    assert f'data-splits="{",".join(map(str, days))}"' in form


def test_BW_24_the_panel_follows_the_steps_without_a_reload(game):
    """Issue 20 item 5: the page polls the panel (htmx, ``bloodwood:panel?v=``): 204 while the step is the same, the
    new panel once it closed — the target sees his answer prompt come; read through visibility like the page (BW-25:
    no entity, no other hand for anyone else)."""
    url = reverse("bloodwood:panel", args=[game.pk])
    target = game.seats.get(position=1)
    waiting = client_for(game.users[1])
    page = waiting.get(game.get_absolute_url()).content.decode()
    version = page.split(f'{url}?v=')[1].split('"')[0]
    assert waiting.get(url, {"v": version}).status_code == 204
    phase = open_phase(game)
    client_for(game.users[0]).post(reverse("bloodwood:order", args=[game.pk]),
                                   {"line": "play", "card": "bite", "target": target.pk})
    resolve_at_deadline(Phase.objects.get(pk=phase.pk))
    fresh = waiting.get(url, {"v": version})
    assert fresh.status_code == 200
    body = fresh.content.decode()
    assert 'id="bw-live"' in body and 'name="react"' in body and 'id="bw-countdown"' in body
    for viewer in (None, game.users[2]):
        other = client_for(viewer).get(url, {"v": version}).content.decode()
        assert 'name="react"' not in other and "the_alpha" not in other and "The Alpha" not in other
        assert "The Leshy" not in other
