"""Forum Mafia signups (FM-2.1–FM-2.5) end to end: the services, the signup page and the API.

Every refused signup changes nothing (row counts and seat data are compared before and after). The test client
re-raises any exception a view lets escape, so a 500 fails the test. The race of two signups for one public role
runs on PostgreSQL only (two real transactions in two threads).
"""
from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse
from django.utils import translation
from PIL import Image

from gm.core import services as core
from gm.core.models import AuditEntry, Game, LogEntry, Seat
from gm.core.services import ServiceError
from gm.modules.forum_mafia.engine.roles import PUBLIC_ROLES
from gm.modules.forum_mafia.forms.signup import PLEDGES
from gm.modules.forum_mafia.models import Signup
from gm.modules.forum_mafia.services import signup as services
from tests.helpers import api, client_for, race

pytestmark = pytest.mark.django_db

RULES = "Ночь длится сутки. Night lasts one day."
STARTS = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


# -- helpers ----------------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    """Uploads go to a throw-away MEDIA_ROOT."""
    settings.MEDIA_ROOT = tmp_path / "media"


def fm_signup_game(master, *, title: str = "FM signup", open_signup: bool = True) -> Game:
    game = core.game_create(master=master, module="forum_mafia", title=title, description=RULES, rng_seed=7,
                            starts_at=STARTS)
    if open_signup:
        core.game_open_signup(game=game, actor=master)
    game.refresh_from_db()
    return game


@pytest.fixture
def game(master) -> Game:
    return fm_signup_game(master)


def sign(game: Game, user, role: str = "paranoid", name: str | None = None, **kwargs) -> Signup:
    kwargs.setdefault("pledges", True)
    return services.signup_create(game=game, user=user, public_role=role,
                                  character_name=name or f"Char-{user.username}", **kwargs)


def snapshot() -> tuple:
    """Row counts and every seat's name and data: equal before and after a refused request."""
    counts = tuple(m.objects.count() for m in (Signup, Seat, AuditEntry, LogEntry))
    signups = tuple(Signup.objects.order_by("pk").values_list("status", "role_key", "character_name", "messengers",
                                                                "avatar", "reject_reason"))
    seats = tuple(Seat.objects.order_by("pk").values_list("display_name", "data"))
    return counts, signups, seats


def refused(call, code: str = "invalid", **kwargs) -> ServiceError:
    before = snapshot()
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == code, err.value.errors
    assert snapshot() == before
    return err.value


def png(size: tuple[int, int] = (8, 8), noise: bool = False) -> bytes:
    image = Image.new("RGB", size, (30, 30, 200))
    if noise:
        import random

        image = Image.frombytes("RGB", size, random.Random(0).randbytes(size[0] * size[1] * 3))
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def upload(content: bytes | None = None, name: str = "face.png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content if content is not None else png(), content_type="image/png")


def page_form(**overrides) -> dict:
    data = {"public_role": "paranoid", "custom_role": "", "character_name": "Вася", "messengers": "tg @vasya",
            "pledges": "on"}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


# == FM-2.1: what a signup holds =================================================================================


def test_FM_2_1_signup_creates_seat_with_public_role_and_signup(game, players, frozen):
    signup = sign(game, players[0], "paranoid", "Вася", messengers="Telegram @vasya\nDiscord vasya")
    seat = Seat.objects.get(game=game, user=players[0])
    assert (seat.display_name, seat.data) == ("Вася", {"public_role": "paranoid"})
    assert signup.seat == seat and signup.status == "active" and signup.role_key == "paranoid"
    assert signup.messengers == "Telegram @vasya\nDiscord vasya"
    assert signup.pledged_at == datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def test_FM_2_3_custom_role_is_stored_with_its_name(game, players):
    signup = sign(game, players[0], "custom", "Оля", custom_role="  Шаман   вуду ")
    assert (signup.public_role, signup.custom_role, signup.role_key) == ("custom", "Шаман вуду", "custom:шаман вуду")
    assert Seat.objects.get(pk=signup.seat_id).data == {"public_role": {"custom": "Шаман вуду"}}
    assert services.signups_public(game)[0]["public_role_name"] == "Шаман вуду"


def test_FM_2_1_character_name_optional_and_unique_in_game(game, players):
    sign(game, players[0], "paranoid", "Вася")
    err = refused(sign, game=game, user=players[1], role="geek", name="ВАСЯ")
    assert set(err.errors) == {"character_name"}
    err = refused(sign, game=game, user=players[1], role="geek", name="x" * 81)
    assert set(err.errors) == {"character_name"}
    # FM-2.1 the name is optional: an empty one is the player's own name, numbered when a seat holds it
    Seat.objects.filter(display_name="Вася").update(display_name=players[1].username)
    blank = services.signup_create(game=game, user=players[1], public_role="geek", character_name="  ", pledges=True)
    assert blank.character_name == blank.seat.display_name == f"{players[1].username} 2"
    absent = services.signup_create(game=game, user=players[2], public_role="cultist", pledges=True)
    assert absent.character_name == players[2].username


def test_FM_2_1_oversized_avatar_refused_and_nothing_stored(game, players, settings):
    settings.AVATAR_MAX_BYTES = 1000
    big = png((64, 64), noise=True)
    assert len(big) > 1000
    err = refused(sign, game=game, user=players[0], avatar=upload(big))
    assert set(err.errors) == {"avatar"}
    with translation.override("en"):
        err = refused(sign, game=game, user=players[0], avatar=upload(big))
    assert "at most" in err.errors["avatar"][0]
    err = refused(sign, game=game, user=players[0], avatar=upload(b"not an image", "x.png"))
    assert set(err.errors) == {"avatar"}
    assert not Path(settings.MEDIA_ROOT).exists() or not any(Path(settings.MEDIA_ROOT).rglob("*.png"))
    # the page and the API refuse it the same way
    before = snapshot()
    response = client_for(players[0]).post(reverse("forum_mafia:signup", args=[game.pk]),
                                           page_form(avatar=upload(big)))
    assert response.status_code == 400 and "avatar" in response.context["signup_form"].errors
    response = client_for(players[0]).post(f"/api/games/{game.pk}/signups/",
                                           {"public_role": "geek", "character_name": "Вася", "pledges": "true",
                                            "avatar": upload(big)})
    assert response.status_code == 400 and set(response.json()["errors"]) == {"avatar"}
    assert snapshot() == before


def test_FM_2_1_avatar_stored_and_changeable_after_start(game, master, make_user, django_capture_on_commit_callbacks):
    users = [make_user(f"u{i}") for i in range(5)]
    first = sign(game, users[0], "paranoid", "Вася", avatar=upload(name="one.png"))
    assert first.avatar.name.startswith(f"fm_avatars/{game.pk}/{users[0].pk}/")
    old_path = Path(first.avatar.path)
    assert old_path.is_file()
    assert services.signups_public(game)[0]["avatar_url"] == first.avatar.url
    for i, role in enumerate(["geek", "cultist", "jock", "guard"], start=1):
        sign(game, users[i], role)
    core.game_start(game=game, actor=master)
    with django_capture_on_commit_callbacks(execute=True):
        updated = services.character_update(game=game, user=users[0], avatar=upload(name="two.png"),
                                            character_name="Василий", messengers="tg @vasily")
    assert updated.avatar.name.endswith(".png") and updated.avatar.name != first.avatar.name
    assert Path(updated.avatar.path).is_file() and not old_path.exists()
    assert Seat.objects.get(pk=first.seat_id).display_name == "Василий"
    with django_capture_on_commit_callbacks(execute=True):
        cleared = services.character_update(game=game, user=users[0], avatar=False)
    assert not cleared.avatar


def test_FM_2_1_character_update_checks_name_and_refuses_after_the_game(game, master, players):
    sign(game, players[0], "paranoid", "Вася")
    sign(game, players[1], "geek", "Петя")
    err = refused(services.character_update, game=game, user=players[1], character_name=" вася ")
    assert set(err.errors) == {"character_name"}
    refused(services.character_update, game=game, user=players[1], character_name="")
    refused(services.character_update, code="not_found", game=game, user=players[2], character_name="Коля")
    services.character_update(game=game, user=players[1], character_name="Пётр")  # keeps role and messengers
    assert Seat.objects.get(user=players[1]).display_name == "Пётр"
    assert Signup.objects.get(user=players[1]).public_role == "geek"
    core.game_abort(game=game, actor=master, reason="test")
    refused(services.character_update, code="state", game=game, user=players[1], character_name="Пьер")


# == FM-2.2: one player per public role ==========================================================================


def test_FM_2_2_taken_role_refused_naming_the_holder(game, players):
    sign(game, players[0], "paranoid", "Вася")
    with translation.override("ru"):
        err = refused(sign, game=game, user=players[1], role="paranoid", name="Петя")
    assert err.errors == {"public_role": ["Роль «Параноик» уже заявлена: её взял(а) Вася."]}
    with translation.override("en"):
        err = refused(sign, game=game, user=players[1], role="paranoid", name="Петя")
    assert err.errors == {"public_role": ["The role “Paranoid” is already claimed: Вася has it."]}
    # every problem of the request is reported at once
    err = refused(sign, game=game, user=players[1], role="paranoid", name="вася", pledges=False)
    assert set(err.errors) == {"public_role", "character_name", "pledges"}
    sign(game, players[1], "geek", "Петя")  # another role is fine


def test_FM_2_2_unknown_role_refused(game, players):
    for role in ("", "boss", "mafia_boss", "Параноик", None, 3):
        err = refused(sign, game=game, user=players[0], role=role)
        assert set(err.errors) == {"public_role"}


def test_FM_2_2_database_backstop_turns_a_race_into_the_same_error(game, players, monkeypatch):
    """A race past the lock (e.g. two processes on SQLite without it): the partial unique constraint refuses the
    second active signup for the role, and the service reports who holds it, changing nothing."""
    sign(game, players[0], "paranoid", "Вася")
    real = services._holder
    calls = []

    def blind_first(game_, key):
        calls.append(key)
        return None if len(calls) == 1 else real(game_, key)

    monkeypatch.setattr(services, "_holder", blind_first)
    with translation.override("en"):
        err = refused(sign, code="conflict", game=game, user=players[1], role="paranoid", name="Петя")
    assert err.errors == {"public_role": ["The role “Paranoid” is already claimed: Вася has it."]}
    assert len(calls) == 2


def test_FM_2_2_one_active_signup_per_user(game, players):
    sign(game, players[0], "paranoid")
    refused(sign, code="duplicate", game=game, user=players[0], role="geek", name="Other")


def test_FM_2_2_withdraw_frees_the_role(game, master, players):
    sign(game, players[0], "paranoid", "Вася")
    signup = services.signup_withdraw(game=game, user=players[0])
    assert signup.status == "withdrawn" and signup.seat is None
    assert not Seat.objects.filter(game=game).exists()
    refused(services.signup_withdraw, code="not_found", game=game, user=players[0])
    sign(game, players[1], "paranoid", "Вася")  # the role and the name are free again
    sign(game, players[0], "geek", "Вася-2")  # and he may sign up again
    assert Signup.objects.filter(game=game, user=players[0]).count() == 2


def test_FM_2_2_withdraw_only_before_the_start(game, master, make_user):
    users = [make_user(f"u{i}") for i in range(5)]
    for user, role in zip(users, ["paranoid", "geek", "cultist", "jock", "guard"], strict=True):
        sign(game, user, role)
    core.game_start(game=game, actor=master)
    refused(services.signup_withdraw, code="state", game=game, user=users[0])
    # the claimed public roles reached the engine's seats
    assert {s.user.username: s.data["public_role"] for s in game.seats.select_related("user")} == {
        "u0": "paranoid", "u1": "geek", "u2": "cultist", "u3": "jock", "u4": "guard"}


def test_FM_2_2_leaving_through_the_core_withdraws_the_signup(game, players):
    sign(game, players[0], "paranoid", "Вася")
    core.seat_leave(game=game, user=players[0])
    assert Signup.objects.get(user=players[0]).status == "withdrawn"
    sign(game, players[1], "paranoid")


def test_FM_2_2_public_list_shows_names_and_roles_messengers_only_to_the_master(game, master, players, spectator):
    sign(game, players[0], "paranoid", "Вася", messengers="tg @secret-vasya")
    sign(game, players[1], "custom", "Оля", custom_role="Шаман", messengers="discord olya#1")
    url = reverse("forum_mafia:signup", args=[game.pk])
    for who in (None, spectator, players[0], players[2]):
        status, data = api(client_for(who), "get", f"/api/games/{game.pk}/signups/")
        assert status == 200
        assert [(s["character_name"], s["public_role"], s["public_role_name"], s["custom"]) for s in data] == [
            ("Вася", "paranoid", "Paranoid", False), ("Оля", "custom", "Шаман", True)]
        assert all("messengers" not in s and "username" not in s for s in data)
        body = client_for(who).get(url).content.decode()
        assert "Вася" in body and "Paranoid" in body and "Шаман" in body
        assert "@secret-vasya" not in body or (who == players[0])  # a player sees only his own
        assert "olya#1" not in body
    status, data = api(client_for(master), "get", f"/api/games/{game.pk}/signups/")
    assert [(s["messengers"], s["username"]) for s in data] == [("tg @secret-vasya", "p0"), ("discord olya#1", "p1")]
    body = client_for(master).get(url).content.decode()
    assert "@secret-vasya" in body and "olya#1" in body
    # Russian names in the Russian UI
    status, data = api(client_for(None, language="ru"), "get", f"/api/games/{game.pk}/signups/")
    assert data[0]["public_role_name"] == "Параноик"


# == FM-2.3: custom roles ========================================================================================


@pytest.mark.parametrize("name", ["Параноик", "параноик", "paranoid", "PARANOID", "Paranoid", "  пАраноик  ",
                                  "rich man", "Rich_Man", "Учёный", "Ученый", "fortune_teller"])
def test_FM_2_3_custom_role_named_like_a_listed_role_refused(game, players, name):
    err = refused(sign, game=game, user=players[0], role="custom", custom_role=name)
    assert set(err.errors) == {"custom_role"}


def test_FM_2_3_custom_role_needs_a_name(game, players):
    for name in ("", "   ", None, "x" * 81):
        err = refused(sign, game=game, user=players[0], role="custom", custom_role=name)
        assert set(err.errors) == {"custom_role"}


def test_FM_2_3_taken_custom_name_refused_naming_the_holder(game, players):
    sign(game, players[0], "custom", "Оля", custom_role="Шаман")
    with translation.override("ru"):
        err = refused(sign, game=game, user=players[1], role="custom", custom_role="  шаМАН ")
    assert err.errors == {"custom_role": ["Роль «шаМАН» уже заявлена: её взял(а) Оля."]}
    sign(game, players[1], "custom", custom_role="Шаман-2")


# == FM-2.4: the pledges =========================================================================================


def test_FM_2_4_missing_pledge_refused(game, players):
    for pledges in (False, None, "yes", 1):
        err = refused(sign, game=game, user=players[0], pledges=pledges)
        assert set(err.errors) == {"pledges"}


def test_FM_2_4_form_shows_the_three_pledges_and_one_required_checkbox(game, players):
    for language in ("en", "ru"):
        response = client_for(players[0], language=language).get(reverse("forum_mafia:signup", args=[game.pk]))
        body = response.content.decode()
        with translation.override(language):
            texts = [str(p) for p in PLEDGES]
        assert len(texts) == 3
        for text in texts:
            assert text.replace("'", "&#x27;") in body
        assert body.count('type="checkbox"') == 1
        assert 'name="pledges"' in body and "required" in body.split('name="pledges"')[1].split(">")[0]
    ru = client_for(players[0], language="ru").get(reverse("forum_mafia:signup", args=[game.pk])).content.decode()
    assert "Нет чести среди воров." in ru and "Из избы сор не выносят." in ru


def test_FM_2_4_page_without_pledge_is_refused(game, players):
    before = snapshot()
    response = client_for(players[0]).post(reverse("forum_mafia:signup", args=[game.pk]), page_form(pledges=None))
    assert response.status_code == 400
    assert "pledges" in response.context["signup_form"].errors
    assert snapshot() == before


# == FM-2.5: the master's signups ================================================================================


def test_FM_2_5_closed_signups_refused(game, master, players):
    sign(game, players[0], "paranoid")
    core.game_close_signup(game=game, actor=master)
    err = refused(sign, code="state", game=game, user=players[1], role="geek")
    assert set(err.errors) == {"__all__"}
    core.game_close_signup(game=game, actor=master, closed=False)
    sign(game, players[1], "geek")
    draft = fm_signup_game(master, title="Draft", open_signup=False)
    refused(sign, code="state", game=draft, user=players[2], role="geek")
    refused(sign, code="not_allowed", game=game, user=master, role="jock")


def test_FM_2_5_master_rejects_with_a_reason_shown_to_the_player(game, master, players, spectator):
    signup = sign(game, players[0], "paranoid", "Вася")
    for actor in (players[0], players[1], spectator):
        refused(services.signup_reject, code="forbidden", game=game, actor=actor, signup_id=signup.pk,
                reason="no")
    err = refused(services.signup_reject, game=game, actor=master, signup_id=signup.pk, reason="  ")
    assert set(err.errors) == {"reason"}
    refused(services.signup_reject, code="not_found", game=game, actor=master, signup_id=signup.pk + 100,
            reason="x")
    rejected = services.signup_reject(game=game, actor=master, signup_id=signup.pk,
                                      reason="Имя оскорбительно, выберите другое.")
    assert (rejected.status, rejected.reject_reason, rejected.seat) == (
        "rejected", "Имя оскорбительно, выберите другое.", None)
    assert not Seat.objects.filter(game=game).exists()
    assert AuditEntry.objects.get().action == "fm_signup_reject"
    refused(services.signup_reject, code="state", game=game, actor=master, signup_id=signup.pk, reason="again")
    url = reverse("forum_mafia:signup", args=[game.pk])
    assert "Имя оскорбительно" in client_for(players[0]).get(url).content.decode()
    for who in (None, players[1], spectator):
        assert "Имя оскорбительно" not in client_for(who).get(url).content.decode()
    assert services.signups_public(game) == []
    sign(game, players[1], "paranoid")  # the role is free again
    sign(game, players[0], "geek", "Вася-2")  # and the player may sign up again
    assert "Имя оскорбительно" not in client_for(players[0]).get(url).content.decode()


def test_FM_2_5_page_shows_rules_start_date_and_master_controls(game, master, players):
    url = reverse("forum_mafia:signup", args=[game.pk])
    body = client_for(None).get(url).content.decode()
    assert "Night lasts one day." in body
    assert re.search(r'<time datetime="([^"]+)"', body).group(1) == "2026-03-01T21:00:00+03:00"  # Moscow time
    assert reverse("account_login") in body and 'name="pledges"' not in body
    # the game page links to the signup page; the core join form is not offered
    game_page = client_for(players[0]).get(game.get_absolute_url()).content.decode()
    assert url in game_page and reverse("gm:seat_join", args=[game.pk]) not in game_page
    boss = client_for(master)
    body = boss.get(url).content.decode()
    assert 'value="close"' in body and 'name="pledges"' not in body
    status_url = reverse("forum_mafia:signup_status", args=[game.pk])
    assert boss.post(status_url, {"action": "close"}).status_code == 302
    game.refresh_from_db()
    assert game.signups_closed
    assert 'value="reopen"' in boss.get(url).content.decode()
    assert "Signups are closed." in client_for(players[0]).get(url).content.decode()
    boss.post(status_url, {"action": "reopen"})
    game.refresh_from_db()
    assert not game.signups_closed
    # a player can't use the master's buttons
    client_for(players[0]).post(status_url, {"action": "close"})
    game.refresh_from_db()
    assert not game.signups_closed
    draft = fm_signup_game(master, title="Draft", open_signup=False)
    assert client_for(players[0]).get(reverse("forum_mafia:signup", args=[draft.pk])).status_code == 404
    boss.post(reverse("forum_mafia:signup_status", args=[draft.pk]), {"action": "open"})
    draft.refresh_from_db()
    assert draft.status == "signup"


# == the page ====================================================================================================


def test_page_form_lists_roles_in_order_marks_taken_and_offers_other(game, players):
    sign(game, players[0], "geek", "Вася")
    response = client_for(players[1]).get(reverse("forum_mafia:signup", args=[game.pk]))
    form = response.context["signup_form"]
    values = [v for v, _label in form.fields["public_role"].choices]
    assert values == ["", *[r.slug for r in PUBLIC_ROLES], "custom"]
    body = response.content.decode()
    assert '<option value="geek" disabled>Geek — taken by Вася</option>' in body
    assert '<option value="strongman">Strongman</option>' in body
    assert '<label for="id_custom_role"' in body and '<label for="id_character_name"' in body
    assert '<label for="id_avatar"' in body and '<label for="id_messengers"' in body
    assert 'enctype="multipart/form-data"' in body


def test_page_signup_withdraw_and_character_edit(game, players):
    url = reverse("forum_mafia:signup", args=[game.pk])
    client = client_for(players[0])
    response = client.post(url, page_form(avatar=upload()))
    assert response.status_code == 302 and response["Location"] == url
    signup = Signup.objects.get()
    assert (signup.character_name, signup.role_key, signup.messengers) == ("Вася", "paranoid", "tg @vasya")
    assert signup.avatar
    body = client.get(url).content.decode()
    assert "Withdraw my signup" in body and 'name="pledges"' not in body and 'name="character-character_name"' in body
    response = client.post(reverse("forum_mafia:character", args=[game.pk]),
                           {"character-character_name": "Василий", "character-messengers": "tg @vasily"})
    assert response.status_code == 302
    assert Seat.objects.get().display_name == "Василий"
    # a taken role on the page: re-rendered with the holder named, nothing changed
    before = snapshot()
    response = client_for(players[1]).post(url, page_form(character_name="Петя"))
    assert response.status_code == 400
    assert response.context["signup_form"].errors["public_role"] == [
        "The role “Paranoid” is already claimed: Василий has it."]
    assert snapshot() == before
    assert client.post(reverse("forum_mafia:withdraw", args=[game.pk]), {"confirm": "on"}).status_code == 302
    assert Signup.objects.get().status == "withdrawn" and not Seat.objects.exists()


def test_page_reject_by_master_only(game, master, players):
    signup = sign(game, players[0], "paranoid", "Вася")
    url = reverse("forum_mafia:reject", args=[game.pk, signup.pk])
    before = snapshot()
    client_for(players[1]).post(url, {"reason": "no"})
    client_for(master).post(url, {"reason": ""})
    assert snapshot() == before
    body = client_for(master).get(reverse("forum_mafia:signup", args=[game.pk])).content.decode()
    assert f'<label for="fm-reject-{signup.pk}">' in body
    client_for(master).post(url, {"reason": "Too late"})
    assert Signup.objects.get().status == "rejected"


def test_page_for_other_modules_is_404(signup_game, players):
    assert client_for(players[0]).get(reverse("forum_mafia:signup", args=[signup_game.pk])).status_code == 404
    status, data = api(client_for(players[0]), "get", f"/api/games/{signup_game.pk}/signups/")
    assert status == 404 and data["code"] == "not_found"


# == the API =====================================================================================================


def test_api_signup_withdraw_reject(game, master, players):
    base = f"/api/games/{game.pk}/signups/"
    p0, p1, boss = client_for(players[0]), client_for(players[1]), client_for(master)
    status, data = api(client_for(None), "post", base, {"public_role": "paranoid", "character_name": "A",
                                                        "pledges": True})
    assert status == 403
    status, data = api(p0, "post", base, {"public_role": "paranoid", "character_name": "Вася", "pledges": False})
    assert status == 400 and set(data["errors"]) == {"pledges"}
    status, data = api(p0, "post", base, {"public_role": "paranoid", "character_name": "Вася"})
    assert status == 400 and set(data["errors"]) == {"pledges"}
    assert not Signup.objects.exists()
    status, data = api(p0, "post", base, {"public_role": "paranoid", "character_name": "Вася", "pledges": True,
                                          "messengers": "tg @v"})
    assert status == 201, data
    assert (data["character_name"], data["public_role"], data["status"], data["messengers"]) == (
        "Вася", "paranoid", "active", "tg @v")
    status, data = api(p1, "post", base, {"public_role": "paranoid", "character_name": "Петя", "pledges": True})
    assert status == 400 and data["errors"] == {
        "public_role": ["The role “Paranoid” is already claimed: Вася has it."]} and data["code"] == "invalid"
    status, data = api(p1, "post", base, {"public_role": "custom", "custom_role": "PARANOID",
                                          "character_name": "Петя", "pledges": True})
    assert status == 400 and set(data["errors"]) == {"custom_role"}
    # multipart with an avatar
    response = p1.post(base, {"public_role": "custom", "custom_role": "Шаман", "character_name": "Петя",
                              "pledges": "true", "avatar": upload()})
    assert response.status_code == 201 and "/fm_avatars/" in response.json()["avatar_url"]
    assert Signup.objects.get(user=players[1]).avatar
    status, data = api(p1, "post", f"{base}character/", {"character_name": "Пётр"})
    assert status == 200 and data["character_name"] == "Пётр"
    status, data = api(p1, "post", f"{base}character/", {"avatar": None})
    assert status == 200 and data["avatar_url"] == ""
    p0_signup = Signup.objects.get(user=players[0])
    status, data = api(p1, "post", f"{base}{p0_signup.pk}/reject/", {"reason": "no"})
    assert status == 403 and data["code"] == "forbidden"
    status, data = api(boss, "post", f"{base}{p0_signup.pk}/reject/", {"reason": ""})
    assert status == 400 and set(data["errors"]) == {"reason"}
    status, data = api(boss, "post", f"{base}{p0_signup.pk}/reject/", {"reason": "Duplicate account"})
    assert status == 200 and (data["status"], data["reject_reason"]) == ("rejected", "Duplicate account")
    status, data = api(p1, "post", f"{base}withdraw/")
    assert status == 200 and data["status"] == "withdrawn"
    status, data = api(p1, "post", f"{base}withdraw/")
    assert status == 404 and data["code"] == "not_found"
    core.game_close_signup(game=game, actor=master)
    status, data = api(p1, "post", base, {"public_role": "geek", "character_name": "Петя", "pledges": True})
    assert status == 409 and data["code"] == "state"
    # the core join stays refused for forum Mafia
    status, data = api(p1, "post", f"/api/games/{game.pk}/join/", {"display_name": "X"})
    assert status == 403


# == FM-2.2 under concurrency (PostgreSQL) =======================================================================


@pytest.mark.django_db(transaction=True)
def test_FM_2_2_two_concurrent_signups_for_one_role_exactly_one_wins(master, make_user):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: two real concurrent transactions")
    game = fm_signup_game(master, title="Race")
    for round_, role in enumerate(["paranoid", "geek", "jock"]):
        users = [make_user(f"racer{round_}{i}") for i in range(2)]
        def attempt(i: int, users=users, role=role, round_=round_):
            return services.signup_create(game=game, user=users[i], public_role=role,
                                          character_name=f"Racer{round_}-{i}", pledges=True)

        results = race(attempt)
        wins = [r for r in results if isinstance(r, Signup)]
        losses = [r for r in results if isinstance(r, ServiceError)]
        assert len(wins) == 1 and len(losses) == 1, results
        assert Signup.objects.filter(game=game, role_key=role, status="active").count() == 1
        assert wins[0].character_name in losses[0].errors["public_role"][0]
        assert losses[0].code == "invalid"  # refused by the check after the lock, not only by the constraint
        assert Seat.objects.filter(game=game, user__in=users).count() == 1
