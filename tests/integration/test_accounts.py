"""Accounts: sign-up, log-in/out, password reset (allauth), the profile editor with avatar checks, the
language switcher, and the per-user language and time zone applied to every page."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from accounts.models import Profile

pytestmark = pytest.mark.django_db

PASSWORD = "Correct-horse-42"


@pytest.fixture(autouse=True)
def _isolated(settings, tmp_path):
    """Uploads go to a throw-away MEDIA_ROOT; allauth's rate limits (kept in the cache) start empty."""
    settings.MEDIA_ROOT = tmp_path / "media"
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(
        username="alice", email="alice@example.com", password=PASSWORD
    )


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


def image_bytes(fmt: str = "PNG", size: tuple[int, int] = (8, 8), noise: bool = False) -> bytes:
    image = Image.new("RGB", size, (200, 30, 30))
    if noise:
        # Random pixels do not compress, so the file is reliably bigger than a small byte limit.
        image = Image.frombytes("RGB", size, random.Random(0).randbytes(size[0] * size[1] * 3))
    buf = io.BytesIO()
    image.save(buf, format=fmt)
    return buf.getvalue()


def upload(name: str, content: bytes, content_type: str = "image/png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type=content_type)


def profile_data(**overrides) -> dict:
    data = {
        "display_name": "Alice the Seer",
        "messengers": "Telegram @alice",
        "language": "ru",
        "time_zone": "Europe/Moscow",
    }
    data.update(overrides)
    return data


# --- allauth: sign-up, log-in/out, password reset -----------------------------------------------------------


def test_signup_creates_user_and_profile(client, django_user_model):
    response = client.post(
        reverse("account_signup"),
        {"email": "bob@example.com", "username": "bob", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    user = django_user_model.objects.get(username="bob")
    assert user.email == "bob@example.com"
    assert user.check_password(PASSWORD)
    profile = Profile.objects.get(user=user)
    assert profile.language == "ru"
    assert profile.time_zone == settings.GM_DEFAULT_USER_TIME_ZONE
    assert client.session["_auth_user_id"] == str(user.pk)


def test_signup_with_mismatched_passwords_is_refused(client, django_user_model):
    response = client.post(
        reverse("account_signup"),
        {"email": "bob@example.com", "username": "bob", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not django_user_model.objects.filter(username="bob").exists()


def test_allauth_pages_use_the_site_layout(client):
    response = client.get(reverse("account_login"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="main"' in html  # base.html's <main>
    assert 'class="site-footer"' in html
    assert 'name="password"' in html
    # head_title is mapped into base.html's <title> (allauth's "Sign In" title, here in Russian).
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert "Войти" in title


@pytest.mark.parametrize("login", ["alice", "alice@example.com"])
def test_login_and_logout(client, user, login):
    response = client.post(reverse("account_login"), {"login": login, "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)

    # Logging out needs a POST (ACCOUNT_LOGOUT_ON_GET is off): a GET only shows the confirmation page.
    assert client.get(reverse("account_logout")).status_code == 200
    assert "_auth_user_id" in client.session
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_with_wrong_password_is_refused(client, user):
    response = client.post(reverse("account_login"), {"login": "alice", "password": "wrong-password"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert "_auth_user_id" not in client.session


def test_password_reset_by_email_link(client, user):
    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    link = re.search(r"https?://[^/\s]+(/\S*/password/reset/key/\S+?/)", message.body).group(1)

    # allauth moves the key from the URL into the session and redirects to a key-less form URL.
    response = client.get(link, follow=True)
    assert response.status_code == 200
    form_url = response.redirect_chain[-1][0]
    new_password = "Another-horse-77"
    response = client.post(form_url, {"password1": new_password, "password2": new_password})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_from_key_done")

    user.refresh_from_db()
    assert user.check_password(new_password)
    client.logout()
    client.post(reverse("account_login"), {"login": "alice", "password": new_password})
    assert client.session["_auth_user_id"] == str(user.pk)


def test_password_reset_link_with_bad_key_changes_nothing(client, user):
    response = client.get(f"/accounts/password/reset/key/{user.pk}-bogus-key/", follow=True)
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


# --- profile editor -----------------------------------------------------------------------------------------


def test_profile_requires_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_profile_page_has_labelled_multipart_form(logged_in):
    response = logged_in.get(reverse("profile"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'enctype="multipart/form-data"' in html
    for field in ("display_name", "avatar", "messengers", "language", "time_zone"):
        assert f'for="id_{field}"' in html, field
        assert f'id="id_{field}"' in html, field


def test_profile_edit_saves_all_fields(logged_in, user):
    response = logged_in.post(
        reverse("profile"),
        profile_data(
            display_name="Alice", messengers="Discord alice#0001", language="en", time_zone="Asia/Tokyo"
        ),
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("profile")
    profile = Profile.objects.get(user=user)
    assert (profile.display_name, profile.messengers, profile.language, profile.time_zone) == (
        "Alice",
        "Discord alice#0001",
        "en",
        "Asia/Tokyo",
    )
    # The new language wins over any earlier switcher cookie, and the next page is in it.
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    page = logged_in.get(reverse("profile"))
    assert page.wsgi_request.LANGUAGE_CODE == "en"
    assert [str(m) for m in page.context["messages"]] == ["Your profile has been saved."]
    assert "Alice" in page.content.decode()  # the header shows the display name


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("time_zone", "Mars/Olympus_Mons"),
        ("language", "xx"),
        ("messengers", "x" * 501),
        ("display_name", "x" * 81),
    ],
)
def test_profile_edit_invalid_field_rerenders_with_error(logged_in, user, field, value):
    other = "display_name" if field == "messengers" else "messengers"
    response = logged_in.post(reverse("profile"), {**profile_data(), other: "Changed", field: value})
    assert response.status_code == 200
    assert list(response.context["form"].errors) == [field]
    assert getattr(Profile.objects.get(user=user), other) == ""


# --- avatar -------------------------------------------------------------------------------------------------


def test_avatar_png_is_accepted_and_shown(logged_in, user):
    response = logged_in.post(
        reverse("profile"), {**profile_data(), "avatar": upload("me.png", image_bytes("PNG"))}
    )
    assert response.status_code == 302
    profile = Profile.objects.get(user=user)
    assert profile.avatar.name.startswith(f"avatars/{user.pk}/")
    assert Path(profile.avatar.path).is_file()
    page = logged_in.get(reverse("profile")).content.decode()
    assert f'src="{profile.avatar.url}"' in page


@pytest.mark.parametrize(
    ("name", "content", "code"),
    [
        ("notes.png", b"this is plain text, not a picture\n" * 10, "invalid_image"),
        ("bitmap.bmp", image_bytes("BMP"), "bad_type"),
        ("bitmap-named.png", image_bytes("BMP"), "bad_type"),
        ("huge.png", image_bytes("PNG", size=(5000, 10)), "too_big"),
        ("noise.png", image_bytes("PNG", size=(64, 64), noise=True), "too_large"),
    ],
    ids=["text-as-png", "bmp", "bmp-as-png", "too-many-pixels", "too-many-bytes"],
)
def test_bad_avatar_is_refused_with_field_error(logged_in, user, settings, name, content, code):
    settings.AVATAR_MAX_BYTES = 5000
    assert (len(content) > settings.AVATAR_MAX_BYTES) == (code == "too_large")
    before = Profile.objects.get(user=user)

    response = logged_in.post(
        reverse("profile"),
        {**profile_data(display_name="Changed", language="en"), "avatar": upload(name, content)},
    )

    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == ["avatar"]
    assert [e.code for e in form.errors.as_data()["avatar"]] == [code]
    assert 'aria-invalid="true"' in response.content.decode()
    after = Profile.objects.get(user=user)
    assert (after.display_name, after.avatar.name, after.language) == ("", "", before.language)
    assert not (Path(settings.MEDIA_ROOT) / "avatars").exists()


def test_bad_avatar_keeps_the_stored_one(logged_in, user):
    logged_in.post(reverse("profile"), {**profile_data(), "avatar": upload("me.png", image_bytes("PNG"))})
    stored = Profile.objects.get(user=user).avatar.name

    response = logged_in.post(
        reverse("profile"), {**profile_data(), "avatar": upload("evil.png", b"<svg></svg>", "image/svg+xml")}
    )

    assert response.status_code == 200
    assert "avatar" in response.context["form"].errors
    assert Profile.objects.get(user=user).avatar.name == stored
    # The page still shows the stored avatar, not the refused upload.
    assert response.context["current_avatar"].name == stored


def test_replacing_avatar_deletes_the_old_file(logged_in, user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        logged_in.post(
            reverse("profile"), {**profile_data(), "avatar": upload("one.png", image_bytes("PNG"))}
        )
    old_path = Path(Profile.objects.get(user=user).avatar.path)
    with django_capture_on_commit_callbacks(execute=True):
        logged_in.post(
            reverse("profile"), {**profile_data(), "avatar": upload("two.gif", image_bytes("GIF"))}
        )
    new = Profile.objects.get(user=user).avatar
    assert new.name.endswith(".gif")
    assert Path(new.path).is_file()
    assert not old_path.exists()


def test_avatar_can_be_cleared(logged_in, user):
    logged_in.post(reverse("profile"), {**profile_data(), "avatar": upload("me.png", image_bytes("PNG"))})
    response = logged_in.post(reverse("profile"), {**profile_data(), "avatar-clear": "on"})
    assert response.status_code == 302
    assert Profile.objects.get(user=user).avatar.name == ""


def test_stored_avatar_is_not_revalidated_on_unrelated_edits(logged_in, user, settings):
    logged_in.post(reverse("profile"), {**profile_data(), "avatar": upload("me.png", image_bytes("PNG"))})
    profile = Profile.objects.get(user=user)
    # A stricter limit set later, and the file gone from storage, must not block editing other fields.
    settings.AVATAR_MAX_BYTES = 1
    Path(profile.avatar.path).unlink()

    response = logged_in.post(reverse("profile"), profile_data(display_name="Renamed"))

    assert response.status_code == 302
    assert Profile.objects.get(user=user).display_name == "Renamed"


# --- language and time zone ---------------------------------------------------------------------------------


def test_default_language_is_russian(client):
    response = client.get(reverse("account_login"))
    assert response.wsgi_request.LANGUAGE_CODE == "ru"
    assert '<html lang="ru">' in response.content.decode()


def test_set_language_switches_ui_and_saves_profile(logged_in, user):
    response = logged_in.post(reverse("set_language"), {"language": "en", "next": reverse("profile")})
    assert response.status_code == 302
    assert response["Location"] == reverse("profile")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert Profile.objects.get(user=user).language == "en"

    page = logged_in.get(reverse("profile"))
    assert page.wsgi_request.LANGUAGE_CODE == "en"
    assert '<html lang="en">' in page.content.decode()

    logged_in.post(reverse("set_language"), {"language": "ru", "next": reverse("profile")})
    assert Profile.objects.get(user=user).language == "ru"
    assert '<html lang="ru">' in logged_in.get(reverse("profile")).content.decode()


def test_set_language_for_anonymous_sets_cookie_only(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/accounts/login/"})
    assert response.status_code == 302
    page = client.get(reverse("account_login"))
    assert page.wsgi_request.LANGUAGE_CODE == "en"
    assert "Sign In" in page.content.decode()


def test_set_language_ignores_unknown_language_and_unsafe_next(logged_in, user):
    response = logged_in.post(reverse("set_language"), {"language": "xx", "next": "https://evil.example/"})
    assert response.status_code in (204, 302)
    assert "evil.example" not in response.get("Location", "")
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert Profile.objects.get(user=user).language == "ru"


def test_set_language_requires_post(client):
    assert client.get(reverse("set_language"), {"language": "en"}).status_code == 405


def test_profile_language_applies_on_a_fresh_browser(client, user):
    Profile.objects.filter(user=user).update(language="en")
    client.force_login(user)  # no language cookie in this client
    response = client.get(reverse("profile"))
    assert response.wsgi_request.LANGUAGE_CODE == "en"
    assert '<html lang="en">' in response.content.decode()


def test_pages_use_the_profile_time_zone(logged_in, user):
    Profile.objects.filter(user=user).update(time_zone="Asia/Tokyo", language="en")
    response = logged_in.get(reverse("profile"))
    assert response.context["TIME_ZONE"] == "Asia/Tokyo"
    assert "Times are shown in Asia/Tokyo." in response.content.decode()


def test_anonymous_pages_use_the_default_time_zone(client):
    response = client.get(reverse("account_login"))
    assert response.context["TIME_ZONE"] == settings.GM_DEFAULT_USER_TIME_ZONE
    assert settings.GM_DEFAULT_USER_TIME_ZONE in response.content.decode()


def test_profile_time_zone_change_takes_effect_on_next_page(logged_in, user):
    logged_in.post(reverse("profile"), profile_data(time_zone="America/New_York"))
    assert logged_in.get(reverse("profile")).context["TIME_ZONE"] == "America/New_York"


def test_session_user_brings_can_host_and_unread_in_one_query_as_the_permission_rules_say(make_user, running_game,
                                                                                         django_assert_num_queries):
    """``accounts.backends.ModelBackend.get_user``: ``gm_can_host`` agrees with ``User.objects.with_perm`` for a
    plain user, the permission held directly or through a group, a superuser; ``gm_unread`` counts unread
    notifications only; all in one query."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group, Permission
    from django.contrib.contenttypes.models import ContentType
    from django.utils import timezone

    from accounts.backends import ModelBackend
    from gm.inbox.models import Notification

    host = Permission.objects.get(content_type__app_label="core", codename="host_game")
    other = Permission.objects.exclude(pk=host.pk).first()
    plain, direct, grouped, boss, elsewhere = (make_user(f"gu-{n}") for n in range(5))
    direct.user_permissions.add(host)
    hosts = Group.objects.create(name="hosts")
    hosts.permissions.add(host)
    grouped.groups.add(hosts)
    boss.is_superuser = True
    boss.save()
    elsewhere.user_permissions.add(other)  # some other permission is not this one
    for read_at in (None, None, timezone.now()):
        Notification.objects.create(user=direct, game=running_game, kind=Notification.Kind.PRIVATE_MESSAGE,
                                    created_at=timezone.now(), read_at=read_at)
    backend = ModelBackend()
    may = set(get_user_model().objects.with_perm("core.host_game", backend="django.contrib.auth.backends.ModelBackend")
              .values_list("pk", flat=True))
    ContentType.objects.clear_cache()
    with django_assert_num_queries(2):  # the permission's content type, once per process (Django's cache)
        backend.get_user(plain.pk)
    for user, unread in ((plain, 0), (direct, 2), (grouped, 0), (boss, 0), (elsewhere, 0)):
        with django_assert_num_queries(1):
            loaded = backend.get_user(user.pk)
            assert loaded.profile is not None
        assert loaded.gm_can_host == (user.pk in may), user.username
        assert loaded.gm_unread == unread, user.username
    assert {plain.pk, elsewhere.pk}.isdisjoint(may) and {direct.pk, grouped.pk, boss.pk} <= may
    assert backend.get_user(10**9) is None
    assert backend.get_user("not-a-number") is None  # a tampered session reads as nobody
    # Every field as the ORM loads it, the profile's too (the statement is written by hand).
    orm = get_user_model().objects.select_related("profile").get(pk=direct.pk)
    loaded = backend.get_user(str(direct.pk))  # the session keeps the id as a string
    fields = get_user_model()._meta.concrete_fields
    assert [getattr(loaded, f.attname) for f in fields] == [getattr(orm, f.attname) for f in fields]
    assert loaded.profile.pk == orm.profile.pk and loaded.profile.time_zone == orm.profile.time_zone
    assert loaded.profile.user is loaded and not loaded._state.adding and loaded._state.db == "default"
    orm.profile.delete()  # a user without a profile: ``user.profile`` raises as after select_related
    without = backend.get_user(direct.pk)
    with pytest.raises(get_user_model().profile.RelatedObjectDoesNotExist):
        getattr(without, "profile")  # noqa: B009 - the access is what is tested
    direct.is_active = False
    direct.save()
    assert backend.get_user(direct.pk) is None  # ModelBackend.user_can_authenticate
