"""Blood Vengeance in the shell: the options form and the role table edit, the player's panel and order forms
offering only legal choices, the light order checked action by action, the order options API, the master's removal
of a player, who may post (BV-1.1, BV-5.5, BV-7.6, BV-13.1, BV-14.4a, BV-14.8, BV-15.12)."""
from __future__ import annotations

import pytest

from gm.core import interventions
from gm.core import services as core
from gm.core.models import AuditEntry, Game, LogEntry, Seat
from gm.core.services import ServiceError
from tests.helpers import api, client_for, open_phase_id

from .. import forms, services
from ..module import MODULE

pytestmark = pytest.mark.django_db

DEAL = ["count", "lamia", "monk", "hunter", "vampire", "vampire"]


@pytest.fixture
def six(make_user):
    return [make_user(f"bv{i}") for i in range(6)]


def start(master, users, **options) -> Game:
    game = core.game_create(master=master, module="blood_vengeance", title="BV", rng_seed=3,
                            options={"deal": DEAL, **options})
    core.game_open_signup(game=game, actor=master)
    for i, user in enumerate(users):
        core.seat_join(game=game, user=user, display_name=f"P{i + 1}", accept=["code_of_honour"])  # BV-15.15
    core.game_start(game=game, actor=master)
    game.refresh_from_db()
    return game


def seat(game, n: int) -> Seat:
    return game.seats.get(position=n - 1)


def resolve(game):
    from gm.core.scenario import resolve_at_deadline

    resolve_at_deadline(game.phases.get(status="open"))
    game.refresh_from_db()


def test_BV_13_1_the_master_edits_the_role_table_in_the_options_form():
    values = {"table": "count: {effect: vampire_check}\nqueen: {self: 'no'}", "flowers": True,
              "missed_action": "random"}
    options = MODULE.validate_options(forms.options_from_fields(values))
    assert options["table"] == {"count": {"effect": "vampire_check"}, "queen": {"self": "no"}}
    assert options["flowers"] is True and options["festival_panic"] is False
    from gm.core.engine import RuleViolation
    with pytest.raises(RuleViolation) as exc:
        MODULE.validate_options(forms.options_from_fields({"table": "count: {targets: 7}"}))
    assert exc.value.errors[0].rule == "BV-13.1"


def test_BV_1_1_the_panel_shows_the_own_card_only(master, six):
    game = start(master, six)
    html = client_for(six[0]).get(f"/games/{game.pk}/").content.decode()
    assert "Your card" in html and "Count" in html
    assert "<strong>Your card:</strong> Count" in html
    other = client_for(six[4]).get(f"/games/{game.pk}/").content.decode()
    assert "<strong>Your card:</strong> Vampire" in other and "<strong>Your card:</strong> Count" not in other
    assert "<strong>Your card:</strong>" not in client_for(None).get(f"/games/{game.pk}/").content.decode()


def test_BV_5_5_the_vote_form_and_options_offer_only_legal_votes(master, six):
    game = start(master, six)
    status, options = api(client_for(six[0]), "get", f"/api/games/{game.pk}/order-options/")
    assert status == 200, options
    votes = [c["payload"]["vote"] for c in options["choices"] if "vote" in c["payload"]]
    assert seat(game, 1).pk not in votes and len(votes) == 5
    status, body = api(client_for(six[0]), "post", f"/api/games/{game.pk}/orders/",
                       {"phase": options["phase"], "payload": {"vote": seat(game, 1).pk}})
    assert status == 400 and "self_vote" in str(body)


def test_BV_14_4a_a_light_order_is_stored_action_by_action(master, six):
    game = start(master, six)
    resolve(game)  # night 1: nobody votes, light 1 opens
    phase_id = open_phase_id(game)
    monk = seat(game, 3)
    lines = LogEntry.objects.filter(game=game).count()
    first = services.submit_actions(game=game, user=six[2], phase_id=phase_id,
                                    actions=[{"role": "monk", "target": seat(game, 1).pk},
                                             {"role": "hunters", "target": seat(game, 5).pk}])
    assert first.refused == [] and len(first.order.payload["actions"]) == 2
    second = services.submit_actions(game=game, user=six[2], phase_id=phase_id,
                                     actions=[{"role": "monk", "target": monk.pk},
                                              {"role": "hunters", "target": seat(game, 6).pk}])
    assert [r["code"] for r in second.refused] == ["self_target"]
    stored = {a["role"]: a["targets"] for a in second.order.payload["actions"]}
    assert stored == {"monk": [seat(game, 1).pk], "hunters": [seat(game, 6).pk]}
    assert LogEntry.objects.filter(game=game).count() == lines  # a refusal writes no log line


def test_BV_14_4a_the_panel_form_posts_legal_choices(master, six):
    game = start(master, six)
    resolve(game)
    client = client_for(six[1])
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'name="g_lamia"' in html
    response = client.post(f"/games/{game.pk}/bv/order/", {"phase": open_phase_id(game), "g_lamia": "0"})
    assert response.status_code == 302
    order = game.phases.get(status="open").orders.get(seat=seat(game, 2))
    assert order.payload["actions"][0]["role"] == "lamia"


def test_BV_15_12_the_master_removes_a_player_card_opened_no_victory_check(master, six):
    game = start(master, six)
    interventions.seat_set_alive(game=game, actor=master, seat_id=seat(game, 4).pk, alive=False, reason="code")
    game.refresh_from_db()
    line = LogEntry.objects.get(game=game, kind="bv.removed")
    assert line.visibility == "public" and line.data["cards"] == {str(seat(game, 4).pk): "hunter"}
    assert game.status == Game.Status.RUNNING and str(seat(game, 4).pk) in game.state["dead"]


def test_BV_14_8_the_dead_and_the_silenced_do_not_post(master, six):
    assert MODULE.may_post({"card": "vampire"}, True) is True
    assert MODULE.may_post({"card": "vampire"}, False) is False
    assert MODULE.may_post({"card": "vampire", "silenced": True}, True) is False
    game = start(master, six, enchanted=True, silenced_seats=[4])
    assert seat(game, 5).data.get("silenced") is True
    with pytest.raises(ServiceError):
        core.post_create(game=game, user=six[4], body="hello")


def test_BV_14_1_phase_labels_in_both_languages():
    from django.utils import translation
    with translation.override("ru"):
        assert MODULE.phase_label("light", 2) == "Светлое время 2"
    with translation.override("en"):
        assert MODULE.phase_label("verdict", 1) == "Verdict 1"


def test_BV_15_12_the_master_casts_the_spell_of_silence(master, six):
    game = start(master, six, enchanted=True)
    target = seat(game, 5)
    with pytest.raises(ServiceError):
        services.enchant(game=game, actor=master, seat_id=target.pk, reason="")  # a reason is required
    with pytest.raises(ServiceError):
        services.enchant(game=game, actor=six[0], seat_id=target.pk, reason="spoiler")  # master only
    services.enchant(game=game, actor=master, seat_id=target.pk, reason="spoiler")
    game.refresh_from_db()
    target.refresh_from_db()
    assert str(target.pk) in game.state["silenced"] and target.data["silenced"] is True
    assert LogEntry.objects.filter(game=game, kind="bv.enchanted", visibility="public").exists()
    status, body = api(client_for(six[4]), "post", f"/api/games/{game.pk}/orders/",
                       {"phase": open_phase_id(game), "payload": {"vote": seat(game, 1).pk}})
    assert status == 400 and "no_vote" in str(body)
    assert AuditEntry.objects.filter(game=game, action="bv_enchant", reason="spoiler").exists()
    with pytest.raises(ServiceError):
        services.enchant(game=game, actor=master, seat_id=target.pk, reason="again")  # already silenced


def test_BV_10_1_the_master_declares_the_hunters_win(master, six):
    game = start(master, six)
    client = client_for(master)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="bv-hunters-win"' in html and 'id="bv-enchant"' not in html  # no spell without the variant
    assert 'id="bv-hunters-win"' not in client_for(six[0]).get(f"/games/{game.pk}/").content.decode()
    response = client.post(f"/games/{game.pk}/bv/hunters-win/", {"reason": "obvious"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.outcome["winners"] == ["hunters"]
    assert sorted(game.outcome["winning_seats"]) == [seat(game, 3).pk, seat(game, 4).pk]
    assert game.state["points"][str(seat(game, 3).pk)] == 2


def test_BV_2_4_signup_shows_the_summary_and_the_master_the_departures(master, six):
    game = core.game_create(master=master, module="blood_vengeance", title="BV", rng_seed=3,
                            options={"roles": ["count", "lamia", "vampire", "vampire", "hunter", "hunter",
                                               "hunter"]})
    core.game_open_signup(game=game, actor=master)
    player_html = client_for(six[0]).get(f"/games/{game.pk}/").content.decode()
    assert "7 players: 4 vampires (1 lord, 1 special), 3 hunters (0 special), 0 werewolves" in player_html
    assert 'id="bv-warnings"' not in player_html
    master_html = client_for(master).get(f"/games/{game.pk}/").content.decode()
    assert "hunters: 3, the table of BV-2.1 recommends 1–2" in master_html
    preset = core.game_create(master=master, module="blood_vengeance", title="BV2", rng_seed=3,
                              options={"preset": "classic_12"})
    core.game_open_signup(game=preset, actor=master)
    assert "12 players: 8 vampires" in client_for(six[0]).get(f"/games/{preset.pk}/").content.decode()


def test_BV_2_4_the_new_game_page_checks_the_set_live(master):
    from django.urls import reverse

    client = client_for(master)
    page = client.get(reverse("gm:game_create"), {"module": "blood_vengeance"}).content.decode()
    url = reverse("blood_vengeance:setup_check")
    assert 'id="bv-setup-check"' in page and url in page and 'hx-include="#game-form"' in page
    two_lords = client.get(url, {"opt_roles": "king count vampire vampire vampire hunter hunter"}).content.decode()
    assert "At most one vampire lord may be in play" in two_lords and "BV-2.4</a>" in two_lords
    fine = client.get(url, {"opt_roles": "count lamia vampire vampire hunter hunter hunter"}).content.decode()
    assert "7 players: 4 vampires (1 lord, 1 special), 3 hunters (0 special), 0 werewolves" in fine
    assert "hunters: 3, the table of BV-2.1 recommends 1–2" in fine and "errorlist" not in fine
    six_with_lord = client.get(url, {"opt_roles": "count vampire vampire vampire vampire hunter"}).content.decode()
    assert "vampire lords: 1, the table of BV-2.1 recommends 0–0" in six_with_lord  # none with 6 (BV-2.1)
    preset = client.get(url, {"opt_preset": "classic_12", "opt_flowers": "on"}).content.decode()
    assert "12 players: 8 vampires" in preset
    bad = client.get(url, {"opt_roles": "count nobody"}).content.decode()
    assert "errorlist" in bad and "Option roles must be a list of card slugs" in bad
    empty = client.get(url).content.decode()
    assert "errorlist" not in empty and "as you build it" in empty
    ru = client_for(master, language="ru").get(url, {"opt_roles": "king count vampire vampire vampire hunter"})
    assert "BV-2.2" in ru.content.decode() and "Players will read" not in ru.content.decode()
    assert client_for(None).get(url).status_code == 302  # the master's tool: logged in only
