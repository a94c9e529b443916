"""``POST /api/auth/token/``: a user name (or e-mail address) and password in, the user's API token out.

Failed attempts are counted by the login form's limiter (allauth's ``login_failed`` rate in
``ACCOUNT_RATE_LIMITS``, keyed per account and client IP by :class:`accounts.adapter.AccountAdapter`), so the
form and the API share one budget: once it is spent the answer is 429 with ``Retry-After`` until it refills.
A correct password does not spend it.
"""
from __future__ import annotations

from allauth.account.adapter import get_adapter
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken

from gm.core.api.throttles import AuthThrottle

#: seconds a client is told to wait (the window of the ``login_failed`` rate).
RETRY_AFTER = 60


class LimitedAuthTokenSerializer(AuthTokenSerializer):
    """DRF's token serializer authenticating through allauth's adapter, so failures count towards the limit.

    Raises ``Throttled`` (429) when the account's failure budget from this address is spent, and DRF's usual
    ``ValidationError`` (400, code ``authorization``) for wrong credentials or an inactive account."""

    def validate(self, attrs):
        request = self.context["request"]
        django_request = getattr(request, "_request", request)
        try:
            user = get_adapter(django_request).authenticate(
                django_request, username=attrs.get("username"), password=attrs.get("password"))
        except DjangoValidationError as exc:  # allauth's "too_many_login_attempts"
            throttled = exceptions.Throttled(wait=RETRY_AFTER, detail=exc.messages[0])
            throttled.keep_detail = True  # allauth's own message, already translated
            raise throttled from None
        if not user or not user.is_active:
            raise serializers.ValidationError(
                gettext_lazy("Unable to log in with provided credentials."), code="authorization")
        attrs["user"] = user
        return attrs


class TokenView(ObtainAuthToken):
    """Exchange credentials for the user's API token (created on first use); see the module docstring."""

    serializer_class = LimitedAuthTokenSerializer
    throttle_classes = [AuthThrottle]

    @extend_schema(request=LimitedAuthTokenSerializer,
                   responses={200: inline_serializer("AuthToken", {"token": serializers.CharField()})})
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)
