"""API error shape: ``{"errors": {field: [messages]}, "code": slug}`` for every refused request."""
from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ..services import ServiceError

STATUS_FOR_CODE = {
    "forbidden": status.HTTP_403_FORBIDDEN,
    "not_found": status.HTTP_404_NOT_FOUND,
    "late": status.HTTP_409_CONFLICT,
    "state": status.HTTP_409_CONFLICT,
    "duplicate": status.HTTP_409_CONFLICT,
    "full": status.HTTP_409_CONFLICT,
    "not_allowed": status.HTTP_403_FORBIDDEN,
}


def exception_handler(exc, context):
    """DRF exception handler: :class:`ServiceError` → 400/403/404/409 with field errors; Django
    ``ValidationError`` → 400; everything DRF knows keeps its status, with its detail under ``errors``."""
    if isinstance(exc, ServiceError):
        return Response({"errors": exc.errors, "code": exc.code},
                        status=STATUS_FOR_CODE.get(exc.code, status.HTTP_400_BAD_REQUEST))
    if isinstance(exc, DjangoValidationError):
        errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
        return Response({"errors": errors, "code": "invalid"}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None:
        detail = response.data
        if isinstance(detail, dict) and set(detail) == {"detail"}:
            errors = {"__all__": [str(detail["detail"])]}
            code = getattr(detail["detail"], "code", "error")
        elif isinstance(detail, dict):
            errors = {k: [str(m) for m in (v if isinstance(v, list) else [v])] for k, v in detail.items()}
            code = "invalid"
        else:
            errors = {"__all__": [str(m) for m in (detail if isinstance(detail, list) else [detail])]}
            code = "invalid"
        response.data = {"errors": errors, "code": code}
    return response
