"""Pages that show what two apps know together: a tournament's results with its league points
(tournament/results.py, leagues/selectors.py). Public: public names only."""

from __future__ import annotations

import dataclasses

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from leagues.selectors import finish_points
from tournament.csvexport import csv_response
from tournament.models import Tournament
from tournament.results import (
    EXPORT_COLUMNS,
    Results,
    export_json,
    export_rows,
    tournament_results,
)
from tournament.views import get_tournament


def _results(pk: int) -> tuple[Tournament, Results]:
    tournament = get_tournament(pk)
    results = tournament_results(tournament)
    points = finish_points(tournament)
    if points is not None:
        finishes = [
            dataclasses.replace(f, points=float(points[f.number]) if f.number in points else None)
            for f in results.finishes
        ]
        results = dataclasses.replace(results, finishes=finishes)
    return tournament, results


def results_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The results: printable, with the CSV and JSON downloads."""
    tournament, results = _results(pk)
    return render(
        request,
        "public/results.html",
        {
            "tournament": tournament,
            "results": results,
            "with_deals": any(f.deal_share is not None for f in results.finishes),
            "with_bounties": any(f.bounties for f in results.finishes),
            "with_seats": any(f.won_seat for f in results.finishes),
            "with_points": any(f.points is not None for f in results.finishes),
        },
    )


def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, results = _results(pk)
    return csv_response(
        f"results-{tournament.pk}.csv", EXPORT_COLUMNS, export_rows(tournament, results)
    )


def results_json(request: HttpRequest, pk: int) -> JsonResponse:
    tournament, results = _results(pk)
    return JsonResponse(export_json(tournament, results))
