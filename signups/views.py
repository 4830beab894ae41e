"""Sign-up pages (written next)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse

from tournament.roles import floor_required


def signup_page(request: HttpRequest, pk: int) -> HttpResponse:
    raise Http404


def signup_poster(request: HttpRequest, pk: int) -> HttpResponse:
    raise Http404


def signup_status(request: HttpRequest, token: str) -> HttpResponse:
    raise Http404


@floor_required
def signups_console(request: HttpRequest, pk: int) -> HttpResponse:
    raise Http404
