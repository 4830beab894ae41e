"""Public pages: no login, display names only, no contact data."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from clocks.views import screen_config
from core.csvexport import csv_response
from core.errors import Conflict
from core.inputs import search_text, whole_number_or_none
from core.links import public_url
from core.qr import qr_svg
from core.ratelimit import allow
from counts.chart_views import stack_figure
from tables.lookup import seat_by_number
from tournament.charts import story_figures
from tournament.domain.levels import level_reached
from tournament.field import field_final_by_row, field_is_final
from tournament.live import seat_view
from tournament.models import EntryStatus, Status, Tournament
from tournament.public_selectors import (
    PublicSeat,
    entry_by_token,
    find_seats_by_name,
    public_seat,
)
from tournament.results import (
    DATABASE_COLUMNS,
    Results,
    database_json,
    database_rows,
    tournament_results,
)
from tournament.selectors import TournamentNumbers, payout_amounts, tournament_numbers
from tournament.validation import SettingsBroken
from tournament.views import get_tournament

LOOKUPS_PER_MINUTE = 30


def home(request: HttpRequest) -> HttpResponse:
    live = Tournament.objects.exclude(status=Status.FINISHED).order_by("starts_at")[:50]
    return render(request, "public/home.html", {"tournaments": live})


def tournament_public(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    try:
        numbers: TournamentNumbers | None = tournament_numbers(tournament)
        payouts = payout_amounts(tournament, numbers)
        notice = ""
    except SettingsBroken as exc:
        numbers, payouts, notice = None, [], str(exc)
    history = list(
        tournament.events.filter(action__in=["clock.level", "clock.break"]).order_by("-id")[:8]
    )
    breaks = [lv.is_break for lv in tournament.structure.levels.all()]
    for e in history:
        # The level's number (breaks are not levels); older events name only the row.
        e.level_number = e.payload.get("number") or level_reached(  # type: ignore[attr-defined]
            breaks, int(e.payload.get("level_index", 0))
        )
    return render(
        request,
        "public/tournament.html",
        {
            "tournament": tournament,
            "numbers": numbers,
            "payouts": payouts[:20],
            "config": screen_config(tournament),
            "history": history,
            "notice": notice,
            # live: the page's feed (clocks/bigscreen.js) redraws them on a bust or an entry;
            # dark, as the public pages are
            "story": story_figures(
                tournament,
                lambda kind: reverse("story-chart", args=[pk, kind]) + "?dark=1&w=560",
                live=True,
            ),
        },
    )


@never_cache
def find_seat(request: HttpRequest, pk: int) -> HttpResponse:
    """Find my seat. A phone's look-up by number (the htmx request) is answered with one
    statement and never loads the tournament; the full page and name searches do."""
    partial = bool(getattr(request, "htmx", None))
    tournament = None if partial else get_tournament(pk)
    query = search_text(request.GET.get("q"))
    number = whole_number_or_none(query, low=1)
    results: list[PublicSeat] = []
    message = ""
    final: bool | None = None  # what the look-up by number read of whether places are final
    currency = tournament.currency if tournament else ""
    if "q" in request.GET:
        if not allow(request, "find-seat", LOOKUPS_PER_MINUTE):
            message = _("Too many look-ups. Please wait a minute and try again.")
        elif number is not None:
            found = seat_by_number(pk, number)
            if found is None:
                raise Http404(_("No such tournament."))
            currency, seat = found.currency, found.seat
            results = [seat] if seat else []
            final = field_final_by_row(
                alternates_waiting=found.alternates_waiting,
                closed=found.registration_closed,
                status=found.status,
            )
        elif query.isdigit():
            pass  # digits of another script, or a number no entry has: nobody found
        elif len(query) >= 2:
            tournament = tournament or get_tournament(pk)
            currency = tournament.currency
            results = find_seats_by_name(tournament, query)
        else:
            message = _("Type your player number or at least two letters of your name.")
        if not message and not results:
            message = _("Nobody found. Check the number on your receipt, or ask the floor.")
    # A finish shown while entries can still join is provisional (docs/results.md); only a
    # look-up that finds a player out pays for the check, and a look-up by number only while
    # the tournament's row cannot tell (late registration may be open: the clock says).
    provisional = any(r.status == "busted" and not r.prize for r in results) and not (
        final if final is not None else field_is_final(tournament or get_tournament(pk))
    )
    context = {
        "results": results,
        "query": query,
        "message": message,
        "currency": currency,
        "provisional": provisional,
    }
    if partial:  # a fragment: no context processors (no session, user or messages to read)
        return HttpResponse(render_to_string("public/_find_results.html", context))
    return render(request, "public/find.html", {"tournament": tournament, **context})


@never_cache
def my_seat(request: HttpRequest, token: str) -> HttpResponse:
    entry = entry_by_token(token) if allow(request, "my-seat", 120) else None
    if entry is None:
        return render(request, "public/seat_unknown.html", status=404)
    url = public_url(reverse("my-seat", args=[token]), request)
    return render(
        request,
        "public/my_seat.html",
        {
            "entry": entry,
            "tournament": entry.tournament,
            "seat": public_seat(entry),
            "qr": qr_svg(url),
            "seat_url": url,
            # A prize is only given from a final place.
            "place_provisional": entry.status == EntryStatus.BUSTED
            and not entry.prize
            and not field_is_final(entry.tournament),
            # Once out: the player's own stack over the levels (counts/chart_views.py).
            "stack": stack_figure(entry.tournament, entry, name=entry.player.display_name)
            if entry.status == EntryStatus.BUSTED
            else None,
        },
    )


@never_cache
def my_seat_json(request: HttpRequest, token: str) -> JsonResponse:
    entry = entry_by_token(token) if allow(request, "my-seat", 120) else None
    if entry is None:
        return JsonResponse({"detail": _("This link is not valid.")}, status=404)
    return JsonResponse(dict(seat_view(entry)))


def _finished_results(pk: int) -> tuple[Tournament, Results]:
    """A finished tournament's results; 409 with a message before the end (places and prizes
    may still change, a results database takes only final ones)."""
    tournament = get_tournament(pk)
    if tournament.status != Status.FINISHED:
        raise Conflict(_("The results are exported once the tournament has finished."))
    return tournament, tournament_results(tournament)


def results_database_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The results for results databases as CSV (docs/results.md): public names only, UTF-8
    with a byte order mark, formula-like cells guarded (core/csvexport.py)."""
    tournament, results = _finished_results(pk)
    return csv_response(
        f"results-{tournament.pk}-database.csv",
        DATABASE_COLUMNS,
        database_rows(tournament, results),
        bom=True,
    )


def results_database_json(request: HttpRequest, pk: int) -> JsonResponse:
    """The same as JSON (format floor-results-db/1, money in cents)."""
    tournament, results = _finished_results(pk)
    return JsonResponse(database_json(tournament, results))
