"""Public pages: no login, display names only, no contact data."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from tournament.models import Status, Tournament
from tournament.public_selectors import entry_by_token, find_seats, public_seat, seat_index
from tournament.qr import qr_svg
from tournament.ratelimit import allow
from tournament.selectors import payout_amounts, tournament_numbers
from tournament.views import get_tournament

LOOKUPS_PER_MINUTE = 30


def home(request: HttpRequest) -> HttpResponse:
    live = Tournament.objects.exclude(status=Status.FINISHED).order_by("starts_at")[:50]
    return render(request, "public/home.html", {"tournaments": live})


def tournament_public(request: HttpRequest, pk: int) -> HttpResponse:
    from clocks.views import screen_config

    tournament = get_tournament(pk)
    numbers = tournament_numbers(tournament)
    payouts = payout_amounts(tournament, numbers)
    history = tournament.events.filter(action__in=["clock.level", "clock.break"]).order_by("-id")[
        :8
    ]
    return render(
        request,
        "public/tournament.html",
        {
            "tournament": tournament,
            "numbers": numbers,
            "payouts": payouts[:20],
            "config": screen_config(tournament),
            "history": history,
        },
    )


@never_cache
def find_seat(request: HttpRequest, pk: int) -> HttpResponse:
    index = seat_index(pk)
    tournament = index[0] if index is not None else get_tournament(pk)
    query = request.GET.get("q", "")
    results = None
    message = ""
    if "q" in request.GET:
        if not allow(request, "find-seat", LOOKUPS_PER_MINUTE):
            message = _("Too many look-ups. Please wait a minute and try again.")
        else:
            results = find_seats(tournament, query, index=index[1] if index else None)
            if results is None:
                message = _("Type your player number or at least two letters of your name.")
            elif not results:
                message = _("Nobody found. Check the number on your receipt, or ask the floor.")
    template = "public/_find_results.html" if getattr(request, "htmx", None) else "public/find.html"
    return render(
        request,
        template,
        {"tournament": tournament, "results": results or [], "query": query, "message": message},
    )


@never_cache
def my_seat(request: HttpRequest, token: str) -> HttpResponse:
    entry = entry_by_token(token) if allow(request, "my-seat", 120) else None
    if entry is None:
        return render(request, "public/seat_unknown.html", status=404)
    url = request.build_absolute_uri(reverse("my-seat", args=[token]))
    return render(
        request,
        "public/my_seat.html",
        {
            "entry": entry,
            "tournament": entry.tournament,
            "seat": public_seat(entry),
            "qr": qr_svg(url),
            "seat_url": url,
        },
    )


@never_cache
def my_seat_json(request: HttpRequest, token: str) -> JsonResponse:
    entry = entry_by_token(token) if allow(request, "my-seat", 120) else None
    if entry is None:
        return JsonResponse({"detail": _("This link is not valid.")}, status=404)
    return JsonResponse(public_seat(entry).as_dict())
