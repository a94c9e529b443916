"""Password guessing: ``/api/auth/token/`` and the login form share allauth's failed-login counters, kept in the
cache and keyed by account and client IP. The 11th failure within a minute is answered 429; another account, or
the same account from another address, is unaffected; a correct password spends nothing."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

URL = "/api/auth/token/"


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def token(username: str, password: str, ip: str = "203.0.113.5", **headers):
    return Client(REMOTE_ADDR=ip, **headers).post(URL, {"username": username, "password": password})


def test_eleventh_wrong_password_in_a_minute_is_429_and_another_account_is_unaffected(make_user, frozen):
    alice, bob = make_user("alice"), make_user("bob")
    for _ in range(10):
        assert token("alice", "wrong").status_code == 400
    response = token("alice", "wrong")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    # spent: even the right password waits
    assert token("alice", "pw-alice-123").status_code == 429
    # another account from the same address is not locked out, nor has its own budget been touched
    response = token("bob", "pw-bob-123")
    assert response.status_code == 200 and response.json()["token"]
    for _ in range(10):
        assert token("bob", "wrong").status_code == 400
    # the same account from elsewhere (its owner) still logs in
    assert token("alice", "pw-alice-123", ip="198.51.100.7").status_code == 200
    # the e-mail spelling of the account shares the counter
    assert token(alice.email, "pw-alice-123").status_code == 429
    # the window is a minute
    frozen.shift(61)
    assert token("alice", "pw-alice-123").status_code == 200
    assert bob


def test_correct_passwords_spend_nothing(make_user):
    make_user("alice")
    for _ in range(9):
        assert token("alice", "wrong").status_code == 400
    for _ in range(5):
        assert token("alice", "pw-alice-123").status_code == 200
    assert token("alice", "wrong").status_code == 400
    assert token("alice", "wrong").status_code == 429


def test_login_form_and_api_share_the_counter(make_user):
    make_user("alice")
    for _ in range(10):
        assert token("alice", "wrong").status_code == 400
    client = Client(REMOTE_ADDR="203.0.113.5")
    response = client.post(reverse("account_login"), {"login": "alice", "password": "pw-alice-123"})
    assert response.status_code == 200  # the form again, with the error; not logged in
    assert "_auth_user_id" not in client.session
    assert "too_many_login_attempts" in {e.code for e in response.context["form"].non_field_errors().as_data()}


def test_forwarded_for_counts_only_behind_trusted_proxies(make_user, settings):
    make_user("alice")
    # no trusted proxy: a client-supplied X-Forwarded-For is ignored, so forging it gains nothing
    for i in range(10):
        assert token("alice", "wrong", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}").status_code == 400
    assert token("alice", "wrong", HTTP_X_FORWARDED_FOR="10.0.1.1").status_code == 429
    # one trusted proxy (same REMOTE_ADDR for everyone): the address it appended is the client's
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    proxy = "192.0.2.1"
    for _ in range(10):
        assert token("alice", "wrong", ip=proxy, HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.9").status_code == 400
    assert token("alice", "wrong", ip=proxy, HTTP_X_FORWARDED_FOR="198.51.100.9").status_code == 429
    assert token("alice", "pw-alice-123", ip=proxy, HTTP_X_FORWARDED_FOR="198.51.100.10").status_code == 200
