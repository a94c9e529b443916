"""The site's allauth adapter: failed-login counters keyed by account *and* client address.

allauth counts failed logins (the ``login_failed`` rate of ``ACCOUNT_RATE_LIMITS``) in the cache under a key
built from the typed login. Here the key is the account (its primary key when the login names one, whether typed
as a user name or an e-mail address, so both spellings share one counter) together with the client's IP address
(``allauth``'s ``get_client_ip``: ``REMOTE_ADDR``, or the ``X-Forwarded-For`` entry ``ALLAUTH_TRUSTED_PROXY_COUNT``
from the right). So a guesser locks out only his own attempts on that account from that address, never another
user, and never the account's owner elsewhere. The login form and ``/api/auth/token/`` share these counters.
"""
from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model
from django.db.models import Q


def login_key(login: str) -> str:
    """The account part of a failed-login counter: ``user:<pk>`` for an existing account named by ``login``
    (user name, case-insensitive, or e-mail address), else ``login:<login lower-cased>``."""
    login = (login or "").strip()
    user_model = get_user_model()
    pk = (user_model._default_manager.filter(Q(username__iexact=login) | Q(email__iexact=login))
          .order_by("pk").values_list("pk", flat=True).first()) if login else None
    return f"user:{pk}" if pk is not None else f"login:{login.lower()}"


class AccountAdapter(DefaultAccountAdapter):
    """allauth's default adapter with failed-login counters per (account, client IP); see the module docstring."""

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        login = credentials.get("email") or credentials.get("username") or ""
        return f"{login_key(login)}:ip:{self.get_client_ip(request)}"
