"""API error shape: ``{"errors": {field: [messages]}, "code": slug}`` for every refused request."""
from __future__ import annotations

import math

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import ErrorDetail, Throttled
from rest_framework.parsers import BaseParser
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from ..services import ServiceError

STATUS_FOR_CODE = {
    "forbidden": status.HTTP_403_FORBIDDEN,
    "not_found": status.HTTP_404_NOT_FOUND,
    "late": status.HTTP_409_CONFLICT,
    "state": status.HTTP_409_CONFLICT,
    "review": status.HTTP_409_CONFLICT,
    "duplicate": status.HTTP_409_CONFLICT,
    "full": status.HTTP_409_CONFLICT,
    "conflict": status.HTTP_409_CONFLICT,
    "stale": status.HTTP_409_CONFLICT,
    "not_allowed": status.HTTP_403_FORBIDDEN,
    "throttled": status.HTTP_429_TOO_MANY_REQUESTS,
}


def _flatten(detail, prefix: str, out: dict[str, list[str]]) -> dict[str, list[str]]:
    """DRF's nested error details (``{"durations": {"round": [...]}}``, list indexes, ``non_field_errors``) as
    flat dotted keys (``durations.round``; ``__all__`` for the whole request), messages as plain strings."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            key = "" if key == api_settings.NON_FIELD_ERRORS_KEY else str(key)
            _flatten(value, ".".join(k for k in (prefix, key) if k), out)
    elif isinstance(detail, list | tuple):
        for index, item in enumerate(detail):
            if isinstance(item, dict | list | tuple):
                _flatten(item, ".".join(k for k in (prefix, str(index)) if k), out)
            else:
                out.setdefault(prefix or "__all__", []).append(str(item))
    else:
        out.setdefault(prefix or "__all__", []).append(str(detail))
    return out


def _raised_by_parser(exc: BaseException) -> bool:
    """Whether ``exc`` came out of a DRF parser (e.g. ``RecursionError`` from too deeply nested JSON)."""
    tb = exc.__traceback__
    while tb is not None:
        if isinstance(tb.tb_frame.f_locals.get("self"), BaseParser):
            return True
        tb = tb.tb_next
    return False


def exception_handler(exc, context):
    """DRF exception handler: :class:`ServiceError` → 400/403/404/409 with field errors (and its ``extra`` keys, e.g.
    ``phase``/``open_phase`` of a ``stale`` order); Django
    ``ValidationError`` → 400; everything DRF knows keeps its status, with its detail under ``errors``."""
    if isinstance(exc, ServiceError):
        body = {"errors": exc.errors, "code": exc.code}
        if exc.details is not None:
            body["details"] = exc.details
        body.update({k: v for k, v in exc.extra.items() if k not in body})
        return Response(body,
                        status=STATUS_FOR_CODE.get(exc.code, status.HTTP_400_BAD_REQUEST))
    if isinstance(exc, DjangoValidationError):
        errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
        return Response({"errors": errors, "code": "invalid"}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RecursionError) and _raised_by_parser(exc):
        return Response({"errors": {"__all__": [_("The request body is nested too deeply.")]}, "code": "parse_error"},
                        status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Throttled) and not getattr(exc, "keep_detail", False):
        # DRF's own wording is half translated; say what to do, in the reader's language.
        exc.detail = ErrorDetail(_("Slow down: too many requests. Try again in %(seconds)s s.")
                                 % {"seconds": math.ceil(exc.wait or 60)}, code="throttled")
    response = drf_exception_handler(exc, context)
    if response is not None:
        detail = response.data
        if isinstance(detail, dict) and set(detail) == {"detail"}:
            errors = {"__all__": [str(detail["detail"])]}
            code = getattr(detail["detail"], "code", "error")
        else:
            errors = _flatten(detail, "", {})
            code = "invalid"
        response.data = {"errors": errors, "code": code}
    return response
