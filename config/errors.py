"""The server-error handler: a database that is restarting is a 503 "try again", not a 500.

When PostgreSQL restarts (or a connection from the pool was cut) a request fails with an
OperationalError. Nothing was written (the request's transaction rolled back), so the honest
answer is 503 with Retry-After, which the pages and API clients retry. Everything else is the
plain 500. Neither page touches the database, the session or a template with context processors.
"""

from __future__ import annotations

import sys

from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.html import escape
from django.utils.translation import gettext as _

# The style sheet is a static file: the Content-Security-Policy refuses inline <style>.
PAGE = (
    '<!doctype html><html><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width,initial-scale=1">'
    '<title>Floor</title><link rel="stylesheet" href="{css}">'
    "</head><body><div><h1>{title}</h1><p>{text}</p></div></body></html>"
)


def _page(title: str, text: str) -> str:
    return (
        PAGE.replace("{css}", escape(static("floor/error.css")))
        .replace("{title}", escape(title))
        .replace("{text}", escape(text))
    )


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get(
        "Accept", ""
    )


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: the database did not answer (or is known to be down, see
    config/database.py); nothing was saved."""
    title = _("One moment, please")
    text = _(
        "The database is not answering right now. Nothing was saved; try again in a few seconds."
    )
    if _wants_json(request):
        response: HttpResponse = JsonResponse(
            {"detail": text, "code": "database_unavailable"}, status=503
        )
    else:
        response = HttpResponse(_page(title, text), status=503)
    response["Retry-After"] = "2"
    return response


def request_too_large(request: HttpRequest) -> HttpResponse:
    """413: the request body is over the cap (config/request_cap.py refuses it unread)."""
    title = _("Too much data")
    text = _("This request is larger than Floor accepts. Nothing was saved.")
    if _wants_json(request):
        return JsonResponse({"detail": text, "code": "request_too_large"}, status=413)
    return HttpResponse(_page(title, text), status=413)


def server_error(request: HttpRequest) -> HttpResponse:
    exc = sys.exc_info()[1]
    if isinstance(exc, OperationalError | InterfaceError):
        return database_unavailable(request)
    title = _("Something went wrong")
    text = _("The server could not answer this request. The error has been logged.")
    if _wants_json(request):
        return JsonResponse({"detail": text, "code": "server_error"}, status=500)
    return HttpResponse(_page(title, text), status=500)
