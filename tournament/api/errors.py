"""API errors: a refused service call becomes a 4xx with the message in the user's language."""

from typing import Any

from django.http import Http404
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import FloorError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, FloorError):
        body: dict[str, Any] = {"detail": str(exc), "code": exc.code}
        if exc.field:
            body["field"] = exc.field
        return Response(body, status=exc.status_code)
    if isinstance(exc, OverflowError):
        # SQLite refuses an integer beyond 64 bits in a query (PostgreSQL finds no row): an id
        # that large names nothing.
        exc = Http404()
    if isinstance(exc, Http404):
        # Django's message for a missing row ("No Tournament matches the given query.") is
        # English whatever the request's language; DRF's own is translated.
        exc = NotFound()
    return drf_exception_handler(exc, context)
