"""A refusal that escapes a page (FloorError) is a 4xx with its message, never a 500."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from core.errors import FloorError


class FloorErrorMiddleware:
    """Pages catch the refusals they expect and show them in place; anything else a service
    or selector refuses (a tournament stored with broken settings, a stale plan) lands here."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, FloorError):
            return None
        if request.path.startswith("/api/") or request.path.endswith(".json"):
            return JsonResponse(
                {"detail": str(exception), "code": exception.code},
                status=exception.status_code,
            )
        return render(
            request, "refused.html", {"message": str(exception)}, status=exception.status_code
        )
